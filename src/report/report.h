/* report: output sinks driven by one column description.
 *
 * A command describes each output table once (struct rep_col: key with unit
 * for CSV/JSON, title for people, type) and feeds rows; the sink renders them
 * as an aligned text table, CSV, or JSON. Text tables scale durations and
 * byte counts for people; CSV and JSON carry raw numbers (the unit is in the
 * key, e.g. dur_ns, bytes). Key/value sections (rep_kv_*) render as a
 * "Title" line plus aligned "  Key: value" lines, a CSV table "key,value",
 * or JSON objects.
 *
 * JSON output is one object: {"<table name>": [ {..row..}, ... ],
 * "<section name>": { "key": value, ... }, ...} in the order emitted, then
 * a last member "columns": {"<table name>": ["key", ...], ...}, the column
 * keys of every table in their order, so an empty table keeps its columns.
 * CSV output: each table is a header line plus rows; when a report holds
 * more than one table/section, each is preceded by a line "# <name>" and
 * separated by a blank line. Doubles in CSV/JSON take the shortest form that
 * reads back exactly; NaN and infinities are empty (CSV) or null (JSON).
 *
 * Owns: copies of the open block's name, title and columns (callers may pass
 * temporaries) and the buffered rows of the open text table (or the first CSV
 * block). Writes only to the FILE* it was given, never closes it. Functions
 * return 0, or -1 on misuse (wrong call order, NULL name) or allocation
 * failure. One report is used by one thread. Depends on core only.
 */
#ifndef GP_REPORT_H
#define GP_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* REP_SCHEMA: the JSON Schema of the document REP_JSON writes for the same
 * calls, from the declarations alone (report_schema.c; for
 * tools/gen-schemas.py and docs/schemas/). */
enum rep_format { REP_TABLE, REP_CSV, REP_JSON, REP_MARKDOWN, REP_SCHEMA };

enum rep_type {
	REP_STR,     /* text */
	REP_INT,     /* int64 */
	REP_FLOAT,   /* double: %.6g in text, shortest exact round-trip in CSV/JSON */
	REP_DUR_NS,  /* int64 nanoseconds: raw in CSV/JSON, "1.234 ms" in text */
	REP_BYTES,   /* int64 bytes: raw in CSV/JSON, "1.50 GiB" in text */
	REP_BOOL,    /* true/false */
	REP_PCT,     /* double percent 0..100: raw in CSV/JSON, "12.34 %" in text */
	REP_FDUR_NS, /* double nanoseconds (a mean, a median): shortest exact
			round-trip in CSV/JSON, "1.234 ms" in text (as REP_DUR_NS,
			rounded to the ns; non-finite: "-") */
	REP_NAME,    /* text, a name in a column that others follow: as REP_STR,
			but a text table shows one of REP_NAME_TEXT_MAX + 2 code
			points or more as its start and end around "…",
			REP_NAME_TEXT_MAX in all, so that one long name (a templated
			kernel's runs to a thousand characters) does not widen
			every row; CSV, JSON and Markdown keep it whole */
};

#define REP_NAME_TEXT_MAX 72

struct rep_col {
	const char *key;   /* CSV/JSON name, unit included: "dur_ns", "count" */
	const char *title; /* text-table header: "Duration" */
	enum rep_type type;
};

struct rep_val {
	bool null; /* printed as "" (CSV), null (JSON), "-" (text) */
	const char *s;
	int64_t i;
	double f;
	bool b;
};

struct report;

struct report *rep_open(FILE *out, enum rep_format fmt);
int rep_table_begin(struct report *r, const char *name, const char *title,
		    const struct rep_col *cols, int ncols);
int rep_row(struct report *r, const struct rep_val *vals);
int rep_table_end(struct report *r);
int rep_kv_begin(struct report *r, const char *name, const char *title);
int rep_kv(struct report *r, const char *key, const char *title, enum rep_type type,
	   struct rep_val v);
int rep_kv_end(struct report *r);
/* The format r was opened with (a view may write a compact document for
 * REP_MARKDOWN: GitHub-flavoured pipe tables, values as the text sink
 * writes them). */
enum rep_format rep_format_of(const struct report *r);
/* Writes only the block named name: the others are
 * accepted and dropped. The kept block is written as a report of that block
 * alone: text, its table; CSV, its header and rows with no "# name" line;
 * JSON, a table as the bare array of its rows, a section as the bare
 * object (no "columns" member). Call before the first block. */
int rep_only(struct report *r, const char *name);

/* A report that writes nothing and keeps the names of its blocks, in the
 * order begun (for a front end that lists or splits a command's tables). */
struct report *rep_open_names(void);
/* The names of the blocks begun so far (valid until rep_close); *n their
 * number. */
const char *const *rep_names(const struct report *r, size_t *n);

/* Finishes the document (closing brace for JSON) and frees r. Returns -1 if
 * any write failed (the FILE* error flag is checked). */
int rep_close(struct report *r);

/* Value helpers. */
static inline struct rep_val rep_s(const char *s)
{
	return (struct rep_val){.s = s, .null = !s};
}
static inline struct rep_val rep_i(int64_t i)
{
	return (struct rep_val){.i = i};
}
static inline struct rep_val rep_f(double f)
{
	return (struct rep_val){.f = f};
}
static inline struct rep_val rep_b(bool b)
{
	return (struct rep_val){.b = b};
}
static inline struct rep_val rep_null(void)
{
	return (struct rep_val){.null = true};
}
/* A double that may be NaN (a mean of nothing, a ratio of 0): NaN is
 * absent ('-' in text, null in JSON), not "nan". */
static inline struct rep_val rep_f_or_null(double f)
{
	return f == f ? rep_f(f) : rep_null();
}

/* Human forms used by text tables (exposed for tests and progress lines). */
void rep_fmt_dur(char *buf, size_t n, int64_t ns);
void rep_fmt_bytes(char *buf, size_t n, int64_t bytes);

/* JSON text of a string (quoted; escaped as the JSON sink escapes, invalid
 * UTF-8 as U+FFFD) and of a double (shortest round-trip form, null when not
 * finite), written to f: for writers whose JSON is not a table of columns
 * (the timeline, the chrome-trace export). */
void rep_json_str(FILE *f, const char *s);
/* Length of the well-formed UTF-8 sequence at s (n > 0 bytes left), or 0
 * with *bad set to the length of the ill-formed part the JSON writers
 * replace by one U+FFFD (Unicode's "maximal subpart" rule). */
size_t rep_utf8_len(const unsigned char *s, size_t n, size_t *bad);
void rep_json_num(FILE *f, double v);
/* Writes the shortest of %.15g/%.16g/%.17g that reads back as d into buf
 * (at least 32 bytes). Returns false, with buf empty, for NaN and infinities. */
bool rep_fmt_double(char *buf, double d);

#endif
