/* dist: one worker's part of the distributed view (dist_add): its
 * communication nodes and their kernels, their steps, the per-step
 * computation/communication overlap and the GPUs used; see dist.h. Sorting
 * makes it n log n; every other pass is linear in the events. */
#include "trace/argtext.h"
#include "core/cmp.h"
#include "core/sort.h"
#include "tbprof/dist.h"
#include "tbprof/session.h"

#include <stdlib.h>
#include <string.h>

#include "trace/link.h"
#include "tbprof/steps.h"
#include "tbprof/tbtime.h"
#include "core/vec.h"

/* A node before the final (start, -end) order. */
struct pn {
	int64_t start, end, bytes;
	uint32_t name;	/* in r->pool */
	uint32_t track; /* of its CPU op */
	uint32_t xrow;	/* dist_node.xrow */
	bool lone;	/* default mode: record_param_comms ops only (no library op) */
};

/* A kernel range attached to pre-node `node`. */
struct att {
	uint32_t node;
	int64_t start, end;
};

struct ctx {
	struct dist_result *r;
	const struct trace *t;
	struct dist_worker *w;
	bool compat;
	struct pn *pn;
	size_t npn, cap_pn;
	struct att *att;
	size_t natt, cap_att;
	struct extmap { /* external id -> pre-node */
		int64_t ext;
		uint32_t node;
	} * ext;
	size_t next, cap_ext;
	int64_t *keys; /* tb_compat: external ids of every collective op */
	size_t nkeys;
};

/* An event's start and end as the mode sees them (tbtime.h). */
static inline __attribute__((always_inline)) int64_t start_of(const struct ctx *c, size_t r)
{
	return tb_span(c->t, r, c->compat).start;
}

static inline __attribute__((always_inline)) int64_t end_of(const struct ctx *c, size_t r)
{
	return tb_span_clamped(c->t, r, c->compat).end;
}

static const char *name_of(const struct trace *t, size_t r, size_t *len)
{
	uint32_t id = t->ev.name[r];
	*len = strpool_len(&t->pool, id);
	return tr_str(t, id);
}

/* Host ops' arguments (runtime and driver calls' are not looked at). */
static const struct tr_op_arg *op_arg(const struct trace *t, size_t r)
{
	enum tr_kind k = t->ev.kind[r];
	return k == TR_RUNTIME || k == TR_DRIVER ? NULL : tr_op_arg(t, r);
}

static const struct tr_op_extra *op_extra(const struct trace *t, size_t r)
{
	const struct tr_op_arg *a = op_arg(t, r);
	return a && a->extra != TR_NONE && a->extra < t->opx.n ? &t->opx.v[a->extra] : NULL;
}

static int64_t row_bytes(const struct ctx *c, size_t r)
{
	const struct trace *t = c->t;
	const struct tr_op_arg *a = op_arg(t, r);
	if (!a || !a->input_dims)
		return 0;
	return dist_input_bytes(tr_str(t, a->input_dims), strpool_len(&t->pool, a->input_dims),
				tr_str(t, a->input_type), strpool_len(&t->pool, a->input_type),
				c->compat);
}

/* The tb library of a host event's name (python events carry no flags). */
static enum tr_coll tb_coll(const struct trace *t, size_t r)
{
	if (t->ev.kind[r] != TR_PYTHON && !(t->ev.flags[r] & TRF_COMM))
		return TR_COLL_NONE;
	size_t len;
	const char *s = name_of(t, r, &len);
	return tr_tb_collective(s, len);
}

static bool is_host(const struct ctx *c, enum tr_kind k)
{
	return k == TR_CPU_OP || k == TR_PYTHON || k == TR_USER_ANNOTATION ||
	       (c->compat && k == TR_GPU_USER_ANNOTATION);
}

