/* err: one error value for the whole library.
 *
 * Fallible functions return 0 on success or a negative enum err_code and fill
 * a caller-owned struct err with the path, the byte offset where the problem
 * was found (in the decompressed stream for gzip input, flagged so the message
 * can say so) and a message a user understands. Only src/cli turns an error
 * into an exit code. Depends on libc only.
 */
#ifndef GP_ERR_H
#define GP_ERR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum err_code {
	ERR_OK = 0,
	ERR_USAGE = -1,	 /* bad command line */
	ERR_IO = -2,	 /* open/read/write failed */
	ERR_FORMAT = -3, /* input is not what it should be */
	ERR_LIMIT = -4,	 /* input exceeds a size/depth limit */
	ERR_NOMEM = -5,	 /* allocation failed or a cap was hit */
	ERR_STRICT = -6, /* --strict and anomalies were found */
	ERR_GATE = -7,	 /* an analysis gate tripped (exit code 1) */
};

struct err {
	enum err_code code;
	int64_t offset;	   /* byte offset of the problem, -1 if none */
	bool uncompressed; /* offset counts decompressed bytes */
	char path[512];
	char msg[512];
};

/* Fills *e (when e is not NULL) and returns code, so callers can write
 * `return err_set(e, ERR_FORMAT, path, off, "expected ','");`. */
int err_set(struct err *e, enum err_code code, const char *path, int64_t offset, const char *fmt,
	    ...) __attribute__((format(printf, 5, 6)));

/* Marks the offset in e as counting decompressed bytes. */
void err_mark_uncompressed(struct err *e, bool uncompressed);

/* "PATH: byte N (uncompressed): MSG" into buf (always NUL-terminated).
 * Path and message are written as err_quote writes them, but for quotes
 * and backslashes, which stay: whatever bytes a file name or a quoted
 * piece of input holds, the message is one line of printable text. */
void err_format(const struct err *e, char *buf, size_t size);

/* Where an offset points, as every message says it: prefix "byte N" (and
 * " (uncompressed)" when it counts decompressed bytes) into buf, or ""
 * when offset is negative (unknown). */
void err_format_offset(const char *prefix, int64_t offset, bool uncompressed, char *buf,
		       size_t size);

/* s[0..len) as an error message quotes input: printable ASCII and
 * well-formed UTF-8 as they are; a backslash and the quotes ' and " after
 * a backslash; \n, \r and \t as those escapes; other control bytes, DEL
 * and bytes of no well-formed UTF-8 sequence as \xNN. Cut at a whole
 * character when buf is too small; always NUL-terminated. Returns buf. */
const char *err_quote(char *buf, size_t size, const void *s, size_t len);

/* Process exit code for an error: 0 ok, 1 gate, 2 everything else. */
int err_exit_code(int code);

#endif
