/* import_commit: stores one read event into the trace tables, keeps the
 * (pid, tid) track map and B/E pairing; see import_internal.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/limits.h"
#include "core/vec.h"
#include "kineto/import_internal.h"

enum { NAME_VALID = 0x80, NAME_KERNEL_RULES = 0x40 };

static int nomem(struct imp *m)
{
	err_set(m->e, ERR_NOMEM, m->t->path, -1, "out of memory");
	return JS_ERR;
}

/* Grows every column of the events table together. */
int imp_events_reserve(struct tr_events *ev, size_t more)
{
	if (ev->n + more <= ev->cap)
		return 0;
	size_t cap = ev->cap ? ev->cap * 2 : 65536;
	while (cap < ev->n + more)
		cap *= 2;
#define GROW(col)                                                                                  \
	do {                                                                                       \
		void *p_ = realloc(ev->col, cap * sizeof *ev->col);                                \
		if (!p_)                                                                           \
			return -1;                                                                 \
		ev->col = p_;                                                                      \
	} while (0)
	GROW(ts);
	GROW(dur);
	GROW(name);
	GROW(track);
	GROW(aux);
	GROW(ext_id);
	GROW(corr);
	GROW(offset);
	GROW(kind);
	GROW(ph);
	GROW(flags);
#undef GROW
	ev->cap = cap;
	return 0;
}

/* Room for one more row in a {n, cap, v} table. */
#define ROW(tab)                                                                                   \
	((tab).n < (tab).cap || !vec_reserve_((void **)&(tab).v, &(tab).cap, (tab).n + 1,          \
					      sizeof *(tab).v, SIZE_MAX / 2)                       \
	     ? &(tab).v[(tab).n++]                                                                 \
	     : NULL)

int imp_narrow(struct trace *t, uint32_t *col, size_t r, enum tr_wide_field f, int64_t v)
{
	if (v >= 0 && v <= TR_NARROW_MAX) {
		col[r] = (uint32_t)v;
		return 0;
	}
	if (v == -1) {
		col[r] = TR_NARROW_ABSENT;
		return 0;
	}
	struct tr_wide *w = ROW(t->wide);
	if (!w)
		return -1;
	*w = (struct tr_wide){.row = (uint32_t)r, .field = f, .value = v};
	col[r] = TR_NARROW_WIDE;
	return 0;
}

uint32_t imp_intern(struct imp *m, const struct jstr *s)
{
	if (!s->escaped)
		return strpool_intern(&m->t->pool, s->s, s->len);
	if (s->len > m->scratch_cap) {
		char *p = realloc(m->scratch, s->len);
		if (!p)
			return TR_NONE;
		m->scratch = p;
		m->scratch_cap = s->len;
	}
	long n = jscan_unescape(s, m->scratch, m->scratch_cap);
	if (n < 0) /* invalid escape: keep the text as written */
		return strpool_intern(&m->t->pool, s->s, s->len);
	return strpool_intern(&m->t->pool, m->scratch, (size_t)n);
}

