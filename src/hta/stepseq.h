/* stepseq: whether the steps launch one same kernel sequence, from the
 * launch pairs of hta/launches.h, without a call graph (summary's rule
 * kernel_sequences; `gpuprof sequences` has the full analysis).
 *
 * The steps are the ProfilerStep#N CPU events HTA's loader keeps (not a
 * gpu_user_annotation), by start. Each launch pair (its device event:
 * kernel, memcpy or memset) belongs to the first step, by start, whose
 * [ts, end) holds its launch call's start; a step's sequence is the name
 * ids of its pairs' device events by call start (equal starts: the pairs'
 * order), folded into one 64-bit rolling hash as they come. Two steps
 * launch the same sequence when their hashes and lengths are equal (two
 * different sequences of one hash are taken as one: odds about
 * steps^2 / 2^64). The most frequent sequence among the steps of at least
 * min_len launches wins, of equal counts the one whose first step starts
 * first. Times are HTA's (hta/select.h), ns.
 *
 * Owns nothing past the call. Depends on hta/launches, hta/select,
 * trace/, core/.
 */
#ifndef GP_HTA_STEPSEQ_H
#define GP_HTA_STEPSEQ_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "hta/launches.h"
#include "hta/select.h"

struct hta_stepseq {
	size_t steps;	/* steps with at least min_len launches */
	size_t count;	/* of those, the steps launching the top sequence (0: none) */
	size_t len;	/* its launches per step */
	int64_t cpu_ns; /* the launch calls' durations over those steps, summed */
	int64_t gpu_ns; /* their device events' durations, summed */
	uint32_t first; /* string ids of its first and last device event names */
	uint32_t last;
};

/* The steps' sequences of the launch pairs l (over h, of trace t).
 * 0, or ERR_NOMEM with e set. */
int hta_stepseq(const struct trace *t, const struct hta_events *h, const struct hta_launches *l,
		size_t min_len, struct hta_stepseq *out, struct err *e);

#endif
