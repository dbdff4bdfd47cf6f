/* view_diff: `gpuprof diff BASE NEW`, what changed between two PyTorch
 * traces: steps, operators, kernels, memory peaks, communication and GPU
 * metrics compared row by row, with verdicts and gates (views/view_diff.h;
 * docs/diff.md says how each number is computed). A VIEW_MANY view of
 * exactly two traces, each analysed through its own session. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tbprof/diffstat.h"
#include "tbprof/dist.h"
#include "tbprof/gpumetrics.h"
#include "tbprof/kernels.h"
#include "tbprof/memory.h"
#include "tbprof/ops.h"
#include "views/view_diff.h"
#include "views/view_int.h"

static const char diff_head[] =
    "Usage: gpuprof diff [options] BASE NEW\n"
    "       gpuprof diff [options] --base A0 A1... --new B0 B1...\n"
    "\n"
    "What changed from BASE to NEW, two files of one kind; the kind of BASE\n"
    "picks the comparison:\n"
    "  two PyTorch profiler traces      the tables below\n"
    "  two Nsight Compute reports       launches and hints (`gpuprof ncu diff\n"
    "                                   --help`)\n"
    "  two Nsight Systems analyses      iterations and scoped ranges of\n"
    "  (analysis.json, run directories, `gpuprof nsys analyze` (docs/diff.md)\n"
    "  SQLite exports)\n"
    "Files of two kinds are a usage error.\n"
    "\n"
    "Of two traces, or of two sets of rank traces (one trace per rank, as\n"
    "many on each side: a step lasts as long as its slowest rank; ops,\n"
    "kernels and communication add up over the ranks; memory and GPUs are\n"
    "rows per rank, 'rank0 cuda:0'): tables (deltas are NEW - BASE; rows of\n"
    "one side only are 'added' or 'removed'; rows by absolute delta, largest\n"
    "first):\n"
    "\n"
    "  steps       per breakdown part (total first): steps, mean, median and\n"
    "              IQR of the per-step values on each side, the delta of the\n"
    "              means, the two-sided Mann-Whitney U test of the per-step\n"
    "              values and a verdict: same, noise, regression, improvement\n"
    "              (p < 0.05 and |delta| >= 1% of the base mean and --min-abs)\n"
    "  ops         operators by name: calls, host and device self time, and\n"
    "              the U test of the per-call device self times: IQR, p and\n"
    "              a verdict (also when the number of calls changed)\n"
    "  ops_shape   operators by name and input shape\n"
    "  kernels     kernels by normalized name (--exact-names: as written):\n"
    "              calls, total, mean; the U test of each launch's duration\n"
    "  memory      per device: peak allocated and reserved bytes\n"
    "  comm        per collective: calls, bytes, latency\n"
    "  gpus        per GPU: utilization, SM efficiency, occupancy\n"
    "  gates       each --fail-if: the worst row, observed value, threshold,\n"
    "              verdict\n"
    "A section 'diff' sums it up. --format markdown writes a compact report\n"
    "(summary, step comparison, top regressions and improvements of each\n"
    "table, gates) for a pull-request comment or $GITHUB_STEP_SUMMARY.\n"
    "\n"
    "Exit status: 1 when a gate trips, 0 otherwise, 2 on a usage or input\n"
    "error (a --fail-if that does not read says at which byte).\n"
    "\n"
    "Options:\n";

static const char diff_tail[] =
    "\n"
    "Gates: TABLE[.METRIC] or TABLE[TEXT].METRIC, then > or <, then a signed\n"
    "threshold: a percent of the base value (+5%) or an amount with a unit\n"
    "(+2ms, +256MiB, +10 for counts). step_time is steps[total].mean_ns.\n"
    "A TABLE row trips when its delta passes the threshold (rows whose key\n"
    "contains TEXT only); a steps row whose verdict is noise never does, nor\n"
    "does an ops or kernels row on its timed metric (device_self_ns,\n"
    "total_ns, mean_ns);\n"
    "rows under --min-abs never trip a percent gate. --top N applies to\n"
    "every table but steps (markdown: N per list, default 5).\n"
    "See docs/diff.md for the metric names of each table.\n"
    "\n"
    "Examples:\n"
    "  gpuprof diff base.pt.trace.json new.pt.trace.json\n"
    "  gpuprof diff --fail-if 'step_time>+5%' --fail-if 'kernel[gemm].total_ns>+2ms' a.json "
    "b.json\n"
    "  gpuprof diff --format markdown a.json b.json >> \"$GITHUB_STEP_SUMMARY\"\n"
    "  gpuprof diff --base old/rank0.json old/rank1.json --new new/rank0.json "
    "new/rank1.json\n";

_Static_assert(sizeof(struct df_opts) <= VIEW_OWN_BYTES, "diff's options fit the own area");

const struct vo df_options[DF_NOPTIONS] = {
    {.lname = "fail-if",
     .api = "fail_if",
     .type = VO_LIST,
     .off = VIEW_OWN_OFF(struct df_opts, fail_if),
     .metavar = "EXPR",
     .help = "exit 1 when EXPR holds (repeatable), e.g. 'step_time>+5%'"},
    {.lname = "min-abs",
     .api = "min_abs",
     .type = VO_LIST,
     .off = VIEW_OWN_OFF(struct df_opts, min_abs),
     .metavar = "AMOUNT",
     .help = "rows whose |delta| is under AMOUNT (a time such as 100us,\n"
	     "or bytes such as 1MiB; repeatable, one per unit) trip no\n"
	     "percent gate"},
    {.lname = "base",
     .type = VO_LIST,
     .off = VIEW_OWN_OFF(struct df_opts, base),
     .metavar = "TRACE...",
     .operands = true,
     .help = "BASE is this set of rank traces (one per rank; the\n"
	     "traces that follow, up to the next option), with --new"},
    {.lname = "new",
     .type = VO_LIST,
     .off = VIEW_OWN_OFF(struct df_opts, news),
     .metavar = "TRACE...",
     .operands = true,
     .help = "NEW is this set of rank traces, as many as --base's"},
    {.lname = "exact-names",
     .api = "exact_names",
     .type = VO_FLAG,
     .off = VIEW_OWN_OFF(struct df_opts, exact_names),
     .help = "match kernels by their names as written (no normalization)"},
    {.lname = "metric",
     .api = "metric",
     .type = VO_LIST,
     .off = VIEW_OWN_OFF(struct df_opts, metric),
     .metavar = "NAME",
     .help = "Nsight Compute reports: also compare metric NAME of each\n"
	     "launch (repeatable, at most 7)"},
    VIEW_OPT_TOP_ROWS,
};

int df_opts_kind(const struct view_opts *o, enum df_input k, char *msg, size_t n)
{
	static const char *const what[] = {"traces", "Nsight Compute reports",
					   "Nsight Systems analyses"};
	const struct df_opts *own = view_own(o);
	if (own->metric.n && k != DF_IN_NCU)
		return snprintf(msg, n, "--metric applies to Nsight Compute reports, not %s",
				what[k]),
		       -1;
	if ((own->base.n || own->news.n) && k != DF_IN_TRACE)
		return snprintf(msg, n, "--base and --new take sets of rank traces, not %s",
				what[k]),
		       -1;
	if (own->exact_names && k == DF_IN_NSYS)
		return snprintf(msg, n,
				"--exact-names applies to kernel names (traces, Nsight "
				"Compute reports), not %s",
				what[k]),
		       -1;
	return 0;
}

/* The view's results (its priv). */
struct diff_res {
	struct df_all all;	 /* first: df_view_tripped */
	size_t nbase;		 /* sets: the traces of BASE, first in the view's */
	struct st_result set[2]; /* sets: each side's steps (df_set_steps) */
	char *paths[2];		 /* sets: each side's paths */
	struct df_src *src;	 /* per trace, until df_calls */
	size_t nsrc;
};

