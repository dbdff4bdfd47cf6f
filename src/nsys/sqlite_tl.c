/* sqlite_tl: the timeline rows of an SQLite export (see nsys_tl.h).
 *
 * Read-only like every reader here (nsys_sql_open: immutable URI). Each
 * table is optional (Nsight creates them lazily); a present table must have
 * the columns read from it, checked with PRAGMA table_info first so an
 * unexpected schema fails with a message naming the column rather than an
 * SQL error. Kernel names: demangledName, else shortName (by StringIds id),
 * as the kernels view names them; memory operations as the memcpy view
 * does ("[CUDA memcpy Host-to-Device]", "[CUDA memset]"); NVTX ranges
 * (event types 59, 60, 70, 71 with an end) as "Domain:text" for a named
 * domain, as sqlite_nvtx.c does. Runtime-table calls whose name does not
 * start with "cuda" are driver calls (cu*). Rows are gathered, sorted once
 * and split into arrays: O(n log n) per export, done once by the server.
 */
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "core/vec.h"
#include "nsys/nsys_tl.h"
#include "nsys/sqlite_int.h"

#define PROC_MASK ((int64_t)-16777216) /* globalTid -> its process: low 24 bits cleared */

struct rec {
	int64_t k1, k2, k3; /* lane key: (process, tid, -) or (device, context, stream) */
	int64_t start, end, corr, gpid, rowid;
	uint32_t name;
	uint8_t grp, src, kind; /* grp 0: threads, 1: GPUs */
};

typedef VEC(struct rec) rec_vec;

const char *nsys_tl_kind_label(enum nsys_tl_kind k)
{
	static const char *const l[] = {"cuda_runtime", "cuda_driver", "nvtx",
					"kernel",	"gpu_memcpy",  "gpu_memset"};
	return (unsigned)k < NSYS_TL_NKINDS ? l[k] : "?";
}

const char *nsys_tl_source_label(enum nsys_tl_source s)
{
	static const char *const l[] = {"nvtx", "cuda_api", "kernels", "memory"};
	return (unsigned)s < 4 ? l[s] : "?";
}

/* Fails naming the first of cols (NULL-terminated) that table lacks. */
static int need_cols(struct nsys_sql *s, const char *table, const char *const *cols, struct err *e)
{
	for (; *cols; cols++)
		if (!nsys_sql_has_column(s, table, *cols))
			return err_set(e, ERR_FORMAT, s->path, -1,
				       "the export's %s table has no %s column: not a schema the "
				       "timeline reads",
				       table, *cols);
	return 0;
}

static uint32_t intern(struct nsys_tl *m, const char *t)
{
	return strpool_intern(&m->names, t ? t : "", t ? strlen(t) : 0);
}

/* StringIds names read once per id (nsys_sql_names, no join copying a name
 * into every row) and each interned once in the model's pool. */
struct tl_names {
	struct nsys_sql_names *ids;
	uint32_t *map; /* ids' pool id -> the model's, UINT32_MAX until interned */
	size_t nmap;
};

/* The model's id of the name of the StringIds id in column col, or
 * NSYS_SQL_NO_NAME; UINT32_MAX when out of memory. */
static uint32_t tl_name(struct nsys_tl *m, struct tl_names *tn, sqlite3_stmt *st, int col)
{
	uint32_t id = nsys_sql_name_id(tn->ids, st, col);
	if (id == NSYS_SQL_NO_NAME)
		return id;
	if (id >= tn->nmap) {
		size_t cap = (size_t)id * 2 + 16;
		uint32_t *bigger = realloc(tn->map, cap * sizeof *bigger);
		if (!bigger)
			return UINT32_MAX;
		memset(bigger + tn->nmap, 0xFF, (cap - tn->nmap) * sizeof *bigger);
		tn->map = bigger;
		tn->nmap = cap;
	}
	if (tn->map[id] == UINT32_MAX)
		tn->map[id] = intern(m, nsys_sql_name_full(tn->ids, id));
	return tn->map[id];
}

