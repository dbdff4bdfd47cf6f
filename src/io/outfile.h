/* outfile: an output file that appears whole under its name or not at all,
 * and temporary files that leave nothing behind.
 *
 * outfile_open makes an unnamed file (O_TMPFILE) in the target's folder, so
 * that nothing named exists while it is written and a killed process, even
 * by SIGKILL, leaves nothing; outfile_commit names it: linkat(2) of
 * /proc/self/fd/N straight to the target when there is none, else to a
 * fresh temporary name that rename(2) moves over the target at once (with
 * SIGINT, SIGTERM and SIGHUP held off in between). Where the folder's
 * filesystem refuses O_TMPFILE (EOPNOTSUPP, EISDIR, EINVAL) or /proc is not
 * there, it writes a named temporary TARGET.tmp.XXXXXX (mkstemp) instead,
 * which a handler of SIGINT, SIGTERM and SIGHUP removes before the signal
 * takes its course (installed only where the signal had its default
 * action). The file's mode is 0666 less the umask, as open(2) gives.
 *
 * A target that exists and is neither a regular file nor a folder (a
 * device such as /dev/null, a FIFO, a socket) is opened and written in
 * place: replacing it by a file would break it for every other program.
 * /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N write to that
 * descriptor (a copy of it), whatever it is, as the shell set it up.
 *
 * outfile_unnamed gives scratch space that has no name at all (O_TMPFILE,
 * or mkstemp and unlink at once).
 *
 * Owns: the descriptor and, in the fallback, the temporary name, until
 * commit or abort. Depends on core/err and libc only.
 */
#ifndef GP_IO_OUTFILE_H
#define GP_IO_OUTFILE_H

#include <stdbool.h>

#include "core/err.h"

struct outfile {
	int fd;		 /* write here; -1 once committed or aborted */
	int slot;	 /* the named temporary's entry for the signal handler, -1 none */
	char path[4096]; /* the target */
	char tmp[4096];	 /* the named temporary (fallback); "" when unnamed */
	bool direct;	 /* the target is a device, FIFO or socket, written in place */
};

/* Opens an unnamed (or, in the fallback, named) temporary beside path.
 * 0, or an error naming path ("cannot create output: ..."). */
int outfile_open(struct outfile *o, const char *path, struct err *e);
/* Closes the file and gives it the target's name, replacing a file there.
 * On failure nothing is left and the target is untouched. */
int outfile_commit(struct outfile *o, struct err *e);
/* Closes the file and removes it; the target is untouched. Safe to call
 * after commit (it does nothing then). */
void outfile_abort(struct outfile *o);
/* A descriptor (O_RDWR, close-on-exec) of a new file with no name in dir
 * (NULL or "": $TMPDIR, else /tmp), or a negative err_code with e filled. */
int outfile_unnamed(const char *dir, struct err *e);

#endif
