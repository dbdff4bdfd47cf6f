/* trace: `gpuprof trace slice|merge`, Kineto traces written back from their
 * own bytes (kineto/pass.h): a window of one trace, or several ranks' traces
 * as one, for Perfetto and chrome://tracing. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/load.h"
#include "io/gzout.h"
#include "json/jscan.h"
#include "kineto/pass.h"
#include "trace/window.h"

const char cmd_trace_help[] =
    "Usage: gpuprof trace slice TRACE (--step N|A-B | --range NAME | --from T --to T)\n"
    "                         [--clip] -o OUT.json[.gz]\n"
    "       gpuprof trace merge RANK0 RANK1 ... -o MERGED.json[.gz]\n"
    "       gpuprof trace overlay VIEW TRACE [VIEW's options] -o OUT.json[.gz]\n"
    "\n"
    "slice: a smaller Kineto trace of one window, every kept event copied from\n"
    "the file byte for byte (all its fields: NCCL and process-group args, cbid,\n"
    "Input Strides, ...), with every top-level key, the metadata events, the\n"
    "flows whose events all bind to kept slices, counters and other events by\n"
    "their ts. The window is chosen as the analyses choose it: --step and\n"
    "--range keep what `gpuprof VIEW --step N` analyses (host events starting\n"
    "in the window and the GPU work they launched), so `gpuprof summary SLICE`\n"
    "prints what `gpuprof summary --step N TRACE` prints. Events crossing the\n"
    "window's edges are kept whole unless --clip.\n"
    "\n"
    "merge: one trace of a multi-rank run for one Perfetto view: each rank its\n"
    "own processes (pid rank * P + pid, P a power of ten above every pid;\n"
    "names 'rank N NAME', sorted by rank), timestamps aligned on each rank's\n"
    "baseTimeNanoseconds (when every rank has one, else as they are, with a\n"
    "note), flow ids kept apart (id * ranks + index). The rank number is the\n"
    "file's distributedInfo rank when every file has a distinct one, else its\n"
    "place on the command line.\n"
    "\n"
    "overlay: the whole trace, every byte as it was, with what the analysis\n"
    "VIEW adds to it (as Holistic Trace Analysis writes its overlaid traces):\n"
    "args on the events it marks and events of its own at the end (counter\n"
    "tracks, flow arrows). VIEW takes its own options (gpuprof VIEW --help),\n"
    "--step and --range too.\n"
    "\n"
    "An output named *.gz is gzip-compressed. Standard input cannot be sliced\n"
    "(the file is read twice).\n"
    "\n"
    "Options:\n";

const char cmd_trace_help_tail[] =
    "\n"
    "T is the trace's own clock in µs, as its ts values are written (e.g.\n"
    "1700000592255.788), or a time with a unit (ns, us, ms, s) counted from the\n"
    "trace's first event (e.g. 20ms). --step, --range and --from/--to exclude\n"
    "each other. A window holding no event is an error (exit 2, nothing\n"
    "written). docs/export.md says what stays and what changes.\n"
    "\n"
    "Examples:\n"
    "  gpuprof trace slice trace.json.gz --step 5 -o step5.json.gz\n"
    "  gpuprof trace slice trace.json.gz --from 20ms --to 45ms --clip -o w.json\n"
    "  gpuprof trace merge rank0.json.gz rank1.json.gz -o run.json.gz\n";

struct trace_args {
	const char *from, *to;
	bool clip;
};

const char *const cmd_trace_verbs[] = {"slice", "merge", "overlay", NULL};

const struct vo cmd_trace_opts[] = {
    {.lname = "from",
     .type = VO_STRING,
     .off = offsetof(struct trace_args, from),
     .metavar = "T",
     .help = "slice: the window's start (trace µs, or 5ms from the start)"},
    {.lname = "to",
     .type = VO_STRING,
     .off = offsetof(struct trace_args, to),
     .metavar = "T",
     .help = "slice: the window's end, excluded"},
    {.lname = "clip",
     .type = VO_FLAG,
     .off = offsetof(struct trace_args, clip),
     .help = "slice: cut events at the window's edges (ts and dur); GPU work\n"
	     "launched inside that runs wholly after it is left out"},
};
const size_t cmd_trace_nopts = sizeof cmd_trace_opts / sizeof cmd_trace_opts[0];

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);
	return n >= k && !strcmp(s + n - k, tail);
}

/* T: trace µs as written, or a time with a unit from the trace's start. */
static int parse_t(const char *s, const struct trace *t, int64_t *ns)
{
	size_t n = strlen(s);
	if (n && ((s[n - 1] >= '0' && s[n - 1] <= '9') || s[n - 1] == '.'))
		return jnum_us_to_ns(s, n, ns);
	int64_t rel, start = t->min_ts <= t->max_end ? t->min_ts : 0;
	if (vo_parse_time(s, &rel) || __builtin_add_overflow(start, rel, ns))
		return -1;
	return 0;
}

