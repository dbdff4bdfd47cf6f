/* no_tmpfile: an LD_PRELOAD shim for tests/hostile/cases/30-files.sh. An
 * open(2) with O_TMPFILE fails with EOPNOTSUPP, as on a filesystem without
 * unnamed files, so that the named fallback of src/io/outfile.c (and its
 * removal on signals) runs; every other open passes through. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/types.h>

typedef int (*open_fn)(const char *, int, ...);

static int shim(const char *sym, const char *path, int flags, mode_t mode)
{
	if ((flags & O_TMPFILE) == O_TMPFILE) {
		errno = EOPNOTSUPP;
		return -1;
	}
	open_fn real = (open_fn)dlsym(RTLD_NEXT, sym);
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return real(path, flags, mode);
}

int open(const char *path, int flags, ...);
int open64(const char *path, int flags, ...);

int open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
	va_end(ap);
	return shim("open", path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
	va_end(ap);
	return shim("open64", path, flags, mode);
}
