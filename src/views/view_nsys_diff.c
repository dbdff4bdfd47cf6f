/* view_nsys_diff: `gpuprof diff BASE NEW` of two Nsight Systems analyses
 * (each an analysis.json, a profiling run directory or an SQLite export,
 * whose `steps` analysis is taken): per iteration and per scoped NVTX range
 * name, host inclusive and exclusive time and GPU-projected time compared,
 * rows of one side only added or removed, the distribution of the
 * per-iteration values of each side with the Mann-Whitney U test of
 * tbprof/diffstat.h and a verdict, and the gates of --fail-if on them
 * (views/view_diff.h; docs/diff.md). analysis.json holds the scoped ranges
 * as summaries only (no per-iteration or per-instance values): their rows
 * get the verdict of their delta alone, test none.
 *
 * The view takes the two analysis.json trees through struct view_source
 * (nsys_a: BASE, nsys_b: NEW; view_compute_nsys2); given an export alone
 * (the server's route of one file) it answers ERR_USAGE. It reads the
 * trees only; a key missing or of another type counts 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsys/nsys.h"
#include "tbprof/diffstat.h"
#include "views/view_diff.h"
#include "views/view_int.h"

static const char nsys_diff_head[] =
    "Usage: gpuprof diff [options] BASE NEW    (BASE and NEW Nsight Systems analyses)\n"
    "\n"
    "What changed from the Nsight Systems analysis BASE to NEW. Each side is\n"
    "an analysis.json of `gpuprof nsys analyze`, a profiling run directory\n"
    "(its analysis.json, else its stats/ CSVs analysed in memory) or an\n"
    "SQLite export (its `gpuprof nsys FILE steps` analysis, capture range\n"
    "profile-target). Tables (deltas are NEW - BASE; rows by absolute delta,\n"
    "largest first; host and GPU times are never compared with each other):\n"
    "\n"
    "  iterations  per iteration index: host inclusive and exclusive time,\n"
    "              GPU-projected time\n"
    "  iteration_stats\n"
    "              per metric (host_inclusive_ns, host_exclusive_ns, gpu_ns):\n"
    "              iterations, mean, median and IQR of the per-iteration\n"
    "              values of each side, the two-sided Mann-Whitney U test and\n"
    "              a verdict: same, noise, regression, improvement (p < 0.05\n"
    "              and |delta| >= 1% of the base mean and --min-abs)\n"
    "  ranges      per scoped range name (preprocessing.resize): instances,\n"
    "              host inclusive and exclusive total, GPU-projected total;\n"
    "              a verdict of the host inclusive delta alone (test none:\n"
    "              analysis.json keeps no per-instance values)\n"
    "  gates       each --fail-if: the worst row, observed value, threshold,\n"
    "              verdict\n"
    "\n"
    "Exit status: 1 when a gate trips, 0 otherwise, 2 on a usage or input\n"
    "error.\n"
    "\n"
    "Options:\n";

static const char nsys_diff_tail[] =
    "\n"
    "Gates: nsys[NAME].METRIC (ranges whose name contains NAME; nsys.METRIC:\n"
    "any range), iteration[N].METRIC or iteration_stats[METRIC].STAT, then >\n"
    "or <, then a percent (+5%) or a time (+2ms). Metrics: instances,\n"
    "host_inclusive_ns, host_exclusive_ns, gpu_ns (ranges); host_inclusive_ns,\n"
    "host_exclusive_ns, gpu_ns (iterations); iterations, mean_ns, median_ns\n"
    "(iteration_stats). A row whose verdict is noise never trips a gate on\n"
    "mean_ns or median_ns (iteration_stats) or host_inclusive_ns (ranges).\n"
    "\n"
    "Examples:\n"
    "  gpuprof diff --fail-if 'nsys[inference].gpu_ns>+5%' base/ new/\n"
    "  gpuprof diff --fail-if 'iteration_stats[host_inclusive_ns].mean_ns>+5%' a/ b/\n";

static const struct df_metric iter_m[] = {
    {"host_inclusive_ns", "Host Inclusive", REP_DUR_NS, DF_SUM, false},
    {"host_exclusive_ns", "Host Exclusive", REP_DUR_NS, DF_SUM, false},
    {"gpu_ns", "GPU Projected", REP_DUR_NS, DF_SUM, false},
};
/* the rows of iteration_stats: a metric of iter_m each, its values over
 * the iterations (DF_MAX: one row a side, nothing merges) */
