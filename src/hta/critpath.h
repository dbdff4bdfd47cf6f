/* critpath: Holistic Trace Analysis' critical path of one annotation
 * instance (a ProfilerStep, a forward pass): the DAG of a start and an end
 * node per CPU operator, runtime call and GPU kernel / memcpy / memset of
 * the instance, its edges (operator spans, nesting and order on a thread,
 * the CUDA runtime lock, kernel launches, consecutive kernels on a stream,
 * synchronizations), its longest path as networkx's dag_longest_path picks
 * it, and the time of the path by bound type.
 *
 * The rows, times and correlations are those of HTA's loader
 * (hta/select.h: times rounded to whole microseconds when the trace has
 * fractional ones); the construction mirrors HTA's CPGraph step by step,
 * docs/views.md "gpuprof critical-path" says where it differs. Nodes, edges
 * and the path are arrays with integer ids; the graph is CSR; the longest
 * path is one pass in a topological order (linear in nodes + edges).
 *
 * Owns its arrays. Depends on hta/select, trace/, core/.
 */
#ifndef GP_HTA_CRITPATH_H
#define GP_HTA_CRITPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "hta/select.h"
#include "trace/trace.h"

enum cp_etype {
	CP_OPERATOR,   /* critical_path_operator: an op's or a kernel's span, and inside an op */
	CP_DEPENDENCY, /* critical_path_dependency: top-level order, the runtime lock */
	CP_LAUNCH,     /* critical_path_kernel_launch_delay: runtime start -> kernel start */
	CP_KERNEL_GAP, /* critical_path_kernel_kernel_delay: consecutive kernels on a stream */
	CP_SYNC,       /* critical_path_sync_dependency: GPU -> CPU or GPU -> GPU */
	CP_NETYPES
};

enum cp_bound {
	CP_B_NONE, /* dependency and sync edges: HTA's "" */
	CP_B_CPU,
	CP_B_COMPUTE,
	CP_B_COMM,
	CP_B_LAUNCH,
	CP_B_KERNEL_GAP,
	CP_B_DATA,
	CP_NBOUNDS
};

const char *cp_etype_name(enum cp_etype t); /* "critical_path_operator", ... */
const char *cp_bound_name(enum cp_bound b); /* "", "cpu_bound", ... */

#define CP_NOEV UINT32_MAX

/* One event with nodes: its trace row, HTA's times (ns), its nodes. */
struct cp_ev {
	uint32_t row;
	uint32_t start, end; /* node ids */
	int64_t ts, te;
	int64_t stream; /* -1: a CPU event */
	uint8_t flags;	/* CP_F_* */
};
#define CP_F_BLOCKING 1 /* a blocking sync call: its span weighs 0 */
#define CP_F_LOCK 2	/* takes the CUDA runtime lock (cudaLaunchKernel, ...) */
#define CP_F_GPU 4

struct cp_node {
	int64_t ts;
	uint32_t ev; /* in cp.ev */
	bool is_start;
};

struct cp_edge {
	uint32_t u, v; /* node ids */
	int64_t w;     /* ns: HTA's edge weight (a negative one is 0 in the path) */
	uint32_t attr; /* the trace row the edge is attributed to, CP_NOEV */
	uint8_t type;  /* enum cp_etype */
	uint8_t bound; /* enum cp_bound (path edges) */
	bool critical; /* on the path */
};

struct cp_opts {
	const char *annotation;	      /* substring of the annotation's name; "" = the whole trace */
	int64_t instance;	      /* which of them, in file order (0 = the first) */
	bool zero_launch;	      /* HTA's CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE */
	const char *const *data_load; /* names (POSIX extended regexes) of data loading */
	size_t ndata_load;
	/* HTA's device events of the trace (hta_events), when the caller has
	 * them; NULL: computed here */
	const struct hta_events *events;
};

struct cp {
	struct cp_ev *ev; /* by first node */
	size_t nev;
	struct cp_node *node; /* by (ts, row), a start before its end */
	size_t nnode;
	struct cp_edge *edge; /* in the order HTA adds them (a repeated edge once) */
	size_t nedge;
	uint32_t *path; /* node ids, in order */
	size_t npath;
	uint32_t *path_edge; /* edge ids, npath - 1 of them */
	int64_t window[2];   /* the instance's [start, end] (ns) */
	size_t instances;    /* annotation instances found */
	size_t by_type[CP_NETYPES];
	int64_t bound_ns[CP_NBOUNDS]; /* the path's weights by bound type */
	size_t bound_edges[CP_NBOUNDS];
	int64_t path_ns; /* the path's total weight */
	size_t critical_events;
	bool has_sync; /* the trace has cuda_sync events */
	bool rounded;  /* times rounded to whole us */
};

/* The critical path of o's instance in t. 0; ERR_NOMEM; ERR_USAGE (no
 * such annotation or instance, a bad data-load regex); ERR_FORMAT (a graph
 * HTA refuses: a cycle, a sync edge between kernels of one stream). */
int cp_compute(const struct trace *t, const struct cp_opts *o, struct cp *out, struct err *e);
void cp_free(struct cp *c);

#endif
