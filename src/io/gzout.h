/* gzout: a stdio stream that gzip-compresses what is written to it into
 * another stream, for outputs named *.gz.
 *
 * gzout_open returns a FILE (fopencookie) whose bytes are deflated (zlib,
 * one gzip member, header with mtime 0 and OS "unknown", so the same input
 * gives the same bytes) into dst; fclose of it finishes the member and
 * flushes dst, and returns EOF when any write to dst failed. dst stays open
 * and the caller's. Owns the zlib state until that fclose. Depends on zlib
 * and libc (GNU fopencookie).
 */
#ifndef GP_IO_GZOUT_H
#define GP_IO_GZOUT_H

#include <stdio.h>

#include "core/err.h"

/* A compressing stream onto dst, or NULL with e filled (out of memory). */
FILE *gzout_open(FILE *dst, struct err *e);

#endif
