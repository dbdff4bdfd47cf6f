/* optree_bwd: torch-tb-profiler's backward-module rewrite of the operator
 * tree (its op_tree.py, OpTreeBuilder.build_tree after the trees are
 * built), under tb_compat only; see optree.h ("agg", "bwd_removed").
 *
 * When the trace has fwdbwd flow pairs and a Module node at the top of a
 * thread or of a ProfilerStep, the plugin
 *  1. takes every `autograd::engine::evaluate_function:` node found at
 *     those places out of the tree (the backward roots), and groups each
 *     `...: torch::autograd::AccumulateGrad` root with the root before it;
 *  2. maps each flow's forward start time to the group holding the flow's
 *     backward target (the nearest backward-root ancestor of the node
 *     starting at the target time);
 *  3. for every such Module node (and, inside it, every nested one) makes a
 *     synthetic `<module>.backward` node whose children are the groups of
 *     the module's operators (at any depth below it, by their start time;
 *     an operator nested in another with the same start lists the group
 *     again) and the nested modules' synthetic nodes; a synthetic node with
 *     children spans its first to its last child in (start, -end) order;
 *  4. inserts the top synthetic nodes, in (start, -end) order, into the main
 *     thread's tree by time (descending into any child they overlap, the
 *     ones inserted before included); those before the node reached are
 *     dropped, as are groups no module claimed;
 *  5. drops the threads left without children (their root's runtimes too).
 * The Operator and Kernel views then aggregate that tree. Where the plugin
 * fails (a second flow to a group already taken, a lookup that loops, an
 * AccumulateGrad before any other root) gpuprof skips that step; it never
 * loops (walks are bounded, a node is not entered again below itself).
 *
 * Times are compared as the plugin holds them: dictionary keys are the
 * float64 µs of the event's `ts` (tb_us), ranges the tree's (tb) ns. */
#include <stdlib.h>
#include <string.h>

#include "core/hmap.h"
#include "tbprof/optree_int.h"

static const char bwd_prefix[] = "autograd::engine::evaluate_function:";
static const char acc_grad[] = "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad";

/* A growable list of node ids. */
struct kv {
	uint32_t *v;
	uint32_t n, cap;
};

static int kv_push(struct kv *k, uint32_t x)
{
	if (k->n == k->cap) {
		uint32_t c = k->cap ? k->cap * 2 : 4;
		uint32_t *q = realloc(k->v, (size_t)c * sizeof *q);
		if (!q)
			return -1;
		k->v = q;
		k->cap = c;
	}
	k->v[k->n++] = x;
	return 0;
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
	double *key;
	uint32_t *val;
	size_t n, cap;
};

static uint64_t dkey(double d)
{
	uint64_t b;
	d = d == 0 ? 0 : d; /* -0.0 == 0.0 */
	memcpy(&b, &d, sizeof b);
	return hmap_hash(b);
}

struct dctx {
	const struct dmap *m;
	double k;
};

static bool d_eq(const void *ctx, uint32_t v)
{
	const struct dctx *c = ctx;
	return c->m->key[v] == c->k;
}

static uint32_t dmap_get(const struct dmap *m, double k)
{
	struct dctx c = {m, k};
	uint32_t i = hmap_get(&m->h, dkey(k), d_eq, &c);
	return i == HMAP_NONE ? OPT_NIL : m->val[i];
}

/* Sets k to v (replace: overwrite an existing value; else keep the first). */
static int dmap_put(struct dmap *m, double k, uint32_t v, bool replace)
{
	struct dctx c = {m, k};
	uint32_t i;
	size_t slot = hmap_slot(&m->h, dkey(k), d_eq, &c, &i);
	if (slot == SIZE_MAX)
		return -1;
	if (i != HMAP_NONE) {
		if (replace)
			m->val[i] = v;
		return 0;
	}
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;
		double *nk = realloc(m->key, cap * sizeof *nk);
		if (!nk)
			return -1;
		m->key = nk;
		uint32_t *nv = realloc(m->val, cap * sizeof *nv);
		if (!nv)
			return -1;
		m->val = nv;
		m->cap = cap;
	}
	m->key[m->n] = k;
	m->val[m->n] = v;
	hmap_set(&m->h, slot, dkey(k), (uint32_t)m->n++);
	return 0;
}

