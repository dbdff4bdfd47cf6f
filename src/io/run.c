/* run: a program started with posix_spawn on an argument vector, its output
 * captured in unnamed temporary files, with a time limit (see run.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "io/outfile.h"
#include "io/run.h"

extern char **environ;

/* Reads at most cap bytes of fd from its start into a new NUL-terminated
 * buffer; *more when there was more. NULL when out of memory. */
static char *read_back(int fd, size_t cap, size_t *n, bool *more)
{
	*n = 0;
	*more = false;
	char *b = malloc(cap + 1);
	if (!b)
		return NULL;
	if (lseek(fd, 0, SEEK_SET) == 0)
		while (*n < cap) {
			ssize_t got = read(fd, b + *n, cap - *n);
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0)
				break;
			*n += (size_t)got;
		}
	char c;
	*more = *n == cap && read(fd, &c, 1) == 1;
	b[*n] = 0;
	return b;
}

/* Waits for pid at most timeout_ms; kills it past that. */
static void wait_for(pid_t pid, int timeout_ms, struct io_run *r)
{
	struct timespec tick = {0, 2000000}; /* 2 ms */
	int ws = 0;
	for (long waited = 0;; waited += 2) {
		pid_t w = waitpid(pid, &ws, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			r->how = IO_RUN_NOSTART;
			snprintf(r->err, sizeof r->err, "lost the process: %s", strerror(errno));
			return;
		}
		if (waited >= timeout_ms) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
				;
			r->how = IO_RUN_TIMEOUT;
			return;
		}
		nanosleep(&tick, NULL);
	}
	if (WIFEXITED(ws)) {
		r->how = IO_RUN_EXITED;
		r->status = WEXITSTATUS(ws);
	} else {
		r->how = IO_RUN_SIGNALED;
		r->status = WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
	}
}

/* Starts argv with stdout on fo and stderr on fe; 0 or the errno. */
static int start(const char *const argv[], int fo, int fe, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	if (posix_spawn_file_actions_init(&fa))
		return ENOMEM;
	int rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&fa, fo, 1);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&fa, fe, 2);
	/* argv[0] is a path: posix_spawnp does not search $PATH for it */
	if (!rc)
		rc = posix_spawnp(pid, argv[0], &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return rc;
}

int io_run(const char *const argv[], int timeout_ms, size_t cap, struct io_run *r, struct err *e)
{
	memset(r, 0, sizeof *r);
	int fo = outfile_unnamed(getenv("TMPDIR"), e);
	if (fo < 0)
		return fo;
	int fe = outfile_unnamed(getenv("TMPDIR"), e);
	if (fe < 0) {
		close(fo);
		return fe;
	}
	fflush(NULL);
	pid_t pid;
	int rc = start(argv, fo, fe, &pid);
	if (rc) {
		r->how = IO_RUN_NOSTART;
		snprintf(r->err, sizeof r->err, "cannot start %s: %s", argv[0], strerror(rc));
	} else {
		wait_for(pid, timeout_ms, r);
	}
	size_t ne;
	bool more;
	char *err = rc ? NULL : read_back(fe, sizeof r->err - 1, &ne, &more);
	if (err) {
		err[strcspn(err, "\r\n")] = 0;
		snprintf(r->err, sizeof r->err, "%s", err);
		free(err);
	}
	if (!rc && !(r->out = read_back(fo, cap, &r->nout, &r->truncated))) {
		close(fo);
		close(fe);
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	}
	close(fo);
	close(fe);
	return 0;
}

void io_run_free(struct io_run *r)
{
	free(r->out);
	r->out = NULL;
}
