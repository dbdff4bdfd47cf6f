/* load: how every trace command loads a trace: progress on stderr for long
 * loads on a terminal, --strict, and the one-line anomaly note. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/load.h"
#include "torch/link.h"
#include "torch/steps.h"
#include "torch/window.h"

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

int app_parse_steps(const char *s, int64_t *a, int64_t *b)
{
	char *end;
	long long x = strtoll(s, &end, 10);
	if (end == s || x < 0)
		return -1;
	long long y = x;
	if (*end == '-') {
		const char *s2 = end + 1;
		y = strtoll(s2, &end, 10);
		if (end == s2 || y < x)
			return -1;
	}
	if (*end)
		return -1;
	*a = x;
	*b = y;
	return 0;
}

/* The window of --step / --range, from the trace's own steps (as `gpuprof
 * steps` finds them) or its first user annotation of that name. */
static int resolve_window(struct app *app, const struct trace *t, int64_t *t0, int64_t *t1,
			  struct err *e)
{
	if (app->step && app->range)
		return err_set(e, ERR_USAGE, NULL, -1, "give --step or --range, not both");
	if (app->range) {
		size_t len = strlen(app->range);
		for (size_t r = 0; r < t->ev.n; r++) {
			enum tr_kind k = (enum tr_kind)t->ev.kind[r];
			if ((k != TR_USER_ANNOTATION && k != TR_CPU_OP) ||
			    strpool_len(&t->pool, t->ev.name[r]) != len ||
			    memcmp(tr_str(t, t->ev.name[r]), app->range, len))
				continue;
			if (t->ev.ts[r] < *t0 || *t0 == INT64_MAX) {
				*t0 = t->ev.ts[r];
				*t1 = t->ev.ts[r] + tr_dur(t, r);
			}
		}
		if (*t0 == INT64_MAX)
			return err_set(e, ERR_USAGE, t->path, -1,
				       "--range: no user annotation named '%s'", app->range);
		return 0;
	}
	int64_t a, b;
	if (app_parse_steps(app->step, &a, &b))
		return err_set(e, ERR_USAGE, NULL, -1,
			       "--step takes a step number N or a range A-B, not '%s'", app->step);
	struct tr_links l;
	struct st_result s = {0};
	struct st_opts so = {0};
	int rc = tr_links_build(t, false, &l, e);
	if (rc)
		return rc;
	rc = st_compute(t, &l, &so, &s, e);
	tr_links_free(&l);
	if (rc)
		return rc;
	for (size_t i = 0; i < s.n; i++) {
		const struct st_step *st = &s.steps[i];
		if (st->number < a || st->number > b)
			continue;
		int64_t lo = st->start < st->host_start ? st->start : st->host_start;
		int64_t hi = st->end > st->host_end ? st->end : st->host_end;
		*t0 = lo < *t0 ? lo : *t0;
		*t1 = *t1 == INT64_MIN || hi > *t1 ? hi : *t1;
	}
	if (*t0 == INT64_MAX) {
		if (s.n)
			rc = err_set(e, ERR_USAGE, t->path, -1, "--step: no step %s (steps %lld to %lld)",
				     app->step, (long long)s.steps[0].number,
				     (long long)s.steps[s.n - 1].number);
		else
			rc = err_set(e, ERR_USAGE, t->path, -1, "--step: the trace has no steps");
	}
	st_free(&s);
	return rc;
}

static int apply_window(struct app *app, struct trace **t)
{
	struct err e = {0};
	int64_t t0 = INT64_MAX, t1 = INT64_MIN;
	struct trace *w;
	int rc = resolve_window(app, *t, &t0, &t1, &e);
	/* the window is half-open: an end equal to the last event's end keeps it */
	if (!rc)
		rc = tr_window(*t, t0, t1 + 1, &w, &e);
	if (rc) {
		tr_free(*t);
		*t = NULL;
		return app_fail(app, &e);
	}
	*t = w;
	return 0;
}

int app_load_trace(struct app *app, const char *path, struct trace **out)
{
	struct err e = {0};
	struct progress p = {.path = path};
	clock_gettime(CLOCK_MONOTONIC, &p.start);
	struct tr_load_opts opts = {0};
	const char *threads = getenv("GPUPROF_THREADS");
	if (threads && *threads)
		opts.threads = atoi(threads) > 1 ? 2 : 1;
	if (app->progress) {
		opts.progress = on_progress;
		opts.progress_ctx = &p;
	}
	int rc = tr_load(path, &opts, out, &e);
	if (p.shown)
		fprintf(stderr, "\r\033[K");
	if (rc)
		return app_fail(app, &e);
	const struct tr_anomalies *an = &(*out)->anomalies;
	uint64_t total = tr_anomalies_total(an);
	if (!total)
		return app->step || app->range ? apply_window(app, out) : 0;
	/* The first anomaly in the file: the smallest offset (kinds without an
	 * offset come last, in list order). */
	int firstk = -1;
	for (int k = 0; k < AN_COUNT; k++) {
		if (!an->count[k])
			continue;
		if (firstk < 0)
			firstk = k;
		else if (an->first_offset[k] >= 0 &&
			 (an->first_offset[firstk] < 0 || an->first_offset[k] < an->first_offset[firstk]))
			firstk = k;
	}
	char where[64] = "";
	if (an->first_offset[firstk] >= 0)
		snprintf(where, sizeof where, " at byte %lld%s", (long long)an->first_offset[firstk],
			 (*out)->gzip ? " (uncompressed)" : "");
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
		fprintf(stderr, "gpuprof: note: %s: %llu input anomal%s (first: %s%s); "
				"'gpuprof info' lists them\n",
			(*out)->path, (unsigned long long)total, total == 1 ? "y" : "ies",
			tr_anomaly_key(firstk), where);
	return app->step || app->range ? apply_window(app, out) : 0;
}