static int push_pn(struct ctx *c, struct pn p)
{
	if (vec_reserve_((void **)&c->pn, &c->cap_pn, c->npn + 1, sizeof *c->pn, SIZE_MAX))
		return -1;
	c->pn[c->npn++] = p;
	return 0;
}

static int push_att(struct ctx *c, uint32_t node, int64_t s, int64_t e)
{
	if (vec_reserve_((void **)&c->att, &c->cap_att, c->natt + 1, sizeof *c->att, SIZE_MAX))
		return -1;
	c->att[c->natt++] = (struct att){node, s, e};
	return 0;
}

static int push_ext(struct ctx *c, int64_t ext, uint32_t node)
{
	if (vec_reserve_((void **)&c->ext, &c->cap_ext, c->next + 1, sizeof *c->ext, SIZE_MAX))
		return -1;
	c->ext[c->next++] = (struct extmap){ext, node};
	return 0;
}

static int cmp_ext(const void *x, const void *y)
{
	const struct extmap *a = x, *b = y;
	if (a->ext != b->ext)
		return a->ext < b->ext ? -1 : 1;
	return (a->node > b->node) - (a->node < b->node);
}

/* The pre-node of external id ext (the first of equal ones), or -1. */
static long find_ext(const struct ctx *c, int64_t ext)
{
	size_t lo = 0, hi = c->next;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->ext[mid].ext < ext)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->next && c->ext[lo].ext == ext ? (long)c->ext[lo].node : -1;
}

static bool is_key(const struct ctx *c, int64_t ext)
{
	return c->nkeys && bsearch(&ext, c->keys, c->nkeys, sizeof ext, cmp_i64);
}

/* Candidate host rows with their sort key. */
struct cand {
	int64_t a, b, c; /* sort key */
	uint32_t row;
};

static int cmp_cand(const void *x, const void *y)
{
	const struct cand *p = x, *q = y;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	if (p->c != q->c)
		return p->c < q->c ? -1 : 1;
	return (p->row > q->row) - (p->row < q->row);
}

static int intern(struct ctx *c, const char *s, size_t len, uint32_t *id)
{
	*id = strpool_intern(&c->r->pool, s, len);
	return *id == UINT32_MAX ? -1 : 0;
}

/* tb_compat: every host event named as one of the ten collectives makes a
 * node keyed by its external id (a later one replaces an earlier one with
 * the same id, in (ts, input order), as the reference's dict does); a
 * trace with both libraries keeps no node. Kernels with a node's external
 * id join it once an nccl: op was seen. */
static int collect_tb(struct ctx *c)
{
	const struct trace *t = c->t;
	struct cand *v = NULL;
	size_t n = 0, cap = 0;
	int rc = -1;
	for (size_t r = 0; r < t->ev.n; r++) {
		if (t->ev.ph[r] != 'X' || !is_host(c, t->ev.kind[r]))
			continue;
		enum tr_coll lib = tb_coll(t, r);
		if (!lib)
			continue;
		c->w->has_nccl |= lib == TR_COLL_NCCL;
		c->w->has_gloo |= lib == TR_COLL_GLOO;
		if (vec_reserve_((void **)&v, &cap, n + 1, sizeof *v, SIZE_MAX))
			goto done;
		v[n++] = (struct cand){tr_ext_id(t, r), start_of(c, r), 0, (uint32_t)r};
	}
	if (n > 1)
		gp_qsort(v, n, sizeof *v, cmp_cand);
	c->keys = malloc((n ? n : 1) * sizeof *c->keys);
	if (!c->keys)
		goto done;
	c->w->cleared = c->w->has_nccl && c->w->has_gloo;
	for (size_t i = 0; i < n; i++) {
		if (i + 1 < n && v[i + 1].a == v[i].a)
			continue; /* replaced by the later one */
		c->keys[c->nkeys++] = v[i].a;
		if (c->w->cleared)
			continue;
		size_t r = v[i].row, len;
		const char *s = name_of(t, r, &len);
		struct pn p = {.start = start_of(c, r),
			       .end = end_of(c, r),
			       .bytes = row_bytes(c, r),
			       .track = t->ev.track[r],
			       .xrow = (uint32_t)r};
		if (intern(c, s, len, &p.name) || push_ext(c, v[i].a, (uint32_t)c->npn) ||
		    push_pn(c, p))
			goto done;
	}
	/* keys and the ext map are sorted by external id already */
	if (c->w->has_nccl && !c->w->cleared)
		for (size_t r = 0; r < t->ev.n; r++) {
			if (t->ev.ph[r] != 'X' || t->ev.kind[r] != TR_KERNEL)
				continue;
			long k = find_ext(c, tr_ext_id(t, r));
			if (k >= 0 && push_att(c, (uint32_t)k, start_of(c, r), end_of(c, r)))
				goto done;
		}
	rc = 0;
done:
	free(v);
	return rc;
}

