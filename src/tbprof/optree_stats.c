/* optree_stats: the tree after nesting (see optree.h): each node's runtimes
 * in tb's order, tb's duplicate collapsing, its traversal order,
 * fill_stats and the Tensor Core ratio. */
#include <stdlib.h>

#include "core/radix.h"
#include "tbprof/optree_int.h"

/* A (node, runtime) when sorting a node's runtimes as tb's fill_stats does:
 * by (start, -end); runtimes at time 0 and `dummy` (no times) go last. */
struct rt_pair {
	uint32_t node, row;
	int64_t k1, k2;
};

static const struct rx_key by_rt_pair[] = {
    RX_KEY(struct rt_pair, node, RX_U32), RX_KEY(struct rt_pair, k1, RX_I64),
    RX_KEY(struct rt_pair, k2, RX_I64), RX_KEY(struct rt_pair, row, RX_U32)};

static struct rt_pair rt_pair_make(const struct optree *o, uint32_t node, uint32_t row)
{
	struct rt_pair p = {.node = node, .row = row, .k1 = INT64_MAX, .k2 = INT64_MIN};
	if (row != TR_NONE) {
		struct tb_span sp = tb_span(o->t, row, o->opts.tb_compat);
		if (sp.start && sp.end) {
			p.k1 = sp.start;
			p.k2 = -sp.end;
		}
	}
	return p;
}

/* Each node's runtimes as tb's fill_stats orders them (rt_pair). */
int optree_sort_runtimes(struct optree *o)
{
	size_t most = 0;
	for (size_t i = 0; i < o->nnodes; i++)
		most = o->nodes[i].rt_count > most ? o->nodes[i].rt_count : most;
	if (most < 2)
		return 0;
	struct rt_pair *tmp = malloc(most * sizeof *tmp);
	if (!tmp)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < o->nnodes && !rc; i++) {
		const struct optree_node *nd = &o->nodes[i];
		if (nd->rt_count < 2)
			continue;
		struct optree_rt *rt = o->rts + nd->rt_first;
		for (size_t j = 0; j < nd->rt_count; j++)
			tmp[j] = rt_pair_make(o, (uint32_t)i, rt[j].row);
		rc = rx_sort(tmp, nd->rt_count, sizeof *tmp, by_rt_pair, 4);
		for (size_t j = 0; j < nd->rt_count && !rc; j++)
			rt[j].row = tmp[j].row;
	}
	free(tmp);
	return rc;
}

/* tb's remove_dup_nodes: an Operator whose only child is an Operator of the
 * same name takes that child's children and runtimes, repeatedly. */
int optree_collapse_dups(struct optree *o)
{
	uint32_t *stack = malloc((o->nnodes ? o->nnodes : 1) * sizeof *stack);
	if (!stack)
		return -1;
	for (size_t k = 0; k < o->nthreads; k++) {
		size_t depth = 0;
		stack[depth++] = o->threads[k].root;
		while (depth) {
			struct optree_node *nd = &o->nodes[stack[--depth]];
			for (;;) {
				uint32_t c = nd->first_child;
				if (c == OPT_NIL || o->nodes[c].next_sibling != OPT_NIL)
					break; /* not an only child */
				struct optree_node *ch = &o->nodes[c];
				if (ch->name != nd->name || nd->type != OPT_OPERATOR ||
				    ch->type != OPT_OPERATOR || nd->cls == OPC_ROOT)
					break;
				ch->collapsed = true;
				nd->first_child = ch->first_child;
				nd->rt_first = ch->rt_first;
				nd->rt_count = ch->rt_count;
				for (uint32_t g = nd->first_child; g != OPT_NIL;
				     g = o->nodes[g].next_sibling)
					o->nodes[g].parent = (uint32_t)(nd - o->nodes);
			}
			for (uint32_t c = nd->first_child; c != OPT_NIL;
			     c = o->nodes[c].next_sibling)
				stack[depth++] = c;
		}
	}
	free(stack);
	return 0;
}

static bool is_operator(const struct optree *o, const struct optree_node *nd)
{
	const struct trace *t = o->t;
	return nd->cls == OPC_OP && nd->type == OPT_OPERATOR &&
	       !optree_name_is(t, nd->name, "DataParallel.forward") &&
	       !optree_name_is(t, nd->name, "DistributedDataParallel.forward") &&
	       !optree_has_prefix(t, nd->name, "Optimizer.");
}

/* tb's fill_stats. Within a thread a node's children have larger indices
 * (preorder), so walking indices downwards visits children first. */
