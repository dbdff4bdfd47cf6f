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
#include "core/radix.h"
#include "tbprof/optree_bwd_int.h"

static const char acc_grad[] =
    "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad";

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
	return c->m->v[v].key == c->k;
}

uint32_t dmap_get(const struct dmap *m, double k)
{
	struct dctx c = {m, k};
	uint32_t i = hmap_get(&m->h, dkey(k), d_eq, &c);
	return i == HMAP_NONE ? OPT_NIL : m->v[i].val;
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
			m->v[i].val = v;
		return 0;
	}
	struct dent *d = vec_add(*m, BWD_MAX);
	if (!d)
		return -1;
	*d = (struct dent){k, v};
	hmap_set(&m->h, slot, dkey(k), (uint32_t)(m->n - 1));
	return 0;
}

static void dmap_free(struct dmap *m)
{
	hmap_free(&m->h);
	free(m->v);
}
/* x's children, to be changed; NULL out of memory. */
struct kv *kids_mut(struct rw *w, uint32_t x)
{
	if (is_syn(w, x))
		return &w->syn.v[x - w->nreal].kids;
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
		uint32_t f =
		    hmap_get(&fid, hmap_int(id == INT64_MIN ? INT64_MIN + 1 : id), NULL, NULL);
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
	uint32_t parent, node, rank;
};

/* Stable: roots of one parent keep the order met. */
static const struct rx_key by_rank[] = {RX_KEY(struct meet, rank, RX_U32)};

/* _get_modules: the Module nodes and the backward roots at the top of each
 * thread and of each ProfilerStep (preorder); the roots are taken out of
 * their parents and listed grouped by parent (parents in order of their
 * first root). 0, or -1 out of memory. */
static int take_roots(struct rw *w)
{
	struct optree *o = w->o;
	VEC(struct meet) m = {0};
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
				struct meet *e = vec_add(m, BWD_MAX);
				if (!e)
					goto out;
				if (rank[parent] == OPT_NIL)
					rank[parent] = nrank++;
				*e = (struct meet){parent, x, rank[parent]};
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
	if (rx_sort(m.v, m.n, sizeof *m.v, by_rank, 1)) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < m.n; i++) {
		o->bwd_removed[m.v[i].node] = 1;
		if (kv_push(&w->flat, m.v[i].node)) {
			rc = -1;
			goto out;
		}
	}
	for (size_t i = 0; i < m.n; i++) {
		uint32_t p = m.v[i].parent;
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
	free(m.v);
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
		uint32_t p = dmap_get(&parent, w->bts[w->fwd.v[i].val]);
		for (uint32_t steps = 0; p != OPT_NIL && !bwd_name(w, p); steps++)
			p = steps < w->nreal ? dmap_get(&parent, n_key(w, p)) : OPT_NIL;
		if (p == OPT_NIL)
			continue;
		uint32_t at = w->grp_at[p];
		if (at == OPT_NIL || taken[at])
			continue; /* the plugin raises KeyError */
		taken[at] = 1;
		if (dmap_put(&w->fwdgrp, w->fwd.v[i].key, at, true))
			goto out;
	}
	rc = 0;
out:
	free(taken);
	free(stack);
	dmap_free(&parent);
	return rc;
}

static void rw_free(struct rw *w)
{
	free(w->cfirst);
	free(w->csr);
	for (uint32_t x = 0; w->own && x < w->nreal; x++)
		free(w->own[x].v);
	free(w->own);
	for (size_t j = 0; j < w->syn.n; j++)
		free(w->syn.v[j].kids.v);
	free(w->syn.v);
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
	if (!w->flat.n)
		return 0; /* nothing taken out: the plugin keeps its tree */
	if (map_groups(w))
		return -1;
	w->o->bwd.roots = (uint32_t)w->flat.n;
	return bwd_build_insert(w) || bwd_emit(w) ? -1 : 0;
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
