#include "cli/cli.h"
#include "cli/load.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool cli_is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

int app_out_open(struct app *app, struct err *e)
{
	app->tmp_path[0] = 0;
	if (!app->output || !strcmp(app->output, "-")) {
		app->out = stdout;
		return 0;
	}
	int n = snprintf(app->tmp_path, sizeof app->tmp_path, "%s.tmp.XXXXXX", app->output);
	if (n < 0 || (size_t)n >= sizeof app->tmp_path)
		return err_set(e, ERR_USAGE, app->output, -1, "output path too long");
	int fd = mkstemp(app->tmp_path);
	if (fd < 0) {
		int en = errno;
		app->tmp_path[0] = 0;
		return err_set(e, ERR_IO, app->output, -1, "cannot create output: %s",
			       strerror(en));
	}
	/* mkstemp creates 0600; give the output the usual umask-based mode. */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	app->out = fdopen(fd, "w");
	if (!app->out) {
		int en = errno;
		close(fd);
		unlink(app->tmp_path);
		app->tmp_path[0] = 0;
		return err_set(e, ERR_IO, app->output, -1, "cannot open output: %s", strerror(en));
	}
	return 0;
}

int app_out_close(struct app *app, bool ok, struct err *e)
{
	if (!app->out)
		return 0;
	int rc = 0;
	if (fflush(app->out) || ferror(app->out)) {
		int en = errno;
		rc = err_set(e, ERR_IO, app->output ? app->output : "<stdout>", -1,
			     "write failed: %s", strerror(en));
		ok = false;
	}
	if (app->out == stdout) {
		app->out = NULL;
		return rc;
	}
	if (fclose(app->out) && ok) {
		int en = errno;
		rc = err_set(e, ERR_IO, app->output, -1, "write failed: %s", strerror(en));
		ok = false;
	}
	app->out = NULL;
	if (ok && rename(app->tmp_path, app->output)) {
		int en = errno;
		rc = err_set(e, ERR_IO, app->output, -1, "cannot rename output into place: %s",
			     strerror(en));
		ok = false;
	}
	if (!ok)
		unlink(app->tmp_path);
	app->tmp_path[0] = 0;
	return rc;
}

int app_fail(struct app *app, const struct err *e)
{
	(void)app;
	char buf[1200];
	err_format(e, buf, sizeof buf);
	fprintf(stderr, "gpuprof: error: %s\n", buf);
	return err_exit_code(e->code);
}

int app_usage(struct app *app, const char *cmd, const char *fmt, ...)
{
	(void)app;
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "gpuprof: %s: ", cmd);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'gpuprof %s --help'.\n", cmd);
	return 2;
}
