/* sqlite_sum: the grouped duration summaries of an export (kernels, memcpy,
 * api, gpus) and the StringIds names they print.
 *
 * SQL hands over raw rows; the grouping, the checked sums and the
 * statistics (median, sample standard deviation: SQLite has neither) are
 * done here. Names are read once per StringIds id (one query over the ids
 * the table uses, never a join copying the string into every row) and
 * interned in a string pool; a name is printed cut to LIM_NAME_BYTES,
 * ending in LIM_NAME_ELLIPSIS, but grouped and ordered by its full text.
 */
#include <stdlib.h>
#include <string.h>

#include "core/cmp.h"
#include "core/hmap.h"
#include "core/limits.h"
#include "core/sort.h"
#include "core/strpool.h"
#include "core/vec.h"
#include "nsys/scope.h"
#include "nsys/sqlite_int.h"

#define UNKNOWN_NAME "<unknown>"

struct nsys_sql_names {
	struct nsys_sql *s;
	struct arena *a;
	struct strpool pool;
	struct hmap ids; /* hmap_int(StringIds id) -> pool id */
	uint32_t unknown;
};

struct nsys_sql_names *nsys_sql_names_new(struct nsys_sql *s, struct arena *a)
{
	struct nsys_sql_names *n = calloc(1, sizeof *n);
	if (!n)
		return NULL;
	n->s = s;
	n->a = a;
	if (strpool_init(&n->pool, a) || hmap_init(&n->ids, 64)) {
		nsys_sql_names_free(n);
		return NULL;
	}
	n->unknown = strpool_intern(&n->pool, UNKNOWN_NAME, strlen(UNKNOWN_NAME));
	if (n->unknown == UINT32_MAX) {
		nsys_sql_names_free(n);
		return NULL;
	}
	return n;
}

void nsys_sql_names_free(struct nsys_sql_names *n)
{
	if (!n)
		return;
	strpool_free(&n->pool);
	hmap_free(&n->ids);
	free(n);
}

int nsys_sql_names_load(struct nsys_sql_names *n, const char *ids, struct err *e)
{
	char sql[600];
	snprintf(sql, sizeof sql, "SELECT id, value FROM StringIds WHERE id IN (%s)", ids);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(n->s->db, sql, -1, &st, NULL))
		return nsys_sql_fail(n->s, e);
	int step, rc = 0;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 0) != SQLITE_INTEGER)
			continue;
		int64_t id = sqlite3_column_int64(st, 0);
		const char *t = (const char *)sqlite3_column_text(st, 1);
		if (id == INT64_MIN || !t)
			continue;
		uint32_t v, pid = strpool_intern(&n->pool, t, strlen(t));
		size_t slot = hmap_slot(&n->ids, hmap_int(id), NULL, NULL, &v);
		if (pid == UINT32_MAX || slot == SIZE_MAX) {
			rc = err_set(e, ERR_NOMEM, n->s->path, -1, "out of memory");
			break;
		}
		if (v == HMAP_NONE)
			hmap_set(&n->ids, slot, hmap_int(id), pid);
	}
	if (!rc && step != SQLITE_DONE)
		rc = nsys_sql_fail(n->s, e);
	sqlite3_finalize(st);
	return rc;
}

uint32_t nsys_sql_name_id(struct nsys_sql_names *n, sqlite3_stmt *st, int col)
{
	if (sqlite3_column_type(st, col) != SQLITE_INTEGER)
		return NSYS_SQL_NO_NAME;
	int64_t id = sqlite3_column_int64(st, col);
	uint32_t v = id == INT64_MIN ? HMAP_NONE : hmap_get(&n->ids, hmap_int(id), NULL, NULL);
	return v == HMAP_NONE ? NSYS_SQL_NO_NAME : v;
}

uint32_t nsys_sql_text_id(struct nsys_sql_names *n, const char *text, size_t len)
{
	return strpool_intern(&n->pool, text, len);
}

const char *nsys_sql_name_full(const struct nsys_sql_names *n, uint32_t id)
{
	return strpool_get(&n->pool, id);
}

/* ---- grouped duration summaries ---- */

int nsys_sql_fill_stats(struct nsys_sql *s, const struct nsys_sql_at *at, struct nsys_sql_row *r,
			int64_t *durs, size_t n, struct err *e)
{
	r->instances = (int64_t)n;
	r->total_ns = 0;
	for (size_t i = 0; i < n; i++)
		if (!nsys_add(&r->total_ns, durs[i]))
			return nsys_sql_row_fail(s, at, e,
						 "the durations of its group sum past 64 bits "
						 "(expected a total within +-2^63 ns)");
	gp_qsort(durs, n, sizeof *durs, cmp_i64);
	r->min_ns = n ? durs[0] : 0;
	r->max_ns = n ? durs[n - 1] : 0;
	r->avg_ns = n ? (double)r->total_ns / (double)n : 0;
	bool is_int;
	r->med_ns = n ? nsys_median(durs, n, &is_int) : 0;
	r->stddev_ns = nsys_stddev(durs, n);
	return 0;
}

