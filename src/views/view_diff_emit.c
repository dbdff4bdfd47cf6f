/* view_diff_emit: the tables `gpuprof diff` writes (views/view_diff.h):
 * every row of every table for text, CSV and JSON; for markdown a compact
 * report (a summary, the step comparison, the top regressions and
 * improvements of each table, the gates). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "views/view_diff.h"

static struct rep_val pct_of(double delta, double base)
{
	return base != 0 ? rep_f(100 * delta / fabs(base)) : rep_null();
}

static struct rep_val num(enum rep_type t, double v)
{
	if (t == REP_PCT || t == REP_FLOAT)
		return rep_f(v);
	return rep_i((int64_t)llround(v));
}

static const struct rep_col step_cols[] = {
    {"part", "Part", REP_STR},
    {"base_steps", "Base Steps", REP_INT},
    {"new_steps", "New Steps", REP_INT},
    {"base_mean_ns", "Base Mean", REP_DUR_NS},
    {"new_mean_ns", "New Mean", REP_DUR_NS},
    {"delta_mean_ns", "Δ Mean", REP_DUR_NS},
    {"delta_pct", "Δ %", REP_FLOAT},
    {"base_median_ns", "Base Median", REP_DUR_NS},
    {"new_median_ns", "New Median", REP_DUR_NS},
    {"base_iqr_ns", "Base IQR", REP_DUR_NS},
    {"new_iqr_ns", "New IQR", REP_DUR_NS},
    {"u", "U", REP_FLOAT},
    {"p_value", "p", REP_FLOAT},
    {"test", "Test", REP_STR},
    {"verdict", "Verdict", REP_STR},
};
#define NSTEP_COLS ((int)(sizeof step_cols / sizeof step_cols[0]))
/* the markdown report's columns of the steps (indices into step_cols) */
static const int md_step_cols[] = {0, 3, 4, 5, 6, 9, 10, 12, 14};
#define NMD_STEP ((int)(sizeof md_step_cols / sizeof md_step_cols[0]))

static void step_row(const struct df_part *p, struct rep_val *v)
{
	double d = p->mean[1] - p->mean[0];
	v[0] = rep_s(st_part_key(p->part));
	v[1] = rep_i((int64_t)p->n[0]);
	v[2] = rep_i((int64_t)p->n[1]);
	v[3] = num(REP_DUR_NS, p->mean[0]);
	v[4] = num(REP_DUR_NS, p->mean[1]);
	v[5] = num(REP_DUR_NS, d);
	v[6] = pct_of(d, p->mean[0]);
	v[7] = num(REP_DUR_NS, p->median[0]);
	v[8] = num(REP_DUR_NS, p->median[1]);
	v[9] = num(REP_DUR_NS, p->iqr[0]);
	v[10] = num(REP_DUR_NS, p->iqr[1]);
	v[11] = p->tested ? rep_f(p->u) : rep_null();
	v[12] = p->tested ? rep_f(p->p) : rep_null();
	v[13] = rep_s(!p->tested ? "none" : p->exact ? "exact" : "normal");
	v[14] = rep_s(p->verdict);
}

static void emit_steps(const struct df_all *a, struct report *r, bool md)
{
	struct rep_col cols[NSTEP_COLS];
	int nc = md ? NMD_STEP : NSTEP_COLS;
	for (int c = 0; c < nc; c++)
		cols[c] = step_cols[md ? md_step_cols[c] : c];
	rep_table_begin(r, "steps", "Step time (per-step values; Mann-Whitney U, p < 0.05)", cols,
			nc);
	struct rep_val all[NSTEP_COLS], v[NSTEP_COLS];
	for (size_t i = 0; i < a->nparts; i++) {
		step_row(&a->parts[i], all);
		for (int c = 0; c < nc; c++)
			v[c] = all[md ? md_step_cols[c] : c];
		rep_row(r, v);
	}
	rep_table_end(r);
}

/* The columns of the per-call test (df_def.calls tables), after
 * delta_pct: the steps' own test columns, from base_iqr_ns on (one
 * declaration); markdown keeps p and the verdict. */
