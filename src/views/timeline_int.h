/* timeline internals: the index of a trace that view_timeline.c (lanes,
 * lane order, instants), view_timeline_more.c (counters, flows, an event's
 * links) and view_timeline_find.c (search) share. Private to those files. */
#ifndef GP_VIEWS_TIMELINE_INT_H
#define GP_VIEWS_TIMELINE_INT_H

#include <pthread.h>
#include <stdio.h>

#include "hta/counters.h"
#include "trace/link.h"
#include "views/timeline_lod.h"
#include "views/view.h"

struct tl_index {
	const struct trace *t;
	uint32_t *rows;	 /* per track, in (ts, longer first) order; no instants */
	size_t *first;	 /* rows[first[k] .. first[k+1]) are track k's */
	uint16_t *depth; /* by position in rows */
	int64_t *maxend; /* by position: max end over the track up to here */
	uint32_t *pos;	 /* event row -> position in rows (TR_NONE: an instant) */
	uint32_t *order; /* the tracks in lane order (tl_lane_before) */
	uint8_t *gpu;	 /* per track: it holds GPU activities (kernel, memcpy, memset) */
	uint32_t *inst;	 /* instant rows per track, by (ts, row) */
	size_t *ifirst;	 /* inst[ifirst[k] .. ifirst[k+1]) are track k's */
	/* counters: rows of t->counters grouped by (process, name, series),
	 * groups in lane order of their process then first appearance, rows of
	 * a group by (ts, row) */
	uint32_t *crows;
	size_t *cfirst; /* crows[cfirst[g] .. cfirst[g+1]) are group g's */
	size_t ngroups;
	uint32_t *proc_rank; /* process row -> rank of its first lane (lane order) */
	/* flow events s/t/f by (cat, id, ts, s<t<f, row): consecutive events of
	 * one (cat, id) are the arrows of a chain */
	uint32_t *flows;
	struct tr_links links; /* launcher -> GPU activity (correlation) */
	/* the arrows a window may draw, in the order they are written
	 * (launches by launcher, then chains): an arrow's id is its place
	 * here; by_t0 and by_t1 hold the ids by each end's time */
	struct tl_arrow {
		uint32_t a, b; /* launcher and GPU row; a chain: a = place in
				* flows of its first event, b = TR_NONE */
	} * arrows;
	size_t narrows;
	uint32_t *by_t0, *by_t1;
	/* search (view_timeline_find.c): the positions in rows of the slices
	 * of each name (string id), npos[nfirst[id] .. nfirst[id+1]) */
	uint32_t *nfirst;
	uint32_t *npos;
	uint32_t nnames; /* string ids at build time: nfirst has nnames + 1 */
	/* HTA's queue length and memcpy bandwidth (view_timeline_counters.c):
	 * built by the first window that asks for them (stream_counters, off
	 * by default), under hta_mu: the one part of the index that is not
	 * built with it, so a timeline that never shows them never pays */
	pthread_mutex_t hta_mu;
	bool hta_mu_ok, hta_tried;
	struct hta_counters *hta; /* NULL until built, or when it failed */
};

/* The trace's span [*lo, *hi] and the window [*A, *B) of o in it
 * (tl_window's rule and errors). */
int tl_trace_window(const struct trace *t, const struct tl_opts *o, int64_t *lo, int64_t *hi,
		    int64_t *A, int64_t *B, struct err *e);

/* The event's end (a negative duration counts as 0). */
int64_t tl_ev_end(const struct trace *t, uint32_t r);

/* view_timeline_more.c: the extra index parts (counters, flows, links) and
 * their answers. */
int tl_more_build(struct tl_index *ix);
void tl_more_free(struct tl_index *ix);
/* "counters": [...] of the window [A, B) at px columns (W = B - A); items
 * adds the points written, capped by TL_MAX_ITEMS (*truncated). lo: the
 * trace's start. */
void tl_write_counters(const struct tl_index *ix, FILE *f, int64_t A, int64_t B, int px, int64_t lo,
		       size_t *items, bool *truncated);
/* A step series read through get (positions [b, en), ts ascending). */
struct tl_points {
	const void *ctx;
	size_t b, en;
	void (*get)(const void *ctx, size_t pos, int64_t *ts, double *value);
};
/* `, "points": [...], "samples": N, "min": X, "max": Y` of the series in
 * the window, reduced per pixel column as the counters are. */
void tl_write_points(const struct tl_points *pt, FILE *f, int64_t A, int64_t B, int px, int64_t lo,
		     size_t *items, bool *truncated);
/* "flows": [...], "flows_total", "flows_truncated" of the window. */
void tl_write_flows(const struct tl_index *ix, FILE *f, int64_t A, int64_t B, int64_t lo);

/* view_timeline_counters.c: HTA's counters of the trace (tl_counters_build
 * only readies their lock; the first tl_write_stream_counters computes
 * them), and their "stream_counters": [...] member of the window (empty
 * when they could not be computed). */
int tl_counters_build(struct tl_index *ix);
void tl_counters_free(struct tl_index *ix);
void tl_write_stream_counters(const struct tl_index *ix, FILE *f, int64_t A, int64_t B, int px,
			      int64_t lo, size_t *items, bool *truncated);

/* view_timeline_agg.c: the event's duration less its direct children's
 * (an instant: 0). */
int64_t tl_self_ns(const struct tl_index *ix, uint32_t row);

/* view_timeline_find.c: the slices by name (the search's index part). */
int tl_find_build(struct tl_index *ix);
void tl_find_free(struct tl_index *ix);

#endif