/* Runs sql and appends one rec per row through fill(row statement, rec):
 * returns 0 or an error. */
static int scan(struct nsys_sql *s, struct nsys_tl *m, const char *sql, rec_vec *v,
		int (*fill)(struct nsys_tl *m, sqlite3_stmt *st, struct rec *r, void *ctx),
		void *ctx, struct err *e)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL))
		return nsys_sql_fail(s, e);
	int step, rc = 0;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		struct rec r = {0};
		if (fill(m, st, &r, ctx) || vec_push(*v, r, (size_t)1 << 31)) {
			rc = err_set(e, ERR_NOMEM, s->path, -1,
				     "out of memory (or over 2^31 timeline events)");
			break;
		}
	}
	if (!rc && step != SQLITE_DONE)
		rc = nsys_sql_fail(s, e);
	sqlite3_finalize(st);
	return rc;
}

/* API rows: rowid, start, end, globalTid, correlationId, nameId; ctx: the
 * names */
static int fill_api(struct nsys_tl *m, sqlite3_stmt *st, struct rec *r, void *ctx)
{
	int64_t gtid = sqlite3_column_int64(st, 3);
	uint32_t id = tl_name(m, ctx, st, 5);
	if (id == UINT32_MAX)
		return -1;
	const char *nm = id == NSYS_SQL_NO_NAME ? NULL : strpool_get(&m->names, id);
	*r = (struct rec){.k1 = gtid >> 24,
			  .k2 = gtid & 0xFFFFFF,
			  .start = sqlite3_column_int64(st, 1),
			  .end = sqlite3_column_int64(st, 2),
			  .corr = sqlite3_column_int64(st, 4),
			  .gpid = gtid & PROC_MASK,
			  .rowid = sqlite3_column_int64(st, 0),
			  .name = intern(m, nm ? nm : "<unknown>"),
			  .grp = 0,
			  .src = NSYS_TL_SRC_API,
			  .kind = nm && !strncmp(nm, "cuda", 4) ? NSYS_TL_RUNTIME : NSYS_TL_DRIVER};
	return r->name == UINT32_MAX ? -1 : 0;
}

struct gpu_ctx {
	uint8_t kind;
	struct tl_names *names; /* kernels: column 8 is a StringIds id */
};

/* GPU rows: rowid, start, end, deviceId, contextId, streamId,
 * correlationId, globalPid, name (text, or a kernel's StringIds id); ctx:
 * a struct gpu_ctx */
static int fill_gpu(struct nsys_tl *m, sqlite3_stmt *st, struct rec *r, void *ctx)
{
	const struct gpu_ctx *g = ctx;
	uint8_t kind = g->kind;
	const char *nm = (const char *)sqlite3_column_text(st, 8);
	if (g->names) {
		uint32_t id = tl_name(m, g->names, st, 8);
		if (id == UINT32_MAX)
			return -1;
		nm = id == NSYS_SQL_NO_NAME ? NULL : strpool_get(&m->names, id);
	}
	*r = (struct rec){.k1 = sqlite3_column_int64(st, 3),
			  .k2 = sqlite3_column_int64(st, 4),
			  .k3 = sqlite3_column_int64(st, 5),
			  .start = sqlite3_column_int64(st, 1),
			  .end = sqlite3_column_int64(st, 2),
			  .corr = sqlite3_column_int64(st, 6),
			  .gpid = sqlite3_column_int64(st, 7),
			  .rowid = sqlite3_column_int64(st, 0),
			  .name = intern(m, nm ? nm : "<unknown>"),
			  .grp = 1,
			  .src = kind == NSYS_TL_KERNEL ? NSYS_TL_SRC_KERNELS : NSYS_TL_SRC_MEMORY,
			  .kind = kind};
	return r->name == UINT32_MAX ? -1 : 0;
}

struct domain {
	int64_t proc, id;
	uint32_t name; /* UINT32_MAX: no name */
	size_t seq;    /* row order */
};
typedef VEC(struct domain) dom_vec;

struct nvtx_ctx {
	dom_vec doms; /* eventType 75 rows, sorted by (proc, id, row) once read */
	struct tl_names *names;
};

