/* optree: building torch-tb-profiler's operator tree; see optree.h.
 *
 * The order of every step follows tb (event_parser.py, op_tree.py, node.py)
 * because the order decides results: which node takes a runtime (the first
 * with its external id, threads in order of their first host event), which
 * events nest (sort by start then longer first, partial overlaps dropped),
 * and which node a kernel is credited to.
 */
#include "core/cmp.h"
#include "core/radix.h"
#include "core/vec.h"
#include "core/sort.h"
#include "tbprof/optree.h"

#include <stdlib.h>
#include <string.h>

#include "tbprof/optree_int.h"
#include "core/hmap.h"

static int nomem(const struct trace *t, struct err *e)
{
	return err_set(e, ERR_NOMEM, t->path, -1, "out of memory building the operator tree");
}

bool optree_row_used(const struct trace *t, bool tb_compat, size_t r)
{
	uint8_t ph = t->ev.ph[r];
	if (ph == 'X')
		return true;
	return !tb_compat && ph == 'B' && !(t->ev.flags[r] & TRF_UNMATCHED);
}

bool optree_uses_row(const struct optree *o, size_t r)
{
	return optree_row_used(o->t, o->opts.tb_compat, r);
}

bool optree_is_runtime(const struct optree *o, size_t r)
{
	uint8_t k = o->t->ev.kind[r];
	return (k == TR_RUNTIME || (k == TR_DRIVER && !o->opts.tb_compat)) && optree_uses_row(o, r);
}

const char *optree_name(const struct optree *o, uint32_t node)
{
	const struct optree_node *n = &o->nodes[node];
	return n->cls == OPC_ROOT ? "CallTreeRoot" : tr_str(o->t, n->name);
}

const uint32_t *optree_rt_devices(const struct optree *o, const struct optree_rt *rt, size_t *n)
{
	if (rt->row == TR_NONE) {
		*n = o->nstale;
		return o->stale;
	}
	return tr_links_devices(&o->links, rt->row, n);
}

/* tb's node class and type for event row r; false when r is no host node. */
static bool host_class(const struct optree *o, size_t r, uint8_t *cls, uint8_t *type)
{
	const struct trace *t = o->t;
	uint8_t kind = t->ev.kind[r];
	unsigned f = t->ev.flags[r];
	uint32_t name = t->ev.name[r];
	if (!optree_uses_row(o, r))
		return false;
	switch (kind) {
	case TR_CPU_OP:
		*type = OPT_OPERATOR;
		if (o->lightning && optree_has_prefix(t, name, "[pl][profile]"))
			return false;
		if (o->lightning && !(f & TRF_STEP) && optree_has_prefix(t, name, "[pl][module]")) {
			*cls = OPC_PL_MODULE;
			*type = OPT_MODULE;
			return true;
		}
		break;
	case TR_PYTHON:
		*type = OPT_PYTHON;
		f = tr_name_flags(TR_CPU_OP, tr_str(t, name), strpool_len(&t->pool, name)) &
		    ~TRF_STEP;
		break;
	case TR_GPU_USER_ANNOTATION:
		/* tb maps gpu_user_annotation to user_annotation */
		if (!o->opts.tb_compat)
			return false;
		/* fall through */
	case TR_USER_ANNOTATION:
		*type = OPT_ANNOTATION;
		if (!(f & (TRF_STEP | TRF_DATALOADER | TRF_OPTIMIZER)) &&
		    !tr_tb_collective(tr_str(t, name), strpool_len(&t->pool, name)))
			return false;
		break;
	case TR_PYTHON_FUNCTION:
		if (!(f & TRF_MODULE) || (o->lightning && o->opts.tb_compat))
			return false;
		*cls = OPC_MODULE;
		*type = OPT_MODULE;
		return true;
	default:
		return false;
	}
	if (f & TRF_STEP) {
		*cls = OPC_STEP;
		*type = OPT_STEP;
	} else if (f & TRF_DATALOADER) {
		*cls = OPC_DATALOADER;
	} else if (f & TRF_OPTIMIZER) {
		*cls = OPC_OPTIMIZER;
	} else {
		*cls = OPC_OP;
	}
	return true;
}

/* A host event waiting to become a node. */
/* 24 bytes (one per host event: the build's largest passing array); the
 * node's class and type are host_class's of its row, asked again when the
 * node is made. */
