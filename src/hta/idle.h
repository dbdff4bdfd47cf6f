/* idle: where a GPU stream waits, and the temporal breakdown of a rank's
 * GPU time, with HTA's definitions (shared/reference/hta.md §A.2:
 * get_idle_time_breakdown, get_temporal_breakdown), over the device events
 * of hta/select.h.
 *
 * Per stream (events of kernel, memcpy, memset or accelerator category, in
 * ts order, equal ts in file order): the gap before each event is its ts
 * minus the end of the event before it on the stream (negative when they
 * overlap). It is host wait when the event's launching CPU call started
 * after that end (the CPU was late to enqueue it); else kernel wait when
 * the gap is under the threshold (HTA's consecutive_kernel_delay, 30 in the
 * trace's unit: 30 us); else other. The first event of a stream has no gap
 * but puts the category "other" in the stream's table, as in HTA. A
 * category's idle time is the sum of its gaps, its ratio that sum over the
 * stream's whole (NaN when the whole is 0).
 *
 * Temporal breakdown (every device event with a stream, cuda_sync
 * included): kernel time = end of the last merged interval - start of the
 * first; idle = kernel time - the merged busy time; compute = merged busy
 * time of the computation kernels (hta_kernel_type); non-compute = kernel
 * time - compute - idle. Overlapping intervals merge; touching ones too.
 *
 * Owns its arrays. Depends on hta/select, core/.
 */
#ifndef GP_HTA_IDLE_H
#define GP_HTA_IDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "hta/select.h"

enum hta_idle_cat { HTA_HOST_WAIT, HTA_KERNEL_WAIT, HTA_IDLE_OTHER, HTA_IDLE_NCAT };
const char *hta_idle_cat_name(enum hta_idle_cat c); /* host_wait, kernel_wait, other */

/* One (stream, category) present on the stream. */
struct hta_idle_row {
	int64_t stream;
	uint8_t cat;	 /* enum hta_idle_cat */
	int64_t idle_ns; /* sum of the category's gaps */
	double ratio;	 /* idle_ns / the stream's idle, NaN when that is 0 */
};

/* The gaps of one (stream, category), as pandas' describe() plus p90 (ns;
 * the percentiles interpolate linearly; std has n - 1, NaN under 2). */
struct hta_gap_stats {
	int64_t stream;
	uint8_t cat;
	size_t count;
	double mean, std, min, p25, p50, p75, p90, max;
};

struct hta_temporal {
	bool any; /* some device event: the other fields are set */
	int64_t idle_ns, compute_ns, non_compute_ns, kernel_ns;
};

struct hta_idle_opts {
	int64_t kernel_wait_ns; /* a gap under it (not host wait) is kernel wait */
	bool gaps;		/* fill the gap statistics */
};

struct hta_idle {
	struct hta_idle_row *rows; /* streams in order of first event, categories in enum order */
	size_t nrows;
	struct hta_gap_stats *gaps; /* same order; only with opts.gaps */
	size_t ngaps;
	size_t nstreams;
	struct hta_temporal temporal;
};

/* 0, or ERR_NOMEM with e set. */
int hta_idle(const struct hta_events *h, const struct hta_idle_opts *o, struct hta_idle *out,
	     struct err *e);
void hta_idle_free(struct hta_idle *r);

#endif
