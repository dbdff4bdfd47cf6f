/* steps: training steps and the overview's time breakdown, computed as
 * torch-tb-profiler computes them (tb_profiler.md §5.1-§5.3).
 *
 * 1. Host steps: ProfilerStep#N events (cpu_op or user_annotation; with
 *    tb_compat also gpu_user_annotation copies, as the reference does), in
 *    (ts, input order). None: one step "0" over the span of cpu_op and
 *    python events.
 * 2. Device adjustment: runtimes lying entirely inside a host step (two
 *    pointers over runtimes sorted by start) give the step's device
 *    min/max; a step then starts at max(previous step's end, host start)
 *    and ends at max(host end, device end); tail steps without device
 *    work, and a last step with fewer than 0.8x its predecessor's device
 *    activities, are removed.
 * 3. Role ranges: every complete (X) event gives one interval of one role
 *    (Kernel, or Communication when its external id is a collective op's;
 *    Memcpy, Memset, Runtime, DataLoader, CPU Exec), merged per role; then
 *    the priority breakdown per step (roles add up to the step's time).
 *
 * Only X events are used (the reference reads no B/E pairs). Negative
 * durations count as 0. Arithmetic is exact int64 ns (under tb_compat on
 * timestamps below 2^49 µs exact int64 in units of tb's float spacing,
 * tbtime.h tb_unit, converted at the end: tb_floats); averages are sums
 * divided by the step count. Without tb_compat, gpu_user_annotation events
 * take no part at all (they are GPU-timeline copies of host annotations:
 * the reference turns them into duplicate or empty steps and counts them
 * as CPU Exec). Owns the step array. Depends on trace/trace, trace/link,
 * tbprof/ranges.
 */
#ifndef GP_STEPS_H
#define GP_STEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "trace/link.h"
#include "trace/trace.h"

/* X(id, key, title): the breakdown parts in priority order, then Total. */
#define ST_PARTS(X)                                                                                \
	X(ST_KERNEL, "kernel", "Kernel")                                                           \
	X(ST_MEMCPY, "memcpy", "Memcpy")                                                           \
	X(ST_MEMSET, "memset", "Memset")                                                           \
	X(ST_COMM, "communication", "Communication")                                               \
	X(ST_RUNTIME, "runtime", "Runtime")                                                        \
	X(ST_DATALOADER, "dataloader", "DataLoader")                                               \
	X(ST_CPU_EXEC, "cpu_exec", "CPU Exec")                                                     \
	X(ST_OTHER, "other", "Other")                                                              \
	X(ST_TOTAL, "total", "Total")

enum st_part {
#define X(id, key, title) id,
	ST_PARTS(X)
#undef X
	    ST_NPARTS
};
#define ST_NROLES ST_OTHER /* parts that come from event ranges */

const char *st_part_key(enum st_part p);
const char *st_part_title(enum st_part p);

struct st_opts {
	bool tb_compat; /* gpu_user_annotation as the reference treats it */
};

struct st_step {
	int64_t number;		      /* N of ProfilerStep#N; 0 for the fallback step */
	int64_t start, end;	      /* final range, ns */
	int64_t host_start, host_end; /* the step event's own range */
	uint32_t devices;	      /* activities launched from inside the host range */
	int64_t cost[ST_NPARTS];      /* ns; cost[ST_TOTAL] = end - start */
	double tb_us[ST_NPARTS];      /* with tb_floats: tb's float µs of each part */
};

struct st_result {
	struct st_step *steps;
	size_t n;
	size_t host_steps;    /* steps before the tail trimming */
	bool fallback;	      /* no ProfilerStep: step "0" over the CPU span */
	bool device_adjusted; /* some step launched device work (GPU mode) */
	bool has_kernel, has_runtime, has_memcpy_or_memset, has_communication;
	bool has_nccl, has_gloo; /* collective ops of either library seen */
	/* under tb_compat on timestamps below 2^49 µs: the parts are tb's
	 * floats (tbtime.h tb_unit; cost as tb_ns_shown gives them, tb_us the
	 * floats), and the averages are its float means of them */
	bool tb_floats;
	int64_t sum[ST_NPARTS]; /* Σ over the steps */
};

/* l: links built with driver=false (the reference's runtime categories).
 * A trace with neither steps nor cpu_op/python events gives n = 0. */
int st_compute(const struct trace *t, const struct tr_links *l, const struct st_opts *o,
	       struct st_result *out, struct err *e);
/* st_compute's steps without their breakdown: each step's number, range,
 * host range and device count, and n, host_steps, fallback and
 * device_adjusted, all equal to st_compute's; costs, sums and the has_*
 * flags stay 0. For callers that only need where the steps are (--step). */
int st_bounds(const struct trace *t, const struct tr_links *l, const struct st_opts *o,
	      struct st_result *out, struct err *e);
void st_free(struct st_result *r);
/* The average Σ / n: in ns rounded to the nearest (ties to even), and as
 * the reference's float in µs (Σ µs / n, what its percentages divide);
 * 0 when there are no steps. */
int64_t st_avg_ns(const struct st_result *r, enum st_part p);
double st_avg_us(const struct st_result *r, enum st_part p);
/* The reference's column gating (§5.4): device parts shown when there are
 * runtimes, kernels, memcpys or memsets; Communication when it has ranges. */
bool st_part_shown(const struct st_result *r, enum st_part p);

#endif