/* Writes through the output (gzip when its name ends in .gz): fn(ctx, f). */
static int write_out(struct app *app, int (*fn)(void *ctx, FILE *f, struct err *e), void *ctx,
		     struct err *e)
{
	int rc = app_out_open(app, e);
	if (rc)
		return rc;
	bool gz = app->output && ends_with(app->output, ".gz");
	FILE *f = gz ? gzout_open(app->out, e) : app->out;
	rc = f ? fn(ctx, f, e) : ERR_NOMEM;
	if (gz && f && fclose(f) && !rc)
		rc = err_set(e, ERR_IO, app->output, -1, "write failed");
	if (rc) {
		app_out_close(app, false, e);
		return rc;
	}
	return app_out_close(app, true, e);
}

struct slice_job {
	const char *path;
	const struct trace *t, *w;
	bool clip;
	struct kpass_info info;
};

static int slice_fn(void *ctx, FILE *f, struct err *e)
{
	struct slice_job *j = ctx;
	return kpass_slice(j->path, j->t, j->w, j->clip, f, &j->info, e);
}

/* The trace at path cut to --from/--to: *w (whose base is the trace). */
static int from_to(struct app *app, const char *path, const struct trace_args *a, struct trace **w)
{
	struct trace *t;
	int rc = app_load_trace(app, path, &t, NULL);
	if (rc)
		return rc;
	bool some = t->min_ts <= t->max_end;
	int64_t t0 = some ? t->min_ts : 0, t1 = some ? t->max_end + 1 : 0;
	const char *bad = a->from && parse_t(a->from, t, &t0) ? a->from
			  : a->to && parse_t(a->to, t, &t1)   ? a->to
							      : NULL;
	if (bad || (a->from && a->to && t1 <= t0)) {
		tr_free(t);
		if (bad)
			return app_usage(app, "trace",
					 "--%s takes trace µs (1700000592255.788) or a time from "
					 "the start (20ms), not '%s'",
					 bad == a->from ? "from" : "to", bad);
		return app_usage(app, "trace", "--to must be after --from");
	}
	if (t1 < t0) /* one bound past the other end of the trace: nothing */
		t1 = t0;
	struct err e = {0};
	if ((rc = tr_window(t, NULL, t0, t1, w, &e))) {
		tr_free(t);
		return app_fail(app, &e);
	}
	return 0;
}

static int cmd_slice(struct app *app, const char *path, const struct trace_args *a)
{
	bool time = a->from || a->to;
	if (!!app->step + !!app->range + time > 1)
		return app_usage(app, "trace", "give one of --step, --range or --from/--to");
	if (!app->step && !app->range && !time)
		return app_usage(app, "trace",
				 "slice needs a window: --step, --range or --from/--to");
	if (!strcmp(path, "-"))
		return app_usage(app, "trace",
				 "slice reads its file twice: give a file, not standard input");
	struct trace *w;
	int rc = time ? from_to(app, path, a, &w) : app_load_trace(app, path, &w, NULL);
	if (rc)
		return rc;
	struct err e = {0};
	if (!w->ev.n) {
		fprintf(stderr, "gpuprof: error: %s: the window holds no events\n", path);
		tr_free(w);
		return 2;
	}
	struct slice_job j = {.path = path, .t = w->base, .w = w, .clip = a->clip};
	rc = write_out(app, slice_fn, &j, &e);
	if (rc)
		rc = app_fail(app, &e);
	else if (j.info.truncated && !app->quiet)
		fprintf(stderr,
			"gpuprof: note: %s: the trace is cut short; the slice ends with its last "
			"whole event\n",
			path);
	tr_free(w);
	return rc;
}

struct merge_job {
	struct kpass_rank *r;
	size_t n;
	struct kpass_merge_info info;
};

static int merge_fn(void *ctx, FILE *f, struct err *e)
{
	struct merge_job *j = ctx;
	return kpass_merge(j->r, j->n, f, &j->info, e);
}

/* The ranks' numbers: distributedInfo's when all differ, else the order. */
static void number_ranks(struct kpass_rank *r, size_t n)
{
	bool own = true;
	for (size_t i = 0; i < n && own; i++) {
		own = r[i].t->meta.dist_rank != INT64_MIN;
		for (size_t k = 0; k < i && own; k++)
			own = r[k].t->meta.dist_rank != r[i].t->meta.dist_rank;
	}
	for (size_t i = 0; i < n; i++)
		r[i].rank = own ? r[i].t->meta.dist_rank : (int64_t)i;
}

