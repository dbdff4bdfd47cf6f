/* view_ncu_diff: `gpuprof diff BASE NEW` (and `gpuprof ncu diff`) of two
 * Nsight Compute reports: the profiled launches of both matched by kernel
 * name, launch configuration and occurrence, their metrics compared, the
 * rule results (hints) that appeared or went away, and the gates of
 * --fail-if on them (views/view_diff.h holds the tables and the gates;
 * docs/diff.md says how each number is found).
 *
 * The view takes two reports through struct view_source (ncu: BASE,
 * ncu_new: NEW; view_compute_ncu2); given one (the server's route of one
 * file) it answers ERR_USAGE. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "ncu/ncu.h"
#include "tbprof/diffstat.h"
#include "views/view_diff.h"
#include "views/view_int.h"

static const char ncu_diff_head[] =
    "Usage: gpuprof ncu diff [options] BASE NEW\n"
    "       gpuprof diff [options] BASE NEW    (BASE and NEW Nsight Compute reports)\n"
    "\n"
    "What changed from the Nsight Compute report BASE to the report NEW.\n"
    "Launches are matched by kernel name (normalized as `gpuprof diff` does\n"
    "for traces; --exact-names: as written), grid and block, and occurrence\n"
    "(the k-th launch of that name and configuration on each side). Tables\n"
    "(deltas are NEW - BASE; rows by absolute delta, largest first):\n"
    "\n"
    "  launches    per matched launch: duration, SM and memory throughput,\n"
    "              achieved occupancy, registers per thread and each --metric;\n"
    "              launches of one side only are 'added' or 'removed'\n"
    "  hints       per launch and rule with messages: messages and the largest\n"
    "              estimated speedup; a hint of one side only is 'added' or\n"
    "              'removed'\n"
    "  gates       each --fail-if: the worst row, observed value, threshold,\n"
    "              verdict\n"
    "\n"
    "Exit status: 1 when a gate trips, 0 otherwise, 2 on a usage or input\n"
    "error.\n"
    "\n"
    "Options:\n";

static const char ncu_diff_tail[] =
    "\n"
    "Gates: ncu.METRIC or ncu[TEXT].METRIC (launches whose key contains TEXT),\n"
    "then > or <, then a percent (+3%) or an amount (+2us, +8 registers).\n"
    "Metrics: duration_ns, sm_throughput_pct, memory_throughput_pct,\n"
    "achieved_occupancy_pct, registers_per_thread and each --metric NAME;\n"
    "hint.messages for the hints.\n"
    "\n"
    "Examples:\n"
    "  gpuprof diff --fail-if 'ncu.duration_ns>+3%' base.ncu-rep new.ncu-rep\n"
    "  gpuprof ncu diff --metric dram__bytes_read.sum a.ncu-rep b.ncu-rep\n";

/* The fixed metrics of a launch: the ncu metric each is read from. */
static const struct {
	struct df_metric m;
	const char *ncu;
} fixed[] = {
    {{"duration_ns", "Duration", REP_DUR_NS, DF_SUM, false}, "gpu__time_duration.sum"},
    {{"sm_throughput_pct", "SM %", REP_PCT, DF_SUM, false},
     "sm__throughput.avg.pct_of_peak_sustained_elapsed"},
    {{"memory_throughput_pct", "Memory %", REP_PCT, DF_SUM, false},
     "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"},
    {{"achieved_occupancy_pct", "Occupancy %", REP_PCT, DF_SUM, false},
     "sm__warps_active.avg.pct_of_peak_sustained_active"},
    {{"registers_per_thread", "Registers", REP_INT, DF_SUM, false}, "launch__registers_per_thread"},
};
#define NFIXED ((int)(sizeof fixed / sizeof fixed[0]))

static const struct df_metric hint_m[] = {
    {"messages", "Messages", REP_INT, DF_SUM, false},
    {"speedup_pct", "Est. Speedup %", REP_PCT, DF_MAX, false},
};

enum { T_LAUNCHES, T_HINTS, T_N };

/* The view's results (its priv): the comparison and the declarations of
 * its tables, the launches' metrics being the fixed ones and --metric's. */
struct ndf_res {
	struct df_all all; /* first: df_view_tripped, df_view_free */
	struct df_metric m[DF_MAXM];
	struct df_def defs[T_N];
	size_t matched, added, removed;
};

