/* views: the registry of views (the trace views info, summary, steps, ops,
 * kernels, memory, top, diff; the Nsight Compute views ncu list, raw,
 * session, details, hints, body, source, diff; the Nsight Systems views nsys info,
 * kernels, memcpy, api, nvtx, gpus, steps, diff) and the views as
 * computations that write to any report sink, with no CLI around them.
 * The three diffs take two inputs (view_compute_many, view_compute_ncu2,
 * view_compute_nsys2) and share one option table.
 *
 * Each view is declared once (struct view_decl): its name, a one-line
 * summary, its help text, its options (views/view_opt.h: CLI spelling, API
 * query name, type, default, validator, help line) and its compute, emit and
 * free functions. `gpuprof NAME`, its --help, the man page's option lists
 * and GET /api/file/ID/NAME of `gpuprof serve` all come from the registry,
 * so a view that is not in it cannot be reached, and an unknown name finds
 * nothing (view_find returns NULL) rather than another view.
 *
 * A view is computed once (view_compute: the analyses) and then emitted into
 * a struct report (view_emit) with the one column declaration of each table,
 * so the CLI and the HTTP API produce the same tables from the same code.
 * The split lets a caller open its output only once the analysis has
 * succeeded (the CLI writes nothing on an error).
 *
 * Every view belongs to a family, the kind of input it reads: a trace view
 * is the command `gpuprof NAME` and GET /api/file/ID/NAME, an Nsight
 * Compute view the verb `gpuprof ncu NAME` and GET /api/file/ID/ncu/NAME,
 * an Nsight Systems view `gpuprof nsys FILE.sqlite NAME` and GET
 * /api/file/ID/nsys/NAME (view_find_in finds a view in its family).
 *
 * Layering: this area sits between the analyses and the front ends: it
 * depends on trace/, tbprof/, ncu/, nsys/ and report/ (and core),
 * never on cli/ or server/. It was given its own folder rather than
 * src/report/ because report/ depends on core only and must not know the
 * trace model.
 *
 * A view owns its analysis results and reads the trace (which must outlive
 * it) without changing it, so several views may be computed on one trace
 * from different threads at once.
 */
#ifndef GP_VIEWS_VIEW_H
#define GP_VIEWS_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/arena.h"
#include "core/err.h"
#include "report/report.h"
#include "tbprof/kernels.h"
#include "tbprof/memory.h"
#include "tbprof/ops.h"
#include "tbprof/session.h"
#include "trace/overlay.h"
#include "trace/trace.h"
#include "views/view_ncu.h"
#include "views/view_opt.h"

/* The views' identities, one per line of views/views.def (the registry,
 * view.c, says what each is). */
enum view_kind {
#define V(name, KIND) VIEW_##KIND,
#include "views/views.def"
#undef V
	VIEW_COUNT
};

/* The input a view reads: its family (its command and its API path). */
enum view_family {
	VIEW_FAMILY_TRACE, /* a trace's session: `gpuprof NAME`, /api/file/ID/NAME */
	VIEW_FAMILY_NCU,   /* an Nsight Compute report: `gpuprof ncu NAME`, .../ncu/NAME */
	VIEW_FAMILY_NSYS,  /* an nsys SQLite export: `gpuprof nsys FILE NAME`, .../nsys/NAME */
};

/* The options of every view (the commands' options); view_opts_init gives
 * the commands' defaults. Fields a view does not use are ignored. */
#define VIEW_OWN_BYTES 2048

struct view_opts {
	bool tb_compat;		       /* all: --tb-compat */
	bool timeline;		       /* summary: --timeline */
	bool quick;		       /* summary: --quick */
	bool only_steps;	       /* steps: --step, rows step_lo..step_hi only */
	int64_t step_lo, step_hi;      /* inclusive */
	const char *step_text;	       /* the --step text, for the error message */
	enum ops_group ops_group;      /* ops: --group-by */
	bool ops_stack;		       /* ops: --stack */
	enum ops_sort ops_sort;	       /* ops: --sort (OPS_SORT_TB = tb's default) */
	enum kern_group kern_group;    /* kernels: --group-by */
	size_t top;		       /* ops, kernels, memory, top: --top (SIZE_MAX = all) */
	bool stack_gpu;		       /* top: --gpu */
	bool stack_profiler_span;      /* top: --keep-profiler-span */
	const char *device;	       /* memory: --device (NULL = default) */
	bool curve, events, step_plot; /* memory: --curve, --events, --step-plot */
	bool windowed;		       /* memory: --start/--end given */
	size_t curve_points;	       /* memory: --curve-points (0: every point) */
	struct mem_window window;      /* relative to the profiler start */
	struct view_ncu_args ncu_args; /* ncu: the options as given (strings) */
	struct ncu_view_opts ncu;      /* ncu: their values (the decl's check) */
	const char *nsys_manifest;     /* nsys steps: --manifest (CLI only) or NULL */
	const char *nsys_capture;      /* nsys steps: --capture-range (default profile-target) */
	const char *nsys_iterations;   /* nsys steps: --iterations (decimal text) or NULL */
	/* The options of the view being computed that no other view reads,
	 * in a struct of the view's own declared in its view_NAME.c (so a
	 * new view's options touch no file but its own): an option's .off is
	 * VIEW_OWN_OFF(struct, field); view_own() gives the struct back. */
	union {
		max_align_t align_;
		unsigned char bytes[VIEW_OWN_BYTES];
	} own;
};

