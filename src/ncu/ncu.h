/* ncu: the Nsight Compute report (.ncu-rep) reader and its model.
 *
 * ncu_load reads a whole report (magic "NVR\0", a FileHeader, then blocks of
 * BlockHeader + payload; see docs/ncu.md and shared/reference/ncu.md) into
 * one struct ncu_report: the profiled launches (results) with their metrics,
 * section definitions and rule results, the merged session details and the
 * processes. All strings are NUL-terminated copies in the report's arena;
 * metric names are resolved through the file's cumulative string table after
 * every block was read (ids may point forward). Metrics are checked while
 * loading but kept as references into the report's bytes (mapped, or one
 * owned copy) and decoded when first asked for. Bad input gives ERR_FORMAT
 * (or ERR_LIMIT) with the byte offset of the problem, never a crash; every
 * length is checked against what remains and every allocation is bounded by
 * the file size.
 *
 * Owns: everything reachable from the report (freed by ncu_free). Depends on
 * core, io and pb; knows nothing about printing (see ncu_fmt_* for the value
 * formatting `ncu --csv` uses, and ncu_metric_unit for units).
 */
#ifndef GP_NCU_H
#define GP_NCU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/err.h"
#include "core/limits.h"
#include "ncu/ncu_fields.h"

/* refuse reports larger than this (in the 32-bit WebAssembly build: the
 * largest size_t) */
#define NCU_MAX_FILE_BYTES LIM_SIZE_CAP(8ull << 30)

enum ncu_vtype { NCU_V_NONE, NCU_V_STR, NCU_V_FLOAT, NCU_V_DOUBLE, NCU_V_U32, NCU_V_U64 };

struct ncu_value {
	enum ncu_vtype type;
	const char *s; /* NCU_V_STR */
	double d;      /* NCU_V_FLOAT, NCU_V_DOUBLE */
	uint64_t u;    /* NCU_V_U32, NCU_V_U64 */
};

struct ncu_instance {
	struct ncu_value corr; /* correlation id: PC, opcode, x value, time... */
	struct ncu_value value;
};

struct ncu_metric {
	const char *name; /* resolved from name_id ("" when out of range) */
	uint32_t name_id;
	uint32_t kind;		   /* 1 = sampled time series (2023.2+) */
	struct ncu_value value;	   /* NCU_V_NONE when only a list is stored */
	struct ncu_instance *inst; /* per-instance values */
	size_t ninst;
};

/* A metric as stored: its name id and the offset of its field in the
 * result's entry; 8 bytes instead of a decoded struct ncu_metric. */
struct ncu_mref {
	uint32_t name_id;
	uint32_t off;
};
struct ncu_mcache;

struct ncu_sec_metric {
	const char *name, *label; /* label may be "" */
	bool show_instances;	  /* field 4: print the instance values too */
};

/* One body item of a section, reduced to what the details page lists:
 * its kind (field number), label and the metrics it shows. */
struct ncu_body_item {
	uint32_t kind; /* its field number: NCU_ITEM_TABLE, NCU_ITEM_LINE_CHART, ... */
	const char *label;
	struct ncu_sec_metric *metrics; /* instance table: the rows' base names */
	size_t nmetrics;
	struct ncu_sec_metric *extra; /* line chart: highlight metrics; instance table:
				       * columns (name = suffix such as ".avg") */
	size_t nextra;
	uint32_t min_arch, max_arch; /* item filter (field 200), 0 = none */
};

struct ncu_section {
	const char *id, *name, *description;
	uint32_t order;
	struct ncu_sec_metric *header; /* header table (spacers removed) */
	size_t nheader;
	struct ncu_sec_metric *extra; /* field 6: metrics collected for rules */
	size_t nextra;
	struct ncu_sec_metric *source; /* field 13: source-view metrics */
	size_t nsource;
	struct ncu_body_item *body;
	size_t nbody;
};

enum ncu_msg_type {
	NCU_MSG_NONE = 0,
	NCU_MSG_INF = 1,
	NCU_MSG_WRN = 2,
	NCU_MSG_ERR = 3,
	NCU_MSG_OPT = 4
};

