/* cmd_view: the commands of the views of the registry (info, steps,
 * summary, ops, kernels, memory, top): their argument parsing from the
 * view's option declarations, their --help, and loading, computing and writing the view. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/load.h"

void app_print_options(FILE *f, const struct vo *v, size_t n)
{
	char left[96], meta[128];
	size_t width = 0;
	/* with a "-n, --top" in the list, long-only options line up under its
	 * "--" (as the global options do) */
	bool shorts = false;
	for (size_t i = 0; i < n; i++)
		shorts |= v[i].sname && v[i].lname;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < n; i++) {
			if (!v[i].lname && !v[i].sname)
				continue;
			const char *m = vo_metavar(&v[i], meta, sizeof meta);
			int len;
			if (v[i].sname && v[i].lname)
				len = snprintf(left, sizeof left, "-%c, --%s%s%s", v[i].sname,
					       v[i].lname, *m ? " " : "", m);
			else if (v[i].lname)
				len = snprintf(left, sizeof left, "%s--%s%s%s",
					       shorts ? "    " : "", v[i].lname, *m ? " " : "", m);
			else
				len = snprintf(left, sizeof left, "-%c%s%s", v[i].sname,
					       *m ? " " : "", m);
			if (pass == 0) {
				if (len > 0 && (size_t)len > width)
					width = (size_t)len;
				continue;
			}
			fprintf(f, "  %-*s  ", (int)width, left);
			for (const char *h = v[i].help; *h;) {
				size_t l = strcspn(h, "\n");
				fprintf(f, "%.*s\n", (int)l, h);
				h += l;
				if (*h == '\n' && *++h)
					fprintf(f, "%*s", (int)width + 4, "");
			}
		}
	}
}

void app_print_view_help(FILE *f, const struct view_decl *d)
{
	fputs(d->help_head, f);
	app_print_options(f, d->opts, d->nopts);
	fputs(d->help_tail, f);
}

/* Writes the view v that view_compute* returned (rc, e) and frees it: the
 * exit status (1: a gate tripped). */
int app_write_computed(struct app *app, const struct view_decl *d, int rc, struct view *v,
		       struct err *ep)
{
	struct err e = *ep;
	if (rc) {
		/* a request the input cannot answer is the user's to fix */
		if (rc == ERR_USAGE && !e.path[0])
			return app_usage(app, d->name, "%s", e.msg);
		return app_fail(app, &e);
	}
	if (app_tables_wanted(app)) {
		bool tripped = view_tripped(v);
		rc = app_write_tables(app, d->name, app_emit_view, v);
		view_free(v);
		return rc ? rc : tripped ? 1 : 0;
	}
	if ((rc = app_out_open(app, &e)) == 0) {
		struct report *r = rep_open(app->out, app->format);
		if (r)
			view_emit(v, r);
		bool ok = r && rep_close(r) == 0;
		rc = app_out_close(app, ok, &e);
		if (!rc && !ok)
			rc = err_set(&e, ERR_IO, app->output ? app->output : "stdout", -1,
				     "could not write the report");
	}
	bool tripped = view_tripped(v); /* exit status 1: a gate tripped */
	view_free(v);
	return rc ? app_fail(app, &e) : tripped ? 1 : 0;
}

static int write_view(struct app *app, const struct view_decl *d, struct ses *const *ss, size_t n,
		      const struct view_opts *o)
{
	struct err e = {0};
	struct view *v = NULL;
	int rc = view_compute_many(d, ss, n, o, &v, &e);
	return app_write_computed(app, d, rc, v, &e);
}

/* Loads every path (stopping at the first that fails), opens a session on
 * each trace and writes the view. */
static int run_view(struct app *app, const struct view_decl *d, const char **paths, int np,
		    const struct view_opts *o)
{
	struct trace **ts = calloc((size_t)np, sizeof *ts);
	struct ses **ss = calloc((size_t)np, sizeof *ss);
	int n = 0, rc = !ts || !ss ? 2 : 0;
	for (int i = 0; i < np && !rc; i++) {
		if ((rc = app_load_trace(app, paths[i], &ts[n], &ss[n])))
			break;
		n++;
	}
	if (!rc)
		rc = write_view(app, d, ss, (size_t)n, o);
	for (int i = 0; i < n; i++) {
		ses_free(ss[i]);
		tr_free(ts[i]);
	}
	free(ss);
	free(ts);
	return rc;
}

