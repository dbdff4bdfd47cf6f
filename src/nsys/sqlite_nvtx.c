/* sqlite_nvtx: NVTX ranges of an SQLite export, their GPU projection, and
 * the two range lists the iteration analysis needs.
 *
 * Rebuilds what `nsys stats` computes in nvtx_pushpop_trace and
 * nvtx_gpu_proj_trace (nsys.md 3.3 and 4.3), in C over rows SQL hands us:
 *   - names: "Domain:text" for a named domain (the domain's name comes from
 *     its eventType 75 row in the same process), plain text for the default
 *     domain (the report's leading ':' already normalized away); the text is
 *     StringIds[textId] when the export has textId, else the inline text;
 *   - parents: the tightest enclosing range on the same thread, found with a
 *     stack over ranges sorted by (thread, start, longer first);
 *   - GPU projection: each kernel/memcpy/memset is tied to its CUDA API call
 *     by correlationId within the process (globalPid = globalTid with the
 *     low 24 bits cleared) and belongs to every range on the call's thread
 *     whose [start, end] contains the call's [start, end]; per range the span
 *     max(end) - min(start), the distinct correlation ids, and the summed
 *     operation time. Exact 64-bit comparisons throughout.
 * Ranges without an end are left out (host: nsys gives them the last
 * timestamp; we cannot know it was meant, so they are dropped and not shown).
 * Names are interned once (StringIds read once per id, one "Domain:text"
 * per pair) and every sum and difference is checked; a value of another
 * type or one that overflows is an error naming the table and rowid.
 */
#include <stdlib.h>
#include <string.h>

#include "core/hmap.h"
#include "core/sort.h"
#include "core/vec.h"
#include "nsys/scope.h"
#include "nsys/sqlite_int.h"

#define PROC_MASK ((int64_t)-16777216) /* 0xFFFFFFFFFF000000 */

struct xrange {
	int64_t rowid, start, end, gtid;
	int type;
	bool same_thread; /* endGlobalTid is NULL */
	const char *name;
	size_t parent; /* index or SIZE_MAX, within the list it was built for */
	int64_t child_dur;
	/* projection */
	int64_t ops, pmin, pmax, gtime;
};

struct xop {
	int64_t gtid, api_start, api_end, corr, start, end, dur;
};

struct domain {
	int64_t proc, id;
	uint32_t name; /* pool id, NSYS_SQL_NO_NAME for none */
};

/* The names of one export's ranges: the pool, the domains (by process and
 * id, the last row winning as nsys does) and the "Domain:text" pairs. */
struct names {
	struct nsys_sql_names *pool;
	VEC(struct domain) doms;
	struct hmap dom_ix;  /* hash of (proc, id) -> index in doms */
	struct hmap pair_ix; /* (domain name, text) pool ids -> pool id */
};

struct dom_key {
	const struct names *n;
	int64_t proc, id;
};

static bool dom_eq(const void *ctx, uint32_t v)
{
	const struct dom_key *k = ctx;
	return k->n->doms.v[v].proc == k->proc && k->n->doms.v[v].id == k->id;
}

static uint64_t dom_hash(int64_t proc, int64_t id)
{
	return hmap_hash((uint64_t)proc * 0x9E3779B97F4A7C15ull ^ (uint64_t)id);
}

/* The text of a row: StringIds[textId] (column tcol) when it names one,
 * else the inline text (column tcol + 1), else "". */
static uint32_t row_text(struct names *n, sqlite3_stmt *st, int tcol)
{
	uint32_t id = nsys_sql_name_id(n->pool, st, tcol);
	if (id != NSYS_SQL_NO_NAME)
		return id;
	const char *t = (const char *)sqlite3_column_text(st, tcol + 1);
	return t ? nsys_sql_text_id(n->pool, t, strlen(t)) : NSYS_SQL_NO_NAME;
}

