/* sqlite_int: what the SQLite-export files of src/nsys share; not for use
 * outside src/nsys. */
#ifndef GP_NSYS_SQLITE_INT_H
#define GP_NSYS_SQLITE_INT_H

#include <sqlite3.h>

#include "nsys/nsys.h"

struct nsys_sql {
	sqlite3 *db;
	const char *path;
	void *map; /* the file's bytes, mapped, when opened through a descriptor */
	size_t map_len;
};

bool nsys_sql_has_column(struct nsys_sql *s, const char *table, const char *col);
/* "SQLite query failed: <sqlite message>" */
int nsys_sql_fail(struct nsys_sql *s, struct err *e);
/* Fails with "the export has no TABLE table: what" when table is absent. */
int nsys_sql_need(struct nsys_sql *s, const char *table, const char *what, struct err *e);
/* A table view whose table is absent: out empty, out->absent = note (a
 * static sentence); returns 0. */
int nsys_sql_absent(struct nsys_sql_table *out, const char *note);
/* Where a value was read, for messages: "PATH: TABLE row ROWID: ...". */
struct nsys_sql_at {
	const char *table;
	int64_t rowid;
};
/* Column col of st into *v, failing (naming the column name) unless it
 * holds an integer. */
int nsys_sql_int(struct nsys_sql *s, sqlite3_stmt *st, int col, const struct nsys_sql_at *at,
		 const char *name, int64_t *v, struct err *e);
/* Columns col (start) and col + 1 (end) and the checked end - start. */
int nsys_sql_span(struct nsys_sql *s, sqlite3_stmt *st, int col, const struct nsys_sql_at *at,
		  int64_t *start, int64_t *end, int64_t *dur, struct err *e);
/* Fails with "TABLE row ROWID: MSG". */
int nsys_sql_row_fail(struct nsys_sql *s, const struct nsys_sql_at *at, struct err *e,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Fills the statistics of r from durs[0..n) (sorted in place); fails when
 * the total does not fit 64 bits, naming at (the row being added). */
int nsys_sql_fill_stats(struct nsys_sql *s, const struct nsys_sql_at *at, struct nsys_sql_row *r,
			int64_t *durs, size_t n, struct err *e);
/* Runs sql, whose rows are (0 name: TEXT, or the INTEGER StringIds id of
 * the name when ids is not NULL; 1 group TEXT or NULL; 2 start; 3 end;
 * 4 bytes; 5 the index in tables[0..ntables) of the table the row comes
 * from; 6 its rowid), and makes one row per (group, name), sorted by total
 * time (largest first), with pct = share of the total. ids: SQL selecting
 * the StringIds ids the rows use (their names are read once each). */
int nsys_sql_summarize(struct nsys_sql *s, struct arena *a, const char *sql, const char *ids,
		       const char *const *tables, size_t ntables, struct nsys_sql_table *out,
		       struct err *e);
/* StringIds names read once per id and interned (see sqlite_sum.c). */
struct nsys_sql_names;
struct nsys_sql_names *nsys_sql_names_new(struct nsys_sql *s, struct arena *a);
void nsys_sql_names_free(struct nsys_sql_names *n);
/* Reads the names of the ids the SQL ids (one column) yields. */
int nsys_sql_names_load(struct nsys_sql_names *n, const char *ids, struct err *e);
/* The pool id of the name of the StringIds id in column col, or
 * NSYS_SQL_NO_NAME (NULL, another type, an id without a name). */
#define NSYS_SQL_NO_NAME (UINT32_MAX - 1)
uint32_t nsys_sql_name_id(struct nsys_sql_names *n, sqlite3_stmt *st, int col);
/* The pool id of text (interned), UINT32_MAX when out of memory. */
uint32_t nsys_sql_text_id(struct nsys_sql_names *n, const char *text, size_t len);
/* The string of a pool id. */
const char *nsys_sql_name_full(const struct nsys_sql_names *n, uint32_t id);

#endif
