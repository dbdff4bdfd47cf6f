/* build: filling a trace through the public builder; see build.h. */
#include "trace/build.h"

#include <stdlib.h>
#include <string.h>

#include "core/limits.h"
#include "core/sort.h"
#include "core/vec.h"
#include "trace/check.h"

int tr_build_begin(struct tr_build *b, const char *path)
{
	*b = (struct tr_build){.last_track = TR_NONE};
	b->t = tr_new(path);
	return b->t ? 0 : -1;
}

static void release(struct tr_build *b)
{
	hmap_free(&b->tracks);
	hmap_free(&b->procs);
	free(b->cat_slot);
	free(b->cat_kind);
	*b = (struct tr_build){.last_track = TR_NONE};
}

void tr_build_abort(struct tr_build *b)
{
	tr_free(b->t);
	release(b);
}

static int wide_cmp(const void *a, const void *b)
{
	const struct tr_wide *x = a, *y = b;
	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	return x->field < y->field ? -1 : x->field > y->field;
}

/* Each table cut to its rows: the doubling's room past them (a quarter of
 * a table on average) goes back to the heap for the analyses. */
static void fit_tables(struct trace *t)
{
	struct tr_events *ev = &t->ev;
	if (ev->n && ev->n < ev->cap) {
		/* a column whose realloc fails keeps more room than cap says */
#define TR_FIT_COL_(type, col)                                                                     \
	do {                                                                                       \
		type *p_ = realloc(ev->col, ev->n * sizeof *p_);                                   \
		if (p_)                                                                            \
			ev->col = p_;                                                              \
	} while (0);
		TR_EVENT_COLUMNS(TR_FIT_COL_)
#undef TR_FIT_COL_
		ev->cap = ev->n;
	}
	vec_fit(t->wide);
	vec_fit(t->gpu);
	vec_fit(t->op);
	vec_fit(t->opx);
	vec_fit(t->mem);
	vec_fit(t->flows);
	vec_fit(t->counters);
}

int tr_build_finish(struct tr_build *b, bool parallel, struct trace **out, struct err *e)
{
	struct trace *t = b->t;
	*out = NULL;
	/* Wide values of B events closed late, and of merged parts, arrive out
	 * of row order. */
	gp_qsort(t->wide.v, t->wide.n, sizeof *t->wide.v, wide_cmp);
	if (!t->counts.events) { /* the reader counted nothing it read: the rows */
		t->counts.events = t->ev.n;
		for (size_t r = 0; r < t->ev.n; r++)
			t->counts.by_phase[t->ev.ph[r] & 127]++;
	}
	fit_tables(t); /* before the checks, whose maps can use the room */
	int rc = tr_check(t, parallel, e);
	if (rc) {
		tr_build_abort(b);
		return rc;
	}
	*out = t;
	b->t = NULL;
	release(b);
	return 0;
}

uint32_t tr_build_str(struct tr_build *b, const char *s, size_t len)
{
	return strpool_intern(&b->t->pool, s, len);
}

static uint64_t id_hash(const struct tr_id *a)
{
	return hmap_mix(a->is_str ? ((uint64_t)a->str | (1ull << 63)) : (uint64_t)a->num);
}

struct id_key {
	const struct trace *t;
	const struct tr_id *pid, *tid;
};

static bool proc_eq(const void *ctx, uint32_t v)
{
	const struct id_key *k = ctx;
	return tr_id_eq(&k->t->procs.v[v].pid, k->pid);
}

static bool track_eq(const void *ctx, uint32_t v)
{
	const struct id_key *k = ctx;
	const struct tr_track *tk = &k->t->tracks.v[v];
	return tr_id_eq(&tk->pid, k->pid) && tr_id_eq(&tk->tid, k->tid);
}

uint32_t tr_build_proc(struct tr_build *b, const struct tr_id *pid)
{
	struct tr_procs *ps = &b->t->procs;
	struct id_key k = {.t = b->t, .pid = pid};
	uint64_t h = id_hash(pid) | 1;
	uint32_t p;
	size_t slot = hmap_slot(&b->procs, h, proc_eq, &k, &p);
	if (slot == SIZE_MAX || p != HMAP_NONE)
		return p;
	struct tr_proc *row = vec_add(*ps, LIM_TRACE_ROWS);
	if (!row)
		return TR_NONE;
	*row = (struct tr_proc){.pid = *pid, .sort = INT64_MIN};
	hmap_set(&b->procs, slot, h, (uint32_t)ps->n - 1);
	return (uint32_t)ps->n - 1;
}

