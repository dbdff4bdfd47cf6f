/* view_diff_tab: the compared tables of `gpuprof diff` (rows matched by
 * key, merged, sorted) and its gates: the grammar of --fail-if, the floors
 * of --min-abs, and their evaluation (views/view_diff.h, docs/diff.md). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "views/view_diff.h"
#include "views/view_int.h"

/* --- tables --- */

int df_add(struct df_table *t, int side, const char *key, const double *v)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct df_row *r = realloc(t->rows, cap * sizeof *r);
		if (!r)
			return -1;
		t->rows = r;
		t->cap = cap;
	}
	struct df_row *r = &t->rows[t->n];
	memset(r, 0, sizeof *r);
	if (!(r->key = strdup(key)))
		return -1;
	r->in[side] = true;
	memcpy(r->v[side], v, sizeof r->v[side]);
	t->n++;
	return 0;
}

static int cmp_key(const void *x, const void *y)
{
	const struct df_row *a = x, *b = y;
	int c = strcmp(a->key, b->key);
	return c ? c : (a->in[1] > b->in[1]) - (a->in[1] < b->in[1]);
}

double df_delta(const struct df_row *r, int m)
{
	return r->v[1][m] - r->v[0][m];
}

static int cmp_delta(const void *x, const void *y, void *ctx)
{
	const struct df_table *t = ctx;
	const struct df_row *a = x, *b = y;
	double da = fabs(df_delta(a, t->def->primary)), db = fabs(df_delta(b, t->def->primary));
	if (da != db)
		return da < db ? 1 : -1;
	return strcmp(a->key, b->key);
}

/* Row b's side values into a (a row of the same key). */
static void merge(const struct df_def *d, struct df_row *a, const struct df_row *b)
{
	for (int s = 0; s < 2; s++) {
		if (!b->in[s])
			continue;
		for (int m = 0; m < d->nm; m++)
			a->v[s][m] = d->m[m].merge == DF_MAX && a->in[s] && a->v[s][m] > b->v[s][m]
					 ? a->v[s][m]
				     : d->m[m].merge == DF_MAX || !a->in[s]
					 ? b->v[s][m]
					 : a->v[s][m] + b->v[s][m];
		a->in[s] = true;
	}
}

int df_finish(struct df_table *t)
{
	const struct df_def *d = t->def;
	if (t->n > 1)
		gp_qsort(t->rows, t->n, sizeof *t->rows, cmp_key);
	size_t k = 0;
	for (size_t i = 0; i < t->n; i++) {
		if (k && !strcmp(t->rows[k - 1].key, t->rows[i].key)) {
			merge(d, &t->rows[k - 1], &t->rows[i]);
			free(t->rows[i].key);
			continue;
		}
		t->rows[k++] = t->rows[i];
	}
	t->n = k;
	for (size_t i = 0; i < t->n; i++) /* DF_MEAN: metric 1 / metric 0 */
		for (int s = 0; s < 2; s++)
			for (int m = 0; m < d->nm; m++)
				if (d->m[m].merge == DF_MEAN)
					t->rows[i].v[s][m] =
					    t->rows[i].v[s][0] > 0
						? t->rows[i].v[s][1] / t->rows[i].v[s][0]
						: 0;
	if (t->n > 1)
		gp_qsort_r(t->rows, t->n, sizeof *t->rows, cmp_delta, t);
	return 0;
}

void df_table_free(struct df_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->rows[i].key);
	free(t->rows);
	t->rows = NULL;
	t->n = t->cap = 0;
}

void df_all_free(struct df_all *a)
{
	for (size_t i = 0; i < a->ntabs; i++)
		df_table_free(&a->tabs[i]);
}

const char *df_status(const struct df_table *t, const struct df_row *r)
{
	if (!r->in[0])
		return "added";
	if (!r->in[1])
		return "removed";
	double d = df_delta(r, t->def->primary);
	if (d == 0) {
		for (int m = 0; m < t->def->nm; m++)
			if (df_delta(r, m) != 0)
				return "changed";
		return "same";
	}
	return d > 0 ? "increase" : "decrease";
}

const char *df_verdict(double base, double delta, bool same, bool real, double min_abs)
{
	if (same)
		return "same";
	double floor = fabs(base) * DF_MIN_EFFECT_PCT / 100;
	if (floor < min_abs)
		floor = min_abs;
	if (!real || delta == 0 || fabs(delta) < floor)
		return "noise";
	return delta > 0 ? "regression" : "improvement";
}