/* .off of an option kept in struct type of the view's own (view_opts.own) */
#define VIEW_OWN_OFF(type, field) (offsetof(struct view_opts, own) + offsetof(type, field))
/* The view's own options struct (type checked against VIEW_OWN_BYTES by
 * the view: _Static_assert(sizeof(type) <= VIEW_OWN_BYTES, ...)). */
static inline const void *view_own(const struct view_opts *o)
{
	return o->own.bytes;
}

struct view;
struct view_source;
struct nsys_jv;

/* What a view asks of the front ends (struct view_decl's flags). */
#define VIEW_MANY 1u	      /* takes several traces (info): one per TRACE... */
#define VIEW_WHOLE_FILE 2u    /* describes whole files: refuses --step/--range */
#define VIEW_STEP_ROWS 4u     /* --step picks rows of the whole trace's table */
#define VIEW_OWN_ANOMALIES 8u /* lists the input anomalies itself: no note */

struct view_decl {
	enum view_kind kind;
	enum view_family family;
	const char *name;      /* the command (verb) and the API's path segment */
	const char *summary;   /* one line for `gpuprof --help` */
	const char *help_head; /* `gpuprof NAME --help` up to its "Options:" list */
	const char *help_tail; /* after the list (from its blank line) */
	const char *operands;  /* the man page's operands (roff); NULL: TRACE or TRACE... */
	const struct vo *opts;
	size_t nopts;
	unsigned flags;
	unsigned ntraces; /* VIEW_MANY: exactly this many traces (0: any number) */
	/* A VIEW_MANY view whose options may name its traces (diff's --base
	 * A... --new B...): writes their paths, in order, to paths[0..) (room
	 * for every value of o's lists) and returns their count; 0 when the
	 * options name none (the nops operands are the traces, ntraces
	 * applies); -1 with msg. NULL: the operands are the traces. */
	int (*traces)(const struct view_opts *o, int nops, const char **paths, char *msg, size_t n);
	/* Checks of options against each other, after all are parsed; 0 or -1
	 * with msg, naming the options as front end f spells them. NULL: none. */
	int (*check)(const struct view_decl *d, struct view_opts *o, enum vo_front f, char *msg,
		     size_t n);
	/* Every view keeps its results in a struct of its own, declared in the
	 * file that computes it: compute allocates it (v's priv; src is the
	 * input of a family that is not a trace's, a trace view reads v's
	 * session), emit reads it, free frees it (NULL or partly built: a
	 * failed compute is freed too; view_free frees v itself). */
	int (*compute)(struct view *v, const struct view_source *src, struct err *e);
	void (*emit)(struct view *v, struct report *r);
	void (*free)(struct view *v);
	/* The JSON document of a view that is not a report (view_json); NULL
	 * for the others. */
	const struct nsys_jv *(*json)(const struct view *v);
	/* Whether an analysis gate of the computed view tripped (the CLI's exit
	 * status 1); NULL: the view has no gates. */
	bool (*tripped)(const struct view *v);
	/* What the computed view adds to its trace written back whole
	 * (`gpuprof trace overlay VIEW TRACE`): members of the args of its
	 * events and events of its own (trace/overlay.h; failures latched
	 * there); 0 or an error. NULL: the view has no overlay. */
	int (*overlay)(const struct view *v, struct tr_overlay *o, struct err *e);
};

/* The registry: every view of every family, each family in the order its
 * `--help` lists them. */
