/* io internal: private to src/io; nothing outside this folder includes it.
 *
 * The struct behind `struct src`, and the hand-off between source.c (open,
 * plain reads, accessors) and gzip.c (the inflating thread and the consumer
 * side of its ring of output buffers).
 */
#ifndef GP_IO_INTERNAL_H
#define GP_IO_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

/* Bytes read at open to recognise gzip; for other input they are delivered
 * first. More than the 2 bytes of the gzip magic so that a caller sniffing
 * the first chunk of a pipe sees a whole SQLite or Nsight header. */
#define SRC_PEEK 64

struct gzip; /* gzip.c */

struct src {
	char *path; /* as shown to users: "<stdin>" for "-" */
	int fd;
	bool own_fd;	  /* false for stdin, which we never close */
	bool is_reg;	  /* regular file: reads never block indefinitely */
	int64_t raw_size; /* st_size, or -1 */
	int64_t raw_pos;  /* plain input: bytes read from fd */
	int64_t pos;	  /* bytes delivered */
	unsigned char peek[SRC_PEEK];
	size_t peek_len, peek_off;
	bool is_gzip;
	bool eof;
	int read_errno;	  /* plain input: a read error held back while earlier
			     bytes are delivered */
	bool truncated;	  /* valid after end of stream */
	int64_t trailing; /* valid after end of stream */
	struct gzip *gz;  /* NULL unless is_gzip */
	char *map;	  /* src_map: the whole file, or NULL */
	size_t map_len, map_released;
};

/* Starts the inflating thread on s (s->fd, then s->peek as the first input
 * bytes), inflating up to readahead bytes ahead of the consumer (at least
 * 2 MiB). Returns 0 or ERR_NOMEM/ERR_IO with e filled. */
int gzip_start(struct src *s, size_t readahead, struct err *e);
/* src_read for gzip input: copies out of the ring, waiting for the thread
 * when it is empty. */
int gzip_read(struct src *s, void *dst, size_t cap, size_t *got, struct err *e);
/* Compressed bytes the thread has read so far. */
int64_t gzip_raw_pos(const struct src *s);
/* Stops and joins the thread (wherever it is: inflating, waiting for a free
 * buffer, blocked on a pipe) and frees s->gz. */
void gzip_close(struct src *s);

#endif