static int load_domains(struct nsys_sql *s, struct names *n, const char *cols, struct err *e)
{
	char sql[300];
	snprintf(sql, sizeof sql,
		 "SELECT rowid, globalTid, domainId, %s FROM NVTX_EVENTS WHERE eventType = 75",
		 cols);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL))
		return nsys_sql_fail(s, e);
	int rc = 0, step;
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct nsys_sql_at at = {"NVTX_EVENTS", sqlite3_column_int64(st, 0)};
		struct domain d = {0, 0, NSYS_SQL_NO_NAME};
		if (nsys_sql_int(s, st, 1, &at, "globalTid", &d.proc, e) ||
		    nsys_sql_int(s, st, 2, &at, "domainId", &d.id, e)) {
			rc = e ? e->code : ERR_FORMAT;
			break;
		}
		d.proc >>= 24;
		d.name = row_text(n, st, 3);
		struct dom_key k = {n, d.proc, d.id};
		uint32_t v;
		size_t slot = hmap_slot(&n->dom_ix, dom_hash(d.proc, d.id), dom_eq, &k, &v);
		if (d.name == UINT32_MAX || slot == SIZE_MAX) {
			rc = err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
		} else if (v != HMAP_NONE) {
			n->doms.v[v] = d;
		} else if (vec_push(n->doms, d, 1u << 30)) {
			rc = err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
		} else {
			hmap_set(&n->dom_ix, slot, dom_hash(d.proc, d.id),
				 (uint32_t)(n->doms.n - 1));
		}
	}
	if (!rc && step != SQLITE_DONE)
		rc = nsys_sql_fail(s, e);
	sqlite3_finalize(st);
	return rc;
}

/* The name of a range: its text, "Domain:text" in a named domain. */
static const char *range_name(struct names *n, int64_t proc, int64_t dom, uint32_t text)
{
	uint32_t dname = NSYS_SQL_NO_NAME;
	if (dom) {
		struct dom_key k = {n, proc, dom};
		uint32_t v = n->dom_ix.key ? hmap_get(&n->dom_ix, dom_hash(proc, dom), dom_eq, &k)
					   : HMAP_NONE;
		if (v != HMAP_NONE)
			dname = n->doms.v[v].name;
	}
	if (dname == NSYS_SQL_NO_NAME)
		return nsys_sql_name_full(n->pool, text);
	uint64_t key = ((uint64_t)dname << 32 | text) ^ (1ull << 63);
	uint32_t v;
	size_t slot = hmap_slot(&n->pair_ix, key, NULL, NULL, &v);
	if (slot == SIZE_MAX)
		return NULL;
	if (v == HMAP_NONE) {
		const char *d = nsys_sql_name_full(n->pool, dname),
			   *t = nsys_sql_name_full(n->pool, text);
		size_t len = strlen(d) + strlen(t) + 2;
		char *buf = malloc(len);
		if (!buf)
			return NULL;
		snprintf(buf, len, "%s:%s", d, t);
		v = nsys_sql_text_id(n->pool, buf, len - 1);
		free(buf);
		if (v == UINT32_MAX)
			return NULL;
		hmap_set(&n->pair_ix, slot, key, v);
	}
	return nsys_sql_name_full(n->pool, v);
}

static int range_cmp(const void *a, const void *b)
{
	const struct xrange *x = a, *y = b;
	if (x->gtid != y->gtid)
		return x->gtid < y->gtid ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return (x->rowid > y->rowid) - (x->rowid < y->rowid);
}

static int op_cmp(const void *a, const void *b)
{
	const struct xop *x = a, *y = b;
	if (x->gtid != y->gtid)
		return x->gtid < y->gtid ? -1 : 1;
	if (x->api_start != y->api_start)
		return x->api_start < y->api_start ? -1 : 1;
	return (x->corr > y->corr) - (x->corr < y->corr);
}

/* One range row: rowid, start, end, eventType, globalTid, textId, text,
 * same thread, domainId. */
