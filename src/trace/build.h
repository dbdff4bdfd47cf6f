/* build: the public way to fill a trace (trace.h). Any reader (the Kineto
 * reader, or another format's) starts a builder, interns strings, finds or
 * creates tracks and processes, appends event rows with their argument
 * rows, flows and counters, writes metadata straight into t->meta and the
 * track/process rows, then calls tr_build_finish, which completes the
 * derived parts (wide values sorted, counts, the whole-trace checks).
 *
 * Owns, until finish or abort: the trace being filled and the lookup
 * tables ((pid, tid) -> track, pid -> process, category -> row of t->cats).
 * Depends on core and the rest of trace/ only: no reader.
 */
#ifndef GP_TRACE_BUILD_H
#define GP_TRACE_BUILD_H

#include "core/hmap.h"
#include "core/limits.h"
#include "core/vec.h"
#include "trace/trace.h"

struct tr_build {
	struct trace *t; /* the trace being filled */
	struct hmap tracks, procs;
	uint32_t last_track; /* one-entry cache of tr_build_track */
	uint16_t *cat_slot;  /* category string id -> 1 + row in t->cats, 0 unknown */
	uint8_t *cat_kind;   /* category string id -> enum tr_kind of the category */
	size_t cat_cache_n;
	/* > 0: the reader's estimate of the rows to come, as a multiple of
	 * those read so far (tr_build_plan); a full table grows to it */
	double grow;
};

/* One event row: an X or B event (a duration), or an i instant. */
struct tr_build_event {
	int64_t ts, dur;      /* ns; dur 0 for instants and open B events */
	int64_t ext_id, corr; /* -1 when absent */
	int64_t offset;	      /* byte offset in the input, -1 unknown */
	uint32_t name, cat;   /* string ids; cat is counted in t->cats */
	uint32_t track;	      /* tr_build_track */
	uint32_t aux;	      /* row from tr_build_gpu/mem/op, TR_NONE for none */
	enum tr_kind kind;    /* tr_classify; its argument table: tr_aux_table */
	unsigned char ph;     /* 'X', 'B' or 'i' */
	unsigned flags;	      /* TRF_* */
};

/* A builder over a new empty trace for path; -1 when out of memory. */
int tr_build_begin(struct tr_build *b, const char *path);
/* The finished trace (*out, the caller's), or an error (the trace freed).
 * parallel: the checks may use a second thread. The builder is released
 * either way. */
int tr_build_finish(struct tr_build *b, bool parallel, struct trace **out, struct err *e);
/* Releases the builder and the trace it was filling. */
void tr_build_abort(struct tr_build *b);

/* String id of s (interned once), TR_NONE when out of memory. */
uint32_t tr_build_str(struct tr_build *b, const char *s, size_t len);
/* Process row of pid, created (no name, sort absent) when new. */
uint32_t tr_build_proc(struct tr_build *b, const struct tr_id *pid);
/* Track row of (pid, tid), created with its process when new. TR_NONE when
 * out of memory. */
uint32_t tr_build_track_new(struct tr_build *b, const struct tr_id *pid, const struct tr_id *tid);
static inline uint32_t tr_build_track(struct tr_build *b, const struct tr_id *pid,
				      const struct tr_id *tid)
{
	const struct tr_track *last = b->last_track != TR_NONE ? &b->t->tracks.v[b->last_track] : 0;
	if (last && tr_id_eq(&last->pid, pid) && tr_id_eq(&last->tid, tid))
		return b->last_track; /* consecutive events mostly share a thread */
	return tr_build_track_new(b, pid, tid);
}
/* The row of category cat in t->cats (added when new; TR_NONE past 65534
 * categories) and the kind its text classifies as; -1 out of memory. */
int tr_build_cat_new(struct tr_build *b, uint32_t cat, enum tr_kind *kind, uint32_t *slot);
static inline int tr_build_cat(struct tr_build *b, uint32_t cat, enum tr_kind *kind, uint32_t *slot)
{
	if (cat >= b->cat_cache_n || !b->cat_slot[cat])
		return tr_build_cat_new(b, cat, kind, slot);
	*kind = (enum tr_kind)b->cat_kind[cat];
	*slot = b->cat_slot[cat] - 1u;
	return 0;
}

/* The reader has read `read` of its `total` input bytes (counted alike:
 * compressed or not): a table that fills up from here grows to the rows
 * the rest will likely add (its rows × total / read, and a tenth more)
 * instead of doubling, so that a heap that cannot remap its blocks does
 * not keep each doubling's old block as a hole (the WebAssembly build's).
 * Only from the first 1/64 of the input on, and of 4 MiB, when the rows so
 * far say enough; total <= 0 (unknown) plans nothing. */
