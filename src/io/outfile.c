/* outfile: see outfile.h. */
#include "io/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The one exception to "no global mutable state": a signal handler can
 * reach nothing but static storage, and it must know which named
 * temporaries to remove. A slot's name is written while the slot is claimed
 * (OF_CLAIMED) and read by the handler only once armed (OF_ARMED); the
 * states are lock-free atomics, which a handler may read (C11 7.14.1.1), and
 * threads claim slots with a compare-and-swap. Eight named outputs at once
 * is more than any command writes; a ninth is written without the cleanup. */
enum { OF_FREE, OF_CLAIMED, OF_ARMED };
#define OF_SLOTS 8
static char of_name[OF_SLOTS][4096];
static atomic_int of_state[OF_SLOTS];
static atomic_flag of_installed = ATOMIC_FLAG_INIT;

static const int of_sigs[] = {SIGINT, SIGTERM, SIGHUP};
#define OF_NSIGS (sizeof of_sigs / sizeof of_sigs[0])

/* Removes the armed temporaries, then lets the signal do what it does by
 * default (SA_RESETHAND restored that action on entry: the signal raised
 * here ends the process as soon as the handler returns). Only
 * async-signal-safe calls. */
static void of_on_signal(int sig)
{
	int en = errno;
	for (int i = 0; i < OF_SLOTS; i++)
		if (atomic_load(&of_state[i]) == OF_ARMED)
			unlink(of_name[i]);
	errno = en;
	raise(sig);
}

/* Installs the handler, once, for each signal still at its default action
 * (a signal ignored, or handled by the program, is left alone). */
static void of_install(void)
{
	if (atomic_flag_test_and_set(&of_installed))
		return;
	struct sigaction sa = {.sa_handler = of_on_signal, .sa_flags = SA_RESETHAND};
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < OF_NSIGS; i++)
		sigaddset(&sa.sa_mask, of_sigs[i]);
	for (size_t i = 0; i < OF_NSIGS; i++) {
		struct sigaction old;
		if (!sigaction(of_sigs[i], NULL, &old) && !(old.sa_flags & SA_SIGINFO) &&
		    old.sa_handler == SIG_DFL)
			sigaction(of_sigs[i], &sa, NULL);
	}
}

/* Holds off the signals that remove temporaries (the window between a
 * name's creation and its record, or its rename and its release). */
static void of_hold(sigset_t *old)
{
	sigset_t s;
	sigemptyset(&s);
	for (size_t i = 0; i < OF_NSIGS; i++)
		sigaddset(&s, of_sigs[i]);
	pthread_sigmask(SIG_BLOCK, &s, old);
}

