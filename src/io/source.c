/* source: opens a file or stdin, peeks at its first bytes to tell gzip from
 * everything else, and serves plain input with read(2) straight into the
 * caller's buffer. gzip input is handed to gzip.c. See source.h. */
#include "io/source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/internal.h"

/* One read(2) never asks for more than this (read caps at about 2 GiB). */
#define READ_MAX ((size_t)1 << 30)

static ssize_t read_retry(int fd, void *buf, size_t n)
{
	ssize_t r;
	do
		r = read(fd, buf, n > READ_MAX ? READ_MAX : n);
	while (r < 0 && errno == EINTR);
	return r;
}

/* Fills s->peek with up to SRC_PEEK bytes (fewer only at end of input). */
static int peek_head(struct src *s, struct err *e)
{
	while (s->peek_len < SRC_PEEK) {
		ssize_t r = read_retry(s->fd, s->peek + s->peek_len, SRC_PEEK - s->peek_len);
		if (r < 0)
			return err_set(e, ERR_IO, s->path, -1, "cannot read: %s", strerror(errno));
		if (r == 0) {
			s->eof = true;
			break;
		}
		s->peek_len += (size_t)r;
	}
	s->raw_pos = (int64_t)s->peek_len;
	return 0;
}

/* Opens path ("-" is stdin) and starts inflating when it is gzip. On
 * failure *out is NULL and e says why, with the user's path. */
int src_open(struct src **out, const char *path, struct err *e)
{
	return src_open_ex(out, path, 0, e);
}