static bool starts(const char *s, size_t len, const char *p)
{
	size_t n = strlen(p);
	return len >= n && !memcmp(s, p, n);
}

/* Default: the name and bytes of the call made of candidate rows
 * v[i..j) (v[i] is the outermost op). */
static int describe_group(struct ctx *c, const struct cand *v, size_t i, size_t j, struct pn *p)
{
	const struct trace *t = c->t;
	long lib_row = -1, rpc_row = -1;
	p->lone = true;
	for (size_t k = i; k < j; k++) {
		size_t r = v[k].row, len;
		const char *s = name_of(t, r, &len);
		p->lone &= len == 18 && !memcmp(s, "record_param_comms", 18);
		if (lib_row < 0 && (starts(s, len, "nccl:") || starts(s, len, "gloo:")))
			lib_row = (long)r;
		const struct tr_op_extra *x = op_extra(t, r);
		if (rpc_row < 0 && x && x->collective)
			rpc_row = (long)r;
	}
	size_t len;
	const char *s;
	if (lib_row >= 0) {
		s = name_of(t, (size_t)lib_row, &len);
	} else if (rpc_row >= 0) {
		uint32_t id = op_extra(t, (size_t)rpc_row)->collective;
		s = tr_str(t, id);
		len = strpool_len(&t->pool, id);
	} else {
		s = name_of(t, v[i].row, &len);
	}
	if (intern(c, s, len, &p->name))
		return -1;
	p->xrow = rpc_row >= 0 ? (uint32_t)rpc_row : TR_NONE;
	p->bytes = lib_row >= 0 ? row_bytes(c, (size_t)lib_row) : 0;
	if (!p->bytes && rpc_row >= 0) {
		const struct tr_op_extra *x = op_extra(t, (size_t)rpc_row);
		uint32_t d = x->dtype;
		int es = d ? tr_dtype_size(tr_str(t, d), strpool_len(&t->pool, d), false) : 0;
		if (x->in_nelems > 0 && es > 0 &&
		    __builtin_mul_overflow(x->in_nelems, (int64_t)es, &p->bytes))
			p->bytes = INT64_MAX;
	}
	if (!p->bytes)
		p->bytes = row_bytes(c, v[i].row);
	return 0;
}

/* The pre-node (in (track, start) order) whose range on `track` holds
 * [s, e], or -1. */