static uint64_t id_hash(const struct tr_id *a)
{
	uint64_t x = a->is_str ? ((uint64_t)a->str | (1ull << 63)) : (uint64_t)a->num;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

static bool id_eq(const struct tr_id *a, const struct tr_id *b)
{
	return a->is_str == b->is_str && (a->is_str ? a->str == b->str : a->num == b->num);
}

/* Doubles an open-addressing table of 1+row entries, rehashing with key(). */
static int slots_grow(uint32_t **slots, uint32_t *mask, size_t n,
		      uint64_t (*key)(const struct imp *, uint32_t), const struct imp *m)
{
	uint32_t nsize = *slots ? (*mask + 1) * 2 : 1024;
	if ((uint64_t)n * 2 < nsize && *slots)
		return 0;
	uint32_t *s = calloc(nsize, sizeof *s);
	if (!s)
		return -1;
	for (uint32_t r = 0; r < n; r++) {
		uint32_t i = (uint32_t)key(m, r) & (nsize - 1);
		while (s[i])
			i = (i + 1) & (nsize - 1);
		s[i] = r + 1;
	}
	free(*slots);
	*slots = s;
	*mask = nsize - 1;
	return 0;
}

static uint64_t track_key(const struct imp *m, uint32_t r)
{
	const struct tr_track *tk = &m->t->tracks.v[r];
	return id_hash(&tk->pid) * 31 + id_hash(&tk->tid);
}

static uint64_t proc_key(const struct imp *m, uint32_t r)
{
	return id_hash(&m->t->procs.v[r].pid);
}

uint32_t imp_proc(struct imp *m, const struct tr_id *pid)
{
	struct tr_procs *ps = &m->t->procs;
	if (!m->proc_slots || (uint64_t)(ps->n + 1) * 2 > (uint64_t)m->proc_mask + 1)
		if (slots_grow(&m->proc_slots, &m->proc_mask, ps->n, proc_key, m))
			return TR_NONE;
	uint32_t i = (uint32_t)id_hash(pid) & m->proc_mask;
	for (; m->proc_slots[i]; i = (i + 1) & m->proc_mask)
		if (id_eq(&ps->v[m->proc_slots[i] - 1].pid, pid))
			return m->proc_slots[i] - 1;
	struct tr_proc *p = ROW(*ps);
	if (!p)
		return TR_NONE;
	*p = (struct tr_proc){.pid = *pid, .sort = INT64_MIN};
	m->proc_slots[i] = (uint32_t)ps->n;
	return (uint32_t)ps->n - 1;
}

uint32_t imp_track(struct imp *m, const struct tr_id *pid, const struct tr_id *tid)
{
	struct tr_tracks *ts = &m->t->tracks;
	if (m->last_track != TR_NONE && id_eq(&ts->v[m->last_track].pid, pid) &&
	    id_eq(&ts->v[m->last_track].tid, tid))
		return m->last_track;
	if (!m->track_slots || (uint64_t)(ts->n + 1) * 2 > (uint64_t)m->track_mask + 1)
		if (slots_grow(&m->track_slots, &m->track_mask, ts->n, track_key, m))
			return TR_NONE;
	uint32_t i = (uint32_t)(id_hash(pid) * 31 + id_hash(tid)) & m->track_mask;
	for (; m->track_slots[i]; i = (i + 1) & m->track_mask) {
		const struct tr_track *tk = &ts->v[m->track_slots[i] - 1];
		if (id_eq(&tk->pid, pid) && id_eq(&tk->tid, tid))
			return m->last_track = m->track_slots[i] - 1;
	}
	uint32_t proc = imp_proc(m, pid);
	if (proc == TR_NONE)
		return TR_NONE;
	size_t old_cap = ts->cap;
	struct tr_track *tk = ROW(*ts);
	if (!tk)
		return TR_NONE;
	if (ts->cap != old_cap) {
		uint32_t *ob = realloc(m->open_b, ts->cap * sizeof *ob);
		if (!ob)
			return TR_NONE;
		m->open_b = ob;
	}
	*tk =
	    (struct tr_track){.pid = *pid, .tid = *tid, .thread_sort = INT64_MIN, .process = proc};
	m->open_b[ts->n - 1] = TR_NONE;
	m->track_slots[i] = (uint32_t)ts->n;
	return m->last_track = (uint32_t)ts->n - 1;
}

/* Kind of a category (cached per category string id). */
int imp_cat(struct imp *m, uint32_t cat, enum tr_kind *kind, uint32_t *slot)
{
	if (cat >= m->cat_cache_n) {
		size_t n = (size_t)cat + 64;
		uint16_t *s = realloc(m->cat_slot, n * sizeof *s);
		if (!s)
			return -1;
		m->cat_slot = s;
		uint8_t *k = realloc(m->cat_kind, n);
		if (!k)
			return -1;
		m->cat_kind = k;
		memset(s + m->cat_cache_n, 0, (n - m->cat_cache_n) * sizeof *s);
		m->cat_cache_n = n;
	}
	if (!m->cat_slot[cat]) {
		struct trace *t = m->t;
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
		m->cat_slot[cat] = (uint16_t)++t->ncats;
		m->cat_kind[cat] =
		    (uint8_t)tr_classify(tr_str(t, cat), strpool_len(&t->pool, cat), "", 0, 'X');
	}
	*kind = (enum tr_kind)m->cat_kind[cat];
	*slot = m->cat_slot[cat] - 1u;
	return 0;
}

/* Name-derived flags for kind k (cached per name id). */
static unsigned name_flags(struct imp *m, uint32_t name, enum tr_kind k)
{
	unsigned rules;
	if (k == TR_KERNEL)
		rules = NAME_KERNEL_RULES;
	else if (k == TR_CPU_OP || k == TR_USER_ANNOTATION || k == TR_GPU_USER_ANNOTATION)
		rules = 0;
	else
		return 0;
	if (name >= m->name_cache_n) {
		size_t n = (size_t)name + 1024 + m->name_cache_n / 2;
		uint8_t *c = realloc(m->name_flags, n);
		if (!c)
			return tr_name_flags(k, tr_str(m->t, name), strpool_len(&m->t->pool, name));
		memset(c + m->name_cache_n, 0, n - m->name_cache_n);
		m->name_flags = c;
		m->name_cache_n = n;
	}
	uint8_t c = m->name_flags[name];
	if ((c & NAME_VALID) && (c & NAME_KERNEL_RULES) == rules)
		return c & 0x3F;
	unsigned f = tr_name_flags(k, tr_str(m->t, name), strpool_len(&m->t->pool, name));
	m->name_flags[name] = (uint8_t)(NAME_VALID | rules | (f & 0x3F));
	return f;
}

static bool has_op_extra(const struct imp_args *a)
{
	return a->collective.len || a->dtype.len || a->pg_name.len || a->pg_ranks.len ||
	       a->in_nelems >= 0 || a->out_nelems >= 0 || a->group_size >= 0 || a->module_id >= 0;
}

static bool has_op_args(const struct imp_args *a)
{
	return a->input_dims.len || a->input_type.len || a->call_stack.len || a->seq >= 0 ||
	       a->fwd_tid >= 0 || a->python_id >= 0 || a->python_parent >= 0 || has_op_extra(a);
}

/* Interns the strings in src[] into dst[] (0 for absent); -1 on failure. */
static int intern_all(struct imp *m, const struct jstr *const *src, uint32_t *const *dst, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		*dst[i] = src[i]->len ? imp_intern(m, src[i]) : 0;
		if (*dst[i] == TR_NONE)
			return -1;
	}
	return 0;
}

