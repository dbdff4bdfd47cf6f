/* flops_calls: the GEMM and attention calls of a trace's operator tree
 * with their work from their shapes (hta/flops.h) and their GPU time (the
 * tree's device time: the kernels below each call), grouped by operator,
 * shape and dtype; what `gpuprof flops` shows and summary's rules read.
 *
 * Each tree node is modelled once; a modelled call above another
 * (scaled_dot_product_attention over its _flash kernel's op) is the same
 * work: the innermost one counts. Owns its arrays; the names point into
 * the trace. Depends on hta/flops, tbprof/optree.
 */
#ifndef GP_VIEWS_FLOPS_CALLS_H
#define GP_VIEWS_FLOPS_CALLS_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "hta/flops.h"
#include "tbprof/optree.h"

/* One call modelled. */
struct fc_call {
	const char *name;
	struct hta_perf p;
	int64_t gpu_ns;
	uint32_t node; /* its tree node */
};

/* One row: calls [first, first + n) of the sorted calls. */
struct fc_row {
	size_t first, n;
	int64_t gpu_sum;
	double tflops_mean, tflops_med, tflops_min, tflops_max, tbs_mean;
};

struct fc_table {
	struct fc_call *calls; /* by (operator, shape, dtype), then tree order */
	size_t ncalls;
	struct fc_row *rows; /* by GPU time, largest first; equal times by key */
	size_t nrows;
	double gflop, tflops; /* all calls: total GFLOP, achieved TFLOP/s over their GPU time */
	int64_t gpu_ns;
};

/* 0, or ERR_NOMEM with e set (out is then fine to fc_free). */
int fc_build(const struct trace *t, const struct optree *o, struct fc_table *out, struct err *e);
void fc_free(struct fc_table *r);

#endif