static const struct df_metric stat_m[] = {
    {"iterations", "Iterations", REP_INT, DF_MAX, false},
    {"mean_ns", "Mean", REP_DUR_NS, DF_MAX, true},
    {"median_ns", "Median", REP_DUR_NS, DF_MAX, true},
};
/* the verdict is of the primary metric (the others are other measures) */
static const struct df_metric range_m[] = {
    {"instances", "Instances", REP_INT, DF_SUM, false},
    {"host_inclusive_ns", "Host Inclusive", REP_DUR_NS, DF_SUM, true},
    {"host_exclusive_ns", "Host Exclusive", REP_DUR_NS, DF_SUM, false},
    {"gpu_ns", "GPU Projected", REP_DUR_NS, DF_SUM, false},
};

enum { T_ITER, T_STATS, T_RANGES, T_N };
static const struct df_def defs[T_N] = {
    [T_ITER] = {"iterations", "iteration", "Iterations", "iteration", "Iteration", iter_m, 3, 0,
		false},
    [T_STATS] = {"iteration_stats", "iteration_stats",
		 "Iteration distribution (per-iteration values; Mann-Whitney U, p < 0.05)",
		 "metric", "Metric", stat_m, 3, 1, true},
    [T_RANGES] = {"ranges", "nsys", "Scoped ranges", "name", "Range", range_m, 4, 1, true},
};
#define NITER_M 3 /* iter_m's metrics: the rows of iteration_stats */

/* One side's per-iteration values of each metric of iter_m (an iteration
 * without a GPU projection has no gpu_ns value). */
struct sdf_samples {
	int64_t *v[NITER_M];
	size_t n[NITER_M];
};

/* The view's results (its priv). */
struct sdf_res {
	struct df_all all; /* first: df_view_tripped, df_view_free */
	size_t iterations[2];
};

static int sdf_setup(struct df_all *a, const struct view_opts *o, char *msg, size_t n)
{
	if (df_opts_kind(o, DF_IN_NSYS, msg, n))
		return -1;
	a->no_steps = true;
	a->ntabs = T_N;
	for (size_t i = 0; i < T_N; i++)
		a->tabs[i].def = &defs[i];
	return df_opts_apply(a, o, msg, n);
}

/* Where the first value out of range was (its list, entry and key), for
 * the one-line error; the values are read on. */
struct sdf_read {
	const char *list;
	size_t idx;
	const char *key;
	bool bad;
};

/* A time or count is an integer of 64 bits as nsys analyze writes it: a
 * value past 2^62 (no real profile comes near) is refused, so that every
 * sum and delta fits the integer columns. */
#define SDF_MAX 4611686018427387904.0

/* The number at key of obj (a path of keys: "inclusive", "total_ns"); 0
 * when absent or not a number, 0 and rd marked when out of range. */
static double num_at(const struct nsys_jv *v, const char *k1, const char *k2, struct sdf_read *rd,
		     const char *list, size_t idx)
{
	v = nsys_jv_get(v, k1);
	if (v && k2)
		v = nsys_jv_get(v, k2);
	double x = !v ? 0 : v->kind == NSYS_JINT ? (double)v->i : v->kind == NSYS_JFLOAT ? v->f : 0;
	if (x >= -SDF_MAX && x <= SDF_MAX)
		return x;
	if (!rd->bad)
		*rd = (struct sdf_read){list, idx, k2 ? k2 : k1, true};
	return 0;
}

static const struct nsys_jv *array_at(const struct nsys_jv *root, const char *key)
{
	const struct nsys_jv *v = nsys_jv_get(root, key);
	return v && v->kind == NSYS_JARR ? v : NULL;
}

