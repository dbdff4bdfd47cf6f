/* gzout: gzip compression behind a FILE; see gzout.h. */
#include "io/gzout.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <zlib.h>

struct gzout {
	z_stream z;
	gz_header h;
	FILE *dst;
	int failed;
	unsigned char out[1 << 16];
};

/* Deflates avail_in bytes (or finishes) into dst; -1 on a failed write. */
static int pump(struct gzout *g, int flush)
{
	int zr;
	do {
		g->z.next_out = g->out;
		g->z.avail_out = sizeof g->out;
		zr = deflate(&g->z, flush);
		if (zr == Z_STREAM_ERROR)
			return -1;
		size_t have = sizeof g->out - g->z.avail_out;
		if (have && fwrite(g->out, 1, have, g->dst) != have)
			return -1;
	} while (g->z.avail_out == 0 || (flush == Z_FINISH && zr != Z_STREAM_END));
	return 0;
}

static ssize_t gz_write(void *cookie, const char *buf, size_t n)
{
	struct gzout *g = cookie;
	if (g->failed)
		return -1;
	size_t done = 0;
	while (done < n) {
		size_t take = n - done > (1u << 30) ? (1u << 30) : n - done;
		g->z.next_in = (Bytef *)(uintptr_t)(buf + done);
		g->z.avail_in = (uInt)take;
		if (pump(g, Z_NO_FLUSH)) {
			g->failed = 1;
			return -1;
		}
		done += take;
	}
	return (ssize_t)n;
}

static int gz_close(void *cookie)
{
	struct gzout *g = cookie;
	g->z.next_in = NULL;
	g->z.avail_in = 0;
	int bad = g->failed || pump(g, Z_FINISH) || fflush(g->dst);
	deflateEnd(&g->z);
	free(g);
	return bad ? EOF : 0;
}

FILE *gzout_open(FILE *dst, struct err *e)
{
	struct gzout *g = calloc(1, sizeof *g);
	if (!g || deflateInit2(&g->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			       Z_DEFAULT_STRATEGY) != Z_OK) {
		free(g);
		err_set(e, ERR_NOMEM, NULL, -1, "out of memory (gzip output)");
		return NULL;
	}
	g->h.os = 255; /* "unknown": the same bytes on every system */
	deflateSetHeader(&g->z, &g->h);
	g->dst = dst;
	FILE *f =
	    fopencookie(g, "w", (cookie_io_functions_t){.write = gz_write, .close = gz_close});
	if (!f) {
		deflateEnd(&g->z);
		free(g);
		err_set(e, ERR_NOMEM, NULL, -1, "out of memory (gzip output)");
	}
	return f;
}