static int range_row(struct nsys_sql *s, struct names *nm, struct arena *a, sqlite3_stmt *st,
		     struct xrange *r, struct err *e)
{
	memset(r, 0, sizeof *r);
	r->rowid = sqlite3_column_int64(st, 0);
	struct nsys_sql_at at = {"NVTX_EVENTS", r->rowid};
	int64_t dur, dom = 0;
	if (nsys_sql_span(s, st, 1, &at, &r->start, &r->end, &dur, e) ||
	    nsys_sql_int(s, st, 4, &at, "globalTid", &r->gtid, e) ||
	    (sqlite3_column_type(st, 8) != SQLITE_NULL &&
	     nsys_sql_int(s, st, 8, &at, "domainId", &dom, e)))
		return e ? e->code : ERR_FORMAT;
	r->type = sqlite3_column_int(st, 3);
	r->same_thread = sqlite3_column_int(st, 7) != 0;
	uint32_t text = row_text(nm, st, 5);
	if (text == NSYS_SQL_NO_NAME)
		text = nsys_sql_text_id(nm->pool, "", 0);
	r->name = text == UINT32_MAX ? NULL : range_name(nm, r->gtid >> 24, dom, text);
	r->parent = SIZE_MAX;
	return r->name ? 0 : err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
}

static void names_free(struct names *n)
{
	nsys_sql_names_free(n->pool);
	vec_free(n->doms);
	hmap_free(&n->dom_ix);
	hmap_free(&n->pair_ix);
}

/* Loads every range of event types 59, 60, 70, 71 that has an end, sorted by
 * (thread, start, longer first). */
static int load_ranges(struct nsys_sql *s, struct arena *a, struct xrange **out, size_t *n,
		       struct err *e)
{
	bool has_textid = nsys_sql_has_column(s, "NVTX_EVENTS", "textId");
	bool has_text = nsys_sql_has_column(s, "NVTX_EVENTS", "text");
	bool has_end_tid = nsys_sql_has_column(s, "NVTX_EVENTS", "endGlobalTid");
	bool has_domain = nsys_sql_has_column(s, "NVTX_EVENTS", "domainId");
	struct names nm = {.pool = nsys_sql_names_new(s, a)};
	if (!nm.pool || hmap_init(&nm.dom_ix, 16) || hmap_init(&nm.pair_ix, 16)) {
		names_free(&nm);
		return err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
	}
	char cols[40];
	snprintf(cols, sizeof cols, "%s, %s", has_textid ? "textId" : "NULL",
		 has_text ? "text" : "NULL");
	int rc = has_textid ? nsys_sql_names_load(nm.pool, "SELECT textId FROM NVTX_EVENTS", e) : 0;
	if (!rc && has_domain)
		rc = load_domains(s, &nm, cols, e);
	char sql[600];
	snprintf(sql, sizeof sql,
		 "SELECT rowid, start, end, eventType, globalTid, %s, %s, %s FROM NVTX_EVENTS "
		 "WHERE eventType IN (59, 60, 70, 71) AND end IS NOT NULL",
		 cols, has_end_tid ? "endGlobalTid IS NULL" : "1", has_domain ? "domainId" : "0");
	sqlite3_stmt *st = NULL;
	if (!rc && sqlite3_prepare_v2(s->db, sql, -1, &st, NULL))
		rc = nsys_sql_fail(s, e);
	VEC(struct xrange) v = {0};
	int step = SQLITE_DONE;
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct xrange r;
		rc = range_row(s, &nm, a, st, &r, e);
		if (!rc && vec_push(v, r, 1u << 30))
			rc = err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
	}
	if (!rc && step != SQLITE_DONE)
		rc = nsys_sql_fail(s, e);
	sqlite3_finalize(st);
	names_free(&nm);
	if (rc) {
		vec_free(v);
		return rc;
	}
	*n = v.n;
	*out = arena_array(a, v.n ? v.n : 1, sizeof **out);
	if (!*out) {
		vec_free(v);
		return err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
	}
	if (v.n)
		memcpy(*out, v.v, v.n * sizeof *v.v);
	vec_free(v);
	gp_qsort(*out, *n, sizeof **out, range_cmp);
	return 0;
}

/* Sets parent and child_dur over the ranges selected by keep (sorted list);
 * fails when out of memory or when a range's children's durations sum past
 * 64 bits. */
