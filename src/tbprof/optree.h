/* optree: torch-tb-profiler's operator tree (shared/reference/tb_profiler.md
 * §3, §4.1-4.3, §7): host nodes per thread nested by time, the runtime calls
 * each node made (matched by external id), the GPU work those launched
 * (matched by correlation id, trace/link.h), and the per-node statistics
 * the operator and kernel views aggregate.
 *
 * Host nodes: cpu_op/operator events (ProfilerStep#N ones become step
 * nodes), old-style `python` events, python_function events with a Python
 * module id (Module nodes), and user annotations named as a DataLoader,
 * Optimizer.step, one of the ten tb collectives, or ProfilerStep#N. A thread
 * is the event's tid (across pids, as tb keys threads by int(tid)).
 *
 * Times are int64 ns (tb's floats under tb_compat: tbprof/tbtime.h); tb's
 * µs numbers equal value_ns / 1000. Cost is O(n log n) in host events (one
 * sort) and linear otherwise: external ids are matched through a hash map,
 * never by scanning threads.
 *
 * Two behaviours differ from torch-tb-profiler unless tb_compat is set (see
 * docs/tb-compat.md): gpu_user_annotation events never become host nodes
 * (tb turns their ProfilerStep#N copies into step nodes of a thread named
 * after the GPU stream), and cuda_driver launches (cuLaunchKernel, Triton)
 * count as runtimes (tb leaves their kernels unattributed). Outside tb_compat
 * the Tensor Core lists also know today's kernel and op names (classify.h),
 * and B/E pairs count like X events (tb reads X events only).
 *
 * Lightning traces (Framework "pytorch-lightning", tb's Lightning mode):
 * `[pl][module]` ops become PL module nodes (no operators, never merged with
 * a same-name child), `[pl][profile]` ops are no host nodes (tb keeps them
 * in a tree of their own), and under tb_compat python_function events are
 * no nodes either (tb drops them in that mode).
 *
 * Under tb_compat, tb's backward-module rewrite (§4.4, tbprof/optree_bwd.c):
 * when fwdbwd flows and a top-level Module node both exist, the top-level
 * `autograd::engine::evaluate_function:` subtrees leave the tree, those it
 * maps to a forward operator come back under synthetic `<module>.backward`
 * nodes of the main thread, the others are dropped. The nodes and links
 * stay as built; `agg` lists the rewritten tree's post-order, which the
 * Operator and Kernel views and the Tensor Core ratios aggregate,
 * `bwd_removed` marks the roots taken out (the Module view's part), and
 * `rwt` holds the rewritten tree the Memory view walks.
 *
 * Owns its arrays and the links it builds (or its copy of the launch
 * segments of links it is given); reads the trace, which must outlive it.
 * Read-only once built (threads may share a tree). Depends on trace/trace,
 * trace/link, trace/classify.
 */
#ifndef GP_OPTREE_H
#define GP_OPTREE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"
#include "trace/link.h"
#include "trace/trace.h"

#define OPT_NIL UINT32_MAX

struct optree_opts {
	bool tb_compat; /* reproduce torch-tb-profiler exactly (see above) */
};

/* What made the node (tb's node classes). */
enum optree_class {
	OPC_ROOT,	/* CallTreeRoot of a thread */
	OPC_OP,		/* plain OperatorNode */
	OPC_STEP,	/* ProfilerStep#N */
	OPC_MODULE,	/* python_function with a Python module id */
	OPC_DATALOADER, /* enumerate(DataLoader)#...__next__, enumerate(DataPipe)#... */
	OPC_OPTIMIZER,	/* Optimizer.step... */
	OPC_PL_MODULE,	/* a Lightning trace's `[pl][module]` op (tbprof/lightning.h) */
};

/* tb's event type of the node. */
enum optree_type {
	OPT_OPERATOR, /* cpu_op / operator */
	OPT_PYTHON,   /* `python` events and the roots */
	OPT_STEP,     /* ProfilerStep#N */
	OPT_MODULE,
	OPT_ANNOTATION, /* user_annotation (gpu_user_annotation with tb_compat) */
};

