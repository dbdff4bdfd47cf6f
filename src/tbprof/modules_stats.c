/* modules_stats: the Module view's statistics per (name, module id), exact
 * or in the plugin's float64 µs, and its backward-module rewrite
 * (modules.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hmap.h"
#include "tbprof/modules_int.h"

/* ns as the double the plugin parses from the trace's µs text (three
 * decimals): the correctly rounded value of ns / 1000. */
static double tb_us(int64_t ns)
{
	char buf[40];
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	snprintf(buf, sizeof buf, "%s%" PRIu64 ".%03u", ns < 0 ? "-" : "", a / 1000,
		 (unsigned)(a % 1000));
	return strtod(buf, NULL);
}

/* The plugin's per-node floats: start, end (start + dur) and device time
 * (children's, then each own runtime's sum of its device end - start). */
struct fnode {
	double st, en, dv;
};

static double rt_device_us(const struct optree *o, const struct optree_rt *rt)
{
	size_t n;
	const uint32_t *dev = optree_rt_devices(o, rt, &n);
	double d = 0;
	for (size_t k = 0; k < n; k++) {
		double s = tb_us(o->t->ev.ts[dev[k]]);
		d += (s + tb_us(tr_dur(o->t, dev[k]))) - s;
	}
	return d;
}

static void fill_floats(const struct optree *o, struct fnode *f)
{
	for (size_t i = o->nnodes; i-- > 0;) {
		const struct optree_node *nd = &o->nodes[i];
		if (nd->dropped || nd->collapsed || nd->cls == OPC_ROOT)
			continue;
		f[i].st = tb_us(nd->start);
		f[i].en = f[i].st + tb_us(nd->end - nd->start);
		double dv = 0;
		for (uint32_t c = nd->first_child; c != OPT_NIL; c = o->nodes[c].next_sibling)
			dv += f[c].dv;
		for (uint32_t k = 0; k < nd->rt_count; k++)
			dv += rt_device_us(o, &o->rts[nd->rt_first + k]);
		f[i].dv = dv;
	}
}

/* Float statistics of Module node i (tb's fill_stats of a ModuleNode). */
static void module_floats(const struct optree *o, const struct fnode *f, uint32_t i, double *sh,
			  double *sd)
{
	const struct optree_node *nd = &o->nodes[i];
	const struct trace *t = o->t;
	double h = f[i].en - f[i].st, d = 0, ops = 0;
	for (uint32_t c = nd->first_child; c != OPT_NIL; c = o->nodes[c].next_sibling)
		h -= f[c].en - f[c].st;
	for (uint32_t k = 0; k < nd->rt_count; k++) {
		const struct optree_rt *rt = &o->rts[nd->rt_first + k];
		if (rt->row != TR_NONE) {
			double s = tb_us(t->ev.ts[rt->row]);
			h -= (s + tb_us(tr_dur(t, rt->row))) - s;
		}
		d += rt_device_us(o, rt);
	}
	for (uint32_t c = nd->first_child; c != OPT_NIL; c = o->nodes[c].next_sibling)
		if (o->nodes[c].is_op)
			ops += f[c].dv;
	*sh = h;
	*sd = d + ops;
}

/* One aggregate per (name, module id). */
struct agg {
	uint32_t name;
	int64_t module_id;
	uint64_t calls, ops;
	int64_t host, self_host, device, self_device;
	double host_us, self_host_us, device_us, self_device_us;
};

struct agg_key {
	const struct agg *a;
	uint32_t name;
	int64_t module_id;
};

static bool agg_eq(const void *ctx, uint32_t v)
{
	const struct agg_key *k = ctx;
	return k->a[v].name == k->name && k->a[v].module_id == k->module_id;
}

static uint64_t agg_hash(uint32_t name, int64_t module_id)
{
	return hmap_hash(((uint64_t)name << 32) ^ (uint64_t)module_id * 0x9E3779B97F4A7C15ull);
}

struct agg_set {
	struct agg *a;
	size_t n;
	struct hmap h;
};

static struct agg *agg_of(struct agg_set *s, uint32_t name, int64_t module_id)
{
	struct agg_key k = {s->a, name, module_id};
	uint32_t v;
	size_t slot = hmap_slot(&s->h, agg_hash(name, module_id), agg_eq, &k, &v);
	if (slot == SIZE_MAX)
		return NULL;
	if (v == HMAP_NONE) {
		v = (uint32_t)s->n++;
		s->a[v] = (struct agg){.name = name, .module_id = module_id};
		hmap_set(&s->h, slot, agg_hash(name, module_id), v);
	}
	return &s->a[v];
}

