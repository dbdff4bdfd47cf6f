/* ncu_disasm: one run of nvdisasm over a kernel's text section (see
 * ncu_sass.h). The section's bytes go to a private temporary file (mkstemp,
 * mode 0600, in $TMPDIR or /tmp), removed as soon as nvdisasm has ended,
 * whatever happened; nvdisasm is started by io_run (posix_spawn, no shell:
 * the report's bytes never reach a command line, only the temporary's
 * name, the architecture and the base address do). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/run.h"
#include "ncu/ncu_sass.h"

/* nvdisasm prints ~50 to 120 bytes per 16-byte instruction: room for
 * 64 bytes of text per byte of code, and a floor for its header lines */
#define SASS_OUT_PER_BYTE 64
#define SASS_OUT_MIN 65536

/* Writes len bytes at p to a new temporary file; its name in path. 0 or a
 * reason in note. */
static int write_temp(const uint8_t *p, size_t len, char *path, size_t pn, char *note, size_t nn)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	if ((size_t)snprintf(path, pn, "%s/gpuprof-sass-XXXXXX", dir) >= pn) {
		snprintf(note, nn, "temporary folder path too long");
		return -1;
	}
	int fd = mkstemp(path);
	if (fd < 0) {
		snprintf(note, nn, "cannot create a temporary file in %.300s: %s", dir,
			 strerror(errno));
		return -1;
	}
	size_t done = 0;
	while (done < len) {
		ssize_t w = write(fd, p + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	int en = errno;
	if (close(fd) || done < len) {
		snprintf(note, nn, "cannot write the temporary file %.300s: %s", path,
			 strerror(en));
		unlink(path);
		return -1;
	}
	return 0;
}

int ncu_sass_disasm(const char *nvdisasm, const char *arch, uint64_t entry, const uint8_t *text,
		    size_t len, int timeout_ms, struct arena *a, struct ncu_sass *out,
		    struct err *e)
{
	memset(out, 0, sizeof *out);
	char tmp[4096], base[32];
	if (write_temp(text, len, tmp, sizeof tmp, out->note, sizeof out->note))
		return 0;
	snprintf(base, sizeof base, "0x%" PRIx64, entry);
	const char *argv[] = {nvdisasm, "--binary", arch, "--base-address", base, tmp, NULL};
	size_t cap = len > (SIZE_MAX - SASS_OUT_MIN) / SASS_OUT_PER_BYTE
			 ? SIZE_MAX / 2
			 : SASS_OUT_MIN + len * SASS_OUT_PER_BYTE;
	struct io_run r;
	int rc = io_run(argv, timeout_ms, cap, &r, e);
	unlink(tmp);
	if (rc)
		return rc;
	if (r.how == IO_RUN_NOSTART)
		snprintf(out->note, sizeof out->note, "%s", r.err);
	else if (r.how == IO_RUN_TIMEOUT)
		snprintf(out->note, sizeof out->note, "%s took longer than %d ms: stopped",
			 nvdisasm, timeout_ms);
	else if (r.how == IO_RUN_SIGNALED)
		snprintf(out->note, sizeof out->note, "%s ended by signal %d", nvdisasm, r.status);
	else if (r.status)
		snprintf(out->note, sizeof out->note, "%s %s failed (exit status %d): %s", nvdisasm,
			 arch, r.status, r.err[0] ? r.err : "no message");
	else if (r.truncated)
		snprintf(out->note, sizeof out->note, "%s printed more than %zu bytes: ignored",
			 nvdisasm, cap);
	else if ((rc = ncu_sass_parse(r.out, r.nout, len / 4 + 1, a, &out->rows, &out->nrows)))
		rc = err_set(e, rc, NULL, -1, "out of memory");
	else if (!out->nrows)
		snprintf(out->note, sizeof out->note, "%s printed no instruction", nvdisasm);
	io_run_free(&r);
	return rc;
}
