/* dist: torch-tb-profiler's Distributed view over several workers (one
 * trace per rank), tb_profiler.md §11.
 *
 * Per worker (dist_add, one trace at a time so only one is in memory):
 * - communication nodes: one per collective call, with its CPU range and,
 *   for NCCL, the kernels it launched ("kernel ranges", sorted by
 *   (start, -end); the CPU range is one of them, so latency includes it);
 * - each node's step: the first step (of steps.h's final steps) that fully
 *   contains its CPU range, walking nodes and steps with two pointers;
 * - per step: computation (Kernel ranges, or CPU-op ranges when the worker
 *   has no kernels), communication, their overlap and the rest;
 * - the GPUs used (pids of GPU activities) and distributedInfo.
 * Across workers (dist_finish): nodes are matched, and for each matched
 * kernel range the shortest duration over the workers is the data
 * transfer ("real") range [end - min, end] on every worker; the rest of the
 * communication time is synchronizing (waiting for the slowest rank).
 * Then per worker: per step [data transfer, synchronizing] and per
 * collective name [calls, bytes, latency, transfer], with tb's averages.
 *
 * Two modes. tb_compat reproduces the reference: collectives are exactly
 * the ten nccl:/gloo: names (tr_tb_collective), a trace with both
 * libraries loses its nodes, any kernel sharing a node's external id joins
 * it (only once an nccl: op was seen), nodes are matched by index and any
 * count mismatch disables the whole view. The default covers modern
 * traces: a collective call is the outermost of nested communication host
 * ops (c10d::*, record_param_comms, nccl:*, gloo:*; TRF_COMM) on a thread,
 * named by its nccl:/gloo: op, else record_param_comms' "Collective name",
 * else its own name; its kernels are the NCCL kernels (TRF_COMM) whose
 * external id is one of the call's ops', or whose launching runtime lies
 * inside the call; nodes are matched per name by call index, mismatches
 * leave only those nodes unmatched. docs/tb-compat.md lists the
 * differences.
 *
 * Times are exact int64 ns; tb's µs = ns / 1000. Averages truncate toward
 * zero as tb's int() does (in tb_compat at whole µs, as tb computes in µs);
 * per-call averages in the op table round half to even (tb's round()).
 * Owns everything it returns (names are copied into its own pool).
 * Depends on core, trace/trace, trace/link, tbprof/steps, tbprof/ranges.
 */
#ifndef GP_DIST_H
#define GP_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/err.h"
#include "core/strpool.h"
#include "tbprof/ranges.h"
#include "trace/trace.h"

struct dist_opts {
	bool tb_compat;
};

/* One collective call on one worker. */
struct dist_node {
	uint32_t name;	    /* id in dist_result.pool */
	int64_t start, end; /* the CPU op's range, ns */
	int64_t bytes;	    /* Σ inputs ∏dims × element size (0 unknown) */
	int64_t step;	    /* step number, or DIST_NO_STEP */
	size_t first, n;    /* its ranges: kr[first .. first + n) */
	size_t nreal;	    /* real[first .. first + nreal) were set by the
			       cross-worker match (0: unmatched) */
	uint32_t xrow;	    /* the row of the trace given to dist_add whose op
			       arguments (record_param_comms': process group,
			       message size) describe the call, valid while that
			       trace lives; TR_NONE when none */
	uint32_t pg;	    /* id in dist_result.pool of its process group's
			       name (record_param_comms' "Process Group
			       Name"), 0 when unknown */
};
#define DIST_NO_STEP INT64_MIN

/* [computation only, overlap, communication only, other] of one step. */
struct dist_overlap {
	int64_t step; /* number */
	int64_t v[4];
};

/* Per step key (steps with communication; DIST_NO_STEP for nodes in no step). */
struct dist_wait {
	int64_t step;
	int64_t comm, transfer; /* |merge(kernel ranges)|, |merge(real ranges)| */
};

struct dist_op {
	uint32_t name; /* id in dist_result.pool */
	int64_t calls, bytes, latency, transfer;
};