/* The tables of o's options into res (no rows yet); 0 or -1 with msg. */
static int ndf_setup(struct ndf_res *res, const struct view_opts *o, char *msg, size_t n)
{
	const struct df_opts *own = view_own(o);
	if (df_opts_kind(o, DF_IN_NCU, msg, n))
		return -1;
	if (own->metric.n > (size_t)(DF_MAXM - NFIXED))
		return snprintf(msg, n, "--metric: at most %d metrics (got %zu)", DF_MAXM - NFIXED,
				own->metric.n),
		       -1;
	int nm = 0;
	for (int i = 0; i < NFIXED; i++)
		res->m[nm++] = fixed[i].m;
	for (size_t i = 0; i < own->metric.n; i++) {
		const char *name = own->metric.v[i];
		if (!*name || strlen(name) > 100)
			return snprintf(msg, n, "--metric takes a metric name of 1 to 100 bytes"),
			       -1;
		res->m[nm++] = (struct df_metric){name, name, REP_FLOAT, DF_SUM, false};
	}
	res->defs[T_LAUNCHES] = (struct df_def){"launches", "ncu", "Launches", "launch", "Launch",
						res->m,	    nm,	   0,	       false};
	res->defs[T_HINTS] =
	    (struct df_def){"hints", "hint", "Hints", "hint", "Launch: Rule", hint_m, 2, 0, false};
	struct df_all *a = &res->all;
	a->no_steps = true;
	a->exact_names = own->exact_names;
	a->ntabs = T_N;
	for (size_t i = 0; i < T_N; i++)
		a->tabs[i].def = &res->defs[i];
	return df_opts_apply(a, o, msg, n);
}

/* A metric of result i as a number: 0 when the launch does not hold it,
 * holds text or an n/a, or a value past 2^62 (no real launch comes near;
 * the integer columns could not hold it). */
static double metric_num(struct ncu_report *r, size_t i, const char *name, bool fixed_col)
{
	const struct ncu_metric *m =
	    fixed_col ? ncu_lookup_column(r, i, name) : ncu_lookup(r, i, name);
	if (!m || m->value.type == NCU_V_STR || ncu_value_is_na(&m->value))
		return 0;
	double v = ncu_value_num(&m->value);
	return v >= -4611686018427387904.0 && v <= 4611686018427387904.0 ? v : 0;
}

/* One launch's key without its occurrence: name, grid, block. */
struct ndf_launch {
	char *key;
	size_t idx; /* the result's index in the report */
};

