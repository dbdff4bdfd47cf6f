/* critpath_int: what the files of hta/critpath share: the builder of one
 * graph (the trace's rows as HTA's data frame has them, the instance's
 * clip, the node events, the edge set) and the three steps that add edges
 * (critpath_cpu.c: the runtime lock and the call stacks; critpath_gpu.c:
 * kernels and synchronizations). Not for use outside hta/critpath*.
 */
#ifndef GP_HTA_CRITPATH_INT_H
#define GP_HTA_CRITPATH_INT_H

#include "core/hmap.h"
#include "hta/critpath.h"

/* per row: in HTA's data frame, in the instance's clip */
#define CPR_DF 1
#define CPR_CLIP 2

/* HTA's index_correlation: -1 (no correlation), 0 (a correlation whose
 * other side is absent), else the linked row. */
#define CP_IC_NONE UINT32_MAX
#define CP_IC_ZERO (UINT32_MAX - 1)

enum cp_name {
	CPN_EVENT_SYNC,
	CPN_CONTEXT_SYNC,
	CPN_STREAM_SYNC,
	CPN_STREAM_WAIT_EVENT,
	CPN_CUDA_EVENT_RECORD,
	CPN_CUDA_STREAM_WAIT_EVENT,
	CPN_COUNT
};

struct cpb {
	const struct trace *t;
	const struct cp_opts *o;
	struct cp *c;
	const struct hta_events *h; /* o->events, or own */
	struct hta_events own;
	uint8_t *rowf; /* CPR_* per row */
	struct hmap corr_map;
	struct cp_pair {
		uint32_t cpu, gpu; /* the last row of each side with the correlation */
	} * pair;
	size_t npair, pair_cap;
	struct hmap ev_of;   /* row -> index in c->ev */
	struct hmap edge_of; /* (u, v) -> index in c->edge */
	size_t edge_cap;
	uint32_t names[CPN_COUNT];	  /* string ids, TR_NONE when absent */
	uint32_t launch_ids[HTA_NLAUNCH]; /* HTA's runtime launch names (hta_launch_ids) */
	void *re;			  /* regex_t[o->ndata_load] */
};

/* Row r's HTA times, stream, index_correlation; whether it is HTA's GPU
 * side of a correlation; whether its name is a runtime launch. */
void cpb_times(const struct cpb *b, size_t r, int64_t *ts, int64_t *te);
int64_t cpb_stream(const struct cpb *b, size_t r);
uint32_t cpb_ic(const struct cpb *b, size_t r);
bool cpb_gpu_side(const struct cpb *b, size_t r);
bool cpb_is_launch(const struct cpb *b, size_t r);
bool cpb_name_is(const struct cpb *b, size_t r, enum cp_name n);
/* Whether the string id holds sub. memo has a byte per string of the
 * trace's pool, zeroed before the first call for this sub (0: not asked
 * yet, 1: no, 2: yes), so each name is searched once; NULL searches. */
bool cpb_str_has(const struct trace *t, uint32_t id, const char *sub, uint8_t *memo);
/* The node event of row r, or NULL. */
const struct cp_ev *cpb_ev(const struct cpb *b, uint32_t row);

/* Adds edge u -> v (weight: the nodes' distance, 0 for dependencies,
 * syncs and zero); a repeated (u, v) keeps its place and takes the new
 * type and weight, as networkx's add_edge. The edge's index, or SIZE_MAX
 * when out of memory. */
size_t cpb_edge(struct cpb *b, uint32_t u, uint32_t v, enum cp_etype type, bool zero);
/* HTA's _attribute_edge of edge i; parent: the row of the call-stack
 * parent of the source's event (CP_NOEV for none). */
void cpb_attribute(struct cpb *b, size_t i, uint32_t parent);

/* critpath_cpu.c: the runtime lock edges, then the call stacks' edges. */
int cpb_runtime_lock(struct cpb *b);
int cpb_call_stacks(struct cpb *b);
/* critpath_gpu.c: kernels, launches, kernel gaps and synchronizations. */
int cpb_kernels(struct cpb *b);

#endif
