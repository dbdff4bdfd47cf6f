/* stacks: call stacks of a loaded trace, from temporal nesting per track,
 * aggregated into a tree of distinct stacks (what every export writes).
 *
 * Per track (pid, tid) the events are taken in tr_track_order's order: ts
 * ascending, then longer first, then input order, so the result never
 * depends on a sort's stability. An event is a child of the innermost open
 * event whose interval contains it (ends are inclusive: a child may end
 * exactly when its parent ends; an event starting exactly at another's end
 * is its sibling). Times are integer ns throughout.
 *
 * Partial overlaps (an event starting inside the innermost open event and
 * ending after it) are CLIPPED to that parent: the event becomes its child
 * with the duration [ts, parent end). Its ancestors stay open, so nothing
 * that follows on the thread loses its parents (torch2pprof drops the
 * ancestor for good, see docs/export.md). Clipped events and the ns cut off
 * are counted. With this rule, on every track the self times sum to the
 * roots' durations exactly (the invariant the tests check).
 *
 * Self time = (clipped) duration minus the children's (clipped) durations;
 * children of one parent never overlap, so it is never negative.
 *
 * gpu: each kernel / memcpy / memset that a runtime call launched
 * (trace/link.h) becomes a leaf under that runtime's stack, with its GPU
 * duration as its self time, and is left out of its stream's track (so it
 * is counted once). These leaves add GPU time to the inclusive (and total)
 * time of every frame above them, as pprof's cum does: the runtime call's
 * self time stays its host time, root_ns stays host time. Unlinked GPU
 * activities stay on their stream tracks.
 *
 * The profiler's own span (kind TR_TRACE_SPAN: Kineto's "PyTorch Profiler
 * (0)", category "Trace", which encloses the whole recording on a track of
 * its own) is no call: it is left out of stacks, totals and walks unless
 * profiler_span is set, so it never becomes a root holding a quarter of
 * every flame graph. This is the one place that decides it for every
 * export and for the top view.
 *
 * threads: a frame naming the track ("PROCESS (pid P) / THREAD (tid T)")
 * is the root of every stack. merge_tracks: identical stacks of different
 * tracks share one node (folded output); otherwise every track has its own
 * subtree (pprof, whose samples carry pid/tid labels).
 *
 * Cost: one pass over the events after tr_track_order; memory proportional
 * to the distinct frames and stacks (hash maps), plus the deepest stack.
 * An analysis of the model shared by the exports (src/export/) and the top
 * view (src/views/view_top.c). Owns its arrays; reads the trace (which must
 * outlive it) and never changes it. Depends on core and trace/.
 */
#ifndef GP_STACKS_H
#define GP_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/err.h"
#include "core/hmap.h"
#include "trace/trace.h"

#define STK_NONE UINT32_MAX
#define STK_THREAD_KIND 255 /* kind of the track-name frames */

struct stk_opts {
	bool gpu;	    /* GPU activities as leaves under their launch */
	bool threads;	    /* the track as the root frame */
	bool merge_tracks;  /* one tree for all tracks (ignored with threads) */
	bool profiler_span; /* keep the profiler's own span events (kind
			       TR_TRACE_SPAN, "PyTorch Profiler (0)"), left
			       out by default */
};

/* A distinct (name, kind) pair: one pprof function, one speedscope frame. */
struct stk_frame {
	const char *name; /* NUL-terminated; in the trace's pool or stk's arena */
	uint32_t len;
	uint8_t kind;  /* enum tr_kind, or STK_THREAD_KIND */
	uint32_t key;  /* name string id, or the track for thread frames */
	uint32_t open; /* walk state of stk_build (0 after it) */
	/* Totals over every event of this frame: */
	uint64_t calls;
	int64_t self_ns;
	int64_t total_ns; /* inclusive time, each nested recursion counted once
			     (pprof's "cum" for the function) */
};

/* One distinct stack: the frame under its parent node. Roots (one per track,
 * or one in all with merge_tracks) have frame STK_NONE. */
struct stk_node {
	uint32_t parent; /* STK_NONE for roots */
	uint32_t frame;
	uint32_t track;		/* a track of the first event (roots: their track,
				   STK_NONE for the merged root) */
	uint32_t depth;		/* frames from the root (roots: 0) */
	int32_t device, stream; /* GPU leaves: where they ran; -1 otherwise */
	uint64_t count;		/* events with this stack */
	int64_t self_ns;
	int64_t incl_ns; /* inclusive (clipped) duration summed, GPU leaves
			    below included */
};

struct stk_profile {
	const struct trace *t;
	struct stk_opts opts;
	struct arena arena; /* thread frame names */
	struct stk_frame *frames;
	size_t nframes, frames_cap;
	struct stk_node *nodes; /* a parent comes before its children */
	size_t nnodes, nodes_cap;
	uint32_t *track_root; /* track -> root node, STK_NONE when unused */
	struct hmap fmap;     /* (key, kind) -> frame */
	struct hmap nmap;     /* (parent, frame, device, stream; track for roots) -> node */
	/* totals */
	uint64_t events;    /* events placed in stacks */
	uint64_t clipped;   /* partially overlapping events clipped */
	int64_t clipped_ns; /* time cut off them */
	int64_t root_ns;    /* sum of root (top-level) durations, all tracks */
	int64_t gpu_ns;	    /* GPU leaf time (gpu option) */
	int64_t self_ns;    /* sum of all self times */
	int64_t min_ts, max_end;
};

int stk_build(const struct trace *t, const struct stk_opts *o, struct stk_profile *p,
	      struct err *e);
void stk_free(struct stk_profile *p);

/* Evented walk of one track (speedscope): open/close calls in time order,
 * properly nested, with the same frames and clipping as stk_build (the
 * track frame is not emitted; gpu is ignored: GPU activity is on its own
 * stream tracks). Frames are those of p (built with the same trace). */
struct stk_visit {
	void *ctx;
	int (*open)(void *ctx, uint32_t frame, int64_t at);
	int (*close)(void *ctx, uint32_t frame, int64_t at);
};
/* Event rows of every track in stack order (tr_track_order's arrays, less
 * the events left out: the profiler span unless profiler_span; a track of
 * those only is empty); the caller frees both. -1 on allocation failure. */
int stk_track_rows(const struct stk_profile *p, uint32_t **rows, size_t **first);
int stk_walk_track(const struct stk_profile *p, const uint32_t *rows, size_t n,
		   const struct stk_visit *v);

/* The frame of event row r (STK_NONE when r never became a frame). */
uint32_t stk_frame_of(const struct stk_profile *p, size_t r);
/* "PROCESS (pid P) / THREAD (tid T)" of a track into buf; without names
 * "pid P / tid T"; returns the length written. */
size_t stk_track_name(const struct trace *t, uint32_t track, char *buf, size_t size);
/* Category label of a frame ("kernel", "cpu_op", "thread", ...). */
const char *stk_kind_label(uint8_t kind);

#endif