static void dmap_free(struct dmap *m)
{
	hmap_free(&m->h);
	free(m->key);
	free(m->val);
}

struct rw {
	struct optree *o;
	const struct trace *t;
	uint32_t nreal;
	uint32_t *cfirst, *csr; /* the tree's children: csr[cfirst[x] .. cfirst[x + 1]) */
	struct kv *own;		/* a real node's children once changed (v NULL: csr) */
	struct syn *syn;	/* node nreal + j */
	size_t nsyn, capsyn;
	struct kv flat;	     /* the backward roots taken out, grouped by parent */
	uint32_t *grp_end;   /* group starting at flat.v[i]: its end in flat, else 0 */
	uint32_t *grp_at;    /* real node -> its group's start in flat, OPT_NIL */
	struct kv top;	     /* the Module nodes at a thread's top or under a step */
	struct dmap fwd;     /* forward start (µs) -> backward target (index in bts) */
	double *bts;	     /* backward target times */
	struct dmap fwdgrp;  /* forward start (µs) -> group start in flat */
	struct kv result;    /* the top synthetic nodes */
	uint8_t *on_path;    /* traversal guard */
	uint32_t main_thread;
};

static bool is_syn(const struct rw *w, uint32_t x)
{
	return x >= w->nreal;
}

static int64_t n_start(const struct rw *w, uint32_t x)
{
	return is_syn(w, x) ? w->syn[x - w->nreal].start : w->o->nodes[x].start;
}

static int64_t n_end(const struct rw *w, uint32_t x)
{
	return is_syn(w, x) ? w->syn[x - w->nreal].end : w->o->nodes[x].end;
}

/* The float64 µs the plugin keys a node's start time by. */
static double n_key(const struct rw *w, uint32_t x)
{
	return tb_us(w->t->ev.ts[w->o->nodes[x].row]);
}

static bool bwd_name(const struct rw *w, uint32_t x)
{
	return !is_syn(w, x) && w->o->nodes[x].cls != OPC_ROOT &&
	       optree_has_prefix(w->t, w->o->nodes[x].name, bwd_prefix);
}

/* x's current children. */
static const uint32_t *kids(const struct rw *w, uint32_t x, uint32_t *n)
{
	if (is_syn(w, x)) {
		*n = w->syn[x - w->nreal].kids.n;
		return w->syn[x - w->nreal].kids.v;
	}
	if (w->own[x].v) {
		*n = w->own[x].n;
		return w->own[x].v;
	}
	*n = w->cfirst[x + 1] - w->cfirst[x];
	return w->csr + w->cfirst[x];
}

/* x's children, to be changed; NULL out of memory. */
static struct kv *kids_mut(struct rw *w, uint32_t x)
{
	if (is_syn(w, x))
		return &w->syn[x - w->nreal].kids;
	struct kv *k = &w->own[x];
	if (!k->v) {
		uint32_t n, *v = malloc(((size_t)w->cfirst[x + 1] - w->cfirst[x] + 4) * sizeof *v);
		const uint32_t *src = kids(w, x, &n);
		if (!v)
			return NULL;
		memcpy(v, src, (size_t)n * sizeof *v);
		*k = (struct kv){v, n, n + 4};
	}
	return k;
}

static int csr_build(struct rw *w)
{
	const struct optree *o = w->o;
	w->cfirst = calloc((size_t)w->nreal + 1, sizeof *w->cfirst);
	w->csr = malloc(((size_t)w->nreal + 1) * sizeof *w->csr);
	w->own = calloc((size_t)w->nreal + 1, sizeof *w->own);
	w->grp_at = malloc(((size_t)w->nreal + 1) * sizeof *w->grp_at);
	w->on_path = calloc((size_t)w->nreal + 1, 1);
	if (!w->cfirst || !w->csr || !w->own || !w->grp_at || !w->on_path)
		return -1;
	uint32_t at = 0;
	for (uint32_t x = 0; x < w->nreal; x++) {
		w->cfirst[x] = at;
		w->grp_at[x] = OPT_NIL;
		const struct optree_node *nd = &o->nodes[x];
		if (nd->dropped || nd->collapsed)
			continue;
		for (uint32_t c = nd->first_child; c != OPT_NIL; c = o->nodes[c].next_sibling)
			w->csr[at++] = c;
	}
	w->cfirst[w->nreal] = at;
	return 0;
}