/* calls first: the per-call verdicts (view_diff_calls.c) read metric 0 */
static const struct df_metric kern_m[] = {
    {"calls", "Calls", REP_INT, DF_SUM, false},
    {"total_ns", "Total", REP_DUR_NS, DF_SUM, true},
    {"mean_ns", "Mean", REP_DUR_NS, DF_MEAN, true},
};
static const struct df_metric ops_m[] = {
    {"calls", "Calls", REP_INT, DF_SUM, false},
    {"device_self_ns", "Device Self", REP_DUR_NS, DF_SUM, true},
    {"host_self_ns", "Host Self", REP_DUR_NS, DF_SUM, false},
};
static const struct df_metric mem_m[] = {
    {"peak_allocated_bytes", "Peak Allocated", REP_BYTES, DF_MAX, false},
    {"peak_reserved_bytes", "Peak Reserved", REP_BYTES, DF_MAX, false},
};
static const struct df_metric comm_m[] = {
    {"calls", "Calls", REP_INT, DF_SUM, false},
    {"bytes", "Bytes", REP_BYTES, DF_SUM, false},
    {"latency_ns", "Latency", REP_DUR_NS, DF_SUM, false},
};
static const struct df_metric gpu_m[] = {
    {"utilization_pct", "GPU Utilization", REP_PCT, DF_MAX, false},
    {"sm_efficiency_pct", "SM Efficiency", REP_PCT, DF_MAX, false},
    {"occupancy_pct", "Occupancy", REP_PCT, DF_MAX, false},
};

