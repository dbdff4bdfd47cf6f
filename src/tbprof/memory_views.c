/* memory_views: the Memory view's tables from attributed records (see
 * memory.h): per-operator statistics (§10.2), the curve (§10.3) and the
 * allocation events (§10.4). */
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "tbprof/memory.h"

static bool in_window(const struct mem_window *w, int64_t ts)
{
	return !w || (ts >= w->start && ts <= w->end);
}

/* Records of other device types (MEM_NO_DEV) belong to no device. */
static bool on_dev(const struct mem_rec *r, uint16_t dev)
{
	return r->dev == dev && dev != MEM_NO_DEV;
}

static int nomem(const struct memory *m, struct err *e, const char *what)
{
	return err_set(e, ERR_NOMEM, m->o->t->path, -1, "out of memory building the memory %s",
		       what);
}

/* ---- statistics */

enum { M_INC, M_SIZE, M_COUNT, M_N };

struct name_entry {
	uint32_t name, node;
};

static int cmp_name_entry(const void *a, const void *b)
{
	const struct name_entry *x = a, *y = b;
	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

struct vframe {
	uint32_t node, pos; /* a node on the path, its child cursor */
};

/* tb's traversal (get_memory_statistics) of the tree the attribution
 * walked (optree_kid_*): from each root's children, skipping nodes outside
 * the window with their subtrees; an operator counts as a call when
 * visited. With tb_compat it does not descend below a node the attribution
 * never entered (quirk 12). A visited operator's total gains its self
 * values, and every node's total its children's totals after each child's
 * visit: a node the backward-module rewrite lists twice counts twice, as
 * in tb; a node already on the path is not entered again. Appends the
 * visited operators' names to calls[] and returns how many. */
static size_t visit(const struct memory *m, const struct mem_window *w, int64_t (*self)[M_N],
		    int64_t (*total)[M_N], struct name_entry *calls, size_t calls_cap,
		    struct vframe *st, uint8_t *on_path)
{
	const struct optree *o = m->o;
	size_t nc = 0;
	for (size_t k = 0; k < o->nthreads; k++) {
		uint32_t root = o->threads[k].root;
		size_t depth = 0;
		st[depth++] = (struct vframe){root, optree_kid_first(o, root)};
		while (depth) {
			struct vframe *f = &st[depth - 1];
			uint32_t x = optree_kid_at(o, f->node, f->pos);
			if (x == OPT_NIL) {
				on_path[f->node] = 0;
				if (--depth)
					for (int i = 0; i < M_N; i++)
						total[st[depth - 1].node][i] += total[f->node][i];
				continue;
			}
			f->pos = optree_kid_next(o, f->pos);
			if (on_path[x] || (w && (optree_id_end(o, x) < w->start ||
						 optree_id_start(o, x) > w->end)))
				continue;
			bool op = optree_id_op(o, x);
			if (op && nc < calls_cap)
				calls[nc++] = (struct name_entry){o->nodes[x].name, x};
			if (m->opts.tb_compat && !m->reached[x])
				continue;
			if (op)
				for (int i = 0; i < M_N; i++)
					total[x][i] += self[x][i];
			on_path[x] = 1;
			st[depth++] = (struct vframe){x, optree_kid_first(o, x)};
		}
	}
	return nc;
}

static int cmp_row_name(const void *a, const void *b, const struct strpool *p)
{
	const struct mem_stat_row *x = a, *y = b;
	uint32_t lx = strpool_len(p, x->name), ly = strpool_len(p, y->name);
	int c = memcmp(strpool_get(p, x->name), strpool_get(p, y->name), lx < ly ? lx : ly);
	return c ? c : (lx > ly) - (lx < ly);
}

/* qsort has no context argument: rows sort by name through this merge sort */
static void sort_rows(struct mem_stat_row *v, struct mem_stat_row *tmp, size_t n,
		      const struct strpool *p)
{
	if (n < 2)
		return;
	size_t h = n / 2;
	sort_rows(v, tmp, h, p);
	sort_rows(v + h, tmp, n - h, p);
	size_t i = 0, j = h, k = 0;
	while (i < h && j < n)
		tmp[k++] = cmp_row_name(&v[j], &v[i], p) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof *v);
}