static void add_call(const struct optree *o, const struct fnode *f, uint32_t i, struct agg *a)
{
	const struct optree_node *nd = &o->nodes[i];
	a->calls++;
	for (uint32_t c = nd->first_child; c != OPT_NIL; c = o->nodes[c].next_sibling)
		a->ops += o->nodes[c].is_op;
	a->host += nd->end - nd->start;
	a->self_host += nd->self_host;
	a->device += nd->device;
	a->self_device += nd->self_device;
	if (!f)
		return;
	double sh, sd;
	module_floats(o, f, i, &sh, &sd);
	a->self_host_us += sh;
	a->host_us += f[i].en - f[i].st;
	a->self_device_us += sd;
	a->device_us += f[i].dv;
}

/* Pushes nd's children last first, so that they pop in order; the new
 * depth. */
static size_t push_children(const struct optree *o, const struct optree_node *nd, uint32_t *stack,
			    size_t depth)
{
	size_t base = depth;
	for (uint32_t c = nd->first_child; c != OPT_NIL; c = o->nodes[c].next_sibling)
		stack[depth++] = c;
	for (size_t a = base, b = depth; b > a + 1; a++, b--) {
		uint32_t x = stack[a];
		stack[a] = stack[b - 1];
		stack[b - 1] = x;
	}
	return depth;
}

/* The plugin's _get_node_list order: thread by thread, preorder below each
 * root, not entering the nodes in gone. */
static int aggregate(const struct optree *o, const struct fnode *f, const uint8_t *gone,
		     uint32_t *stack, struct agg_set *s, struct tbmodules *m)
{
	for (size_t k = 0; k < o->nthreads; k++) {
		size_t depth = 0;
		const struct optree_node *r = &o->nodes[o->threads[k].root];
		depth = push_children(o, r, stack, depth);
		while (depth) {
			uint32_t i = stack[--depth];
			const struct optree_node *nd = &o->nodes[i];
			if (gone[i]) {
				m->dropped_calls += nd->cls == OPC_MODULE;
				continue;
			}
			if (nd->cls == OPC_MODULE) {
				struct agg *a = agg_of(s, nd->name, tbmod_module_id(o->t, nd->row));
				if (!a)
					return -1;
				add_call(o, f, i, a);
			}
			depth = push_children(o, nd, stack, depth);
		}
	}
	return 0;
}

/* Module nodes the rewrite took out also count those below a gone node. */
static void count_gone(const struct optree *o, uint8_t *gone, struct tbmodules *m)
{
	m->dropped_calls = 0;
	for (size_t i = 0; i < o->nnodes; i++) {
		const struct optree_node *nd = &o->nodes[i];
		if (nd->cls == OPC_ROOT || nd->dropped || nd->collapsed)
			continue;
		if (nd->parent != OPT_NIL && gone[nd->parent])
			gone[i] = 1; /* preorder: parents come first */
		m->module_nodes += nd->cls == OPC_MODULE;
		m->dropped_calls += gone[i] && nd->cls == OPC_MODULE;
	}
}

static void fill_row(struct tbmod_row *r, const struct agg *a)
{
	r->calls = a->calls;
	r->operators = a->ops;
	r->host = a->host;
	r->self_host = a->self_host;
	r->device = a->device;
	r->self_device = a->self_device;
	r->host_us = a->host_us;
	r->self_host_us = a->self_host_us;
	r->device_us = a->device_us;
	r->self_device_us = a->self_device_us;
}

int tbmod_build(const struct optree *o, bool tb_compat, struct tbmodules *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	out->tb_compat = tb_compat;
	size_t nn = o->nnodes ? o->nnodes : 1;
	uint8_t *gone = calloc(nn, 1);
	uint32_t *stack = malloc(nn * sizeof *stack);
	struct fnode *f = tb_compat ? calloc(nn, sizeof *f) : NULL;
	struct agg_set s = {.a = malloc(nn * sizeof *s.a)};
	int rc = -1;
	if (!gone || !stack || !s.a || (tb_compat && !f) || hmap_init(&s.h, 64))
		goto out;
	if (tb_compat) {
		/* the roots the operator tree's backward rewrite took out */
		out->rewrite = o->bwd_removed != NULL;
		if (out->rewrite)
			memcpy(gone, o->bwd_removed, o->nnodes);
		fill_floats(o, f);
	}
	if (aggregate(o, f, gone, stack, &s, out))
		goto out;
	count_gone(o, gone, out);
	if (tbmod_hierarchy(o, out))
		goto out;
	for (size_t i = 0; i < out->n; i++) {
		struct tbmod_row *r = &out->rows[i];
		struct agg_key k = {s.a, r->name, r->module_id};
		uint32_t v = hmap_get(&s.h, agg_hash(r->name, r->module_id), agg_eq, &k);
		if (v != HMAP_NONE)
			fill_row(r, &s.a[v]);
	}
	rc = 0;
out:
	free(gone);
	free(stack);
	free(f);
	free(s.a);
	hmap_free(&s.h);
	if (rc)
		return err_set(e, ERR_NOMEM, o->t->path, -1,
			       "out of memory building the module view");
	return 0;
}

void tbmod_free(struct tbmodules *m)
{
	free(m->rows);
	m->rows = NULL;
	m->n = 0;
}
