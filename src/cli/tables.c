/* tables: the global options that pick a command's tables, --table NAME
 * (one table alone: plain CSV, the bare JSON rows, the text table) and
 * -o DIR/ with --format csv (one DIR/NAME.csv per table, each written
 * atomically, none left when any fails). Every command that writes a
 * report goes through app_write_tables when either is given; without them
 * the commands write as they always did.
 *
 * A command hands its tables as a function that emits them into a report:
 * it is called once into a report that only keeps the tables' names (to
 * check --table and to name the files), then once per table written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"

bool app_tables_wanted(const struct app *app)
{
	return app->table || app_out_is_dir(app);
}

bool app_out_is_dir(const struct app *app)
{
	const char *o = app->output;
	if (!o || !*o || !strcmp(o, "-"))
		return false;
	struct stat st;
	return o[strlen(o) - 1] == '/' || (stat(o, &st) == 0 && S_ISDIR(st.st_mode));
}

int app_emit_view(void *v, struct report *r, FILE *out)
{
	(void)out;
	view_emit(v, r);
	return view_emit_failed(v) ? -1 : 0;
}

/* The names of the tables emit writes (their copy in *names, strdup'd);
 * 0 or -1 when memory ran out. */
static int table_names(app_emit_fn emit, void *ctx, char ***names, size_t *n)
{
	struct report *r = rep_open_names();
	*names = NULL;
	*n = 0;
	if (!r || emit(ctx, r, NULL)) {
		rep_close(r);
		return -1;
	}
	size_t k;
	const char *const *v = rep_names(r, &k);
	char **out = calloc(k ? k : 1, sizeof *out);
	for (size_t i = 0; out && i < k; i++)
		if (!(out[i] = strdup(v[i]))) {
			for (size_t j = 0; j < i; j++)
				free(out[j]);
			free(out);
			out = NULL;
		}
	rep_close(r);
	if (!out)
		return -1;
	*names = out;
	*n = k;
	return 0;
}

static void names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Writes the table `name` alone into f in app's format. */
static bool write_one(struct app *app, FILE *f, enum rep_format fmt, const char *name,
		      app_emit_fn emit, void *ctx)
{
	struct report *r = rep_open(f, fmt);
	bool ok = r && rep_only(r, name) == 0 && emit(ctx, r, f) == 0;
	return rep_close(r) == 0 && ok;
}

/* "--table: no table 'X' in CMD; did you mean 'Y'? (a, b, c)" */
static int unknown_table(struct app *app, const char *cmd, char **names, size_t n)
{
	char list[1024], mean[160];
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		int w = snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", names[i]);
		if (w > 0 && (size_t)w < sizeof list - len)
			len += (size_t)w;
	}
	if (!n)
		snprintf(list, sizeof list, "none");
	return app_usage(
	    app, cmd, "--table: no table '%s'%s (tables: %s)", app->table,
	    app_did_you_mean(app->table, (const char *const *)names, n, mean, sizeof mean), list);
}

/* DIR/NAME.csv for every table: each into an unnamed temporary, all named
 * only once every one is written; on any failure none is left. */
static int write_dir(struct app *app, char **names, size_t n, app_emit_fn emit, void *ctx,
		     struct err *e)
{
	const char *dir = app->output;
	size_t dl = strlen(dir);
	struct stat st;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return err_set(e, ERR_IO, dir, -1, "%s",
			       errno == ENOENT
				   ? "no such folder (-o DIR/ writes into an existing one)"
				   : "not a folder");
	struct outfile *of = calloc(n ? n : 1, sizeof *of);
	if (!of)
		return err_set(e, ERR_NOMEM, dir, -1, "out of memory");
	size_t opened = 0, committed = 0;
	int rc = 0;
	for (; opened < n && !rc; opened++) {
		char path[4096];
		if (snprintf(path, sizeof path, "%s%s%s.csv", dir, dir[dl - 1] == '/' ? "" : "/",
			     names[opened]) >= (int)sizeof path) {
			rc = err_set(e, ERR_IO, dir, -1, "path too long");
			break;
		}
		if ((rc = outfile_open(&of[opened], path, e)))
			break;
		int fd = dup(of[opened].fd);
		FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!f && fd >= 0)
			close(fd);
		bool ok = f && write_one(app, f, REP_CSV, names[opened], emit, ctx);
		if (f && fclose(f))
			ok = false;
		if (!ok)
			rc = err_set(e, ERR_IO, path, -1, "could not write the table");
	}
	for (; !rc && committed < n; committed++)
		rc = outfile_commit(&of[committed], e);
	if (rc) {
		for (size_t i = 0; i < committed; i++)
			unlink(of[i].path);
		for (size_t i = 0; i < opened && i < n; i++)
			outfile_abort(&of[i]);
	}
	free(of);
	return rc;
}

int app_write_tables(struct app *app, const char *cmd, app_emit_fn emit, void *ctx)
{
	struct err e = {0};
	bool dir = app_out_is_dir(app);
	if (dir && app->format != REP_CSV)
		return app_usage(app, cmd, "-o %s: a folder takes one CSV per table (--format csv)",
				 app->output);
	char **names;
	size_t n;
	if (table_names(emit, ctx, &names, &n)) {
		err_set(&e, ERR_NOMEM, cmd, -1, "out of memory");
		return app_fail(app, &e);
	}
	int rc = 0;
	if (app->table) {
		size_t k = 0;
		while (k < n && strcmp(names[k], app->table))
			k++;
		if (k == n) {
			rc = unknown_table(app, cmd, names, n);
			names_free(names, n);
			return rc;
		}
		/* the one table goes to the folder or to the output */
		for (size_t i = 0; i < n; i++)
			free(names[i]);
		names[0] = strdup(app->table);
		n = names[0] ? 1 : 0;
	}
	if (dir) {
		rc = write_dir(app, names, n, emit, ctx, &e);
	} else if (!(rc = app_out_open(app, &e))) {
		bool ok = write_one(app, app->out, app->format, app->table, emit, ctx);
		rc = app_out_close(app, ok, &e);
		if (!rc && !ok)
			rc = err_set(&e, ERR_IO, app->output ? app->output : "stdout", -1,
				     "could not write the report");
	}
	names_free(names, n);
	return rc ? app_fail(app, &e) : 0;
}