/* One message of a rule. The estimated speedup is the Speedup body item
 * (2023.2+) that follows the message in the rule's body. */
struct ncu_rule_msg {
	uint32_t type; /* enum ncu_msg_type (other values kept as read) */
	uint32_t id;   /* links the message to key-metric items (2022.1+) */
	const char *text, *title;
	uint32_t speedup_type; /* 0 none, 1 local, 2 global */
	double speedup_pct;
};

struct ncu_rule {
	const char *id, *name, *section_id;
	struct ncu_rule_msg *msgs;
	size_t nmsgs;
};

struct ncu_process {
	uint32_t pid;
	const char *host, *name; /* name: full path, trailing NULs stripped */
};

struct ncu_result {
	uint32_t thread_id;
	uint64_t api_call_id, program_handle, kernel_id;
	const char *mangled, *function, *demangled;
	uint64_t grid[3], block[3]; /* grid in blocks (converted for old reports) */
	uint64_t grid_raw[3];	    /* field 10 as stored */
	uint32_t context, stream;
	bool has_context, has_stream;
	uint64_t creation_time;
	uint64_t source_ref;
	int process; /* index into report.processes, -1 when none */
	/* metrics stay in the report's bytes: (name id, offset) references,
	 * decoded on demand by ncu_metric_at / ncu_lookup (and cached) */
	struct ncu_mref *metrics;
	size_t nmetrics;
	const uint8_t *data; /* the result's entry bytes (in the report's buffer) */
	size_t data_len;
	struct ncu_mcache *cache; /* decoded metrics (lazy) */
	struct ncu_section *sections;
	size_t nsections;
	struct ncu_rule *rules;
	size_t nrules;
	int64_t offset; /* file offset of the result's entry */
};

struct ncu_attr {
	const char *name;
	struct ncu_value value;
};

struct ncu_device {
	uint32_t id;
	const char *name;
	struct ncu_attr *attrs;
	size_t nattrs;
};

struct ncu_sysinfo {
	const char *os, *build, *processor, *arch, *computer;
	uint32_t platform; /* 1 Windows, 2 Linux */
	const char **addresses;
	size_t naddresses;
};

struct ncu_version {
	const char *provider, *version;
};

struct ncu_session {
	uint64_t creation_time;
	bool has_host, has_target;
	struct ncu_sysinfo host, target;
	struct ncu_device *devices;
	size_t ndevices;
	struct ncu_version *versions;
	size_t nversions;
	const char *command_line; /* "" when absent (before 2022.4) */
};

/* A kernel function of a module: its mangled name and its entry address,
 * the absolute SASS PC of its first instruction (SourceData field 9). */
struct ncu_function {
	const char *name;
	uint64_t entry;
};

/* A CUDA source file imported into the report (`ncu --import-source yes`):
 * SourceData field 8 {repeated 1 {1 path, 2 text}}. path and text point
 * into the arena (text not NUL-terminated inside the report: copied). */
struct ncu_imported {
	const char *path, *text;
	size_t len;
};

struct ncu_source {
	uint64_t ref;
	uint32_t sass_level, sm_revision;
	size_t binary_bytes;
	const uint8_t *binary;	    /* the cubin (in the report's bytes), NULL when absent */
	int64_t binary_off;	    /* its file offset */
	struct ncu_function *funcs; /* arena */
	size_t nfuncs;
	struct ncu_imported *imported; /* arena: the CUDA sources stored with the module */
	size_t nimported;
};

struct ncu_index;
struct src;

struct ncu_report {
	struct arena arena;
	const char *path;
	uint32_t file_version;
	size_t nblocks;
	struct ncu_result *results;
	size_t nresults;
	struct ncu_process *processes;
	size_t nprocesses;
	struct ncu_session session;
	struct ncu_source *sources;
	size_t nsources;
	const char **strings; /* the global string table */
	size_t nstrings;
	int64_t file_bytes;
	struct ncu_index *index;  /* per result, for ncu_lookup (lazy) */
	size_t index_last;	  /* 1 + the result whose table ncu_lookup built last; 0 none */
	const char **name_sorted; /* distinct strings, sorted (ncu_lookup) */
	size_t nnames;
	uint32_t *name_rank; /* per string id: its index in name_sorted */
	void *buf;	     /* the report's bytes when copied or read (owned) */
	struct src *src;     /* the mapped file (owned) */
};

