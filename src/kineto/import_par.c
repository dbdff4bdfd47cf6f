/* import_par: the second importing thread.
 *
 * The loader splits a large window of the events array in two. This worker
 * parses the events of the second part into a private trace (own string
 * pool and tables) while the loader parses the first part. The split point
 * is only a guess ('{' after "},"), so the loader confirms it by arriving
 * there exactly at an event start; then the worker's rows are appended with
 * their string, track and argument ids remapped (merge), giving the same
 * tables, in the same order, as a serial import. Otherwise the worker's rows
 * are discarded and the loader parses that part itself.
 *
 * The worker keeps its pool and its track/process tables across windows
 * (with persistent remap arrays), so each window only interns what is new. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/limits.h"
#include "core/vec.h"
#include "kineto/import_internal.h"

struct imp_worker {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool job, done, quit;
	/* the job */
	const char *base, *at, *end;
	int64_t base_off;
	/* its result */
	bool ok, closed;
	const char *stop;
	/* private import state */
	struct imp m;
	struct trace *t;
	struct err err;
	/* worker id -> loader id, persistent across windows */
	uint32_t *smap, *tmap, *pmap;
	size_t smap_n, tmap_n, pmap_n;
	uint64_t peak; /* the most imp_mem_bytes after a job, and the maps */
};

const char *imp_find_boundary(const char *p, const char *end)
{
	while (p < end) {
		p = memchr(p, '}', (size_t)(end - p));
		if (!p)
			return NULL;
		const char *q = p + 1;
		while (q < end && jscan_is_ws(*q))
			q++;
		if (q < end && *q == ',') {
			q++;
			while (q < end && jscan_is_ws(*q))
				q++;
			if (q < end && *q == '{') {
				const char *r = q + 1;
				while (r < end && jscan_is_ws(*r))
					r++;
				if (r < end && *r == '"')
					return q;
			}
		}
		p++;
	}
	return NULL;
}

static void run_job(struct imp_worker *w)
{
	struct jscan *j = &w->m.j;
	*j = (struct jscan){.base = w->base,
			    .p = w->at,
			    .end = w->end,
			    .base_off = w->base_off,
			    .path = w->t->path,
			    .uncompressed = j->uncompressed,
			    .e = &w->err};
	const char *last = NULL;
	w->ok = false;
	w->closed = false;
	for (;;) {
		struct jscan_marks marks = jscan_mark(j);
		const char *at = j->p;
		int rc = jscan_ws(j);
		if (!rc)
			rc = imp_event(&w->m);
		if (rc == JS_MORE) {
			j->p = at;
			jscan_rewind(j, marks);
			break;
		}
		if (rc)
			return; /* not an event boundary after all, or a real error */
		last = j->p;
		bool closed;
		rc = jscan_next(j, ']', &closed);
		if (rc == JS_MORE)
			break;
		if (rc)
			return;
		if (closed) {
			w->closed = true;
			last = j->p;
			break;
		}
	}
	w->stop = last;
	w->ok = last != NULL;
}

static void *worker_main(void *arg)
{
	struct imp_worker *w = arg;
	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (!w->job && !w->quit)
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->quit)
			break;
		pthread_mutex_unlock(&w->mu);
		run_job(w);
		pthread_mutex_lock(&w->mu);
		w->job = false;
		w->done = true;
		pthread_cond_broadcast(&w->cv);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

int imp_worker_start(struct imp_worker **out, const char *path, bool uncompressed)
{
	struct imp_worker *w = calloc(1, sizeof *w);
	if (!w)
		return -1;
	if (imp_init(&w->m, path, &w->err)) {
		free(w);
		return -1;
	}
	w->t = w->m.t;
	w->m.defer_e = true;
	w->m.j.uncompressed = uncompressed;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	if (pthread_create(&w->thread, NULL, worker_main, w)) {
		imp_free(&w->m);
		tr_build_abort(&w->m.b);
		free(w);
		return -1;
	}
	*out = w;
	return 0;
}