static void of_release(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* Records name for the handler: its slot, or -1 when all are taken. */
static int of_arm(const char *name)
{
	for (int i = 0; i < OF_SLOTS; i++) {
		int want = OF_FREE;
		if (atomic_compare_exchange_strong(&of_state[i], &want, OF_CLAIMED)) {
			snprintf(of_name[i], sizeof of_name[i], "%s", name);
			atomic_store(&of_state[i], OF_ARMED);
			return i;
		}
	}
	return -1;
}

static void of_disarm(int slot)
{
	if (slot >= 0)
		atomic_store(&of_state[slot], OF_FREE);
}

/* Where O_TMPFILE is not to be had: no support in the kernel (EISDIR,
 * EINVAL: the flag is unknown) or in the filesystem (EOPNOTSUPP), or a
 * file system that takes it for O_CREAT | O_EXCL on the folder, which
 * always exists (EEXIST: emscripten's, in the WebAssembly build). */
static bool of_no_tmpfile(int en)
{
	return en == EOPNOTSUPP || en == EISDIR || en == EINVAL || en == EEXIST;
}

/* An unnamed file in dir that linkat can name through /proc, or -1 with
 * errno (ENOENT when /proc is missing, which is then a fallback too). */
static int of_tmpfile(const char *dir, int flags, mode_t mode)
{
	int fd = open(dir, O_TMPFILE | flags | O_CLOEXEC, mode);
	if (fd < 0)
		return -1;
	char p[64];
	snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
	if (access(p, F_OK)) {
		close(fd);
		errno = EOPNOTSUPP;
		return -1;
	}
	return fd;
}

static int of_fail(struct err *e, const char *path, const char *what, int en)
{
	return err_set(e, ERR_IO, path, -1, "%s: %s", what, strerror(en));
}

/* The fallback: TARGET.tmp.XXXXXX, removed on the signals. */
static int of_named(struct outfile *o, struct err *e)
{
	snprintf(o->tmp, sizeof o->tmp, "%s.tmp.XXXXXX", o->path);
	sigset_t old;
	of_hold(&old);
	of_install();
	int fd = mkostemp(o->tmp, O_CLOEXEC);
	int en = errno;
	if (fd >= 0)
		o->slot = of_arm(o->tmp);
	of_release(&old);
	if (fd < 0) {
		o->tmp[0] = 0;
		return of_fail(e, o->path, "cannot create output", en);
	}
	/* mkstemp creates 0600; give the output the usual umask-based mode */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	o->fd = fd;
	return 0;
}

/* The descriptor a path names (/dev/stdout, /dev/stderr, /dev/fd/N,
 * /proc/self/fd/N), or -1. */
static int given_fd(const char *path)
{
	if (!strcmp(path, "/dev/stdout"))
		return 1;
	if (!strcmp(path, "/dev/stderr"))
		return 2;
	const char *n = !strncmp(path, "/dev/fd/", 8)	       ? path + 8
			: !strncmp(path, "/proc/self/fd/", 14) ? path + 14
							       : NULL;
	if (!n || !*n)
		return -1;
	long v = 0;
	for (; *n; n++) {
		if (*n < '0' || *n > '9' || v > 1000000)
			return -1;
		v = v * 10 + (*n - '0');
	}
	return (int)v;
}

int outfile_open(struct outfile *o, const char *path, struct err *e)
{
	o->fd = o->slot = -1;
	o->tmp[0] = 0;
	o->direct = false;
	size_t n = strlen(path);
	if (n + sizeof ".tmp.XXXXXX" > sizeof o->tmp)
		return err_set(e, ERR_USAGE, path, -1, "output path too long");
	memcpy(o->path, path, n + 1);
	char dir[4096];
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else
		snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	int given = given_fd(path);
	if (given >= 0) { /* the descriptor itself, as a shell's > or >> left it */
		int dfd = fcntl(given, F_DUPFD_CLOEXEC, 0);
		if (dfd < 0)
			return of_fail(e, path, "cannot open output", errno);
		o->fd = dfd;
		o->direct = true;
		return 0;
	}
	struct stat st;
	if (!stat(path, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		/* a device, FIFO or socket (-o /dev/null, -o /dev/stdout): written
		 * in place, since a rename would replace the device by a file */
		int dfd = open(path, O_WRONLY | O_CLOEXEC);
		if (dfd < 0)
			return of_fail(e, path, "cannot open output", errno);
		o->fd = dfd;
		o->direct = true;
		return 0;
	}
	int fd = of_tmpfile(dir, O_WRONLY, 0666);
	if (fd >= 0) {
		o->fd = fd;
		return 0;
	}
	if (!of_no_tmpfile(errno))
		return of_fail(e, path, "cannot create output", errno);
	return of_named(o, e);
}

/* A name beside the target no one uses yet: TARGET.tmp. and six random
 * letters or digits. */
static void of_fresh_name(const char *path, char *buf, size_t n, unsigned attempt)
{
	static const char abc[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[6];
	if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t x = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)getpid() ^
			     ((uint64_t)attempt << 40);
		memcpy(r, &x, sizeof r);
	}
	char s[7];
	for (int i = 0; i < 6; i++)
		s[i] = abc[r[i] % (sizeof abc - 1)];
	s[6] = 0;
	snprintf(buf, n, "%s.tmp.%s", path, s);
}

/* Names the unnamed file o->fd as o->path (signals held by the caller). */
static int of_link(struct outfile *o, struct err *e)
{
	char fdp[64];
	snprintf(fdp, sizeof fdp, "/proc/self/fd/%d", o->fd);
	if (!linkat(AT_FDCWD, fdp, AT_FDCWD, o->path, AT_SYMLINK_FOLLOW))
		return 0;
	int en = errno;
	for (unsigned i = 0; en == EEXIST && i < 100; i++) {
		char tmp[sizeof o->path + 16];
		of_fresh_name(o->path, tmp, sizeof tmp, i);
		if (linkat(AT_FDCWD, fdp, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW)) {
			en = errno;
			continue;
		}
		if (!rename(tmp, o->path))
			return 0;
		en = errno;
		unlink(tmp);
		break;
	}
	return of_fail(e, o->path, "cannot rename output into place", en);
}

int outfile_commit(struct outfile *o, struct err *e)
{
	if (o->fd < 0)
		return err_set(e, ERR_IO, o->path, -1, "output already closed");
	int rc = 0;
	if (o->direct) {
		if (close(o->fd))
			rc = of_fail(e, o->path, "write failed", errno);
		o->fd = -1;
		return rc;
	}
	sigset_t old;
	of_hold(&old);
	if (o->tmp[0]) {
		if (close(o->fd))
			rc = of_fail(e, o->path, "write failed", errno);
		else if (rename(o->tmp, o->path))
			rc = of_fail(e, o->path, "cannot rename output into place", errno);
		if (rc)
			unlink(o->tmp);
		of_disarm(o->slot);
	} else {
		rc = of_link(o, e);
		close(o->fd);
	}
	o->fd = o->slot = -1;
	o->tmp[0] = 0;
	of_release(&old);
	return rc;
}

void outfile_abort(struct outfile *o)
{
	if (o->fd < 0)
		return;
	if (o->direct) { /* what reached a device or pipe cannot be taken back */
		close(o->fd);
		o->fd = -1;
		return;
	}
	sigset_t old;
	of_hold(&old);
	close(o->fd);
	if (o->tmp[0])
		unlink(o->tmp);
	of_disarm(o->slot);
	o->fd = o->slot = -1;
	o->tmp[0] = 0;
	of_release(&old);
}

int outfile_unnamed(const char *dir, struct err *e)
{
	if (!dir || !*dir)
		dir = "/tmp";
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	if (!of_no_tmpfile(errno))
		return of_fail(e, dir, "cannot create a temporary file", errno);
	char path[4096];
	if ((size_t)snprintf(path, sizeof path, "%s/gpuprof-XXXXXX", dir) >= sizeof path)
		return err_set(e, ERR_IO, dir, -1, "temporary folder path too long");
	sigset_t old;
	of_hold(&old);
	fd = mkostemp(path, O_CLOEXEC);
	int en = errno;
	if (fd >= 0)
		unlink(path);
	of_release(&old);
	return fd >= 0 ? fd : of_fail(e, dir, "cannot create a temporary file", en);
}
