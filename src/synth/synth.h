/* synth: a deterministic generator of synthetic PyTorch profiler (Kineto)
 * traces, for examples, tests and benchmarks.
 *
 * The output imitates a modern Kineto chrome-trace JSON file (object form,
 * one event per line) of a ResNet-style training loop with a small
 * attention head, DDP all-reduce on an NCCL stream, memory instants, flows
 * and the metadata Kineto writes before and after "traceEvents". The same
 * options give byte-identical output (own PRNG, no clock). Memory use is
 * constant: one training step is built at a time, so a 4 GB trace costs the
 * same few MB as a 1 MB one.
 *
 * With gzip the JSON goes through zlib's deflate stream (gzip wrapper) as it
 * is produced. Owns nothing beyond one call; prints nothing; depends on core
 * (err) and zlib.
 *
 * Anomalies (opts.anomalies): injected once, in the first step, and counted
 * in the an_* fields of struct synth_stats:
 *   - 1 kernel with no launching runtime: a "kernel" X on the first compute
 *     stream whose correlation (2000000000) no runtime event has; it has no
 *     ac2g flow and "External id" 0;
 *   - 1 zero-duration X: a cpu_op "aten::detach" with "dur": 0.000, a leaf
 *     child of that step's ProfilerStep on the main thread;
 *   - 1 partial overlap on a CPU thread: two leaf cpu_ops on the main thread,
 *     "aten::empty" [t, t+10us] and "aten::zero_" [t+5us, t+15us];
 *   - 1 flow with only an "s" end: a cudaEventRecord runtime (no device
 *     activity) with an ac2g "s" whose id has no "f";
 *   - 1 unmatched "B": on an extra CPU thread ("aux"), one matched B/E pair
 *     ("## prefetch ##") and one "B" ("## checkpoint ##") with no "E". So the
 *     trace then has ph_B = 2 and ph_E = 1.
 * Without anomalies the trace has none of these: every duration is > 0,
 * every (pid,tid) track nests strictly, kernels start after their launch and
 * never overlap on a stream, every flow has both ends.
 */
#ifndef GP_SYNTH_H
#define GP_SYNTH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"

#define SYNTH_MAX_STREAMS 8
#define SYNTH_MAX_WORLD 8192
#define SYNTH_MAX_CHANGES 8	     /* --scale-kernel and --slow-step, each */
#define SYNTH_MAX_COLLECTIVES 100000 /* opts.collectives */
#define SYNTH_RESNET_BUCKETS 6	     /* the resnet model's gradient buckets per step */
#define SYNTH_MAX_LINK_FACTOR 1000   /* opts.slow_link_factor */

/* Changes that make a pair of traces with a known difference (gpuprof
 * diff's tests): the generator draws the same random numbers with and
 * without them, so every other event keeps its duration.
 *   scale: every kernel whose name contains `name` lasts `factor` times as
 *     long (rounded to the ns); the device work after it on its stream is
 *     shifted by the time added, so a stream never overlaps itself;
 *   slow: step `step` (N of ProfilerStep#N) ends `ns` later on the CPU, once
 *     its GPU work is done (time no event covers: the step's Other part),
 *     and everything after it is shifted by as much. */
struct synth_scale {
	char name[64];
	double factor; /* > 0 */
};
struct synth_slow {
	uint64_t step, ns;
};

/* How the collectives' arguments are written. */
enum synth_comms {
	SYNTH_COMMS_LEGACY, /* what synth always wrote: the full rank list, no Seq */
	SYNTH_COMMS_PT2,    /* as PyTorch 2.x's Kineto writer: "Rank", "Global rank
			     * start/stride", "Seq" (the call's number in its
			     * group, from 1), the kernel's own "In msg nelems",
			     * and "Process Group Ranks" cut after 30 ranks
			     * ("[0, 1, ..., 29, ...]") */
};

enum synth_model {
	SYNTH_MODEL_RESNET, /* ResNet-18-style training with an attention head (~2000 events/step)
			     */
	SYNTH_MODEL_TINY,   /* inference of one linear layer + relu (~30 events/step), for docs */
};