static int build_tree(struct nsys_sql *s, struct xrange *r, size_t n, bool pushpop_only,
		      struct err *e)
{
	size_t *stack = malloc((n ? n : 1) * sizeof *stack);
	if (!stack)
		return err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
	size_t sp = 0;
	for (size_t i = 0; i < n; i++) {
		r[i].parent = SIZE_MAX;
		r[i].child_dur = 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (pushpop_only && r[i].type != 59 && r[i].type != 70)
			continue;
		if (!pushpop_only && !r[i].same_thread)
			continue;
		while (sp &&
		       (r[stack[sp - 1]].gtid != r[i].gtid || r[stack[sp - 1]].end < r[i].end))
			sp--;
		if (sp) {
			struct xrange *p = &r[stack[sp - 1]];
			r[i].parent = stack[sp - 1];
			if (!nsys_add(&p->child_dur, r[i].end - r[i].start)) {
				free(stack);
				struct nsys_sql_at at = {"NVTX_EVENTS", p->rowid};
				return nsys_sql_row_fail(
				    s, &at, e,
				    "the durations of the ranges it encloses "
				    "sum past 64 bits (expected a total within "
				    "+-2^63 ns)");
			}
		}
		stack[sp++] = i;
	}
	free(stack);
	return 0;
}

static int load_ops(struct nsys_sql *s, struct xop **out, size_t *n, struct err *e)
{
	*out = NULL;
	*n = 0;
	if (!nsys_sql_has_table(s, "CUPTI_ACTIVITY_KIND_RUNTIME"))
		return 0;
	static const char *const tabs[] = {"CUPTI_ACTIVITY_KIND_KERNEL",
					   "CUPTI_ACTIVITY_KIND_MEMCPY",
					   "CUPTI_ACTIVITY_KIND_MEMSET"};
	char u[700] = "";
	for (int i = 0; i < 3; i++) {
		if (!nsys_sql_has_table(s, tabs[i]))
			continue;
		size_t l = strlen(u);
		snprintf(u + l, sizeof u - l,
			 "%sSELECT start, end, correlationId, globalPid, %d AS t, rowid AS rid "
			 "FROM %s",
			 l ? " UNION ALL " : "", i, tabs[i]);
	}
	if (!u[0])
		return 0;
	char sql[1200];
	snprintf(sql, sizeof sql,
		 "SELECT r.globalTid, r.start, r.end, o.correlationId, o.start, o.end, o.t, o.rid, "
		 "r.rowid FROM (%s) o "
		 "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = o.correlationId "
		 "AND (r.globalTid & %lld) = o.globalPid",
		 u, (long long)PROC_MASK);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL))
		return nsys_sql_fail(s, e);
	VEC(struct xop) v = {0};
	int step, rc = 0;
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct xop o = {0};
		int64_t t = sqlite3_column_int64(st, 6), d;
		struct nsys_sql_at api = {"CUPTI_ACTIVITY_KIND_RUNTIME",
					  sqlite3_column_int64(st, 8)};
		struct nsys_sql_at op = {tabs[t >= 0 && t < 3 ? t : 0],
					 sqlite3_column_int64(st, 7)};
		o.corr = sqlite3_column_int64(st, 3);
		if (nsys_sql_int(s, st, 0, &api, "globalTid", &o.gtid, e) ||
		    nsys_sql_span(s, st, 1, &api, &o.api_start, &o.api_end, &d, e) ||
		    nsys_sql_span(s, st, 4, &op, &o.start, &o.end, &o.dur, e))
			rc = e ? e->code : ERR_FORMAT;
		else if (vec_push(v, o, 1u << 30))
			rc = err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
	}
	sqlite3_finalize(st);
	if (!rc && step != SQLITE_DONE)
		rc = nsys_sql_fail(s, e);
	if (rc) {
		vec_free(v);
		return rc;
	}
	if (v.n)
		gp_qsort(v.v, v.n, sizeof *v.v, op_cmp);
	*out = v.v;
	*n = v.n;
	return 0;
}

/* The projection of every range at once, offline: ranges in order of end,
 * operations inserted in order of API end into a segment tree over the
 * (thread, API start) order, so that a range's operations (same thread, API
 * call inside the range) are the inserted ones in one index window. Time
 * O((ranges + ops) log ops), memory linear, however the ranges nest. The
 * operations of one API call (one correlation id: a run of equal (thread,
 * API start, correlation) in that order) count once, when the first of
 * them is inserted. */
struct pnode {
	__int128 sum; /* GPU time; 128 bits so that no partial sum overflows */
	int64_t mn, mx;
	uint32_t calls;
};

