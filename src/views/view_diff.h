/* view_diff: the tables of `gpuprof diff BASE NEW` (views/view_diff*.c,
 * and the diffs of the other kinds, view_ncu_diff.c and view_nsys_diff.c):
 * rows of two runs matched by key, their deltas and verdicts, and the
 * gates (--fail-if) evaluated on them; the one option table of the
 * command (df_options).
 *
 * Every compared table but the steps is one struct df_table: a row per key
 * seen on either side, a few additive or maximal metrics per side (as
 * doubles: durations in ns, bytes, counts, fractions), sorted by the
 * absolute delta of its primary metric, largest first. The steps table
 * keeps per-step samples and the Mann-Whitney verdict (tbprof/diffstat.h).
 *
 * The rows of the operators and kernels also carry the U test of their
 * per-call samples (view_diff_calls.c) and a verdict. BASE and NEW are
 * each one trace or a set of rank traces (view_diff_sets.c: how a set
 * adds up).
 *
 * Owns its rows and keys. Private to src/views (view_diff.c computes the
 * trace diff, view_diff_emit.c writes, view_diff_tab.c matches rows and
 * parses and evaluates gates); depends on report/, trace/ and tbprof/
 * only. A diff of another kind fills a df_all of its own tables (no_steps
 * set) and writes them with df_kv_open, df_kv_close and df_emit_tables.
 */
#ifndef GP_VIEWS_VIEW_DIFF_H
#define GP_VIEWS_VIEW_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/report.h"
#include "tbprof/kernels.h"
#include "tbprof/ops.h"
#include "tbprof/steps.h"
#include "trace/trace.h"
#include "views/view_opt.h"

#define DF_MAXM 12	      /* metrics of one table (ncu: 5 and up to 7 --metric) */
#define DF_ALPHA 0.05	      /* significance level of the steps' test */
#define DF_MIN_EFFECT_PCT 1.0 /* least |delta| of a verdict, % of the base mean */
#define DF_GATES_MAX 32	      /* --fail-if expressions */
#define DF_MD_TOP_DEFAULT 5   /* rows per list in the markdown report */

/* diff's own options (struct view_opts' own area: VIEW_OWN_OFF) */
struct df_opts {
	struct vo_list fail_if; /* --fail-if EXPR, each use */
	struct vo_list min_abs; /* --min-abs VALUE[UNIT], each use */
	struct vo_list base;	/* --base A0 A1 ...: a set of rank traces */
	struct vo_list news;	/* --new B0 B1 ... */
	bool exact_names;	/* --exact-names */
	struct vo_list metric;	/* --metric NAME, each use (Nsight Compute reports) */
};

/* The one option table of `gpuprof diff`, whatever the kind of its inputs
 * (the trace, ncu and nsys diff declarations all point at it; each check
 * refuses the options that do not apply to its kind). */
#define DF_NOPTIONS 7
extern const struct vo df_options[DF_NOPTIONS];
enum df_input { DF_IN_TRACE, DF_IN_NCU, DF_IN_NSYS };
struct view_opts;
/* The options of o that kind k does not take: 0, or -1 with msg ("--metric
 * applies to Nsight Compute reports, not traces"). */
int df_opts_kind(const struct view_opts *o, enum df_input k, char *msg, size_t n);

enum df_merge { DF_SUM, DF_MAX, DF_MEAN }; /* DF_MEAN: metric 1 / metric 0 after merging */

struct df_metric {
	const char *key;   /* "total_ns": base_total_ns, new_total_ns, delta_total_ns */
	const char *title; /* "Total" */
	enum rep_type type;
	enum df_merge merge;
	bool sampled; /* what the rows' verdict is of (their samples' metric): gates respect it */
};

struct df_def {
	const char *name;      /* table name; gates name it (and its singular) */
	const char *singular;  /* "kernel" */
	const char *title;     /* "Kernels" */
	const char *key_col;   /* "name" */
	const char *key_title; /* "Name" */
	const struct df_metric *m;
	int nm;
	int primary; /* the metric rows are sorted by */
	bool calls;  /* rows carry a test and a verdict of the primary metric (the
		      * test columns): the trace diff's of per-call samples
		      * (df_calls), the nsys diff's of per-iteration ones */
};