#define CALL_COLS_FIRST 9
static const struct rep_col *const call_cols = step_cols + CALL_COLS_FIRST;
#define NCALL_COLS (NSTEP_COLS - CALL_COLS_FIRST)
#define MD_CALL_FIRST 3 /* markdown: call_cols[3..) */

#define DF_MAXC (2 + 3 * DF_MAXM + 1 + NCALL_COLS)
#define DF_KEYLEN 128

/* The columns of a compared table: key, status, base_/new_/delta_ of each
 * metric, delta_pct of the primary one, the per-call test's. */
static int table_cols(const struct df_def *d, struct rep_col *cols, char (*keys)[DF_KEYLEN],
		      char (*titles)[DF_KEYLEN], bool md)
{
	int nc = 0;
	cols[nc++] = (struct rep_col){d->key_col, d->key_title, REP_STR};
	cols[nc++] = (struct rep_col){"status", "Status", REP_STR};
	static const char *const side[3] = {"base", "new", "delta"};
	static const char *const stitle[3] = {"Base", "New", "Δ"};
	for (int m = 0; m < d->nm; m++)
		for (int s = 0; s < 3; s++, nc++) {
			snprintf(keys[nc], DF_KEYLEN, "%s_%s", side[s], d->m[m].key);
			snprintf(titles[nc], DF_KEYLEN, "%s %s", stitle[s], d->m[m].title);
			cols[nc] = (struct rep_col){keys[nc], titles[nc], d->m[m].type};
		}
	snprintf(keys[nc], DF_KEYLEN, "delta_pct");
	snprintf(titles[nc], DF_KEYLEN, "Δ %s %%", d->m[d->primary].title);
	cols[nc] = (struct rep_col){keys[nc], titles[nc], REP_FLOAT};
	nc++;
	for (int c = md ? MD_CALL_FIRST : 0; d->calls && c < NCALL_COLS; c++)
		cols[nc++] = call_cols[c];
	return nc;
}

/* The per-call test's values of row into v (markdown: p and verdict). */
static void call_vals(const struct df_row *row, struct rep_val *v, bool md)
{
	struct rep_val all[NCALL_COLS] = {
	    row->tested ? num(REP_DUR_NS, row->iqr[0]) : rep_null(),
	    row->tested ? num(REP_DUR_NS, row->iqr[1]) : rep_null(),
	    row->tested ? rep_f(row->u) : rep_null(),
	    row->tested ? rep_f(row->p) : rep_null(),
	    rep_s(!row->tested ? "none"
		  : row->exact ? "exact"
			       : "normal"),
	    rep_s(row->verdict ? row->verdict : "noise"),
	};
	for (int c = md ? MD_CALL_FIRST : 0; c < NCALL_COLS; c++)
		*v++ = all[c];
}

static void table_row(const struct df_table *t, const struct df_row *row, struct rep_val *v,
		      bool md)
{
	const struct df_def *d = t->def;
	int c = 0;
	v[c++] = rep_s(row->key);
	v[c++] = rep_s(df_status(t, row));
	for (int m = 0; m < d->nm; m++) {
		v[c++] = row->in[0] ? num(d->m[m].type, row->v[0][m]) : rep_null();
		v[c++] = row->in[1] ? num(d->m[m].type, row->v[1][m]) : rep_null();
		v[c++] = num(d->m[m].type, df_delta(row, m));
	}
	v[c++] = row->in[0] ? pct_of(df_delta(row, d->primary), row->v[0][d->primary]) : rep_null();
	if (d->calls)
		call_vals(row, v + c, md);
}

/* Rows of t: every one (sign 0) or the regressions (+1) / improvements
 * (-1) by the primary metric, at most top. */
