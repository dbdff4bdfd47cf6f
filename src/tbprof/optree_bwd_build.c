/* optree_bwd_build: the synthetic `<module>.backward` nodes of the
 * backward-module rewrite, their insertion into the main thread's tree and
 * the rewritten tree's traversal (optree_bwd.c describes the rewrite). */
#include "core/radix.h"
#include "tbprof/optree_bwd_int.h"

static uint32_t syn_new(struct rw *w, uint32_t module)
{
	struct syn *s = vec_add(w->syn, BWD_MAX - w->nreal);
	if (!s)
		return OPT_NIL;
	const struct optree_node *m = &w->o->nodes[module];
	*s = (struct syn){.start = m->start, .end = m->end};
	return w->nreal + (uint32_t)(w->syn.n - 1);
}

/* Node ids sorted stably by (start, -end). */
struct by_time {
	int64_t start, end;
	uint32_t id;
};

static const struct rx_key by_time_keys[] = {RX_KEY(struct by_time, start, RX_I64),
					     RX_KEY_DESC(struct by_time, end, RX_I64)};

static int sort_time(const struct rw *w, struct kv *k)
{
	if (k->n < 2)
		return 0;
	struct by_time *b = malloc((size_t)k->n * sizeof *b);
	if (!b)
		return -1;
	for (uint32_t i = 0; i < k->n; i++)
		b[i] = (struct by_time){n_start(w, k->v[i]), n_end(w, k->v[i]), k->v[i]};
	if (rx_sort(b, k->n, sizeof *b, by_time_keys, 2)) {
		free(b);
		return -1;
	}
	for (uint32_t i = 0; i < k->n; i++)
		k->v[i] = b[i].id;
	free(b);
	return 0;
}

/* BackwardNode.fill_stats: children in (start, -end) order, the span from
 * the first to the last, Tensor Core eligible when a child is. */
static int syn_fill(struct rw *w, uint32_t x)
{
	struct syn *s = &w->syn.v[x - w->nreal];
	if (sort_time(w, &s->kids))
		return -1;
	s->start = n_start(w, s->kids.v[0]);
	s->end = n_end(w, s->kids.v[s->kids.n - 1]);
	for (uint32_t i = 0; i < s->kids.n; i++) {
		uint32_t c = s->kids.v[i];
		s->tc_eligible |=
		    is_syn(w, c) ? w->syn.v[c - w->nreal].tc_eligible : w->o->nodes[c].tc_eligible;
	}
	return 0;
}

/* One level of _build_backward_module's recursion. */
struct frame {
	uint32_t node, parent, next;
	bool module;
};

/* _build_backward_module from the top Module node m. */
static int build_module(struct rw *w, uint32_t m, struct frame *st)
{
	const struct optree *o = w->o;
	size_t depth = 0;
	st[depth++] = (struct frame){m, OPT_NIL, 0, false};
	for (bool enter = true; depth;) {
		struct frame *f = &st[depth - 1];
		if (enter) {
			enter = false;
			if (o->nodes[f->node].cls == OPC_MODULE) {
				uint32_t b = syn_new(w, f->node);
				f = &st[depth - 1];
				if (b == OPT_NIL ||
				    kv_push(f->parent == OPT_NIL
						? &w->result
						: &w->syn.v[f->parent - w->nreal].kids,
					    b))
					return -1;
				f->parent = b;
				f->module = true;
			}
		}
		uint32_t n;
		const uint32_t *c = kids(w, f->node, &n);
		if (f->next < n) {
			uint32_t ch = c[f->next++];
			if (f->parent != OPT_NIL && o->nodes[ch].is_op) {
				uint32_t g = dmap_get(&w->fwdgrp, n_key(w, ch));
				struct kv *pk = &w->syn.v[f->parent - w->nreal].kids;
				for (uint32_t i = g; g != OPT_NIL && i < w->grp_end[g]; i++)
					if (kv_push(pk, w->flat.v[i]))
						return -1;
			}
			st[depth++] = (struct frame){ch, f->parent, 0, false};
			enter = true;
			continue;
		}
		if (f->module && w->syn.v[f->parent - w->nreal].kids.n && syn_fill(w, f->parent))
			return -1;
		depth--;
	}
	return 0;
}

/* _insert_backward_modules into the main thread's tree. */
static int insert_modules(struct rw *w, uint32_t root, uint32_t *stk, uint32_t *stk_i)
{
	if (sort_time(w, &w->result))
		return -1;
	size_t depth = 0;
	uint32_t cur = root, ci = 0;
	for (uint32_t mi = 0; mi < w->result.n;) {
		uint32_t m = w->result.v[mi];
		if (cur == OPT_NIL || n_end(w, m) < n_start(w, cur)) {
			w->o->bwd.dropped_modules++;
			mi++;
			continue;
		}
		if (n_start(w, m) > n_end(w, cur)) {
			if (depth) {
				depth--;
				cur = stk[depth];
				ci = stk_i[depth] + 1;
			} else {
				cur = OPT_NIL;
			}
			continue;
		}
		for (;;) {
			uint32_t n;
			const uint32_t *c = kids(w, cur, &n);
			if (ci >= n || n_end(w, m) < n_start(w, c[ci]))
				break;
			if (n_start(w, m) >= n_end(w, c[ci])) {
				ci++;
			} else if (depth < (size_t)w->nreal + w->syn.n) {
				stk[depth] = cur;
				stk_i[depth++] = ci;
				cur = c[ci];
				ci = 0;
			} else {
				break;
			}
		}
		struct kv *k = kids_mut(w, cur);
		if (!k || kv_push(k, 0))
			return -1;
		memmove(k->v + ci + 1, k->v + ci, (size_t)(k->n - 1 - ci) * sizeof *k->v);
		k->v[ci++] = m;
		mi++;
	}
	return 0;
}

