/* lightning: torch-tb-profiler's Lightning view (shared/reference/
 * tb_profiler.md §12), for PyTorch Lightning traces (top-level Framework
 * "pytorch-lightning"): the modules Lightning annotates with `[pl][module]`
 * ops, their hierarchy from the dotted names and their times from the
 * operator tree's PL module nodes (optree.h). Separate from the nn.Module
 * hierarchy so that a Module view can call it for such traces too.
 *
 * A `[pl][module]TYPE: NAME` op (X, cpu_op/operator) names the module NAME
 * (tb strips every "[pl][module]", then splits at the first ": "; without
 * one it keeps the text from its second character, as tb does). Modules are
 * the distinct names in order of first start; a module's parent is the one
 * named by its name up to the last '.', when there is one. Per module, over
 * its PL module nodes in the tree: occurrences, operators (direct operator
 * children), host total (end - start) and self, device total and self (own
 * runtimes plus direct operator children's device time), and tb's average:
 * the mean device total when positive, else the mean host total. Rows come
 * in preorder; roots sorted by name, children in order of first start (tb
 * sorts only the top level).
 *
 * Times are ns, and they are tb's under tb_compat (the tree's). Owns its
 * rows; reads the tree, which must outlive it. */
#ifndef GP_LIGHTNING_H
#define GP_LIGHTNING_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "tbprof/optree.h"

#define PL_NO_PARENT UINT32_MAX

struct pl_module {
	uint32_t name;	 /* string id of the whole op name */
	const char *txt; /* the module's name (tb's), NUL-terminated */
	size_t len;
	uint32_t parent; /* row index of the parent, PL_NO_PARENT */
	uint32_t depth;
	uint64_t occurrences, operators;
	int64_t host, self_host, device, self_device; /* ns, summed over occurrences */
	double avg_ns;				      /* tb's avg_duration */
};

struct pl_view {
	bool lightning;		/* the trace is a Lightning trace */
	struct pl_module *rows; /* preorder */
	char *text;		/* the module names (rows[].txt point into it) */
	size_t n;
};

int pl_build(const struct optree *o, struct pl_view *out, struct err *e);
void pl_free(struct pl_view *v);

#endif