/* The flow pairs (trace.py's create_association_events): per id the last
 * `s` and the last `f`; per forward time (ids in order of their first `s`)
 * the backward time of the last such id. 0, or -1 out of memory. */
static int fwd_pairs(struct rw *w)
{
	const struct trace *t = w->t;
	struct hmap sid = {0}, fid = {0}; /* flow id -> index in s_* / f_ts */
	int64_t *s_ts = NULL, *s_id = NULL, *f_ts = NULL;
	size_t ns = 0, nf = 0;
	int rc = -1;
	s_ts = malloc((t->flows.n + 1) * sizeof *s_ts);
	s_id = malloc((t->flows.n + 1) * sizeof *s_id);
	f_ts = malloc((t->flows.n + 1) * sizeof *f_ts);
	w->bts = malloc((t->flows.n + 1) * sizeof *w->bts);
	if (!s_ts || !s_id || !f_ts || !w->bts || hmap_init(&sid, 64) || hmap_init(&fid, 64) ||
	    hmap_init(&w->fwd.h, 64))
		goto out;
	for (size_t i = 0; i < t->flows.n; i++) {
		const struct tr_flow *fl = &t->flows.v[i];
		if ((fl->ph != 's' && fl->ph != 'f') || strcmp(tr_str(t, fl->cat), "fwdbwd"))
			continue;
		uint64_t h = hmap_int(fl->id == INT64_MIN ? INT64_MIN + 1 : fl->id);
		bool s = fl->ph == 's';
		struct hmap *m = s ? &sid : &fid;
		uint32_t v;
		size_t slot = hmap_slot(m, h, NULL, NULL, &v);
		if (slot == SIZE_MAX)
			goto out;
		if (v == HMAP_NONE) {
			v = (uint32_t)(s ? ns++ : nf++);
			hmap_set(m, slot, h, v);
			if (s)
				s_id[v] = fl->id;
		}
		(s ? s_ts : f_ts)[v] = fl->ts;
	}
	for (size_t i = 0; i < ns; i++) {
		int64_t id = s_id[i];
		uint32_t f = hmap_get(&fid, hmap_int(id == INT64_MIN ? INT64_MIN + 1 : id), NULL, NULL);
		if (f == HMAP_NONE)
			continue;
		double fk = tb_us(s_ts[i]);
		uint32_t at = dmap_get(&w->fwd, fk);
		if (at == OPT_NIL) {
			at = (uint32_t)w->fwd.n;
			if (dmap_put(&w->fwd, fk, at, false))
				goto out;
		}
		w->bts[at] = tb_us(f_ts[f]);
	}
	rc = 0;
out:
	hmap_free(&sid);
	hmap_free(&fid);
	free(s_ts);
	free(s_id);
	free(f_ts);
	return rc;
}

/* The plugin's main thread: the last thread holding a ProfilerStep, else
 * the only one, else the longest root span apart from the thread of the
 * first top-level backward root. */
static uint32_t main_thread(const struct rw *w)
{
	const struct optree *o = w->o;
	uint32_t m = OPT_NIL;
	for (size_t k = 0; k < o->nthreads; k++)
		if (o->threads[k].has_step)
			m = (uint32_t)k;
	if (m != OPT_NIL || o->nthreads <= 1)
		return m != OPT_NIL ? m : 0;
	uint32_t bwd = OPT_NIL;
	for (size_t k = 0; k < o->nthreads && bwd == OPT_NIL; k++) {
		uint32_t n;
		const uint32_t *c = kids(w, o->threads[k].root, &n);
		for (uint32_t i = 0; i < n && bwd == OPT_NIL; i++)
			if (bwd_name(w, c[i]))
				bwd = (uint32_t)k;
	}
	int64_t best = 0;
	for (size_t k = 0; k < o->nthreads; k++) {
		const struct optree_node *r = &o->nodes[o->threads[k].root];
		if (k == bwd)
			continue;
		if (m == OPT_NIL || r->end - r->start > best)
			m = (uint32_t)k, best = r->end - r->start;
	}
	return m == OPT_NIL ? 0 : m;
}