#define DEF(name, sing, title, kc, kt, m, prim, calls)                                             \
	{                                                                                          \
		name, sing, title, kc, kt, m, (int)(sizeof m / sizeof m[0]), prim, calls           \
	}
static const struct df_def defs[DF_T_N] = {
    [DF_T_OPS] = DEF("ops", "op", "Operators", "name", "Name", ops_m, 1, true),
    [DF_T_OPS_SHAPE] = DEF("ops_shape", "op_shape", "Operators by input shape", "name",
			   "Name [Input Shape]", ops_m, 1, true),
    [DF_T_KERNELS] = DEF("kernels", "kernel", "Kernels", "name", "Name", kern_m, 1, true),
    [DF_T_MEMORY] = DEF("memory", "memory", "Memory peaks", "device", "Device", mem_m, 0, false),
    [DF_T_COMM] =
	DEF("comm", "collective", "Communication", "name", "Collective", comm_m, 2, false),
    [DF_T_GPUS] = DEF("gpus", "gpu", "GPU metrics", "gpu", "GPU", gpu_m, 0, false),
};

const struct df_def *df_defs(size_t *n)
{
	*n = DF_T_N;
	return defs;
}

/* The per-step values of part p on one side, sorted, into *out (malloc'd). */
static int samples(const struct st_result *s, enum st_part p, int64_t **out)
{
	int64_t *v = malloc((s->n ? s->n : 1) * sizeof *v);
	if (!v)
		return -1;
	for (size_t i = 0; i < s->n; i++)
		v[i] = s->steps[i].cost[p];
	ds_sort(v, s->n);
	*out = v;
	return 0;
}

/* The verdict of a part from its delta and test (docs/diff.md). */
static const char *part_verdict(const struct df_part *p, double min_abs)
{
	double d = p->mean[1] - p->mean[0];
	return df_verdict(p->mean[0], d, d == 0 && p->median[0] == p->median[1],
			  p->tested && p->p < DF_ALPHA, min_abs);
}

static int compare_part(struct df_part *dp, enum st_part p, const struct st_result *const s[2],
			double min_abs)
{
	int64_t *v[2] = {NULL, NULL};
	int rc = samples(s[0], p, &v[0]) || samples(s[1], p, &v[1]) ? -1 : 0;
	dp->part = p;
	for (int k = 0; !rc && k < 2; k++) {
		size_t n = s[k]->n;
		dp->n[k] = n;
		dp->mean[k] = stats_mean(v[k], n);
		dp->median[k] = n ? stats_quantile(v[k], n, 0.5) : 0;
		dp->iqr[k] = n ? stats_quantile(v[k], n, 0.75) - stats_quantile(v[k], n, 0.25) : 0;
	}
	dp->tested = !rc && s[0]->n && s[1]->n;
	if (dp->tested) {
		struct ds_mwu m = {0};
		if (ds_mannwhitney(v[0], s[0]->n, v[1], s[1]->n, &m))
			rc = -1;
		dp->tested = !rc;
		dp->u = m.u;
		dp->p = m.p;
		dp->exact = m.exact;
	}
	dp->verdict = part_verdict(dp, min_abs);
	free(v[0]);
	free(v[1]);
	return rc;
}

static int cmp_part(const void *x, const void *y)
{
	const struct df_part *a = x, *b = y;
	double da = a->mean[1] - a->mean[0], db = b->mean[1] - b->mean[0];
	da = da < 0 ? -da : da;
	db = db < 0 ? -db : db;
	if (da != db)
		return da < db ? 1 : -1;
	return (a->part > b->part) - (a->part < b->part);
}

