/* fuzz_trace_push: the push form of the trace loader (kineto_push, what
 * the static site uses) against kineto_load on the same arbitrary bytes:
 * the same result, or the same error (code, byte offset, message), with
 * the bytes pushed in slices of 1 to 4096 bytes (picked by the input's
 * size) and a 64-byte first read window on both sides (so that short
 * inputs span windows too). A difference aborts; so do
 * a crash, a sanitizer report or a leak. gzip input is kineto_load's only
 * (the push form takes plain JSON) and is skipped. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_memfd.h"
#include "trace/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The rows' columns and counts, which a load difference would change. */
static uint64_t digest(const struct trace *t)
{
	uint64_t h = t->ev.n * 0x9E3779B97F4A7C15ull ^ t->counts.bytes ^ t->counts.events << 7;
	for (size_t r = 0; r < t->ev.n; r++)
		h = (h ^ (uint64_t)t->ev.ts[r] ^ (uint64_t)t->ev.dur[r] << 17 ^
		     (uint64_t)t->ev.name[r] << 41 ^ t->ev.offset[r]) *
		    0x100000001B3ull;
	for (int k = 0; k < AN_COUNT; k++)
		h = (h ^ t->anomalies.count[k] ^ (uint64_t)t->anomalies.first_offset[k] << 9) *
		    0x100000001B3ull;
	return h ^ t->gpu.n << 3 ^ t->op.n << 5 ^ t->mem.n << 11 ^ t->flows.n << 13;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b)
		return 0;
	char path[64];
	int fd = fuzz_memfd(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	struct kineto_opts ko = {.max_memory = 256u << 20, .threads = 1, .window = 64};
	struct trace *want = NULL, *got = NULL;
	struct err we = {0}, ge = {0};
	int wrc = kineto_load(path, &ko, &want, &we);
	static const size_t slices[] = {1, 3, 17, 256, 4096};
	int grc = fuzz_push_load(path, &ko, data, size, slices[size % 5], &got, &ge);
	if (grc != wrc || (grc && (ge.offset != we.offset || strcmp(ge.msg, we.msg))) ||
	    (!grc && digest(got) != digest(want)))
		abort();
	tr_free(want);
	tr_free(got);
	close(fd);
	return 0;
}
