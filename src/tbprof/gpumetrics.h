/* gpumetrics: the overview's per-GPU numbers, as torch-tb-profiler
 * computes them (tb_profiler.md §6.1-§6.4).
 *
 * GPU = a kernel's args.device (kernels without it are left out; memcpy
 * and memset never count). Over the window [first step start, last step
 * end] (gaps between steps included):
 *  - GPU Utilization = |merged kernel ranges ∩ window| / |window|;
 *  - Est. SM Efficiency = Σ over the blocks-per-SM sweep's ranges (value =
 *    min(Σ blocks/SM of the running kernels, 1)) clipped to the window of
 *    value × length, / |window|; absent when no range falls inside;
 *  - Est. Achieved Occupancy = Σ occupancy% × clipped duration /
 *    Σ clipped duration over kernels with an occupancy; absent when 0.
 * The utilization timeline (§6.2) buckets the merged kernel ranges over
 * the profiler window event's span (else the span of every event the
 * reference reads) in power-of-ten µs buckets, at most 100 of them.
 * Only complete (X) events are read. Lengths are int64 ns (exact, or
 * under tb_compat the plugin's float times where they are whole ns); weighted
 * sums are accumulated in µs doubles in the reference's order, so traces
 * with whole-µs times give the reference's doubles bit for bit. Owns the
 * result arrays. Depends on trace/trace, tbprof/ranges.
 */
#ifndef GP_GPUMETRICS_H
#define GP_GPUMETRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "tbprof/ranges.h"
#include "trace/trace.h"

struct gm_bucket {
	int64_t start; /* ns */
	double value;  /* busy fraction of the bucket; the last point is (end, 0) */
};

struct gm_gpu {
	int64_t id;	  /* args.device */
	uint64_t kernels; /* kernel events on it */
	int64_t busy_ns;  /* merged kernel time inside the window */
	bool has_utilization, has_sm_efficiency, has_occupancy;
	double utilization;	      /* fraction 0..1 */
	double sm_efficiency;	      /* fraction 0..1 */
	double occupancy;	      /* percent 0..100, as the trace gives it */
	uint64_t blocks_per_sm_count; /* kernels with blocks per SM > 0 */
	uint64_t occupancy_count;     /* kernels with an occupancy >= 0 */
	/* only when asked for the timeline: */
	struct gm_bucket *buckets;
	size_t nbuckets;
	struct rgv_vec sm_ranges; /* the whole sweep, not clipped */
};

struct gm_result {
	struct gm_gpu *gpus; /* ascending id */
	size_t n;
	bool has_window;
	int64_t win_start, win_end;
	bool has_range; /* timeline range known */
	int64_t range_start, range_end;
	int64_t bucket_ns; /* timeline bucket size (0 when none) */
};

/* Window from the steps (has_window false when there is none: every
 * metric is then absent). timeline: fill buckets and sm_ranges.
 * tb_compat: the kernels' and the range's times as the plugin's floats
 * give them (tbtime.h), as the steps' window already is. */
int gm_compute(const struct trace *t, bool tb_compat, bool has_window, int64_t win_start,
	       int64_t win_end, bool timeline, struct gm_result *out, struct err *e);
void gm_free(struct gm_result *r);

/* Each GPU's busy time in each of several windows at once (one sort and
 * merge of the kernels, not one per window): busy[w * n + g] is the
 * busy_ns gm_compute gives GPU gpus[g] with window win[w]. */
struct gm_busy {
	int64_t *gpus; /* ascending id */
	size_t n, nwin;
	int64_t *busy;
};
int gm_busy(const struct trace *t, const struct rg *win, size_t nwin, struct gm_busy *out,
	    struct err *e);
void gm_busy_free(struct gm_busy *b);

#endif