static void pnode_join(struct pnode *o, const struct pnode *x, const struct pnode *y)
{
	o->sum = x->sum + y->sum;
	o->mn = x->mn < y->mn ? x->mn : y->mn;
	o->mx = x->mx > y->mx ? x->mx : y->mx;
	o->calls = x->calls + y->calls;
}

struct ptree {
	struct pnode *t; /* leaves at [m, 2m) */
	size_t m;
};

static void ptree_insert(struct ptree *p, size_t k, const struct xop *o, bool first)
{
	struct pnode *l = &p->t[p->m + k];
	l->sum += o->dur;
	l->mn = o->start < l->mn ? o->start : l->mn;
	l->mx = o->end > l->mx ? o->end : l->mx;
	l->calls += first;
	for (size_t i = (p->m + k) / 2; i >= 1; i /= 2)
		pnode_join(&p->t[i], &p->t[2 * i], &p->t[2 * i + 1]);
}

static struct pnode ptree_query(const struct ptree *p, size_t lo, size_t hi)
{
	struct pnode r = {0, INT64_MAX, INT64_MIN, 0};
	for (lo += p->m, hi += p->m; lo < hi; lo /= 2, hi /= 2) {
		if (lo & 1)
			pnode_join(&r, &r, &p->t[lo++]);
		if (hi & 1)
			pnode_join(&r, &r, &p->t[--hi]);
	}
	return r;
}

/* The first operation at or after (gtid, t) in (thread, API start) order
 * (after, with past: the first past it). */