static int cmp_launch(const void *x, const void *y)
{
	const struct ndf_launch *a = x, *b = y;
	int c = strcmp(a->key, b->key);
	return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

static char *launch_key(const struct ncu_result *res, bool exact)
{
	const char *name = ncu_kernel_name(res);
	size_t len = strlen(name) + 1; /* a normalized name is never longer */
	char *nm = malloc(len);
	if (!nm)
		return NULL;
	if (exact)
		memcpy(nm, name, len);
	else
		ds_kernel_name(name, nm, len);
	size_t n = len + 160;
	char *key = malloc(n);
	if (key)
		snprintf(key, n, "%s grid (%llu, %llu, %llu) block (%llu, %llu, %llu)", nm,
			 (unsigned long long)res->grid[0], (unsigned long long)res->grid[1],
			 (unsigned long long)res->grid[2], (unsigned long long)res->block[0],
			 (unsigned long long)res->block[1], (unsigned long long)res->block[2]);
	free(nm);
	return key;
}

/* The rows of result i, of key key, into the tables. */
static int add_launch(struct ndf_res *res, int side, struct ncu_report *r, size_t i,
		      const char *key)
{
	const struct df_def *d = &res->defs[T_LAUNCHES];
	double v[DF_MAXM] = {0};
	for (int m = 0; m < d->nm; m++)
		v[m] = metric_num(r, i, m < NFIXED ? fixed[m].ncu : d->m[m].key, m < NFIXED);
	if (df_add(&res->all.tabs[T_LAUNCHES], side, key, v))
		return -1;
	const struct ncu_result *rs = &r->results[i];
	for (size_t k = 0; k < rs->nrules; k++) {
		const struct ncu_rule *ru = &rs->rules[k];
		if (!ru->nmsgs)
			continue;
		double h[DF_MAXM] = {(double)ru->nmsgs, 0};
		for (size_t j = 0; j < ru->nmsgs; j++)
			if (ru->msgs[j].speedup_type && ru->msgs[j].speedup_pct > h[1])
				h[1] = ru->msgs[j].speedup_pct;
		const char *rule = *ru->id ? ru->id : ru->name; /* its identifier */
		size_t n = strlen(key) + strlen(rule) + 4;
		char *hk = malloc(n);
		if (hk)
			snprintf(hk, n, "%s: %s", key, rule);
		int rc = !hk || df_add(&res->all.tabs[T_HINTS], side, hk, h);
		free(hk);
		if (rc)
			return -1;
	}
	return 0;
}

/* Every launch of one side: keyed by name and configuration, then
 * numbered in file order within its key (" #k"). */
static int add_side(struct ndf_res *res, int side, struct ncu_report *r)
{
	size_t n = r->nresults;
	struct ndf_launch *l = calloc(n ? n : 1, sizeof *l);
	int rc = l ? 0 : -1;
	for (size_t i = 0; !rc && i < n; i++) {
		l[i].idx = i;
		if (!(l[i].key = launch_key(&r->results[i], res->all.exact_names)))
			rc = -1;
	}
	if (!rc)
		gp_qsort(l, n, sizeof *l, cmp_launch);
	size_t occ = 0;
	for (size_t i = 0; !rc && i < n; i++) {
		occ = i && !strcmp(l[i].key, l[i - 1].key) ? occ + 1 : 0;
		size_t kn = strlen(l[i].key) + 24;
		char *key = malloc(kn);
		if (key)
			snprintf(key, kn, "%s #%zu", l[i].key, occ);
		rc = !key || add_launch(res, side, r, l[i].idx, key) ? -1 : 0;
		free(key);
	}
	for (size_t i = 0; l && i < n; i++)
		free(l[i].key);
	free(l);
	return rc;
}

static int ndf_compute(struct view *v, const struct view_source *src, struct err *e)
{
	if (!src->ncu || !src->ncu_new)
		return err_set(
		    e, ERR_USAGE, NULL, -1,
		    "ncu diff takes two reports, BASE and NEW (`gpuprof diff BASE NEW`)");
	struct ndf_res *res = view_results_new(v, sizeof *res, e);
	if (!res)
		return ERR_NOMEM;
	char msg[256];
	if (ndf_setup(res, &v->o, msg, sizeof msg))
		return err_set(e, ERR_USAGE, NULL, -1, "%s", msg);
	struct ncu_report *r[2] = {src->ncu, src->ncu_new};
	for (int k = 0; k < 2; k++) {
		res->all.path[k] = r[k]->path;
		if (add_side(res, k, r[k]))
			return err_set(e, ERR_NOMEM, r[k]->path, -1, "out of memory");
	}
	for (size_t i = 0; i < T_N; i++)
		if (df_finish(&res->all.tabs[i]))
			return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	const struct df_table *t = &res->all.tabs[T_LAUNCHES];
	for (size_t i = 0; i < t->n; i++) {
		res->matched += t->rows[i].in[0] && t->rows[i].in[1];
		res->added += !t->rows[i].in[0];
		res->removed += !t->rows[i].in[1];
	}
	df_gates_eval(&res->all);
	return 0;
}

static void ndf_emit(struct view *v, struct report *r)
{
	const struct ndf_res *res = v->priv;
	const struct df_all *a = &res->all;
	bool md = rep_format_of(r) == REP_MARKDOWN;
	df_kv_open(a, r, md ? "gpuprof diff (Nsight Compute)" : "Comparison");
	rep_kv(r, "launches_matched", "Launches matched", REP_INT, rep_i((int64_t)res->matched));
	rep_kv(r, "launches_added", "Launches added", REP_INT, rep_i((int64_t)res->added));
	rep_kv(r, "launches_removed", "Launches removed", REP_INT, rep_i((int64_t)res->removed));
	df_kv_close(a, r);
	df_emit_tables(a, r, v->o.top);
}

/* The options alone: --metric's count, every gate and floor must read. */
static int ndf_check(const struct view_decl *d, struct view_opts *o, enum vo_front f, char *msg,
		     size_t n)
{
	(void)d;
	(void)f;
	struct ndf_res *res = calloc(1, sizeof *res);
	if (!res)
		return snprintf(msg, n, "out of memory"), -1;
	int rc = ndf_setup(res, o, msg, n);
	free(res);
	return rc;
}

const struct view_decl view_ncu_diff_decl = {
    .kind = VIEW_NCU_DIFF,
    .family = VIEW_FAMILY_NCU,
    .name = "diff",
    .summary = "compare two reports: launches matched by name and configuration, gates",
    .help_head = ncu_diff_head,
    .help_tail = ncu_diff_tail,
    .operands = " \\fIBASE\\fP \\fINEW\\fP",
    .opts = df_options,
    .nopts = DF_NOPTIONS,
    .flags = VIEW_MANY | VIEW_WHOLE_FILE,
    .ntraces = 2, /* files: BASE and NEW */
    .check = ndf_check,
    .compute = ndf_compute,
    .emit = ndf_emit,
    .free = df_view_free,
    .tripped = df_view_tripped,
};