struct synth_opts {
	enum synth_model model;
	uint64_t seed;	     /* PRNG seed (default 1) */
	uint64_t size;	     /* target uncompressed JSON bytes; 0 = use steps */
	uint32_t steps;	     /* number of ProfilerStep#N when size is 0 (default 5) */
	bool gzip;	     /* gzip the output (zlib deflate, gzip wrapper) */
	int gzip_level;	     /* 1..9, 0 = default (6) */
	bool truncate;	     /* end mid-event, without the closing brackets */
	bool anomalies;	     /* inject the anomalies listed above */
	uint32_t rank;	     /* distributedInfo.rank (0 <= rank < world_size) */
	uint32_t world_size; /* distributedInfo.world_size; > 1 adds NCCL all-reduce */
	uint32_t streams;    /* compute streams, 1..SYNTH_MAX_STREAMS */
	struct synth_scale scale[SYNTH_MAX_CHANGES];
	uint32_t nscale;
	struct synth_slow slow[SYNTH_MAX_CHANGES];
	uint32_t nslow;
	/* A straggler (gpuprof dist's fleet tables' tests): every rank of the
	 * fleet is written with the same straggler_ns > 0 and straggler_rank.
	 * On that rank an extra compute kernel of straggler_ns runs before
	 * each step's first collective, so its NCCL kernels start that much
	 * later; on the others that first NCCL kernel lasts straggler_ns
	 * longer (it waits for the late rank). From there on every rank is
	 * straggler_ns late: the step ends that much later everywhere. The
	 * same numbers are drawn on every rank, so the ranks' collectives
	 * line up, equal but for the injected time. 0: none. */
	uint64_t straggler_ns;
	uint32_t straggler_rank;
	/* A slow link (the fleet tables' bandwidth tests): every collective
	 * that slow_link_rank takes part in lasts slow_link_factor times as
	 * long (rounded to the ns) on every rank of its group, as a ring runs
	 * at the pace of its slowest link; the later work on the NCCL stream
	 * is written that much later and the step waits for it. synth writes
	 * one process group (the world), so every collective has that rank.
	 * The same numbers are drawn as without it up to the end of each
	 * step's backward pass. 0: none (factor > 0 otherwise). */
	double slow_link_factor;
	uint32_t slow_link_rank;
	/* Collectives per step: 0 = the model's own (resnet: one all-reduce
	 * per gradient bucket; tiny: none). N: resnet splits its buckets into
	 * N all-reduces (N >= the bucket count), tiny runs N all-reduces of
	 * 2^10..2^21 floats (cycling) after its relu, on the main thread. */
	uint32_t collectives;
	enum synth_comms comms;
	bool nccl_old_names; /* ncclKernel_* (NCCL < 2.19) instead of ncclDevKernel_* */
};

/* What synth_write produced. Counts cover complete events inside
 * "traceEvents" (a truncated last event is not counted). */
struct synth_stats {
	uint64_t bytes;		/* uncompressed JSON bytes */
	uint64_t bytes_written; /* bytes written to out (compressed size with gzip) */
	uint64_t events;	/* events in traceEvents */
	uint64_t steps;		/* ProfilerStep#N spans on the CPU */
	uint64_t first_step;	/* N of the first ProfilerStep#N */
	/* by phase */
	uint64_t ph_X, ph_B, ph_E, ph_i, ph_s, ph_f, ph_M;
	/* X events by category */
	uint64_t cpu_op, user_annotation, gpu_user_annotation, cuda_runtime, kernel, gpu_memcpy,
	    gpu_memset, trace;
	uint64_t memory;	   /* "[memory]" instants */
	uint64_t flow_ac2g;	   /* ac2g flow events (s + f) */
	uint64_t flow_fwdbwd;	   /* fwdbwd flow events (s + f) */
	uint64_t nccl_kernels;	   /* kernels on the NCCL stream */
	uint64_t kernels_launched; /* kernels with a cudaLaunchKernel */
	/* injected anomalies (see the header comment) */
	uint64_t an_orphan_kernels, an_zero_dur, an_partial_overlaps, an_flow_s_only,
	    an_unmatched_b;
	bool truncated;
};

/* Fills o with the defaults (seed 1, 5 steps, 1 stream, world size 8). */
void synth_opts_init(struct synth_opts *o);

/* Writes one trace to out. stats (may be NULL) is filled on success.
 * Returns 0, ERR_USAGE for bad options, ERR_IO on a write error, ERR_NOMEM. */
int synth_write(const struct synth_opts *o, FILE *out, struct synth_stats *stats, struct err *e);

#endif