static size_t op_bound(const struct xop *ops, size_t nops, int64_t gtid, int64_t t, bool past)
{
	size_t lo = 0, hi = nops;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		bool before = ops[mid].gtid < gtid ||
			      (ops[mid].gtid == gtid &&
			       (past ? ops[mid].api_start <= t : ops[mid].api_start < t));
		if (before)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct pkey {
	int64_t t;
	size_t i;
};

static int pkey_cmp(const void *a, const void *b)
{
	const struct pkey *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* Fills ops/pmin/pmax/gtime of every range from the sorted operations;
 * fails, naming the first such range in r's order, when a range's GPU time
 * or span does not fit 64 bits. */
static int project(struct nsys_sql *s, struct xrange *r, size_t n, const struct xop *ops,
		   size_t nops, struct err *e)
{
	struct ptree p = {NULL, 1};
	while (p.m < nops)
		p.m *= 2;
	p.t = malloc(2 * p.m * sizeof *p.t);
	struct pkey *re = malloc((n ? n : 1) * sizeof *re);
	struct pkey *oe = malloc((nops ? nops : 1) * sizeof *oe);
	uint8_t *seen = calloc(nops ? nops : 1, 1);		 /* per call: first op inserted */
	size_t *call = malloc((nops ? nops : 1) * sizeof *call); /* first op of its call */
	__int128 *gsum = malloc((n ? n : 1) * sizeof *gsum);
	if (!p.t || !re || !oe || !seen || !call || !gsum) {
		free(p.t), free(re), free(oe), free(seen), free(call), free(gsum);
		return err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
	}
	for (size_t i = 0; i < 2 * p.m; i++)
		p.t[i] = (struct pnode){0, INT64_MAX, INT64_MIN, 0};
	for (size_t i = 0; i < n; i++)
		re[i] = (struct pkey){r[i].end, i};
	for (size_t k = 0; k < nops; k++) {
		oe[k] = (struct pkey){ops[k].api_end, k};
		bool same = k > 0 && ops[k - 1].gtid == ops[k].gtid &&
			    ops[k - 1].api_start == ops[k].api_start &&
			    ops[k - 1].corr == ops[k].corr;
		call[k] = same ? call[k - 1] : k;
	}
	if (n > 1)
		gp_qsort(re, n, sizeof *re, pkey_cmp);
	if (nops > 1)
		gp_qsort(oe, nops, sizeof *oe, pkey_cmp);
	size_t next = 0;
	for (size_t j = 0; j < n; j++) {
		struct xrange *g = &r[re[j].i];
		for (; next < nops && oe[next].t <= g->end; next++) {
			size_t k = oe[next].i, c = call[k];
			bool first = !seen[c];
			seen[c] = 1;
			ptree_insert(&p, c, &ops[k], first);
		}
		size_t lo = op_bound(ops, nops, g->gtid, g->start, false);
		size_t hi = op_bound(ops, nops, g->gtid, g->end, true);
		struct pnode q =
		    lo < hi ? ptree_query(&p, lo, hi) : (struct pnode){0, INT64_MAX, INT64_MIN, 0};
		g->ops = q.calls;
		g->pmin = q.mn;
		g->pmax = q.mx;
		gsum[re[j].i] = q.sum;
	}
	free(p.t), free(re), free(oe), free(seen), free(call);
	for (size_t i = 0; i < n; i++) {
		struct xrange *g = &r[i];
		struct nsys_sql_at at = {"NVTX_EVENTS", g->rowid};
		int64_t span;
		if (gsum[i] > INT64_MAX || gsum[i] < INT64_MIN) {
			free(gsum);
			return nsys_sql_row_fail(s, &at, e,
						 "the GPU time of the operations in the "
						 "range sums past 64 bits (expected a total "
						 "within +-2^63 ns)");
		}
		g->gtime = (int64_t)gsum[i];
		if (g->ops && !nsys_sub(g->pmax, g->pmin, &span)) {
			free(gsum);
			return nsys_sql_row_fail(
			    s, &at, e,
			    "the GPU span of the range (%lld to %lld) does not fit "
			    "64 bits",
			    (long long)g->pmin, (long long)g->pmax);
		}
	}
	free(gsum);
	return 0;
}

static const char *style_of(int type)
{
	return type == 59 || type == 70 ? "PushPop" : "StartEnd";
}

struct nvtx_rec {
	const char *name, *style;
	int64_t dur, ops, proj, gtime, rowid;
};

static int rec_cmp(const void *a, const void *b)
{
	const struct nvtx_rec *x = a, *y = b;
	int c = strcmp(x->style, y->style);
	return c ? c : strcmp(x->name, y->name);
}

static int row_by_total(const void *a, const void *b)
{
	const struct nsys_sql_row *x = a, *y = b;
	if (x->total_ns != y->total_ns)
		return x->total_ns < y->total_ns ? 1 : -1;
	int c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->group, y->group);
}

int nsys_sql_nvtx(struct nsys_sql *s, struct arena *a, struct nsys_sql_table *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	if (!nsys_sql_has_table(s, "NVTX_EVENTS"))
		return nsys_sql_absent(out,
				       "the export has no NVTX_EVENTS table: no NVTX ranges were "
				       "captured");
	struct xrange *r;
	size_t n, nops;
	struct xop *ops;
	if (load_ranges(s, a, &r, &n, e) || load_ops(s, &ops, &nops, e))
		return e ? e->code : ERR_FORMAT;
	int prc = project(s, r, n, ops, nops, e);
	free(ops);
	if (prc)
		return prc;
	struct nvtx_rec *recs = arena_array(a, n ? n : 1, sizeof *recs);
	int64_t *durs = arena_array(a, n ? n : 1, sizeof *durs);
	out->v = arena_array(a, n ? n : 1, sizeof *out->v);
	if (!recs || !durs || !out->v)
		return err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
	for (size_t i = 0; i < n; i++)
		recs[i] = (struct nvtx_rec){r[i].name,
					    style_of(r[i].type),
					    r[i].end - r[i].start,
					    r[i].ops,
					    r[i].ops ? r[i].pmax - r[i].pmin : 0,
					    r[i].gtime,
					    r[i].rowid};
	gp_qsort(recs, n, sizeof *recs, rec_cmp);
	int64_t all = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		struct nsys_sql_row row = {.name = recs[i].name, .group = recs[i].style};
		struct nsys_sql_at at = {"NVTX_EVENTS", recs[i].rowid};
		int64_t total = 0;
		for (; j < n && !rec_cmp(&recs[i], &recs[j]); j++) {
			at.rowid = recs[j].rowid;
			durs[j - i] = recs[j].dur;
			row.gpu_ops += recs[j].ops;
			if (!nsys_add(&total, recs[j].dur) ||
			    !nsys_add(&row.proj_ns, recs[j].proj) ||
			    !nsys_add(&row.gpu_time_ns, recs[j].gtime))
				return nsys_sql_row_fail(
				    s, &at, e,
				    "the durations of the ranges named as it "
				    "sum past 64 bits (expected a total within "
				    "+-2^63 ns)");
		}
		if (nsys_sql_fill_stats(s, &at, &row, durs, j - i, e))
			return e ? e->code : ERR_FORMAT;
		if (!nsys_add(&all, row.total_ns))
			return nsys_sql_row_fail(s, &at, e,
						 "the durations of all ranges sum past 64 bits "
						 "(expected a total within +-2^63 ns)");
		out->v[out->n++] = row;
		i = j;
	}
	for (size_t i = 0; i < out->n; i++)
		out->v[i].pct = all ? 100.0 * (double)out->v[i].total_ns / (double)all : 0;
	if (out->n)
		gp_qsort(out->v, out->n, sizeof *out->v, row_by_total);
	for (size_t i = 0; i < out->n; i++) {
		bool cut;
		out->v[i].name = nsys_name_cap(a, out->v[i].name, strlen(out->v[i].name), &cut);
		if (!out->v[i].name)
			return err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
	}
	return 0;
}

