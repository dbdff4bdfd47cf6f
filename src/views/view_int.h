/* views internals: the state of a computed view, shared by view*.c only. */
#ifndef GP_VIEWS_VIEW_INT_H
#define GP_VIEWS_VIEW_INT_H

#include "tbprof/gpumetrics.h"
#include "tbprof/optree.h"
#include "tbprof/overview.h"
#include "tbprof/session.h"
#include "tbprof/steps.h"
#include "views/view.h"

/* Every analysis result a view may hold; those a view does not use stay
 * zero (their *_free functions accept zeroed structs). */
struct view {
	enum view_kind kind;
	struct view_opts o;
	const struct trace *t;
	struct ses *ses;	/* t's shared analyses (links, steps, tree) */
	struct st_result steps; /* a copy of the session's (steps --step cuts it) */
	struct gm_result gm;
	const struct optree *tree; /* the session's */
	struct ov_result ov;
	struct ops_view ops;
	enum ops_sort sorted;
	struct kern_view kern;
	struct memory mem;
	uint16_t dev;
	struct mem_stats mstats;
	struct mem_curve mcurve;
	size_t curve_all; /* the curve's points before --curve-points */
	struct mem_events mevents;
};

/* v->steps = a copy of the session's steps (of v->o.tb_compat). */
int view_steps_copy(struct view *v, struct err *e);
int view_tables_compute(struct view *v, struct err *e); /* ops, kernels */
void view_ops_emit(struct view *v, struct report *r);
void view_kernels_emit(struct view *v, struct report *r);
int view_memory_compute(struct view *v, struct err *e);
void view_memory_emit(struct view *v, struct report *r);
int view_summary_compute(struct view *v, struct err *e);
void view_summary_emit(struct view *v, struct report *r);

#define VIEW_NC(a) ((int)(sizeof a / sizeof a[0]))

#endif
