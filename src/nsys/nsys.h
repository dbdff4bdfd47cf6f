/* nsys: Nsight Systems readers and the per-iteration NVTX analysis.
 *
 * Two inputs: the CSVs of `nsys stats` (nvtx_pushpop_trace and
 * nvtx_gpu_proj_trace, read by header name) and the SQLite file of
 * `nsys export --type sqlite` (read with libsqlite3, see nsys_sql_*). Both
 * feed one model (struct nsys_ranges) and one analysis (nsys_analyze), which
 * follows the roboflow harness contract in shared/reference/nsys.md section 2
 * and produces analysis.json schema version 1 as a value tree (struct nsys_jv)
 * that nsys_jv_write prints the way Python's json.dumps(indent=2,
 * sort_keys=True) does, so the bytes match the reference implementation.
 *
 * Owns: everything parsed lives in the caller's arena. Never prints; the
 * only outside effects are nsys_run_stats / nsys_run_version, which run the
 * `nsys` executable (fork + execv with an argument vector, never a shell).
 * Depends on core, io, json, libyaml and libsqlite3; never on other readers.
 */
#ifndef GP_NSYS_H
#define GP_NSYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/arena.h"
#include "core/err.h"

/* ---- JSON value tree (analysis.json, manifest values) ---- */

enum nsys_jv_kind {
	NSYS_JNULL,
	NSYS_JBOOL,
	NSYS_JINT,
	NSYS_JFLOAT,
	NSYS_JSTR,
	NSYS_JARR,
	NSYS_JOBJ
};

struct nsys_jv {
	enum nsys_jv_kind kind;
	bool b;
	int64_t i;
	double f;
	const char *s;		/* string, NUL-terminated */
	struct nsys_jv **items; /* array items or object values */
	const char **keys;	/* object keys (parallel to items) */
	size_t n, cap;
};

struct nsys_jv *nsys_jv_new(struct arena *a, enum nsys_jv_kind kind);
struct nsys_jv *nsys_jv_int(struct arena *a, int64_t v);
struct nsys_jv *nsys_jv_float(struct arena *a, double v);
struct nsys_jv *nsys_jv_str(struct arena *a, const char *s);
struct nsys_jv *nsys_jv_null(struct arena *a);
/* Appends to an array, or sets key in an object (replacing an earlier value
 * of the same key). Returns -1 when out of memory. */
int nsys_jv_push(struct arena *a, struct nsys_jv *arr, struct nsys_jv *v);
int nsys_jv_set(struct arena *a, struct nsys_jv *obj, const char *key, struct nsys_jv *v);
/* Appends key and v to obj without looking for key (the caller knows it is
 * absent: nsys_jv_set costs a scan of the keys). -1 when out of memory. */
int nsys_jv_add(struct arena *a, struct nsys_jv *obj, const char *key, struct nsys_jv *v);
/* The value of key in obj, or NULL (also when obj is not an object). */
struct nsys_jv *nsys_jv_get(const struct nsys_jv *obj, const char *key);
/* Writes v like Python's json.dumps(v, indent=2, sort_keys=True) (ASCII
 * only, \uXXXX escapes, floats in repr form), plus a final newline. */
void nsys_jv_write(FILE *f, const struct nsys_jv *v);
/* Writes v as YAML 1.1 that libyaml (nsys_manifest_read) and PyYAML's
 * safe_load read back as the same tree: a mapping in block style with
 * sorted keys (as yaml.safe_dump(sort_keys=True) orders them), nested
 * empty mappings and lists in flow style, every string double-quoted and
 * ASCII (escapes), integers, booleans and null in their plain spellings; a
 * key longer than 250 bytes is written as an explicit key (? KEY). */
void nsys_yaml_write(FILE *f, const struct nsys_jv *v);
/* Parses the JSON text[0..len) (one strict value, at most LIM_JSON_DEPTH
 * deep; a UTF-8 byte order mark is skipped) into a tree in arena a
 * (jv_parse.c). ERR_FORMAT naming name and the byte offset. */
