/* kernels: torch-tb-profiler's Kernel view (shared/reference/tb_profiler.md
 * §9, §7): kernels grouped by name (every kernel event, launched by an
 * operator or not) or by name + launching operator + launch configuration
 * (only the kernels attached in the operator tree, optree.h), with call
 * count, total/mean/max/min duration, duration-weighted mean blocks per SM
 * and estimated achieved occupancy (a missing value counts as 0, as in tb),
 * and whether the kernel uses Tensor Cores.
 *
 * The weighted means are computed in floating point as tb does, so that they
 * round (to 2 places, in tb's tables) the same way: by name, numpy's
 * pairwise sum of x * dur over the kernels in time order divided by the sum
 * of the durations; by kernel + op, a running sum in tree order. Durations
 * there are tb's float µs (for kernel + op, end - start).
 *
 * By name, rows are sorted by total time descending, then by name (tb sorts
 * with pandas, whose order among equal totals is not defined). By kernel +
 * op, rows keep tb's order: total descending, ties in order of first
 * appearance in the tree.
 *
 * Owns its rows. Depends on tbprof/optree.
 */
#ifndef GP_KERNELS_H
#define GP_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tbprof/optree.h"

enum kern_group { KERN_BY_NAME, KERN_BY_NAME_OP };

struct kern_row {
	uint32_t name;		   /* string id */
	uint32_t op;		   /* launching node (by kernel + op); OPT_NIL: none ("N/A") */
	int32_t grid[3], block[3]; /* -1 when absent (by kernel + op) */
	int32_t regs, shared_mem;  /* of the first kernel; -1 when absent */
	uint64_t calls;
	int64_t total, min, max; /* ns */
	double tb_total; /* by kernel + op under tb_compat: tb's float µs sum (its order) */
	double mean_bps, mean_occ; /* duration-weighted means, missing values as 0 */
	bool tc_used;		   /* the name is a Tensor Core kernel's */
	bool op_tc_eligible;	   /* the operator is on the allow-list (by kernel + op) */
};

struct kern_view {
	struct kern_row *rows;
	size_t n;
	/* tb shows the two weighted means only when some kernel (with a
	 * "device") had a positive blocks per SM / a non-negative occupancy */
	bool has_blocks_per_sm, has_occupancy;
	int64_t kernel_time, tc_time; /* all kernels; those using Tensor Cores */
};

int kern_build(const struct optree *o, enum kern_group group, struct kern_view *out, struct err *e);
/* The groups by name of trace t's kernels without a tree, in kern_build's
 * order, with their calls, total, min and max as kern_build gives them and
 * no more: tc_used false and tc_time 0 (the Tensor Core marks are the
 * tree's), the two means 0 and the first kernel's fields (grid, block,
 * regs, shared_mem) those of the first in row order, not in time order
 * (the means are sums in time order, which needs the kernels sorted). The
 * rank summary's kernel table. */
int kern_build_names(const struct trace *t, bool tb_compat, struct kern_view *out, struct err *e);
/* Whether event row is one of the kernels kern_build counts by name (each
 * one call of its row). */
static inline bool kern_counted_row(const struct trace *t, bool tb_compat, size_t row)
{
	return t->ev.kind[row] == TR_KERNEL && optree_row_used(t, tb_compat, row);
}
static inline bool kern_counted(const struct optree *o, size_t row)
{
	return kern_counted_row(o->t, o->opts.tb_compat, row);
}
void kern_free(struct kern_view *v);

/* Mean duration in ns, rounded half to even (tb's float mean under
 * tb_compat by kernel + op, through tb_ns_shown). */
int64_t kern_mean(const struct kern_row *r);

#endif