static int row_by_total(const void *a, const void *b)
{
	const struct nsys_sql_row *x = a, *y = b;
	if (x->total_ns != y->total_ns)
		return x->total_ns < y->total_ns ? 1 : -1;
	int c = strcmp(x->group ? x->group : "", y->group ? y->group : "");
	return c ? c : strcmp(x->name, y->name);
}

/* One row read: its group, duration and where it came from. */
struct srow {
	uint32_t grp;
	uint8_t table;
	int64_t dur, rowid;
};

static int srow_cmp(const void *a, const void *b)
{
	const struct srow *x = a, *y = b;
	if (x->grp != y->grp)
		return x->grp < y->grp ? -1 : 1;
	return (x->dur > y->dur) - (x->dur < y->dur);
}

/* A summary being read: the groups (by (name, group) pool ids) and rows. */
struct sum {
	struct nsys_sql *s;
	struct nsys_sql_names *names;
	const char *const *tables;
	size_t ntables;
	struct hmap by_key;
	VEC(struct nsys_sql_row) groups;
	VEC(uint64_t) keys; /* per group: name << 32 | group pool id + 1 (0: none) */
	VEC(struct srow) rows;
};

/* Adds the row st holds (columns as nsys_sql_summarize says). */
static int sum_row(struct sum *m, sqlite3_stmt *st, bool by_id, struct err *e)
{
	int64_t t = sqlite3_column_int64(st, 5);
	struct nsys_sql_at at = {t >= 0 && (size_t)t < m->ntables ? m->tables[t] : "?",
				 sqlite3_column_int64(st, 6)};
	uint32_t name, grp = 0;
	if (by_id) {
		name = nsys_sql_name_id(m->names, st, 0);
		if (name == NSYS_SQL_NO_NAME)
			name = m->names->unknown;
	} else {
		const char *nm = (const char *)sqlite3_column_text(st, 0);
		name = nsys_sql_text_id(m->names, nm ? nm : "", nm ? strlen(nm) : 0);
	}
	const char *g = (const char *)sqlite3_column_text(st, 1);
	if (g)
		grp = nsys_sql_text_id(m->names, g, strlen(g)) + 1;
	int64_t start, end, dur, bytes;
	if (name == UINT32_MAX || grp == UINT32_MAX)
		return err_set(e, ERR_NOMEM, m->s->path, -1, "out of memory");
	if (nsys_sql_span(m->s, st, 2, &at, &start, &end, &dur, e) ||
	    nsys_sql_int(m->s, st, 4, &at, "bytes", &bytes, e))
		return e ? e->code : ERR_FORMAT;
	uint64_t key = ((uint64_t)name << 32 | grp) ^ (1ull << 63);
	uint32_t gi;
	size_t slot = hmap_slot(&m->by_key, key, NULL, NULL, &gi);
	if (slot == SIZE_MAX)
		return err_set(e, ERR_NOMEM, m->s->path, -1, "out of memory");
	if (gi == HMAP_NONE) {
		struct nsys_sql_row r = {.name = nsys_sql_name_full(m->names, name),
					 .group =
					     grp ? nsys_sql_name_full(m->names, grp - 1) : NULL};
		gi = (uint32_t)m->groups.n;
		if (vec_push(m->groups, r, 1u << 30) || vec_push(m->keys, key, 1u << 30))
			return err_set(e, ERR_NOMEM, m->s->path, -1, "out of memory");
		hmap_set(&m->by_key, slot, key, gi);
	}
	if (!nsys_add(&m->groups.v[gi].bytes, bytes))
		return nsys_sql_row_fail(m->s, &at, e,
					 "the bytes of its group sum past 64 bits (expected a "
					 "total within +-2^63)");
	struct srow r = {gi, (uint8_t)(t >= 0 && t < 256 ? t : 0), dur, at.rowid};
	if (vec_push(m->rows, r, LIM_SIZE_CAP(1ull << 32)))
		return err_set(e, ERR_NOMEM, m->s->path, -1, "out of memory");
	return 0;
}