int mem_stats(const struct memory *m, uint16_t dev, const struct mem_window *w,
	      struct mem_stats *out, struct err *e)
{
	const struct optree *o = m->o;
	const struct optree_node *nd = o->nodes;
	size_t nn = o->nnodes, ids = optree_ids(o), calls_cap = ids + o->nagg;
	memset(out, 0, sizeof *out);
	int64_t(*self)[M_N] = calloc(ids ? ids : 1, sizeof *self);
	int64_t(*total)[M_N] = calloc(ids ? ids : 1, sizeof *total);
	struct name_entry *calls = malloc((calls_cap ? calls_cap : 1) * sizeof *calls);
	struct name_entry *ops = malloc((nn ? nn : 1) * sizeof *ops);
	struct vframe *stack = malloc((ids + 1) * sizeof *stack);
	uint8_t *on_path = calloc(ids ? ids : 1, 1);
	struct mem_stat_row *rows = NULL, *tmp = NULL;
	if (!self || !total || !calls || !ops || !stack || !on_path)
		goto fail;
	for (size_t i = 0; i < m->n; i++) {
		const struct mem_rec *r = &m->recs[i];
		if (r->node == MEM_NIL || !on_dev(r, dev) || !in_window(w, r->ts))
			continue;
		self[r->node][M_INC] += r->bytes;
		if (r->bytes > 0) {
			self[r->node][M_SIZE] += r->bytes;
			self[r->node][M_COUNT]++;
		}
	}
	size_t ncalls = visit(m, w, self, total, calls, calls_cap, stack, on_path);
	gp_qsort(calls, ncalls, sizeof *calls, cmp_name_entry);
	size_t nops = 0;
	for (size_t i = 0; i < nn; i++) {
		if (!nd[i].is_op || nd[i].dropped || nd[i].collapsed)
			continue;
		bool any = false;
		for (int k = 0; k < M_N; k++)
			any |= self[i][k] != 0 || total[i][k] != 0;
		if (any)
			ops[nops++] = (struct name_entry){nd[i].name, (uint32_t)i};
	}
	gp_qsort(ops, nops, sizeof *ops, cmp_name_entry);
	rows = malloc((nops ? nops : 1) * sizeof *rows);
	tmp = malloc((nops ? nops : 1) * sizeof *tmp);
	if (!rows || !tmp)
		goto fail;
	size_t nr = 0, ci = 0;
	for (size_t i = 0; i < nops;) {
		struct mem_stat_row *row = &rows[nr];
		*row = (struct mem_stat_row){.name = ops[i].name};
		for (; i < nops && ops[i].name == row->name; i++) {
			uint32_t x = ops[i].node;
			row->self_increase += self[x][M_INC];
			row->self_alloc_size += self[x][M_SIZE];
			row->self_alloc_count += self[x][M_COUNT];
			row->increase += total[x][M_INC];
			row->alloc_size += total[x][M_SIZE];
			row->alloc_count += total[x][M_COUNT];
		}
		while (ci < ncalls && calls[ci].name < row->name)
			ci++;
		for (; ci < ncalls && calls[ci].name == row->name; ci++)
			row->calls++;
		/* tb keeps a row when one of its six numbers is not zero */
		if (row->self_increase || row->self_alloc_size || row->self_alloc_count ||
		    row->increase || row->alloc_size || row->alloc_count)
			nr++;
	}
	sort_rows(rows, tmp, nr, &o->t->pool);
	out->rows = rows;
	out->n = nr;
	rows = NULL;
	int rc = 0;
	goto done;
fail:
	rc = nomem(m, e, "statistics");
done:
	free(rows);
	free(tmp);
	free(self);
	free(total);
	free(calls);
	free(ops);
	free(stack);
	free(on_path);
	return rc;
}

void mem_stats_free(struct mem_stats *s)
{
	free(s->rows);
	memset(s, 0, sizeof *s);
}

/* ---- curve */

int mem_curve(const struct memory *m, uint16_t dev, const struct mem_window *w, bool step_plot,
	      struct mem_curve *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	size_t n = 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct mem_rec *r = &m->recs[i];
		n += r->has_addr && on_dev(r, dev) && r->total_allocated != INT64_MIN &&
		     r->total_reserved != INT64_MIN && in_window(w, r->ts);
	}
	size_t cap = step_plot && n ? 2 * n - 1 : n;
	out->v = malloc((cap ? cap : 1) * sizeof *out->v);
	if (!out->v)
		return nomem(m, e, "curve");
	for (size_t i = 0; i < m->n; i++) {
		const struct mem_rec *r = &m->recs[i];
		if (!r->has_addr || !on_dev(r, dev) || r->total_allocated == INT64_MIN ||
		    r->total_reserved == INT64_MIN || !in_window(w, r->ts))
			continue;
		int64_t t = r->ts - m->start;
		if (step_plot && out->n) {
			struct mem_point prev = out->v[out->n - 1];
			out->v[out->n++] = (struct mem_point){t, prev.allocated, prev.reserved};
		}
		out->v[out->n++] = (struct mem_point){t, r->total_allocated, r->total_reserved};
	}
	return 0;
}