/* The steps table: total first, then the parts either side shows. */
static int compare_steps(struct df_all *a, const struct st_result *const s[2])
{
	a->nparts = 0;
	if (compare_part(&a->parts[a->nparts++], ST_TOTAL, s, a->floor[DF_UNIT_NS]))
		return -1;
	for (int p = 0; p < ST_TOTAL; p++) {
		if (!st_part_shown(s[0], (enum st_part)p) && !st_part_shown(s[1], (enum st_part)p))
			continue;
		if (compare_part(&a->parts[a->nparts++], (enum st_part)p, s, a->floor[DF_UNIT_NS]))
			return -1;
	}
	qsort(a->parts + 1, a->nparts - 1, sizeof a->parts[0], cmp_part);
	return 0;
}

/* The kernel rows of one trace (its view kept in *kv for df_calls). */
static int add_kernels(struct df_table *t, int side, const struct optree *o, bool exact,
		       struct kern_view *kv, struct err *e)
{
	int rc = kern_build(o, KERN_BY_NAME, kv, e);
	for (size_t i = 0; !rc && i < kv->n; i++) {
		const struct kern_row *k = &kv->rows[i];
		char *key = df_kernel_key(tr_str(o->t, k->name), exact);
		double v[DF_MAXM] = {(double)k->calls, (double)k->total};
		if (!key || df_add(t, side, key, v))
			rc = err_set(e, ERR_NOMEM, o->t->path, -1, "out of memory");
		free(key);
	}
	return rc;
}

/* The operator rows of one trace (its view kept in *ov for df_calls). */
static int add_ops(struct df_table *t, int side, const struct optree *o, enum ops_group g,
		   struct ops_view *ov, struct err *e)
{
	struct ops_opts oo = {.group = g, .node_groups = true};
	int rc = ops_build(o, &oo, ov, e);
	for (size_t i = 0; !rc && i < ov->n; i++) {
		const struct ops_row *r = &ov->rows[i];
		char *key = df_op_key(o->t, ov, r, g);
		double v[DF_MAXM] = {(double)r->calls, (double)r->self_device,
				     (double)r->self_host};
		if (!key || df_add(t, side, key, v))
			rc = err_set(e, ERR_NOMEM, o->t->path, -1, "out of memory");
		free(key);
	}
	return rc;
}

/* key = pre + name in buf (pre: "rank3 " in a set, else ""). */
static const char *ranked(char *buf, size_t n, const char *pre, const char *name)
{
	snprintf(buf, n, "%s%s", pre, name);
	return buf;
}

static int add_memory(struct df_table *t, int side, const struct optree *o, const char *pre,
		      struct err *e)
{
	struct mem_opts mo = {0};
	struct memory m;
	int rc = mem_build(o, &mo, &m, e);
	if (rc)
		return rc;
	for (size_t i = 0; !rc && i < m.ndevs; i++) {
		const struct mem_device *d = &m.devs[i];
		double v[DF_MAXM] = {(double)d->peak_allocated, (double)d->peak_reserved};
		char key[320];
		if (df_add(t, side, ranked(key, sizeof key, pre, d->name), v))
			rc = err_set(e, ERR_NOMEM, o->t->path, -1, "out of memory");
	}
	mem_free(&m);
	return rc;
}

static int add_comm(struct df_table *t, int side, struct ses *ses, struct err *e)
{
	const struct trace *tr = ses_trace(ses);
	struct dist_result d;
	struct dist_opts o = {0};
	int rc = dist_init(&d, &o, e);
	if (rc)
		return rc;
	if (!(rc = dist_add_ses(&d, ses, "w", NULL, e)) && !(rc = dist_finish(&d, e))) {
		const struct dist_worker *w = &d.w[0];
		for (size_t i = 0; !rc && i < w->nops; i++) {
			const struct dist_op *op = &w->ops[i];
			double v[DF_MAXM] = {(double)op->calls, (double)op->bytes,
					     (double)op->latency};
			if (df_add(t, side, strpool_get(&d.pool, op->name), v))
				rc = err_set(e, ERR_NOMEM, tr->path, -1, "out of memory");
		}
	}
	dist_free(&d); /* the rows hold copies of the names */
	return rc;
}