struct cand {
	int64_t start, end;
	uint32_t row;
	uint32_t pos; /* index in tb's per-thread list (start order) */
};

/* Candidates by (start, row). */
static const struct rx_key by_start_row[] = {RX_KEY(struct cand, start, RX_I64),
					     RX_KEY(struct cand, row, RX_U32)};

/* tb's nesting order: start, longer first, then list order (stable sort). */
static const struct rx_key by_nest[] = {RX_KEY(struct cand, start, RX_I64),
					RX_KEY_DESC(struct cand, end, RX_I64),
					RX_KEY(struct cand, pos, RX_U32)};

/* Rows ordered by (start, -end, row): device lists and stale kernels. */
struct timed_row {
	int64_t start, end;
	uint32_t row;
};

static const struct rx_key by_timed[] = {RX_KEY(struct timed_row, start, RX_I64),
					 RX_KEY_DESC(struct timed_row, end, RX_I64),
					 RX_KEY(struct timed_row, row, RX_U32)};

/* Sorts rows[0..n) by (start, -end, row); tmp holds n entries. 0, or -1
 * out of memory. */
static int sort_by_time(const struct optree *o, uint32_t *rows, size_t n, struct timed_row *tmp)
{
	if (n < 2)
		return 0;
	for (size_t i = 0; i < n; i++) {
		struct tb_span sp = tb_span(o->t, rows[i], o->opts.tb_compat);
		tmp[i] = (struct timed_row){sp.start, sp.end, rows[i]};
	}
	if (rx_sort(tmp, n, sizeof *tmp, by_timed, 3))
		return -1;
	for (size_t i = 0; i < n; i++)
		rows[i] = tmp[i].row;
	return 0;
}

/* ---- threads: tb keys them by tid alone, in order of first host event */

struct tid_key {
	const struct optree *o;
	const struct tr_id *id;
};

static uint64_t tid_hash(const struct tr_id *id)
{
	return hmap_hash(id->is_str ? ((uint64_t)id->str << 1 | 1) ^ 0x9e3779b97f4a7c15ull
				    : (uint64_t)id->num << 1);
}

static bool tid_eq(const void *ctx, uint32_t v)
{
	const struct tid_key *k = ctx;
	return tr_id_eq(&k->o->threads[v].tid, k->id);
}

/* External id -> the first node (in tb's list order) having it. Dense ids
 * (the profiler counts them up from 0 or 1) index an array, 4 bytes an id;
 * other ids a hash map. INT64_MIN is a module's outside tb_compat. */
struct ext_index {
	uint32_t *first; /* dense: first[ext + 1] for ext in [-1, max] */
	int64_t max;
	uint32_t min_node; /* dense: the first node of INT64_MIN */
	struct hmap map;   /* sparse: hash of the id -> node */
};

struct build {
	struct optree *o;
	const struct trace *t;
	struct hmap tids;	/* tid -> thread */
	uint32_t *track_thread; /* track -> thread, OPT_NIL unknown */
	struct cand *c;		/* host events, then tb's per-thread lists */
	size_t nc;
	size_t *at;	       /* thread k's host events start at c + at[k] (number_threads) */
	uint32_t *node_of_pos; /* index in c -> node */
	struct ext_index ext;  /* external id -> first node having it */
	size_t cap_threads;
};

/* Thread of event row r, created when create is set; OPT_NIL if none,
 * OPT_NIL - 1 when out of memory. */
static uint32_t thread_of(struct build *b, size_t r, bool create)
{
	struct optree *o = b->o;
	uint32_t tk = b->t->ev.track[r];
	if (b->track_thread[tk] != OPT_NIL)
		return b->track_thread[tk];
	const struct tr_id *id = &b->t->tracks.v[tk].tid;
	struct tid_key key = {o, id};
	uint64_t h = tid_hash(id);
	uint32_t th = hmap_get(&b->tids, h, tid_eq, &key);
	if (th == OPT_NIL && create) {
		if (o->nthreads == b->cap_threads) {
			size_t cap = b->cap_threads ? b->cap_threads * 2 : 8;
			struct optree_thread *nt = realloc(o->threads, cap * sizeof *nt);
			if (!nt)
				return OPT_NIL - 1;
			o->threads = nt;
			b->cap_threads = cap;
		}
		th = (uint32_t)o->nthreads++;
		o->threads[th] = (struct optree_thread){.tid = *id, .root = OPT_NIL};
		if (hmap_put(&b->tids, h, th))
			return OPT_NIL - 1;
	}
	if (th != OPT_NIL)
		b->track_thread[tk] = th;
	return th;
}

