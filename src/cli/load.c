/* load: how every command loads its input, through the registry of input
 * kinds (input/input.h): progress on stderr for long loads on a terminal,
 * the one-line message for a file of a kind the command does not read,
 * and for a trace --strict, the one-line anomaly note and the cut to
 * --step / --range (tbprof/select.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/load.h"
#include "input/input.h"
#include "tbprof/select.h"
#include "tbprof/session.h"

struct progress {
	const char *path;
	struct timespec start;
	bool shown;
};

static double since(const struct timespec *t0)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) * 1e-9;
}

static void on_progress(void *ctx, int64_t done, int64_t total)
{
	struct progress *p = ctx;
	double s = since(&p->start);
	if (s < 1.0)
		return; /* quick loads stay silent */
	char d[32], tot[32];
	rep_fmt_bytes(d, sizeof d, done);
	if (total > 0) {
		rep_fmt_bytes(tot, sizeof tot, total);
		fprintf(stderr, "\rgpuprof: loading %s: %3d%% (%s of %s)\033[K", p->path,
			(int)(100.0 * (double)done / (double)total), d, tot);
	} else {
		fprintf(stderr, "\rgpuprof: loading %s: %s\033[K", p->path, d);
	}
	p->shown = true;
}

/* GPUPROF_THREADS: 0 (unset: the default), else 1 or 2. */
static int env_threads(void)
{
	const char *threads = getenv("GPUPROF_THREADS");
	return threads && *threads ? (atoi(threads) > 1 ? 2 : 1) : 0;
}

/* A new session on t, with the threads GPUPROF_THREADS allows. */
static int new_session(const struct trace *t, struct ses **out, struct err *e)
{
	int rc = ses_new(t, out, e);
	if (!rc)
		ses_set_threads(*out, env_threads());
	return rc;
}

/* --step / --range: the trace cut to their window (tbprof/select.h); the
 * loaded trace goes with the window, or is freed on an error. With ses, a
 * session on the window that keeps the links found while cutting it. */
static int apply_window(struct app *app, struct trace **t, struct ses **ses)
{
	struct err e = {0};
	struct trace *w = NULL;
	struct ses *whole = NULL;
	int rc = new_session(*t, &whole, &e);
	if (!rc)
		rc = tr_select(*t, whole, app->step, app->range, &w, &e);
	if (!rc && ses)
		rc = ses_new_window(whole, w, ses, &e);
	ses_free(whole);
	if (rc) {
		if (w)
			tr_free(w); /* frees *t too */
		else
			tr_free(*t);
		*t = NULL;
		return app_fail(app, &e);
	}
	*t = w;
	return 0;
}

/* A loaded trace's anomalies: --strict fails on them (the trace freed),
 * else a one-line note; then the cut to --step / --range. */
static int check_trace(struct app *app, struct trace **out, struct ses **ses)
{
	const struct tr_anomalies *an = &(*out)->anomalies;
	uint64_t total = tr_anomalies_total(an);
	if (!total)
		return app->step || app->range ? apply_window(app, out, ses) : 0;
	/* The first anomaly in the file: the smallest offset (kinds without an
	 * offset come last, in list order). */
	int firstk = -1;
	for (int k = 0; k < AN_COUNT; k++) {
		if (!an->count[k])
			continue;
		if (firstk < 0)
			firstk = k;
		else if (an->first_offset[k] >= 0 &&
			 (an->first_offset[firstk] < 0 ||
			  an->first_offset[k] < an->first_offset[firstk]))
			firstk = k;
	}
	char where[64];
	err_format_offset(" at ", an->first_offset[firstk], (*out)->gzip, where, sizeof where);
	if (app->strict) {
		fprintf(stderr,
			"gpuprof: error: %s: %llu input anomal%s (--strict); first: %s%s: %s\n",
			(*out)->path, (unsigned long long)total, total == 1 ? "y" : "ies",
			tr_anomaly_key(firstk), where, tr_anomaly_desc(firstk));
		tr_free(*out);
		*out = NULL;
		return 2;
	}
	if (!app->quiet && app->anomaly_notes)
		fprintf(stderr,
			"gpuprof: note: %s: %llu input anomal%s (first: %s%s); "
			"'gpuprof info' lists them\n",
			(*out)->path, (unsigned long long)total, total == 1 ? "y" : "ies",
			tr_anomaly_key(firstk), where);
	return app->step || app->range ? apply_window(app, out, ses) : 0;
}

static int load(struct app *app, const char *path, unsigned accept, struct input *in,
		struct ses **ses)
{
	struct err e = {0};
	struct progress p = {.path = path};
	clock_gettime(CLOCK_MONOTONIC, &p.start);
	struct input_opts opts = {.accept = accept, .trace = {.max_memory = app->max_memory}};
	opts.trace.threads = env_threads();
	if (app->progress) {
		opts.trace.progress = on_progress;
		opts.trace.progress_ctx = &p;
	}
	int rc = input_open(path, &opts, in, &e);
	if (p.shown)
		fprintf(stderr, "\r\033[K");
	if (rc)
		return app_fail(app, &e);
	if (in->kind == INPUT_TRACE && (rc = check_trace(app, &in->trace, ses)))
		input_free(in); /* the trace is gone already */
	return rc;
}

int app_load(struct app *app, const char *path, unsigned accept, struct input *in)
{
	return load(app, path, accept, in, NULL);
}

int app_load_trace(struct app *app, const char *path, struct trace **out, struct ses **ses)
{
	struct input in;
	if (ses)
		*ses = NULL;
	int rc = load(app, path, INPUT_BIT(INPUT_TRACE), &in, ses);
	*out = rc ? NULL : in.trace;
	if (!rc)
		in.trace = NULL; /* the caller's now */
	input_free(&in);
	if (!rc && ses && !*ses) {
		struct err e = {0};
		if (new_session(*out, ses, &e)) {
			tr_free(*out);
			*out = NULL;
			rc = app_fail(app, &e);
		}
	}
	return rc;
}
