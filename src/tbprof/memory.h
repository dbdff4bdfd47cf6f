/* memory: torch-tb-profiler's Memory view (shared/reference/tb_profiler.md
 * §10): the allocator's [memory] records attributed to operators, the
 * per-operator statistics table, peaks, the allocated/reserved curve and
 * the allocation events table.
 *
 * mem_build sorts the records by (ts, input order), walks each thread's
 * operator tree (optree.h; under tb_compat the tree the backward-module
 * rewrite made, optree_kid_*) with that thread's records to find the
 * deepest node holding each one (start <= ts < end), and lets every free
 * inherit the operator of the latest pending allocation at its address.
 * The views (memory_views.c) then read the attributed records.
 *
 * Two behaviours differ from torch-tb-profiler unless tb_compat is set (see
 * docs/tb-compat.md, quirks 9 and 12):
 * - Calls counts every operator node in the window; tb skips operators
 *   below a node the attribution walk never entered.
 * - The events table keeps an allocation that a second allocation at the
 *   same address replaced before any free (shown with no release), and
 *   every free that matches no allocation; tb keeps only the last of each.
 * Also outside tb_compat: "[memory]" instants with ph "I" and B/E host
 * pairs take part (tb reads ph "i" and X events only), and a record whose
 * tid is a string naming a number joins that thread (tb never matches it).
 *
 * Records whose "Device Type" is neither 0 (CPU) nor 1 (CUDA) are counted
 * and left out of every per-device output, as tb does. Records without
 * "Addr" (PyTorch < 1.10) count in the statistics only. The curve is not
 * down-sampled (tb applies LTTB above 10,240 points per device).
 *
 * Times are int64 ns (absolute on the trace's clock inside, relative to the
 * profiler start in the views), sizes int64 bytes. Cost: O(n log n) in
 * records plus linear in tree nodes per device for the statistics.
 * Owns its arrays; reads the tree and trace, which must outlive it.
 * Depends on tbprof/optree, trace/trace.
 */
#ifndef GP_MEMORY_H
#define GP_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "tbprof/optree.h"

#define MEM_NO_DEV UINT16_MAX
#define MEM_NIL UINT32_MAX

struct mem_opts {
	bool tb_compat; /* reproduce torch-tb-profiler exactly (see above) */
	/* The origin of the times (the trace's start, ns); unset: tb's
	 * profiler start, the first parsed event. */
	bool has_origin;
	int64_t origin;
};

struct mem_device {
	int32_t type;	  /* 0 CPU, 1 CUDA */
	int32_t id;	  /* CUDA device id (CPU records all form one device) */
	char name[24];	  /* "cpu", "cuda:0" */
	char tb_name[24]; /* tb's key: "CPU", "GPU0" */
	uint64_t records;
	bool has_allocated, has_reserved;      /* a record carried the total */
	int64_t peak_allocated, peak_reserved; /* bytes */
};

struct mem_rec {
	int64_t ts;				 /* ns, absolute */
	int64_t bytes;				 /* > 0 allocation, <= 0 free */
	int64_t total_allocated, total_reserved; /* INT64_MIN when absent */
	uint64_t addr;
	uint32_t row;	 /* event row */
	uint32_t node;	 /* the operator node it joined, MEM_NIL (stale) */
	uint32_t op;	 /* label: the allocation's operator (frees inherit), MEM_NIL */
	uint32_t parent; /* the label operator's parent node, MEM_NIL */
	uint16_t dev;	 /* index in memory.devs, MEM_NO_DEV for other device types */
	bool has_addr;
};

struct memory {
	const struct optree *o;
	struct mem_opts opts;
	struct mem_rec *recs; /* by (ts, input order) */
	size_t n;
	struct mem_device *devs; /* CPU first, then CUDA devices by id */
	size_t ndevs;
	int64_t start;		 /* profiler start (tb's profiler_start_ts), ns */
	uint8_t *reached;	 /* per tree node: the attribution walk entered it */
	uint64_t assigned;	 /* records that joined an operator */
	uint64_t stale;		 /* records outside every operator */
	uint64_t no_addr;	 /* records without "Addr" */
	uint64_t unknown_device; /* records of other device types */
};