static long find_inside(const struct ctx *c, uint32_t track, int64_t s, int64_t e)
{
	size_t lo = 0, hi = c->npn;
	while (lo < hi) { /* first node after (track, s) */
		size_t mid = lo + (hi - lo) / 2;
		const struct pn *p = &c->pn[mid];
		if (p->track < track || (p->track == track && p->start <= s))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	const struct pn *p = &c->pn[lo - 1];
	return p->track == track && p->start <= s && e <= p->end ? (long)(lo - 1) : -1;
}

/* Default: a call made of record_param_comms ops alone that moved no bytes
 * and launched no NCCL kernel carries no communication (PyTorch records
 * e.g. a work object's `wait` so): it is no collective and leaves the
 * pre-nodes. 0, or -1 out of memory. */
static int drop_lone(struct ctx *c)
{
	uint32_t *to = calloc(c->npn ? c->npn : 1, sizeof *to);
	if (!to)
		return -1;
	for (size_t a = 0; a < c->natt; a++)
		to[c->att[a].node] = 1; /* has a kernel */
	size_t n = 0;
	for (size_t i = 0; i < c->npn; i++) {
		if (c->pn[i].lone && !c->pn[i].bytes && !to[i]) {
			to[i] = UINT32_MAX;
			continue;
		}
		to[i] = (uint32_t)n;
		c->pn[n++] = c->pn[i];
	}
	for (size_t a = 0; a < c->natt; a++)
		c->att[a].node = to[c->att[a].node];
	c->npn = n;
	free(to);
	return 0;
}

/* Default: communication host ops (TRF_COMM cpu_op / user_annotation)
 * nested on one thread form one call; NCCL kernels join the call that
 * launched them (by external id, else by their runtime's place). */
static int collect_modern(struct ctx *c, const struct tr_links *l)
{
	const struct trace *t = c->t;
	struct cand *v = NULL;
	size_t n = 0, cap = 0;
	int rc = -1;
	for (size_t r = 0; r < t->ev.n; r++) {
		enum tr_kind k = t->ev.kind[r];
		if (t->ev.ph[r] != 'X' || !(t->ev.flags[r] & TRF_COMM) ||
		    (k != TR_CPU_OP && k != TR_USER_ANNOTATION))
			continue;
		enum tr_coll lib = tb_coll(t, r);
		size_t len;
		const char *s = name_of(t, r, &len);
		c->w->has_nccl |= lib == TR_COLL_NCCL || starts(s, len, "nccl:");
		c->w->has_gloo |= lib == TR_COLL_GLOO || starts(s, len, "gloo:");
		if (vec_reserve_((void **)&v, &cap, n + 1, sizeof *v, SIZE_MAX))
			goto done;
		/* outer ops first among equal starts */
		v[n++] = (struct cand){t->ev.track[r], start_of(c, r), -end_of(c, r), (uint32_t)r};
	}
	if (n > 1)
		gp_qsort(v, n, sizeof *v, cmp_cand);
	for (size_t i = 0, j; i < n; i = j) {
		size_t r = v[i].row;
		int64_t end = end_of(c, r);
		for (j = i + 1; j < n && v[j].a == v[i].a && end_of(c, v[j].row) <= end; j++)
			;
		struct pn p = {start_of(c, r), end, 0, 0, t->ev.track[r], TR_NONE, false};
		if (describe_group(c, v, i, j, &p))
			goto done;
		for (size_t k = i; k < j; k++) {
			int64_t ext = tr_ext_id(t, v[k].row);
			if (ext > 0 && push_ext(c, ext, (uint32_t)c->npn))
				goto done;
		}
		if (push_pn(c, p))
			goto done;
	}
	if (c->next > 1)
		gp_qsort(c->ext, c->next, sizeof *c->ext, cmp_ext);
	for (size_t r = 0; r < t->ev.n; r++) {
		if (t->ev.ph[r] != 'X' || t->ev.kind[r] != TR_KERNEL ||
		    !(t->ev.flags[r] & TRF_COMM))
			continue;
		int64_t ext = tr_ext_id(t, r);
		long k = ext > 0 ? find_ext(c, ext) : -1;
		uint32_t rt = l->launcher[r];
		if (k < 0 && rt != TR_NONE) {
			int64_t rext = tr_ext_id(t, rt);
			k = rext > 0 ? find_ext(c, rext) : -1;
			if (k < 0)
				k = find_inside(c, t->ev.track[rt], start_of(c, rt), end_of(c, rt));
		}
		if (k >= 0 && push_att(c, (uint32_t)k, start_of(c, r), end_of(c, r)))
			goto done;
	}
	rc = drop_lone(c);
done:
	free(v);
	return rc;
}

/* Sort keys of the final node order and of ranges inside a node. */
struct ord {
	int64_t start, negend;
	uint32_t idx;
};

static int cmp_ord(const void *x, const void *y)
{
	const struct ord *a = x, *b = y;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->negend != b->negend)
		return a->negend < b->negend ? -1 : 1;
	return (a->idx > b->idx) - (a->idx < b->idx);
}