/* The options of d's command after parsing: cross-checks, --step/--range. */
static int finish_opts(struct app *app, const struct view_decl *d, struct view_opts *o, int *nps,
		       const char **paths)
{
	char msg[256];
	bool traces = d->family == VIEW_FAMILY_TRACE;
	int named = d->traces ? d->traces(o, *nps, paths, msg, sizeof msg) : 0;
	if (named < 0)
		return app_usage(app, d->name, "%s", msg);
	if (named > 0)
		*nps = named;
	int np = *nps;
	if (!np)
		return app_usage(app, d->name, traces ? "no TRACE given" : "no BASE and NEW given");
	if (!named && d->ntraces && (unsigned)np != d->ntraces)
		return app_usage(app, d->name, "takes %u %s (got %d)", d->ntraces,
				 traces ? "traces" : "files", np);
	if (np > 1 && !(d->flags & VIEW_MANY))
		return app_usage(app, d->name, "one TRACE only (got '%s' and '%s')", paths[0],
				 paths[1]);
	if (d->check && d->check(d, o, VO_CLI, msg, sizeof msg))
		return app_usage(app, d->name, "%s", msg);
	if ((d->flags & VIEW_WHOLE_FILE) && (app->step || app->range))
		return app_usage(app, d->name,
				 "%s describes whole files; --step and --range "
				 "apply to the analysis commands",
				 d->name);
	if ((d->flags & VIEW_STEP_ROWS) && app->step) {
		/* --step picks rows of the whole trace's steps (the view does
		 * it), so that each row is the one the full table shows;
		 * --range still restricts the events */
		const char *only = app->step;
		app->step = NULL;
		if (view_step_rows(o, only, msg, sizeof msg))
			return app_usage(app, d->name, "%s", msg);
	}
	return 0;
}

/* d's defaults, then argv[1..argc) parsed into *o and the operands
 * (*paths, for the caller to free even on an error; NULL when out of
 * memory, then the status is 2). */
static int parse_view(struct app *app, const struct view_decl *d, int argc, char **argv,
		      struct view_opts *o, const char ***paths, int *np)
{
	view_opts_defaults(d, o);
	if (!(*paths = calloc((size_t)argc + 1, sizeof **paths)))
		return 2;
	return app_parse(app, d->name, d->opts, d->nopts, o, argc, argv, *paths, np);
}

int app_view_one(struct app *app, const struct view_decl *d, int argc, char **argv,
		 const char **path, struct trace **t, struct ses **ses, struct view **v)
{
	*t = NULL;
	*ses = NULL;
	*v = NULL;
	struct view_opts o;
	const char **paths;
	int np = 0;
	int rc = parse_view(app, d, argc, argv, &o, &paths, &np);
	if (!rc && (d->family != VIEW_FAMILY_TRACE || (d->flags & VIEW_MANY)))
		rc = app_usage(app, d->name, "not a view of one trace");
	if (!rc)
		rc = finish_opts(app, d, &o, &np, paths);
	if (!rc) {
		*path = paths[0];
		rc = app_load_trace(app, paths[0], t, ses);
	}
	struct err e = {0};
	if (!rc && (rc = view_compute(d, *ses, &o, v, &e))) {
		rc = rc == ERR_USAGE && !e.path[0] ? app_usage(app, d->name, "%s", e.msg)
						   : app_fail(app, &e);
		view_free(*v);
		*v = NULL;
	}
	if (rc) {
		ses_free(*ses);
		tr_free(*t);
		*ses = NULL;
		*t = NULL;
	}
	free(paths);
	return rc;
}

int app_cmd_view(struct app *app, const struct view_decl *d, int argc, char **argv)
{
	struct view_opts o;
	const char **paths;
	int np = 0;
	int rc = parse_view(app, d, argc, argv, &o, &paths, &np);
	/* diff: the view of the kind of its two files (one option table) */
	if (!rc && d->kind == VIEW_DIFF && np == 2)
		rc = app_diff_kind(app, paths, &d);
	if (!rc)
		rc = finish_opts(app, d, &o, &np, paths);
	if (!rc && d->family != VIEW_FAMILY_TRACE) {
		rc = app_diff_run(app, d, paths, &o);
	} else if (!rc) {
		if (d->flags & VIEW_OWN_ANOMALIES)
			app->anomaly_notes = false;
		rc = run_view(app, d, paths, np, &o);
	}
	free(paths);
	return rc;
}