/* A track's first host event by (start, row), and its host events. */
struct track_first {
	int64_t start;
	uint32_t row, track;
	size_t n;
};
static const struct rx_key by_first[] = {RX_KEY(struct track_first, start, RX_I64),
					 RX_KEY(struct track_first, row, RX_U32)};

/* The threads, numbered in order of their first host event by (start,
 * row) (tb's thread order): each track's first event, the tracks in that
 * order. Counts the host events (b->nc) and where each thread's start in
 * collect_hosts' array (b->at). */
static int number_threads(struct build *b)
{
	const struct trace *t = b->t;
	size_t ntk = t->tracks.n, nf = 0;
	struct track_first *f = malloc((ntk ? ntk : 1) * sizeof *f);
	if (!f)
		return -1;
	for (size_t k = 0; k < ntk; k++)
		f[k] = (struct track_first){.row = TR_NONE, .track = (uint32_t)k};
	uint8_t cls, type;
	b->nc = 0;
	for (size_t r = 0; r < t->ev.n; r++) {
		if (!host_class(b->o, r, &cls, &type))
			continue;
		b->nc++;
		struct track_first *x = &f[t->ev.track[r]];
		int64_t start = tb_span(t, r, b->o->opts.tb_compat).start;
		if (x->row == TR_NONE || start < x->start)
			*x = (struct track_first){start, (uint32_t)r, x->track, x->n};
		x->n++;
	}
	for (size_t k = 0; k < ntk; k++)
		if (f[k].row != TR_NONE)
			f[nf++] = f[k];
	int rc = rx_sort(f, nf, sizeof *f, by_first, 2);
	for (size_t k = 0; k < nf && !rc; k++)
		if (thread_of(b, f[k].row, true) == OPT_NIL - 1)
			rc = -1;
	const size_t nth = b->o->nthreads;
	if (!rc && !(b->at = calloc(nth + 1, sizeof *b->at)))
		rc = -1;
	for (size_t k = 0; k < nf && !rc; k++)
		b->at[b->track_thread[f[k].track] + 1] += f[k].n;
	for (size_t k = 0; k < nth && !rc; k++)
		b->at[k + 1] += b->at[k];
	free(f);
	return rc;
}

/* Host events in tb's order: by start (stable), then grouped by thread in
 * order of each thread's first event. Grouped first (rows in order), then
 * each thread's sorted: one array of them, not a sorted copy besides. */
static int collect_hosts(struct build *b)
{
	const struct trace *t = b->t;
	struct optree *o = b->o;
	size_t n = t->ev.n, *at = b->at;
	uint8_t cls, type;
	struct cand *l = malloc((b->nc ? b->nc : 1) * sizeof *l);
	if (!l)
		return -1;
	for (size_t k = 0; k < o->nthreads; k++) {
		/* node slice of thread k: its root, then its events */
		o->threads[k].first = (uint32_t)(at[k] + k);
		o->threads[k].end = (uint32_t)(at[k + 1] + k + 1);
		o->threads[k].root = o->threads[k].first;
	}
	for (size_t r = 0; r < n; r++) {
		if (!host_class(o, r, &cls, &type))
			continue;
		uint32_t th = b->track_thread[t->ev.track[r]];
		struct tb_span sp = tb_span(t, r, o->opts.tb_compat);
		l[at[th]++] = (struct cand){.start = sp.start, .end = sp.end, .row = (uint32_t)r};
	}
	free(at);
	b->at = NULL;
	int rc = 0;
	for (size_t k = 0; k < o->nthreads && !rc; k++) {
		size_t first = o->threads[k].first - k,
		       cn = o->threads[k].end - o->threads[k].first - 1;
		rc = rx_sort(l + first, cn, sizeof *l, by_start_row, 2);
		for (size_t p = first; p < first + cn; p++)
			l[p].pos = (uint32_t)p;
	}
	if (rc) {
		free(l);
		return -1;
	}
	b->c = l;
	return 0;
}

static void node_init(struct optree_node *nd)
{
	*nd = (struct optree_node){
	    .row = TR_NONE, .parent = OPT_NIL, .first_child = OPT_NIL, .next_sibling = OPT_NIL};
}