/* The text of columns tcol (a StringIds id) and tcol + 1 (inline text):
 * the id's name, else the text, else NULL; *id = its model id or
 * NSYS_SQL_NO_NAME. -1 when out of memory. */
static int nvtx_text(struct nsys_tl *m, struct tl_names *tn, sqlite3_stmt *st, int tcol,
		     const char **text)
{
	uint32_t id = tl_name(m, tn, st, tcol);
	if (id == UINT32_MAX)
		return -1;
	*text = id != NSYS_SQL_NO_NAME ? strpool_get(&m->names, id)
				       : (const char *)sqlite3_column_text(st, tcol + 1);
	return 0;
}

static int dom_cmp(const void *pa, const void *pb)
{
	const struct domain *a = pa, *b = pb;
	if (a->proc != b->proc)
		return a->proc < b->proc ? -1 : 1;
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

/* The name of domain id in process proc: the last row that creates it, as
 * sqlite_nvtx.c takes; NULL for none. */
static const char *dom_name(struct nsys_tl *m, const dom_vec *doms, int64_t proc, int64_t id)
{
	size_t lo = 0, hi = doms->n; /* first entry past (proc, id) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct domain *d = &doms->v[mid];
		if (d->proc < proc || (d->proc == proc && d->id <= id))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || doms->v[lo - 1].proc != proc || doms->v[lo - 1].id != id ||
	    doms->v[lo - 1].name == UINT32_MAX)
		return NULL;
	return strpool_get(&m->names, doms->v[lo - 1].name);
}

/* NVTX rows: rowid, start, end, globalTid, textId, text, domainId; ctx: a
 * struct nvtx_ctx */
static int fill_nvtx(struct nsys_tl *m, sqlite3_stmt *st, struct rec *r, void *ctx)
{
	struct nvtx_ctx *c = ctx;
	int64_t gtid = sqlite3_column_int64(st, 3), dom = sqlite3_column_int64(st, 6);
	const char *text;
	if (nvtx_text(m, c->names, st, 4, &text))
		return -1;
	const char *dname = dom ? dom_name(m, &c->doms, gtid >> 24, dom) : NULL;
	uint32_t name;
	if (dname) {
		size_t len = strlen(dname) + 1 + strlen(text ? text : "") + 1;
		char *buf = malloc(len);
		if (!buf)
			return -1;
		snprintf(buf, len, "%s:%s", dname, text ? text : "");
		name = intern(m, buf);
		free(buf);
	} else {
		name = intern(m, text);
	}
	*r = (struct rec){.k1 = gtid >> 24,
			  .k2 = gtid & 0xFFFFFF,
			  .start = sqlite3_column_int64(st, 1),
			  .end = sqlite3_column_int64(st, 2),
			  .gpid = gtid & PROC_MASK,
			  .rowid = sqlite3_column_int64(st, 0),
			  .name = name,
			  .grp = 0,
			  .src = NSYS_TL_SRC_NVTX,
			  .kind = NSYS_TL_NVTX};
	return name == UINT32_MAX ? -1 : 0;
}

/* Domain rows: globalTid >> 24, domainId, textId, text; ctx: a struct
 * nvtx_ctx */
static int fill_dom(struct nsys_tl *m, sqlite3_stmt *st, struct rec *r, void *ctx)
{
	(void)r;
	struct nvtx_ctx *c = ctx;
	const char *text;
	if (nvtx_text(m, c->names, st, 2, &text))
		return -1;
	struct domain d = {sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
			   intern(m, text), c->doms.n};
	return d.name == UINT32_MAX || vec_push(c->doms, d, 1u << 20) ? -1 : 0;
}

static int load_nvtx(struct nsys_sql *s, struct nsys_tl *m, struct tl_names *tn, rec_vec *v,
		     struct err *e)
{
	static const char *const cols[] = {"start", "end", "eventType", "globalTid", NULL};
	if (need_cols(s, "NVTX_EVENTS", cols, e))
		return e ? e->code : ERR_FORMAT;
	bool textid = nsys_sql_has_column(s, "NVTX_EVENTS", "textId");
	bool text = nsys_sql_has_column(s, "NVTX_EVENTS", "text");
	bool domain = nsys_sql_has_column(s, "NVTX_EVENTS", "domainId");
	char tx[40], sql[600];
	snprintf(tx, sizeof tx, "%s, %s", textid ? "textId" : "NULL", text ? "text" : "''");
	struct nvtx_ctx c = {{0}, tn};
	rec_vec none = {0};
	int rc = textid ? nsys_sql_names_load(tn->ids, "SELECT textId FROM NVTX_EVENTS", e) : 0;
	if (!rc && domain) {
		snprintf(
		    sql, sizeof sql,
		    "SELECT globalTid >> 24, domainId, %s FROM NVTX_EVENTS WHERE eventType = 75",
		    tx);
		rc = scan(s, m, sql, &none, fill_dom, &c, e);
		gp_qsort(c.doms.v, c.doms.n, sizeof *c.doms.v, dom_cmp);
	}
	if (!rc) {
		snprintf(sql, sizeof sql,
			 "SELECT rowid, start, end, globalTid, %s, %s FROM NVTX_EVENTS "
			 "WHERE eventType IN (59, 60, 70, 71) AND end IS NOT NULL",
			 tx, domain ? "domainId" : "0");
		rc = scan(s, m, sql, v, fill_nvtx, &c, e);
	}
	vec_free(c.doms);
	vec_free(none);
	return rc;
}

static int load_gpu(struct nsys_sql *s, struct nsys_tl *m, struct tl_names *tn, rec_vec *v,
		    struct err *e)
{
	static const char *const tabs[] = {"CUPTI_ACTIVITY_KIND_KERNEL",
					   "CUPTI_ACTIVITY_KIND_MEMCPY",
					   "CUPTI_ACTIVITY_KIND_MEMSET"};
	static const uint8_t kinds[] = {NSYS_TL_KERNEL, NSYS_TL_MEMCPY, NSYS_TL_MEMSET};
	static const char *const cols[] = {"start",    "end",		"deviceId",  "contextId",
					   "streamId", "correlationId", "globalPid", NULL};
	for (int i = 0; i < 3; i++) {
		if (!nsys_sql_has_table(s, tabs[i]))
			continue;
		if (need_cols(s, tabs[i], cols, e))
			return e ? e->code : ERR_FORMAT;
		char name[300], join[200] = "";
		struct gpu_ctx g = {kinds[i], NULL};
		if (i == 0) {
			const char *col =
			    nsys_sql_has_column(s, tabs[0], "demangledName") ? "demangledName"
			    : nsys_sql_has_column(s, tabs[0], "shortName")   ? "shortName"
									     : NULL;
			snprintf(name, sizeof name, "%s%s", col ? "t." : "NULL", col ? col : "");
			char ids[200];
			snprintf(ids, sizeof ids, "SELECT %s FROM %s", col ? col : "NULL", tabs[0]);
			if (nsys_sql_names_load(tn->ids, ids, e))
				return e ? e->code : ERR_FORMAT;
			g.names = tn;
		} else if (i == 1) {
			bool ck = nsys_sql_has_column(s, tabs[1], "copyKind");
			bool labels = ck && nsys_sql_has_table(s, "ENUM_CUDA_MEMCPY_OPER");
			snprintf(name, sizeof name, "'[CUDA memcpy ' || %s || ']'",
				 labels ? "coalesce(o.label, 'kind ' || t.copyKind)"
				 : ck	? "'kind ' || t.copyKind"
					: "'kind ?'");
			if (labels)
				snprintf(join, sizeof join,
					 "LEFT JOIN ENUM_CUDA_MEMCPY_OPER o ON o.id = t.copyKind");
		} else {
			snprintf(name, sizeof name, "'[CUDA memset]'");
		}
		char sql[1000];
		snprintf(sql, sizeof sql,
			 "SELECT t.rowid, t.start, t.end, t.deviceId, t.contextId, t.streamId, "
			 "t.correlationId, t.globalPid, %s FROM %s t %s",
			 name, tabs[i], join);
		if (scan(s, m, sql, v, fill_gpu, &g, e))
			return e ? e->code : ERR_FORMAT;
	}
	return 0;
}

static int rec_cmp(const void *pa, const void *pb)
{
	const struct rec *a = pa, *b = pb;
#define CMP(x, y)                                                                                  \
	if ((x) != (y))                                                                            \
	return (x) < (y) ? -1 : 1
	CMP(a->grp, b->grp);
	CMP(a->k1, b->k1);
	CMP(a->k2, b->k2);
	CMP(a->k3, b->k3);
	CMP(a->src, b->src);
	CMP(a->start, b->start);
	CMP(b->end, a->end); /* longer first */
	CMP(a->kind, b->kind);
	CMP(a->rowid, b->rowid);
#undef CMP
	return 0;
}

static bool same_lane(const struct rec *a, const struct rec *b)
{
	return a->grp == b->grp && a->k1 == b->k1 && a->k2 == b->k2 && a->k3 == b->k3 &&
	       a->src == b->src;
}

/* Process (PROCESSES) and thread (ThreadNames) names of the thread lanes. */
static int name_lanes(struct nsys_sql *s, struct nsys_tl *m, struct err *e)
{
	static const char *const pcols[] = {"globalPid", "name", NULL};
	static const char *const tcols[] = {"globalTid", "nameId", NULL};
	bool procs = nsys_sql_has_table(s, "PROCESSES") && !need_cols(s, "PROCESSES", pcols, NULL);
	bool threads =
	    nsys_sql_has_table(s, "ThreadNames") && !need_cols(s, "ThreadNames", tcols, NULL);
	sqlite3_stmt *ps = NULL, *ts = NULL;
	if ((procs &&
	     sqlite3_prepare_v2(s->db, "SELECT name FROM PROCESSES WHERE globalPid = ? LIMIT 1", -1,
				&ps, NULL)) ||
	    (threads && sqlite3_prepare_v2(
			    s->db,
			    "SELECT n.value FROM ThreadNames t JOIN StringIds n ON n.id = t.nameId "
			    "WHERE t.globalTid = ? LIMIT 1",
			    -1, &ts, NULL))) {
		sqlite3_finalize(ps);
		return nsys_sql_fail(s, e);
	}
	int rc = 0;
	for (size_t i = 0; i < m->nlanes && !rc; i++) {
		struct nsys_tl_lane *l = &m->lanes[i];
		l->process = l->thread = "";
		if (l->source != NSYS_TL_SRC_NVTX && l->source != NSYS_TL_SRC_API)
			continue;
		int64_t gpid = m->gpid[l->first], gtid = gpid | l->tid;
		for (int k = 0; k < 2; k++) {
			sqlite3_stmt *st = k ? ts : ps;
			if (!st)
				continue;
			sqlite3_reset(st);
			sqlite3_bind_int64(st, 1, k ? gtid : gpid);
			const char *v = sqlite3_step(st) == SQLITE_ROW
					    ? (const char *)sqlite3_column_text(st, 0)
					    : NULL;
			char *c = v ? arena_strndup(&m->arena, v, strlen(v)) : NULL;
			if (v && !c)
				rc = err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
			else if (c)
				*(k ? &l->thread : &l->process) = c;
		}
	}
	sqlite3_finalize(ps);
	sqlite3_finalize(ts);
	return rc;
}

void nsys_tl_free(struct nsys_tl *m)
{
	if (!m)
		return;
	free(m->start);
	free(m->end);
	free(m->corr);
	free(m->gpid);
	free(m->name);
	free(m->kind);
	free(m->lane);
	free(m->lanes);
	strpool_free(&m->names);
	arena_free(&m->arena);
	free(m);
}

/* The sorted records into m's arrays and lanes. */
static int split(struct nsys_tl *m, const struct rec *r, size_t n)
{
	size_t k = n ? n : 1;
	m->start = malloc(k * sizeof *m->start);
	m->end = malloc(k * sizeof *m->end);
	m->corr = malloc(k * sizeof *m->corr);
	m->gpid = malloc(k * sizeof *m->gpid);
	m->name = malloc(k * sizeof *m->name);
	m->kind = malloc(k);
	m->lane = malloc(k * sizeof *m->lane);
	size_t nl = 0;
	for (size_t i = 0; i < n; i++)
		nl += !i || !same_lane(&r[i - 1], &r[i]);
	m->lanes = calloc(nl ? nl : 1, sizeof *m->lanes);
	if (!m->start || !m->end || !m->corr || !m->gpid || !m->name || !m->kind || !m->lane ||
	    !m->lanes)
		return -1;
	m->n = n;
	m->t0 = n ? INT64_MAX : 0;
	m->t1 = n ? INT64_MIN : 0;
	for (size_t i = 0; i < n; i++) {
		if (!i || !same_lane(&r[i - 1], &r[i])) {
			struct nsys_tl_lane *l = &m->lanes[m->nlanes++];
			l->source = (enum nsys_tl_source)r[i].src;
			l->first = i;
			if (r[i].grp == 0) {
				l->pid = r[i].k1 & 0xFFFFFF;
				l->tid = r[i].k2;
			} else {
				l->device = r[i].k1;
				l->context = r[i].k2;
				l->stream = r[i].k3;
			}
		}
		m->lanes[m->nlanes - 1].n++;
		m->start[i] = r[i].start;
		m->end[i] = r[i].end;
		m->corr[i] = r[i].corr;
		m->gpid[i] = r[i].gpid;
		m->name[i] = r[i].name;
		m->kind[i] = r[i].kind;
		m->lane[i] = (uint32_t)(m->nlanes - 1);
		m->t0 = r[i].start < m->t0 ? r[i].start : m->t0;
		int64_t end = r[i].end > r[i].start ? r[i].end : r[i].start;
		m->t1 = end > m->t1 ? end : m->t1;
	}
	return 0;
}

int nsys_sql_timeline(struct nsys_sql *s, struct nsys_tl **out, struct err *e)
{
	*out = NULL;
	struct nsys_tl *m = calloc(1, sizeof *m);
	if (!m)
		return err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
	arena_init(&m->arena);
	if (strpool_init(&m->names, &m->arena)) {
		arena_free(&m->arena);
		free(m);
		return err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
	}
	rec_vec v = {0};
	struct tl_names tn = {nsys_sql_names_new(s, &m->arena), NULL, 0};
	int rc = tn.ids ? 0 : err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
	static const char *const api_cols[] = {"start",		"end",	  "globalTid",
					       "correlationId", "nameId", NULL};
	if (!rc && nsys_sql_has_table(s, "CUPTI_ACTIVITY_KIND_RUNTIME")) {
		rc = need_cols(s, "CUPTI_ACTIVITY_KIND_RUNTIME", api_cols, e) ||
		     nsys_sql_names_load(tn.ids, "SELECT nameId FROM CUPTI_ACTIVITY_KIND_RUNTIME",
					 e) ||
		     scan(s, m,
			  "SELECT rowid, start, end, globalTid, correlationId, nameId "
			  "FROM CUPTI_ACTIVITY_KIND_RUNTIME",
			  &v, fill_api, &tn, e);
	}
	if (!rc && nsys_sql_has_table(s, "NVTX_EVENTS"))
		rc = load_nvtx(s, m, &tn, &v, e);
	if (!rc)
		rc = load_gpu(s, m, &tn, &v, e);
	nsys_sql_names_free(tn.ids);
	free(tn.map);
	if (!rc && v.n)
		gp_qsort(v.v, v.n, sizeof *v.v, rec_cmp);
	if (!rc && split(m, v.v, v.n))
		rc = err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
	vec_free(v);
	if (!rc)
		rc = name_lanes(s, m, e);
	if (rc) {
		nsys_tl_free(m);
		return e ? e->code : rc;
	}
	*out = m;
	return 0;
}