void imp_worker_begin(struct imp_worker *w, const char *base, const char *at, const char *end,
		      int64_t base_off)
{
	pthread_mutex_lock(&w->mu);
	w->base = base;
	w->at = at;
	w->end = end;
	w->base_off = base_off;
	w->done = false;
	w->job = true;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

bool imp_worker_wait(struct imp_worker *w, const char **stop, bool *closed)
{
	pthread_mutex_lock(&w->mu);
	while (!w->done)
		pthread_cond_wait(&w->cv, &w->mu);
	pthread_mutex_unlock(&w->mu);
	/* idle now: its tables can be read */
	uint64_t held =
	    imp_mem_bytes(&w->m) + (w->smap_n + w->tmap_n + w->pmap_n) * sizeof(uint32_t);
	if (held > w->peak)
		w->peak = held;
	*stop = w->stop;
	*closed = w->closed;
	return w->ok;
}

uint64_t imp_worker_bytes(const struct imp_worker *w)
{
	return w ? w->peak : 0;
}

/* Empties the worker's rows, keeping its pool, tracks and processes. */
void imp_worker_discard(struct imp_worker *w)
{
	struct trace *t = w->t;
	t->ev.n = t->wide.n = t->gpu.n = t->op.n = t->opx.n = t->mem.n = t->flows.n =
	    t->counters.n = 0;
	memset(&t->counts, 0, sizeof t->counts);
	tr_anomalies_init(&t->anomalies);
	for (size_t i = 0; i < t->ncats; i++)
		t->cats[i].n = 0;
	for (size_t k = 0; k < t->tracks.n; k++) {
		t->tracks.v[k].events = 0;
		t->tracks.v[k].thread_name = 0;
		t->tracks.v[k].thread_sort = INT64_MIN;
		w->m.open_b[k] = TR_NONE;
	}
	for (size_t k = 0; k < t->procs.n; k++) {
		t->procs.v[k].name = t->procs.v[k].labels = 0;
		t->procs.v[k].sort = INT64_MIN;
	}
	t->min_ts = INT64_MAX;
	t->max_end = INT64_MIN;
	w->m.npend = 0;
	jscan_rewind(&w->m.j, (struct jscan_marks){0});
}

static int grow_map(uint32_t **map, size_t n)
{
	uint32_t *p = realloc(*map, (n ? n : 1) * sizeof *p);
	if (!p)
		return -1;
	*map = p;
	return 0;
}

static struct tr_id remap_id(const struct imp_worker *w, struct tr_id id)
{
	if (id.is_str)
		id.str = w->smap[id.str];
	return id;
}

/* Extends the string, process and track maps to everything the worker has. */
static int extend_maps(struct imp_worker *w, struct imp *m)
{
	struct trace *src = w->t;
	if (src->pool.n > w->smap_n) {
		if (grow_map(&w->smap, src->pool.n))
			return -1;
		for (size_t id = w->smap_n; id < src->pool.n; id++) {
			uint32_t to =
			    strpool_intern(&m->t->pool, strpool_get(&src->pool, (uint32_t)id),
					   strpool_len(&src->pool, (uint32_t)id));
			if (to == TR_NONE)
				return -1;
			w->smap[id] = to;
		}
		w->smap_n = src->pool.n;
	}
	if (src->procs.n > w->pmap_n) {
		if (grow_map(&w->pmap, src->procs.n))
			return -1;
		for (size_t k = w->pmap_n; k < src->procs.n; k++) {
			struct tr_id pid = remap_id(w, src->procs.v[k].pid);
			if ((w->pmap[k] = tr_build_proc(&m->b, &pid)) == TR_NONE)
				return -1;
		}
		w->pmap_n = src->procs.n;
	}
	if (src->tracks.n > w->tmap_n) {
		if (grow_map(&w->tmap, src->tracks.n))
			return -1;
		for (size_t k = w->tmap_n; k < src->tracks.n; k++) {
			struct tr_id pid = remap_id(w, src->tracks.v[k].pid);
			struct tr_id tid = remap_id(w, src->tracks.v[k].tid);
			if ((w->tmap[k] = imp_track(m, &pid, &tid)) == TR_NONE)
				return -1;
		}
		w->tmap_n = src->tracks.n;
	}
	return 0;
}

#define APPEND(dst, src)                                                                           \
	do {                                                                                       \
		if (!(src).n)                                                                      \
			break;                                                                     \
		if (vec_reserve((dst), (dst).n + (src).n, LIM_TRACE_ROWS))                         \
			return -1;                                                                 \
		memcpy((dst).v + (dst).n, (src).v, (src).n * sizeof *(src).v);                     \
	} while (0)

static int merge_tables(struct imp_worker *w, struct imp *m)
{
	struct trace *src = w->t, *dst = m->t;
	const uint32_t *sm = w->smap;
	size_t gbase = dst->gpu.n, obase = dst->op.n, mbase = dst->mem.n;
	APPEND(dst->gpu, src->gpu);
	dst->gpu.n += src->gpu.n;
	APPEND(dst->mem, src->mem);
	dst->mem.n += src->mem.n;
	size_t xbase = dst->opx.n;
	APPEND(dst->opx, src->opx);
	for (size_t i = 0; i < src->opx.n; i++) {
		struct tr_op_extra *x = &dst->opx.v[dst->opx.n + i];
		x->collective = sm[x->collective];
		x->dtype = sm[x->dtype];
		x->pg_name = sm[x->pg_name];
		x->pg_ranks = sm[x->pg_ranks];
		x->concrete = sm[x->concrete];
	}
	dst->opx.n += src->opx.n;
	APPEND(dst->op, src->op);
	for (size_t i = 0; i < src->op.n; i++) {
		struct tr_op_arg *o = &dst->op.v[dst->op.n + i];
		o->input_dims = sm[o->input_dims];
		o->input_type = sm[o->input_type];
		o->call_stack = sm[o->call_stack];
		if (o->extra != TR_NONE)
			o->extra += (uint32_t)xbase;
	}
	dst->op.n += src->op.n;
	APPEND(dst->flows, src->flows);
	for (size_t i = 0; i < src->flows.n; i++) {
		struct tr_flow *f = &dst->flows.v[dst->flows.n + i];
		f->cat = sm[f->cat];
		f->name = sm[f->name];
		f->track = w->tmap[f->track];
	}
	dst->flows.n += src->flows.n;
	APPEND(dst->counters, src->counters);
	for (size_t i = 0; i < src->counters.n; i++) {
		struct tr_counter *c = &dst->counters.v[dst->counters.n + i];
		c->name = sm[c->name];
		c->series = sm[c->series];
		c->track = w->tmap[c->track];
	}
	dst->counters.n += src->counters.n;

	const struct tr_events *se = &src->ev;
	struct tr_events *de = &dst->ev;
	if (!se->n)
		return 0;
	if (de->n + se->n >= LIM_TRACE_ROWS || tr_build_reserve(de, se->n, 0))
		return -1;
	size_t base = de->n;
	/* every column as it is; names, tracks and argument rows remapped below */
#define MERGE_COL_(type, col) memcpy(de->col + base, se->col, se->n * sizeof *se->col);
	TR_EVENT_COLUMNS(MERGE_COL_)
#undef MERGE_COL_
	APPEND(dst->wide, src->wide);
	for (size_t i = 0; i < src->wide.n; i++)
		dst->wide.v[dst->wide.n + i].row += (uint32_t)base;
	dst->wide.n += src->wide.n;
	const size_t aux_base[] = {[TR_AUX_GPU] = gbase, [TR_AUX_MEM] = mbase, [TR_AUX_OP] = obase};
	for (size_t r = 0; r < se->n; r++) {
		de->name[base + r] = sm[se->name[r]];
		de->track[base + r] = w->tmap[se->track[r]];
		if (se->aux[r] != TR_NONE)
			de->aux[base + r] += (uint32_t)aux_base[tr_aux_table(se->kind[r])];
	}
	de->n += se->n;
	return 0;
}

/* E events the worker could not pair close the loader's open B events;
 * the worker's still-open B events then go on top of the loader's stacks. */
static int merge_pairs(struct imp_worker *w, struct imp *m, size_t base)
{
	for (size_t i = 0; i < w->m.npend; i++) {
		const struct imp_pending_e *p = &w->m.pend[i];
		if (imp_end_b(m, p->ts, w->tmap[p->track], p->off))
			return -1;
	}
	for (size_t k = 0; k < w->t->tracks.n; k++) {
		uint32_t chain[64], n = 0, *big = NULL;
		size_t nbig = 0;
		for (uint32_t r = w->m.open_b[k]; r != TR_NONE; r = w->m.b_prev[r]) {
			if (n < 64) {
				chain[n++] = r;
				continue;
			}
			uint32_t *nb = realloc(big, (nbig + 1) * sizeof *nb);
			if (!nb) {
				free(big);
				return -1;
			}
			big = nb;
			big[nbig++] = r;
		}
		/* push bottom first: big holds the deepest ones, in top-down order */
		uint32_t dk = w->tmap[k];
		for (size_t i = nbig; i-- > 0;) {
			size_t row = base + big[i];
			if (imp_b_prev_reserve(m, row)) {
				free(big);
				return -1;
			}
			m->b_prev[row] = m->open_b[dk];
			m->open_b[dk] = (uint32_t)row;
		}
		free(big);
		for (uint32_t i = n; i-- > 0;) {
			size_t row = base + chain[i];
			if (imp_b_prev_reserve(m, row))
				return -1;
			m->b_prev[row] = m->open_b[dk];
			m->open_b[dk] = (uint32_t)row;
		}
	}
	return 0;
}

static int merge_counts(struct imp_worker *w, struct imp *m)
{
	struct trace *src = w->t, *dst = m->t;
	for (size_t i = 0; i < src->ncats; i++) {
		if (!src->cats[i].n)
			continue;
		enum tr_kind kind;
		uint32_t slot;
		if (tr_build_cat(&m->b, w->smap[src->cats[i].cat], &kind, &slot))
			return -1;
		if (slot != TR_NONE)
			dst->cats[slot].n += src->cats[i].n;
	}
	for (size_t k = 0; k < src->tracks.n; k++) {
		const struct tr_track *s = &src->tracks.v[k];
		struct tr_track *d = &dst->tracks.v[w->tmap[k]];
		d->events += s->events;
		if (s->thread_name)
			d->thread_name = w->smap[s->thread_name];
		if (s->thread_sort != INT64_MIN)
			d->thread_sort = s->thread_sort;
	}
	for (size_t k = 0; k < src->procs.n; k++) {
		const struct tr_proc *s = &src->procs.v[k];
		struct tr_proc *d = &dst->procs.v[w->pmap[k]];
		if (s->name)
			d->name = w->smap[s->name];
		if (s->labels)
			d->labels = w->smap[s->labels];
		if (s->sort != INT64_MIN)
			d->sort = s->sort;
	}
	struct tr_counts *dc = &dst->counts;
	const struct tr_counts *sc = &src->counts;
	dc->events += sc->events;
	for (int i = 0; i < 128; i++)
		dc->by_phase[i] += sc->by_phase[i];
	for (int i = 0; i < TR_KIND_COUNT; i++)
		dc->by_kind[i] += sc->by_kind[i];
	dc->other_phase += sc->other_phase;
	dc->metadata += sc->metadata;
	dc->flows += sc->flows;
	dc->counters += sc->counters;
	dc->ignored_phase += sc->ignored_phase;
	dc->ts_not_whole += sc->ts_not_whole;
	for (int k = 0; k < AN_COUNT; k++) {
		if (!src->anomalies.count[k])
			continue;
		tr_anomaly_add(&dst->anomalies, (enum tr_anomaly)k, src->anomalies.first_offset[k]);
		dst->anomalies.count[k] += src->anomalies.count[k] - 1;
		if (src->anomalies.first_offset[k] < dst->anomalies.first_offset[k])
			dst->anomalies.first_offset[k] = src->anomalies.first_offset[k];
	}
	if (src->min_ts < dst->min_ts)
		dst->min_ts = src->min_ts;
	if (src->max_end > dst->max_end)
		dst->max_end = src->max_end;
	jscan_count(&m->j.tolerated, &m->j.tolerated_off, w->m.j.tolerated, w->m.j.tolerated_off);
	jscan_count(&m->j.bad_escapes, &m->j.bad_escape_off, w->m.j.bad_escapes,
		    w->m.j.bad_escape_off);
	jscan_count(&m->j.nul_strings, &m->j.nul_off, w->m.j.nul_strings, w->m.j.nul_off);
	dc->merged_windows++;
	return 0;
}

int imp_worker_merge(struct imp_worker *w, struct imp *m)
{
	size_t base = m->t->ev.n;
	int rc = extend_maps(w, m) || merge_tables(w, m) || merge_pairs(w, m, base) ||
		 merge_counts(w, m);
	imp_worker_discard(w);
	return rc ? err_set(m->e, ERR_NOMEM, m->t->path, -1, "out of memory") : 0;
}

void imp_worker_stop(struct imp_worker *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	w->quit = true;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->thread, NULL);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
	imp_free(&w->m);
	tr_build_abort(&w->m.b);
	free(w->smap);
	free(w->tmap);
	free(w->pmap);
	free(w);
}
