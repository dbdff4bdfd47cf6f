/* sqlite_absent: the WebAssembly build has no SQLite (Debian ships no
 * source of it to compile, and emscripten's port would be downloaded).
 * These are the calls of sqlite3.h that src/nsys/ makes; opening fails
 * with the one message below, so no other call is ever reached on a
 * database, and each answers "error" if it were. */
#include <sqlite3.h>
#include <stdlib.h>

struct sqlite3 {
	int unused;
};

static struct sqlite3 absent;

static const char why[] = "SQLite is not part of the WebAssembly build of gpuprof; "
			  "read Nsight Systems exports with the native gpuprof";

int sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs)
{
	*db = &absent;
	return SQLITE_CANTOPEN;
}

int sqlite3_deserialize(sqlite3 *db, const char *schema, unsigned char *data, sqlite3_int64 sz,
			sqlite3_int64 cap, unsigned flags)
{
	if (flags & SQLITE_DESERIALIZE_FREEONCLOSE)
		free(data);
	return SQLITE_CANTOPEN;
}

const char *sqlite3_errmsg(sqlite3 *db)
{
	return why;
}

int sqlite3_close(sqlite3 *db)
{
	return SQLITE_OK;
}

void *sqlite3_malloc64(sqlite3_uint64 n)
{
	return malloc((size_t)n);
}

void sqlite3_free(void *p)
{
	free(p);
}

int sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n, sqlite3_stmt **st, const char **tail)
{
	*st = NULL;
	return SQLITE_CANTOPEN;
}

int sqlite3_step(sqlite3_stmt *st)
{
	return SQLITE_MISUSE;
}

int sqlite3_reset(sqlite3_stmt *st)
{
	return SQLITE_MISUSE;
}

int sqlite3_finalize(sqlite3_stmt *st)
{
	return SQLITE_OK;
}

int sqlite3_bind_text(sqlite3_stmt *st, int i, const char *v, int n, void (*del)(void *))
{
	return SQLITE_MISUSE;
}

int sqlite3_bind_int64(sqlite3_stmt *st, int i, sqlite3_int64 v)
{
	return SQLITE_MISUSE;
}

int sqlite3_column_type(sqlite3_stmt *st, int col)
{
	return SQLITE_NULL;
}

int sqlite3_column_int(sqlite3_stmt *st, int col)
{
	return 0;
}

sqlite3_int64 sqlite3_column_int64(sqlite3_stmt *st, int col)
{
	return 0;
}

const unsigned char *sqlite3_column_text(sqlite3_stmt *st, int col)
{
	return NULL;
}
