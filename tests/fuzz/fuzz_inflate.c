/* fuzz_inflate: libFuzzer target for io/inflate.c, the gzip decoder of the
 * WebAssembly build. The input is the compressed stream, handed over in
 * odd-sized pieces and read out in others: any bytes must give output, the
 * end, truncation or an error, never a crash, a hang or unbounded memory. */
#include <stdint.h>
#include <string.h>

#include "io/inflate.h"

#define FUZZ_MAX_OUT ((size_t)16 << 20) /* deflate's ratio reaches ~1032:1 */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct mem {
	const uint8_t *p;
	size_t n, step;
};

static int read_mem(void *ctx, unsigned char *buf, size_t cap, size_t *got)
{
	struct mem *m = ctx;
	size_t k = m->n < cap ? m->n : cap;
	k = k < m->step ? k : m->step;
	memcpy(buf, m->p, k);
	m->p += k;
	m->n -= k;
	*got = k;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t sizes[] = {1, 7, 4096, 65536};
	static unsigned char out[65536];
	struct mem m = {data, size, size % 3 ? 13 : 65536};
	struct infl *z = infl_new(read_mem, &m);
	if (!z)
		return 0;
	size_t total = 0, got;
	for (unsigned i = 0; total < FUZZ_MAX_OUT; i++) {
		if (infl_read(z, out, sizes[i % 4], &got) || !got)
			break;
		total += got;
	}
	(void)infl_msg(z);
	infl_free(z);
	return 0;
}