/* The statistics of every group from the rows, then the shares. */
static int sum_stats(struct sum *m, struct err *e)
{
	gp_qsort(m->rows.v, m->rows.n, sizeof *m->rows.v, srow_cmp);
	int64_t *durs = malloc((m->rows.n ? m->rows.n : 1) * sizeof *durs);
	if (!durs)
		return err_set(e, ERR_NOMEM, m->s->path, -1, "out of memory");
	int64_t all = 0;
	int rc = 0;
	for (size_t i = 0; !rc && i < m->rows.n;) {
		size_t j = i;
		for (; j < m->rows.n && m->rows.v[j].grp == m->rows.v[i].grp; j++)
			durs[j - i] = m->rows.v[j].dur;
		struct nsys_sql_row *g = &m->groups.v[m->rows.v[i].grp];
		struct nsys_sql_at at = {m->tables[m->rows.v[i].table], m->rows.v[i].rowid};
		int64_t total = 0;
		for (size_t k = i; k < j; k++) {
			at =
			    (struct nsys_sql_at){m->tables[m->rows.v[k].table], m->rows.v[k].rowid};
			if (!nsys_add(&total, m->rows.v[k].dur))
				break; /* at: the row that overflows */
		}
		rc = nsys_sql_fill_stats(m->s, &at, g, durs, j - i, e);
		if (!rc && !nsys_add(&all, g->total_ns))
			rc = nsys_sql_row_fail(m->s, &at, e,
					       "the durations of all rows sum past 64 bits "
					       "(expected a total within +-2^63 ns)");
		i = j;
	}
	free(durs);
	for (size_t i = 0; !rc && i < m->groups.n; i++)
		m->groups.v[i].pct =
		    all ? 100.0 * (double)m->groups.v[i].total_ns / (double)all : 0;
	return rc;
}

/* The groups sorted by total time (largest first), with printed names, as
 * the arena array out. */
static int sum_out(struct sum *m, struct arena *a, struct nsys_sql_table *out, struct err *e)
{
	gp_qsort(m->groups.v, m->groups.n, sizeof *m->groups.v, row_by_total);
	out->v = arena_array(a, m->groups.n ? m->groups.n : 1, sizeof *out->v);
	if (!out->v)
		return err_set(e, ERR_NOMEM, m->s->path, -1, "out of memory");
	for (size_t i = 0; i < m->groups.n; i++) {
		struct nsys_sql_row r = m->groups.v[i];
		bool cut;
		r.name = nsys_name_cap(a, r.name, strlen(r.name), &cut);
		if (!r.name)
			return err_set(e, ERR_NOMEM, m->s->path, -1, "out of memory");
		out->v[out->n++] = r;
	}
	return 0;
}

int nsys_sql_summarize(struct nsys_sql *s, struct arena *a, const char *sql, const char *ids,
		       const char *const *tables, size_t ntables, struct nsys_sql_table *out,
		       struct err *e)
{
	memset(out, 0, sizeof *out);
	struct sum m = {.s = s, .tables = tables, .ntables = ntables};
	m.names = nsys_sql_names_new(s, a);
	if (!m.names || hmap_init(&m.by_key, 64)) {
		nsys_sql_names_free(m.names);
		return err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
	}
	int rc = ids ? nsys_sql_names_load(m.names, ids, e) : 0;
	sqlite3_stmt *st = NULL;
	if (!rc && sqlite3_prepare_v2(s->db, sql, -1, &st, NULL))
		rc = nsys_sql_fail(s, e);
	int step = SQLITE_DONE;
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW)
		rc = sum_row(&m, st, ids != NULL, e);
	if (!rc && step != SQLITE_DONE)
		rc = nsys_sql_fail(s, e);
	sqlite3_finalize(st);
	if (!rc)
		rc = sum_stats(&m, e);
	if (!rc)
		rc = sum_out(&m, a, out, e);
	hmap_free(&m.by_key);
	vec_free(m.groups);
	vec_free(m.keys);
	vec_free(m.rows);
	nsys_sql_names_free(m.names);
	return rc;
}

static const char *const kernel_tab[] = {"CUPTI_ACTIVITY_KIND_KERNEL"};

int nsys_sql_kernels(struct nsys_sql *s, struct arena *a, struct nsys_sql_table *out, struct err *e)
{
	if (!nsys_sql_has_table(s, "CUPTI_ACTIVITY_KIND_KERNEL"))
		return nsys_sql_absent(out,
				       "the export has no CUPTI_ACTIVITY_KIND_KERNEL table: no "
				       "CUDA kernels were captured");
	/* cuda_gpu_kern_sum names kernels by their demangled name by default */
	const char *col = nsys_sql_has_column(s, "CUPTI_ACTIVITY_KIND_KERNEL", "demangledName")
			      ? "demangledName"
			      : "shortName";
	char sql[300], ids[200];
	snprintf(sql, sizeof sql,
		 "SELECT %s, NULL, start, end, 0, 0, rowid FROM CUPTI_ACTIVITY_KIND_KERNEL", col);
	snprintf(ids, sizeof ids, "SELECT %s FROM CUPTI_ACTIVITY_KIND_KERNEL", col);
	return nsys_sql_summarize(s, a, sql, ids, kernel_tab, 1, out, e);
}