/* Loads a report from path ("-" = stdin; gzip is inflated). Its results
 * are parsed on gp_threads(threads) threads (core/threads.h: 0 = as many
 * as useful); the report is the same whatever the number. */
int ncu_load(struct ncu_report **out, const char *path, int threads, struct err *e);
/* Parses a report held in memory (len bytes at data; copied where kept). */
int ncu_parse(struct ncu_report **out, const void *data, size_t len, const char *path, int threads,
	      struct err *e);
void ncu_free(struct ncu_report *r);

/* The module (SourceData) of result idx, or NULL; the entry address of
 * function `name` in it (false when the report does not say). */
const struct ncu_source *ncu_source_of(const struct ncu_report *r, size_t idx);
bool ncu_function_entry(const struct ncu_source *s, const char *name, uint64_t *entry);

/* Metric k of result idx, decoded on first use (NULL when out of memory);
 * the name of metric k without decoding it ("" when its id is out of
 * range). */
const struct ncu_metric *ncu_metric_at(struct ncu_report *r, size_t idx, size_t k);
const char *ncu_metric_name(const struct ncu_report *r, const struct ncu_result *res, size_t k);
/* The best display name: demangled, else function, else mangled. */
const char *ncu_kernel_name(const struct ncu_result *res);
/* The device attribute `name` of device `id` (NULL when absent). */
const struct ncu_value *ncu_device_attr(const struct ncu_report *r, uint32_t dev, const char *name);
/* A coarse kernel type guessed from kernel names (ktype.c; rules in
 * docs/ncu.md). */
enum ncu_ktype {
	NCU_KT_OTHER,
	NCU_KT_GEMM,
	NCU_KT_CONV,
	NCU_KT_ATTENTION,
	NCU_KT_REDUCE,
	NCU_KT_SOFTMAX,
	NCU_KT_ELEMENTWISE,
	NCU_KT_MEMORY,
	NCU_KT_COMMUNICATION
};
/* The type of one name (case-insensitive substring rules). */
enum ncu_ktype ncu_ktype_of(const char *name);
/* The type of a result: its function name, else its demangled name, else
 * its mangled name decides. */
enum ncu_ktype ncu_kernel_type(const struct ncu_result *res);
const char *ncu_ktype_name(enum ncu_ktype t);
/* Value helpers: numeric view (NaN when not numeric/absent). */
double ncu_value_num(const struct ncu_value *v);
bool ncu_value_is_na(const struct ncu_value *v);
const char *ncu_msg_type_name(uint32_t type); /* "INF", "OPT", ... or "" */

/* Formatting as `ncu --csv --print-units base` prints values: integers and
 * integral doubles without decimals, other doubles with 2, thousands
 * separators, NaN/absent "n/a", strings as is. Returns buf. */
char *ncu_fmt_value(const struct ncu_value *v, char *buf, size_t n);
char *ncu_fmt_double(double d, char *buf, size_t n);

/* The base unit ncu prints for a metric ("" for unit-less). Units are not
 * stored in reports; see units.c. */
const char *ncu_metric_unit(const char *name);
/* ncu's default auto-scaled unit for a base unit, given the largest
 * magnitude to show: returns the unit (buf or base) and sets *div, the
 * divisor to apply to values (1 when unchanged). */
const char *ncu_auto_unit(const char *base, double maxabs, double *div, char *buf, size_t n);
/* A value of a raw-page cell in auto units (`--print-units auto`), as the
 * NCU 2025.3 default export prints it: unit-less metrics as ncu_fmt_value;
 * others scaled by div with 6 decimals and no separators, unscaled integers
 * as integers, a 0.0 as "0" only when the whole column (col_zero) is zero;
 * NaN "nan"; a metric with only an instance list "no data". */
char *ncu_fmt_raw_auto(const struct ncu_value *v, const char *unit, double div, bool col_zero,
		       char *buf, size_t n);
