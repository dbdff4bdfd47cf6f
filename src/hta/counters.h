/* counters: HTA's augmented counters (shared/reference/hta.md §A.2:
 * get_queue_length_time_series / _summary, get_memory_bw_time_series /
 * _summary, get_time_spent_blocked_on_full_queue), over the device events
 * of hta/select.h.
 *
 * Queue length, per stream: the launch calls (hta_launch_ids: cudaLaunchKernel,
 * cudaLaunchKernelExC, cuLaunchKernel, cuLaunchKernelEx, cudaMemcpyAsync,
 * cudaMemsetAsync, MTIA's "runFunction - job_prep_and_submit_for_execution",
 * hipLaunchKernel, hipExtModuleLaunchKernel, hipMemcpyAsync, hipMemsetAsync,
 * hipMemcpyWithStream) among the CPU events HTA keeps, joined by
 * correlation to the device events of the same correlation: each (call,
 * device event) pair is +1 at the call's ts on the device event's stream,
 * each device event -1 at its own ts (a device event without such a call
 * counts nowhere). The points in one list (the +1 of the calls in row
 * order, each with its device events in row order, then the -1 in row
 * order), sorted by stream and ts, equal ones keeping that order (a stable
 * sort: HTA's pandas sort of equal ts is not, and is not reproduced; a +1
 * comes before the -1 of the same ts, so the count never goes negative).
 * The queue length of a point is the cumulative sum on its stream. Its
 * summary is pandas' describe() of a stream's points.
 *
 * Blocked on a full queue, per stream with a point at queue length >=
 * max_queue_length (HTA's 1024): the sum over those points of the time to
 * the stream's next point (the last point adds nothing), and that over the
 * trace's duration (HTA's: the latest minus the earliest ts of the events
 * it keeps, CPU and device; NaN when 0). HTA keeps only the last such
 * stream of a rank; here every one is a row.
 *
 * Memcpy bandwidth, per memcpy kind (HTA's memory kernels, the kind being
 * "Memset" for names that start so, the first 11 characters of a name
 * that starts with "Memcpy" ("Memcpy HtoD", ...), else "Memcpy Unknown"):
 * the event's "memory bandwidth (GB/s)" arg added at its ts and subtracted
 * at its end (a 0-duration event ends 1 us after its start), the points of
 * all starts (row order) then all ends, sorted by kind (bytewise) and ts
 * (stable), summed cumulatively in double (an event without the arg puts
 * NaN points and adds nothing). Its summary is describe() of the points
 * above 0.
 *
 * Times in ns (rounded to whole us where HTA rounds). Owns its arrays and
 * strings. Depends on hta/select, trace/, core/.
 */
#ifndef GP_HTA_COUNTERS_H
#define GP_HTA_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "core/stats.h"
#include "hta/select.h"

#define HTA_MAX_QUEUE_LENGTH 1024

struct hta_ql_point {
	int64_t ts;
	int32_t len;  /* queue length from ts on (a stream has < 2^31 points) */
	uint32_t row; /* the device event's row (its pid, tid) */
};

struct hta_bw_point {
	int64_t ts;
	double gbps;  /* bandwidth from ts on (NaN: an event without the arg) */
	uint32_t row; /* the memcpy/memset event's row */
};

struct hta_ql_stream {
	int64_t stream;
	size_t first, n; /* its points in hta_counters.ql */
	struct stats_desc desc;
	bool full;	      /* a point at >= max_queue_length: blocked_* are set */
	int64_t blocked_ns;   /* time at >= max_queue_length */
	double blocked_ratio; /* blocked_ns / the trace's duration, NaN when 0 */
};

struct hta_bw_kind {
	char *name;		/* "Memcpy HtoD", "Memset", ... */
	size_t first, n;	/* its points in hta_counters.bw */
	struct stats_desc desc; /* of the points above 0 (count 0: none) */
};

struct hta_counters {
	struct hta_ql_point *ql; /* by stream, then in series order */
	size_t nql;
	struct hta_ql_stream *streams; /* ascending */
	size_t nstreams;
	struct hta_bw_point *bw; /* by kind, then in series order */
	size_t nbw;
	struct hta_bw_kind *kinds; /* bytewise ascending */
	size_t nkinds;
	int64_t trace_ns; /* HTA's trace duration */
};

/* 0, or ERR_NOMEM with e set. max_queue_length >= 0. */
int hta_counters(const struct trace *t, const struct hta_events *h, int64_t max_queue_length,
		 struct hta_counters *out, struct err *e);
void hta_counters_free(struct hta_counters *c);

#endif
