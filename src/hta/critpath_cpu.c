/* critpath_cpu: the CPU side of HTA's critical-path graph: the CUDA
 * runtime lock between overlapping runtime calls, and the edges along each
 * CPU thread's call stack (see critpath_int.h). */
#include <stdlib.h>
#include <string.h>

#include "core/radix.h"
#include "core/sort.h"
#include "hta/critpath_int.h"

/* HTA's _shares_cuda_runtime_lock: both lock-taking calls, and not an end
 * followed by a start. */
static bool shares_lock(const struct cp *c, uint32_t a, uint32_t b)
{
	const struct cp_node *x = &c->node[a], *y = &c->node[b];
	return (c->ev[x->ev].flags & CP_F_LOCK) && (c->ev[y->ev].flags & CP_F_LOCK) &&
	       (x->is_start || !y->is_start);
}

int cpb_runtime_lock(struct cpb *b)
{
	struct cp *c = b->c;
	uint32_t *stack = malloc((c->nnode ? c->nnode : 1) * sizeof *stack);
	if (!stack)
		return -1;
	size_t sp = 0;
	uint32_t last = CP_NOEV;
	int rc = 0;
	for (uint32_t i = 0; i < c->nnode && !rc; i++) {
		const struct cp_node *nd = &c->node[i];
		if (!(c->ev[nd->ev].flags & CP_F_LOCK))
			continue;
		if (nd->is_start) {
			stack[sp++] = i;
		} else {
			while (sp && !rc) {
				uint32_t p = stack[--sp];
				bool same = c->node[p].ev == nd->ev;
				size_t e =
				    cpb_edge(b, p, i, same ? CP_OPERATOR : CP_DEPENDENCY, false);
				if (e == SIZE_MAX)
					rc = -1;
				else if (same)
					cpb_attribute(b, e, c->ev[nd->ev].row);
			}
			if (!rc && last != CP_NOEV && !c->node[last].is_start &&
			    cpb_edge(b, last, i, CP_DEPENDENCY, false) == SIZE_MAX)
				rc = -1;
		}
		last = i;
	}
	free(stack);
	return rc;
}

/* One start or end of a CPU event of a thread, for HTA's call-stack order. */
struct stk_item {
	int64_t time, dur;
	uint32_t row, idx; /* idx: the event's place in the thread's list */
	bool start;
};

/* HTA's compare_events for events of positive duration: by time; an end
 * before a start; starts the longer first, then by row; ends the shorter
 * first, then the later row first. */
static int item_cmp(const void *pa, const void *pb)
{
	const struct stk_item *a = pa, *x = pb;
	if (a->time != x->time)
		return a->time < x->time ? -1 : 1;
	if (a->start != x->start)
		return a->start ? 1 : -1;
	if (a->dur != x->dur)
		return (a->start ? a->dur > x->dur : a->dur < x->dur) ? -1 : 1;
	if (a->row != x->row)
		return (a->start ? a->row < x->row : a->row > x->row) ? -1 : 1;
	return 0;
}

/* The items in item_cmp's order: a stable radix sort by time, then
 * item_cmp within each run of equal times (few and short: the events of a
 * thread seldom start or end at the same nanosecond). item_cmp is a total
 * order (start and row tell any two items apart), so this is its sort. */
static int sort_items(struct stk_item *v, size_t n)
{
	static const struct rx_key by_time[] = {RX_KEY(struct stk_item, time, RX_I64)};
	if (rx_sort(v, n, sizeof *v, by_time, 1))
		return -1;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && v[j].time == v[i].time)
			j++;
		gp_qsort(v + i, j - i, sizeof *v, item_cmp);
		i = j;
	}
	return 0;
}

/* The thread's tree: parent, children in order (first/next). */
struct stk {
	uint32_t *rows, *parent, *first, *last, *next;
	struct stk_item *items;
	uint32_t *stack;
};

struct walk {
	uint32_t last;	      /* last node, CP_NOEV */
	uint32_t last_parent; /* the row of the parent of last's event, CP_NOEV */
	long depth;
};

#define STK_ROOT UINT32_MAX

static int enter(struct cpb *b, struct walk *w, uint32_t row, uint32_t parent_row)
{
	const struct cp_ev *x = cpb_ev(b, row);
	if (!x)
		return 0;
	if (w->last != CP_NOEV && !shares_lock(b->c, w->last, x->start)) {
		size_t e =
		    cpb_edge(b, w->last, x->start, w->depth ? CP_OPERATOR : CP_DEPENDENCY, false);
		if (e == SIZE_MAX)
			return -1;
		cpb_attribute(b, e, w->last_parent);
	}
	w->last = x->start;
	w->last_parent = parent_row;
	w->depth++;
	return 0;
}