/* (parent, backward root) as the plugin's _get_modules meets them. */
struct meet {
	uint32_t parent, node, rank, seq;
};

static int by_rank(const void *a, const void *b)
{
	const struct meet *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* _get_modules: the Module nodes and the backward roots at the top of each
 * thread and of each ProfilerStep (preorder); the roots are taken out of
 * their parents and listed grouped by parent (parents in order of their
 * first root). 0, or -1 out of memory. */
static int take_roots(struct rw *w)
{
	struct optree *o = w->o;
	struct meet *m = NULL;
	size_t nm = 0, cap = 0;
	uint32_t *stack = malloc(((size_t)w->nreal + 1) * sizeof *stack);
	uint32_t *rank = malloc(((size_t)w->nreal + 1) * sizeof *rank);
	uint32_t nrank = 0;
	int rc = -1;
	if (!stack || !rank)
		goto out;
	for (uint32_t x = 0; x < w->nreal; x++)
		rank[x] = OPT_NIL;
	for (size_t k = 0; k < o->nthreads; k++) {
		size_t depth = 0;
		uint32_t root = o->threads[k].root, n;
		const uint32_t *c = kids(w, root, &n);
		for (uint32_t i = n; i-- > 0;)
			stack[depth++] = c[i], stack[depth++] = root;
		while (depth) {
			uint32_t parent = stack[--depth], x = stack[--depth];
			const struct optree_node *nd = &o->nodes[x];
			if (nd->cls == OPC_MODULE) {
				if (kv_push(&w->top, x))
					goto out;
			} else if (nd->cls == OPC_STEP) {
				c = kids(w, x, &n);
				for (uint32_t i = n; i-- > 0;)
					stack[depth++] = c[i], stack[depth++] = x;
			} else if (bwd_name(w, x)) {
				if (nm == cap) {
					cap = cap ? cap * 2 : 64;
					struct meet *q = realloc(m, cap * sizeof *q);
					if (!q)
						goto out;
					m = q;
				}
				if (rank[parent] == OPT_NIL)
					rank[parent] = nrank++;
				m[nm] = (struct meet){parent, x, rank[parent], (uint32_t)nm};
				nm++;
			}
		}
	}
	rc = 0;
	if (!w->top.n)
		goto out;
	o->bwd_removed = calloc((size_t)w->nreal + 1, 1);
	if (!o->bwd_removed) {
		rc = -1;
		goto out;
	}
	qsort(m, nm, sizeof *m, by_rank);
	for (size_t i = 0; i < nm; i++) {
		o->bwd_removed[m[i].node] = 1;
		if (kv_push(&w->flat, m[i].node)) {
			rc = -1;
			goto out;
		}
	}
	for (size_t i = 0; i < nm; i++) {
		uint32_t p = m[i].parent;
		if (w->own[p].v)
			continue;
		struct kv *k = kids_mut(w, p);
		if (!k) {
			rc = -1;
			goto out;
		}
		uint32_t j = 0;
		for (uint32_t a = 0; a < k->n; a++)
			if (!o->bwd_removed[k->v[a]])
				k->v[j++] = k->v[a];
		k->n = j;
	}
out:
	free(m);
	free(stack);
	free(rank);
	return rc;
}

/* _group_backward_nodes, then _get_node_parents and _get_backward_roots:
 * each flow's forward time to the group of its backward target. */
static int map_groups(struct rw *w)
{
	const struct optree *o = w->o;
	size_t nf = w->flat.n;
	w->grp_end = calloc(nf + 1, sizeof *w->grp_end);
	uint8_t *taken = calloc(nf + 1, 1);
	uint32_t *stack = malloc(((size_t)w->nreal + 1) * sizeof *stack);
	struct dmap parent = {0};
	int rc = -1;
	if (!w->grp_end || !taken || !stack || hmap_init(&parent.h, 64) ||
	    hmap_init(&w->fwdgrp.h, 64))
		goto out;
	uint32_t g = OPT_NIL;
	for (uint32_t i = 0; i < nf; i++) {
		uint32_t x = w->flat.v[i];
		if (g == OPT_NIL || !optree_name_is(w->t, o->nodes[x].name, acc_grad)) {
			g = i; /* the plugin fails on an AccumulateGrad first */
			w->grp_at[x] = i;
		}
		w->grp_end[g] = i + 1;
	}
	/* ts -> parent over the roots' subtrees, first seen kept (preorder) */
	for (uint32_t i = 0; i < nf; i++) {
		size_t depth = 0;
		stack[depth++] = w->flat.v[i];
		while (depth) {
			uint32_t x = stack[--depth], n;
			const uint32_t *c = kids(w, x, &n);
			for (uint32_t a = 0; a < n; a++)
				if (dmap_put(&parent, n_key(w, c[a]), x, false))
					goto out;
			for (uint32_t a = n; a-- > 0;)
				stack[depth++] = c[a];
		}
	}
	for (size_t i = 0; i < w->fwd.n; i++) {
		uint32_t p = dmap_get(&parent, w->bts[w->fwd.val[i]]);
		for (uint32_t steps = 0; p != OPT_NIL && !bwd_name(w, p); steps++)
			p = steps < w->nreal ? dmap_get(&parent, n_key(w, p)) : OPT_NIL;
		if (p == OPT_NIL)
			continue;
		uint32_t at = w->grp_at[p];
		if (at == OPT_NIL || taken[at])
			continue; /* the plugin raises KeyError */
		taken[at] = 1;
		if (dmap_put(&w->fwdgrp, w->fwd.key[i], at, true))
			goto out;
	}
	rc = 0;
out:
	free(taken);
	free(stack);
	dmap_free(&parent);
	return rc;
}

static uint32_t syn_new(struct rw *w, uint32_t module)
{
	if (w->nsyn == w->capsyn) {
		size_t cap = w->capsyn ? w->capsyn * 2 : 64;
		struct syn *q = realloc(w->syn, cap * sizeof *q);
		if (!q)
			return OPT_NIL;
		w->syn = q;
		w->capsyn = cap;
	}
	const struct optree_node *m = &w->o->nodes[module];
	w->syn[w->nsyn] = (struct syn){.start = m->start, .end = m->end};
	return w->nreal + (uint32_t)w->nsyn++;
}

/* Node ids sorted stably by (start, -end). */
struct by_time {
	int64_t start, end;
	uint32_t pos, id;
};

static int cmp_time(const void *a, const void *b)
{
	const struct by_time *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

static int sort_time(const struct rw *w, struct kv *k)
{
	if (k->n < 2)
		return 0;
	struct by_time *b = malloc((size_t)k->n * sizeof *b);
	if (!b)
		return -1;
	for (uint32_t i = 0; i < k->n; i++)
		b[i] = (struct by_time){n_start(w, k->v[i]), n_end(w, k->v[i]), i, k->v[i]};
	qsort(b, k->n, sizeof *b, cmp_time);
	for (uint32_t i = 0; i < k->n; i++)
		k->v[i] = b[i].id;
	free(b);
	return 0;
}

/* BackwardNode.fill_stats: children in (start, -end) order, the span from
 * the first to the last, Tensor Core eligible when a child is. */
static int syn_fill(struct rw *w, uint32_t x)
{
	struct syn *s = &w->syn[x - w->nreal];
	if (sort_time(w, &s->kids))
		return -1;
	s->start = n_start(w, s->kids.v[0]);
	s->end = n_end(w, s->kids.v[s->kids.n - 1]);
	for (uint32_t i = 0; i < s->kids.n; i++) {
		uint32_t c = s->kids.v[i];
		s->tc_eligible |= is_syn(w, c) ? w->syn[c - w->nreal].tc_eligible
					       : w->o->nodes[c].tc_eligible;
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
				    kv_push(f->parent == OPT_NIL ? &w->result
								 : &w->syn[f->parent - w->nreal].kids,
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
				struct kv *pk = &w->syn[f->parent - w->nreal].kids;
				for (uint32_t i = g; g != OPT_NIL && i < w->grp_end[g]; i++)
					if (kv_push(pk, w->flat.v[i]))
						return -1;
			}
			st[depth++] = (struct frame){ch, f->parent, 0, false};
			enter = true;
			continue;
		}
		if (f->module && w->syn[f->parent - w->nreal].kids.n && syn_fill(w, f->parent))
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
			} else if (depth < (size_t)w->nreal + w->nsyn) {
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
static int emit(struct rw *w, struct kv *out, struct kv *bottom)
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
			bool elig = is_syn(w, x) ? w->syn[x - w->nreal].tc_eligible
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

static void rw_free(struct rw *w)
{
	free(w->cfirst);
	free(w->csr);
	for (uint32_t x = 0; w->own && x < w->nreal; x++)
		free(w->own[x].v);
	free(w->own);
	for (size_t j = 0; j < w->nsyn; j++)
		free(w->syn[j].kids.v);
	free(w->syn);
	free(w->flat.v);
	free(w->grp_end);
	free(w->grp_at);
	free(w->top.v);
	dmap_free(&w->fwd);
	free(w->bts);
	dmap_free(&w->fwdgrp);
	free(w->result.v);
	free(w->on_path);
}

/* The steps after the roots are taken out; 0, -1 out of memory. */
static int rewrite(struct rw *w)
{
	struct optree *o = w->o;
	if (!w->flat.n)
		return 0; /* nothing taken out: the plugin keeps its tree */
	if (map_groups(w))
		return -1;
	o->bwd.roots = (uint32_t)w->flat.n;
	size_t most = (size_t)w->nreal + 1;
	struct frame *st = malloc(most * sizeof *st);
	uint32_t *stk = NULL, *stk_i = NULL;
	int rc = !st ? -1 : 0;
	for (size_t i = 0; i < w->top.n && !rc && w->fwdgrp.n; i++)
		rc = build_module(w, w->top.v[i], st);
	free(st);
	if (rc)
		return rc;
	most += w->nsyn;
	stk = malloc(most * sizeof *stk);
	stk_i = malloc(most * sizeof *stk_i);
	rc = !stk || !stk_i ? -1 : insert_modules(w, o->threads[w->main_thread].root, stk, stk_i);
	free(stk);
	free(stk_i);
	if (rc)
		return rc;
	struct kv out = {0}, bottom = {0};
	if (emit(w, &out, &bottom)) {
		free(out.v);
		free(bottom.v);
		return -1;
	}
	o->agg_own = out.v ? out.v : malloc(sizeof *o->agg_own);
	o->agg_bottom = (uint8_t *)malloc(bottom.n + 1);
	if (!o->agg_own || !o->agg_bottom) {
		free(bottom.v);
		return -1;
	}
	for (uint32_t i = 0; i < bottom.n; i++)
		o->agg_bottom[i] = (uint8_t)bottom.v[i];
	free(bottom.v);
	o->agg = o->agg_own;
	o->nagg = out.n;
	o->bwd.modules = (uint32_t)w->nsyn;
	return 0;
}

int optree_bwd_rewrite(struct optree *o)
{
	o->agg = o->post;
	o->nagg = o->npost;
	if (!o->opts.tb_compat || !o->t->flows.n || !o->nthreads)
		return 0;
	struct rw w = {.o = o, .t = o->t, .nreal = (uint32_t)o->nnodes};
	int rc = -1;
	if (fwd_pairs(&w))
		goto out;
	rc = 0;
	if (!w.fwd.n)
		goto out;
	rc = -1;
	if (csr_build(&w))
		goto out;
	w.main_thread = main_thread(&w);
	if (take_roots(&w))
		goto out;
	o->bwd_rewrite = o->bwd_removed != NULL;
	rc = o->bwd_rewrite ? rewrite(&w) : 0;
out:
	rw_free(&w);
	return rc;
}
