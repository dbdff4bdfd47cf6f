/* views: the trace views (summary, steps, ops, kernels, memory) as
 * computations that write to any report sink, with no CLI around them.
 *
 * A view is computed once (view_compute: the analyses of src/tbprof) and then
 * emitted into a struct report (view_emit) with the one column declaration
 * of each table, so `gpuprof <cmd>` and the HTTP API of `gpuprof serve`
 * produce the same tables from the same code. The split lets a caller open
 * its output only once the analysis has succeeded (the CLI writes nothing
 * on an error).
 *
 * Layering: this area sits between the analyses and the front ends: it
 * depends on trace/, tbprof/ and report/ (and core), never on cli/ or server/. It was
 * given its own folder rather than src/report/ because report/ depends on
 * core only and must not know the trace model.
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

#include "core/err.h"
#include "report/report.h"
#include "tbprof/kernels.h"
#include "tbprof/memory.h"
#include "tbprof/ops.h"
#include "tbprof/session.h"
#include "trace/trace.h"

enum view_kind { VIEW_SUMMARY, VIEW_STEPS, VIEW_OPS, VIEW_KERNELS, VIEW_MEMORY, VIEW_COUNT };

/* The options of every view (the commands' options); view_opts_init gives
 * the commands' defaults. Fields a view does not use are ignored. */
struct view_opts {
	bool tb_compat;		       /* all: --tb-compat */
	bool timeline;		       /* summary: --timeline */
	bool only_steps;	       /* steps: --step, rows step_lo..step_hi only */
	int64_t step_lo, step_hi;      /* inclusive */
	const char *step_text;	       /* the --step text, for the error message */
	enum ops_group ops_group;      /* ops: --group-by */
	bool ops_stack;		       /* ops: --stack */
	enum ops_sort ops_sort;	       /* ops: --sort (OPS_SORT_TB = tb's default) */
	enum kern_group kern_group;    /* kernels: --group-by */
	size_t top;		       /* ops, kernels: --top (SIZE_MAX = all) */
	const char *device;	       /* memory: --device (NULL = default) */
	bool curve, events, step_plot; /* memory: --curve, --events, --step-plot */
	bool windowed;		       /* memory: --start/--end given */
	size_t curve_points;	       /* memory: --curve-points (0: every point) */
	struct mem_window window;      /* relative to the profiler start */
};

struct view;

void view_opts_init(struct view_opts *o);
/* "summary", "steps", "ops", "kernels", "memory"; VIEW_COUNT when unknown. */
enum view_kind view_kind_parse(const char *name);
const char *view_kind_name(enum view_kind k);

/* Runs the analyses of view k on the session's trace; the links, steps
 * and operator tree come from the session (built there once, shared with
 * every other view of it), which must outlive the view. Errors: ERR_USAGE
 * for a request the trace cannot answer (no such memory device, no such
 * step), else what the analyses return. */
int view_compute(enum view_kind k, struct ses *s, const struct view_opts *o, struct view **out,
		 struct err *e);
/* Writes the view's tables and sections into r (which stays open). */
void view_emit(struct view *v, struct report *r);
void view_free(struct view *v);
/* view_compute + view_emit + view_free. */
int view_write(enum view_kind k, struct ses *s, const struct view_opts *o, struct report *r,
	       struct err *e);

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
#define TL_MAX_FLOWS 10000  /* flow arrows per answer; more sets "flows_truncated" */

struct tl_opts {
	bool has_start, has_end;
	int64_t start_ns, end_ns; /* from the trace's start; default: all of it */
	int px;			  /* 1..TL_MAX_PX */
	bool flows;		  /* add the flow arrows with an end in the window */
	const uint8_t *match;	  /* by string id: 1 marks a searched name (tl_find_match):
				     events get "match": true, spans "matches": N; or NULL */
};

/* Writes the window's lanes as JSON to f: O(events overlapping the window +
 * log n) per track. ERR_USAGE for an empty or reversed window. */
int tl_write_json(const struct tl_index *ix, const struct tl_opts *o, FILE *f, struct err *e);
/* The events linked to event row `row` (its GPU activities or its launcher,
 * by correlation; the events its s/t/f flows bind to) as JSON to f.
 * ERR_USAGE when there is no such row. */
int tl_write_links(const struct tl_index *ix, int64_t row, FILE *f, struct err *e);

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
