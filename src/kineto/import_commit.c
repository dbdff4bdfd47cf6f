/* import_commit: stores one read event into the trace through the builder
 * (trace/build.h), and keeps the B/E pairing per track; see
 * import_internal.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kineto/import_internal.h"

enum { NAME_VALID = 0x80, NAME_KERNEL_RULES = 0x40 };

static int nomem(struct imp *m)
{
	err_set(m->e, ERR_NOMEM, m->t->path, -1, "out of memory");
	return JS_ERR;
}

static bool scratch_reserve(struct imp *m, size_t n)
{
	if (n <= m->scratch_cap)
		return true;
	char *p = realloc(m->scratch, n);
	if (!p)
		return false;
	m->scratch = p;
	m->scratch_cap = n;
	return true;
}

/* A string that needs decoding: its escapes decoded (an invalid one keeps
 * the whole text as written, counted as bad_escape) and each NUL byte in
 * what results replaced by U+FFFD (counted as nul_in_string), so that a
 * name is never cut short where it is printed as a C string. Both counts
 * take the offset of the string's opening quote. */
static uint32_t intern_decoded(struct imp *m, const struct jstr *s)
{
	int64_t off = jscan_off(&m->j, s->s - 1);
	if (!scratch_reserve(m, s->len ? s->len : 1))
		return TR_NONE;
	long n = jscan_unescape(s, m->scratch, m->scratch_cap);
	if (n < 0) {
		jscan_count(&m->j.bad_escapes, &m->j.bad_escape_off, 1, off);
		memcpy(m->scratch, s->s, s->len);
		n = (long)s->len;
	}
	size_t nuls = 0, len = (size_t)n;
	for (const char *p = m->scratch; (p = memchr(p, 0, len - (size_t)(p - m->scratch))); p++)
		nuls++;
	if (nuls) {
		jscan_count(&m->j.nul_strings, &m->j.nul_off, 1, off);
		if (!scratch_reserve(m, len + 2 * nuls))
			return TR_NONE;
		/* widen from the end: each NUL becomes EF BF BD */
		char *d = m->scratch + len + 2 * nuls;
		for (size_t i = len; i-- > 0;) {
			char c = m->scratch[i];
			if (c) {
				*--d = c;
				continue;
			}
			*--d = (char)0xBD;
			*--d = (char)0xBF;
			*--d = (char)0xEF;
		}
		len += 2 * nuls;
	}
	return strpool_intern(&m->t->pool, m->scratch, len);
}

uint32_t imp_intern(struct imp *m, const struct jstr *s)
{
	if (!s->escaped)
		return strpool_intern(&m->t->pool, s->s, s->len);
	return intern_decoded(m, s);
}

int imp_init(struct imp *m, const char *path, struct err *e)
{
	*m = (struct imp){.e = e};
	if (tr_build_begin(&m->b, path))
		return -1;
	m->t = m->b.t;
	return 0;
}

uint64_t imp_mem_bytes(const struct imp *m)
{
	const struct tr_build *b = &m->b;
	uint64_t n = tr_mem_bytes(m->t) + m->scratch_cap + m->name_cache_n;
	n += (m->open_b_n + m->b_prev_cap) * sizeof(uint32_t) + m->pend_cap * sizeof *m->pend;
	n += (b->tracks.key ? b->tracks.mask + 1 : 0) * (sizeof(uint64_t) + sizeof(uint32_t));
	n += (b->procs.key ? b->procs.mask + 1 : 0) * (sizeof(uint64_t) + sizeof(uint32_t));
	return n + b->cat_cache_n * (sizeof *b->cat_slot + sizeof *b->cat_kind);
}

