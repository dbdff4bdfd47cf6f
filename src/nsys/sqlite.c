/* sqlite: summaries read straight from `nsys export --type sqlite` files.
 *
 * The export is opened read-only and immutable (file:PATH?immutable=1 with
 * SQLITE_OPEN_URI | SQLITE_OPEN_READONLY), so nothing is ever written beside
 * it, not even a journal. Tables are created lazily by Nsight (no kernels
 * captured = no KERNEL table), so every query checks sqlite_master first, and
 * column differences between releases (kernel name columns, NVTX text vs
 * textId) are resolved with PRAGMA table_info rather than by version number
 * (nsys.md 4). SQL does the joins and the sorting; the statistics (median,
 * sample standard deviation) are computed here because SQLite has no median.
 * Names are copied into the caller's arena.
 */
#include <fcntl.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cmp.h"
#include "core/sort.h"
#include "core/vec.h"
#include "io/sniff.h"
#include "nsys/nsys.h"
#include "nsys/sqlite_int.h"

/* SQLite's unix VFS resolves symbolic links and opens with O_NOFOLLOW, so
 * it cannot open a descriptor's /proc/self/fd link, the only way to an
 * upload that has no name: such a file is mapped read-only and read as an
 * in-memory database that SQLite never writes (sqlite3_deserialize with
 * SQLITE_DESERIALIZE_READONLY). */
static int sql_open_mapped(struct nsys_sql *s, const char *path, struct err *e)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) || st.st_size <= 0 ||
	    st.st_size != (off_t)(size_t)st.st_size) {
		if (fd >= 0)
			close(fd);
		return err_set(e, ERR_IO, path, -1, "cannot read the SQLite file");
	}
	void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return err_set(e, ERR_IO, path, -1, "cannot map the SQLite file");
	s->map = m;
	s->map_len = (size_t)st.st_size;
	if (sqlite3_open_v2(":memory:", &s->db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
	    sqlite3_deserialize(s->db, "main", m, st.st_size, st.st_size,
				SQLITE_DESERIALIZE_READONLY) != SQLITE_OK)
		return err_set(e, ERR_FORMAT, path, -1, "cannot open SQLite file: %s",
			       s->db ? sqlite3_errmsg(s->db) : "out of memory");
	return 0;
}

static int sql_check(struct nsys_sql *s, const char *path, struct nsys_sql **out, struct err *e);

int nsys_sql_open(const char *path, struct nsys_sql **out, struct err *e)
{
	*out = NULL;
	FILE *f = fopen(path, "rb");
	if (!f)
		return err_set(e, ERR_IO, path, -1, "cannot open");
	unsigned char head[64];
	size_t n = fread(head, 1, sizeof head, f);
	fclose(f);
	if (sniff_nsys_rep(head, n))
		return err_set(e, ERR_FORMAT, path, -1,
			       "an .nsys-rep report cannot be read directly; export it first: "
			       "nsys export --type sqlite -o FILE.sqlite %s",
			       path);
	if (!sniff_sqlite(head, n))
		return err_set(
		    e, ERR_FORMAT, path, -1,
		    "not a SQLite file (expected an `nsys export --type sqlite` export)");
	struct nsys_sql *s = calloc(1, sizeof *s);
	if (!s)
		return err_set(e, ERR_NOMEM, path, -1, "out of memory");
	s->path = path;
	if (!strncmp(path, "/proc/self/fd/", 14)) {
		if (sql_open_mapped(s, path, e)) {
			nsys_sql_close(s);
			return e ? e->code : ERR_FORMAT;
		}
		return sql_check(s, path, out, e);
	}
	/* percent-encode the path for the URI: '?', '#' and '%' are special */
	VEC(char) uri = {0};
	const char *pre = "file:";
	int rc = 0;
	for (const char *p = pre; *p && !rc; p++)
		rc = vec_push(uri, *p, 1u << 16);
	for (const char *p = path; *p && !rc; p++) {
		if (*p == '?' || *p == '#' || *p == '%') {
			char hex[4];
			snprintf(hex, sizeof hex, "%%%02X", (unsigned char)*p);
			for (int i = 0; i < 3 && !rc; i++)
				rc = vec_push(uri, hex[i], 1u << 16);
		} else {
			rc = vec_push(uri, *p, 1u << 16);
		}
	}
	const char *suffix = "?immutable=1";
	for (const char *p = suffix; *p && !rc; p++)
		rc = vec_push(uri, *p, 1u << 16);
	if (!rc)
		rc = vec_push(uri, '\0', 1u << 16);
	if (rc) {
		vec_free(uri);
		free(s);
		return err_set(e, ERR_LIMIT, path, -1, "path too long");
	}
	int src = sqlite3_open_v2(uri.v, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	vec_free(uri);
	if (src != SQLITE_OK) {
		err_set(e, ERR_FORMAT, path, -1, "cannot open SQLite file: %s",
			s->db ? sqlite3_errmsg(s->db) : "out of memory");
		nsys_sql_close(s);
		return e ? e->code : ERR_FORMAT;
	}
	return sql_check(s, path, out, e);
}

/* The first read and the schema check of an open export s. */
static int sql_check(struct nsys_sql *s, const char *path, struct nsys_sql **out, struct err *e)
{
	/* a corrupt file fails here, on the first read */
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) ||
	    sqlite3_step(st) != SQLITE_ROW) {
		err_set(e, ERR_FORMAT, path, -1, "not a readable SQLite database: %s",
			sqlite3_errmsg(s->db));
		sqlite3_finalize(st);
		nsys_sql_close(s);
		return e ? e->code : ERR_FORMAT;
	}
	sqlite3_finalize(st);
	if (!nsys_sql_has_table(s, "StringIds") || (!nsys_sql_has_table(s, "META_DATA_EXPORT") &&
						    !nsys_sql_has_table(s, "EXPORT_META_DATA"))) {
		nsys_sql_close(s);
		return err_set(e, ERR_FORMAT, path, -1,
			       "unknown schema: no StringIds and META_DATA_EXPORT/EXPORT_META_DATA "
			       "tables; not an `nsys export --type sqlite` file");
	}
	*out = s;
	return 0;
}