static int32_t i32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX ? (int32_t)v : -1;
}

/* Kind-specific argument row; *aux = its row or TR_NONE. */
static int store_aux(struct imp *m, enum tr_kind kind, const struct imp_args *a, uint32_t *aux)
{
	struct trace *t = m->t;
	*aux = TR_NONE;
	if (tr_is_device(kind)) {
		struct tr_gpu_arg *g = ROW(t->gpu);
		if (!g)
			return -1;
		*g = (struct tr_gpu_arg){.device = i32(a->device),
					 .stream = i32(a->stream),
					 .regs = i32(a->regs),
					 .shared_mem = i32(a->shared_mem),
					 .bytes = a->bytes,
					 .blocks_per_sm = a->blocks_per_sm,
					 .warps_per_sm = a->warps_per_sm,
					 .occupancy = a->occupancy};
		memcpy(g->grid, a->grid, sizeof g->grid);
		memcpy(g->block, a->block, sizeof g->block);
		*aux = (uint32_t)t->gpu.n - 1;
	} else if (kind == TR_MEMORY) {
		struct tr_mem_arg *mm = ROW(t->mem);
		if (!mm)
			return -1;
		*mm = (struct tr_mem_arg){.bytes = a->mem_bytes,
					  .total_allocated = a->total_alloc,
					  .total_reserved = a->total_reserved,
					  .addr = (uint64_t)a->addr,
					  .device_type = i32(a->dev_type),
					  .device_id = i32(a->dev_id)};
		*aux = (uint32_t)t->mem.n - 1;
	} else if (has_op_args(a)) {
		uint32_t extra = TR_NONE;
		if (has_op_extra(a)) {
			struct tr_op_extra *x = ROW(t->opx);
			if (!x)
				return -1;
			*x = (struct tr_op_extra){.in_nelems = a->in_nelems,
						  .out_nelems = a->out_nelems,
						  .group_size = a->group_size,
						  .module_id = a->module_id};
			const struct jstr *const src[] = {&a->collective, &a->dtype, &a->pg_name,
							  &a->pg_ranks};
			uint32_t *const dst[] = {&x->collective, &x->dtype, &x->pg_name,
						 &x->pg_ranks};
			if (intern_all(m, src, dst, 4))
				return -1;
			extra = (uint32_t)t->opx.n - 1;
		}
		struct tr_op_arg *o = ROW(t->op);
		if (!o)
			return -1;
		*o = (struct tr_op_arg){.extra = extra};
		if (kind == TR_PYTHON_FUNCTION) {
			o->python_id = a->python_id;
			o->python_parent = a->python_parent;
		} else {
			o->seq = a->seq;
			o->fwd_tid = a->fwd_tid;
		}
		const struct jstr *const src[] = {&a->input_dims, &a->input_type, &a->call_stack};
		uint32_t *const dst[] = {&o->input_dims, &o->input_type, &o->call_stack};
		if (intern_all(m, src, dst, 3))
			return -1;
		*aux = (uint32_t)t->op.n - 1;
	}
	return 0;
}