void optree_fill_stats(struct optree *o)
{
	const struct trace *t = o->t;
	for (size_t i = o->nnodes; i-- > 0;) {
		struct optree_node *nd = &o->nodes[i];
		if (nd->dropped || nd->collapsed)
			continue;
		bool root = nd->cls == OPC_ROOT;
		nd->tc_eligible =
		    !root && tr_op_tc_eligible(tr_str(t, nd->name), strpool_len(&t->pool, nd->name),
					       o->opts.tb_compat);
		nd->is_op = is_operator(o, nd);
		if (root) {
			uint32_t f = nd->first_child, l = f;
			while (l != OPT_NIL && o->nodes[l].next_sibling != OPT_NIL)
				l = o->nodes[l].next_sibling;
			nd->start = f == OPT_NIL ? 0 : o->nodes[f].start;
			nd->end = l == OPT_NIL ? 0 : o->nodes[l].end;
		}
		bool op = nd->type == OPT_OPERATOR;
		int64_t self_host = nd->end - nd->start;
		for (uint32_t c = nd->first_child; c != OPT_NIL; c = o->nodes[c].next_sibling) {
			const struct optree_node *ch = &o->nodes[c];
			nd->device += ch->device;
			self_host -= ch->end - ch->start;
			nd->tc_total += ch->tc_total;
		}
		bool child_tc = false;
		for (uint32_t c = nd->first_child; c != OPT_NIL; c = o->nodes[c].next_sibling)
			child_tc |= o->nodes[c].tc_eligible;
		/* kernels are credited with the allow-list value (tb sets
		 * op_tc_eligible before it propagates eligibility) */
		for (uint32_t k = 0; k < nd->rt_count; k++) {
			struct optree_rt *rt = &o->rts[nd->rt_first + k];
			size_t nd_dev;
			const uint32_t *dev = optree_rt_devices(o, rt, &nd_dev);
			rt->device = rt->tc = 0;
			for (size_t d = 0; d < nd_dev; d++) {
				int64_t dur = tb_dur(t, dev[d], o->opts.tb_compat);
				rt->device += dur;
				if (optree_tc_kernel(o, t->ev.name[dev[d]]))
					rt->tc += dur;
				o->dev_node[dev[d]] = (uint32_t)i;
			}
			if (rt->row != TR_NONE)
				self_host -= tb_dur(t, rt->row, o->opts.tb_compat);
			nd->device += rt->device;
			nd->self_device += rt->device;
			nd->tc_self += rt->tc;
			nd->tc_total += rt->tc;
			child_tc |= rt->tc > 0;
		}
		if (op && child_tc)
			nd->tc_eligible = true;
		if (nd->cls == OPC_MODULE || nd->cls == OPC_PL_MODULE)
			for (uint32_t c = nd->first_child; c != OPT_NIL;
			     c = o->nodes[c].next_sibling)
				if (is_operator(o, &o->nodes[c]))
					nd->self_device += o->nodes[c].device;
		nd->self_host = root ? 0 : self_host;
	}
}

/* A runtime's device time in tb's floats: its GPU rows' float durations
 * added in (start, -end) order (RuntimeNode.fill_stats). */
static double tb_rt_device(const struct optree *o, const struct optree_rt *rt)
{
	size_t n;
	const uint32_t *dev = optree_rt_devices(o, rt, &n);
	double d = 0;
	for (size_t k = 0; k < n; k++)
		d += tb_fdur(o->t, dev[k]);
	return d;
}

struct optree_tbd *optree_tb_device(const struct optree *o)
{
	struct optree_tbd *dev = calloc(o->nnodes ? o->nnodes : 1, sizeof *dev);
	if (!dev)
		return NULL;
	/* children have larger indices within a thread: downwards is children first */
	for (size_t i = o->nnodes; i-- > 0;) {
		const struct optree_node *nd = &o->nodes[i];
		if (nd->dropped || nd->collapsed)
			continue;
		double d = 0, self = 0;
		for (uint32_t c = nd->first_child; c != OPT_NIL; c = o->nodes[c].next_sibling)
			d += dev[c].device;
		for (uint32_t k = 0; k < nd->rt_count; k++) {
			double r = tb_rt_device(o, &o->rts[nd->rt_first + k]);
			d += r;
			self += r;
		}
		dev[i] = (struct optree_tbd){d, self};
	}
	return dev;
}

struct optree_tbf optree_tb_times(const struct optree *o, const struct optree_tbd *dev,
				  uint32_t node)
{
	const struct optree_node *nd = &o->nodes[node];
	const struct trace *t = o->t;
	struct optree_tbf f = {.device = dev[node].device, .self_device = dev[node].self_device};
	f.host = nd->row == TR_NONE ? 0 : tb_fdur(t, nd->row);
	f.self_host = f.host;
	for (uint32_t c = nd->first_child; c != OPT_NIL; c = o->nodes[c].next_sibling)
		f.self_host -= tb_fdur(t, o->nodes[c].row);
	for (uint32_t k = 0; k < nd->rt_count; k++) {
		const struct optree_rt *rt = &o->rts[nd->rt_first + k];
		if (rt->row != TR_NONE)
			f.self_host -= tb_fdur(t, rt->row);
	}
	return f;
}

