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
	const struct view_decl *decl;
	struct view_opts o;
	const struct trace *t;	       /* ts[0] */
	struct ses *ses;	       /* t's shared analyses (links, steps, tree) */
	const struct trace *const *ts; /* VIEW_MANY: every trace given */
	size_t nts;
	void *priv;		/* a view's own results (info, top), freed by its decl's free */
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
	struct ncu_report *ncu; /* VIEW_FAMILY_NCU: the report read */
	bool emit_failed;	/* see view_emit_failed */
};

/* The end of every view_compute*: v (calloc'd, its family's fields set)
 * gets d's identity and the options o, then d's compute runs; *out = v, or
 * v is freed and the error returned. */
int view_start(struct view *v, const struct view_decl *d, const struct view_opts *o,
	       struct view **out, struct err *e);
/* v->steps = a copy of the session's steps (of v->o.tb_compat). */
int view_steps_copy(struct view *v, struct err *e);
int view_tables_compute(struct view *v, struct err *e); /* ops, kernels */
void view_ops_emit(struct view *v, struct report *r);
void view_kernels_emit(struct view *v, struct report *r);
int view_memory_compute(struct view *v, struct err *e);
void view_memory_emit(struct view *v, struct report *r);
int view_summary_compute(struct view *v, struct err *e);
void view_summary_emit(struct view *v, struct report *r);
int view_steps_compute(struct view *v, struct err *e);
void view_steps_emit(struct view *v, struct report *r);
/* Frees the analysis results of the fields above (zeroed ones too). */
void view_tb_free(struct view *v);

/* The declarations of the registry, one per line of views/views.def. */
#define V(name, KIND) extern const struct view_decl view_##name##_decl;
#include "views/views.def"
#undef V

#define VIEW_NC(a) ((int)(sizeof a / sizeof a[0]))

#endif