struct dist_gpu {
	int64_t id;		    /* the device's pid */
	uint32_t name;		    /* id in dist_result.pool, 0 when unknown */
	int64_t memory;		    /* totalGlobalMem, -1 unknown */
	int64_t cc_major, cc_minor; /* -1 unknown */
	bool known;		    /* deviceProperties has an entry for it */
};

struct dist_worker {
	uint32_t name, path;	  /* ids in dist_result.pool */
	int64_t rank, world_size; /* distributedInfo, -1 when absent */
	uint32_t backend;	  /* id in pool, 0 when absent */
	bool has_device_props;
	bool has_communication;	 /* the Communication role has ranges */
	bool has_nccl, has_gloo; /* collective ops of either library seen */
	bool cleared;		 /* tb_compat: both libraries, nodes dropped */
	struct dist_node *nodes; /* sorted by (start, -end) */
	size_t nnodes;
	struct rg *kr, *real; /* node ranges and their real ranges */
	size_t nkr;
	struct dist_overlap *overlap; /* one per step */
	size_t nsteps;
	int64_t overlap_avg[4];
	struct dist_wait *wait; /* in order of first appearance */
	size_t nwait;
	int64_t wait_avg[2]; /* [transfer, synchronizing] */
	struct dist_op *ops; /* in order of first appearance */
	size_t nops;
	size_t unmatched;      /* nodes without real ranges */
	struct dist_gpu *gpus; /* sorted by id */
	size_t ngpus;
};

struct dist_result {
	struct arena arena;
	struct strpool pool;
	bool compat;
	struct dist_worker *w;
	size_t n, cap;
	bool view;	     /* tb_compat: the reference shows the view (else every
				distributed table is empty); default: always true */
	const char *why_not; /* when !view: a sentence saying why */
};

/* Initialises r for workers added one by one. 0 or an err code. */
int dist_init(struct dist_result *r, const struct dist_opts *o, struct err *e);
/* Adds worker `name` from trace t (which may be freed afterwards); file:
 * what the workers table shows as its file (NULL: the trace's path; the
 * server gives an upload's name). */
int dist_add(struct dist_result *r, const struct trace *t, const char *name, const char *file,
	     struct err *e);
/* dist_add of the trace of session ses, with the links and steps the
 * session holds (built there once, shared with the other views of it). */
struct ses;
int dist_add_ses(struct dist_result *r, struct ses *ses, const char *name, const char *file,
		 struct err *e);
/* Matches the workers' nodes and computes the wait and op tables. */
int dist_finish(struct dist_result *r, struct err *e);
void dist_free(struct dist_result *r);

/* The worker name torch-tb-profiler gives a file: its base name matched
 * against ^(.*?)(\.\d+)?\.pt\.trace\.json(\.gz)?$ (group 1); other names
 * lose a .json / .json.gz / .gz ending. Writes at most n bytes. */
void dist_worker_name(const char *path, char *buf, size_t n);
/* --names: the i-th (from 0) name of the comma-separated list into buf (at
 * most n bytes), or NULL when the list has fewer; dist_names_fit: whether
 * the list holds exactly count names (the CLI's and the API's rule; the
 * message for a list that does not is DIST_NAMES_MSG with the count). */
const char *dist_nth_name(const char *list, int i, char *buf, size_t n);
bool dist_names_fit(const char *list, int count);
#define DIST_NAMES_MSG "--names needs one name per TRACE (%d)"
/* tb's gpu_info split of a worker name by ^(.*)_(\d+): the node and the
 * process; false when the name does not match. */
bool dist_node_process(const char *worker, char *node, size_t nn, char *process, size_t np);
/* Σ over inputs of ∏dims × element size, from the raw JSON texts of
 * "Input Dims" and "Input type". tb_only: an input whose dims are not a
 * flat list of integers counts 0 (the reference fails on it); otherwise a
 * list of lists (a TensorList) counts each inner list. */
int64_t dist_input_bytes(const char *dims, size_t dims_len, const char *types, size_t types_len,
			 bool tb_only);
/* Averages: tb's int(Σ / n) (toward zero; in whole µs when compat), and
 * round(Σ / n) with ties to even (whole µs when compat and us). */
int64_t dist_avg_trunc(int64_t sum, int64_t n, bool compat);
int64_t dist_avg_round(int64_t sum, int64_t n, bool us);

#endif
