/* window: copy of the rows of a trace that fall in a time window; see
 * window.h. One pass to choose rows, one to copy them. */
#include "trace/window.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/limits.h"
#include "core/vec.h"
#include "trace/link.h"

static bool inside(int64_t ts, int64_t t0, int64_t t1)
{
	return ts >= t0 && ts < t1;
}

/* Appends row i of src's table to dst's; returns the new row or TR_NONE. */
#define COPY_ROW(dst, src, i)                                                                      \
	(vec_add((dst), LIM_TRACE_ROWS)                                                            \
	     ? ((dst).v[(dst).n - 1] = (src).v[i], (uint32_t)(dst).n - 1)                          \
	     : TR_NONE)

static int copy_events(const struct trace *t, const uint8_t *keep, struct trace *w)
{
	size_t n = 0;
	for (size_t r = 0; r < t->ev.n; r++)
		n += keep[r];
	struct tr_events *d = &w->ev;
	size_t cap = n ? n : 1;
#define ALLOC_COL_(type, col)                                                                      \
	if (!(d->col = malloc(cap * sizeof *d->col)))                                              \
		return -1;
	TR_EVENT_COLUMNS(ALLOC_COL_)
#undef ALLOC_COL_
	if (!(w->base_row = malloc(cap * sizeof *w->base_row)))
		return -1;
	d->cap = cap;
	size_t wi = 0; /* next wide entry of t (sorted by row) */
	for (size_t r = 0; r < t->ev.n; r++) {
		while (wi < t->wide.n && t->wide.v[wi].row < r)
			wi++;
		if (!keep[r])
			continue;
		size_t o = d->n++;
		w->base_row[o] = (uint32_t)r;
#define COPY_COL_(type, col) d->col[o] = t->ev.col[r];
		TR_EVENT_COLUMNS(COPY_COL_) /* aux is renumbered below */
#undef COPY_COL_
		for (size_t k = wi; k < t->wide.n && t->wide.v[k].row == r; k++) {
			struct tr_wide x = t->wide.v[k];
			x.row = (uint32_t)o;
			if (COPY_ROW(w->wide, ((struct tr_wides){.v = &x}), 0) == TR_NONE)
				return -1;
		}
		uint32_t aux = t->ev.aux[r], na = TR_NONE;
		enum tr_kind kind = (enum tr_kind)t->ev.kind[r];
		if (aux != TR_NONE) {
			switch (tr_aux_table(kind)) {
			case TR_AUX_GPU:
				na = COPY_ROW(w->gpu, t->gpu, aux);
				break;
			case TR_AUX_MEM:
				na = COPY_ROW(w->mem, t->mem, aux);
				break;
			case TR_AUX_OP:
				na = COPY_ROW(w->op, t->op, aux);
				if (na != TR_NONE && w->op.v[na].extra != TR_NONE) {
					uint32_t x = COPY_ROW(w->opx, t->opx, w->op.v[na].extra);
					if (x == TR_NONE)
						return -1;
					w->op.v[na].extra = x;
				}
				break;
			}
			if (na == TR_NONE)
				return -1;
		}
		d->aux[o] = na;
		w->counts.by_kind[kind]++;
		w->counts.by_phase[d->ph[o] & 127]++;
		w->tracks.v[d->track[o]].events++;
		/* as the reader counts them (HTA's times round when one is) */
		if (d->ts[o] % 1000)
			w->counts.ts_not_whole++;
		int64_t end = d->ts[o] + tr_dur(w, o);
		if (d->ts[o] < w->min_ts)
			w->min_ts = d->ts[o];
		if (end > w->max_end)
			w->max_end = end;
	}
	w->counts.events = d->n;
	return 0;
}

int tr_window(struct trace *t, const struct tr_links *links, int64_t t0, int64_t t1,
	      struct trace **out, struct err *e)
{
	*out = NULL;
	struct tr_links own = {0};
	if (!links) {
		int rc = tr_links_build(t, true, &own, e);
		if (rc)
			return rc;
		links = &own;
	}
	const struct tr_links l = *links;
	uint8_t *keep = calloc(t->ev.n ? t->ev.n : 1, 1);
	struct trace *w = calloc(1, sizeof *w);
	if (!keep || !w)
		goto nomem;
	for (size_t r = 0; r < t->ev.n; r++) {
		uint32_t launcher = tr_is_device(t->ev.kind[r]) ? l.launcher[r] : TR_NONE;
		keep[r] = inside(t->ev.ts[launcher != TR_NONE ? launcher : r], t0, t1);
	}
	/* the borrowed parts, then copies of the small tables */
	w->pool = t->pool;
	snprintf(w->path, sizeof w->path, "%s", t->path);
	w->gzip = t->gzip;
	w->file_bytes = t->file_bytes;
	w->meta = t->meta;
	w->anomalies = t->anomalies;
	w->counts.bytes = t->counts.bytes;
	w->counts.metadata = t->counts.metadata;
	w->min_ts = INT64_MAX;
	w->max_end = INT64_MIN;
	w->tracks.n = w->tracks.cap = t->tracks.n;
	w->procs.n = w->procs.cap = t->procs.n;
	w->ncats = t->ncats;
	w->tracks.v = malloc((t->tracks.n ? t->tracks.n : 1) * sizeof *w->tracks.v);
	w->procs.v = malloc((t->procs.n ? t->procs.n : 1) * sizeof *w->procs.v);
	w->cats = malloc((t->ncats ? t->ncats : 1) * sizeof *w->cats);
	if (!w->tracks.v || !w->procs.v || !w->cats)
		goto nomem;
	if (t->tracks.n)
		memcpy(w->tracks.v, t->tracks.v, t->tracks.n * sizeof *w->tracks.v);
	if (t->procs.n)
		memcpy(w->procs.v, t->procs.v, t->procs.n * sizeof *w->procs.v);
	if (t->ncats)
		memcpy(w->cats, t->cats, t->ncats * sizeof *w->cats);
	for (size_t k = 0; k < w->tracks.n; k++)
		w->tracks.v[k].events = 0;
	if (copy_events(t, keep, w))
		goto nomem;
	for (size_t i = 0; i < t->flows.n; i++)
		if (inside(t->flows.v[i].ts, t0, t1) && COPY_ROW(w->flows, t->flows, i) == TR_NONE)
			goto nomem;
	for (size_t i = 0; i < t->counters.n; i++)
		if (inside(t->counters.v[i].ts, t0, t1) &&
		    COPY_ROW(w->counters, t->counters, i) == TR_NONE)
			goto nomem;
	w->counts.flows = w->flows.n;
	w->counts.counters = w->counters.n;
	free(keep);
	tr_links_free(&own);
	w->base = t;
	w->win_t0 = t0;
	w->win_t1 = t1;
	*out = w;
	return 0;
nomem:
	free(keep);
	tr_links_free(&own);
	if (w)
		w->pool = (struct strpool){0}; /* t's, not w's */
	tr_free(w);
	return err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
}

void tr_window_release(struct trace *w)
{
	if (!w)
		return;
	w->base = NULL;
	w->pool = (struct strpool){0}; /* the base's, as are its arena's strings */
	tr_free(w);
}

const uint32_t *tr_window_rows(const struct trace *w)
{
	return w->base ? w->base_row : NULL;
}
