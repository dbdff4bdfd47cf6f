/* sync: where the host blocks on the device. The calls that wait
 * (cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize, their
 * HIP twins), the synchronous copies and sets (cudaMemcpy, cudaMemset,
 * hipMemcpy, hipMemset, hipMemcpyWithStream, and an asynchronous copy whose
 * device work is a copy to or from pageable memory, which the driver
 * performs synchronously) and the device-side waits (cudaStreamWaitEvent,
 * hipStreamWaitEvent: they queue a wait and do not block the host, so they
 * are listed and not counted as blocked time). Each call's time blocked is
 * its duration; its site is the innermost cpu_op on its thread that holds
 * it and the innermost python_function there; the site's pattern names the
 * Python-level cause where the operator tells it (aten::item or
 * aten::_local_scalar_dense: `.item()`; aten::to, aten::_to_copy,
 * aten::copy_ or aten::cpu over a copy: `.cpu()/.to()`; aten::nonzero:
 * `.nonzero()`).
 *
 * Times are the trace's own (ns). Owns its arrays. Depends on trace/, core/.
 */
#ifndef GP_HTA_SYNC_H
#define GP_HTA_SYNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "trace/link.h"
#include "trace/trace.h"

enum hta_sync_kind {
	HTA_DEVICE_SYNC,
	HTA_STREAM_SYNC,
	HTA_EVENT_SYNC,
	HTA_SYNC_COPY,
	HTA_STREAM_WAIT,
	HTA_SYNC_NKINDS
};
const char *hta_sync_kind_name(enum hta_sync_kind k);

struct hta_sync_call {
	uint32_t row;	 /* the call */
	uint32_t op, py; /* innermost cpu_op and python_function holding it, TR_NONE */
	uint8_t kind;	 /* enum hta_sync_kind */
	uint8_t pattern; /* index in hta_sync_patterns, 0 = none */
	int64_t dur_ns;
};

/* One site: (call name, operator, Python frame) with its calls. */
struct hta_sync_site {
	uint32_t call_name, op_name, py_name; /* string ids; TR_NONE when none */
	uint8_t kind, pattern;
	size_t count;
	int64_t total_ns, max_ns;
};

struct hta_sync {
	struct hta_sync_call *calls; /* in row order */
	size_t ncalls;
	struct hta_sync_site *sites; /* by total time, largest first */
	size_t nsites;
	int64_t blocked_ns; /* host-blocking calls' time */
	size_t blocking;    /* host-blocking calls */
};

extern const char *const hta_sync_patterns[]; /* "", ".item()", ".cpu()/.to()", ".nonzero()" */

/* links: the trace's launch links with driver calls (tr_links_build(t, true)). */
int hta_sync(const struct trace *t, const struct tr_links *links, struct hta_sync *out,
	     struct err *e);
void hta_sync_free(struct hta_sync *s);

#endif