struct optree_node {
	uint32_t row;			    /* event row; TR_NONE for a root */
	uint32_t name;			    /* string id; 0 for a root ("CallTreeRoot") */
	uint32_t parent;		    /* node index, OPT_NIL for a root */
	uint32_t first_child, next_sibling; /* in (start, -end) order */
	uint32_t rt_first, rt_count;	    /* its runtimes: optree.rts[rt_first ..] */
	/* bit fields in the 4 bytes before the times: a node is 88 bytes (the
	 * tree of a 1 GB trace has about a million) */
	unsigned cls : 4;	     /* enum optree_class */
	unsigned type : 4;	     /* enum optree_type */
	bool tc_eligible : 1;	     /* allow-listed, or (operators) a child is or a TC kernel */
	bool is_op : 1;		     /* a row of the operator view (§4.3) */
	bool dropped : 1;	     /* partial overlap: not in the tree */
	bool collapsed : 1;	     /* merged into its same-name parent */
	int64_t start, end;	     /* ns; a root spans its first..last child */
	int64_t self_host;	     /* end - start - children - own runtimes */
	int64_t device, self_device; /* GPU time below / of own runtimes */
	int64_t tc_total, tc_self;   /* the same, Tensor Core kernels only */
};

struct optree_thread {
	struct tr_id tid;
	uint32_t root;	     /* node index */
	uint32_t first, end; /* its nodes: [first, end), root first, preorder */
	bool has_step;	     /* holds a ProfilerStep node: gets the dummy runtime */
};

/* One runtime in a node's list; row TR_NONE is the `dummy` runtime holding
 * the stale kernels (optree.stale). */
struct optree_rt {
	uint32_t row;
	int64_t device, tc; /* GPU time of what it launched; Tensor Core part */
};

struct optree {
	const struct trace *t;
	struct optree_opts opts;
	struct tr_links links; /* dev[] segments sorted by (start, -end, row) */
	bool owns_links;       /* built here (else launcher/seg are borrowed) */
	struct optree_node *nodes;
	size_t nnodes;
	struct optree_thread *threads; /* in tb's thread order (first host event) */
	size_t nthreads;
	struct optree_rt *rts;
	size_t nrts;
	uint32_t *stale; /* kernels no runtime launched, by (start, -end, row) */
	size_t nstale;
	uint32_t *post; /* nodes in post-order, thread by thread (tb's traversal) */
	size_t npost;
	uint32_t *dev_node;	  /* event row -> node whose runtime launched it, OPT_NIL */
	uint8_t *tc_name;	  /* string id -> 0 unknown, 1 no TC, 2 TC, 3 TC of fp32/64 */
	uint64_t dropped;	  /* host events dropped for partially overlapping */
	uint64_t orphan_runtimes; /* runtimes whose non-zero external id no node has */
	bool has_kernel;	  /* a kernel outside communication (tb's has_kernel) */
	bool has_memcpy_or_memset;
	bool lightning; /* the trace's Framework is pytorch-lightning (tbprof/lightning.h) */
	/* The nodes in the order the Operator and Kernel views aggregate them
	 * (tb's get_operator_and_kernels over its final tree): post itself,
	 * or under tb_compat, when the backward-module rewrite applies (see
	 * above), the rewritten tree's post-order: a backward subtree can be
	 * listed twice, a dropped one is not listed. */
	const uint32_t *agg;
	size_t nagg;
	uint32_t *agg_own;   /* agg when it is not post */
	uint8_t *agg_bottom; /* with agg_own: agg[i] is a bottom-most Tensor-Core-eligible node */
	/* The rewrite applies (tb_compat, fwdbwd pairs, a Module node at a
	 * thread's top or under a ProfilerStep): bwd_removed[node] = 1 for the
	 * top-level backward roots it took out (the Module view leaves them
	 * out, tbprof/modules.h). NULL otherwise. */
	uint8_t *bwd_removed;
	bool bwd_rewrite;
	struct optree_bwd_stats {
		uint32_t roots;		  /* backward roots taken out */
		uint32_t modules;	  /* synthetic <module>.backward nodes made */
		uint32_t dropped_modules; /* of those, not inserted (before the node reached) */
		uint32_t dropped_threads; /* threads left without children (tb drops them) */
	} bwd;
	/* The rewritten tree itself, when the rewrite changed the tree (kids
	 * NULL otherwise): ids below nnodes are the nodes, the nsyn after them
	 * the synthetic `<module>.backward` nodes; id x's children are
	 * kids[first[x] .. first[x + 1]), in (start, -end) order. A node can
	 * be listed twice; the roots keep their spans. Walk it through the
	 * optree_kid_* cursor below. */
	struct optree_rwtree {
		uint32_t nsyn;
		uint32_t *first, *kids;
		int64_t *syn_start, *syn_end;
	} rwt;
};