static void key_of(struct nsys_range *g, const struct xrange *x)
{
	g->pid = (x->gtid >> 24) & 0xFFFFFF;
	g->tid = x->gtid & 0xFFFFFF;
	g->id = x->rowid;
	g->name = x->name;
}

int nsys_sql_ranges(struct nsys_sql *s, struct arena *a, struct nsys_ranges *host,
		    struct nsys_ranges *gpu, struct err *e)
{
	memset(host, 0, sizeof *host);
	memset(gpu, 0, sizeof *gpu);
	if (nsys_sql_need(s, "NVTX_EVENTS", "no NVTX ranges were captured", e))
		return e ? e->code : ERR_FORMAT;
	struct xrange *r;
	size_t n, nops;
	struct xop *ops;
	if (load_ranges(s, a, &r, &n, e) || load_ops(s, &ops, &nops, e))
		return e ? e->code : ERR_FORMAT;
	int prc = project(s, r, n, ops, nops, e);
	free(ops);
	if (prc)
		return prc;
	host->v = arena_array(a, n ? n : 1, sizeof *host->v);
	gpu->v = arena_array(a, n ? n : 1, sizeof *gpu->v);
	host->path = gpu->path = s->path;
	host->table = gpu->table = "NVTX_EVENTS";
	if (!host->v || !gpu->v)
		return err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
	if (build_tree(s, r, n, true, e))
		return e ? e->code : ERR_FORMAT;
	for (size_t i = 0; i < n; i++) {
		if (r[i].type != 59 && r[i].type != 70)
			continue;
		struct nsys_range *g = &host->v[host->n++];
		memset(g, 0, sizeof *g);
		key_of(g, &r[i]);
		g->has_parent = r[i].parent != SIZE_MAX;
		g->parent = g->has_parent ? r[r[i].parent].rowid : 0;
		g->dur = r[i].end - r[i].start;
		g->dur_child = r[i].child_dur;
		g->row = r[i].rowid;
		if (!nsys_sub(g->dur, g->dur_child, &g->dur_nonchild)) {
			struct nsys_sql_at at = {"NVTX_EVENTS", r[i].rowid};
			return nsys_sql_row_fail(s, &at, e,
						 "its duration less its children's does not fit 64 "
						 "bits");
		}
	}
	if (build_tree(s, r, n, false, e))
		return e ? e->code : ERR_FORMAT;
	for (size_t i = 0; i < n; i++) {
		if (!r[i].same_thread || !r[i].ops)
			continue;
		struct nsys_range *g = &gpu->v[gpu->n++];
		memset(g, 0, sizeof *g);
		key_of(g, &r[i]);
		g->has_parent = r[i].parent != SIZE_MAX;
		g->parent = g->has_parent ? r[r[i].parent].rowid : 0;
		g->style = style_of(r[i].type);
		g->proj_dur = r[i].pmax - r[i].pmin;
		g->orig_dur = r[i].end - r[i].start;
		g->num_ops = r[i].ops;
		g->row = r[i].rowid;
	}
	return 0;
}
