/* modules: torch-tb-profiler's Module view (shared/reference/tb_profiler.md;
 * the plugin's module_op.py): the nn.Module hierarchy and, per module, its
 * calls, operators and host and device times.
 *
 * The hierarchy comes from the python_function events alone: each event's
 * "Python id" and "Python parent id" make a call tree of Python frames;
 * walking up from every leaf and keeping only the frames that carry a
 * "Python module id" gives a tree of module calls, whose roots, compared as
 * whole trees (name, module id, children in order), are kept once each. Top
 * rows are ordered by name (ties: first seen; the plugin's order among equal
 * names is that of a Python set), children in the order the walk met them.
 *
 * The statistics come from the operator tree's Module nodes (optree.h),
 * aggregated by (name, module id) over every call: calls, operators (the
 * direct children that are operator rows), host time (end - start), host
 * self time (minus children and own runtimes), device time and device self
 * time (own runtimes' GPU time plus that of the direct operator children).
 *
 * Default: exact integer ns over every Module node. With tb_compat the
 * plugin's numbers: its float64 µs arithmetic (each ts and dur parsed as a
 * double µs, sums in its order) and its backward-module rewrite (when the
 * trace has fwdbwd flows and a Module node at a thread's top level, the
 * `autograd::engine::evaluate_function:` nodes at the top of a thread or of
 * a ProfilerStep leave the tree, with the Module nodes under them).
 *
 * Owns its rows; reads the trace and the tree, which it does not keep.
 * Depends on trace/ and tbprof/optree.
 */
#ifndef GP_TBPROF_MODULES_H
#define GP_TBPROF_MODULES_H

#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"
#include "tbprof/optree.h"

#define TBMOD_NIL UINT32_MAX

/* One row of the view: a module in the hierarchy (rows in preorder). */
struct tbmod_row {
	uint32_t name;	   /* string id of the event name ("nn.Module: ResNet_0") */
	int64_t module_id; /* "Python module id" */
	uint32_t parent;   /* row index, TBMOD_NIL at the top */
	uint32_t depth;	   /* 0 at the top */
	uint32_t children; /* number of direct child rows */
	uint64_t calls;	   /* 0: no Module node of that name and id in the tree */
	uint64_t operators;
	int64_t host, self_host, device, self_device;		 /* ns (default mode) */
	double host_us, self_host_us, device_us, self_device_us; /* tb_compat: µs */
};

struct tbmodules {
	struct tbmod_row *rows;
	size_t n;
	bool tb_compat;
	bool rewrite;		/* tb_compat and the backward rewrite applied */
	uint64_t dropped_calls; /* Module nodes the rewrite took out (tb_compat) */
	uint64_t module_nodes;	/* Module nodes in the tree */
	uint64_t python_events; /* python_function events read */
};

int tbmod_build(const struct optree *o, bool tb_compat, struct tbmodules *out, struct err *e);
void tbmod_free(struct tbmodules *m);

/* The row's name without tb's "nn.Module: " prefix. */
const char *tbmod_display_name(const struct trace *t, const struct tbmod_row *r);

#endif
