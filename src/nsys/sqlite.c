/* sqlite: summaries read straight from `nsys export --type sqlite` files.
 *
 * The export is opened read-only and immutable (file:PATH?immutable=1 with
 * SQLITE_OPEN_URI | SQLITE_OPEN_READONLY), so nothing is ever written beside
 * it, not even a journal. Tables are created lazily by Nsight (no kernels
 * captured = no KERNEL table), so every query checks sqlite_master first, and
 * column differences between releases (kernel name columns, NVTX text vs
 * textId) are resolved with PRAGMA table_info rather than by version number
 * (nsys.md 4). Values are untrusted: nsys_sql_int checks the type of each
 * integer read and nsys_sql_span the duration end - start, with messages
 * that name the table and the rowid. The summaries are in sqlite_sum.c.
 */
#include <fcntl.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/vec.h"
#include "io/sniff.h"
#include "nsys/nsys.h"
#include "nsys/sqlite_int.h"

/* SQLite's unix VFS resolves symbolic links and opens with O_NOFOLLOW, so
 * it cannot open a descriptor's /proc/self/fd link, the only way to an
 * upload that has no name: such a file is mapped read-only and read as an
 * in-memory database that SQLite never writes (sqlite3_deserialize with
 * SQLITE_DESERIALIZE_READONLY). */
/* s->db as a read-only in-memory database over the n bytes at data (owned
 * by SQLite afterwards with SQLITE_DESERIALIZE_FREEONCLOSE in flags). */
static int sql_deserialize(struct nsys_sql *s, void *data, size_t n, unsigned flags)
{
	int rc = sqlite3_open_v2(":memory:", &s->db, SQLITE_OPEN_READWRITE, NULL);
	if (rc && (flags & SQLITE_DESERIALIZE_FREEONCLOSE))
		sqlite3_free(data); /* as sqlite3_deserialize does when it fails */
	return rc ? rc
		  : sqlite3_deserialize(s->db, "main", data, (sqlite3_int64)n, (sqlite3_int64)n,
					flags | SQLITE_DESERIALIZE_READONLY);
}

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
	if (sql_deserialize(s, m, s->map_len, 0) != SQLITE_OK)
		return err_set(e, ERR_FORMAT, path, -1, "cannot open SQLite file: %s",
			       s->db ? sqlite3_errmsg(s->db) : "out of memory");
	return 0;
}

static int sql_check(struct nsys_sql *s, struct nsys_sql **out, struct err *e);

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
		return sql_check(s, out, e);
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
	return sql_check(s, out, e);
}

int nsys_sql_open_mem(const void *data, size_t n, const char *name, struct nsys_sql **out,
		      struct err *e)
{
	*out = NULL;
	if (!sniff_sqlite(data, n))
		return err_set(
		    e, ERR_FORMAT, name, -1,
		    "not a SQLite file (expected an `nsys export --type sqlite` export)");
	struct nsys_sql *s = calloc(1, sizeof *s);
	unsigned char *copy = sqlite3_malloc64(n);
	if (!s || !copy) {
		sqlite3_free(copy);
		nsys_sql_close(s);
		return err_set(e, ERR_NOMEM, name, -1, "out of memory");
	}
	s->path = name;
	memcpy(copy, data, n);
	if (sql_deserialize(s, copy, n, SQLITE_DESERIALIZE_FREEONCLOSE)) {
		nsys_sql_close(s);
		return err_set(e, ERR_FORMAT, name, -1, "not a readable SQLite database");
	}
	return sql_check(s, out, e);
}

/* The checks every open export passes: readable, and the tables of an
 * `nsys export`; s is closed when they fail. */
static int sql_check(struct nsys_sql *s, struct nsys_sql **out, struct err *e)
{
	const char *path = s->path;
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

int nsys_sql_need(struct nsys_sql *s, const char *table, const char *what, struct err *e)
{
	if (nsys_sql_has_table(s, table))
		return 0;
	return err_set(e, ERR_FORMAT, s->path, -1, "the export has no %s table: %s", table, what);
}

int nsys_sql_absent(struct nsys_sql_table *out, const char *note)
{
	memset(out, 0, sizeof *out);
	out->absent = note;
	return 0;
}

int nsys_sql_int(struct nsys_sql *s, sqlite3_stmt *st, int col, const struct nsys_sql_at *at,
		 const char *name, int64_t *v, struct err *e)
{
	static const char *const types[] = {"?", "an integer", "a real", "text", "a blob", "NULL"};
	int t = sqlite3_column_type(st, col);
	if (t == SQLITE_INTEGER) {
		*v = sqlite3_column_int64(st, col);
		return 0;
	}
	return nsys_sql_row_fail(s, at, e, "%s: expected an integer, found %s", name,
				 t >= 1 && t <= 5 ? types[t] : types[0]);
}

int nsys_sql_row_fail(struct nsys_sql *s, const struct nsys_sql_at *at, struct err *e,
		      const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return err_set(e, ERR_FORMAT, s->path, -1, "%s row %lld: %s", at->table,
		       (long long)at->rowid, msg);
}

int nsys_sql_span(struct nsys_sql *s, sqlite3_stmt *st, int col, const struct nsys_sql_at *at,
		  int64_t *start, int64_t *end, int64_t *dur, struct err *e)
{
	if (nsys_sql_int(s, st, col, at, "start", start, e) ||
	    nsys_sql_int(s, st, col + 1, at, "end", end, e))
		return e ? e->code : ERR_FORMAT;
	if (!nsys_sub(*end, *start, dur))
		return nsys_sql_row_fail(s, at, e,
					 "end - start does not fit 64 bits (start %lld, end %lld; "
					 "expected a duration within +-2^63 ns)",
					 (long long)*start, (long long)*end);
	return 0;
}
