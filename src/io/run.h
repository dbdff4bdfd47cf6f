/* run: a program started without a shell, its output captured.
 *
 * io_run starts argv[0] (a path: never looked up, never given to a shell)
 * with argv and this process's environment, stdin from /dev/null, stdout
 * and stderr into unnamed temporary files (so a chatty child never blocks
 * on a pipe), waits for it at most timeout_ms (then kills it, SIGKILL) and
 * reads back at most cap bytes of its stdout and the first line of its
 * stderr. Where processes cannot be started (the WebAssembly build) the
 * start fails and says so.
 *
 * Owns: out (malloc'd; io_run_free). Depends on core/err and libc.
 */
#ifndef GP_IO_RUN_H
#define GP_IO_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "core/err.h"

enum { IO_RUN_EXITED, IO_RUN_NOSTART, IO_RUN_SIGNALED, IO_RUN_TIMEOUT };

struct io_run {
	int how;	/* IO_RUN_*: how it ended */
	int status;	/* IO_RUN_EXITED: the exit status; IO_RUN_SIGNALED: the signal */
	char *out;	/* stdout, NUL-terminated (NULL when not started) */
	size_t nout;	/* its length */
	bool truncated; /* stdout had more than cap bytes */
	char err[256];	/* the first line of stderr, or why it did not start */
};

/* Runs argv (NULL-terminated); 0 with r filled (whatever the child did),
 * or ERR_IO / ERR_NOMEM when the temporaries or the buffer could not be
 * made. */
int io_run(const char *const argv[], int timeout_ms, size_t cap, struct io_run *r, struct err *e);
void io_run_free(struct io_run *r);

#endif
