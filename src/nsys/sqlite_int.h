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
void nsys_sql_fill_stats(struct nsys_sql_row *r, int64_t *durs, size_t n);
int nsys_sql_summarize(struct nsys_sql *s, struct arena *a, const char *sql,
		       struct nsys_sql_table *out, struct err *e);

#endif