static inline void tr_build_plan(struct tr_build *b, int64_t read, int64_t total)
{
	b->grow = 0;
	if (total > 0 && read >= (4 << 20) && read >= total / 64 && read < total) {
		double g = 1.1 * (double)total / (double)read;
		b->grow = g < 64 ? g : 64;
	}
}
/* Rows a table that must hold need rows is given room for (0: doubling). */
static inline size_t tr_build_want(const struct tr_build *b, size_t need)
{
	return b->grow > 0 ? (size_t)((double)need * b->grow) : 0;
}
/* vec_add on one of the trace's tables, growing as tr_build_plan says. */
#define TR_BUILD_ADD(b, x)                                                                         \
	((x).n < (x).cap ||                                                                        \
		 !vec_reserve_to((x), (x).n + 1, tr_build_want((b), (x).n + 1), LIM_TRACE_ROWS)    \
	     ? &(x).v[(x).n++]                                                                     \
	     : NULL)

/* Argument rows (copied); *row = the new row, for tr_build_event's aux.
 * tr_build_op copies x too when it is not NULL (a->extra is then set). */
static inline int tr_build_gpu(struct tr_build *b, const struct tr_gpu_arg *a, uint32_t *row)
{
	struct tr_gpu_arg *g = TR_BUILD_ADD(b, b->t->gpu);
	if (!g)
		return -1;
	*g = *a;
	*row = (uint32_t)b->t->gpu.n - 1;
	return 0;
}
static inline int tr_build_mem(struct tr_build *b, const struct tr_mem_arg *a, uint32_t *row)
{
	struct tr_mem_arg *m = TR_BUILD_ADD(b, b->t->mem);
	if (!m)
		return -1;
	*m = *a;
	*row = (uint32_t)b->t->mem.n - 1;
	return 0;
}
int tr_build_op(struct tr_build *b, const struct tr_op_arg *a, const struct tr_op_extra *x,
		uint32_t *row);

/* A flow row (counted in counts.flows). */
static inline int tr_build_flow(struct tr_build *b, const struct tr_flow *f)
{
	struct tr_flow *d = TR_BUILD_ADD(b, b->t->flows);
	if (!d)
		return -1;
	*d = *f;
	b->t->counts.flows++;
	return 0;
}
/* One counter event: a row per series (name and value), counted once in
 * counts.counters. */
int tr_build_counter(struct tr_build *b, int64_t ts, uint32_t track, uint32_t name, size_t n,
		     const uint32_t *series, const double *values);

/* Stores v for event row r in a narrow column col of t (appending to
 * t->wide when it does not fit in 32 bits); -1 when out of memory. Rows'
 * wide values may arrive in any order: tr_build_finish sorts them. */
int tr_build_wide(struct trace *t, uint32_t *col, size_t r, enum tr_wide_field f, int64_t v);
static inline int tr_build_narrow(struct trace *t, uint32_t *col, size_t r, enum tr_wide_field f,
				  int64_t v)
{
	if (v < 0 || v > TR_NARROW_MAX)
		return tr_build_wide(t, col, r, f, v);
	col[r] = (uint32_t)v;
	return 0;
}
/* Room for n more event rows in every column, and when they must grow, for
 * want rows (0: the next doubling); -1 when out of memory. */
int tr_build_reserve(struct tr_events *ev, size_t n, size_t want);

/* Appends an event row; *row = its index. Counts it by kind, category and
 * track and widens [min_ts, max_end). 0, or ERR_NOMEM / ERR_LIMIT (past
 * LIM_TRACE_ROWS rows) with e filled. Inline: readers call it per event. */
int tr_build_event_fail(struct tr_build *b, const struct tr_build_event *ev, struct err *e);
static inline int tr_build_event(struct tr_build *b, const struct tr_build_event *in, size_t *row,
				 struct err *e)
{
	struct trace *t = b->t;
	struct tr_events *ev = &t->ev;
	enum tr_kind ck;
	uint32_t slot;
	if (ev->n >= LIM_TRACE_ROWS ||
	    (ev->n == ev->cap && tr_build_reserve(ev, 1, tr_build_want(b, ev->n + 1))) ||
	    tr_build_cat(b, in->cat, &ck, &slot))
		return tr_build_event_fail(b, in, e);
	size_t r = ev->n++;
	ev->ts[r] = in->ts;
	if (tr_build_narrow(t, ev->dur, r, TRW_DUR, in->dur) ||
	    tr_build_narrow(t, ev->ext_id, r, TRW_EXT_ID, in->ext_id) ||
	    tr_build_narrow(t, ev->corr, r, TRW_CORR, in->corr))
		return tr_build_event_fail(b, in, e);
	ev->name[r] = in->name;
	ev->track[r] = in->track;
	ev->aux[r] = in->aux;
	ev->offset[r] = in->offset;
	ev->kind[r] = (uint8_t)in->kind;
	ev->ph[r] = in->ph;
	ev->flags[r] = (uint8_t)in->flags;
	if (slot != TR_NONE)
		t->cats[slot].n++;
	t->counts.by_kind[in->kind]++;
	t->tracks.v[in->track].events++;
	if (in->ts < t->min_ts)
		t->min_ts = in->ts;
	if (in->ts + in->dur > t->max_end)
		t->max_end = in->ts + in->dur;
	*row = r;
	return 0;
}

#endif