void nsys_sql_close(struct nsys_sql *s)
{
	if (!s)
		return;
	sqlite3_close(s->db);
	if (s->map)
		munmap(s->map, s->map_len);
	free(s);
}

bool nsys_sql_has_table(struct nsys_sql *s, const char *table)
{
	sqlite3_stmt *st;
	bool found = false;
	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?",
			       -1, &st, NULL))
		return false;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

bool nsys_sql_has_column(struct nsys_sql *s, const char *table, const char *col)
{
	char sql[200];
	snprintf(sql, sizeof sql, "SELECT 1 FROM pragma_table_info('%s') WHERE name=?", table);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL))
		return false;
	sqlite3_bind_text(st, 1, col, -1, SQLITE_STATIC);
	bool found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

int64_t nsys_sql_count(struct nsys_sql *s, const char *table)
{
	if (!nsys_sql_has_table(s, table))
		return -1;
	char sql[200];
	snprintf(sql, sizeof sql, "SELECT count(*) FROM \"%s\"", table);
	sqlite3_stmt *st;
	int64_t n = -1;
	if (!sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

const char *nsys_sql_version(struct nsys_sql *s, struct arena *a)
{
	static const char *const q[] = {
	    "SELECT value FROM META_DATA_EXPORT WHERE name='EXPORT_PRODUCT_VERSION'",
	    "SELECT value FROM EXPORT_META_DATA WHERE name='EXPORT_PRODUCT_VERSION'"};
	for (int i = 0; i < 2; i++) {
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(s->db, q[i], -1, &st, NULL))
			continue;
		const char *v = NULL;
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)) {
			const char *t = (const char *)sqlite3_column_text(st, 0);
			v = arena_strndup(a, t, strlen(t));
		}
		sqlite3_finalize(st);
		if (v)
			return v;
	}
	return NULL;
}

int nsys_sql_fail(struct nsys_sql *s, struct err *e)
{
	return err_set(e, ERR_FORMAT, s->path, -1, "SQLite query failed: %s",
		       sqlite3_errmsg(s->db));
}

/* ---- grouped duration summaries ---- */

static int row_by_total(const void *a, const void *b)
{
	const struct nsys_sql_row *x = a, *y = b;
	if (x->total_ns != y->total_ns)
		return x->total_ns < y->total_ns ? 1 : -1;
	int c = strcmp(x->group ? x->group : "", y->group ? y->group : "");
	return c ? c : strcmp(x->name, y->name);
}