int nsys_jv_parse(struct arena *a, const char *text, size_t len, const char *name,
		  struct nsys_jv **out, struct err *e);
/* Python repr() of a finite double into buf (at least 32 bytes). */
void nsys_fmt_double(char *buf, size_t n, double v);

/* ---- duration summaries ---- */

/* S(values): total, mean, median (int for an odd count, float for an even
 * one, as Python's statistics.median gives), min, max, sample stddev (0.0
 * for one value). values is sorted in place. n must be > 0. NULL when out
 * of memory or when the total does not fit 64 bits (callers that name the
 * row check the total first, with nsys_add). */
struct nsys_jv *nsys_summary(struct arena *a, int64_t *values, size_t n);
/* Median of sorted values as a double; *is_int says whether it is a middle
 * element (odd count). */
double nsys_median(const int64_t *sorted, size_t n, bool *is_int);
/* Sample standard deviation (n - 1 denominator) of values, 0.0 when n < 2;
 * exact integer sums when n * max|x| < 2^63 (every real profile), long
 * double otherwise. */
double nsys_stddev(const int64_t *values, size_t n);
/* *sum += v and b - a, false when the result does not fit 64 bits (input
 * values are untrusted: sums and differences are always checked). */
static inline bool nsys_add(int64_t *sum, int64_t v)
{
	return !__builtin_add_overflow(*sum, v, sum);
}
static inline bool nsys_sub(int64_t b, int64_t a, int64_t *out)
{
	return !__builtin_sub_overflow(b, a, out);
}

/* ---- CSV ---- */

/* One CSV file in memory: a header row and data rows of fields. Quoted fields
 * ("a,b", doubled quotes) follow RFC 4180; CRLF line ends are accepted. */
struct nsys_csv {
	const char *path;
	size_t ncols;
	const char **header;
	size_t nrows;
	const char ***rows; /* rows[r][c]; short rows are padded with "" */
	int64_t *lines;	    /* lines[r]: the line row r starts on (the header's is 1) */
	bool empty;	    /* zero bytes */
};

int nsys_csv_read(struct arena *a, const char *path, struct nsys_csv *out, struct err *e);
int nsys_csv_parse(struct arena *a, const char *path, const char *text, size_t len,
		   struct nsys_csv *out, struct err *e);
/* Column index of name in the header, or -1. */
int nsys_csv_col(const struct nsys_csv *c, const char *name);
/* Where row r's column c starts, for messages: "line N, column M"
 * (columns count fields from 1). */
void nsys_csv_where(const struct nsys_csv *c, size_t r, int col, char *buf, size_t size);
/* Finds every name of required[0..n) and stores its index in idx; when any
 * is missing, fails with "Nsight report PATH is missing required columns:
 * a, b". */
int nsys_csv_require(const struct nsys_csv *c, const char *const *required, size_t n, int *idx,
		     struct err *e);

/* ---- the NVTX range model shared by the CSV and SQLite paths ---- */

struct nsys_range {
	const char *name; /* normalized: one leading ':' stripped */
	int64_t pid, tid, id;
	bool has_parent;
	int64_t parent;
	/* host (nvtx_pushpop_trace) */
	int64_t dur, dur_child, dur_nonchild;
	/* GPU projection (nvtx_gpu_proj_trace) */
	int64_t proj_dur, orig_dur, num_ops;
	const char *style;
	int64_t row; /* where it was read: CSV line or NVTX_EVENTS rowid */
};

struct nsys_ranges {
	struct nsys_range *v;
	size_t n;
	const char *path;  /* the file the ranges were read from (messages) */
	const char *table; /* "NVTX_EVENTS" for an export (row = rowid), NULL for a CSV */
};

/* Parse the two reports. Host: "contains no rows" when empty. GPU: zero
 * bytes or header only give n == 0. */
