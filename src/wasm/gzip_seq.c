/* gzip_seq: io/gzip.c's interface (io/internal.h) for the WebAssembly
 * build, which has neither threads nor ISA-L: gzip_read inflates in the
 * caller's thread, as the caller asks for bytes, with io/inflate.c,
 * reading the compressed bytes from the file (the peeked head first).
 *
 * The outcomes are io/gzip.c's: a stream cut inside a member is
 * truncated, not an error; corrupt data is ERR_FORMAT at the uncompressed
 * offset reached, "corrupt gzip data (member N): WHAT"; bytes after the
 * last member are trailing. (WHAT is this inflater's wording, not ISA-L's.) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/inflate.h"
#include "io/internal.h"

struct gzip {
	struct infl *z;
	size_t peek_off;
	int read_errno;
	int64_t total; /* bytes inflated: the offset of errors */
};

/* infl's input: the peeked head, then the file. */
static int read_in(void *ctx, unsigned char *buf, size_t cap, size_t *got)
{
	struct src *s = ctx;
	struct gzip *g = s->gz;
	if (g->peek_off < s->peek_len) {
		size_t k = s->peek_len - g->peek_off;
		k = k < cap ? k : cap;
		memcpy(buf, s->peek + g->peek_off, k);
		g->peek_off += k;
		*got = k;
		return 0;
	}
	if (s->eof) {
		*got = 0;
		return 0;
	}
	ssize_t n;
	do
		n = read(s->fd, buf, cap);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		g->read_errno = errno;
		return -1;
	}
	*got = (size_t)n;
	return 0;
}

int gzip_start(struct src *s, size_t readahead, struct err *e)
{
	(void)readahead;
	struct gzip *g = calloc(1, sizeof *g);
	if (g)
		g->z = infl_new(read_in, s);
	if (!g || !g->z) {
		free(g);
		return err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
	}
	s->gz = g;
	return 0;
}

int gzip_read(struct src *s, void *dst, size_t cap, size_t *got, struct err *e)
{
	struct gzip *g = s->gz;
	int st = infl_read(g->z, dst, cap, got);
	g->total += (int64_t)*got;
	s->pos += (int64_t)*got;
	if (st == INFL_OK || st == INFL_TRUNCATED) {
		s->truncated = st == INFL_TRUNCATED;
		s->trailing = infl_trailing(g->z);
		return 0;
	}
	if (st == INFL_IO)
		return err_set(e, ERR_IO, s->path, infl_raw_read(g->z), "read failed: %s",
			       strerror(g->read_errno));
	if (st == INFL_NOMEM)
		return err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
	int rc = err_set(e, ERR_FORMAT, s->path, g->total, "corrupt gzip data (member %d): %s",
			 infl_member(g->z), infl_msg(g->z));
	err_mark_uncompressed(e, true);
	return rc;
}

int64_t gzip_raw_pos(const struct src *s)
{
	/* the peeked head was read from the file before infl took it */
	int64_t n = infl_raw_read(s->gz->z);
	return n > (int64_t)s->peek_len ? n : (int64_t)s->peek_len;
}

void gzip_close(struct src *s)
{
	infl_free(s->gz->z);
	free(s->gz);
	s->gz = NULL;
}
