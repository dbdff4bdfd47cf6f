/* overview: the Overview numbers that combine the other analyses: Kernel
 * Time using Tensor Cores per GPU, the Tensor-Core-eligible share, and
 * torch-tb-profiler's performance recommendations (tb_profiler.md §5.5,
 * §7), in tb's order and wording.
 *
 * With tb_compat the recommendations are tb's strings byte for byte (HTML
 * links, its "1and 2" join, the tuple-valued link); otherwise the same
 * advice in plain text with the links written out and the join fixed.
 * Owns the strings it returns. Depends on trace/trace, optree, steps,
 * gpumetrics, memory.
 */
#ifndef GP_OVERVIEW_H
#define GP_OVERVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tbprof/gpumetrics.h"
#include "tbprof/optree.h"
#include "tbprof/steps.h"

struct ov_gpu_tc {
	int64_t gpu;	     /* args.device */
	int64_t kernel_time; /* kernels launched by operators' own runtimes, ns */
	int64_t tc_time;     /* the part in Tensor Core kernels */
};

struct ov_result {
	struct ov_gpu_tc *tc; /* ascending gpu; only GPUs with such kernels */
	size_t ntc;
	double tc_eligible_ratio;	/* optree_tc_eligible_ratio */
	bool has_kernels;		/* any kernel at all */
	double tc_used_ratio;		/* all kernels: TC time / kernel time */
	int64_t tc_time, tc_full_time;	/* all kernels: TC time; its fp32/64 part */
	int64_t peak_allocated_gpu[64]; /* peak Total Allocated per GPU id, -1 */
	char **recs;			/* recommendations, in order */
	const char **rules;		/* the rule id of each (static strings) */
	size_t nrecs;
};

/* The share of the Tensor Core kernel time in kernels of 32/64-bit inputs
 * from which the AMP advice is given although Tensor Cores are used
 * (outside tb_compat; docs/views.md, summary). */
#define OV_AMP_FULL_SHARE 0.5

/* Appends a recommendation (rule: a static id). 0, or -1 out of memory. */
int ov_add_rec(struct ov_result *r, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

int ov_compute(const struct trace *t, const struct optree *o, const struct st_result *s,
	       const struct gm_result *g, bool tb_compat, struct ov_result *out, struct err *e);
void ov_free(struct ov_result *r);
/* Tensor-Core share of GPU gpu, or -1 when it has no operator kernels. */
double ov_tc_ratio(const struct ov_result *r, int64_t gpu);

#endif