static int add_iterations(struct df_table *t, int side, const struct nsys_jv *root, size_t *count,
			  struct sdf_samples *smp, struct sdf_read *rd)
{
	const struct nsys_jv *it = array_at(root, "iterations");
	for (int m = 0; it && m < NITER_M; m++)
		if (!(smp->v[m] = malloc((it->n ? it->n : 1) * sizeof *smp->v[m])))
			return -1;
	for (size_t i = 0; it && i < it->n; i++) {
		const struct nsys_jv *x = it->items[i];
		const struct nsys_jv *ix = nsys_jv_get(x, "index");
		if (!ix || ix->kind != NSYS_JINT)
			continue;
		char key[32];
		snprintf(key, sizeof key, "%lld", (long long)ix->i);
		const struct nsys_jv *host = nsys_jv_get(x, "host");
		const struct nsys_jv *gpu = nsys_jv_get(x, "gpu_projection");
		double v[DF_MAXM] = {num_at(host, "inclusive_ns", NULL, rd, "iterations", i),
				     num_at(host, "exclusive_ns", NULL, rd, "iterations", i),
				     num_at(gpu, "projected_ns", NULL, rd, "iterations", i)};
		if (df_add(t, side, key, v))
			return -1;
		(*count)++;
		bool has_gpu = gpu && gpu->kind == NSYS_JOBJ;
		for (int m = 0; m < NITER_M; m++)
			if (m < 2 || has_gpu)
				smp->v[m][smp->n[m]++] = (int64_t)v[m];
	}
	return 0;
}

/* The rows of iteration_stats, one per metric of iter_m on both sides,
 * each with the U test of the two sides' values and the steps' verdict
 * (docs/diff.md "Verdicts"). 0 or -1 (out of memory). */
static int add_stats(struct df_table *t, struct sdf_samples smp[2], double min_abs)
{
	for (int k = 0; k < 2; k++)
		for (int m = 0; m < NITER_M; m++) {
			size_t n = smp[k].n[m];
			ds_sort(smp[k].v[m], n);
			double v[DF_MAXM] = {(double)n, stats_mean(smp[k].v[m], n),
					     n ? stats_quantile(smp[k].v[m], n, 0.5) : 0};
			if (df_add(t, k, iter_m[m].key, v))
				return -1;
		}
	if (df_finish(t))
		return -1;
	for (size_t i = 0; i < t->n; i++) {
		struct df_row *r = &t->rows[i];
		int m = 0;
		while (m < NITER_M - 1 && strcmp(r->key, iter_m[m].key))
			m++;
		if (df_test_row(r, smp[0].v[m], smp[0].n[m], smp[1].v[m], smp[1].n[m]))
			return -1;
		r->verdict = df_row_verdict(t, r, r->tested && r->p < DF_ALPHA, min_abs);
	}
	return 0;
}

static int add_ranges(struct df_table *t, int side, const struct nsys_jv *root, struct sdf_read *rd)
{
	static const char *const lists[2] = {"host_ranges", "gpu_projected_ranges"};
	for (int l = 0; l < 2; l++) {
		const struct nsys_jv *rs = array_at(root, lists[l]);
		for (size_t i = 0; rs && i < rs->n; i++) {
			const struct nsys_jv *x = rs->items[i];
			const struct nsys_jv *name = nsys_jv_get(x, "name");
			if (!name || name->kind != NSYS_JSTR)
				continue;
			double v[DF_MAXM] = {0};
			const char *ln = lists[l];
			if (l == 0) {
				v[0] = num_at(x, "instances", NULL, rd, ln, i);
				v[1] = num_at(x, "inclusive", "total_ns", rd, ln, i);
				v[2] = num_at(x, "exclusive", "total_ns", rd, ln, i);
			} else {
				v[3] = num_at(x, "projected", "total_ns", rd, ln, i);
			}
			if (df_add(t, side, name->s, v))
				return -1;
		}
	}
	return 0;
}

