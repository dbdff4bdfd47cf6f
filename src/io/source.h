/* source: the bytes of one input, from a file or stdin, decompressed when
 * they are gzip.
 *
 * src_open sniffs the first bytes: gzip (magic 1f 8b, any number of
 * concatenated members) is inflated transparently on a background thread so
 * decompression overlaps with the caller's parsing; anything else is passed
 * through with plain read(2). The caller pulls bytes with src_read into its
 * own buffer. Offsets are always in the delivered (decompressed) stream.
 * A gzip stream that simply stops (cut file) is not an error: every byte
 * that could be inflated is delivered, then end of stream, and
 * src_truncated() says so. Corrupt compressed data is an ERR_FORMAT after the
 * good bytes were delivered. Owns its file descriptor, thread and buffers.
 * One reader thread at a time. Depends on core, zlib/ISA-L, pthreads.
 */
#ifndef GP_SOURCE_H
#define GP_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

struct src;

/* path "-" means standard input. */
int src_open(struct src **out, const char *path, struct err *e);
/* As src_open; for gzip input, inflate up to readahead bytes ahead of the
 * reader (0 = the 2 MiB default), e.g. one read window. */
int src_open_ex(struct src **out, const char *path, size_t readahead, struct err *e);
/* Reads up to cap bytes into dst. *got == 0 means end of stream. */
int src_read(struct src *s, void *dst, size_t cap, size_t *got, struct err *e);
/* Reads into buf[*len..cap) until it is full or the stream ends (then
 * *eof is set), advancing *len. 0, or src_read's error. */
int src_fill(struct src *s, char *buf, size_t cap, size_t *len, bool *eof, struct err *e);
/* Bytes delivered so far (decompressed offset of the next byte). */
int64_t src_pos(const struct src *s);
/* Bytes consumed from the underlying file so far, and its size (-1 when
 * unknown, e.g. a pipe): for progress indicators. Safe to call from the
 * reading thread only. */
int64_t src_raw_pos(const struct src *s);
int64_t src_raw_size(const struct src *s);
bool src_is_gzip(const struct src *s);
/* After end of stream: the gzip data ended before its final member was
 * complete. */
bool src_truncated(const struct src *s);
/* After end of stream: bytes after the last gzip member that were not
 * another member (ignored). */
int64_t src_trailing_bytes(const struct src *s);
const char *src_path(const struct src *s);

/* Plain regular files can be read in place instead: src_map maps the whole
 * file read-only and gives its bytes (no copies, no read calls); the caller
 * then calls src_map_release as it goes, so pages it no longer needs leave
 * the process (memory stays bounded by what is between the release point and
 * the caller's position). Returns 0, or -1 when the input is gzip, not a
 * regular file, empty, or cannot be mapped (then use src_read). Progress
 * (src_raw_pos) follows the release point. The file must not shrink while
 * mapped. */
int src_map(struct src *s, const char **data, size_t *len);
void src_map_release(struct src *s, size_t upto);
/* For a caller that reads all of the mapping and keeps it: fills its page
 * tables now, in one call, instead of one page fault per few pages read
 * (best effort: nothing happens where the kernel cannot). */
void src_map_prefault(struct src *s);
void src_close(struct src *s);

#endif