struct df_row {
	char *key;
	bool in[2];	      /* seen in base, new */
	double v[2][DF_MAXM]; /* per side */
	/* df_def.calls tables (df_calls, df_test_row): the samples' test */
	bool tested, exact;		/* both sides had samples; exact null distribution */
	double u, p, median[2], iqr[2]; /* U of base, two-sided p; ns of the samples */
	const char *verdict;		/* same, noise, regression, improvement, added, removed */
};

struct df_table {
	const struct df_def *def;
	struct df_row *rows;
	size_t n, cap;
};

/* Adds side's (0 base, 1 new) values of key (copied) to t; rows of one key
 * are merged by df_finish. 0 or -1 (out of memory). */
int df_add(struct df_table *t, int side, const char *key, const double *v);
/* Merges rows of one key (metrics by their merge rule) and sorts by the
 * absolute delta of the primary metric, largest first, then by key. */
int df_finish(struct df_table *t);
void df_table_free(struct df_table *t);
double df_delta(const struct df_row *r, int m);
/* "added", "removed", "same", "increase" or "decrease" (primary metric). */
const char *df_status(const struct df_table *t, const struct df_row *r);

/* One part of the steps (total first) on both sides. */
struct df_part {
	enum st_part part;
	size_t n[2];
	double mean[2], median[2], iqr[2]; /* ns; iqr = q3 - q1 */
	bool tested;			   /* both sides have a sample */
	double u, p;			   /* U of base; two-sided p */
	bool exact;
	const char *verdict; /* same, noise, regression, improvement */
};

/* What a gate compares. */
enum df_unit { DF_UNIT_PCT, DF_UNIT_NS, DF_UNIT_BYTES, DF_UNIT_COUNT };

struct df_gate {
	const char *expr; /* as given */
	char table[32];	  /* df_def name or singular, or "steps" */
	char filter[128]; /* [text] ("" = every row) */
	char metric[48];  /* metric key, e.g. "total_ns" */
	bool less;	  /* '<' (else '>') */
	double threshold; /* % or the unit's base (ns, bytes, count) */
	enum df_unit unit;
	enum df_unit metric_unit; /* the metric's (set when evaluated) */
	/* evaluated: */
	bool tripped;
	char row[256];			     /* the worst row ("" none) */
	double base, new_v, delta, observed; /* observed: delta or % of base */
	bool has_row;
	bool noise; /* the row is a steps row whose change is noise: no trip */
};

/* Parses expr into g (table and metric names checked by df_gate_check);
 * -1 with msg "byte N: expected ..." when it does not read. */
int df_gate_parse(const char *expr, struct df_gate *g, char *msg, size_t n);

/* The whole comparison, what emit and the gates read. */
struct df_all {
	const char *path[2]; /* a set's: its paths, ", " between */
	bool sets;	     /* --base/--new: memory and gpus keyed "rankR ..." */
	struct df_part parts[ST_NPARTS];
	size_t nparts; /* shown parts, total first */
	struct df_table tabs[7];
	size_t ntabs;
	struct df_gate gates[DF_GATES_MAX];
	size_t ngates;
	double floor[4]; /* --min-abs per enum df_unit (ns, bytes, count; 0 none) */
	bool exact_names;
	bool no_steps; /* no steps table (reports, analyses): gates name only tabs */
};

/* The table named name (or its singular), NULL when none. */
struct df_table *df_find(struct df_all *a, const char *name);
/* Checks gate g against a's tables ("unknown table 'x' (steps, ops, ...)");
 * 0 or -1 with msg. */
int df_gate_check(const struct df_all *a, const struct df_gate *g, char *msg, size_t n);
/* Evaluates every gate of a. */
void df_gates_eval(struct df_all *a);
bool df_gates_tripped(const struct df_all *a);

/* The compared tables but the steps, in df_all's order (df_defs). */
enum df_tab_id {
	DF_T_OPS,
	DF_T_OPS_SHAPE,
	DF_T_KERNELS,
	DF_T_MEMORY,
	DF_T_COMM,
	DF_T_GPUS,
	DF_T_N
};

/* The verdict of a change delta of a value whose base is base
 * (docs/diff.md): "same" when same; else "noise" when !real, delta is 0,
 * or |delta| is under the minimum effect (the larger of DF_MIN_EFFECT_PCT
 * of |base| and min_abs); else "regression" (delta > 0) or "improvement". */
const char *df_verdict(double base, double delta, bool same, bool real, double min_abs);

