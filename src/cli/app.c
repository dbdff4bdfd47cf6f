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

bool app_out_is_terminal(const struct app *app)
{
	return (!app->output || !strcmp(app->output, "-")) && isatty(STDOUT_FILENO);
}

int app_out_open(struct app *app, struct err *e)
{
	app->of.fd = -1;
	if (!app->output || !strcmp(app->output, "-")) {
		app->out = stdout;
		return 0;
	}
	int rc = outfile_open(&app->of, app->output, e);
	if (rc)
		return rc;
	/* the stream writes a copy of the descriptor: the file must stay open
	 * after fclose until outfile_commit names it */
	int fd = dup(app->of.fd);
	app->out = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!app->out) {
		int en = errno;
		if (fd >= 0)
			close(fd);
		outfile_abort(&app->of);
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
	if (ok)
		return outfile_commit(&app->of, e);
	outfile_abort(&app->of);
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