size_t view_count(void);
const struct view_decl *view_at(size_t i);
/* The trace view named name, or NULL. */
const struct view_decl *view_find(const char *name);
/* The view of family f named name, or NULL. */
const struct view_decl *view_find_in(enum view_family f, const char *name);
/* The command that leads a family's verbs ("ncu", "nsys"); NULL for the trace views. */
const char *view_family_prefix(enum view_family f);
/* "unknown verb 'X'; did you mean 'Y'? (a, b, c)": the message for a name
 * family f has no view of (the did-you-mean part only when one is close),
 * naming f's views in registry order; the CLI and the server both say it. */
void view_unknown(enum view_family f, const char *name, char *msg, size_t n);
/* The view of kind k (k < VIEW_COUNT: every kind is in the registry). */
const struct view_decl *view_get(enum view_kind k);

/* The commands' defaults for every view: the fields a view does not
 * declare. view_opts_defaults adds the defaults d declares. */
void view_opts_init(struct view_opts *o);
void view_opts_defaults(const struct view_decl *d, struct view_opts *o);
/* Frees what a decl's check compiled into o (the ncu regexes). */
void view_opts_release(struct view_opts *o);
/* --step N|A-B of a VIEW_STEP_ROWS view (text kept for messages); 0 or -1
 * with msg. */
int view_step_rows(struct view_opts *o, const char *text, char *msg, size_t n);

/* Runs the analyses of view d on the session's trace (or on the traces of
 * ss[0..n) for a VIEW_MANY view); the links, steps and operator tree come
 * from the session (built there once, shared with every other view of it),
 * which must outlive the view. Errors: ERR_USAGE for a request the trace
 * cannot answer (no such memory device, no such step), else what the
 * analyses return. */
int view_compute(const struct view_decl *d, struct ses *s, const struct view_opts *o,
		 struct view **out, struct err *e);
int view_compute_many(const struct view_decl *d, struct ses *const *ss, size_t n,
		      const struct view_opts *o, struct view **out, struct err *e);
/* An Nsight Compute view (family VIEW_FAMILY_NCU) of report r, which must
 * outlive the view; calls on one report must not run concurrently
 * (views/view_ncu.h). */
int view_compute_ncu(const struct view_decl *d, struct ncu_report *r, const struct view_opts *o,
		     struct view **out, struct err *e);
/* A view of two Nsight Compute reports, BASE and NEW (ncu diff); both must
 * outlive the view and calls on either must not run concurrently. */
int view_compute_ncu2(const struct view_decl *d, struct ncu_report *base, struct ncu_report *nw,
		      const struct view_opts *o, struct view **out, struct err *e);
/* A view of two Nsight Systems analyses (nsys diff): base and nw are the
 * analysis.json trees of each side (nsys_jv_parse of the file, of a run
 * directory's analysis, or of an export's `steps`), which must outlive the
 * view; paths as the user gave them. */
int view_compute_nsys2(const struct view_decl *d, const struct nsys_jv *base, const char *base_path,
		       const struct nsys_jv *nw, const char *new_path, const struct view_opts *o,
		       struct view **out, struct err *e);
/* One side of an nsys diff: the analysis.json tree of an export (its
 * `steps` view, capture range profile-target) or of an analysis.json's
 * text (a file's or a run directory's), and what holds it. */
struct nsys_sql;
struct nsys_jv;
struct view_nsys_side {
	struct nsys_sql *q;	    /* an export */
	struct view *steps;	    /* the export's steps view (its tree) */
	struct arena a;		    /* the parsed analysis.json */
	const struct nsys_jv *root; /* the tree view_compute_nsys2 reads */
};
/* Opens side s of the export at export_path, else of the analysis.json
 * text[0..len) (path names it in errors). 0 or an error in e; close s
 * either way. */
int view_nsys_side_open(struct view_nsys_side *s, const char *export_path, const char *text,
			size_t len, const char *path, struct err *e);
void view_nsys_side_close(struct view_nsys_side *s);
/* An Nsight Systems view (family VIEW_FAMILY_NSYS) of the open export q
 * (path: as the user gave it), which must outlive the view. */
int view_compute_nsys(const struct view_decl *d, struct nsys_sql *q, const char *path,
		      const struct view_opts *o, struct view **out, struct err *e);
/* The JSON document of a view that is not a report (its declaration's
 * json: nsys steps' analysis.json, written with nsys_jv_write; view_emit
 * writes nothing); NULL for every other view. */
const struct nsys_jv *view_json(const struct view *v);
/* Writes the view's tables and sections into r (which stays open). */
void view_emit(struct view *v, struct report *r);
/* Whether view_emit failed (ncu hints: out of memory; nsys: a write
 * failed); what it wrote is partial. */
