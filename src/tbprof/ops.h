/* ops: torch-tb-profiler's Operator view (shared/reference/tb_profiler.md
 * §8): the operator nodes of every thread's tree (optree.h), grouped by name,
 * by name + input shape, optionally also by call stack, with calls, host and
 * device total/self time and the Tensor Core columns.
 *
 * Groups appear in tb's order (first member in post-order, thread by thread);
 * ops_sort orders them stably, so equal keys keep that order as tb's
 * sorted() does. The input shape is Python's str() of the "Input Dims"
 * argument, e.g. "[[32, 3, 224, 224], []]" ("[]" when absent), as tb keys
 * and shows it.
 *
 * Owns its rows and shape texts. Depends on tbprof/optree.
 */
#ifndef GP_OPS_H
#define GP_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tbprof/optree.h"

enum ops_group { OPS_BY_NAME, OPS_BY_NAME_SHAPE };

struct ops_opts {
	enum ops_group group;
	bool stack;	  /* also group by call stack */
	bool node_groups; /* fill ops_view.node_group */
};

struct ops_row {
	uint32_t name;	     /* string id */
	uint32_t shape;	     /* offset of the shape text in ops_view.text (group by shape) */
	uint32_t call_stack; /* string id, 0 for none (with stack) */
	uint32_t order;	     /* creation order (tb's first appearance) */
	uint64_t calls;
	int64_t host, self_host, device, self_device; /* ns */
	int64_t tc_self, tc_total;		      /* ns of Tensor Core kernels */
	bool tc_eligible;			      /* of the first member */
	bool has_call_stack;			      /* a member has a call stack */
};

struct ops_view {
	struct ops_row *rows;
	size_t n;
	char *text; /* NUL-terminated shape texts */
	size_t text_len, text_cap;
	uint32_t *node_group; /* with node_groups: tree node -> its row (as built, before
				 ops_sort), OPT_NIL for none */
};

enum ops_sort {
	OPS_SORT_TB, /* tb: device self if the trace has GPU work, else host self */
	OPS_SORT_DEVICE_SELF,
	OPS_SORT_DEVICE_TOTAL,
	OPS_SORT_HOST_SELF,
	OPS_SORT_HOST_TOTAL,
	OPS_SORT_CALLS,
	OPS_SORT_NAME, /* ascending; the others descending */
	OPS_SORT_TC_SELF,
	OPS_SORT_TC_TOTAL,
};

int ops_build(const struct optree *o, const struct ops_opts *opts, struct ops_view *out,
	      struct err *e);
void ops_free(struct ops_view *v);
/* Stable sort; OPS_SORT_TB resolves to the column tb sorts by, returned. */
enum ops_sort ops_sort(struct ops_view *v, const struct optree *o, enum ops_sort by);
/* Parses a --sort name ("device_self", ...); -1 when unknown. */
int ops_sort_parse(const char *s);
const char *ops_sort_name(enum ops_sort s);

static inline const char *ops_shape(const struct ops_view *v, const struct ops_row *r)
{
	return v->text + r->shape;
}
/* tb's tc_self_ratio / tc_total_ratio as percents (0 when nothing ran). */
static inline double ops_tc_self_pct(const struct ops_row *r)
{
	return r->self_device > 0 ? 100.0 * ((double)r->tc_self / (double)r->self_device) : 0.0;
}
static inline double ops_tc_total_pct(const struct ops_row *r)
{
	return r->device > 0 ? 100.0 * ((double)r->tc_total / (double)r->device) : 0.0;
}

/* Python's repr of the JSON value json[0..len) (lists, numbers, strings,
 * true/false/null), appended to the view's text; returns its offset or -1. */
long ops_pyrepr(struct ops_view *v, const char *json, size_t len);

#endif