int nsys_host_from_csv(struct arena *a, const struct nsys_csv *c, struct nsys_ranges *out,
		       struct err *e);
int nsys_gpu_from_csv(struct arena *a, const struct nsys_csv *c, struct nsys_ranges *out,
		      struct err *e);

/* ---- manifest ---- */

/* Reads a YAML manifest into a value tree (YAML 1.1 scalar typing as PyYAML's
 * safe_load). Errors use the analyzer's messages. */
int nsys_manifest_read(struct arena *a, const char *path, struct nsys_jv **out, struct err *e);
int nsys_yaml_parse(struct arena *a, const char *path, const unsigned char *text, size_t len,
		    struct nsys_jv **out, struct err *e);

/* ---- analysis ---- */

#define NSYS_VALIDATED_MAJOR 2025
#define NSYS_VALIDATED_MINOR 1

struct nsys_provenance {
	const char *nsys_version;  /* `nsys --version` output, or "unknown" */
	const char *manifest_path; /* as written into analysis.json */
	const char *trace_path;
	const char *pushpop_path;
	const char *gpu_proj_path;
};

/* The version warning, or NULL when version is the validated one. */
const char *nsys_version_warning(struct arena *a, const char *version);
/* Builds the schema-1 analysis.json tree. prov may be NULL (no provenance
 * object and no version warning: the SQLite `steps` view). */
int nsys_analyze(struct arena *a, const struct nsys_jv *manifest, const struct nsys_ranges *host,
		 const struct nsys_ranges *gpu, const struct nsys_provenance *prov,
		 struct nsys_jv **out, struct err *e);

/* The openings of the analysis warnings about the caps (LIM_NVTX_DEPTH,
 * LIM_NAME_BYTES); front ends print those on stderr too. */
#define NSYS_WARN_DEPTH "NVTX ranges nest deeper than the scope cap"
#define NSYS_WARN_NAME "Scoped names are longer than the name cap"
bool nsys_warning_is_cap(const char *w);

/* DIR/NAME as a new arena string. */
char *nsys_dir_file(struct arena *a, const char *dir, const char *name);
/* The analysis of run_dir's stats/nsys_nvtx_pushpop_trace.csv and
 * stats/nsys_nvtx_gpu_proj_trace.csv with manifest, provenance paths
 * relative to run_dir and version ("unknown" when NULL): what `nsys analyze
 * --from-csv` writes. Reads only (run_dir/analysis.json is the caller's). */
int nsys_analyze_csv_dir(struct arena *a, const char *run_dir, const struct nsys_jv *manifest,
			 const char *version, struct nsys_jv **out, struct err *e);

/* ---- analysis.json files (analysis_file.c) ---- */

/* Checks that text[0..len) is an analysis.json the viewer can show: strict
 * JSON (no NaN, no trailing comma: the page's JSON.parse refuses them), one
 * object, schema_version 1, and the keys of schema 1 with their types
 * (gpu_projected_ranges, host_ranges, iterations, warnings: arrays;
 * iteration_summary, run: objects; provenance, when present: an object).
 * Errors (ERR_FORMAT, name as the path, the byte offset when there is one)
 * say which rule failed. */
int nsys_analysis_check(const char *text, size_t len, const char *name, struct err *e);
/* The whole (inflated) content of path, at most cap bytes, NUL-terminated
 * (malloc'd), checked with nsys_analysis_check; errors name the file name. */
int nsys_analysis_read(const char *path, const char *name, int64_t cap, char **out, size_t *len,
		       struct err *e);
/* The analysis of the profiling run directory dir (no trailing '/'):
 * dir/analysis.json when it exists (read as above), else the analysis of
 * dir/stats/nsys_nvtx_*.csv with dir/manifest.yaml computed in memory as
 * `nsys analyze --from-csv` would (nothing is written into dir); ERR_USAGE
 * when dir has neither. */
int nsys_run_dir_analysis(const char *dir, int64_t cap, char **out, size_t *len, struct err *e);

