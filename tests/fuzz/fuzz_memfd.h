/* fuzz_memfd: a fuzz target's input as a file. The bytes go into a memory
 * file (memfd) named by its /proc/self/fd path, so a reader opens and maps
 * it as it would a file on disk; and the trace targets' load of it, with
 * the loader's contract checked. Header-only: each target is built from
 * its own .c file (the replay driver and `make fuzz`). */
#ifndef GP_FUZZ_MEMFD_H
#define GP_FUZZ_MEMFD_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kineto/kineto.h"

/* The memfd holding data[0..size) and its path in path[0..n); -1 when it
 * cannot be made. The caller closes it. */
static inline int fuzz_memfd(const uint8_t *data, size_t size, char *path, size_t n)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	for (size_t off = 0; off < size;) {
		ssize_t w = write(fd, data + off, size - off);
		if (w <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)w;
	}
	snprintf(path, n, "/proc/self/fd/%d", fd);
	return fd;
}

/* data[0..size) loaded as a trace file: the trace, or NULL when the load
 * failed. Aborts when the loader breaks its contract (a success without a
 * trace, a failure with one). */
static inline struct trace *fuzz_load_trace(const uint8_t *data, size_t size,
					    const struct kineto_opts *o)
{
	char path[64];
	int fd = fuzz_memfd(data, size, path, sizeof path);
	if (fd < 0)
		return NULL;
	struct trace *t = NULL;
	struct err e = {0};
	int rc = kineto_load(path, o, &t, &e);
	close(fd);
	if ((rc == 0) != (t != NULL))
		abort();
	return t;
}

/* The trace of path loaded from data[0..size) pushed in slices of `slice`
 * bytes (kineto_push, as the static site loads it): kineto_push_end's
 * result. Also the unit tests' (tests/unit/test_push.c). */
static inline int fuzz_push_load(const char *path, const struct kineto_opts *o, const uint8_t *data,
				 size_t size, size_t slice, struct trace **out, struct err *e)
{
	struct kineto_push *p;
	*out = NULL;
	int rc = kineto_push_begin(path, o, (int64_t)size, &p, e);
	if (rc)
		return rc;
	for (size_t at = 0; at < size;) {
		size_t k = size - at < slice ? size - at : slice;
		char *room = kineto_push_room(p, k);
		if (!room)
			break;
		memcpy(room, data + at, k);
		if (kineto_push_data(p, k))
			break;
		at += k;
	}
	return kineto_push_end(p, out);
}

#endif
