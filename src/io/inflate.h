/* inflate: a gzip decoder (RFC 1952 members of RFC 1951 DEFLATE data) in
 * portable C, run in the caller's thread: no library, no thread. It is the
 * gzip reader of the WebAssembly build (src/wasm/), where neither ISA-L
 * nor zlib is available; the native build reads gzip with ISA-L
 * (io/gzip.c) and compiles this one for its tests.
 *
 * The caller supplies compressed bytes through a read callback and takes
 * inflated bytes as it wants them, any amount at a time; memory is the
 * 32 KiB window, one input buffer and the tables (about 100 KiB in all),
 * whatever the input. Members follow one another as in io/gzip.c: after a
 * member, another gzip magic starts the next; any other bytes end the
 * stream and are counted as trailing. Each member's CRC-32 and ISIZE are
 * checked. Depends on libc only.
 */
#ifndef GP_IO_INFLATE_H
#define GP_IO_INFLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Reads up to cap compressed bytes into buf: 0 with *got (0 at the end of
 * the input), or -1 on a read error (errno kept by the callee). */
typedef int (*infl_read_fn)(void *ctx, unsigned char *buf, size_t cap, size_t *got);

enum infl_status {
	INFL_OK,	/* bytes, or the end of the stream (*got 0) */
	INFL_TRUNCATED, /* the input ends inside a member: the end */
	INFL_BAD,	/* corrupt data: infl_msg says what */
	INFL_IO,	/* the read callback failed */
	INFL_NOMEM,
};

struct infl;

/* A decoder of the stream that rd returns, or NULL (out of memory). */
struct infl *infl_new(infl_read_fn rd, void *ctx);
/* Up to cap inflated bytes into dst (*got). The end of the stream is *got
 * 0 with INFL_OK, or with INFL_TRUNCATED when the input stopped inside a
 * member. The bytes decoded before an error (or the cut) come first, with
 * INFL_OK; the next call returns the status, with *got 0, and so does
 * every call after it. */
int infl_read(struct infl *z, unsigned char *dst, size_t cap, size_t *got);
/* What was wrong, for INFL_BAD ("invalid distance too far back"). */
const char *infl_msg(const struct infl *z);
/* The member being decoded (1 for the first). */
int infl_member(const struct infl *z);
/* Compressed bytes read through rd so far. */
int64_t infl_raw_read(const struct infl *z);
/* Bytes after the last member (valid once the stream has ended). */
int64_t infl_trailing(const struct infl *z);
void infl_free(struct infl *z);

#endif