void nsys_sql_fill_stats(struct nsys_sql_row *r, int64_t *durs, size_t n)
{
	gp_qsort(durs, n, sizeof *durs, cmp_i64);
	r->instances = (int64_t)n;
	r->total_ns = 0;
	for (size_t i = 0; i < n; i++)
		r->total_ns += durs[i];
	r->min_ns = n ? durs[0] : 0;
	r->max_ns = n ? durs[n - 1] : 0;
	r->avg_ns = n ? (double)r->total_ns / (double)n : 0;
	bool is_int;
	r->med_ns = n ? nsys_median(durs, n, &is_int) : 0;
	r->stddev_ns = nsys_stddev(durs, n);
}

/* Runs sql whose rows are (name TEXT, group TEXT|NULL, duration INT, bytes
 * INT), ordered by group and name, and makes one row per (group, name),
 * sorted by total time (largest first), with pct = share of the total. */
int nsys_sql_summarize(struct nsys_sql *s, struct arena *a, const char *sql,
		       struct nsys_sql_table *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL))
		return nsys_sql_fail(s, e);
	VEC(struct nsys_sql_row) rows = {0};
	VEC(int64_t) durs = {0};
	struct nsys_sql_row cur = {0};
	bool open = false;
	int rc = 0, step;
	while ((step = sqlite3_step(st)) == SQLITE_ROW || open) {
		const char *name = NULL, *group = NULL;
		if (step == SQLITE_ROW) {
			name = (const char *)sqlite3_column_text(st, 0);
			group = (const char *)sqlite3_column_text(st, 1);
			if (!name)
				name = "";
		}
		bool same = open && step == SQLITE_ROW && !strcmp(cur.name, name) &&
			    !strcmp(cur.group ? cur.group : "", group ? group : "");
		if (open && !same) {
			nsys_sql_fill_stats(&cur, durs.v, durs.n);
			if (vec_push(rows, cur, 1u << 28)) {
				rc = err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
				break;
			}
			open = false;
			durs.n = 0;
		}
		if (step != SQLITE_ROW)
			break;
		if (!open) {
			memset(&cur, 0, sizeof cur);
			cur.name = arena_strndup(a, name, strlen(name));
			cur.group = group ? arena_strndup(a, group, strlen(group)) : NULL;
			if (!cur.name) {
				rc = err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
				break;
			}
			open = true;
		}
		if (vec_push(durs, sqlite3_column_int64(st, 2), 1ull << 32)) {
			rc = err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
			break;
		}
		cur.bytes += sqlite3_column_int64(st, 3);
	}
	if (!rc && step != SQLITE_DONE && step != SQLITE_ROW)
		rc = nsys_sql_fail(s, e);
	sqlite3_finalize(st);
	vec_free(durs);
	if (rc) {
		vec_free(rows);
		return rc;
	}
	int64_t all = 0;
	for (size_t i = 0; i < rows.n; i++)
		all += rows.v[i].total_ns;
	for (size_t i = 0; i < rows.n; i++)
		rows.v[i].pct = all ? 100.0 * (double)rows.v[i].total_ns / (double)all : 0;
	if (rows.n)
		gp_qsort(rows.v, rows.n, sizeof *rows.v, row_by_total);
	out->v = arena_array(a, rows.n ? rows.n : 1, sizeof *out->v);
	if (!out->v) {
		vec_free(rows);
		return err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
	}
	if (rows.n)
		memcpy(out->v, rows.v, rows.n * sizeof *rows.v);
	out->n = rows.n;
	vec_free(rows);
	return 0;
}

int nsys_sql_need(struct nsys_sql *s, const char *table, const char *what, struct err *e)
{
	if (nsys_sql_has_table(s, table))
		return 0;
	return err_set(e, ERR_FORMAT, s->path, -1, "the export has no %s table: %s", table, what);
}

int nsys_sql_kernels(struct nsys_sql *s, struct arena *a, struct nsys_sql_table *out, struct err *e)
{
	if (nsys_sql_need(s, "CUPTI_ACTIVITY_KIND_KERNEL", "no CUDA kernels were captured", e))
		return e ? e->code : ERR_FORMAT;
	/* cuda_gpu_kern_sum names kernels by their demangled name by default */
	const char *col = nsys_sql_has_column(s, "CUPTI_ACTIVITY_KIND_KERNEL", "demangledName")
			      ? "demangledName"
			      : "shortName";
	char sql[400];
	snprintf(sql, sizeof sql,
		 "SELECT coalesce(n.value, '<unknown>') AS nm, NULL, k.end - k.start, 0 "
		 "FROM CUPTI_ACTIVITY_KIND_KERNEL k LEFT JOIN StringIds n ON n.id = k.%s "
		 "ORDER BY nm",
		 col);
	return nsys_sql_summarize(s, a, sql, out, e);
}