static int cmd_merge(struct app *app, const char **paths, int n)
{
	if (app->step || app->range)
		return app_usage(app, "trace", "merge takes no --step or --range");
	if (n < 1)
		return app_usage(app, "trace", "merge needs the ranks' traces");
	struct kpass_rank *r = calloc((size_t)n, sizeof *r);
	if (!r)
		return app_usage(app, "trace", "out of memory");
	int rc = 0;
	for (int i = 0; i < n && !rc; i++) {
		if (!strcmp(paths[i], "-"))
			rc = app_usage(
			    app, "trace",
			    "merge reads each file twice: give files, not standard input");
		else
			rc = app_load_trace(app, paths[i], (struct trace **)&r[i].t, NULL);
		r[i].path = paths[i];
	}
	struct err e = {0};
	struct merge_job j = {.r = r, .n = (size_t)n};
	if (!rc) {
		number_ranks(r, (size_t)n);
		if ((rc = write_out(app, merge_fn, &j, &e)))
			rc = app_fail(app, &e);
	}
	if (!rc && !j.info.aligned && !app->quiet)
		fprintf(stderr, "gpuprof: note: not every rank has baseTimeNanoseconds: "
				"timestamps are merged as they are, not aligned\n");
	for (int i = 0; i < n; i++)
		tr_free((struct trace *)r[i].t);
	free(r);
	return rc;
}

struct overlay_job {
	const char *path;
	const struct trace *t;
	struct tr_overlay ov;
	struct kpass_info info;
};

static int overlay_fn(void *ctx, FILE *f, struct err *e)
{
	struct overlay_job *j = ctx;
	return kpass_overlay(j->path, j->t, &j->ov, f, &j->info, e);
}

/* The views that declare an overlay, "a, b, c", into buf. */
static const char *overlay_views(char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = 0;
	for (size_t i = 0; i < view_count(); i++) {
		const struct view_decl *d = view_at(i);
		if (d->overlay && d->family == VIEW_FAMILY_TRACE && k < n)
			k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? ", " : "", d->name);
	}
	return buf;
}

/* trace overlay VIEW TRACE [VIEW's options]: VIEW computed on TRACE, the
 * whole trace written back with what VIEW adds. */
static int cmd_overlay(struct app *app, int argc, char **argv)
{
	char list[256];
	if (argc < 3)
		return app_usage(app, "trace", "overlay needs a view and a TRACE (views: %s)",
				 overlay_views(list, sizeof list));
	const struct view_decl *d = view_find(argv[2]);
	if (!d)
		return app_usage(app, "trace", "no view named '%s' (views that add to a trace: %s)",
				 argv[2], overlay_views(list, sizeof list));
	if (!d->overlay)
		return app_usage(app, "trace",
				 "the view '%s' adds nothing to a trace (views that do: %s)",
				 argv[2], overlay_views(list, sizeof list));
	struct overlay_job j = {0};
	struct trace *t;
	struct ses *ses;
	struct view *v;
	int rc = app_view_one(app, d, argc - 2, argv + 2, &j.path, &t, &ses, &v);
	if (rc)
		return rc;
	struct err e = {0};
	if (!strcmp(j.path, "-")) {
		rc = app_usage(app, "trace",
			       "overlay reads its file twice: give a file, not standard input");
	} else {
		tr_ov_init(&j.ov);
		for (j.t = t; j.t->base;)
			j.t = j.t->base;
		if ((rc = view_overlay(v, &j.ov, &e)) == 0)
			rc = write_out(app, overlay_fn, &j, &e);
		if (rc)
			rc = app_fail(app, &e);
		else if (j.info.truncated && !app->quiet)
			fprintf(stderr,
				"gpuprof: note: %s: the trace is cut short; the output ends with "
				"its last whole event and the additions\n",
				j.path);
		tr_ov_free(&j.ov);
	}
	view_free(v);
	ses_free(ses);
	tr_free(t);
	return rc;
}

int cmd_trace(struct app *app, int argc, char **argv)
{
	if (argc < 2)
		return app_usage(app, "trace", "give a verb: slice, merge or overlay");
	const char *verb = argv[1];
	static const char *const verbs[] = {"slice", "merge", "overlay"};
	char mean[96];
	if (!strcmp(verb, "overlay"))
		return cmd_overlay(app, argc, argv);
	bool slice = !strcmp(verb, "slice");
	if (!slice && strcmp(verb, "merge"))
		return app_usage(app, "trace", "unknown verb '%s'%s (slice, merge or overlay)",
				 verb, app_did_you_mean(verb, verbs, 3, mean, sizeof mean));
	struct trace_args a = {0};
	const char **ops = calloc((size_t)argc, sizeof *ops);
	if (!ops)
		return app_usage(app, "trace", "out of memory");
	int nops = 0;
	int rc = app_parse(app, "trace", cmd_trace_opts, cmd_trace_nopts, &a, argc - 1, argv + 1,
			   ops, &nops);
	if (!rc && slice && nops != 1)
		rc = app_usage(app, "trace", nops ? "slice takes one TRACE" : "no TRACE given");
	if (!rc && !slice && (a.from || a.to || a.clip))
		rc = app_usage(app, "trace", "--from, --to and --clip apply to slice only");
	if (!rc)
		rc = slice ? cmd_slice(app, ops[0], &a) : cmd_merge(app, ops, nops);
	free(ops);
	return rc;
}