const char *df_row_verdict(const struct df_table *t, const struct df_row *r, bool real,
			   double min_abs)
{
	if (!r->in[0])
		return "added";
	if (!r->in[1])
		return "removed";
	int m = t->def->primary;
	double d = df_delta(r, m);
	return df_verdict(r->v[0][m], d, d == 0 && r->median[0] == r->median[1], real, min_abs);
}

struct df_table *df_find(struct df_all *a, const char *name)
{
	for (size_t i = 0; i < a->ntabs; i++)
		if (!strcmp(a->tabs[i].def->name, name) || !strcmp(a->tabs[i].def->singular, name))
			return &a->tabs[i];
	return NULL;
}

/* --- gates: parsing --- */

struct df_unit_name {
	const char *name;
	enum df_unit unit;
	double scale;
};

static const struct df_unit_name units[] = {
    {"ns", DF_UNIT_NS, 1},
    {"us", DF_UNIT_NS, 1e3},
    {"ms", DF_UNIT_NS, 1e6},
    {"s", DF_UNIT_NS, 1e9},
    {"B", DF_UNIT_BYTES, 1},
    {"KB", DF_UNIT_BYTES, 1e3},
    {"MB", DF_UNIT_BYTES, 1e6},
    {"GB", DF_UNIT_BYTES, 1e9},
    {"TB", DF_UNIT_BYTES, 1e12},
    {"KiB", DF_UNIT_BYTES, 1024.0},
    {"MiB", DF_UNIT_BYTES, 1048576.0},
    {"GiB", DF_UNIT_BYTES, 1073741824.0},
    {"TiB", DF_UNIT_BYTES, 1099511627776.0},
};

/* "byte N: expected WHAT" into msg; -1. */
static int expected(char *msg, size_t n, const char *opt, const char *expr, const char *at,
		    const char *what)
{
	snprintf(msg, n, "%s '%.80s': byte %zu: expected %s", opt, expr, (size_t)(at - expr), what);
	return -1;
}

/* A decimal number (digits, optional fraction) at *p; -1 when none. */
static int number(const char **p, double *out)
{
	const char *s = *p;
	size_t k = 0;
	while (isdigit((unsigned char)s[k]))
		k++;
	if (s[k] == '.') {
		k++;
		while (isdigit((unsigned char)s[k]))
			k++;
	}
	if (!k || (k == 1 && s[0] == '.'))
		return -1;
	char buf[64];
	if (k >= sizeof buf)
		return -1;
	memcpy(buf, s, k);
	buf[k] = 0;
	*out = strtod(buf, NULL);
	*p = s + k;
	return 0;
}

/* An amount with an optional unit at *p (the rest of the text). */
static int amount(const char *p, double *v, enum df_unit *u)
{
	if (number(&p, v))
		return -1;
	if (!*p) {
		*u = DF_UNIT_COUNT;
		return 0;
	}
	if (!strcmp(p, "%")) {
		*u = DF_UNIT_PCT;
		return 0;
	}
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (!strcmp(p, units[i].name)) {
			*v *= units[i].scale;
			*u = units[i].unit;
			return 0;
		}
	return -1;
}

static size_t word(const char *s)
{
	size_t k = 0;
	while (isalnum((unsigned char)s[k]) || s[k] == '_')
		k++;
	return k;
}

/* TABLE [ '[' TEXT ']' ] [ '.' METRIC ] at *p, or step_time. */
static int target(const char *expr, const char **pp, struct df_gate *g, char *msg, size_t n)
{
	const char *p = *pp;
	size_t k = word(p);
	if (!k || k >= sizeof g->table)
		return expected(msg, n, "--fail-if", expr, p,
				"a table name (step_time, steps, ops, kernels, memory, ...)");
	if (k == 9 && !strncmp(p, "step_time", 9)) {
		snprintf(g->table, sizeof g->table, "steps");
		snprintf(g->filter, sizeof g->filter, "total");
		snprintf(g->metric, sizeof g->metric, "mean_ns");
		*pp = p + k;
		return 0;
	}
	memcpy(g->table, p, k);
	g->table[k] = 0;
	p += k;
	if (*p == '[') {
		const char *close = strchr(p + 1, ']');
		if (!close)
			return expected(msg, n, "--fail-if", expr, p + strlen(p), "']'");
		size_t fl = (size_t)(close - p - 1);
		if (fl >= sizeof g->filter)
			return expected(msg, n, "--fail-if", expr, p + 1,
					"a shorter TEXT in [TEXT]");
		memcpy(g->filter, p + 1, fl);
		g->filter[fl] = 0;
		p = close + 1;
	}
	if (*p == '.') {
		/* a metric name may hold dots (Nsight Compute's dram__bytes.sum) */
		size_t m = 0;
		while (word(p + 1 + m) || (m && p[1 + m] == '.' && word(p + 2 + m)))
			m += p[1 + m] == '.' ? 1 : word(p + 1 + m);
		if (!m || m >= sizeof g->metric)
			return expected(msg, n, "--fail-if", expr, p + 1,
					"a metric name after '.'");
		memcpy(g->metric, p + 1, m);
		g->metric[m] = 0;
		p += 1 + m;
	}
	*pp = p;
	return 0;
}

