/* optree_bwd_int: what the backward-module rewrite's two source files share
 * (optree_bwd.c finds the backward roots and maps the flows to them,
 * optree_bwd_build.c makes, inserts and lists the synthetic
 * `<module>.backward` nodes; the rewrite is described there). Not for
 * other modules. */
#ifndef GP_OPTREE_BWD_INT_H
#define GP_OPTREE_BWD_INT_H

#include <stdlib.h>
#include <string.h>

#include "core/hmap.h"
#include "core/vec.h"
#include "tbprof/optree_int.h"

#define BWD_PREFIX "autograd::engine::evaluate_function:"

/* Node counts never pass this (ids are 32-bit). */
#define BWD_MAX (UINT32_MAX / 2)

/* A growable list of node ids. */
struct kv {
	uint32_t *v;
	size_t n, cap;
};

static inline int kv_push(struct kv *k, uint32_t x)
{
	return vec_push(*k, x, BWD_MAX);
}

/* A synthetic `<module>.backward` node. */
struct syn {
	int64_t start, end;
	struct kv kids;
	bool tc_eligible;
};

/* A float64 key (µs) to a dense value, first insertion kept. */
struct dmap {
	struct hmap h;
	struct dent {
		double key;
		uint32_t val;
	} * v;
	size_t n, cap;
};

uint32_t dmap_get(const struct dmap *m, double k);

struct rw {
	struct optree *o;
	const struct trace *t;
	uint32_t nreal;
	uint32_t *cfirst, *csr; /* the tree's children: csr[cfirst[x] .. cfirst[x + 1]) */
	struct kv *own;		/* a real node's children once changed (v NULL: csr) */
	VEC(struct syn) syn;	/* node nreal + j */
	struct kv flat;		/* the backward roots taken out, grouped by parent */
	uint32_t *grp_end;	/* group starting at flat.v[i]: its end in flat, else 0 */
	uint32_t *grp_at;	/* real node -> its group's start in flat, OPT_NIL */
	struct kv top;		/* the Module nodes at a thread's top or under a step */
	struct dmap fwd;	/* forward start (µs) -> backward target (index in bts) */
	double *bts;		/* backward target times */
	struct dmap fwdgrp;	/* forward start (µs) -> group start in flat */
	struct kv result;	/* the top synthetic nodes */
	uint8_t *on_path;	/* traversal guard */
	uint32_t main_thread;
};
static inline bool is_syn(const struct rw *w, uint32_t x)
{
	return x >= w->nreal;
}

static inline int64_t n_start(const struct rw *w, uint32_t x)
{
	return is_syn(w, x) ? w->syn.v[x - w->nreal].start : w->o->nodes[x].start;
}

static inline int64_t n_end(const struct rw *w, uint32_t x)
{
	return is_syn(w, x) ? w->syn.v[x - w->nreal].end : w->o->nodes[x].end;
}

/* The float64 µs the plugin keys a node's start time by. */
static inline double n_key(const struct rw *w, uint32_t x)
{
	return tb_us(w->t->ev.ts[w->o->nodes[x].row]);
}

static inline bool bwd_name(const struct rw *w, uint32_t x)
{
	return !is_syn(w, x) && w->o->nodes[x].cls != OPC_ROOT &&
	       optree_has_prefix(w->t, w->o->nodes[x].name, BWD_PREFIX);
}

/* x's current children. */
static inline const uint32_t *kids(const struct rw *w, uint32_t x, uint32_t *n)
{
	if (is_syn(w, x)) {
		*n = w->syn.v[x - w->nreal].kids.n;
		return w->syn.v[x - w->nreal].kids.v;
	}
	if (w->own[x].v) {
		*n = w->own[x].n;
		return w->own[x].v;
	}
	*n = w->cfirst[x + 1] - w->cfirst[x];
	return w->csr + w->cfirst[x];
}
/* x's children, to be changed; NULL out of memory. */
struct kv *kids_mut(struct rw *w, uint32_t x);

/* _build_backward_module from each top Module node (when a flow was
 * mapped), _insert_backward_modules into the main thread, and the final
 * traversal into o->agg / o->agg_bottom. 0, or -1 out of memory. */
int bwd_build_insert(struct rw *w);
int bwd_emit(struct rw *w);

#endif