void df_emit_table(const struct df_table *t, struct report *r, int sign, size_t top)
{
	const struct df_def *d = t->def;
	struct rep_col cols[DF_MAXC];
	char keys[DF_MAXC][DF_KEYLEN], titles[DF_MAXC][DF_KEYLEN];
	bool md = sign != 0; /* the markdown report's lists */
	int nc = table_cols(d, cols, keys, titles, md);
	size_t shown = 0;
	for (size_t i = 0; i < t->n; i++)
		shown += !sign || df_delta(&t->rows[i], d->primary) * sign > 0;
	if (sign && !shown)
		return;
	char name[64], title[128];
	snprintf(name, sizeof name, "%s%s",
		 sign > 0   ? "regressions_"
		 : sign < 0 ? "improvements_"
			    : "",
		 d->name);
	snprintf(title, sizeof title, "%s%s",
		 sign > 0   ? "Top regressions: "
		 : sign < 0 ? "Top improvements: "
			    : "",
		 d->title);
	rep_table_begin(r, name, title, cols, nc);
	struct rep_val v[DF_MAXC];
	shown = 0;
	for (size_t i = 0; i < t->n && shown < top; i++) {
		if (sign && df_delta(&t->rows[i], d->primary) * sign <= 0)
			continue;
		table_row(t, &t->rows[i], v, md);
		rep_row(r, v);
		shown++;
	}
	rep_table_end(r);
}

static const struct rep_col gate_cols[] = {
    {"gate", "Gate", REP_STR},
    {"row", "Worst Row", REP_STR},
    {"base", "Base", REP_FLOAT},
    {"new", "New", REP_FLOAT},
    {"delta", "Δ", REP_FLOAT},
    {"observed", "Observed", REP_FLOAT},
    {"threshold", "Threshold", REP_FLOAT},
    {"unit", "Unit", REP_STR},
    {"verdict", "Verdict", REP_STR},
};

static const char *unit_name(enum df_unit u)
{
	return u == DF_UNIT_PCT ? "%" : u == DF_UNIT_NS ? "ns" : u == DF_UNIT_BYTES ? "bytes" : "";
}

/* A gate's amount: raw for CSV/JSON; for people in its unit. */
static struct rep_val amount_val(const struct df_gate *g, double v, bool human, char *buf, size_t n)
{
	if (!human)
		return rep_f(v);
	if (!isfinite(v))
		snprintf(buf, n, "%s", v > 0 ? "+inf" : v < 0 ? "-inf" : "-");
	else if (g->unit == DF_UNIT_NS)
		rep_fmt_dur(buf, n, (int64_t)llround(v));
	else if (g->unit == DF_UNIT_BYTES)
		rep_fmt_bytes(buf, n, (int64_t)llround(v));
	else
		snprintf(buf, n, "%.6g%s", v, g->unit == DF_UNIT_PCT ? " %" : "");
	return rep_s(buf);
}

void df_emit_gates(const struct df_all *a, struct report *r, bool human)
{
	struct rep_col cols[sizeof gate_cols / sizeof gate_cols[0]];
	int nc = (int)(sizeof gate_cols / sizeof gate_cols[0]);
	for (int c = 0; c < nc; c++) {
		cols[c] = gate_cols[c];
		if (human && cols[c].type == REP_FLOAT)
			cols[c].type = REP_STR;
	}
	rep_table_begin(r, "gates", "Gates (--fail-if)", cols, nc);
	for (size_t i = 0; i < a->ngates; i++) {
		const struct df_gate *g = &a->gates[i];
		/* base, new and delta are in the metric's unit; observed and
		 * threshold in the gate's (a percent or the same unit) */
		struct df_gate m = *g;
		m.unit = g->unit == DF_UNIT_PCT ? g->metric_unit : g->unit;
		char b[4][48];
		struct rep_val v[] = {
		    rep_s(g->expr),
		    g->has_row ? rep_s(g->row) : rep_null(),
		    g->has_row ? amount_val(&m, g->base, human, b[0], sizeof b[0]) : rep_null(),
		    g->has_row ? amount_val(&m, g->new_v, human, b[1], sizeof b[1]) : rep_null(),
		    g->has_row ? amount_val(&m, g->delta, human, b[2], sizeof b[2]) : rep_null(),
		    g->has_row ? amount_val(g, g->observed, human, b[3], sizeof b[3]) : rep_null(),
		    human ? rep_s("") : rep_f(g->threshold),
		    rep_s(unit_name(g->unit)),
		    rep_s(g->tripped   ? "tripped"
			  : g->noise   ? "noise"
			  : g->has_row ? "passed"
				       : "no row"),
		};
		char t[48];
		if (human)
			v[6] = amount_val(g, g->threshold, true, t, sizeof t);
		rep_row(r, v);
	}
	rep_table_end(r);
}