static int leave(struct cpb *b, struct walk *w, uint32_t row, uint32_t parent_row)
{
	const struct cp_ev *x = cpb_ev(b, row);
	if (!x)
		return 0;
	if (w->last != CP_NOEV && !shares_lock(b->c, w->last, x->end)) {
		size_t e = cpb_edge(b, w->last, x->end, CP_OPERATOR, x->flags & CP_F_BLOCKING);
		if (e == SIZE_MAX)
			return -1;
		cpb_attribute(b, e, w->last_parent);
	}
	w->last = x->end;
	w->last_parent = parent_row;
	w->depth--;
	return 0;
}

/* One thread's stack (rows in row order): HTA's CallStackGraph built from
 * the sorted starts and ends (a start's parent is the top of the stack, an
 * end pops the top), then its depth-first walk. */
static int thread_walk(struct cpb *b, struct stk *s, const uint32_t *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int64_t ts, te;
		cpb_times(b, rows[i], &ts, &te);
		int64_t d = te - ts > 0 ? te - ts : 0;
		s->items[2 * i] = (struct stk_item){ts, d, rows[i], (uint32_t)i, true};
		s->items[2 * i + 1] = (struct stk_item){ts + d, d, rows[i], (uint32_t)i, false};
		s->parent[i] = s->first[i] = s->last[i] = s->next[i] = STK_ROOT;
	}
	if (sort_items(s->items, 2 * n))
		return -1;
	uint32_t rfirst = STK_ROOT, rlast = STK_ROOT;
	size_t sp = 0;
	for (size_t k = 0; k < 2 * n; k++) {
		const struct stk_item *it = &s->items[k];
		if (!it->start) {
			sp -= sp > 0;
			continue;
		}
		uint32_t p = sp ? s->stack[sp - 1] : STK_ROOT;
		s->parent[it->idx] = p;
		uint32_t *first = p == STK_ROOT ? &rfirst : &s->first[p];
		uint32_t *last = p == STK_ROOT ? &rlast : &s->last[p];
		if (*first == STK_ROOT)
			*first = it->idx;
		else
			s->next[*last] = it->idx;
		*last = it->idx;
		s->stack[sp++] = it->idx;
	}
	/* the walk, iteratively: stack[] holds the path from the root */
	struct walk w = {.last = CP_NOEV, .last_parent = CP_NOEV};
	sp = 0;
	uint32_t cur = rfirst;
	while (cur != STK_ROOT || sp) {
		if (cur != STK_ROOT) {
			uint32_t p = s->parent[cur];
			if (enter(b, &w, rows[cur], p == STK_ROOT ? CP_NOEV : rows[p]))
				return -1;
			s->stack[sp++] = cur;
			cur = s->first[cur];
			continue;
		}
		uint32_t done = s->stack[--sp];
		uint32_t p = s->parent[done];
		if (leave(b, &w, rows[done], p == STK_ROOT ? CP_NOEV : rows[p]))
			return -1;
		cur = s->next[done];
	}
	return 0;
}

/* The one thread id (tid) of the clip's cpu_op / user_annotation events
 * whose name holds sub, or -1 (none or several). */
static int64_t tid_of(const struct cpb *b, const char *sub, const struct tr_id **out)
{
	const struct trace *t = b->t;
	const struct tr_id *one = NULL;
	uint8_t *memo = calloc(t->pool.n ? t->pool.n : 1, 1); /* NULL: searched each time */
	int64_t rc = 0;
	for (size_t r = 0; r < t->ev.n && !rc; r++) {
		enum tr_kind k = (enum tr_kind)t->ev.kind[r];
		if (!(b->rowf[r] & CPR_CLIP) || (k != TR_CPU_OP && k != TR_USER_ANNOTATION) ||
		    !cpb_str_has(t, t->ev.name[r], sub, memo))
			continue;
		const struct tr_id *tid = &t->tracks.v[t->ev.track[r]].tid;
		if (!one)
			one = tid;
		else if (!tr_id_eq(one, tid))
			rc = -1;
	}
	free(memo);
	*out = one;
	return !rc && one ? 0 : -1;
}

static int id_cmp(const struct tr_id *a, const struct tr_id *b)
{
	if (a->is_str != b->is_str)
		return a->is_str ? 1 : -1;
	if (a->is_str)
		return a->str < b->str ? -1 : a->str > b->str;
	return a->num < b->num ? -1 : a->num > b->num;
}

struct grp_ctx {
	const struct trace *t;
	const uint32_t *group;	       /* per track: its group's first track */
	const struct tr_id *fwd, *bwd; /* the backward thread merged into the forward one */
};

/* A track's tid as HTA's call graph has it: the backward thread's is the
 * forward thread's when each is one thread and they differ. */
