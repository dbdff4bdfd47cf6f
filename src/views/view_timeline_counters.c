/* view_timeline_counters: the timeline's HTA counter lanes (timeline JSON
 * member "stream_counters", with tl_opts.stream_counters): the queue
 * length of each stream and the memcpy bandwidth of each kind
 * (hta/counters.h, computed once, by the first window that asks for
 * them), windowed and reduced
 * per pixel column as the trace's own counters are (tl_write_points: the
 * value in effect at the window start, then one point per column, or a
 * column's min, max and last). A series names the track of its first
 * device event, so that the page draws it under that stream's lane. */
#include <math.h>
#include <stdlib.h>

#include "hta/counters.h"
#include "views/timeline_int.h"

int tl_counters_build(struct tl_index *ix)
{
	ix->hta_mu_ok = pthread_mutex_init(&ix->hta_mu, NULL) == 0;
	return ix->hta_mu_ok ? 0 : -1;
}

/* The counters, computed on first use (several server threads may ask at
 * once: one computes, the others wait); NULL when that failed. */
static const struct hta_counters *counters_of(const struct tl_index *cix)
{
	struct tl_index *ix = (struct tl_index *)cix; /* its lazily built part only */
	pthread_mutex_lock(&ix->hta_mu);
	if (!ix->hta_tried) {
		ix->hta_tried = true;
		struct hta_events h;
		struct err e = {0};
		struct hta_counters *c = calloc(1, sizeof *c);
		bool ok = c && !hta_events(ix->t, &h, &e);
		if (ok) {
			ok = !hta_counters(ix->t, &h, HTA_MAX_QUEUE_LENGTH, c, &e);
			hta_events_free(&h);
		}
		if (!ok) {
			free(c);
			c = NULL;
		}
		ix->hta = c;
	}
	pthread_mutex_unlock(&ix->hta_mu);
	return ix->hta;
}

void tl_counters_free(struct tl_index *ix)
{
	if (ix->hta) {
		hta_counters_free(ix->hta);
		free(ix->hta);
		ix->hta = NULL;
	}
	if (ix->hta_mu_ok)
		pthread_mutex_destroy(&ix->hta_mu);
	ix->hta_mu_ok = false;
}

static void ql_at(const void *ctx, size_t pos, int64_t *ts, double *value)
{
	const struct hta_ql_point *p = &((const struct hta_counters *)ctx)->ql[pos];
	*ts = p->ts;
	*value = (double)p->len;
}

static void bw_at(const void *ctx, size_t pos, int64_t *ts, double *value)
{
	const struct hta_bw_point *p = &((const struct hta_counters *)ctx)->bw[pos];
	*ts = p->ts;
	*value = isnan(p->gbps) ? 0 : p->gbps; /* no arg: nothing drawn */
}

/* `{"name": N, KEY: V, "track": K, "pid": P` of a series whose first
 * device event is row. */
static void series_head(const struct trace *t, FILE *f, bool first, const char *name, uint32_t row)
{
	const struct tr_track *tk = &t->tracks.v[t->ev.track[row]];
	char pb[64];
	fprintf(f, "%s\n   {\"name\": ", first ? "" : ",");
	rep_json_str(f, name);
	fprintf(f, ", \"track\": %u, \"pid\": ", t->ev.track[row]);
	rep_json_str(f, tr_id_text(t, &tk->pid, pb, sizeof pb));
}

void tl_write_stream_counters(const struct tl_index *ix, FILE *f, int64_t A, int64_t B, int px,
			      int64_t lo, size_t *items, bool *truncated)
{
	const struct hta_counters *c = counters_of(ix);
	fputs(",\n  \"stream_counters\": [", f);
	if (!c) {
		fputs("]", f);
		return;
	}
	bool first = true;
	for (size_t s = 0; s < c->nstreams; s++) {
		const struct hta_ql_stream *q = &c->streams[s];
		series_head(ix->t, f, first, "Queue Length", c->ql[q->first].row);
		fprintf(f, ", \"stream\": %lld", (long long)q->stream);
		const struct tl_points pt = {
		    .ctx = c, .b = q->first, .en = q->first + q->n, .get = ql_at};
		tl_write_points(&pt, f, A, B, px, lo, items, truncated);
		fputc('}', f);
		first = false;
	}
	for (size_t k = 0; k < c->nkinds; k++) {
		const struct hta_bw_kind *kd = &c->kinds[k];
		series_head(ix->t, f, first, "Memcpy BW", c->bw[kd->first].row);
		fputs(", \"kind\": ", f);
		rep_json_str(f, kd->name);
		const struct tl_points pt = {
		    .ctx = c, .b = kd->first, .en = kd->first + kd->n, .get = bw_at};
		tl_write_points(&pt, f, A, B, px, lo, items, truncated);
		fputc('}', f);
		first = false;
	}
	fputs(first ? "]" : "\n  ]", f);
}
