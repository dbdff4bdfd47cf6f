/* report/internal.h: PRIVATE to src/report; nothing outside it includes this.
 *
 * The report struct, the interface each output format implements (a sink:
 * report_text.c, report_csv.c, report_json.c), a capped growable byte buffer
 * and the number formatting the sinks share. report.c checks the call order
 * and copies the current block's name, title and columns before a sink sees
 * them, so sinks may keep those pointers until the block ends.
 */
#ifndef GP_REPORT_INTERNAL_H
#define GP_REPORT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/vec.h"
#include "report/report.h"

#define REP_MAX_BUF ((size_t)1 << 31)	/* bytes one buffered table may hold */
#define REP_MAX_COLS 4096		/* columns of one table */
#define REP_MAX_CELLS ((size_t)1 << 28) /* buffered cells of one text table */

/* A growable byte buffer; p is NUL-terminated after every successful call. */
struct rep_buf {
	char *p;
	size_t n, cap;
};

enum rep_block { REP_BLK_NONE, REP_BLK_TABLE, REP_BLK_KV };

/* The report's own copy of a struct rep_col. */
struct rep_ocol {
	char *key;
	char *title; /* never NULL: the key when no title was given */
	enum rep_type type;
};

struct report;

/* One output format. Each function returns 0 or -1 (allocation failed). */
struct rep_sink {
	int (*table_begin)(struct report *r);
	int (*row)(struct report *r, const struct rep_val *vals);
	int (*table_end)(struct report *r);
	int (*kv_begin)(struct report *r);
	int (*kv)(struct report *r, const char *key, const char *title, enum rep_type type,
		  struct rep_val v);
	int (*kv_end)(struct report *r);
	int (*close)(struct report *r); /* writes the document's tail */
};

struct report {
	FILE *out;
	enum rep_format fmt;
	const struct rep_sink *sink;
	bool failed;	    /* an allocation failed: the output is incomplete */
	enum rep_block blk; /* the block now open */
	int nblocks;	    /* blocks begun so far, the open one included */
	/* The open block (copies owned by the report). */
	char *name;
	char *title;	       /* NULL: no title line */
	struct rep_ocol *cols; /* table only */
	int ncols;
	size_t nrows;	     /* rows (table) or entries (section) so far */
	struct rep_buf line; /* scratch for one line or value */
	/* Text: the cells of the open block, NUL-separated, and their offsets. */
	struct rep_buf cells;
	VEC(size_t) offs;
	/* CSV: the first block is held until a second one shows whether the
	 * "# name" lines are needed. */
	bool holding;
	char *first_name;
	struct rep_buf held;
	/* rep_only: the block to keep (owned), and whether the open block is
	 * one dropped. */
	char *only;
	bool skip;
	/* rep_open_names: the names of the blocks begun (owned). */
	bool names_only;
	VEC(char *) names;
	/* JSON: the "columns" member, built as tables begin; schema: also the
	 * tables' names. */
	struct rep_buf colmap;
	struct rep_buf tables;
};

extern const struct rep_sink rep_sink_text;
extern const struct rep_sink rep_sink_csv;
extern const struct rep_sink rep_sink_json;
extern const struct rep_sink rep_sink_md;
extern const struct rep_sink rep_sink_none; /* rep_open_names: writes nothing */
extern const struct rep_sink rep_sink_schema;

/* Appends s as a JSON string (quoted, escaped, invalid UTF-8 as U+FFFD). */
int rep_json_quote(struct rep_buf *b, const char *s);

/* Appends n bytes of s / a NUL-terminated string / one byte / printf output.
 * Return 0, or -1 when realloc fails or the buffer would pass REP_MAX_BUF. */
int rep_buf_add(struct rep_buf *b, const char *s, size_t n);
int rep_buf_adds(struct rep_buf *b, const char *s);
int rep_buf_addc(struct rep_buf *b, char c);
int rep_buf_printf(struct rep_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends v in decimal (as "%" PRId64 prints it, without printf: tables
 * print one per cell). */
int rep_buf_i64(struct rep_buf *b, int64_t v);
void rep_buf_free(struct rep_buf *b);

/* Appends the raw (CSV/JSON) form of a number type (INT, DUR_NS, BYTES,
 * FLOAT, PCT, FDUR_NS); a non-finite double appends nonfinite instead. */
int rep_put_number(struct rep_buf *b, enum rep_type t, struct rep_val v, const char *nonfinite);

/* Appends the human form of v (the text and markdown sinks): durations and
 * byte counts scaled, '-' for null; control characters as spaces. */
int rep_put_human(struct rep_buf *b, enum rep_type t, struct rep_val v);

/* Whether t is a string type (REP_STR, REP_NAME). */
static inline bool rep_is_str(enum rep_type t)
{
	return t == REP_STR || t == REP_NAME;
}

/* True when v prints as null: flagged, or a string type without a string. */
static inline bool rep_is_null(enum rep_type t, struct rep_val v)
{
	return v.null || (rep_is_str(t) && !v.s);
}

/* True for the types printed as numbers (right-aligned in text tables). */
static inline bool rep_is_number(enum rep_type t)
{
	return t == REP_INT || t == REP_FLOAT || t == REP_DUR_NS || t == REP_BYTES ||
	       t == REP_PCT || t == REP_FDUR_NS;
}

#endif