uint32_t tr_build_track_new(struct tr_build *b, const struct tr_id *pid, const struct tr_id *tid)
{
	struct tr_tracks *ts = &b->t->tracks;
	struct id_key k = {.t = b->t, .pid = pid, .tid = tid};
	uint64_t h = (id_hash(pid) * 31 + id_hash(tid)) | 1;
	uint32_t tk;
	size_t slot = hmap_slot(&b->tracks, h, track_eq, &k, &tk);
	if (slot == SIZE_MAX)
		return TR_NONE;
	if (tk != HMAP_NONE)
		return b->last_track = tk;
	uint32_t proc = tr_build_proc(b, pid);
	if (proc == TR_NONE)
		return TR_NONE;
	struct tr_track *row = vec_add(*ts, LIM_TRACE_ROWS);
	if (!row)
		return TR_NONE;
	*row =
	    (struct tr_track){.pid = *pid, .tid = *tid, .thread_sort = INT64_MIN, .process = proc};
	hmap_set(&b->tracks, slot, h, (uint32_t)ts->n - 1);
	return b->last_track = (uint32_t)ts->n - 1;
}

int tr_build_cat_new(struct tr_build *b, uint32_t cat, enum tr_kind *kind, uint32_t *slot)
{
	if (cat >= b->cat_cache_n) {
		size_t n = (size_t)cat + 64;
		uint16_t *s = realloc(b->cat_slot, n * sizeof *s);
		if (!s)
			return -1;
		b->cat_slot = s;
		uint8_t *k = realloc(b->cat_kind, n);
		if (!k)
			return -1;
		b->cat_kind = k;
		memset(s + b->cat_cache_n, 0, (n - b->cat_cache_n) * sizeof *s);
		b->cat_cache_n = n;
	}
	if (!b->cat_slot[cat]) {
		struct trace *t = b->t;
		if (t->ncats >= UINT16_MAX - 1) {
			*kind = TR_OTHER;
			*slot = TR_NONE;
			return 0;
		}
		struct tr_cat_count *c = realloc(t->cats, (t->ncats + 1) * sizeof *c);
		if (!c)
			return -1;
		t->cats = c;
		t->cats[t->ncats] = (struct tr_cat_count){.cat = cat};
		b->cat_slot[cat] = (uint16_t)++t->ncats;
		b->cat_kind[cat] =
		    (uint8_t)tr_classify(tr_str(t, cat), strpool_len(&t->pool, cat), "", 0, 'X');
	}
	*kind = (enum tr_kind)b->cat_kind[cat];
	*slot = b->cat_slot[cat] - 1u;
	return 0;
}

int tr_build_op(struct tr_build *b, const struct tr_op_arg *a, const struct tr_op_extra *x,
		uint32_t *row)
{
	struct trace *t = b->t;
	uint32_t extra = TR_NONE;
	if (x) {
		struct tr_op_extra *d = TR_BUILD_ADD(b, t->opx);
		if (!d)
			return -1;
		*d = *x;
		extra = (uint32_t)t->opx.n - 1;
	}
	struct tr_op_arg *o = TR_BUILD_ADD(b, t->op);
	if (!o)
		return -1;
	*o = *a;
	o->extra = extra;
	*row = (uint32_t)t->op.n - 1;
	return 0;
}

int tr_build_wide(struct trace *t, uint32_t *col, size_t r, enum tr_wide_field f, int64_t v)
{
	if (v == -1) {
		col[r] = TR_NARROW_ABSENT;
		return 0;
	}
	struct tr_wide *w = vec_add(t->wide, SIZE_MAX / sizeof *w);
	if (!w)
		return -1;
	*w = (struct tr_wide){.row = (uint32_t)r, .field = f, .value = v};
	col[r] = TR_NARROW_WIDE;
	return 0;
}

int tr_build_reserve(struct tr_events *ev, size_t more, size_t want)
{
	if (ev->n + more <= ev->cap)
		return 0;
	size_t cap = ev->cap ? ev->cap * 2 : 65536;
	while (cap < ev->n + more)
		cap *= 2;
	if (want)
		cap = vec_planned_cap(ev->cap, ev->n + more, want);
#define TR_GROW_COL_(type, col)                                                                    \
	do {                                                                                       \
		type *p_ = realloc(ev->col, cap * sizeof *p_);                                     \
		if (!p_)                                                                           \
			return -1;                                                                 \
		ev->col = p_;                                                                      \
	} while (0);
	TR_EVENT_COLUMNS(TR_GROW_COL_)
#undef TR_GROW_COL_
	ev->cap = cap;
	return 0;
}

/* Why tr_build_event could not add its row (the table may have grown; the
 * row is not counted). */
int tr_build_event_fail(struct tr_build *b, const struct tr_build_event *in, struct err *e)
{
	if (b->t->ev.n >= LIM_TRACE_ROWS)
		return err_set(e, ERR_LIMIT, b->t->path, in->offset, "more than %u events",
			       LIM_TRACE_ROWS);
	return err_set(e, ERR_NOMEM, b->t->path, -1, "out of memory");
}

int tr_build_counter(struct tr_build *b, int64_t ts, uint32_t track, uint32_t name, size_t n,
		     const uint32_t *series, const double *values)
{
	struct trace *t = b->t;
	t->counts.counters++;
	for (size_t i = 0; i < n; i++) {
		struct tr_counter *c = TR_BUILD_ADD(b, t->counters);
		if (!c)
			return -1;
		*c = (struct tr_counter){.ts = ts,
					 .name = name,
					 .series = series[i],
					 .track = track,
					 .value = values[i]};
	}
	return 0;
}
