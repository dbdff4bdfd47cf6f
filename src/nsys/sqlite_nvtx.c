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
 */
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "core/vec.h"
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
	int64_t gtid, api_start, api_end, corr, start, end;
};

struct domain {
	int64_t proc, id;
	const char *name;
};

static int load_domains(struct nsys_sql *s, struct arena *a, bool has_textid, void *vout,
			struct err *e)
{
	VEC(struct domain) *out = vout;
	const char *sql =
	    has_textid
		? "SELECT e.globalTid >> 24, e.domainId, coalesce(n.value, e.text) FROM "
		  "NVTX_EVENTS e LEFT JOIN StringIds n ON n.id = e.textId WHERE e.eventType = 75"
		: "SELECT globalTid >> 24, domainId, text FROM NVTX_EVENTS WHERE eventType = 75";
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL))
		return nsys_sql_fail(s, e);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 2);
		struct domain d = {sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
				   t ? arena_strndup(a, t, strlen(t)) : NULL};
		if (vec_push(*out, d, 1u << 20)) {
			sqlite3_finalize(st);
			return err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
		}
	}
	sqlite3_finalize(st);
	return 0;
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

/* Loads every range of event types 59, 60, 70, 71 that has an end, sorted by
 * (thread, start, longer first). */
static int load_ranges(struct nsys_sql *s, struct arena *a, struct xrange **out, size_t *n,
		       struct err *e)
{
	bool has_textid = nsys_sql_has_column(s, "NVTX_EVENTS", "textId");
	bool has_text = nsys_sql_has_column(s, "NVTX_EVENTS", "text");
	bool has_end_tid = nsys_sql_has_column(s, "NVTX_EVENTS", "endGlobalTid");
	bool has_domain = nsys_sql_has_column(s, "NVTX_EVENTS", "domainId");
	VEC(struct domain) doms = {0};
	if (has_domain && load_domains(s, a, has_textid && has_text, &doms, e))
		return e ? e->code : ERR_FORMAT;
	char sql[600];
	snprintf(
	    sql, sizeof sql,
	    "SELECT e.rowid, e.start, e.end, e.eventType, e.globalTid, %s, %s, %s "
	    "FROM NVTX_EVENTS e %s WHERE e.eventType IN (59, 60, 70, 71) AND e.end IS NOT NULL",
	    has_textid && has_text ? "coalesce(n.value, e.text)"
	    : has_textid	   ? "n.value"
	    : has_text		   ? "e.text"
				   : "NULL",
	    has_end_tid ? "e.endGlobalTid IS NULL" : "1", has_domain ? "e.domainId" : "0",
	    has_textid ? "LEFT JOIN StringIds n ON n.id = e.textId" : "");
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL)) {
		vec_free(doms);
		return nsys_sql_fail(s, e);
	}
	VEC(struct xrange) v = {0};
	int rc = 0, step;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		struct xrange r = {0};
		r.rowid = sqlite3_column_int64(st, 0);
		r.start = sqlite3_column_int64(st, 1);
		r.end = sqlite3_column_int64(st, 2);
		r.type = sqlite3_column_int(st, 3);
		r.gtid = sqlite3_column_int64(st, 4);
		r.same_thread = sqlite3_column_int(st, 6) != 0;
		int64_t dom = sqlite3_column_int64(st, 7);
		const char *text = (const char *)sqlite3_column_text(st, 5);
		const char *dname = NULL;
		for (size_t i = 0; dom && i < doms.n; i++)
			if (doms.v[i].id == dom && doms.v[i].proc == r.gtid >> 24)
				dname = doms.v[i].name;
		if (!text)
			text = "";
		size_t len = strlen(text) + (dname ? strlen(dname) + 1 : 0) + 1;
		char *name = arena_alloc(a, len);
		if (!name) {
			rc = err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
			break;
		}
		if (dname)
			snprintf(name, len, "%s:%s", dname, text);
		else
			snprintf(name, len, "%s", text);
		r.name = name;
		r.parent = SIZE_MAX;
		if (vec_push(v, r, 1u << 30)) {
			rc = err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
			break;
		}
	}
	if (!rc && step != SQLITE_DONE)
		rc = nsys_sql_fail(s, e);
	sqlite3_finalize(st);
	vec_free(doms);
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