/* The plugin's get_operator_and_kernels order over the rewritten tree:
 * post-order, thread by thread, threads without children left out; a
 * node already on the path is not entered again (the plugin would
 * recurse forever). bottom[i]: agg[i] is a bottom-most Tensor-Core
 * eligible node (tensor_cores_parser.py). */
static int list_tree(struct rw *w, struct kv *out, struct kv *bottom)
{
	struct optree *o = w->o;
	size_t cap_nodes = (size_t)w->nreal * 16 + 1000000;
	struct dframe {
		uint32_t node, next;
		bool below; /* an eligible node below */
	} *st = NULL;
	size_t cap = 0;
	for (size_t k = 0; k < o->nthreads; k++) {
		uint32_t root = o->threads[k].root, n;
		kids(w, root, &n);
		if (!n) {
			o->bwd.dropped_threads++;
			continue;
		}
		size_t depth = 0;
		if (!cap && !(st = malloc((cap = 64) * sizeof *st)))
			return -1;
		st[depth++] = (struct dframe){root, 0, false};
		w->on_path[root] = 1;
		while (depth) {
			struct dframe *f = &st[depth - 1];
			const uint32_t *c = kids(w, f->node, &n);
			if (f->next < n) {
				uint32_t ch = c[f->next++];
				if (!is_syn(w, ch) && w->on_path[ch])
					continue;
				if (depth == cap) {
					struct dframe *q = realloc(st, (cap *= 2) * sizeof *q);
					if (!q) {
						free(st);
						return -1;
					}
					st = q;
				}
				if (!is_syn(w, ch))
					w->on_path[ch] = 1;
				st[depth++] = (struct dframe){ch, 0, false};
				continue;
			}
			uint32_t x = f->node;
			bool below = f->below;
			bool elig = is_syn(w, x) ? w->syn.v[x - w->nreal].tc_eligible
						 : o->nodes[x].tc_eligible;
			if (!is_syn(w, x)) {
				w->on_path[x] = 0;
				if (out->n >= cap_nodes || kv_push(out, x) ||
				    kv_push(bottom, elig && !below)) {
					free(st);
					return -1;
				}
			}
			depth--;
			if (depth)
				st[depth - 1].below |= below || elig;
		}
	}
	free(st);
	return 0;
}

int bwd_build_insert(struct rw *w)
{
	size_t most = (size_t)w->nreal + 1;
	struct frame *st = malloc(most * sizeof *st);
	int rc = !st ? -1 : 0;
	for (size_t i = 0; i < w->top.n && !rc && w->fwdgrp.n; i++)
		rc = build_module(w, w->top.v[i], st);
	free(st);
	if (rc)
		return rc;
	most += w->syn.n;
	uint32_t *stk = malloc(most * sizeof *stk), *stk_i = malloc(most * sizeof *stk_i);
	rc =
	    !stk || !stk_i ? -1 : insert_modules(w, w->o->threads[w->main_thread].root, stk, stk_i);
	free(stk);
	free(stk_i);
	w->o->bwd.modules = (uint32_t)w->syn.n;
	return rc;
}

/* The rewritten tree as o->rwt (optree.h), for the Memory view's walk. */
static int keep_tree(const struct rw *w)
{
	struct optree_rwtree *t = &w->o->rwt;
	uint32_t ns = (uint32_t)w->syn.n, n = w->nreal + ns, k;
	size_t edges = 0;
	for (uint32_t x = 0; x < n; x++) {
		kids(w, x, &k);
		edges += k;
	}
	if (edges >= UINT32_MAX)
		return -1;
	t->first = malloc(((size_t)n + 1) * sizeof *t->first);
	t->kids = malloc((edges ? edges : 1) * sizeof *t->kids);
	t->syn_start = malloc((ns ? ns : 1) * sizeof *t->syn_start);
	t->syn_end = malloc((ns ? ns : 1) * sizeof *t->syn_end);
	if (!t->first || !t->kids || !t->syn_start || !t->syn_end)
		return -1;
	uint32_t at = 0;
	for (uint32_t x = 0; x < n; x++) {
		const uint32_t *c = kids(w, x, &k);
		t->first[x] = at;
		if (k)
			memcpy(t->kids + at, c, (size_t)k * sizeof *c);
		at += k;
	}
	t->first[n] = at;
	for (uint32_t j = 0; j < ns; j++) {
		t->syn_start[j] = w->syn.v[j].start;
		t->syn_end[j] = w->syn.v[j].end;
	}
	t->nsyn = ns;
	return 0;
}

int bwd_emit(struct rw *w)
{
	struct optree *o = w->o;
	struct kv out = {0}, bottom = {0};
	if (keep_tree(w) || list_tree(w, &out, &bottom)) {
		free(out.v);
		free(bottom.v);
		return -1;
	}
	o->agg_own = out.v ? out.v : malloc(sizeof *o->agg_own);
	o->agg_bottom = malloc(bottom.n + 1);
	if (!o->agg_own || !o->agg_bottom) {
		free(bottom.v);
		return -1;
	}
	for (uint32_t i = 0; i < bottom.n; i++)
		o->agg_bottom[i] = (uint8_t)bottom.v[i];
	free(bottom.v);
	o->agg = o->agg_own;
	o->nagg = out.n;
	return 0;
}