static int sdf_compute(struct view *v, const struct view_source *src, struct err *e)
{
	if (!src->nsys_a || !src->nsys_b)
		return err_set(e, ERR_USAGE, NULL, -1,
			       "nsys diff takes two analyses, BASE and NEW (`gpuprof diff BASE "
			       "NEW`)");
	struct sdf_res *res = view_results_new(v, sizeof *res, e);
	if (!res)
		return ERR_NOMEM;
	struct df_all *a = &res->all;
	char msg[256];
	if (sdf_setup(a, &v->o, msg, sizeof msg))
		return err_set(e, ERR_USAGE, NULL, -1, "%s", msg);
	const struct nsys_jv *root[2] = {src->nsys_a, src->nsys_b};
	a->path[0] = src->path;
	a->path[1] = src->path_new;
	struct sdf_samples smp[2] = {0};
	int rc = 0;
	for (int k = 0; !rc && k < 2; k++) {
		struct sdf_read rd = {0};
		if (add_iterations(&a->tabs[T_ITER], k, root[k], &res->iterations[k], &smp[k],
				   &rd) ||
		    add_ranges(&a->tabs[T_RANGES], k, root[k], &rd))
			rc = err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
		else if (rd.bad)
			rc = err_set(e, ERR_FORMAT, a->path[k], -1,
				     "%s[%zu].%s: expected a time or count under 2^62 (as "
				     "`gpuprof nsys analyze` writes them)",
				     rd.list, rd.idx, rd.key);
	}
	double floor = a->floor[DF_UNIT_NS];
	if (!rc && (df_finish(&a->tabs[T_ITER]) || df_finish(&a->tabs[T_RANGES]) ||
		    add_stats(&a->tabs[T_STATS], smp, floor)))
		rc = err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	for (int k = 0; k < 2; k++)
		for (int m = 0; m < NITER_M; m++)
			free(smp[k].v[m]);
	if (rc)
		return rc;
	/* no per-instance values: a range's verdict is of its delta alone */
	const struct df_table *rt = &a->tabs[T_RANGES];
	for (size_t i = 0; i < rt->n; i++)
		rt->rows[i].verdict = df_row_verdict(rt, &rt->rows[i], true, floor);
	df_gates_eval(a);
	return 0;
}

static void sdf_emit(struct view *v, struct report *r)
{
	const struct sdf_res *res = v->priv;
	const struct df_all *a = &res->all;
	bool md = rep_format_of(r) == REP_MARKDOWN;
	df_kv_open(a, r, md ? "gpuprof diff (Nsight Systems)" : "Comparison");
	rep_kv(r, "base_iterations", "Base iterations", REP_INT,
	       rep_i((int64_t)res->iterations[0]));
	rep_kv(r, "new_iterations", "New iterations", REP_INT, rep_i((int64_t)res->iterations[1]));
	df_kv_close(a, r);
	df_emit_tables(a, r, v->o.top);
}

static int sdf_check(const struct view_decl *d, struct view_opts *o, enum vo_front f, char *msg,
		     size_t n)
{
	(void)d;
	(void)f;
	struct df_all *a = calloc(1, sizeof *a);
	if (!a)
		return snprintf(msg, n, "out of memory"), -1;
	int rc = sdf_setup(a, o, msg, n);
	free(a);
	return rc;
}

int view_nsys_side_open(struct view_nsys_side *s, const char *export_path, const char *text,
			size_t len, const char *path, struct err *e)
{
	memset(s, 0, sizeof *s);
	if (export_path) {
		struct view_opts o;
		const struct view_decl *d = view_find_in(VIEW_FAMILY_NSYS, "steps");
		view_opts_defaults(d, &o);
		int rc = nsys_sql_open(export_path, &s->q, e);
		if (!rc)
			rc = view_compute_nsys(d, s->q, path, &o, &s->steps, e);
		s->root = rc ? NULL : view_json(s->steps);
		return rc;
	}
	struct nsys_jv *root = NULL;
	int rc = nsys_jv_parse(&s->a, text, len, path, &root, e);
	s->root = root;
	return rc;
}

void view_nsys_side_close(struct view_nsys_side *s)
{
	view_free(s->steps);
	nsys_sql_close(s->q);
	arena_free(&s->a);
	memset(s, 0, sizeof *s);
}

const struct view_decl view_nsys_diff_decl = {
    .kind = VIEW_NSYS_DIFF,
    .family = VIEW_FAMILY_NSYS,
    .name = "diff",
    .summary = "compare two analyses: iterations and scoped ranges, gates",
    .help_head = nsys_diff_head,
    .help_tail = nsys_diff_tail,
    .operands = " \\fIBASE\\fP \\fINEW\\fP",
    .opts = df_options,
    .nopts = DF_NOPTIONS,
    .flags = VIEW_MANY | VIEW_WHOLE_FILE,
    .ntraces = 2, /* files: BASE and NEW */
    .check = sdf_check,
    .compute = sdf_compute,
    .emit = sdf_emit,
    .free = df_view_free,
    .tripped = df_view_tripped,
};