int src_open_ex(struct src **out, const char *path, size_t readahead, struct err *e)
{
	*out = NULL;
	bool is_stdin = strcmp(path, "-") == 0;
	const char *shown = is_stdin ? "<stdin>" : path;
	struct src *s = calloc(1, sizeof *s);
	char *p = strdup(shown);
	if (!s || !p) {
		free(s);
		free(p);
		return err_set(e, ERR_NOMEM, shown, -1, "out of memory");
	}
	s->path = p;
	s->fd = -1;
	int rc;
	if (is_stdin) {
		s->fd = STDIN_FILENO;
	} else {
		s->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (s->fd < 0) {
			rc = err_set(e, ERR_IO, shown, -1, "cannot open: %s", strerror(errno));
			goto fail;
		}
		s->own_fd = true;
	}
	struct stat st;
	if (fstat(s->fd, &st)) {
		rc = err_set(e, ERR_IO, shown, -1, "cannot open: %s", strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		rc = err_set(e, ERR_IO, shown, -1, "cannot open: %s", strerror(EISDIR));
		goto fail;
	}
	s->is_reg = S_ISREG(st.st_mode);
	s->raw_size = s->is_reg ? (int64_t)st.st_size : -1;
	if (s->is_reg)
		(void)posix_fadvise(s->fd, 0, 0, POSIX_FADV_SEQUENTIAL); /* a hint only */
	rc = peek_head(s, e);
	if (rc)
		goto fail;
	if (s->peek_len >= 2 && s->peek[0] == 0x1f && s->peek[1] == 0x8b) {
		s->is_gzip = true;
		rc = gzip_start(s, readahead, e);
		if (rc)
			goto fail;
	}
	*out = s;
	return 0;
fail:
	src_close(s);
	return rc;
}

/* Plain input: the peeked bytes first, then read(2) into dst. A read error
 * after some bytes were copied is reported by the next call, so that the
 * bytes before it are never lost. */
static int plain_read(struct src *s, void *dst, size_t cap, size_t *got, struct err *e)
{
	unsigned char *d = dst;
	size_t n = 0;
	if (s->read_errno)
		return err_set(e, ERR_IO, s->path, -1, "cannot read: %s", strerror(s->read_errno));
	if (s->peek_off < s->peek_len) {
		n = s->peek_len - s->peek_off;
		if (n > cap)
			n = cap;
		memcpy(d, s->peek + s->peek_off, n);
		s->peek_off += n;
	}
	if (n < cap && !s->eof) {
		ssize_t r = read_retry(s->fd, d + n, cap - n);
		if (r < 0 && n == 0)
			return err_set(e, ERR_IO, s->path, -1, "cannot read: %s", strerror(errno));
		if (r < 0)
			s->read_errno = errno;
		else if (r == 0)
			s->eof = true;
		else {
			n += (size_t)r;
			s->raw_pos += r;
		}
	}
	s->pos += (int64_t)n;
	*got = n;
	return 0;
}

/* Reads up to cap bytes (fewer is normal: one read(2), or what the ring
 * holds). *got == 0 with return 0 is end of stream; a cap of 0 also gives
 * *got == 0. Errors repeat on later calls. */
int src_read(struct src *s, void *dst, size_t cap, size_t *got, struct err *e)
{
	*got = 0;
	if (cap == 0)
		return 0;
	if (s->is_gzip)
		return gzip_read(s, dst, cap, got, e);
	return plain_read(s, dst, cap, got, e);
}

int64_t src_pos(const struct src *s)
{
	return s->pos;
}

int64_t src_raw_pos(const struct src *s)
{
	return s->is_gzip ? gzip_raw_pos(s) : s->raw_pos;
}

int64_t src_raw_size(const struct src *s)
{
	return s->raw_size;
}

int src_fill(struct src *s, char *buf, size_t cap, size_t *len, bool *eof, struct err *e)
{
	while (*len < cap) {
		size_t got;
		int rc = src_read(s, buf + *len, cap - *len, &got, e);
		if (rc)
			return rc;
		if (!got) {
			*eof = true;
			break;
		}
		*len += got;
	}
	return 0;
}

bool src_is_gzip(const struct src *s)
{
	return s->is_gzip;
}

bool src_truncated(const struct src *s)
{
	return s->truncated;
}

int64_t src_trailing_bytes(const struct src *s)
{
	return s->trailing;
}

/* The path as shown to users ("<stdin>" for "-"), for callers' own errors. */
const char *src_path(const struct src *s)
{
	return s->path;
}

/* Stops the inflating thread if any (also before end of stream), closes the
 * file unless it is stdin, and frees s. NULL is a no-op. */
int src_map(struct src *s, const char **data, size_t *len)
{
#ifdef __EMSCRIPTEN__
	/* emscripten's mmap is no mapping: it allocates the file's size in the
	 * module's memory, zeroes it and reads the whole file into it: the
	 * peak is the file's size. Reading in windows is faster there and
	 * holds one window. */
	(void)s, (void)data, (void)len;
	return -1;
#endif
	if (s->is_gzip || !s->is_reg || s->raw_size <= 0 || s->map || s->peek_off ||
	    (uint64_t)s->raw_size > SIZE_MAX)
		return -1;
	void *m = mmap(NULL, (size_t)s->raw_size, PROT_READ, MAP_PRIVATE, s->fd, 0);
	if (m == MAP_FAILED)
		return -1;
	(void)madvise(m, (size_t)s->raw_size, MADV_SEQUENTIAL);
	s->map = m;
	s->map_len = (size_t)s->raw_size;
	s->map_released = 0;
	s->raw_pos = 0;
	*data = m;
	*len = s->map_len;
	return 0;
}

void src_map_prefault(struct src *s)
{
#ifdef MADV_POPULATE_READ
	/* (Linux 5.14; an older kernel's EINVAL only costs the faults) */
	if (s->map)
		(void)madvise(s->map, s->map_len, MADV_POPULATE_READ);
#else
	(void)s;
#endif
}

void src_map_release(struct src *s, size_t upto)
{
	const size_t page = 1u << 21; /* release in 2 MiB steps */
	if (!s->map || upto > s->map_len)
		return;
	size_t end = upto / page * page;
	if (end > s->map_released) {
		(void)madvise(s->map + s->map_released, end - s->map_released, MADV_DONTNEED);
		s->map_released = end;
	}
	s->raw_pos = (int64_t)upto;
	s->pos = (int64_t)upto;
}

void src_close(struct src *s)
{
	if (!s)
		return;
	if (s->map)
		munmap(s->map, s->map_len);
	if (s->gz)
		gzip_close(s);
	if (s->own_fd && s->fd >= 0)
		close(s->fd);
	free(s->path);
	free(s);
}