/* A details-page value in auto units: scaled by div, then formatted like
 * ncu_fmt_value (2 decimals, separators). */
char *ncu_fmt_detail_auto(const struct ncu_value *v, double div, char *buf, size_t n);
/* A one-sentence description of a metric the default sections' tables
 * show (describe.c lists them), in our words: a static text or one made in
 * buf (n bytes; 512 is enough); NULL when none. */
const char *ncu_metric_description(const char *name, char *buf, size_t n);
bool ncu_descriptions_sorted(void); /* table self-check for the tests */
/* The unit of a details-page row (a few metrics differ from the raw page). */
const char *ncu_detail_unit(const char *name);

/* Rule-message text with NCU markup expanded (@section:ID:Name@ -> Name,
 * @url:Text:URL@ -> "Text (URL)"), allocated in the report's arena. */
const char *ncu_expand_markup(struct ncu_report *r, const char *text);

/* --- pages: what `ncu --import --page raw|details` shows (pages.c) --- */

/* The 11 identification columns shared by the raw and details pages. */
struct ncu_ident {
	char id[24], pid[24], process[512], host[256], kernel[4096], context[24], stream[24],
	    block[80], grid[80], device[24], cc[48];
};
extern const char *const ncu_ident_titles[11];
void ncu_result_ident(struct ncu_report *r, size_t idx, struct ncu_ident *id);
/* The 11 fields of id in column order. */
void ncu_ident_fields(const struct ncu_ident *id, const char *f[11]);

/* Raw page columns: the metric names of all results (only = SIZE_MAX) or of
 * result `only`, bytewise sorted, each once, without the breakdown:/group:
 * pseudo metrics. Arena-allocated. */
int ncu_raw_columns(struct ncu_report *r, size_t only, const char ***names, size_t *n);
/* The first metric named `name` of result idx, or NULL: a binary search in
 * the sorted string table, then a rank -> metric table per result
 * (arena-allocated, built on the first lookup and cached). */
const struct ncu_metric *ncu_lookup(struct ncu_report *r, size_t idx, const char *name);
/* The metric of a fixed column named by its modern name: that metric, else
 * the first legacy name for it (2019.x-2020.x legacy metric set, legacy.c)
 * that the result holds, else NULL. */
const struct ncu_metric *ncu_lookup_column(struct ncu_report *r, size_t idx, const char *modern);
/* The k-th legacy name of modern metric `modern`, or NULL past the last. */
const char *ncu_legacy_name(const char *modern, size_t k);

/* One row of the details page (`--print-details all`): a metric row (rule
 * fields NULL) or a rule-message row (metric fields NULL). */
struct ncu_detail_row {
	/* metric: the row's label as ncu prints it; name: the metric's name
	 * (NULL on rule rows) */
	const char *section, *body_label, *metric, *name, *unit, *value;
	const char *rule, *rule_type, *rule_text, *speedup_type, *speedup;
};
typedef void (*ncu_detail_fn)(void *ctx, const struct ncu_detail_row *row);
enum { NCU_DETAILS_HEADER = 1, NCU_DETAILS_BODY = 2 };
struct ncu_details_opts {
	const char *section; /* only the section with this identifier or display name */
	unsigned parts;	     /* NCU_DETAILS_HEADER (header metrics; with BODY also the
			      * labelled rule/source metrics) | NCU_DETAILS_BODY */
	bool auto_units;     /* ncu's default auto-scaled units */
};
/* Emits the details rows of result idx in ncu's order (sections by Order
 * then display name; per section the header and labelled metrics sorted by
 * metric name, then body items, then the rule messages). o NULL = every
 * section, header and body, base units. */
int ncu_details(struct ncu_report *r, size_t idx, const struct ncu_details_opts *o,
		ncu_detail_fn fn, void *ctx);
/* The details-page label of a `breakdown:` sub-metric ("{UNIT}: Title
 * Case": lts__t_sectors.avg.pct_of_peak_sustained_elapsed -> "L2: T
 * Sectors"). */
void ncu_breakdown_label(const char *name, char *buf, size_t n);

#endif