static int commit_metadata(struct imp *m, struct imp_event *ev)
{
	struct trace *t = m->t;
	t->counts.metadata++;
	struct tr_id none = {0};
	const struct tr_id *pid = ev->has_pid ? &ev->pid : &none;
	const struct jstr *n = &ev->name;
	uint32_t val = 0;
	if (ev->a.m_name.len && (val = imp_intern(m, &ev->a.m_name)) == TR_NONE)
		return nomem(m);
	if (n->len == 12 && !memcmp(n->s, "process_name", 12)) {
		uint32_t p = imp_proc(m, pid);
		if (p == TR_NONE)
			return nomem(m);
		t->procs.v[p].name = val;
	} else if (n->len == 14 && !memcmp(n->s, "process_labels", 14)) {
		uint32_t p = imp_proc(m, pid);
		uint32_t lab = ev->a.labels.len ? imp_intern(m, &ev->a.labels) : 0;
		if (p == TR_NONE || lab == TR_NONE)
			return nomem(m);
		t->procs.v[p].labels = lab;
	} else if (n->len == 18 && !memcmp(n->s, "process_sort_index", 18)) {
		uint32_t p = imp_proc(m, pid);
		if (p == TR_NONE)
			return nomem(m);
		t->procs.v[p].sort = ev->a.sort_index;
	} else if ((n->len == 11 && !memcmp(n->s, "thread_name", 11)) ||
		   (n->len == 17 && !memcmp(n->s, "thread_sort_index", 17))) {
		uint32_t tk = imp_track(m, pid, ev->has_tid ? &ev->tid : &none);
		if (tk == TR_NONE)
			return nomem(m);
		if (n->s[7] == 'n')
			t->tracks.v[tk].thread_name = val;
		else
			t->tracks.v[tk].thread_sort = ev->a.sort_index;
	}
	return JS_OK;
}

static int commit_counter(struct imp *m, struct imp_event *ev, uint32_t track)
{
	struct trace *t = m->t;
	uint32_t name = imp_intern(m, &ev->name);
	if (name == TR_NONE)
		return nomem(m);
	t->counts.counters++;
	for (int i = 0; i < ev->a.nseries; i++) {
		struct tr_counter *c = ROW(t->counters);
		uint32_t s = imp_intern(m, &ev->a.series_key[i]);
		if (!c || s == TR_NONE)
			return nomem(m);
		*c = (struct tr_counter){.ts = ev->ts,
					 .name = name,
					 .series = s,
					 .track = track,
					 .value = ev->a.series_val[i]};
	}
	return JS_OK;
}

