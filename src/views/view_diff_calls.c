/* view_diff_calls: the per-call samples of `gpuprof diff`'s operator and
 * kernel rows (views/view_diff.h, docs/diff.md "Verdicts"): each launch's
 * duration of a kernel row, each call's device self time of an operator
 * row, on both sides, and the Mann-Whitney U test of tbprof/diffstat.h on
 * them. Samples are read only for rows seen on both sides, one table at a
 * time (8 bytes a call, freed before the next table); the test sorts them,
 * O(n log n) in the calls of a row. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hmap.h"
#include "core/sort.h"
#include "tbprof/diffstat.h"
#include "views/view_diff.h"

char *df_kernel_key(const char *name, bool exact)
{
	size_t len = strlen(name) + 1; /* a normalized name is never longer */
	char *key = malloc(len);
	if (key && exact)
		memcpy(key, name, len);
	else if (key)
		ds_kernel_name(name, key, len);
	return key;
}

char *df_op_key(const struct trace *t, const struct ops_view *v, const struct ops_row *r,
		enum ops_group g)
{
	const char *name = tr_str(t, r->name);
	size_t len = strlen(name) + strlen(ops_shape(v, r)) + 4;
	char *key = malloc(len);
	if (key)
		snprintf(key, len, g == OPS_BY_NAME ? "%s" : "%s %s", name, ops_shape(v, r));
	return key;
}

void df_src_free(struct df_src *s)
{
	kern_free(&s->kv);
	ops_free(&s->ov[0]);
	ops_free(&s->ov[1]);
}

/* The rows of t sorted by key, to find a row by its key. */
static int cmp_row_key(const void *x, const void *y, void *ctx)
{
	const struct df_table *t = ctx;
	return strcmp(t->rows[*(const uint32_t *)x].key, t->rows[*(const uint32_t *)y].key);
}

struct keyed {
	const struct df_table *t;
	uint32_t *by_key; /* row indices sorted by key */
};

/* The row of key when it is on both sides, else UINT32_MAX. */
static uint32_t both_sides(const struct keyed *k, const char *key)
{
	size_t lo = 0, hi = k->t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct df_row *r = &k->t->rows[k->by_key[mid]];
		int c = strcmp(r->key, key);
		if (!c)
			return r->in[0] && r->in[1] ? k->by_key[mid] : UINT32_MAX;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return UINT32_MAX;
}

/* One trace's view rows -> table rows (UINT32_MAX: not on both sides);
 * for kernels also the kernel name id -> view row. */
struct rowmap {
	uint32_t *to;
	struct hmap names;
};

static int map_rows(const struct keyed *k, const struct df_src *s, int table, bool exact,
		    struct rowmap *m)
{
	const struct trace *t = s->o->t;
	bool kern = table == DF_T_KERNELS;
	const struct ops_view *ov = &s->ov[table == DF_T_OPS_SHAPE];
	size_t n = kern ? s->kv.n : ov->n;
	m->to = malloc((n ? n : 1) * sizeof *m->to);
	if (!m->to || (kern && hmap_init(&m->names, n)))
		return -1;
	for (size_t i = 0; i < n; i++) {
		char *key = kern ? df_kernel_key(tr_str(t, s->kv.rows[i].name), exact)
				 : df_op_key(t, ov, &ov->rows[i],
					     table == DF_T_OPS ? OPS_BY_NAME : OPS_BY_NAME_SHAPE);
		if (!key)
			return -1;
		m->to[i] = both_sides(k, key);
		free(key);
		if (kern && hmap_put(&m->names, hmap_int(s->kv.rows[i].name), (uint32_t)i))
			return -1;
	}
	return 0;
}

/* Every sample of s that belongs to a row of both sides: counted into
 * pos[row] (out NULL), or written to out[pos[row]++]. */
static void scan(const struct df_src *s, int table, const struct rowmap *m, size_t *pos,
		 int64_t *out)
{
	const struct optree *o = s->o;
	const struct trace *t = o->t;
	if (table == DF_T_KERNELS) {
		for (size_t r = 0; r < t->ev.n; r++) {
			if (!kern_counted(o, r))
				continue;
			uint32_t i = hmap_get(&m->names, hmap_int(t->ev.name[r]), NULL, NULL);
			uint32_t row = i == HMAP_NONE ? UINT32_MAX : m->to[i];
			if (row == UINT32_MAX)
				continue;
			if (out)
				out[pos[row]++] = tr_dur(t, r);
			else
				pos[row]++;
		}
		return;
	}
	const struct ops_view *ov = &s->ov[table == DF_T_OPS_SHAPE];
	for (size_t i = 0; i < o->nnodes; i++) {
		uint32_t g = ov->node_group[i];
		uint32_t row = g == OPT_NIL ? UINT32_MAX : m->to[g];
		if (row == UINT32_MAX)
			continue;
		if (out)
			out[pos[row]++] = o->nodes[i].self_device;
		else
			pos[row]++;
	}
}