bool view_emit_failed(const struct view *v);
/* The JSON of computed view v into a malloc'd *buf (*len bytes); frees v.
 * 0, or ERR_NOMEM with *buf NULL. */
int view_json_text(struct view *v, char **buf, size_t *len, struct err *e);
void view_free(struct view *v);
/* Whether a gate of v tripped (its declaration's tripped; false without). */
bool view_tripped(const struct view *v);
/* The trace of a computed trace view (its session's: a window when
 * --step or --range cut one). */
const struct trace *view_trace(const struct view *v);
/* Adds what the computed view v puts into its trace written back (its
 * declaration's overlay) to o; ERR_USAGE when v's view has none. */
int view_overlay(const struct view *v, struct tr_overlay *o, struct err *e);
/* view_compute + view_emit + view_free. */
int view_write(const struct view_decl *d, struct ses *s, const struct view_opts *o,
	       struct report *r, struct err *e);

/* The timeline (view_timeline.c, GET /api/file/ID/timeline): the events of
 * every track in a time window at a level of detail. Not a report table:
 * lanes of nested items do not fit the sinks' flat tables, so it has a small
 * JSON writer of its own. */
struct tl_index; /* per-track order, nesting depth and running max end */

/* Builds the index of t once (O(n log n)); t must outlive it. */
int tl_index_build(const struct trace *t, struct tl_index **out, struct err *e);
void tl_index_free(struct tl_index *ix);

#define TL_MAX_PX 8192
#define TL_MAX_DEPTH 64	    /* deeper events are drawn at the last level */
#define TL_MAX_ITEMS 250000 /* over all lanes; more sets "truncated" */
#define TL_MAX_FLOWS 2000   /* flow arrows per answer (a frame's); more: "flows_truncated" */

struct tl_opts {
	bool has_start, has_end;
	int64_t start_ns, end_ns; /* from the trace's start; default: all of it */
	int px;			  /* 1..TL_MAX_PX */
	bool flows;		  /* add the flow arrows with an end in the window */
	bool stream_counters;	  /* add HTA's queue length and memcpy bandwidth lanes */
	const uint8_t *match;	  /* by string id: 1 marks a searched name (tl_find_match):
				     events get "match": true, spans "matches": N; or NULL */
	bool agg;		  /* the area selection's sums instead (tl_write_agg) */
	const char *tracks;	  /* agg: track numbers split by commas; NULL: every track */
};

/* Writes the window's lanes as JSON to f: O(events overlapping the window +
 * log n) per track. ERR_USAGE for an empty or reversed window. */
int tl_write_json(const struct tl_index *ix, const struct tl_opts *o, FILE *f, struct err *e);
/* The events linked to event row `row` (its GPU activities or its launcher,
 * by correlation; the events its s/t/f flows bind to) as JSON to f.
 * ERR_USAGE when there is no such row. */
int tl_write_links(const struct tl_index *ix, int64_t row, FILE *f, struct err *e);
/* The area selection (view_timeline_agg.c): the slices of o->tracks in the
 * window, per name {name, count, total_ns, self_ns} (times clipped to the
 * window), most total time first. ERR_USAGE for a bad window or track list. */
int tl_write_agg(const struct tl_index *ix, const struct tl_opts *o, FILE *f, struct err *e);

/* Search (view_timeline_find.c): slices whose name contains a text (ASCII
 * letters case-insensitive). */
#define TL_FIND_LIMIT 1000 /* matches written by default */
#define TL_FIND_MAX_LIMIT 10000
#define TL_FIND_MAX_NAMES 50 /* matching names listed, most matches first */

struct tl_find_opts {
	const char *text; /* non-empty */
	bool has_start, has_end;
	int64_t start_ns, end_ns; /* from the trace's start; default: no bound */
	int limit;		  /* 0..TL_FIND_MAX_LIMIT matches written */
};

/* *out (malloc'd, a byte per string id the trace had when the index was
 * built): 1 for each id that names a slice and contains text; *nmatch
 * (when not NULL) their number. O(distinct slice names * text). ERR_USAGE
 * for an empty text. */
int tl_find_match(const struct tl_index *ix, const char *text, uint8_t **out, size_t *nmatch,
		  struct err *e);
/* The matches in the window as JSON to f: {find, total, truncated,
 * names_total, names (at most TL_FIND_MAX_NAMES: name, count, total_dur),
 * matches (the first `limit` by (ts, row): row, track, ts, dur, depth,
 * kind, name)}. ERR_USAGE for an empty text or window, a bad limit. */
int tl_write_find(const struct tl_index *ix, const struct tl_find_opts *o, FILE *f, struct err *e);

#endif