/* The tree the Memory view walks (tb walks its final tree, tbprof/memory.h):
 * the nodes' own children, or the rewritten tree above. Ids: the nodes,
 * then the synthetic ones (never operators). A child cursor `pos` starts
 * at optree_kid_first(x), names the child optree_kid_at(x, pos)
 * (OPT_NIL past the last) and moves on with optree_kid_next. */
static inline uint32_t optree_ids(const struct optree *o)
{
	return (uint32_t)o->nnodes + (o->rwt.kids ? o->rwt.nsyn : 0);
}

static inline uint32_t optree_kid_first(const struct optree *o, uint32_t x)
{
	return o->rwt.kids ? o->rwt.first[x] : o->nodes[x].first_child;
}

static inline uint32_t optree_kid_at(const struct optree *o, uint32_t x, uint32_t pos)
{
	if (!o->rwt.kids)
		return pos;
	return pos < o->rwt.first[x + 1] ? o->rwt.kids[pos] : OPT_NIL;
}

static inline uint32_t optree_kid_next(const struct optree *o, uint32_t pos)
{
	return o->rwt.kids ? pos + 1 : o->nodes[pos].next_sibling;
}

static inline int64_t optree_id_start(const struct optree *o, uint32_t x)
{
	return x < o->nnodes ? o->nodes[x].start : o->rwt.syn_start[x - o->nnodes];
}

static inline int64_t optree_id_end(const struct optree *o, uint32_t x)
{
	return x < o->nnodes ? o->nodes[x].end : o->rwt.syn_end[x - o->nnodes];
}

static inline bool optree_id_op(const struct optree *o, uint32_t x)
{
	return x < o->nnodes && o->nodes[x].is_op;
}

/* links: built with driver = !opts->tb_compat, outliving the tree; NULL:
 * the tree builds its own. */
int optree_build(const struct trace *t, const struct tr_links *links,
		 const struct optree_opts *opts, struct optree *out, struct err *e);
void optree_free(struct optree *o);

/* Event kinds that launch GPU work under these options. */
bool optree_is_runtime(const struct optree *o, size_t row);
/* Whether the event row takes part at all (X events; also B/E pairs
 * outside tb_compat). */
bool optree_uses_row(const struct optree *o, size_t row);
/* The same, before a tree is built with tb_compat. */
bool optree_row_used(const struct trace *t, bool tb_compat, size_t row);
/* Kernel name uses Tensor Cores (known for every kernel name once built). */
bool optree_tc_kernel(const struct optree *o, uint32_t name);
/* A Tensor Core kernel whose name spells a 32 or 64-bit input
 * (tr_matrix_precision); never under tb_compat. */
bool optree_tc_full_precision(const struct optree *o, uint32_t name);
/* The node's name as text ("CallTreeRoot" for roots). */
const char *optree_name(const struct optree *o, uint32_t node);
/* GPU rows the runtime launched: *n of them (kernels, memcpys, memsets). */
const uint32_t *optree_rt_devices(const struct optree *o, const struct optree_rt *rt, size_t *n);

/* The Operator view's four times of a node as tb's float64 µs arithmetic
 * gives them (fill_stats over the floats of `ts` and `ts + dur`,
 * tbprof/tbtime.h), for sums that reproduce its residue where a float64
 * does not hold whole ns (timestamps below 2^49 µs). */
struct optree_tbf {
	double host, self_host, device, self_device; /* µs */
};
/* dev[node]: the node's device time in tb's floats (children first, then
 * its runtimes, as tb adds them) and its own runtimes' (self); malloc'd,
 * NULL out of memory. Computed once for all nodes: a node the rewrite
 * lists twice is summed from it twice. */
struct optree_tbd {
	double device, self_device; /* µs */
};
struct optree_tbd *optree_tb_device(const struct optree *o);
struct optree_tbf optree_tb_times(const struct optree *o, const struct optree_tbd *dev,
				  uint32_t node);

/* tb's tc_eligible_ops_kernel_ratio (§7): kernel time of the own runtimes of
 * the bottom-most Tensor-Core-eligible nodes over that of all operators. */
double optree_tc_eligible_ratio(const struct optree *o);

#endif