static int commit_flow(struct imp *m, struct imp_event *ev, char ph, uint32_t track)
{
	struct trace *t = m->t;
	struct tr_flow *f = ROW(t->flows);
	uint32_t cat = imp_intern(m, &ev->cat), name = imp_intern(m, &ev->name);
	if (!f || cat == TR_NONE || name == TR_NONE)
		return nomem(m);
	*f = (struct tr_flow){.ts = ev->ts,
			      .id = ev->id,
			      .offset = ev->off,
			      .cat = cat,
			      .name = name,
			      .track = track,
			      .ph = (uint8_t)ph,
			      .bp_e = ev->bp_e};
	t->counts.flows++;
	return JS_OK;
}

/* B/E: E closes the newest open B of its track. */
int imp_end_b(struct imp *m, int64_t ts, uint32_t track, int64_t off)
{
	struct trace *t = m->t;
	uint32_t top = m->open_b[track];
	if (top == TR_NONE) {
		if (m->defer_e) {
			if (m->npend == m->pend_cap) {
				size_t ncap = m->pend_cap ? m->pend_cap * 2 : 64;
				struct imp_pending_e *p = realloc(m->pend, ncap * sizeof *p);
				if (!p)
					return nomem(m);
				m->pend = p;
				m->pend_cap = ncap;
			}
			m->pend[m->npend++] =
			    (struct imp_pending_e){.ts = ts, .off = off, .track = track};
			return JS_OK;
		}
		tr_anomaly_add(&t->anomalies, AN_UNMATCHED_E, off);
		return JS_OK;
	}
	m->open_b[track] = m->b_prev[top];
	int64_t dur = ts - t->ev.ts[top];
	if (imp_narrow(t, t->ev.dur, top, TRW_DUR, dur))
		return nomem(m);
	t->ev.flags[top] &= (uint8_t)~TRF_UNMATCHED;
	if (dur == 0)
		tr_anomaly_add(&t->anomalies, AN_ZERO_DUR, t->ev.offset[top]);
	else if (dur < 0)
		tr_anomaly_add(&t->anomalies, AN_NEGATIVE_DUR, off);
	if (ts > t->max_end)
		t->max_end = ts;
	return JS_OK;
}

int imp_b_prev_reserve(struct imp *m, size_t r)
{
	if (r < m->b_prev_cap)
		return 0;
	size_t ncap = m->b_prev_cap ? m->b_prev_cap * 2 : 1024;
	while (ncap <= r)
		ncap *= 2;
	uint32_t *p = realloc(m->b_prev, ncap * sizeof *p);
	if (!p)
		return -1;
	m->b_prev = p;
	m->b_prev_cap = ncap;
	return 0;
}