/* The column of time t: floor((t - t0) * cols / span), in [0, cols). */
static size_t curve_col(int64_t t, int64_t t0, int64_t span, size_t cols)
{
	__int128 k = (__int128)(t - t0) * (__int128)cols / span;
	return k < 0 ? 0 : k >= (__int128)cols ? cols - 1 : (size_t)k;
}

/* Keeps, per column, the indices of its first and last points and of its
 * lowest and highest allocated and reserved values (first occurrences), in
 * index order: every point kept is a point of the curve, and the extremes
 * of every column (so the curve's peaks, at their first time) survive. */
void mem_curve_reduce(struct mem_curve *c, size_t max_points)
{
	if (max_points < MEM_CURVE_KEEP || c->n <= max_points)
		return;
	size_t cols = max_points / MEM_CURVE_KEEP;
	int64_t t0 = c->v[0].time, span = c->v[c->n - 1].time - t0 + 1;
	if (span < 1)
		span = 1;
	size_t out = 0, i = 0;
	while (i < c->n) {
		/* the run of points from i in the column of point i (points are in
		 * time order; a column's bound is never computed on its own, so a
		 * point is always in the column its time gives) */
		size_t k = curve_col(c->v[i].time, t0, span, cols);
		size_t j = i + 1, amin = i, amax = i, rmin = i, rmax = i;
		for (; j < c->n && curve_col(c->v[j].time, t0, span, cols) == k; j++) {
			const struct mem_point *p = &c->v[j];
			amin = p->allocated < c->v[amin].allocated ? j : amin;
			amax = p->allocated > c->v[amax].allocated ? j : amax;
			rmin = p->reserved < c->v[rmin].reserved ? j : rmin;
			rmax = p->reserved > c->v[rmax].reserved ? j : rmax;
		}
		size_t keep[MEM_CURVE_KEEP] = {i, amin, amax, rmin, rmax, j - 1};
		/* in index order, once each (a few values: insertion sort) */
		for (size_t a = 1; a < MEM_CURVE_KEEP; a++)
			for (size_t b = a; b > 0 && keep[b - 1] > keep[b]; b--) {
				size_t x = keep[b];
				keep[b] = keep[b - 1];
				keep[b - 1] = x;
			}
		for (size_t a = 0; a < MEM_CURVE_KEEP; a++)
			if (!a || keep[a] != keep[a - 1])
				c->v[out++] = c->v[keep[a]]; /* keep[a] >= out: in place */
		i = j;
	}
	c->n = out;
}

void mem_curve_free(struct mem_curve *c)
{
	free(c->v);
	memset(c, 0, sizeof *c);
}

/* ---- events */

struct addr_idx {
	uint64_t addr;
	uint32_t i;
};