/* A node open for children while the nesting is built, and the last child
 * it has (children come in preorder, appended). */
struct open_node {
	uint32_t node, last;
};

static void add_child(struct optree_node *nodes, struct open_node *parent, uint32_t child)
{
	nodes[child].parent = parent->node;
	if (parent->last == OPT_NIL)
		nodes[parent->node].first_child = child;
	else
		nodes[parent->last].next_sibling = child;
	parent->last = child;
}

/* Nodes of every thread and their nesting (tb's build_tree_relationship). */
static int build_nodes(struct build *b)
{
	struct optree *o = b->o;
	const struct trace *t = b->t;
	b->node_of_pos = malloc((b->nc ? b->nc : 1) * sizeof *b->node_of_pos);
	VEC(struct open_node) stack = {0}; /* as deep as the nesting */
	if (!o->nodes || !b->node_of_pos || vec_reserve(stack, 1, b->nc + 1))
		return -1;
	for (size_t k = 0; k < o->nthreads; k++) {
		struct optree_thread *th = &o->threads[k];
		size_t cfirst = th->first - k, cn = th->end - th->first - 1;
		/* in place: afterwards only node_of_pos keeps tb's list order */
		struct cand *s = b->c + cfirst;
		if (rx_sort(s, cn, sizeof *s, by_nest, 3)) {
			vec_free(stack);
			return -1;
		}
		struct optree_node *root = &o->nodes[th->root];
		node_init(root);
		root->cls = OPC_ROOT;
		root->type = OPT_PYTHON;
		root->start = INT64_MIN;
		root->end = INT64_MAX;
		stack.n = 0;
		stack.v[stack.n++] = (struct open_node){th->root, OPT_NIL};
		for (size_t j = 0; j < cn; j++) {
			uint32_t id = th->root + 1 + (uint32_t)j;
			struct optree_node *nd = &o->nodes[id];
			node_init(nd);
			nd->row = s[j].row;
			nd->name = t->ev.name[s[j].row];
			nd->start = s[j].start;
			nd->end = s[j].end;
			uint8_t cls = 0, type = 0;
			host_class(o, s[j].row, &cls, &type); /* true: it was collected */
			nd->cls = cls;
			nd->type = type;
			b->node_of_pos[s[j].pos] = id;
			if (nd->cls == OPC_STEP || optree_has_prefix(t, nd->name, "ProfilerStep#"))
				th->has_step = true;
			while (!(nd->start < o->nodes[stack.v[stack.n - 1].node].end))
				stack.n--; /* the root (end = +inf) is never popped */
			if (nd->end <= o->nodes[stack.v[stack.n - 1].node].end) {
				add_child(o->nodes, &stack.v[stack.n - 1], id);
				if (vec_push(stack, ((struct open_node){id, OPT_NIL}), b->nc + 1)) {
					vec_free(stack);
					return -1;
				}
			} else {
				nd->dropped = true; /* tb: "ranges ... should not intersect" */
				o->dropped++;
			}
		}
	}
	vec_free(stack);
	free(b->c); /* the nodes hold all of it now */
	b->c = NULL;
	return 0;
}

/* External id a node matches runtimes by: Module nodes have none (tb
 * removes it), and a missing id (-1) matches runtimes missing one, as
 * None == None does in tb, so under tb_compat the first Module node takes
 * every runtime without an external id (its host self time can go
 * negative). Outside tb_compat a Module node takes none (INT64_MIN is no
 * runtime's id). */
static int64_t node_ext(const struct optree *o, uint32_t id)
{
	const struct optree_node *nd = &o->nodes[id];
	if (nd->cls == OPC_MODULE)
		return o->opts.tb_compat ? -1 : INT64_MIN;
	return tr_ext_id(o->t, nd->row);
}

struct ext_key {
	const struct optree *o;
	int64_t ext;
};

static bool ext_eq(const void *ctx, uint32_t v)
{
	const struct ext_key *k = ctx;
	return node_ext(k->o, v) == k->ext;
}

/* The thread whose root takes external-id-0 runtime r, or OPT_NIL. tb keys
 * its host nodes by int(tid) but these runtimes by the tid as written: a
 * runtime with a string tid ("7") meets no thread (its kernels leave the
 * kernel+op table), a numeric one meets the thread whose tid is that number
 * or a string of it. Outside tb_compat: the runtime's own thread. */