/* tb's get_operator_and_kernels order: children left to right, then self. */
int optree_post_order(struct optree *o)
{
	o->post = malloc((o->nnodes ? o->nnodes : 1) * sizeof *o->post);
	uint32_t *stack = malloc((o->nnodes ? o->nnodes : 1) * sizeof *stack);
	uint32_t *next = malloc((o->nnodes ? o->nnodes : 1) * sizeof *next);
	if (!o->post || !stack || !next) {
		free(stack);
		free(next);
		return -1;
	}
	for (size_t k = 0; k < o->nthreads; k++) {
		size_t depth = 0;
		uint32_t r = o->threads[k].root;
		stack[depth++] = r;
		next[r] = o->nodes[r].first_child;
		while (depth) {
			uint32_t top = stack[depth - 1];
			uint32_t c = next[top];
			if (c == OPT_NIL) {
				o->post[o->npost++] = top;
				depth--;
				continue;
			}
			next[top] = o->nodes[c].next_sibling;
			next[c] = o->nodes[c].first_child;
			stack[depth++] = c;
		}
	}
	free(stack);
	free(next);
	return 0;
}

/* Kernel time of node nd's own runtimes (tb skips CallTreeRoot's dummy). */
static inline int64_t own_kernel_time(const struct optree *o, const struct optree_node *nd)
{
	const struct trace *t = o->t;
	int64_t k = 0;
	for (uint32_t j = 0; j < nd->rt_count; j++) {
		const struct optree_rt *rt = &o->rts[nd->rt_first + j];
		if (nd->cls == OPC_ROOT && rt->row == TR_NONE)
			continue;
		size_t nd_dev;
		const uint32_t *dev = optree_rt_devices(o, rt, &nd_dev);
		for (size_t d = 0; d < nd_dev; d++)
			if (t->ev.kind[dev[d]] == TR_KERNEL)
				k += tb_dur(t, dev[d], o->opts.tb_compat);
	}
	return k;
}

double optree_tc_eligible_ratio(const struct optree *o)
{
	int64_t bottom = 0, all = 0;
	if (o->agg_bottom) { /* the rewritten tree (optree_bwd.c) */
		for (size_t i = 0; i < o->nagg; i++) {
			const struct optree_node *nd = &o->nodes[o->agg[i]];
			if (!o->agg_bottom[i] && !nd->is_op)
				continue;
			int64_t k = own_kernel_time(o, nd);
			bottom += o->agg_bottom[i] ? k : 0;
			all += nd->is_op ? k : 0;
		}
		return all > 0 ? (double)bottom / (double)all : 0.0;
	}
	/* below[i]: an eligible node exists under i (post order: children first) */
	uint8_t *below = calloc(o->nnodes ? o->nnodes : 1, 1);
	if (!below)
		return 0;
	for (size_t i = 0; i < o->npost; i++) {
		uint32_t id = o->post[i];
		const struct optree_node *nd = &o->nodes[id];
		for (uint32_t c = nd->first_child; c != OPT_NIL; c = o->nodes[c].next_sibling)
			below[id] |= below[c] | o->nodes[c].tc_eligible;
		bool is_bottom = nd->tc_eligible && !below[id];
		if (!is_bottom && !nd->is_op)
			continue;
		int64_t k = own_kernel_time(o, nd);
		if (is_bottom)
			bottom += k;
		if (nd->is_op)
			all += k;
	}
	free(below);
	return all > 0 ? (double)bottom / (double)all : 0.0;
}

/* 1 no TC, 2 TC, 3 TC whose name spells a 32/64-bit input (outside
 * tb_compat only). */
static uint8_t tc_classify(const struct optree *o, uint32_t name)
{
	const struct trace *t = o->t;
	const char *s = tr_str(t, name);
	size_t len = strpool_len(&t->pool, name);
	if (!tr_kernel_uses_tc(s, len, o->opts.tb_compat))
		return 1;
	return !o->opts.tb_compat && tr_matrix_precision(s, len) == TR_MX_FULL ? 3 : 2;
}

void optree_tc_fill(struct optree *o)
{
	const struct trace *t = o->t;
	for (size_t r = 0; r < t->ev.n; r++) {
		uint32_t name = t->ev.name[r];
		if (tr_is_device(t->ev.kind[r]) && !o->tc_name[name])
			o->tc_name[name] = tc_classify(o, name);
	}
}

bool optree_tc_kernel(const struct optree *o, uint32_t name)
{
	uint8_t v = o->tc_name[name];
	return (v ? v : tc_classify(o, name)) >= 2;
}

bool optree_tc_full_precision(const struct optree *o, uint32_t name)
{
	uint8_t v = o->tc_name[name];
	return (v ? v : tc_classify(o, name)) == 3;
}