/* ---- running nsys ---- */

/* Finds name on PATH (an executable regular file); returns an arena copy of
 * the path as found, or NULL. */
const char *nsys_which(struct arena *a, const char *name);
/* Builds the exact `nsys stats` argument vector (NULL-terminated) for a run
 * directory: see nsys.md 2.3. */
const char **nsys_stats_argv(struct arena *a, const char *nsys, const char *run_dir);
/* Runs `nsys stats` for run_dir (trace must exist; stats/ is created) and
 * checks the two CSVs appeared. */
int nsys_run_stats(struct arena *a, const char *nsys, const char *run_dir, struct err *e);
/* `nsys --version` stdout, stripped, or "unknown" when it fails. */
const char *nsys_run_version(struct arena *a, const char *nsys);

/* ---- SQLite export ---- */

enum nsys_sql_view {
	NSYS_SQL_INFO,
	NSYS_SQL_KERNELS,
	NSYS_SQL_MEMCPY,
	NSYS_SQL_API,
	NSYS_SQL_NVTX,
	NSYS_SQL_STEPS,
	NSYS_SQL_DEVICES
};

struct nsys_sql; /* an open export */

int nsys_sql_open(const char *path, struct nsys_sql **out, struct err *e);
/* The export held in data[0..n) (copied; read-only, in memory), name for
 * messages: the fuzz target's way in. */
int nsys_sql_open_mem(const void *data, size_t n, const char *name, struct nsys_sql **out,
		      struct err *e);
void nsys_sql_close(struct nsys_sql *s);
bool nsys_sql_has_table(struct nsys_sql *s, const char *table);
/* Rows of table, or -1 when the export has no such table. */
int64_t nsys_sql_count(struct nsys_sql *s, const char *table);
/* Product version (EXPORT_PRODUCT_VERSION), or NULL. */
const char *nsys_sql_version(struct nsys_sql *s, struct arena *a);

/* One row of a summary table; the caller's sink decides how to print it. */
struct nsys_sql_row {
	const char *name;  /* kernel/API/range name, memcpy kind */
	const char *group; /* style, GPU, stream, ... (may be NULL) */
	int64_t instances;
	int64_t total_ns, min_ns, max_ns;
	double avg_ns, med_ns, stddev_ns, pct;
	int64_t bytes;	     /* memcpy/memset */
	int64_t gpu_ops;     /* NVTX: distinct correlated GPU operations */
	int64_t proj_ns;     /* NVTX: summed projected spans */
	int64_t gpu_time_ns; /* NVTX: summed GPU operation durations */
};

struct nsys_sql_table {
	struct nsys_sql_row *v;
	size_t n;
	/* set when the export lacks the table(s) the view reads (nsys creates a
	 * table only when something of its kind was captured): no rows, and
	 * this sentence says why ("the export has no T table: ...") */
	const char *absent;
};

int nsys_sql_kernels(struct nsys_sql *s, struct arena *a, struct nsys_sql_table *out,
		     struct err *e);
int nsys_sql_memcpy(struct nsys_sql *s, struct arena *a, struct nsys_sql_table *out, struct err *e);
int nsys_sql_api(struct nsys_sql *s, struct arena *a, struct nsys_sql_table *out, struct err *e);
int nsys_sql_nvtx(struct nsys_sql *s, struct arena *a, struct nsys_sql_table *out, struct err *e);
/* Per-GPU (group "gpu") and per-stream (group "stream") kernel+memory totals. */
int nsys_sql_devices(struct nsys_sql *s, struct arena *a, struct nsys_sql_table *out,
		     struct err *e);
/* The host and GPU range lists that nvtx_pushpop_trace / nvtx_gpu_proj_trace
 * would report for this export. */
int nsys_sql_ranges(struct nsys_sql *s, struct arena *a, struct nsys_ranges *host,
		    struct nsys_ranges *gpu, struct err *e);

#endif