int nsys_sql_memcpy(struct nsys_sql *s, struct arena *a, struct nsys_sql_table *out, struct err *e)
{
	bool cp = nsys_sql_has_table(s, "CUPTI_ACTIVITY_KIND_MEMCPY");
	bool set = nsys_sql_has_table(s, "CUPTI_ACTIVITY_KIND_MEMSET");
	if (!cp && !set)
		return err_set(e, ERR_FORMAT, s->path, -1,
			       "the export has no CUPTI_ACTIVITY_KIND_MEMCPY or _MEMSET table: no "
			       "CUDA memory operations were captured");
	bool labels = nsys_sql_has_table(s, "ENUM_CUDA_MEMCPY_OPER");
	char sql[900];
	snprintf(sql, sizeof sql, "SELECT nm, NULL, dur, bytes FROM (%s%s%s) ORDER BY nm",
		 cp ? (labels
			   ? "SELECT '[CUDA memcpy ' || coalesce(o.label, 'kind ' || m.copyKind) "
			     "|| ']' AS nm, m.end - m.start AS dur, m.bytes AS bytes "
			     "FROM CUPTI_ACTIVITY_KIND_MEMCPY m "
			     "LEFT JOIN ENUM_CUDA_MEMCPY_OPER o ON o.id = m.copyKind"
			   : "SELECT '[CUDA memcpy kind ' || m.copyKind || ']' AS nm, "
			     "m.end - m.start AS dur, m.bytes AS bytes "
			     "FROM CUPTI_ACTIVITY_KIND_MEMCPY m")
		    : "",
		 cp && set ? " UNION ALL " : "",
		 set ? "SELECT '[CUDA memset]' AS nm, end - start AS dur, bytes AS bytes "
		       "FROM CUPTI_ACTIVITY_KIND_MEMSET"
		     : "");
	return nsys_sql_summarize(s, a, sql, out, e);
}

int nsys_sql_api(struct nsys_sql *s, struct arena *a, struct nsys_sql_table *out, struct err *e)
{
	if (nsys_sql_need(s, "CUPTI_ACTIVITY_KIND_RUNTIME", "no CUDA API calls were captured", e))
		return e ? e->code : ERR_FORMAT;
	return nsys_sql_summarize(
	    s, a,
	    "SELECT coalesce(n.value, '<unknown>') AS nm, NULL, r.end - r.start, 0 "
	    "FROM CUPTI_ACTIVITY_KIND_RUNTIME r LEFT JOIN StringIds n ON n.id = r.nameId "
	    "ORDER BY nm",
	    out, e);
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
				 "SELECT deviceId AS d, streamId AS sm, '%s' AS kind, end - start "
				 "AS dur, "
				 "%s AS bytes FROM %s",
				 kinds[i], i ? "bytes" : "0", tabs[i]);
	if (!np)
		return err_set(
		    e, ERR_FORMAT, s->path, -1,
		    "the export has no CUPTI kernel, memcpy or memset table: no GPU work "
		    "was captured");
	char u[1000] = "";
	for (int i = 0; i < np; i++) {
		size_t l = strlen(u);
		snprintf(u + l, sizeof u - l, "%s%s", i ? " UNION ALL " : "", parts[i]);
	}
	/* rows per (GPU, kind), then per (GPU, stream, kind): group = "GPU n" or
	 * "GPU n stream m" so one summarizer covers both levels */
	char sql[2400];
	snprintf(
	    sql, sizeof sql,
	    "SELECT kind, g, dur, bytes FROM ("
	    "SELECT kind, 'GPU ' || d AS g, dur, bytes FROM (%s) "
	    "UNION ALL SELECT kind, 'GPU ' || d || ' stream ' || sm AS g, dur, bytes FROM (%s)) "
	    "ORDER BY g, kind",
	    u, u);
	return nsys_sql_summarize(s, a, sql, out, e);
}