int nsys_sql_memcpy(struct nsys_sql *s, struct arena *a, struct nsys_sql_table *out, struct err *e)
{
	static const char *const tabs[] = {"CUPTI_ACTIVITY_KIND_MEMCPY",
					   "CUPTI_ACTIVITY_KIND_MEMSET"};
	bool cp = nsys_sql_has_table(s, tabs[0]);
	bool set = nsys_sql_has_table(s, tabs[1]);
	if (!cp && !set)
		return nsys_sql_absent(out,
				       "the export has no CUPTI_ACTIVITY_KIND_MEMCPY or _MEMSET "
				       "table: no CUDA memory operations were captured");
	bool labels = nsys_sql_has_table(s, "ENUM_CUDA_MEMCPY_OPER");
	char sql[1000];
	snprintf(sql, sizeof sql, "SELECT nm, NULL, s, e, b, t, r FROM (%s%s%s)",
		 cp ? (labels ? "SELECT '[CUDA memcpy ' || coalesce(o.label, 'kind ' || "
				"m.copyKind) || ']' AS nm, m.start AS s, m.end AS e, m.bytes AS "
				"b, 0 AS t, m.rowid AS r FROM CUPTI_ACTIVITY_KIND_MEMCPY m "
				"LEFT JOIN ENUM_CUDA_MEMCPY_OPER o ON o.id = m.copyKind"
			      : "SELECT '[CUDA memcpy kind ' || m.copyKind || ']' AS nm, m.start "
				"AS s, m.end AS e, m.bytes AS b, 0 AS t, m.rowid AS r FROM "
				"CUPTI_ACTIVITY_KIND_MEMCPY m")
		    : "",
		 cp && set ? " UNION ALL " : "",
		 set ? "SELECT '[CUDA memset]' AS nm, start AS s, end AS e, bytes AS b, 1 AS t, "
		       "rowid AS r FROM CUPTI_ACTIVITY_KIND_MEMSET"
		     : "");
	return nsys_sql_summarize(s, a, sql, NULL, tabs, 2, out, e);
}

static const char *const runtime_tab[] = {"CUPTI_ACTIVITY_KIND_RUNTIME"};

int nsys_sql_api(struct nsys_sql *s, struct arena *a, struct nsys_sql_table *out, struct err *e)
{
	if (!nsys_sql_has_table(s, "CUPTI_ACTIVITY_KIND_RUNTIME"))
		return nsys_sql_absent(out,
				       "the export has no CUPTI_ACTIVITY_KIND_RUNTIME table: no "
				       "CUDA API calls were captured");
	return nsys_sql_summarize(
	    s, a, "SELECT nameId, NULL, start, end, 0, 0, rowid FROM CUPTI_ACTIVITY_KIND_RUNTIME",
	    "SELECT nameId FROM CUPTI_ACTIVITY_KIND_RUNTIME", runtime_tab, 1, out, e);
}

int nsys_sql_devices(struct nsys_sql *s, struct arena *a, struct nsys_sql_table *out, struct err *e)
{
	static const char *const tabs[] = {"CUPTI_ACTIVITY_KIND_KERNEL",
					   "CUPTI_ACTIVITY_KIND_MEMCPY",
					   "CUPTI_ACTIVITY_KIND_MEMSET"};
	static const char *const kinds[] = {"kernel", "memcpy", "memset"};
	char parts[3][300];
	int np = 0;
	for (int i = 0; i < 3; i++)
		if (nsys_sql_has_table(s, tabs[i]))
			snprintf(parts[np++], sizeof parts[0],
				 "SELECT deviceId AS d, streamId AS sm, '%s' AS kind, start AS s, "
				 "end AS e, %s AS b, %d AS t, rowid AS r FROM %s",
				 kinds[i], i ? "bytes" : "0", i, tabs[i]);
	if (!np)
		return nsys_sql_absent(out,
				       "the export has no CUPTI kernel, memcpy or memset table: "
				       "no GPU work was captured");
	char u[1000] = "";
	for (int i = 0; i < np; i++) {
		size_t l = strlen(u);
		snprintf(u + l, sizeof u - l, "%s%s", i ? " UNION ALL " : "", parts[i]);
	}
	/* rows per (GPU, kind), then per (GPU, stream, kind): group = "GPU n" or
	 * "GPU n stream m" so one summarizer covers both levels */
	char sql[2600];
	snprintf(sql, sizeof sql,
		 "SELECT kind, 'GPU ' || d, s, e, b, t, r FROM (%s) "
		 "UNION ALL SELECT kind, 'GPU ' || d || ' stream ' || sm, s, e, b, t, r FROM (%s)",
		 u, u);
	return nsys_sql_summarize(s, a, sql, NULL, tabs, 3, out, e);
}