static size_t tripped_count(const struct df_all *a)
{
	size_t n = 0;
	for (size_t i = 0; i < a->ngates; i++)
		n += a->gates[i].tripped;
	return n;
}

static void emit_summary(const struct df_all *a, struct report *r, bool md)
{
	const struct df_part *t = &a->parts[0];
	double d = t->mean[1] - t->mean[0];
	df_kv_open(a, r, md ? "gpuprof diff" : "Comparison");
	if (md) {
		char line[256], b[32], n[32], dd[32];
		rep_fmt_dur(b, sizeof b, (int64_t)llround(t->mean[0]));
		rep_fmt_dur(n, sizeof n, (int64_t)llround(t->mean[1]));
		rep_fmt_dur(dd, sizeof dd, (int64_t)llround(d));
		if (t->mean[0] != 0)
			snprintf(line, sizeof line, "%s -> %s (%s%s, %+.2f %%): %s", b, n,
				 d > 0 ? "+" : "", dd, 100 * d / t->mean[0], t->verdict);
		else
			snprintf(line, sizeof line, "%s -> %s (%s%s): %s", b, n, d > 0 ? "+" : "",
				 dd, t->verdict);
		rep_kv(r, "step_time", "Mean step time", REP_STR, rep_s(line));
	} else {
		rep_kv(r, "base_step_mean_ns", "Base mean step", REP_DUR_NS,
		       num(REP_DUR_NS, t->mean[0]));
		rep_kv(r, "new_step_mean_ns", "New mean step", REP_DUR_NS,
		       num(REP_DUR_NS, t->mean[1]));
		rep_kv(r, "delta_step_mean_ns", "Δ mean step", REP_DUR_NS, num(REP_DUR_NS, d));
		rep_kv(r, "delta_step_pct", "Δ mean step %", REP_FLOAT, pct_of(d, t->mean[0]));
		rep_kv(r, "step_verdict", "Step time verdict", REP_STR, rep_s(t->verdict));
	}
	df_kv_close(a, r);
}

void df_kv_open(const struct df_all *a, struct report *r, const char *title)
{
	rep_kv_begin(r, "diff", title);
	rep_kv(r, "base", "Base", REP_STR, rep_s(a->path[0]));
	rep_kv(r, "new", "New", REP_STR, rep_s(a->path[1]));
}

void df_kv_close(const struct df_all *a, struct report *r)
{
	rep_kv(r, "gates", "Gates", REP_INT, rep_i((int64_t)a->ngates));
	rep_kv(r, "gates_tripped", "Gates tripped", REP_INT, rep_i((int64_t)tripped_count(a)));
	rep_kv_end(r);
}

void df_emit_tables(const struct df_all *a, struct report *r, size_t top)
{
	bool md = rep_format_of(r) == REP_MARKDOWN;
	for (size_t i = 0; i < a->ntabs; i++) {
		if (!md) {
			df_emit_table(&a->tabs[i], r, 0, top);
			continue;
		}
		size_t n = top == SIZE_MAX ? DF_MD_TOP_DEFAULT : top;
		df_emit_table(&a->tabs[i], r, +1, n);
		df_emit_table(&a->tabs[i], r, -1, n);
	}
	enum rep_format f = rep_format_of(r);
	if (!md || a->ngates)
		df_emit_gates(a, r, f == REP_TABLE || f == REP_MARKDOWN);
}

void df_emit(const struct df_all *a, struct report *r, size_t top)
{
	bool md = rep_format_of(r) == REP_MARKDOWN;
	emit_summary(a, r, md);
	emit_steps(a, r, md);
	df_emit_tables(a, r, top);
}