/* The verdict of a row: the steps' rule (df_row_verdict) where the change
 * is real when the test says so or the number of calls (metric 0 of these
 * tables) changed, which no sampling noise does. */
static const char *row_verdict(const struct df_table *t, const struct df_row *r, double min_abs)
{
	bool calls = r->v[0][0] != r->v[1][0];
	return df_row_verdict(t, r, calls || (r->tested && r->p < DF_ALPHA), min_abs);
}

int df_test_row(struct df_row *r, int64_t *a, size_t na, int64_t *b, size_t nb)
{
	int64_t *v[2] = {a, b};
	size_t n[2] = {na, nb};
	for (int k = 0; k < 2; k++) {
		ds_sort(v[k], n[k]);
		r->median[k] = n[k] ? stats_quantile(v[k], n[k], 0.5) : 0;
		r->iqr[k] =
		    n[k] ? stats_quantile(v[k], n[k], 0.75) - stats_quantile(v[k], n[k], 0.25) : 0;
	}
	r->tested = na && nb;
	if (!r->tested)
		return 0;
	struct ds_mwu m = {0};
	if (ds_mannwhitney(a, na, b, nb, &m))
		return -1;
	r->u = m.u;
	r->p = m.p;
	r->exact = m.exact;
	return 0;
}

/* The samples of table `table` of both sides, tested row by row. */
static int table_calls(struct df_table *t, int table, const struct df_src *src, size_t n,
		       bool exact)
{
	struct keyed k = {t, malloc((t->n ? t->n : 1) * sizeof *k.by_key)};
	struct rowmap *maps = calloc(n ? n : 1, sizeof *maps);
	size_t *pos[2] = {calloc(t->n + 1, sizeof(size_t)), calloc(t->n + 1, sizeof(size_t))};
	int64_t *v[2] = {NULL, NULL};
	int rc = !k.by_key || !maps || !pos[0] || !pos[1] ? -1 : 0;
	for (size_t i = 0; !rc && i < t->n; i++)
		k.by_key[i] = (uint32_t)i;
	if (!rc && t->n > 1)
		gp_qsort_r(k.by_key, t->n, sizeof *k.by_key, cmp_row_key, t);
	for (size_t i = 0; !rc && i < n; i++)
		rc = map_rows(&k, &src[i], table, exact, &maps[i]);
	for (size_t i = 0; !rc && i < n; i++) /* counts at pos[side][row + 1] */
		scan(&src[i], table, &maps[i], pos[src[i].side] + 1, NULL);
	for (int s = 0; !rc && s < 2; s++) {
		for (size_t i = 0; i < t->n; i++)
			pos[s][i + 1] += pos[s][i];
		v[s] = malloc((pos[s][t->n] ? pos[s][t->n] : 1) * sizeof *v[s]);
		rc = v[s] ? 0 : -1;
	}
	for (size_t i = 0; !rc && i < n; i++) /* pos[side][row]: the next sample's place */
		scan(&src[i], table, &maps[i], pos[src[i].side], v[src[i].side]);
	/* pos[s][row] is now the end of row's samples, pos[s][row - 1] its start */
	for (size_t i = 0; !rc && i < t->n; i++) {
		struct df_row *r = &t->rows[i];
		size_t a0 = i ? pos[0][i - 1] : 0, b0 = i ? pos[1][i - 1] : 0;
		if (r->in[0] && r->in[1])
			rc = df_test_row(r, v[0] + a0, pos[0][i] - a0, v[1] + b0, pos[1][i] - b0);
	}
	for (size_t i = 0; maps && i < n; i++) {
		free(maps[i].to);
		hmap_free(&maps[i].names);
	}
	free(maps);
	free(k.by_key);
	for (int s = 0; s < 2; s++) {
		free(pos[s]);
		free(v[s]);
	}
	return rc;
}

int df_calls(struct df_all *a, const struct df_src *src, size_t n, bool exact, double min_abs)
{
	for (size_t ti = 0; ti < a->ntabs; ti++) {
		struct df_table *t = &a->tabs[ti];
		if (!t->def->calls)
			continue;
		if (table_calls(t, (int)ti, src, n, exact))
			return -1;
		for (size_t i = 0; i < t->n; i++)
			t->rows[i].verdict = row_verdict(t, &t->rows[i], min_abs);
	}
	return 0;
}