/* Sets parent and child_dur over the ranges selected by keep (sorted list). */
static int build_tree(struct xrange *r, size_t n, bool pushpop_only)
{
	size_t *stack = malloc((n ? n : 1) * sizeof *stack);
	if (!stack)
		return -1;
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
			r[i].parent = stack[sp - 1];
			r[stack[sp - 1]].child_dur += r[i].end - r[i].start;
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
			 "%sSELECT start, end, correlationId, globalPid FROM %s",
			 l ? " UNION ALL " : "", tabs[i]);
	}
	if (!u[0])
		return 0;
	char sql[1200];
	snprintf(sql, sizeof sql,
		 "SELECT r.globalTid, r.start, r.end, o.correlationId, o.start, o.end FROM (%s) o "
		 "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = o.correlationId "
		 "AND (r.globalTid & %lld) = o.globalPid",
		 u, (long long)PROC_MASK);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL))
		return nsys_sql_fail(s, e);
	VEC(struct xop) v = {0};
	int step;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		struct xop o = {sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
				sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3),
				sqlite3_column_int64(st, 4), sqlite3_column_int64(st, 5)};
		if (vec_push(v, o, 1u << 30)) {
			sqlite3_finalize(st);
			vec_free(v);
			return err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
		}
	}
	sqlite3_finalize(st);
	if (step != SQLITE_DONE) {
		vec_free(v);
		return nsys_sql_fail(s, e);
	}
	if (v.n)
		gp_qsort(v.v, v.n, sizeof *v.v, op_cmp);
	*out = v.v;
	*n = v.n;
	return 0;
}

/* Fills ops/pmin/pmax/gtime of every range from the sorted operations. */
static void project(struct xrange *r, size_t n, const struct xop *ops, size_t nops)
{
	for (size_t i = 0; i < n; i++) {
		struct xrange *g = &r[i];
		g->ops = g->gtime = 0;
		g->pmin = INT64_MAX;
		g->pmax = INT64_MIN;
		size_t lo = 0,
		       hi = nops; /* first op with (gtid, api_start) >= (g->gtid, g->start) */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (ops[mid].gtid < g->gtid ||
			    (ops[mid].gtid == g->gtid && ops[mid].api_start < g->start))
				lo = mid + 1;
			else
				hi = mid;
		}
		int64_t last_corr = 0;
		bool any = false;
		for (size_t k = lo;
		     k < nops && ops[k].gtid == g->gtid && ops[k].api_start <= g->end; k++) {
			if (ops[k].api_end > g->end)
				continue;
			if (!any || ops[k].corr != last_corr)
				g->ops++;
			any = true;
			last_corr = ops[k].corr;
			g->pmin = ops[k].start < g->pmin ? ops[k].start : g->pmin;
			g->pmax = ops[k].end > g->pmax ? ops[k].end : g->pmax;
			g->gtime += ops[k].end - ops[k].start;
		}
	}
}

static const char *style_of(int type)
{
	return type == 59 || type == 70 ? "PushPop" : "StartEnd";
}

struct nvtx_rec {
	const char *name, *style;
	int64_t dur, ops, proj, gtime;
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
	if (nsys_sql_need(s, "NVTX_EVENTS", "no NVTX ranges were captured", e))
		return e ? e->code : ERR_FORMAT;
	struct xrange *r;
	size_t n, nops;
	struct xop *ops;
	if (load_ranges(s, a, &r, &n, e) || load_ops(s, &ops, &nops, e))
		return e ? e->code : ERR_FORMAT;
	project(r, n, ops, nops);
	free(ops);
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
					    r[i].gtime};
	gp_qsort(recs, n, sizeof *recs, rec_cmp);
	int64_t all = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		struct nsys_sql_row row = {.name = recs[i].name, .group = recs[i].style};
		for (; j < n && !rec_cmp(&recs[i], &recs[j]); j++) {
			durs[j - i] = recs[j].dur;
			row.gpu_ops += recs[j].ops;
			row.proj_ns += recs[j].proj;
			row.gpu_time_ns += recs[j].gtime;
		}
		nsys_sql_fill_stats(&row, durs, j - i);
		all += row.total_ns;
		out->v[out->n++] = row;
		i = j;
	}
	for (size_t i = 0; i < out->n; i++)
		out->v[i].pct = all ? 100.0 * (double)out->v[i].total_ns / (double)all : 0;
	if (out->n)
		gp_qsort(out->v, out->n, sizeof *out->v, row_by_total);
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
	project(r, n, ops, nops);
	free(ops);
	host->v = arena_array(a, n ? n : 1, sizeof *host->v);
	gpu->v = arena_array(a, n ? n : 1, sizeof *gpu->v);
	if (!host->v || !gpu->v || build_tree(r, n, true))
		return err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
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
		g->dur_nonchild = g->dur - g->dur_child;
	}
	if (build_tree(r, n, false))
		return err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
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
	}
	return 0;
}
