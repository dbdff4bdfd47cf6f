/* nsys_tl: the rows of an Nsight Systems SQLite export that a timeline
 * draws, read into plain arrays (sqlite_tl.c): CUDA API calls
 * (CUPTI_ACTIVITY_KIND_RUNTIME, which holds the driver's cu* calls too) and
 * NVTX ranges per thread, kernels and memory operations (memcpy, memset) per
 * GPU device, context and stream.
 *
 * Events come lane by lane, each lane's by (start, longer first, kind,
 * table row): the order the timeline's nesting and level of detail need
 * (views/timeline_lod.h). Lanes: per thread (by process, then thread id)
 * an NVTX lane then a CUDA API lane; then per GPU (device, context, stream)
 * a kernel lane then a memory lane. Times are the export's own integer
 * nanoseconds. Owns its arrays and strings; depends on core and sqlite3.
 */
#ifndef GP_NSYS_TL_H
#define GP_NSYS_TL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/err.h"
#include "core/strpool.h"
#include "nsys/nsys.h"

enum nsys_tl_kind {
	NSYS_TL_RUNTIME,
	NSYS_TL_DRIVER,
	NSYS_TL_NVTX,
	NSYS_TL_KERNEL,
	NSYS_TL_MEMCPY,
	NSYS_TL_MEMSET,
	NSYS_TL_NKINDS
};

/* What a lane holds (its order within a thread or stream). */
enum nsys_tl_source { NSYS_TL_SRC_NVTX, NSYS_TL_SRC_API, NSYS_TL_SRC_KERNELS, NSYS_TL_SRC_MEMORY };

struct nsys_tl_lane {
	enum nsys_tl_source source;
	int64_t pid, tid;		 /* thread lanes (from globalTid) */
	int64_t device, context, stream; /* GPU lanes */
	const char *process, *thread;	 /* PROCESSES / ThreadNames names, or "" */
	size_t first, n;		 /* its events: [first, first + n) */
};

struct nsys_tl {
	struct arena arena;
	struct strpool names;
	size_t n;
	int64_t *start, *end;
	int64_t *corr;	/* correlationId (API calls and GPU operations), else 0 */
	int64_t *gpid;	/* the process: globalPid (GPU) or globalTid's process bits */
	uint32_t *name; /* strpool id */
	uint8_t *kind;	/* enum nsys_tl_kind */
	uint32_t *lane;
	struct nsys_tl_lane *lanes;
	size_t nlanes;
	int64_t t0, t1; /* the first start and last end (0, 0 when no event) */
};

/* Reads the export's timeline rows; tables absent are empty, a table
 * without a column it needs is an ERR_FORMAT error naming them. */
int nsys_sql_timeline(struct nsys_sql *s, struct nsys_tl **out, struct err *e);
void nsys_tl_free(struct nsys_tl *m);
/* "cuda_runtime", "cuda_driver", "nvtx", "kernel", "gpu_memcpy", "gpu_memset" */
const char *nsys_tl_kind_label(enum nsys_tl_kind k);
/* "nvtx", "cuda_api", "kernels", "memory" */
const char *nsys_tl_source_label(enum nsys_tl_source s);

#endif
