/* select: the device events Holistic Trace Analysis (HTA) reads from one
 * trace, with the times and the filtering of its loader, so that the
 * analyses of this area (hta/idle.h, ...) give HTA's numbers.
 *
 * What HTA's loader does, and so what this module does
 * (shared/reference/hta.md §A.1):
 *   - It keeps the complete events (X with a dur), not B/E pairs nor
 *     instants; the profiler's "Trace" spans and gpu_user_annotation are
 *     dropped.
 *   - When one event of traceEvents has a ts that is not a whole number of
 *     microseconds (or has none), its ts column is floating point and every
 *     event is rounded to whole microseconds: ts up (ceil), end = ts + dur
 *     down (floor, of the float sum), dur = end - ts. Here the times stay in
 *     ns, multiples of 1000 when rounded; the float arithmetic (the double
 *     nearest each decimal, their sum) is reproduced exactly.
 *   - A device event is one with a "stream" (kernels, memcpys, memsets,
 *     cuda_sync, another accelerator's work such as MTIA's
 *     mtia_ccp_events); its launching CPU event is the one with the same
 *     correlation (the last in file order when several have it).
 *   - With two or more ProfilerStep#N names, the GPU events launched from
 *     the last step on are dropped: on CUDA, a GPU event (stream >= 0 and
 *     correlation >= 0) stays when a CPU event of its correlation starts
 *     before the last step does; any other device event stays when it
 *     starts before that. On MTIA (distributed backend "mtia:hccl"), the
 *     device events kept are those whose correlation is a CPU event inside
 *     the steps, and the memory ones (names Memcpy/Memset/dma...) that start
 *     inside a step, which take their tid as stream when they have none.
 *
 * Not reproduced: pandas' unstable sort among events of equal ts, and
 * cpu_ops carrying a "stream" argument (Triton's), which HTA would count
 * as device events. Owns its array. Depends on trace/.
 */
#ifndef GP_HTA_SELECT_H
#define GP_HTA_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "trace/trace.h"

/* HTA's kernel types (by name: communication first, then memory, then
 * computation, else other). */
enum hta_ktype { HTA_COMM, HTA_MEMORY, HTA_COMPUTE, HTA_KOTHER };

#define HTA_NO_TS INT64_MIN

struct hta_ev {
	int64_t ts, end; /* ns, as HTA has them (rounded to whole us when it rounds) */
	int64_t rt_ts;	 /* ts of the launching CPU event, HTA_NO_TS when none */
	uint32_t row;	 /* the event's row in the trace */
	uint32_t rt_row; /* the launching CPU event's row, TR_NONE when none */
	int64_t stream;	 /* never -1 here */
	uint8_t ktype;	 /* enum hta_ktype */
	bool kernel_cat; /* a kernel, memcpy, memset or accelerator event (not cuda_sync) */
};

enum hta_filter { HTA_FILTER_NONE, HTA_FILTER_CUDA, HTA_FILTER_MTIA };

struct hta_events {
	struct hta_ev *v; /* in row order */
	size_t n;
	bool rounded;		/* times rounded to whole microseconds */
	enum hta_filter filter; /* which last-step filter ran */
	size_t dropped;		/* device events the filter dropped */
	uint32_t sync[2];	/* string ids of "Event Sync", "Context Sync" (or none) */
	int64_t lo, hi;		/* CUDA: the CPU events kept start before lo; MTIA:
				 * they lie inside [lo, hi] */
};

/* The device events of t with a stream other than -1. 0, or ERR_NOMEM. */
int hta_events(const struct trace *t, struct hta_events *out, struct err *e);
void hta_events_free(struct hta_events *h);

/* For the analyses that read CPU events too (hta/launches.h), after
 * hta_events: event row r's times as HTA has them; whether it is a CPU
 * event that h's filter keeps (no stream, or HTA's CPU side under the
 * filter that ran); its stream. */
void hta_row_times(const struct trace *t, const struct hta_events *h, size_t r, int64_t *ts,
		   int64_t *end);
bool hta_cpu_kept(const struct trace *t, const struct hta_events *h, size_t r);
int64_t hta_row_stream(const struct trace *t, size_t r);
/* Whether HTA's loader keeps row r at all (a complete event, not a
 * profiler span nor a gpu_user_annotation), before any filter. */
bool hta_row_kept(const struct trace *t, size_t r);
/* The string ids (UINT32_MAX when absent) of the calls HTA counts as
 * launches (its get_runtime_launch_events_mask): cudaLaunchKernel,
 * cudaLaunchKernelExC, cuLaunchKernel, cuLaunchKernelEx, cudaMemcpyAsync,
 * cudaMemsetAsync, MTIA's "runFunction - job_prep_and_submit_for_execution",
 * hipLaunchKernel, hipExtModuleLaunchKernel, hipMemcpyAsync, hipMemsetAsync,
 * hipMemcpyWithStream; and whether row r is one of them. */
#define HTA_NLAUNCH 12
void hta_launch_ids(const struct trace *t, uint32_t ids[HTA_NLAUNCH]);
bool hta_is_launch(const struct trace *t, const uint32_t ids[HTA_NLAUNCH], size_t r);
/* HTA's kernel type of a name. */
enum hta_ktype hta_kernel_type(const char *name, size_t len);
/* hta_kernel_type of string id nm, classified once per name: ktype has a
 * byte per string of t's pool, zeroed before the first call (it holds the
 * type + 1, 0 until known). */
enum hta_ktype hta_name_ktype(const struct trace *t, uint8_t *ktype, uint32_t nm);

#endif