int df_gate_parse(const char *expr, struct df_gate *g, char *msg, size_t n)
{
	memset(g, 0, sizeof *g);
	g->expr = expr;
	const char *p = expr;
	if (target(expr, &p, g, msg, n))
		return -1;
	if (*p != '>' && *p != '<')
		return expected(msg, n, "--fail-if", expr, p,
				*p == '[' || *p == '.' ? "'>' or '<' ([TEXT] comes before .METRIC)"
						       : "'>' or '<'");
	g->less = *p++ == '<';
	const char *num = p;
	double sign = 1;
	if (*p == '+' || *p == '-')
		sign = *p++ == '-' ? -1 : 1;
	if (amount(p, &g->threshold, &g->unit))
		return expected(msg, n, "--fail-if", expr, num,
				"a threshold such as +5%, +2ms, +256MiB or +10, then the end");
	g->threshold *= sign;
	return 0;
}

/* --- gates: checking and evaluating --- */

static const struct df_metric step_m[] = {
    {"mean_ns", "Mean", REP_DUR_NS, DF_SUM, true},
    {"median_ns", "Median", REP_DUR_NS, DF_SUM, true},
};

/* The metric of g in table d (NULL: steps), or -1 when none. */
static int metric_of(const struct df_def *d, const char *name)
{
	const struct df_metric *m = d ? d->m : step_m;
	int nm = d ? d->nm : 2;
	if (!*name)
		return d ? d->primary : 0;
	for (int i = 0; i < nm; i++)
		if (!strcmp(m[i].key, name))
			return i;
	return -1;
}

static enum rep_type metric_type(const struct df_def *d, int m)
{
	return d ? d->m[m].type : step_m[m].type;
}

static enum df_unit unit_of(enum rep_type t)
{
	return t == REP_DUR_NS ? DF_UNIT_NS : t == REP_BYTES ? DF_UNIT_BYTES : DF_UNIT_COUNT;
}

/* "a, b, c" of the names into buf. */
static void list(char *buf, size_t n, const char *const *names, size_t k)
{
	size_t at = 0;
	buf[0] = 0;
	for (size_t i = 0; i < k && at < n; i++) {
		int w = snprintf(buf + at, n - at, "%s%s", i ? ", " : "", names[i]);
		if (w < 0)
			break;
		at += (size_t)w;
	}
}

int df_gate_check(const struct df_all *a, const struct df_gate *g, char *msg, size_t n)
{
	const struct df_def *d = NULL;
	const char *names[16];
	size_t k = 0;
	if (!a->no_steps)
		names[k++] = "steps";
	char alias[8][64]; /* no steps: each table by both its names */
	for (size_t i = 0; i < a->ntabs; i++) {
		names[k++] = a->tabs[i].def->name;
		if (a->no_steps && i < 8 &&
		    strcmp(a->tabs[i].def->singular, a->tabs[i].def->name)) {
			snprintf(alias[i], sizeof alias[i], "%s or %s", a->tabs[i].def->singular,
				 a->tabs[i].def->name);
			names[k - 1] = alias[i];
		}
		if (!strcmp(g->table, a->tabs[i].def->name) ||
		    !strcmp(g->table, a->tabs[i].def->singular))
			d = a->tabs[i].def;
	}
	char buf[256];
	if (!d && (a->no_steps || strcmp(g->table, "steps"))) {
		list(buf, sizeof buf, names, k);
		expected(msg, n, "--fail-if", g->expr, g->expr,
			 a->no_steps ? "a table (" : "step_time or a table (");
		snprintf(msg + strlen(msg), n - strlen(msg), "%s), not '%s'", buf, g->table);
		return -1;
	}
	const char *op = strpbrk(g->expr, "<>");
	const char *dot = op;
	while (dot > g->expr && dot[-1] != '.' && dot[-1] != ']')
		dot--;
	int m = metric_of(d, g->metric);
	if (m < 0) {
		const struct df_metric *ms = d ? d->m : step_m;
		int nm = d ? d->nm : 2;
		for (k = 0; k < (size_t)nm; k++)
			names[k] = ms[k].key;
		list(buf, sizeof buf, names, k);
		expected(msg, n, "--fail-if", g->expr, dot, "a metric of ");
		snprintf(msg + strlen(msg), n - strlen(msg), "%s (%s), not '%s'",
			 d ? d->name : "steps", buf, g->metric);
		return -1;
	}
	enum df_unit want = unit_of(metric_type(d, m));
	static const char *const what[] = {
	    "", "a time (ns, us, ms, s)", "bytes (B, KB, MB, GB, KiB, MiB, GiB)", "a plain number"};
	if (g->unit != DF_UNIT_PCT && g->unit != want) {
		expected(msg, n, "--fail-if", g->expr, op + 1, "a percent or ");
		snprintf(msg + strlen(msg), n - strlen(msg), "%s for %s", what[want],
			 d ? d->m[m].key : step_m[m].key);
		return -1;
	}
	return 0;
}