static uint32_t zero_rt_thread(struct build *b, size_t r)
{
	uint32_t th = thread_of(b, r, false);
	if (!b->o->opts.tb_compat)
		return th;
	const struct trace *t = b->t;
	const struct tr_id *id = &t->tracks.v[t->ev.track[r]].tid;
	if (id->is_str)
		return OPT_NIL;
	for (size_t k = 0; th == OPT_NIL && k < b->o->nthreads; k++) {
		const struct tr_id *h = &b->o->threads[k].tid;
		char *end;
		const char *s = h->is_str ? tr_str(t, h->str) : NULL;
		if (s && *s && strtoll(s, &end, 10) == id->num && !*end)
			th = (uint32_t)k;
	}
	return th;
}

static uint32_t ext_get(const struct ext_index *x, const struct optree *o, int64_t ext)
{
	if (!x->first) {
		struct ext_key k = {o, ext};
		return hmap_get(&x->map, hmap_hash((uint64_t)ext), ext_eq, &k);
	}
	if (ext == INT64_MIN)
		return x->min_node;
	return ext < -1 || ext > x->max ? OPT_NIL : x->first[ext + 1];
}

/* The index of the nodes' external ids: the first node in list order
 * (node_of_pos) keeps an id. */
static int ext_build(struct build *b, struct ext_index *x)
{
	const struct optree *o = b->o;
	const int64_t dense = (int64_t)(4 * b->nc + 1024);
	*x = (struct ext_index){.max = -1, .min_node = OPT_NIL};
	bool sparse = false;
	for (size_t p = 0; p < b->nc && !sparse; p++) {
		int64_t e = node_ext(o, b->node_of_pos[p]);
		if (e != INT64_MIN && (e < -1 || e > dense))
			sparse = true;
		else if (e > x->max)
			x->max = e;
	}
	if (!sparse) {
		if (!(x->first = malloc((size_t)(x->max + 2) * sizeof *x->first)))
			return -1;
		for (int64_t i = 0; i < x->max + 2; i++)
			x->first[i] = OPT_NIL;
		for (size_t p = 0; p < b->nc; p++) {
			uint32_t id = b->node_of_pos[p];
			int64_t e = node_ext(o, id);
			uint32_t *slot = e == INT64_MIN ? &x->min_node : &x->first[e + 1];
			if (*slot == OPT_NIL)
				*slot = id;
		}
		return 0;
	}
	x->max = -1;
	if (hmap_init(&x->map, b->nc))
		return -1;
	for (size_t p = 0; p < b->nc; p++) {
		uint32_t id = b->node_of_pos[p];
		struct ext_key k = {o, node_ext(o, id)};
		uint64_t h = hmap_hash((uint64_t)k.ext);
		if (hmap_get(&x->map, h, ext_eq, &k) == OPT_NIL && hmap_put(&x->map, h, id))
			return -1;
	}
	return 0;
}

static void ext_free(struct ext_index *x)
{
	free(x->first);
	hmap_free(&x->map);
	*x = (struct ext_index){0};
}

/* The nodes runtime row r goes onto (attach_runtimes): its external id's
 * node and, for external id 0, its thread's root; OPT_NIL where none. */
static void rt_owners(struct build *b, size_t r, uint32_t own[2])
{
	int64_t ext = tr_ext_id(b->t, r);
	own[0] = ext_get(&b->ext, b->o, ext);
	own[1] = OPT_NIL;
	if (ext == 0) {
		uint32_t th = zero_rt_thread(b, r);
		if (th != OPT_NIL)
			own[1] = b->o->threads[th].root;
	}
}

/* Node id's next runtime is row: counted (rt_count), and when fill, put
 * in its place in o->rts (from rt_first). */
static void rt_put(struct optree *o, uint32_t id, uint32_t row, bool fill)
{
	struct optree_node *nd = &o->nodes[id];
	if (fill)
		o->rts[nd->rt_first + nd->rt_count] = (struct optree_rt){.row = row};
	nd->rt_count++;
}

/* Runtimes onto nodes (tb: for each node in thread then list order, take
 * every runtime with its external id), external-id-0 runtimes also onto
 * their thread's root, and the stale kernels' dummy runtime onto the root
 * of every thread holding a ProfilerStep. Each node's runtimes are
 * counted (rt_count), then put at their node's place in o->rts (rt_first,
 * the nodes in order) and each node's sorted: no list of (node, runtime)
 * pairs besides o->rts. */
