/* timeline_lod: the timeline's level-of-detail rule, in one place for every
 * source of lanes: view_timeline.c (PyTorch traces) and view_nsys_tl.c
 * (Nsight Systems exports) hand it a lane as positions in (ts, longer
 * first) order through an accessor, and it computes the nesting depths and
 * running max ends (tl_nest) and writes the window's items (tl_lane_items):
 * events at least one pixel column long one by one, shorter ones merged per
 * depth and column into spans {count, busy_ns}, written as columns.
 *
 * The accessor is a function rather than plain arrays because a trace keeps
 * its durations narrow (tr_dur) and its rows in another order: copying them
 * into per-position arrays would double the index's memory on multi-GB
 * traces. Private to src/views. */
#ifndef GP_VIEWS_TIMELINE_LOD_H
#define GP_VIEWS_TIMELINE_LOD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "report/report.h"
#include "views/view.h"

/* One event of a lane: start, duration (< 0 counts as 0) and the row the
 * answer names it by. */
struct tl_ev {
	int64_t ts, dur;
	uint32_t row;
};
/* events read at a time through tl_lane.get */
#define TL_RUN 256

/* A lane: positions [b, en) of its source, read through get (the n events
 * at positions pos.. into ev: a run at a time, since a whole trace's window
 * reads millions and a call each cost a quarter of the answer); label writes
 * the event's "kind": K, "name": N members. */
struct tl_lane {
	const void *ctx;
	size_t b, en;
	const uint16_t *depth; /* by position (tl_nest) */
	const int64_t *maxend; /* by position: max end over the lane up to here */
	void (*get)(const void *ctx, size_t pos, size_t n, struct tl_ev *ev);
	void (*label)(const void *ctx, uint32_t row, FILE *f);
	/* optional (NULL: no marks): whether the event of row matches a search;
	 * a matching event gets "match": true, a merged span "matches": N */
	bool (*match)(const void *mctx, uint32_t row);
	const void *mctx;
};

/* What a lane's window held: events meeting it, the depth-0 busy time in
 * it, the items written and the number of depths. */
struct tl_lane_sum {
	int64_t events, busy_ns, shown;
	int depths;
};

static inline int64_t tl_end_of(const struct tl_ev *ev)
{
	return ev->ts + (ev->dur > 0 ? ev->dur : 0);
}

/* The first position in [b, en) whose running max end reaches A (en when
 * none): where a window starting at A begins. */
size_t tl_first_reaching(const int64_t *maxend, size_t b, size_t en, int64_t A);

/* Fills ln->depth and ln->maxend (writable arrays of the caller) over
 * positions [b, en): a stack of open events' ends; an event that outlasts
 * its parent still nests under it; depths past TL_MAX_DEPTH - 1 share the
 * last level. */
void tl_nest(const struct tl_lane *ln, uint16_t *depth, int64_t *maxend);

/* The window [*A, *B) in absolute ns from o (relative to lo; default [lo,
 * hi)); ERR_USAGE (with the API's message) for an empty or out-of-range one. */
int tl_window(int64_t lo, int64_t hi, const struct tl_opts *o, int64_t *A, int64_t *B,
	      struct err *e);
/* {"timeline": {...}, "lanes": [ : the answer's opening. */
void tl_write_head(FILE *f, int64_t lo, int64_t hi, int64_t A, int64_t B, int px);
/* Writes `, "items": [...], "spans": {...}, "events": N, "busy_ns": N,
 * "depths": N, "items_shown": N` of the lane in [A, B) at px columns, times
 * relative to lo: items the events drawn one by one, spans the merged ones
 * as columns (docs/viewer.md); *items counts the items and spans of the
 * whole answer, capped by TL_MAX_ITEMS (*truncated set when it cut). */
void tl_lane_items(const struct tl_lane *ln, FILE *f, int64_t A, int64_t B, int px, int64_t lo,
		   size_t *items, bool *truncated, struct tl_lane_sum *sum);

/* Rows of up to TL_ROW_MAX integers, written as columns: an answer's
 * merged spans and runs of instants (thousands of them in a window: as
 * columns they cost less than half the bytes of an object each). */
#define TL_ROW_MAX 7
struct tl_rows {
	int64_t *v; /* n rows of TL_ROW_MAX */
	size_t n, cap;
	bool lost; /* a row could not be kept (no memory): the answer is truncated */
};
/* Adds a row (TL_ROW_MAX values); false (and lost set) without memory. */
bool tl_rows_add(struct tl_rows *r, const int64_t *v);
/* Writes {"keys[0]": [...], ...}: the first nk values of every row. */
void tl_write_cols(FILE *f, const char *const *keys, int nk, const struct tl_rows *r);

/* Writes `"instant_runs": {"col": [..], "ts": [..], "end": [..], "count":
 * [..]}`: a lane's runs of instants (rows col, ts, end, count). */
void tl_write_instant_runs(FILE *f, const struct tl_rows *runs);

/* One flow arrow of an answer: a launch (runtime call -> GPU activity;
 * cat and name NULL) or a step of an s/t/f chain; its ends' ts relative to
 * the trace's start, row -1 when the end binds to no slice. */
struct tl_flow_end {
	uint32_t track;
	unsigned depth;
	int64_t ts, row;
};
struct tl_flow_out {
	bool launch;
	int64_t id;
	const char *cat, *name;
	struct tl_flow_end from, to;
};
/* Writes `, "flows": {...}, "flows_total": total, "flows_truncated": B`:
 * the n arrows v as columns (kind, id, cat, name, and from and to each
 * {track, ts, row, depth}; docs/viewer.md), truncated when total > n. */
void tl_write_flow_cols(FILE *f, const struct tl_flow_out *v, size_t n, size_t total);

#endif