static int add_gpus(struct df_table *t, int side, const struct trace *tr, const struct st_result *s,
		    const char *pre, struct err *e)
{
	struct gm_result gm;
	int rc = gm_compute(tr, false, s->n > 0, s->n ? s->steps[0].start : 0,
			    s->n ? s->steps[s->n - 1].end : 0, false, &gm, e);
	if (rc)
		return rc;
	char key[64];
	for (size_t i = 0; !rc && i < gm.n; i++) {
		const struct gm_gpu *g = &gm.gpus[i];
		snprintf(key, sizeof key, "%sGPU%lld", pre, (long long)g->id);
		double v[DF_MAXM] = {g->has_utilization ? 100 * g->utilization : 0,
				     g->has_sm_efficiency ? 100 * g->sm_efficiency : 0,
				     g->has_occupancy ? g->occupancy : 0};
		if (df_add(t, side, key, v))
			rc = err_set(e, ERR_NOMEM, tr->path, -1, "out of memory");
	}
	gm_free(&gm);
	return rc;
}

/* Trace i's rows of every table, on side (0 base, 1 new); pre: "rankR "
 * in a set. Its grouped rows stay in *src for df_calls. */
static int add_trace(struct diff_res *res, struct view *v, size_t i, int side, const char *pre,
		     const struct st_result *s, struct df_src *src, struct err *e)
{
	struct df_table *tab = res->all.tabs;
	const struct optree *o;
	int rc = ses_tree(v->ss[i], false, &o, e);
	src->side = side;
	src->o = o;
	if (!rc)
		rc = add_ops(&tab[DF_T_OPS], side, o, OPS_BY_NAME, &src->ov[0], e);
	if (!rc)
		rc = add_ops(&tab[DF_T_OPS_SHAPE], side, o, OPS_BY_NAME_SHAPE, &src->ov[1], e);
	if (!rc)
		rc = add_kernels(&tab[DF_T_KERNELS], side, o, res->all.exact_names, &src->kv, e);
	if (!rc)
		rc = add_memory(&tab[DF_T_MEMORY], side, o, pre, e);
	if (!rc)
		rc = add_comm(&tab[DF_T_COMM], side, v->ss[i], e);
	if (!rc)
		rc = add_gpus(&tab[DF_T_GPUS], side, v->ts[i], s, pre, e);
	return rc;
}

/* The steps of each side (a set's: df_set_steps) into s[2], and the rows
 * of every trace. */
static int add_sides(struct diff_res *res, struct view *v, const struct st_result **s,
		     struct err *e)
{
	struct df_all *a = &res->all;
	size_t n = v->nts, nb = a->sets ? res->nbase : 1;
	const struct st_result **st = calloc(n, sizeof *st);
	int64_t *rank = calloc(n, sizeof *rank);
	int rc = !st || !rank ? err_set(e, ERR_NOMEM, NULL, -1, "out of memory") : 0;
	/* the operator trees of the first trace of each side are built on
	 * threads of their own while the steps are found here (each session
	 * alone decides whether it may; ses_tree waits for them) */
	if (!rc) {
		ses_tree_ahead(v->ss[0], false);
		ses_tree_ahead(v->ss[nb], false);
	}
	for (size_t i = 0; i < n && !rc; i++)
		rc = ses_steps(v->ss[i], false, &st[i], e);
	for (int k = 0; k < 2 && !rc; k++) {
		const struct trace *const *ts = v->ts + (k ? nb : 0);
		size_t m = k ? n - nb : nb;
		s[k] = st[k ? nb : 0];
		a->path[k] = ts[0]->path;
		if (!a->sets)
			continue;
		df_set_ranks(ts, m, rank + (k ? nb : 0));
		if (df_set_steps(st + (k ? nb : 0), m, &res->set[k]) ||
		    !(res->paths[k] = df_set_paths(ts, m)))
			rc = err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
		s[k] = &res->set[k];
		a->path[k] = res->paths[k];
	}
	for (size_t i = 0; i < n && !rc; i++) {
		char pre[32] = "";
		if (a->sets)
			snprintf(pre, sizeof pre, "rank%lld ", (long long)rank[i]);
		rc = add_trace(res, v, i, i < nb ? 0 : 1, pre, st[i], &res->src[i], e);
	}
	free(st);
	free(rank);
	return rc;
}

static void free_src(struct diff_res *res)
{
	for (size_t i = 0; res->src && i < res->nsrc; i++)
		df_src_free(&res->src[i]);
	free(res->src);
	res->src = NULL;
}

