/* Unit tests for src/io/outfile.c: a committed output holds what was
 * written under its name with the umask's mode, replaces a file there,
 * leaves nothing else in the folder; an aborted one leaves the target as it
 * was; an unnamed temporary has no link at all. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/outfile.h"
#include "test.h"

/* The names in dir, sorted and joined by ' '. */
static void names(const char *dir, char *buf, size_t n)
{
	struct dirent **v;
	int k = scandir(dir, &v, NULL, alphasort);
	buf[0] = 0;
	for (int i = 0; i < k; i++) {
		if (v[i]->d_name[0] != '.') {
			if (buf[0])
				strncat(buf, " ", n - strlen(buf) - 1);
			strncat(buf, v[i]->d_name, n - strlen(buf) - 1);
		}
		free(v[i]);
	}
	if (k >= 0)
		free(v);
}

static void slurp(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "rb");
	size_t got = f ? fread(buf, 1, n - 1, f) : 0;
	buf[got] = 0;
	if (f)
		fclose(f);
}

static int put(struct outfile *o, const char *s)
{
	return write(o->fd, s, strlen(s)) == (ssize_t)strlen(s) ? 0 : -1;
}

void test_io_outfile(struct t *t)
{
	char dir[] = "/tmp/gpuprof-unit-outfile.XXXXXX";
	CHECK(t, mkdtemp(dir) != NULL);
	char path[128], buf[256];
	snprintf(path, sizeof path, "%s/out.txt", dir);
	struct outfile o;
	struct err e = {0};
	/* a new file, named when complete */
	CHECK_INT(t, outfile_open(&o, path, &e), 0);
	CHECK_INT(t, put(&o, "one\n"), 0);
	names(dir, buf, sizeof buf);
	CHECK_STR(t, buf, ""); /* nothing named while it is written */
	CHECK_INT(t, outfile_commit(&o, &e), 0);
	slurp(path, buf, sizeof buf);
	CHECK_STR(t, buf, "one\n");
	mode_t mask = umask(0);
	umask(mask);
	struct stat st;
	CHECK_INT(t, stat(path, &st), 0);
	CHECK_INT(t, st.st_mode & 0777, 0666 & ~mask);
	/* an existing file replaced whole */
	CHECK_INT(t, outfile_open(&o, path, &e), 0);
	CHECK_INT(t, put(&o, "two\n"), 0);
	CHECK_INT(t, outfile_commit(&o, &e), 0);
	slurp(path, buf, sizeof buf);
	CHECK_STR(t, buf, "two\n");
	names(dir, buf, sizeof buf);
	CHECK_STR(t, buf, "out.txt");
	/* aborted: the target as it was, nothing else */
	CHECK_INT(t, outfile_open(&o, path, &e), 0);
	CHECK_INT(t, put(&o, "three\n"), 0);
	outfile_abort(&o);
	outfile_abort(&o); /* a second abort does nothing */
	slurp(path, buf, sizeof buf);
	CHECK_STR(t, buf, "two\n");
	names(dir, buf, sizeof buf);
	CHECK_STR(t, buf, "out.txt");
	/* a folder that is not there */
	char missing[160];
	snprintf(missing, sizeof missing, "%s/no/out.txt", dir);
	CHECK_INT(t, outfile_open(&o, missing, &e), ERR_IO);
	CHECK_STR(t, e.msg, "cannot create output: No such file or directory");
	CHECK_STR(t, e.path, missing);
	/* an unnamed temporary: no link, nothing in the folder */
	int fd = outfile_unnamed(dir, &e);
	CHECK(t, fd >= 0);
	CHECK_INT(t, fstat(fd, &st), 0);
	CHECK_INT(t, st.st_nlink, 0);
	CHECK_INT(t, write(fd, "x", 1), 1);
	close(fd);
	names(dir, buf, sizeof buf);
	CHECK_STR(t, buf, "out.txt");
	unlink(path);
	rmdir(dir);
}

/* A FIFO (as a device such as /dev/null) is written in place: it stays a
 * FIFO, gets the bytes, and nothing else appears in the folder. (A FIFO
 * rather than /dev/null so that a regression cannot break the machine.) */
void test_io_outfile_fifo(struct t *t)
{
	char dir[] = "/tmp/gpuprof-unit-fifo.XXXXXX";
	CHECK(t, mkdtemp(dir) != NULL);
	char path[128], buf[256];
	snprintf(path, sizeof path, "%s/pipe", dir);
	CHECK_INT(t, mkfifo(path, 0600), 0);
	int rd = open(path, O_RDWR | O_NONBLOCK); /* a reader, so opening to write does not wait */
	CHECK(t, rd >= 0);
	struct outfile o;
	struct err e = {0};
	CHECK_INT(t, outfile_open(&o, path, &e), 0);
	CHECK_INT(t, put(&o, "through\n"), 0);
	CHECK_INT(t, outfile_commit(&o, &e), 0);
	struct stat st;
	CHECK_INT(t, stat(path, &st), 0);
	CHECK(t, S_ISFIFO(st.st_mode));
	ssize_t got = read(rd, buf, sizeof buf - 1);
	CHECK_INT(t, got, 8);
	buf[got > 0 ? got : 0] = 0;
	CHECK_STR(t, buf, "through\n");
	/* aborted: what was written has gone through; still a FIFO */
	CHECK_INT(t, outfile_open(&o, path, &e), 0);
	CHECK_INT(t, put(&o, "x"), 0);
	outfile_abort(&o);
	CHECK_INT(t, stat(path, &st), 0);
	CHECK(t, S_ISFIFO(st.st_mode));
	names(dir, buf, sizeof buf);
	CHECK_STR(t, buf, "pipe");
	close(rd);
	unlink(path);
	rmdir(dir);
}

/* /dev/fd/N and /proc/self/fd/N write to descriptor N itself, even when
 * it is a regular file (a shell's > out): the file gets the bytes at its
 * offset, and nothing is renamed over /dev. */
void test_io_outfile_given_fd(struct t *t)
{
	char dir[] = "/tmp/gpuprof-unit-fd.XXXXXX";
	CHECK(t, mkdtemp(dir) != NULL);
	char path[128], name[64], buf[256];
	snprintf(path, sizeof path, "%s/log", dir);
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
	CHECK(t, fd >= 0);
	CHECK_INT(t, write(fd, "before\n", 7), 7);
	struct outfile o;
	struct err e = {0};
	snprintf(name, sizeof name, "/dev/fd/%d", fd);
	CHECK_INT(t, outfile_open(&o, name, &e), 0);
	CHECK_INT(t, put(&o, "one\n"), 0);
	CHECK_INT(t, outfile_commit(&o, &e), 0);
	snprintf(name, sizeof name, "/proc/self/fd/%d", fd);
	CHECK_INT(t, outfile_open(&o, name, &e), 0);
	CHECK_INT(t, put(&o, "two\n"), 0);
	CHECK_INT(t, outfile_commit(&o, &e), 0);
	CHECK_INT(t, write(fd, "after\n", 6), 6); /* still open: a copy was closed */
	close(fd);
	slurp(path, buf, sizeof buf);
	CHECK_STR(t, buf, "before\none\ntwo\nafter\n");
	names(dir, buf, sizeof buf);
	CHECK_STR(t, buf, "log");
	struct stat st;
	CHECK_INT(t, lstat("/dev/stdout", &st), 0);
	CHECK(t, S_ISLNK(st.st_mode)); /* /dev/stdout was not replaced */
	unlink(path);
	rmdir(dir);
}