uint32_t imp_track(struct imp *m, const struct tr_id *pid, const struct tr_id *tid)
{
	uint32_t tk = tr_build_track(&m->b, pid, tid);
	if (tk == TR_NONE || tk < m->open_b_n)
		return tk;
	size_t n = m->t->tracks.n, cap = m->t->tracks.cap;
	uint32_t *ob = m->open_b;
	/* grown only with the track table (a realloc per new track copies the
	   whole array under allocators that do not grow in place) */
	if (cap > m->open_b_cap) {
		ob = realloc(m->open_b, cap * sizeof *ob);
		if (!ob)
			return TR_NONE;
		m->open_b = ob;
		m->open_b_cap = cap;
	}
	for (size_t k = m->open_b_n; k < n; k++)
		ob[k] = TR_NONE;
	m->open_b_n = n;
	return tk;
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
	       a->in_nelems >= 0 || a->out_nelems >= 0 || a->group_size >= 0 || a->coll_seq >= 0 ||
	       a->module_id >= 0 || a->stream != -1 || a->concrete.len;
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

/* Kind-specific argument row (in the kind's table, tr_aux_table); *aux =
 * its row or TR_NONE. */
static int store_aux(struct imp *m, enum tr_kind kind, const struct imp_args *a, uint32_t *aux)
{
	*aux = TR_NONE;
	switch (tr_aux_table(kind)) {
	case TR_AUX_GPU: {
		struct tr_gpu_arg g = {.device = i32(a->device),
				       .stream = a->stream,
				       .regs = i32(a->regs),
				       .shared_mem = i32(a->shared_mem),
				       .wait_stream = i32(a->wait_stream),
				       .bytes = a->bytes,
				       .blocks_per_sm = a->blocks_per_sm,
				       .warps_per_sm = a->warps_per_sm,
				       .occupancy = a->occupancy,
				       .wait_corr = a->wait_corr,
				       .mem_bw_gbps = a->mem_bw_gbps};
		memcpy(g.grid, a->grid, sizeof g.grid);
		memcpy(g.block, a->block, sizeof g.block);
		return tr_build_gpu(&m->b, &g, aux);
	}
	case TR_AUX_MEM: {
		struct tr_mem_arg mm = {.bytes = a->mem_bytes,
					.total_allocated = a->total_alloc,
					.total_reserved = a->total_reserved,
					.addr = (uint64_t)a->addr,
					.device_type = i32(a->dev_type),
					.device_id = i32(a->dev_id)};
		return tr_build_mem(&m->b, &mm, aux);
	}
	case TR_AUX_OP:
		break;
	}
	if (!has_op_args(a))
		return 0;
	struct tr_op_extra x = {.in_nelems = a->in_nelems,
				.out_nelems = a->out_nelems,
				.group_size = a->group_size,
				.coll_seq = a->coll_seq,
				.module_id = a->module_id,
				.stream = a->stream};
	bool extra = has_op_extra(a);
	if (extra) {
		const struct jstr *const src[] = {&a->collective, &a->dtype, &a->pg_name,
						  &a->pg_ranks, &a->concrete};
		uint32_t *const dst[] = {&x.collective, &x.dtype, &x.pg_name, &x.pg_ranks,
					 &x.concrete};
		if (intern_all(m, src, dst, 5))
			return -1;
	}
	struct tr_op_arg o = {.extra = TR_NONE};
	if (kind == TR_PYTHON_FUNCTION) {
		o.python_id = a->python_id;
		o.python_parent = a->python_parent;
	} else {
		o.seq = a->seq;
		o.fwd_tid = a->fwd_tid;
	}
	const struct jstr *const src[] = {&a->input_dims, &a->input_type, &a->call_stack};
	uint32_t *const dst[] = {&o.input_dims, &o.input_type, &o.call_stack};
	if (intern_all(m, src, dst, 3))
		return -1;
	return tr_build_op(&m->b, &o, extra ? &x : NULL, aux);
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
		uint32_t p = tr_build_proc(&m->b, pid);
		if (p == TR_NONE)
			return nomem(m);
		t->procs.v[p].name = val;
	} else if (n->len == 14 && !memcmp(n->s, "process_labels", 14)) {
		uint32_t p = tr_build_proc(&m->b, pid);
		uint32_t lab = ev->a.labels.len ? imp_intern(m, &ev->a.labels) : 0;
		if (p == TR_NONE || lab == TR_NONE)
			return nomem(m);
		t->procs.v[p].labels = lab;
	} else if (n->len == 18 && !memcmp(n->s, "process_sort_index", 18)) {
		uint32_t p = tr_build_proc(&m->b, pid);
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
	uint32_t name = imp_intern(m, &ev->name), series[IMP_MAX_SERIES];
	if (name == TR_NONE)
		return nomem(m);
	for (int i = 0; i < ev->a.nseries; i++)
		if ((series[i] = imp_intern(m, &ev->a.series_key[i])) == TR_NONE)
			return nomem(m);
	if (tr_build_counter(&m->b, ev->ts, track, name, (size_t)ev->a.nseries, series,
			     ev->a.series_val))
		return nomem(m);
	return JS_OK;
}

static int commit_flow(struct imp *m, struct imp_event *ev, char ph, uint32_t track)
{
	uint32_t cat = imp_intern(m, &ev->cat), name = imp_intern(m, &ev->name);
	if (cat == TR_NONE || name == TR_NONE)
		return nomem(m);
	struct tr_flow f = {.ts = ev->ts,
			    .id = ev->id,
			    .offset = ev->off,
			    .cat = cat,
			    .name = name,
			    .track = track,
			    .ph = (uint8_t)ph,
			    .bp_e = ev->bp_e};
	if (tr_build_flow(&m->b, &f))
		return nomem(m);
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
	if (tr_build_narrow(t, t->ev.dur, top, TRW_DUR, dur))
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
	if (!ev->has_ts || ev->ts % 1000)
		t->counts.ts_not_whole++;
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
	if (!tr_time_ok(ev->ts, ph == 'X' && ev->has_dur ? ev->dur : 0)) {
		tr_anomaly_add(an, AN_TIME_RANGE, ev->off);
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
	if (cat == TR_NONE || name == TR_NONE || tr_build_cat(&m->b, cat, &kind, &slot))
		return nomem(m);
	bool instant = ph == 'i' || ph == 'I';
	if (instant)
		kind = tr_classify(ev->cat.s, ev->cat.len, ev->name.s, ev->name.len, (char)ph);
	unsigned flags = name_flags(m, name, kind);
	if (kind == TR_PYTHON_FUNCTION && ev->a.module_id >= 0)
		flags |= TRF_MODULE;
	/* "Concrete Inputs" only where classify says an analysis reads it, so
	 * that other ops keep their small argument rows */
	if (ev->a.concrete.len && !tr_keeps_concrete(kind, ev->name.s, ev->name.len))
		ev->a.concrete.len = 0;
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
	struct tr_build_event row = {.ts = ev->ts,
				     .dur = dur,
				     .ext_id = ev->a.ext_id,
				     .corr = ev->a.corr,
				     .offset = ev->off,
				     .name = name,
				     .cat = cat,
				     .track = track,
				     .aux = aux,
				     .kind = kind,
				     .ph = ph == 'I' ? 'i' : ph,
				     .flags = flags};
	size_t r = 0;
	if (tr_build_event(&m->b, &row, &r, m->e))
		return JS_ERR;
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