static int diff_compute(struct view *v, const struct view_source *src, struct err *e)
{
	(void)src;
	const struct df_opts *own = view_own(&v->o);
	size_t want = own->base.n ? own->base.n + own->news.n : 2;
	if (v->nts != want) /* the front ends check it first */
		return err_set(e, ERR_USAGE, NULL, -1, "takes %zu traces, BASE and NEW (got %zu)",
			       want, v->nts);
	struct diff_res *res = view_results_new(v, sizeof *res, e);
	if (!res)
		return ERR_NOMEM;
	struct df_all *a = &res->all;
	a->ntabs = DF_T_N;
	for (size_t i = 0; i < DF_T_N; i++)
		a->tabs[i].def = &defs[i];
	a->sets = own->base.n > 0;
	a->exact_names = own->exact_names;
	res->nbase = own->base.n;
	res->nsrc = v->nts;
	if (!(res->src = calloc(v->nts, sizeof *res->src)))
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	const struct st_result *s[2];
	int rc = add_sides(res, v, s, e);
	if (rc)
		return rc;
	char msg[256];
	if (df_opts_apply(a, &v->o, msg, sizeof msg))
		return err_set(e, ERR_USAGE, NULL, -1, "%s", msg);
	if (compare_steps(a, s))
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	for (size_t i = 0; i < DF_T_N; i++)
		if (df_finish(&a->tabs[i]))
			return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	if (df_calls(a, res->src, res->nsrc, a->exact_names, a->floor[DF_UNIT_NS]))
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	free_src(res); /* the samples are read: the grouped rows go */
	df_gates_eval(a);
	return 0;
}

static void diff_free(struct view *v)
{
	struct diff_res *res = v->priv;
	if (!res)
		return;
	for (size_t i = 0; i < DF_T_N; i++) /* all of them: ntabs may not be set yet */
		df_table_free(&res->all.tabs[i]);
	free_src(res);
	for (int k = 0; k < 2; k++) {
		st_free(&res->set[k]);
		free(res->paths[k]);
	}
	free(res);
}

static void diff_emit(struct view *v, struct report *r)
{
	struct diff_res *res = v->priv;
	df_emit(&res->all, r, v->o.top);
}

/* The options alone: every gate and floor must read (before any load). */
static int diff_check(const struct view_decl *d, struct view_opts *o, enum vo_front f, char *msg,
		      size_t n)
{
	struct df_all *a = calloc(1, sizeof *a);
	if (!a)
		return snprintf(msg, n, "out of memory"), -1;
	a->ntabs = DF_T_N;
	for (size_t i = 0; i < DF_T_N; i++)
		a->tabs[i].def = &defs[i];
	int rc = df_opts_kind(o, DF_IN_TRACE, msg, n) ? -1 : df_opts_apply(a, o, msg, n);
	free(a);
	return rc;
}

/* --base A0 A1 ... --new B0 B1 ...: the traces to load, BASE's first. */
static int diff_traces(const struct view_opts *o, int nops, const char **paths, char *msg, size_t n)
{
	const struct df_opts *own = view_own(o);
	if (!own->base.n && !own->news.n)
		return 0;
	if (nops)
		return snprintf(msg, n,
				"takes BASE NEW or --base TRACE... --new TRACE..., not both "
				"(got '%s' besides the sets)",
				paths[0]),
		       -1;
	if (!own->base.n || !own->news.n)
		return snprintf(msg, n, "%s needs %s too", own->base.n ? "--base" : "--new",
				own->base.n ? "--new TRACE..." : "--base TRACE..."),
		       -1;
	if (own->base.n != own->news.n)
		return snprintf(msg, n,
				"--base has %zu traces and --new %zu: a set holds one trace per "
				"rank, as many on each side",
				own->base.n, own->news.n),
		       -1;
	for (size_t i = 0; i < own->base.n; i++)
		paths[i] = own->base.v[i];
	for (size_t i = 0; i < own->news.n; i++)
		paths[own->base.n + i] = own->news.v[i];
	return (int)(own->base.n + own->news.n);
}

const struct view_decl view_diff_decl = {
    .kind = VIEW_DIFF,
    .family = VIEW_FAMILY_TRACE,
    .name = "diff",
    .summary = "compare two runs (traces, rank sets, ncu reports, nsys analyses), gates",
    .help_head = diff_head,
    .help_tail = diff_tail,
    .operands = " \\fIBASE\\fP \\fINEW\\fP",
    .opts = df_options,
    .nopts = DF_NOPTIONS,
    .flags = VIEW_MANY,
    .ntraces = 2,
    .traces = diff_traces,
    .check = diff_check,
    .compute = diff_compute,
    .emit = diff_emit,
    .free = diff_free,
    .tripped = df_view_tripped,
};
