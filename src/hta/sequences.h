/* sequences: frequent kernel sequences, Holistic Trace Analysis'
 * get_frequent_cuda_kernel_sequences over the events hta/select.h reads.
 *
 * HTA's definition, step by step (docs/views.md "gpuprof sequences"):
 *   - Its call graph: on each CPU thread (a track whose pid and tid are not
 *     0), the events without a stream nest by a sweep over their starts and
 *     ends (at one time: ends before starts, the longer start first, the
 *     shorter end first, then trace order; a zero-length event nests in
 *     what starts at that time, else in what ends there; each end pops the
 *     innermost open event, whichever it is). A device event with a stream
 *     above 0 is the child of its launching CPU event (the last one of its
 *     correlation) when that event is on such a thread. With exactly two
 *     threads labelled "main" (one holds a ProfilerStep#) or "bwd" (one
 *     holds an autograd:: name), the second's top-level events that lie
 *     inside a "## backward ##" annotation of the first (else inside a
 *     ProfilerStep#) become its children. Depth 0 is a thread's top level.
 *   - The instances: the events whose name contains the operator's name
 *     (a substring, on any thread, device events too), of these the
 *     shallowest (an event outside the graph has depth -1), and of these
 *     the ones with at least min_len device events below them.
 *   - An instance's pattern: its own name, then the names of the device
 *     events below it by start (equal starts: trace order). Patterns are
 *     counted with the instances' CPU durations and the sums of their
 *     device events' durations; ordered by count (largest first), then by
 *     the pipe-joined text bytewise (then by first instance).
 *   - Without an operator: the ProfilerStep#N steps (operator
 *     "ProfilerStep#"), the step number left out of the pattern's first
 *     name ("ProfilerStep"), so that steps of one kernel sequence count
 *     together.
 * Times are HTA's (hta/select.h: rounded to whole us when it rounds), ns.
 * Owns its arrays and strings. Depends on hta/select, trace/, core/.
 */
#ifndef GP_HTA_SEQUENCES_H
#define GP_HTA_SEQUENCES_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "hta/select.h"

struct hta_seq_opts {
	const char *op; /* operator name (substring); NULL: the steps */
	size_t min_len; /* HTA's min_pattern_len, at least 1 */
};

struct hta_seq_pattern {
	char *text;	/* names joined with "|", as HTA writes its pattern */
	size_t kernels; /* device events (the pattern's names but the first) */
	size_t count;	/* instances */
	int64_t gpu_ns; /* their device events' durations, summed */
	int64_t cpu_ns; /* their own durations, summed */
	uint32_t first; /* its first instance (index into inst) */
};

struct hta_seq_inst {
	uint32_t row;	  /* the operator event */
	uint32_t pattern; /* index into pat */
	int64_t ts, dur_ns, gpu_ns;
	size_t kernels;
	size_t off, n; /* its events (itself and every one below it) in rows */
};

struct hta_seqs {
	struct hta_seq_pattern *pat; /* in HTA's order */
	size_t npat;
	struct hta_seq_inst *inst; /* in trace order */
	size_t ninst;
	uint32_t *rows;	   /* the instances' events, instance after instance */
	size_t candidates; /* events whose name matched */
	int32_t depth;	   /* the instances' depth (-1: none matched) */
};

int hta_sequences(const struct trace *t, const struct hta_events *h, const struct hta_seq_opts *o,
		  struct hta_seqs *out, struct err *e);
void hta_sequences_free(struct hta_seqs *s);

#endif