static int attach_runtimes(struct build *b)
{
	struct optree *o = b->o;
	const struct trace *t = b->t;
	/* a runtime per row, a second for one of external id 0, a dummy per
	 * thread: sized once, first, where the host events' list was */
	size_t n = t->ev.n, most = o->nthreads;
	for (size_t r = 0; r < n; r++)
		most += optree_is_runtime(o, r) ? 1 + (tr_ext_id(t, r) == 0) : 0;
	if (!(o->rts = malloc((most ? most : 1) * sizeof *o->rts)) || ext_build(b, &b->ext))
		return -1;
	free(b->node_of_pos); /* the index has what the rest needs of it */
	b->node_of_pos = NULL;
	size_t at = 0;
	for (int fill = 0; fill < 2; fill++) {
		for (size_t r = 0; r < n; r++) {
			uint32_t own[2];
			if (!optree_is_runtime(o, r))
				continue;
			rt_owners(b, r, own);
			o->orphan_runtimes += !fill && own[0] == OPT_NIL && tr_ext_id(t, r) != 0;
			for (int k = 0; k < 2; k++)
				if (own[k] != OPT_NIL)
					rt_put(o, own[k], (uint32_t)r, fill);
		}
		/* after the runtimes: the dummy on every step thread */
		for (size_t k = 0; k < o->nthreads && o->nstale; k++)
			if (o->threads[k].has_step)
				rt_put(o, o->threads[k].root, TR_NONE, fill);
		for (size_t i = 0; i < o->nnodes && !fill; i++) {
			struct optree_node *nd = &o->nodes[i];
			if (nd->rt_count) /* a node without runtimes keeps rt_first 0 */
				nd->rt_first = (uint32_t)at;
			at += nd->rt_count;
			nd->rt_count = 0;
		}
	}
	ext_free(&b->ext);
	o->nrts = at; /* of most */
	return optree_sort_runtimes(o);
}

/* Kernels no runtime launched, in (start, -end) order. */
static int find_stale(struct optree *o)
{
	const struct trace *t = o->t;
	size_t n = t->ev.n, ns = 0;
	for (size_t r = 0; r < n; r++)
		ns += t->ev.kind[r] == TR_KERNEL && optree_uses_row(o, r) &&
		      o->links.launcher[r] == TR_NONE;
	o->stale = malloc((ns ? ns : 1) * sizeof *o->stale);
	struct timed_row *tmp = malloc((ns ? ns : 1) * sizeof *tmp);
	if (!o->stale || !tmp) {
		free(tmp);
		return -1;
	}
	for (size_t r = 0; r < n; r++)
		if (t->ev.kind[r] == TR_KERNEL && optree_uses_row(o, r) &&
		    o->links.launcher[r] == TR_NONE)
			o->stale[o->nstale++] = (uint32_t)r;
	int rc = sort_by_time(o, o->stale, o->nstale, tmp);
	free(tmp);
	return rc;
}

/* Each launcher's activities in (start, -end) order, as tb sorts them. */
static int sort_launches(struct optree *o)
{
	const struct tr_links *l = &o->links;
	size_t most = 0;
	for (size_t i = 0; i < l->nseg; i++)
		if (l->seg[i].count > most)
			most = l->seg[i].count;
	if (most < 2)
		return 0;
	struct timed_row *tmp = malloc(most * sizeof *tmp);
	if (!tmp)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < l->nseg && !rc; i++)
		rc = sort_by_time(o, l->dev + l->seg[i].first, l->seg[i].count, tmp);
	free(tmp);
	return rc;
}

/* tb's has_kernel counts kernels outside communication: those whose
 * external id is not a collective op's (a sorted list; collectives are
 * few). */
