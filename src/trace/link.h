/* link: which runtime call launched which GPU activity (torch-tb-profiler
 * §3: the `correlation` argument links a runtime event to the kernels,
 * memcpys and memsets it launched).
 *
 * Built from a loaded trace; read by the analyses (op tree, steps). Owns its
 * arrays. A runtime may launch several activities (e.g.
 * cudaLaunchCooperativeKernelMultiDevice); an activity has at most one
 * launcher. When several runtime events share a correlation id, the first in
 * input order is the launcher. With driver=false only `*_runtime`
 * categories launch (torch-tb-profiler's rule: kernels launched through
 * cuda_driver, e.g. Triton's cuLaunchKernel, stay unlinked); with
 * driver=true `cuda_driver` calls launch too. Depends on trace/trace.
 */
#ifndef GP_LINK_H
#define GP_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"

struct tr_links {
	size_t n;	    /* event rows covered (t->ev.n) */
	uint32_t *launcher; /* device row -> runtime row, TR_NONE (other rows: TR_NONE) */
	uint32_t *dev;	    /* linked activities grouped by launcher */
	size_t ndev;
	/* One segment per runtime that launched something, by runtime row:
	 * it launched dev[first .. first + count), in row order. Callers may
	 * reorder the rows inside a segment. */
	struct tr_link_seg {
		uint32_t rt, first, count;
	} * seg;
	size_t nseg;
};

int tr_links_build(const struct trace *t, bool driver, struct tr_links *out, struct err *e);
void tr_links_free(struct tr_links *l);
/* The activities runtime row rt launched (*n of them; NULL when none). */
const uint32_t *tr_links_devices(const struct tr_links *l, size_t rt, size_t *n);

#endif