int df_opts_apply(struct df_all *a, const struct view_opts *o, char *msg, size_t n)
{
	const struct df_opts *own = view_own(o);
	for (size_t i = 0; i < own->min_abs.n; i++) {
		const char *s = own->min_abs.v[i];
		double v;
		enum df_unit u;
		if (amount(s, &v, &u) || u == DF_UNIT_PCT)
			return snprintf(msg, n,
					"--min-abs needs an amount such as 100us, 1MiB or 10, "
					"not '%.80s'",
					s),
			       -1;
		a->floor[u] = v;
	}
	a->ngates = 0;
	for (size_t i = 0; i < own->fail_if.n; i++) {
		struct df_gate *g = &a->gates[a->ngates];
		if (df_gate_parse(own->fail_if.v[i], g, msg, n) || df_gate_check(a, g, msg, n))
			return -1;
		a->ngates++;
	}
	return 0;
}

/* One candidate row of a gate: its observed value if it may trip. */
static void consider(struct df_all *a, struct df_gate *g, const char *key, double base,
		     double new_v, bool eligible, enum df_unit unit)
{
	if (*g->filter && !strstr(key, g->filter))
		return;
	double delta = new_v - base;
	if (g->unit == DF_UNIT_PCT && fabs(delta) < a->floor[unit])
		return;
	double obs = g->unit != DF_UNIT_PCT ? delta
		     : base != 0	    ? 100 * delta / fabs(base)
		     : delta == 0	    ? 0
		     : delta > 0	    ? INFINITY
					    : -INFINITY;
	/* a row that may trip beats a noise row; then the worst value */
	if (g->has_row && (!eligible && !g->noise))
		return;
	if (g->has_row && eligible == !g->noise &&
	    (g->less ? obs >= g->observed : obs <= g->observed))
		return;
	g->has_row = true;
	g->noise = !eligible;
	snprintf(g->row, sizeof g->row, "%s", key);
	g->base = base;
	g->new_v = new_v;
	g->delta = delta;
	g->observed = obs;
}

static void eval_gate(struct df_all *a, struct df_gate *g)
{
	struct df_table *t = df_find(a, g->table);
	int m = metric_of(t ? t->def : NULL, g->metric);
	enum df_unit unit = unit_of(metric_type(t ? t->def : NULL, m));
	g->has_row = false;
	g->metric_unit = unit;
	if (!t) {
		for (size_t i = 0; i < a->nparts; i++) {
			const struct df_part *p = &a->parts[i];
			const double *v0 = m ? p->median : p->mean;
			/* a change inside the noise trips nothing */
			bool real = strcmp(p->verdict, "noise") != 0;
			consider(a, g, st_part_key(p->part), v0[0], v0[1], real, unit);
		}
	} else {
		for (size_t i = 0; i < t->n; i++) {
			const struct df_row *r = &t->rows[i];
			/* a sampled metric's change inside the noise trips nothing */
			bool real = !t->def->m[m].sampled || !r->verdict ||
				    strcmp(r->verdict, "noise") != 0;
			consider(a, g, r->key, r->v[0][m], r->v[1][m], real, unit);
		}
	}
	g->tripped = g->has_row && !g->noise &&
		     (g->less ? g->observed < g->threshold : g->observed > g->threshold);
}

void df_gates_eval(struct df_all *a)
{
	for (size_t i = 0; i < a->ngates; i++)
		eval_gate(a, &a->gates[i]);
}

bool df_view_tripped(const struct view *v)
{
	return df_gates_tripped(v->priv); /* the results open with their df_all */
}

void df_view_free(struct view *v)
{
	struct df_all *a = v->priv; /* the results open with their df_all */
	if (a)
		df_all_free(a);
	free(a);
}

bool df_gates_tripped(const struct df_all *a)
{
	for (size_t i = 0; i < a->ngates; i++)
		if (a->gates[i].tripped)
			return true;
	return false;
}