/* A closed window [start, end] of absolute ns; INT64_MIN / INT64_MAX for
 * an open side. NULL window pointers mean everything. */
struct mem_window {
	int64_t start, end;
};

int mem_build(const struct optree *o, const struct mem_opts *opts, struct memory *out,
	      struct err *e);
/* Only the devices with their peaks and record counts, without a tree and
 * without keeping the records (what the Overview's and a rank summary's
 * peaks need): o and recs are NULL, n, assigned and stale 0, and start is
 * 0 (or the origin). */
int mem_peaks(const struct trace *t, const struct mem_opts *opts, struct memory *out,
	      struct err *e);
void mem_free(struct memory *m);
/* The device tb shows first: the first GPU (the lowest id; with tb_compat
 * the first of tb's names "GPU<id>" in string order), else the CPU;
 * MEM_NO_DEV when there are no devices. */
uint16_t mem_default_device(const struct memory *m);
/* Device by name: "cpu", "cuda:N", "cuda" (= cuda:0), or tb's "CPU",
 * "GPUN"; MEM_NO_DEV when the trace has no such device. */
uint16_t mem_find_device(const struct memory *m, const char *name);

/* ---- the per-operator statistics table (memory_views.c) */

struct mem_stat_row {
	uint32_t name; /* string id */
	uint64_t calls;
	int64_t increase, self_increase;       /* Σ bytes (frees negative) */
	int64_t alloc_count, self_alloc_count; /* allocations */
	int64_t alloc_size, self_alloc_size;   /* Σ allocated bytes */
};

struct mem_stats {
	struct mem_stat_row *rows; /* by name (byte order); only non-zero rows */
	size_t n;
};

int mem_stats(const struct memory *m, uint16_t dev, const struct mem_window *w,
	      struct mem_stats *out, struct err *e);
void mem_stats_free(struct mem_stats *s);

/* ---- the curve */

struct mem_point {
	int64_t time; /* ns since the profiler start */
	int64_t allocated, reserved;
};

struct mem_curve {
	struct mem_point *v;
	size_t n;
};

/* Records with an address and both totals, of device dev, in the window.
 * step_plot: before each point but the first, a point at its time holding
 * the previous values (tb's patch, 2n-1 points). */
int mem_curve(const struct memory *m, uint16_t dev, const struct mem_window *w, bool step_plot,
	      struct mem_curve *out, struct err *e);
void mem_curve_free(struct mem_curve *c);
/* Points each column keeps in mem_curve_reduce. */
#define MEM_CURVE_KEEP 6
/* A level of detail of the curve with at most max_points points (no change
 * when it has no more, or max_points < MEM_CURVE_KEEP): its time span is cut
 * into max_points / MEM_CURVE_KEEP equal columns, and each column keeps its
 * first and last points and those of its lowest and highest allocated and
 * reserved values (first occurrences). Points are only dropped, never
 * changed; each column's extremes, so the peaks, remain. */
void mem_curve_reduce(struct mem_curve *c, size_t max_points);

/* ---- the allocation events table */

struct mem_event {
	uint32_t alloc, release; /* record indices, MEM_NIL when unknown */
	int64_t bytes;		 /* the free's -Bytes for pairs, else the record's |Bytes| */
	uint32_t label;		 /* offset in mem_events.text */
};

struct mem_events {
	struct mem_event *v; /* tb's order: pairs by release, then unpaired
				allocations, then unpaired frees */
	size_t n;
	char *text;
	size_t text_len, text_cap;
};

int mem_events(const struct memory *m, uint16_t dev, const struct mem_window *w,
	       struct mem_events *out, struct err *e);
void mem_events_free(struct mem_events *ev);
static inline const char *mem_event_label(const struct mem_events *ev, const struct mem_event *x)
{
	return ev->text + x->label;
}

#endif