static int cmp_kr(const void *x, const void *y)
{
	const struct rg *a = x, *b = y;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return (a->end < b->end) - (a->end > b->end); /* longer first */
}

/* The process group name of the call whose arguments are on row (the
 * record_param_comms op), interned into the result's pool; 0 when none. */
static int node_pg(struct ctx *c, uint32_t row, uint32_t *id)
{
	const struct trace *t = c->t;
	*id = 0;
	const struct tr_op_extra *x = row == TR_NONE || row >= t->ev.n ? NULL : op_extra(t, row);
	if (!x || !x->pg_name)
		return 0;
	return intern(c, tr_str(t, x->pg_name), strpool_len(&t->pool, x->pg_name), id);
}

/* The call's sequence number in its group ("Seq"), -1 when none. */
static int64_t node_seq(const struct ctx *c, uint32_t row)
{
	const struct tr_op_extra *x =
	    row == TR_NONE || row >= c->t->ev.n ? NULL : op_extra(c->t, row);
	return x && x->coll_seq >= 0 ? x->coll_seq : -1;
}

/* Pre-nodes -> w->nodes sorted by (start, -end), each with its ranges
 * (its CPU range and its kernels) sorted by (start, -end) in w->kr. */
static int finalize_nodes(struct ctx *c)
{
	struct dist_worker *w = c->w;
	size_t n = c->npn;
	struct ord *o = malloc((n ? n : 1) * sizeof *o);
	uint32_t *pos = malloc((n ? n : 1) * sizeof *pos);
	w->nodes = calloc(n ? n : 1, sizeof *w->nodes);
	w->nkr = n + c->natt;
	w->kr = malloc((w->nkr ? w->nkr : 1) * sizeof *w->kr);
	w->real = calloc(w->nkr ? w->nkr : 1, sizeof *w->real);
	if (!o || !pos || !w->nodes || !w->kr || !w->real) {
		free(o);
		free(pos);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		o[i] = (struct ord){c->pn[i].start, -c->pn[i].end, (uint32_t)i};
	if (n > 1)
		gp_qsort(o, n, sizeof *o, cmp_ord);
	for (size_t i = 0; i < n; i++) {
		const struct pn *p = &c->pn[o[i].idx];
		pos[o[i].idx] = (uint32_t)i;
		w->nodes[i] = (struct dist_node){.name = p->name,
						 .start = p->start,
						 .end = p->end,
						 .bytes = p->bytes,
						 .step = DIST_NO_STEP,
						 .n = 1,
						 .xrow = p->xrow,
						 .seq = node_seq(c, p->xrow)};
		if (node_pg(c, p->xrow, &w->nodes[i].pg)) {
			free(o);
			free(pos);
			return -1;
		}
	}
	for (size_t a = 0; a < c->natt; a++)
		w->nodes[pos[c->att[a].node]].n++;
	size_t at = 0;
	for (size_t i = 0; i < n; i++) {
		w->nodes[i].first = at;
		w->kr[at] = (struct rg){w->nodes[i].start, w->nodes[i].end};
		at += w->nodes[i].n;
		w->nodes[i].n = 1; /* refilled below */
	}
	for (size_t a = 0; a < c->natt; a++) {
		struct dist_node *d = &w->nodes[pos[c->att[a].node]];
		w->kr[d->first + d->n++] = (struct rg){c->att[a].start, c->att[a].end};
	}
	for (size_t i = 0; i < n; i++)
		if (w->nodes[i].n > 1)
			gp_qsort(w->kr + w->nodes[i].first, w->nodes[i].n, sizeof *w->kr, cmp_kr);
	w->nnodes = n;
	free(o);
	free(pos);
	return 0;
}

/* The reference's two-pointer walk: a node belongs to the current step
 * when the step holds its CPU range; a node starting at or after the
 * step's end moves to the next step; any other node gets no step (and so
 * does every node once the steps run out). */
static void assign_steps(struct dist_worker *w, const struct st_result *s)
{
	size_t is = 0;
	for (size_t i = 0; i < w->nnodes; i++) {
		struct dist_node *d = &w->nodes[i];
		while (is < s->n) {
			if (d->start >= s->steps[is].start && d->end <= s->steps[is].end) {
				d->step = s->steps[is].number;
				break;
			} else if (d->start >= s->steps[is].end) {
				is++;
			} else {
				break;
			}
		}
		if (is >= s->n)
			break;
	}
}

/* Which of the overlap roles event r has: 'K' kernel (computation), 'C'
 * communication, 'P' CPU op (computation when there are no kernels), 'D'
 * data loading (for the straggler causes only), 0. */
static char role_of(const struct ctx *c, size_t r)
{
	const struct trace *t = c->t;
	enum tr_kind k = t->ev.kind[r];
	unsigned f = t->ev.flags[r];
	if (k == TR_KERNEL) {
		bool comm = c->compat ? is_key(c, tr_ext_id(t, r)) : (f & TRF_COMM) != 0;
		return comm ? 'C' : 'K';
	}
	if (!is_host(c, k))
		return 0;
	if (k == TR_PYTHON)
		return tb_coll(t, r) ? 'C' : 'P';
	if (f & TRF_DATALOADER)
		return 'D'; /* DataLoader role: neither computation nor communication */
	if (f & TRF_STEP)
		return 0; /* steps are no role */
	bool comm = c->compat ? tb_coll(t, r) != TR_COLL_NONE : (f & TRF_COMM) != 0;
	return comm ? 'C' : 'P';
}

/* The merged ranges of the X events of each of the n roles (one pass over
 * the rows): out[i] those of roles[i]. */
static int role_lists(const struct ctx *c, const char *roles, size_t n, struct rg_vec *out)
{
	const struct trace *t = c->t;
	for (size_t r = 0; r < t->ev.n; r++) {
		if (t->ev.ph[r] != 'X')
			continue;
		char role = role_of(c, r);
		for (size_t i = 0; role && i < n; i++)
			if (roles[i] == role && rg_push(&out[i], start_of(c, r), end_of(c, r)))
				return -1;
	}
	for (size_t i = 0; i < n; i++) {
		rg_sort(out[i].v, out[i].n);
		out[i].n = rg_merge(out[i].v, out[i].n);
	}
	return 0;
}

/* Per step: computation (kernel ranges, or CPU-op ranges when the worker
 * has no kernel), communication, their overlap, other = total + overlap -
 * computation - communication; averages over the steps. */
/* The straggler causes of every node (dist_causes), from the computation
 * ranges ik (merged list k). */
static int causes(struct ctx *c, const struct st_result *s, const struct rg_vec *k,
		  const struct rg_index *ik, const struct rg_vec *dl)
{
	struct rg_vec u = {0};
	struct rg_index idl = {0}, iu = {0};
	int rc = -1;
	if (rg_union(k->v, k->n, dl->v, dl->n, &u) || rg_index_build(&idl, dl->v, dl->n) ||
	    rg_index_build(&iu, u.v, u.n))
		goto done;
	dist_causes(c->w, s, ik, &idl, &iu, c->t->min_ts);
	rc = 0;
done:
	rg_index_free(&idl);
	rg_index_free(&iu);
	rg_vec_free(&u);
	return rc;
}

static int overlap(struct ctx *c, const struct st_result *s)
{
	struct dist_worker *w = c->w;
	struct rg_vec r[3] = {{0}}, ov = {0}; /* kernels, communication, data loading */
	struct rg_vec *k = &r[0], *cm = &r[1];
	struct rg_index ik = {0}, ic = {0}, io = {0};
	int rc = -1;
	if (role_lists(c, "KCD", 3, r))
		goto done;
	if (!k->n && role_lists(c, "P", 1, k))
		goto done;
	w->has_communication = cm->n > 0;
	if (rg_intersect(k->v, k->n, cm->v, cm->n, &ov) || rg_index_build(&ik, k->v, k->n) ||
	    rg_index_build(&ic, cm->v, cm->n) || rg_index_build(&io, ov.v, ov.n))
		goto done;
	w->overlap = calloc(s->n ? s->n : 1, sizeof *w->overlap);
	if (!w->overlap)
		goto done;
	w->nsteps = s->n;
	int64_t sum[4] = {0};
	for (size_t i = 0; i < s->n; i++) {
		int64_t a = s->steps[i].start, b = s->steps[i].end;
		int64_t comp = rg_measure(&ik, a, b), comm = rg_measure(&ic, a, b);
		int64_t over = rg_measure(&io, a, b);
		struct dist_overlap *o = &w->overlap[i];
		o->step = s->steps[i].number;
		o->v[0] = comp - over;
		o->v[1] = over;
		o->v[2] = comm - over;
		o->v[3] = (b - a) + over - comp - comm;
		for (int j = 0; j < 4; j++)
			sum[j] += o->v[j];
	}
	for (int j = 0; j < 4; j++)
		w->overlap_avg[j] = dist_avg_trunc(sum[j], (int64_t)s->n, c->compat);
	rc = causes(c, s, k, &ik, &r[2]);
done:
	rg_index_free(&ik);
	rg_index_free(&ic);
	rg_index_free(&io);
	for (int i = 0; i < 3; i++)
		rg_vec_free(&r[i]);
	rg_vec_free(&ov);
	return rc;
}

/* The GPUs used: distinct pids of GPU activities (the reference's
 * used_devices), with their deviceProperties entry (the list is indexed by
 * that id, as the reference indexes it). */
static int gpus(struct ctx *c)
{
	const struct trace *t = c->t;
	struct dist_worker *w = c->w;
	int64_t *ids = NULL;
	size_t n = 0, cap = 0;
	for (size_t r = 0; r < t->ev.n; r++) {
		if (!tr_is_device(t->ev.kind[r]) || t->ev.ph[r] != 'X')
			continue;
		const struct tr_id *pid = &t->tracks.v[t->ev.track[r]].pid;
		if (pid->is_str)
			continue;
		if (n && ids[n - 1] == pid->num)
			continue; /* the usual run of one device */
		if (vec_reserve_((void **)&ids, &cap, n + 1, sizeof *ids, SIZE_MAX)) {
			free(ids);
			return -1;
		}
		ids[n++] = pid->num;
	}
	if (n > 1)
		gp_qsort(ids, n, sizeof *ids, cmp_i64);
	w->gpus = calloc(n ? n : 1, sizeof *w->gpus);
	if (!w->gpus) {
		free(ids);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (w->ngpus && w->gpus[w->ngpus - 1].id == ids[i])
			continue;
		struct dist_gpu *g = &w->gpus[w->ngpus++];
		*g = (struct dist_gpu){.id = ids[i], .memory = -1, .cc_major = -1, .cc_minor = -1};
		if (ids[i] < 0 || (uint64_t)ids[i] >= t->meta.ndevices)
			continue;
		const struct tr_device_prop *d = &t->meta.devices[ids[i]];
		g->known = true;
		if (d->name &&
		    intern(c, tr_str(t, d->name), strpool_len(&t->pool, d->name), &g->name)) {
			free(ids);
			return -1;
		}
		g->memory = d->total_global_mem == INT64_MIN ? -1 : d->total_global_mem;
		if (d->compute_major != INT64_MIN && d->compute_minor != INT64_MIN) {
			g->cc_major = d->compute_major;
			g->cc_minor = d->compute_minor;
		}
	}
	free(ids);
	return 0;
}

static int meta(struct ctx *c, const char *name, const char *file)
{
	const struct trace *t = c->t;
	struct dist_worker *w = c->w;
	const struct tr_meta *m = &t->meta;
	w->rank = m->has_dist && m->dist_rank != INT64_MIN ? m->dist_rank : -1;
	w->world_size = m->has_dist && m->dist_world_size != INT64_MIN ? m->dist_world_size : -1;
	w->has_device_props = m->ndevices > 0;
	if (intern(c, name, strlen(name), &w->name) || intern(c, file, strlen(file), &w->path))
		return -1;
	if (m->has_dist && m->dist_backend &&
	    intern(c, tr_str(t, m->dist_backend), strpool_len(&t->pool, m->dist_backend),
		   &w->backend))
		return -1;
	return 0;
}

/* The worker of t into r from its links (lk: without the driver's
 * launches; ld: with them, NULL in tb-compat mode) and steps s. */
static int add_built(struct dist_result *r, const struct trace *t, const struct tr_links *ld,
		     const struct st_result *s, const char *name, const char *file, struct err *e)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 8;
		struct dist_worker *nw = realloc(r->w, cap * sizeof *nw);
		if (!nw)
			return err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
		r->w = nw;
		r->cap = cap;
	}
	struct dist_worker *w = &r->w[r->n];
	memset(w, 0, sizeof *w);
	r->n++; /* owned by r from here on, even when half built */
	struct ctx c = {.r = r, .t = t, .w = w, .compat = r->compat};
	int rc = 0;
	int bad = meta(&c, name, file ? file : t->path) ||
		  (r->compat ? collect_tb(&c) : collect_modern(&c, ld)) || finalize_nodes(&c);
	if (!bad) /* the causes (in overlap) need the nodes' steps */
		assign_steps(w, s);
	if (bad || overlap(&c, s) || gpus(&c) || dist_seq_normalize(w))
		rc = err_set(e, ERR_NOMEM, t->path, -1, "out of memory in the distributed view");
	free(c.pn);
	free(c.att);
	free(c.ext);
	free(c.keys);
	return rc;
}