/* The verdict of row r of a table with df_def.calls (docs/diff.md): added
 * or removed for a row of one side, else df_verdict on the primary metric,
 * same when its delta is 0 and the samples' medians are equal; real: the
 * caller's judgement that the change is no sampling noise. */
const char *df_row_verdict(const struct df_table *t, const struct df_row *r, bool real,
			   double min_abs);

/* The compared tables but the steps, in a's order. */
const struct df_def *df_defs(size_t *n);
struct view_opts;
/* Parses o's --fail-if and --min-abs into a (whose tables are set); 0 or
 * -1 with msg naming the option. */
int df_opts_apply(struct df_all *a, const struct view_opts *o, char *msg, size_t n);

/* One trace's grouped rows, kept from df_add until df_calls has read its
 * per-call samples. */
struct df_src {
	int side; /* 0 base, 1 new */
	const struct optree *o;
	struct kern_view kv;   /* by name */
	struct ops_view ov[2]; /* by name, by name + shape; with node groups */
};
void df_src_free(struct df_src *s);

/* The key of a kernel row (malloc'd): its normalized name, or the name as
 * written when exact; of an operator row: its name, or "name shape". */
char *df_kernel_key(const char *name, bool exact);
char *df_op_key(const struct trace *t, const struct ops_view *v, const struct ops_row *r,
		enum ops_group g);

/* The per-call samples of the finished tables with df_def.calls (ops by
 * name and by shape, kernels) read from the traces src[0..n), the U test
 * and the verdict of each row (docs/diff.md): samples are kept only for
 * rows on both sides, one table at a time. min_abs: the time floor of the
 * verdicts. 0 or -1 (out of memory). */
int df_calls(struct df_all *a, const struct df_src *src, size_t n, bool exact, double min_abs);
/* Row r's test of its samples a[0..na) and b[0..nb) of each side (sorted
 * here): the medians and IQRs of each side, and the U test when both have
 * samples (r->tested). 0 or -1 (out of memory). */
int df_test_row(struct df_row *r, int64_t *a, size_t na, int64_t *b, size_t nb);

/* Sets of rank traces (view_diff_sets.c). The steps of a set: the step
 * numbers every rank has, in rank 0's order, each the slowest rank's step
 * (largest total; the first such rank on ties) with its breakdown; the
 * flags of the parts shown are any rank's. out->steps is malloc'd. 0 or -1. */
int df_set_steps(const struct st_result *const *rs, size_t n, struct st_result *out);
/* The rank numbers of the traces ts[0..n) of a set into rank[]:
 * distributedInfo's when every trace has one and all differ, else the
 * positions 0..n-1. */
void df_set_ranks(const struct trace *const *ts, size_t n, int64_t *rank);
/* "p0, p1, ..." of a set's paths (malloc'd), NULL when out of memory. */
char *df_set_paths(const struct trace *const *ts, size_t n);

/* Writes a's tables (markdown: the compact report) into r. */
void df_emit(const struct df_all *a, struct report *r, size_t top);
/* The pieces of df_emit the diffs of other kinds write too: table t
 * (sign 0: every row; +1 / -1: the regressions / improvements by its
 * primary metric), at most top rows; and the gates table (human: amounts
 * in their units, for text and markdown). */
void df_emit_table(const struct df_table *t, struct report *r, int sign, size_t top);
void df_emit_gates(const struct df_all *a, struct report *r, bool human);
/* df_emit_table of every table of a, as df_emit writes them (markdown: the
 * top N regressions and improvements of each), then the gates. */
void df_emit_tables(const struct df_all *a, struct report *r, size_t top);
/* The section "diff" of every kind: df_kv_open writes its title, base and
 * new (the caller adds its own keys), df_kv_close the gates and gates
 * tripped, and ends it. */
void df_kv_open(const struct df_all *a, struct report *r, const char *title);
void df_kv_close(const struct df_all *a, struct report *r);
struct view;
/* Whether a gate of diff view v tripped: the views' tripped, for results
 * whose first member is their struct df_all. */
bool df_view_tripped(const struct view *v);
/* The free of a diff view whose results hold nothing but their df_all
 * (first) and plain values: the tables' rows, then the results. */
void df_view_free(struct view *v);
/* Frees the rows of every table of a (a zeroed a is fine). */
void df_all_free(struct df_all *a);

#endif
