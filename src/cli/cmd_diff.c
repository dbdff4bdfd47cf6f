/* cmd_diff: `gpuprof diff BASE NEW` of files that are not traces. The
 * command parses one option table (views/view_diff.h's df_options) and
 * then takes the view of the kind of BASE, as the input registry sniffs
 * it: the trace diff, ncu diff (two Nsight Compute reports) or nsys diff
 * (two Nsight Systems analyses: SQLite exports, analysis.json files or run
 * directories, in any mix); this file picks it and loads both sides. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/load.h"
#include "input/input.h"
#include "ncu/ncu.h"
#include "nsys/nsys.h"

/* The diff family of a kind: traces (and bytes no row knows, which go to
 * the trace reader), reports, analyses; -1 for a kind no diff reads. */
static int family_of(enum input_kind k)
{
	switch (k) {
	case INPUT_UNKNOWN:
	case INPUT_TRACE:
		return VIEW_FAMILY_TRACE;
	case INPUT_NCU:
		return VIEW_FAMILY_NCU;
	case INPUT_NSYS:
	case INPUT_NSYS_ANALYSIS:
	case INPUT_RUN_DIR:
		return VIEW_FAMILY_NSYS;
	default:
		return -1;
	}
}

int app_diff_kind(struct app *app, const char **paths, const struct view_decl **d)
{
	enum input_kind k[2];
	for (int i = 0; i < 2; i++)
		k[i] = input_sniff_path(paths[i]).kind;
	int f0 = family_of(k[0]), f1 = family_of(k[1]);
	if (f0 != f1 && f0 >= 0 && f1 >= 0)
		return app_usage(app, (*d)->name,
				 "BASE '%s' is %s and NEW '%s' is %s: diff compares two files "
				 "of one kind",
				 paths[0], input_row(k[0])->what, paths[1], input_row(k[1])->what);
	if (f0 < 0 || f0 == VIEW_FAMILY_TRACE)
		return 0; /* the trace diff; its loader names a kind it does not read */
	*d = view_find_in((enum view_family)f0, "diff");
	return 0;
}

static int run_ncu(struct app *app, const struct view_decl *d, const char **paths,
		   const struct view_opts *o)
{
	struct input in[2];
	input_init(&in[0]);
	input_init(&in[1]);
	int rc = app_load(app, paths[0], INPUT_BIT(INPUT_NCU), &in[0]);
	if (!rc)
		rc = app_load(app, paths[1], INPUT_BIT(INPUT_NCU), &in[1]);
	if (!rc) {
		struct err e = {0};
		struct view *v = NULL;
		int c = view_compute_ncu2(d, in[0].ncu, in[1].ncu, o, &v, &e);
		rc = app_write_computed(app, d, c, v, &e);
	}
	input_free(&in[0]);
	input_free(&in[1]);
	return rc;
}

/* The analysis of path: an export's steps view, else the analysis.json
 * the registry loads for a file or a run directory. 0 or the exit status
 * (printed). */
static int nsys_side_load(struct app *app, const char *path, struct input *in,
			  struct view_nsys_side *s)
{
	const unsigned nsys =
	    INPUT_BIT(INPUT_NSYS) | INPUT_BIT(INPUT_NSYS_ANALYSIS) | INPUT_BIT(INPUT_RUN_DIR);
	int rc = app_load(app, path, nsys, in);
	if (rc)
		return rc;
	struct err e = {0};
	size_t len;
	const char *text = input_analysis(in, &len);
	rc = view_nsys_side_open(s, input_nsys_path(in) ? path : NULL, text, len, path, &e);
	return rc ? app_fail(app, &e) : 0;
}

int app_diff_run_nsys(struct app *app, const struct view_decl *d, const char **paths,
		      const struct view_opts *o)
{
	struct view_nsys_side s[2];
	struct input in[2];
	memset(s, 0, sizeof s);
	for (int i = 0; i < 2; i++)
		input_init(&in[i]);
	int rc = nsys_side_load(app, paths[0], &in[0], &s[0]);
	if (!rc)
		rc = nsys_side_load(app, paths[1], &in[1], &s[1]);
	if (!rc) {
		struct err e = {0};
		struct view *v = NULL;
		int c = view_compute_nsys2(d, s[0].root, paths[0], s[1].root, paths[1], o, &v, &e);
		rc = app_write_computed(app, d, c, v, &e);
	}
	for (int i = 0; i < 2; i++) {
		view_nsys_side_close(&s[i]);
		input_free(&in[i]);
	}
	return rc;
}

int app_diff_run(struct app *app, const struct view_decl *d, const char **paths,
		 const struct view_opts *o)
{
	if (d->family == VIEW_FAMILY_NCU)
		return run_ncu(app, d, paths, o);
	return app_diff_run_nsys(app, d, paths, o);
}