int dist_add(struct dist_result *r, const struct trace *t, const char *name, const char *file,
	     struct err *e)
{
	struct tr_links lk = {0}, ld = {0};
	struct st_result s = {0};
	bool have_lk = false, have_ld = false;
	int rc = tr_links_build(t, false, &lk, e);
	have_lk = rc == 0;
	if (!rc) {
		struct st_opts so = {.tb_compat = r->compat};
		rc = st_compute(t, &lk, &so, &s, e);
	}
	if (!rc && !r->compat) {
		rc = tr_links_build(t, true, &ld, e);
		have_ld = rc == 0;
	}
	if (!rc)
		rc = add_built(r, t, r->compat ? NULL : &ld, &s, name, file, e);
	if (have_lk)
		tr_links_free(&lk);
	if (have_ld)
		tr_links_free(&ld);
	st_free(&s);
	return rc;
}

int dist_add_ses(struct dist_result *r, struct ses *ses, const char *name, const char *file,
		 struct err *e)
{
	const struct tr_links *ld = NULL;
	const struct st_result *s;
	int rc = ses_steps(ses, r->compat, &s, e);
	if (!rc && !r->compat)
		rc = ses_links(ses, true, &ld, e);
	return rc ? rc : add_built(r, ses_trace(ses), ld, s, name, file, e);
}