static int flags(struct build *b)
{
	struct optree *o = b->o;
	const struct trace *t = b->t;
	size_t ncomm = 0;
	int64_t *comm = NULL;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < o->nnodes; i++) {
			const struct optree_node *nd = &o->nodes[i];
			if (nd->cls == OPC_ROOT)
				continue;
			uint32_t name = nd->name;
			if (!tr_tb_collective(tr_str(t, name), strpool_len(&t->pool, name)))
				continue;
			if (pass)
				comm[ncomm] = tr_ext_id(t, nd->row);
			ncomm++;
		}
		if (!pass) {
			if (!(comm = malloc((ncomm ? ncomm : 1) * sizeof *comm)))
				return -1;
			ncomm = 0;
		}
	}
	gp_qsort(comm, ncomm, sizeof *comm, cmp_i64);
	for (size_t r = 0; r < t->ev.n; r++) {
		if (!optree_uses_row(o, r))
			continue;
		uint8_t k = t->ev.kind[r];
		if (k == TR_MEMCPY || k == TR_MEMSET)
			o->has_memcpy_or_memset = true;
		if (k == TR_KERNEL && !o->has_kernel) {
			int64_t x = tr_ext_id(t, r);
			o->has_kernel = !bsearch(&x, comm, ncomm, sizeof *comm, cmp_i64);
		}
	}
	free(comm);
	return 0;
}

/* The tree's links: links itself (owned), or a copy of a borrowed one's
 * launch segments, which the tree reorders (sort_launches). */
static int take_links(struct optree *o, const struct tr_links *links, struct err *e)
{
	if (!links) {
		o->owns_links = true;
		return tr_links_build(o->t, !o->opts.tb_compat, &o->links, e);
	}
	o->links = *links;
	o->links.dev = malloc((links->ndev ? links->ndev : 1) * sizeof *o->links.dev);
	if (!o->links.dev)
		return nomem(o->t, e);
	if (links->ndev)
		memcpy(o->links.dev, links->dev, links->ndev * sizeof *o->links.dev);
	return 0;
}

int optree_build(const struct trace *t, const struct tr_links *links,
		 const struct optree_opts *opts, struct optree *o, struct err *e)
{
	memset(o, 0, sizeof *o);
	o->t = t;
	if (opts)
		o->opts = *opts;
	int rc = take_links(o, links, e);
	if (rc) {
		optree_free(o);
		return rc;
	}
	struct build b = {.o = o, .t = t};
	size_t n = t->ev.n;
	o->lightning =
	    t->meta.framework && optree_name_is(t, t->meta.framework, "pytorch-lightning");
	o->tc_name = calloc(t->pool.n ? t->pool.n : 1, 1);
	o->dev_node = malloc((n ? n : 1) * sizeof *o->dev_node);
	b.track_thread = malloc((t->tracks.n ? t->tracks.n : 1) * sizeof *b.track_thread);
	if (!o->tc_name || !o->dev_node || !b.track_thread || hmap_init(&b.tids, 64))
		goto fail;
	for (size_t r = 0; r < n; r++)
		o->dev_node[r] = OPT_NIL;
	for (size_t k = 0; k < t->tracks.n; k++)
		b.track_thread[k] = OPT_NIL;
	/* the nodes first (the largest block of the build, about 100 MB for a
	 * 1 GB trace), before the build's passing arrays: a heap that cannot
	 * give memory back (WebAssembly's) reuses their room afterwards */
	if (number_threads(&b))
		goto fail;
	o->nnodes = b.nc + o->nthreads;
	if (!(o->nodes = malloc((o->nnodes ? o->nnodes : 1) * sizeof *o->nodes)))
		goto fail;
	if (sort_launches(o) || find_stale(o) || collect_hosts(&b) || build_nodes(&b) ||
	    attach_runtimes(&b) || optree_collapse_dups(o) || optree_post_order(o) || flags(&b))
		goto fail;
	optree_tc_fill(o);
	optree_fill_stats(o);
	if (optree_bwd_rewrite(o))
		goto fail;
	rc = 0;
	goto done;
fail:
	rc = nomem(t, e);
	optree_free(o);
done:
	hmap_free(&b.tids);
	ext_free(&b.ext);
	free(b.track_thread);
	free(b.c);
	free(b.at);
	free(b.node_of_pos);
	return rc;
}

void optree_free(struct optree *o)
{
	if (o->owns_links)
		tr_links_free(&o->links);
	else
		free(o->links.dev);
	free(o->nodes);
	free(o->threads);
	free(o->rts);
	free(o->stale);
	free(o->post);
	free(o->agg_own);
	free(o->agg_bottom);
	free(o->bwd_removed);
	free(o->rwt.first);
	free(o->rwt.kids);
	free(o->rwt.syn_start);
	free(o->rwt.syn_end);
	free(o->dev_node);
	free(o->tc_name);
	memset(o, 0, sizeof *o);
}
