/* fuzz_jscan: jscan_skip on arbitrary bytes at every vector level the CPU
 * runs, and through its general loop (the same bytes after one space: the
 * fast path of containers starts only at '[' or '{'). Every run must give
 * the same status, end, counts and error offset and message; a difference,
 * a crash or a sanitizer report is a finding. The input is copied to a
 * buffer of exactly its size, so any read past the window is reported. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json/jscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fz_res {
	int rc;
	long end;
	unsigned tol;
	int64_t off;
	char msg[sizeof(((struct err *)0)->msg)];
};

static void fz_skip(const uint8_t *data, size_t size, int lv, bool lead, struct fz_res *r)
{
	char *b = malloc(size + 1);
	if (!b)
		abort();
	b[0] = ' ';
	memcpy(b + 1, data, size);
	struct err e = {0};
	const char *s = lead ? b : b + 1;
	struct jscan j = {
	    .p = s, .end = b + 1 + size, .base = s, .path = "f", .e = &e, .simd = (uint8_t)lv};
	memset(r, 0, sizeof *r);
	r->rc = jscan_skip(&j);
	r->end = r->rc == JS_OK ? (long)(j.p - (b + 1)) : -1;
	r->tol = j.tolerated;
	if (r->rc == JS_ERR) {
		r->off = e.offset - lead;
		memcpy(r->msg, e.msg, sizeof r->msg);
	}
	free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_res want, got;
	fz_skip(data, size, JSCAN_SCALAR, true, &want);
	for (int lv = JSCAN_AUTO; lv <= jscan_simd_best(); lv++) {
		fz_skip(data, size, lv, false, &got);
		if (got.rc != want.rc || got.end != want.end || got.tol != want.tol ||
		    got.off != want.off || strcmp(got.msg, want.msg))
			abort();
	}
	return 0;
}
