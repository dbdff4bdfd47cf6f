/* io/inflate: gzip streams made by zlib (the reference encoder) inflate to
 * the bytes zlib was given, whatever the sizes the input arrives in and the
 * output is taken in; cut streams are truncated, corrupt ones are errors,
 * bytes after the last member are counted. */
#include <stdlib.h>
#include <zlib.h>

#include "io/inflate.h"
#include "test.h"

struct mem {
	const unsigned char *p;
	size_t n, off, step;
};

static int read_mem(void *ctx, unsigned char *buf, size_t cap, size_t *got)
{
	struct mem *m = ctx;
	size_t k = m->n - m->off;
	k = k < cap ? k : cap;
	k = k < m->step ? k : m->step;
	memcpy(buf, m->p + m->off, k);
	m->off += k;
	*got = k;
	return 0;
}

/* zlib's gzip of in[0..n) at level into out: its length. */
static size_t gz(const unsigned char *in, size_t n, unsigned char *out, size_t cap, int level)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	if (deflateInit2(&z, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return 0;
	z.next_in = (unsigned char *)(uintptr_t)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	int zr = deflate(&z, Z_FINISH);
	size_t r = zr == Z_STREAM_END ? z.total_out : 0;
	deflateEnd(&z);
	return r;
}

/* Inflates g[0..n) (input step bytes at a time, output chunk at a time)
 * into out: the status that ended it, *len the bytes. */
static int inflate_all(const unsigned char *g, size_t n, size_t step, size_t chunk,
		       unsigned char *out, size_t cap, size_t *len, int64_t *trailing)
{
	struct mem m = {g, n, 0, step};
	struct infl *z = infl_new(read_mem, &m);
	size_t t = 0, got;
	int st;
	if (!z)
		return INFL_NOMEM;
	for (;;) {
		size_t c = chunk < cap - t ? chunk : cap - t;
		st = infl_read(z, out + t, c, &got);
		if (st || !got)
			break;
		t += got;
	}
	*len = t;
	*trailing = infl_trailing(z);
	infl_free(z);
	return st;
}

void test_io_inflate_zlib(struct t *t)
{
	srand(7);
	for (int it = 0; it < 60; it++) {
		/* random bytes (stored blocks), few letters (dynamic codes),
		 * short text (fixed codes, with back-references) */
		size_t n = it % 3 == 2 ? (size_t)(10 + it) : (size_t)(rand() % 200000);
		unsigned char *in = malloc(n + 1), *g = malloc(2 * n + 2000),
			      *out = malloc(2 * n + 10);
		for (size_t i = 0; i < n; i++)
			in[i] = it % 3 == 0 ? (unsigned char)rand()
					    : (unsigned char)"abcabcdx"[rand() % 8];
		size_t gn = gz(in, n, g, n + 1000, it % 10);
		CHECK(t, gn > 0);
		bool two = it % 4 == 0, junk = it % 5 == 0;
		size_t all = gn;
		if (two)
			all += gz(in, n, g + all, n + 1000, 1);
		if (junk) {
			memcpy(g + all, "\0\0xyz", 5);
			all += 5;
		}
		size_t len;
		int64_t tr;
		int st = inflate_all(g, all, 1 + (size_t)rand() % 70000, 1 + (size_t)rand() % 70000,
				     out, 2 * n + 10, &len, &tr);
		CHECK_INT(t, st, INFL_OK);
		CHECK_INT(t, len, two ? 2 * n : n);
		CHECK(t, !memcmp(out, in, n) && (!two || !memcmp(out + n, in, n)));
		CHECK_INT(t, tr, junk ? 5 : 0);
		/* cut inside the member: truncated, and what came out is a prefix */
		st = inflate_all(g, gn - 3, 4096, 4096, out, 2 * n + 10, &len, &tr);
		CHECK_INT(t, st, INFL_TRUNCATED);
		CHECK(t, len <= n && !memcmp(out, in, len));
		/* a flipped bit of the CRC-32 */
		g[gn - 8] ^= 1;
		st = inflate_all(g, gn, 65536, 65536, out, 2 * n + 10, &len, &tr);
		CHECK_INT(t, st, INFL_BAD);
		free(in);
		free(g);
		free(out);
	}
}

void test_io_inflate_bad(struct t *t)
{
	static const unsigned char not_gzip[] = "{\"traceEvents\": []}";
	static const unsigned char bad_type[] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0x07, 0, 0};
	unsigned char out[64];
	size_t len;
	int64_t tr;
	CHECK_INT(t, inflate_all(not_gzip, sizeof not_gzip, 64, 64, out, sizeof out, &len, &tr),
		  INFL_BAD);
	struct mem m = {bad_type, sizeof bad_type, 0, 64};
	struct infl *z = infl_new(read_mem, &m);
	size_t got;
	CHECK_INT(t, infl_read(z, out, sizeof out, &got), INFL_BAD);
	CHECK_STR(t, infl_msg(z), "invalid block type");
	CHECK_INT(t, infl_read(z, out, sizeof out, &got), INFL_BAD); /* and it stays so */
	infl_free(z);
}