int imp_commit(struct imp *m, struct imp_event *ev, unsigned prob)
{
	struct trace *t = m->t;
	struct tr_anomalies *an = &t->anomalies;
	t->counts.events++;
	if (prob & EVP_BAD_NUMBER)
		tr_anomaly_add(an, AN_BAD_NUMBER, ev->off);
	if (prob & EVP_BAD_FIELD)
		tr_anomaly_add(an, AN_BAD_FIELD, ev->off);
	if (!ev->has_ph) {
		tr_anomaly_add(an, AN_MISSING_PH, ev->off);
		return JS_OK;
	}
	unsigned char ph = ev->ph.len == 1 ? (unsigned char)ev->ph.s[0] : 0;
	if (ph && ph < 128)
		t->counts.by_phase[ph]++;
	else
		t->counts.other_phase++;
	if (ph == 'M')
		return commit_metadata(m, ev);
	bool timed = ph == 'X' || ph == 'B' || ph == 'E' || ph == 'i' || ph == 'I' || ph == 'C' ||
		     ph == 's' || ph == 't' || ph == 'f';
	if (!timed) {
		t->counts.ignored_phase++;
		return JS_OK;
	}
	if (!ev->has_ts) {
		tr_anomaly_add(an, AN_MISSING_TS, ev->off);
		return JS_OK;
	}
	if (ev->ts == 0)
		tr_anomaly_add(an, AN_ZERO_TS, ev->off);
	struct tr_id none = {0};
	uint32_t track =
	    imp_track(m, ev->has_pid ? &ev->pid : &none, ev->has_tid ? &ev->tid : &none);
	if (track == TR_NONE)
		return nomem(m);
	if (ph == 'C')
		return commit_counter(m, ev, track);
	if (ph == 's' || ph == 't' || ph == 'f')
		return commit_flow(m, ev, (char)ph, track);
	if (ph == 'E')
		return imp_end_b(m, ev->ts, track, ev->off);

	/* X, B, i, I: a row of the events table. */
	/* Categories repeat from one event to the next: compare before hashing. */
	uint32_t cat;
	if (m->last_cat.s && ev->cat.len == m->last_cat.len && !ev->cat.escaped &&
	    !memcmp(ev->cat.s, tr_str(t, m->last_cat_id), ev->cat.len)) {
		cat = m->last_cat_id;
	} else {
		cat = imp_intern(m, &ev->cat);
		m->last_cat = ev->cat;
		m->last_cat_id = cat;
	}
	uint32_t name = imp_intern(m, &ev->name), slot;
	enum tr_kind kind;
	if (cat == TR_NONE || name == TR_NONE || imp_cat(m, cat, &kind, &slot))
		return nomem(m);
	bool instant = ph == 'i' || ph == 'I';
	if (instant)
		kind = tr_classify(ev->cat.s, ev->cat.len, ev->name.s, ev->name.len, (char)ph);
	unsigned flags = name_flags(m, name, kind);
	if (kind == TR_PYTHON_FUNCTION && ev->a.module_id >= 0)
		flags |= TRF_MODULE;
	int64_t dur = 0;
	if (ph == 'X') {
		if (!ev->has_dur)
			tr_anomaly_add(an, AN_MISSING_DUR, ev->off);
		else if (ev->dur == 0)
			tr_anomaly_add(an, AN_ZERO_DUR, ev->off);
		else if (ev->dur < 0)
			tr_anomaly_add(an, AN_NEGATIVE_DUR, ev->off);
		dur = ev->has_dur ? ev->dur : 0;
	} else if (ph == 'B') {
		flags |= TRF_FROM_BE | TRF_UNMATCHED;
	}
	uint32_t aux;
	if (store_aux(m, kind, &ev->a, &aux))
		return nomem(m);
	struct tr_events *e = &t->ev;
	if (e->n >= LIM_TRACE_ROWS) {
		err_set(m->e, ERR_LIMIT, t->path, ev->off, "more than %u events", LIM_TRACE_ROWS);
		return JS_ERR;
	}
	if (e->n == e->cap && imp_events_reserve(e, 1))
		return nomem(m);
	size_t r = e->n++;
	e->ts[r] = ev->ts;
	if (imp_narrow(t, e->dur, r, TRW_DUR, dur) ||
	    imp_narrow(t, e->ext_id, r, TRW_EXT_ID, ev->a.ext_id) ||
	    imp_narrow(t, e->corr, r, TRW_CORR, ev->a.corr))
		return nomem(m);
	e->name[r] = name;
	e->track[r] = track;
	e->aux[r] = aux;
	e->offset[r] = ev->off;
	e->kind[r] = (uint8_t)kind;
	e->ph[r] = ph == 'I' ? 'i' : ph;
	e->flags[r] = (uint8_t)flags;
	if (slot != TR_NONE)
		t->cats[slot].n++;
	t->counts.by_kind[kind]++;
	t->tracks.v[track].events++;
	if (ev->ts < t->min_ts)
		t->min_ts = ev->ts;
	if (ev->ts + dur > t->max_end)
		t->max_end = ev->ts + dur;
	if (ph == 'B') {
		if (imp_b_prev_reserve(m, r))
			return nomem(m);
		m->b_prev[r] = m->open_b[track];
		m->open_b[track] = (uint32_t)r;
	}
	return JS_OK;
}

int imp_finish_events(struct imp *m)
{
	struct trace *t = m->t;
	struct tr_anomalies *an = &t->anomalies;
	for (size_t tk = 0; tk < t->tracks.n; tk++) {
		for (uint32_t r = m->open_b[tk]; r != TR_NONE; r = m->b_prev[r]) {
			int64_t off = t->ev.offset[r];
			tr_anomaly_add(an, AN_UNMATCHED_B, off);
			if (off < an->first_offset[AN_UNMATCHED_B])
				an->first_offset[AN_UNMATCHED_B] = off;
		}
	}
	return 0;
}
