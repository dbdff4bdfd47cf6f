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
/* The links of window w (trace/window.h) from its base trace's links of
 * the same variant, without a pass over correlation ids: base_row[r] is
 * the base row of w's row r (tr_window_rows). Equal to tr_links_build on w
 * whenever every linked row's launcher is in the window, since rows keep
 * their order and the first launcher of an id in the base is then the
 * first in the window too; otherwise (a launcher cut off) returns 1 with
 * *out empty and the caller builds. 0 on success, -1 with e set when out
 * of memory. */
int tr_links_derive(const struct tr_links *parent, const struct trace *w, const uint32_t *base_row,
		    struct tr_links *out, struct err *e);
void tr_links_free(struct tr_links *l);
/* The activities runtime row rt launched (*n of them; NULL when none). */
const uint32_t *tr_links_devices(const struct tr_links *l, size_t rt, size_t *n);

#endif