static const struct tr_id *grp_tid(const struct grp_ctx *g, size_t track)
{
	const struct tr_id *tid = &g->t->tracks.v[track].tid;
	return g->bwd && tr_id_eq(tid, g->bwd) ? g->fwd : tid;
}

/* The group (pid, tid) of each track, named by its first track. */
static void groups(const struct cpb *b, struct grp_ctx *g, uint32_t *group)
{
	const struct trace *t = b->t;
	const struct tr_id *fwd = NULL, *bwd = NULL;
	if (!tid_of(b, "forward", &fwd) && !tid_of(b, "autograd", &bwd) && !tr_id_eq(fwd, bwd)) {
		g->fwd = fwd;
		g->bwd = bwd;
	}
	for (size_t i = 0; i < t->tracks.n; i++) {
		group[i] = (uint32_t)i;
		for (size_t j = 0; j < i; j++)
			if (tr_id_eq(&t->tracks.v[i].pid, &t->tracks.v[j].pid) &&
			    tr_id_eq(grp_tid(g, i), grp_tid(g, j))) {
				group[i] = group[j];
				break;
			}
	}
}

/* Groups (their first tracks) in HTA's groupby order: pid, then tid. */
static int grp_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct grp_ctx *g = ctx;
	uint32_t a = *(const uint32_t *)pa, x = *(const uint32_t *)pb;
	int c = id_cmp(&g->t->tracks.v[a].pid, &g->t->tracks.v[x].pid);
	return c ? c : id_cmp(grp_tid(g, a), grp_tid(g, x));
}

/* The clip's rows by group in HTA's groupby order, then by row: the
 * groups (a few) sorted, then a counting sort of the rows by their
 * group's place, which keeps row order within a group. rank and at have
 * room for a value per track. */
static void order_rows(const struct cpb *b, struct grp_ctx *gc, uint32_t *rank, size_t *at,
		       uint32_t *rows)
{
	const struct trace *t = b->t;
	size_t ng = 0;
	for (size_t i = 0; i < t->tracks.n; i++)
		if (gc->group[i] == i)
			rank[ng++] = (uint32_t)i;
	gp_qsort_r(rank, ng, sizeof *rank, grp_cmp, gc);
	for (size_t k = 0; k < ng; k++)
		at[rank[k]] = k; /* a group's place, by its first track */
	for (size_t i = 0; i < t->tracks.n; i++)
		rank[i] = (uint32_t)at[gc->group[i]];
	memset(at, 0, (ng + 1) * sizeof *at);
	for (size_t r = 0; r < t->ev.n; r++)
		if (b->rowf[r] & CPR_CLIP)
			at[rank[t->ev.track[r]] + 1]++;
	for (size_t k = 0; k < ng; k++)
		at[k + 1] += at[k];
	for (size_t r = 0; r < t->ev.n; r++)
		if (b->rowf[r] & CPR_CLIP)
			rows[at[rank[t->ev.track[r]]]++] = (uint32_t)r;
}

int cpb_call_stacks(struct cpb *b)
{
	const struct trace *t = b->t;
	size_t n = 0;
	for (size_t r = 0; r < t->ev.n; r++)
		n += (b->rowf[r] & CPR_CLIP) != 0;
	size_t nt = t->tracks.n ? t->tracks.n : 1;
	uint32_t *group = malloc(nt * sizeof *group), *rank = malloc(nt * sizeof *rank);
	size_t *at = malloc((nt + 1) * sizeof *at);
	uint32_t *rows = malloc((n ? n : 1) * sizeof *rows);
	struct stk s = {0};
	size_t m = n ? n : 1;
	s.parent = malloc(m * sizeof *s.parent);
	s.first = malloc(m * sizeof *s.first);
	s.last = malloc(m * sizeof *s.last);
	s.next = malloc(m * sizeof *s.next);
	s.stack = malloc(m * sizeof *s.stack);
	s.items = malloc(2 * m * sizeof *s.items);
	int rc = -1;
	if (!group || !rank || !at || !rows || !s.parent || !s.first || !s.last || !s.next ||
	    !s.stack || !s.items)
		goto out;
	struct grp_ctx gc = {.t = t, .group = group};
	groups(b, &gc, group);
	order_rows(b, &gc, rank, at, rows);
	rc = 0;
	for (size_t i = 0; i < n && !rc;) {
		uint32_t g = group[t->ev.track[rows[i]]];
		size_t j = i;
		bool cpu = true;
		for (; j < n && group[t->ev.track[rows[j]]] == g; j++)
			cpu = cpu && cpb_stream(b, rows[j]) < 0;
		if (cpu)
			rc = thread_walk(b, &s, rows + i, j - i);
		i = j;
	}
out:
	free(group);
	free(rank);
	free(at);
	free(rows);
	free(s.parent);
	free(s.first);
	free(s.last);
	free(s.next);
	free(s.stack);
	free(s.items);
	return rc;
}