static int cmp_addr_idx(const void *a, const void *b)
{
	const struct addr_idx *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* A row before its label: class 0 pair (key: the free), 1 unpaired
 * allocation, 2 unpaired free (key: tb's dict position). */
struct pend_row {
	uint32_t cls, key, alloc, release;
};

static int cmp_pend(const void *a, const void *b)
{
	const struct pend_row *x = a, *y = b;
	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

static int text_put(struct mem_events *ev, const char *s, size_t n)
{
	if (ev->text_len + n + 1 > ev->text_cap) {
		size_t cap = ev->text_cap ? ev->text_cap : 256;
		while (cap < ev->text_len + n + 1)
			cap *= 2;
		if (cap > UINT32_MAX)
			return -1;
		char *nt = realloc(ev->text, cap);
		if (!nt)
			return -1;
		ev->text = nt;
		ev->text_cap = cap;
	}
	memcpy(ev->text + ev->text_len, s, n);
	ev->text_len += n;
	ev->text[ev->text_len] = 0;
	return 0;
}

/* tb's get_op_name_or_ctx: the operator, "<unknown>", or for aten::empty*
 * with a parent "{parent} ({name})". Returns the label's offset or -1. */
static long put_label(const struct memory *m, struct mem_events *ev, const struct mem_rec *r)
{
	const struct optree *o = m->o;
	size_t at = ev->text_len;
	const char *name = r->op == MEM_NIL ? "" : optree_name(o, r->op);
	const char *parent = r->parent == MEM_NIL ? "" : optree_name(o, r->parent);
	int rc;
	if (!*name)
		rc = text_put(ev, "<unknown>", 9);
	else if (!strncmp(name, "aten::empty", 11) && *parent)
		rc = text_put(ev, parent, strlen(parent)) || text_put(ev, " (", 2) ||
		     text_put(ev, name, strlen(name)) || text_put(ev, ")", 1);
	else
		rc = text_put(ev, name, strlen(name));
	if (rc)
		return -1;
	ev->text_len++; /* keep the NUL: labels are separate strings */
	return (long)at;
}

/* Pairs the window's records by address (all devices together, as tb). */
static size_t pair_rows(const struct memory *m, const struct addr_idx *v, size_t k,
			struct pend_row *rows)
{
	bool tb = m->opts.tb_compat;
	size_t nr = 0;
	for (size_t j = 0; j < k;) {
		uint64_t addr = v[j].addr;
		uint32_t pending = MEM_NIL, pending_pos = MEM_NIL;
		uint32_t free_first = MEM_NIL, free_last = MEM_NIL;
		for (; j < k && v[j].addr == addr; j++) {
			uint32_t i = v[j].i;
			if (m->recs[i].bytes > 0) {
				if (pending == MEM_NIL)
					pending_pos = i;
				else if (!tb) /* quirk 9: tb forgets the first allocation */
					rows[nr++] =
					    (struct pend_row){1, pending, pending, MEM_NIL};
				pending = i;
				if (!tb)
					pending_pos = i;
			} else if (pending != MEM_NIL) {
				rows[nr++] = (struct pend_row){0, i, pending, i};
				pending = MEM_NIL;
			} else if (tb) {
				/* tb's dict keeps the first position, the last value */
				if (free_first == MEM_NIL)
					free_first = i;
				free_last = i;
			} else {
				rows[nr++] = (struct pend_row){2, i, MEM_NIL, i};
			}
		}
		if (pending != MEM_NIL)
			rows[nr++] = (struct pend_row){1, pending_pos, pending, MEM_NIL};
		if (free_last != MEM_NIL)
			rows[nr++] = (struct pend_row){2, free_first, MEM_NIL, free_last};
	}
	return nr;
}

int mem_events(const struct memory *m, uint16_t dev, const struct mem_window *w,
	       struct mem_events *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	struct addr_idx *v = malloc((m->n ? m->n : 1) * sizeof *v);
	struct pend_row *rows = malloc((m->n ? m->n : 1) * sizeof *rows);
	if (!v || !rows)
		goto fail;
	size_t k = 0;
	for (size_t i = 0; i < m->n; i++)
		if (m->recs[i].has_addr && in_window(w, m->recs[i].ts))
			v[k++] = (struct addr_idx){m->recs[i].addr, (uint32_t)i};
	gp_qsort(v, k, sizeof *v, cmp_addr_idx);
	size_t nr = pair_rows(m, v, k, rows);
	gp_qsort(rows, nr, sizeof *rows, cmp_pend);
	out->v = malloc((nr ? nr : 1) * sizeof *out->v);
	if (!out->v)
		goto fail;
	for (size_t i = 0; i < nr; i++) {
		const struct pend_row *p = &rows[i];
		const struct mem_rec *lab = &m->recs[p->alloc != MEM_NIL ? p->alloc : p->release];
		if (!on_dev(lab, dev))
			continue;
		long at = put_label(m, out, lab);
		if (at < 0)
			goto fail;
		int64_t bytes = p->cls == 1 ? m->recs[p->alloc].bytes : -m->recs[p->release].bytes;
		out->v[out->n++] = (struct mem_event){p->alloc, p->release, bytes, (uint32_t)at};
	}
	free(v);
	free(rows);
	return 0;
fail:
	free(v);
	free(rows);
	mem_events_free(out);
	return nomem(m, e, "events");
}

void mem_events_free(struct mem_events *ev)
{
	free(ev->v);
	free(ev->text);
	memset(ev, 0, sizeof *ev);
}
