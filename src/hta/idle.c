/* idle: HTA's idle time per stream and temporal breakdown; see idle.h. */
#include "hta/idle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cmp.h"
#include "core/radix.h"
#include "core/sort.h"
#include "core/stats.h"

const char *hta_idle_cat_name(enum hta_idle_cat c)
{
	static const char *const names[] = {"host_wait", "kernel_wait", "other"};
	return c < HTA_IDLE_NCAT ? names[c] : "?";
}

/* A device event to sort: by stream (in order of first appearance), then
 * ts; equal keys keep row order (rx_sort is stable). */
struct iv {
	uint32_t sidx; /* the stream's index in order of first appearance */
	int64_t ts, end, rt_ts;
};

/* Busy time of the union of intervals sorted by ts, and its extent. */
static int64_t merged(const struct iv *v, size_t n, int64_t *first, int64_t *last)
{
	int64_t busy = 0, lo = 0, hi = 0;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || v[i].ts > hi) {
			if (i)
				busy += hi - lo;
			lo = v[i].ts;
			hi = v[i].end;
		} else if (v[i].end > hi) {
			hi = v[i].end;
		}
		if (i == 0)
			*first = lo;
	}
	if (n)
		busy += hi - lo;
	*last = hi;
	return busy;
}

static int temporal(const struct hta_events *h, struct hta_temporal *out)
{
	memset(out, 0, sizeof *out);
	if (!h->n)
		return 0;
	struct iv *all = malloc(h->n * sizeof *all), *comp = malloc(h->n * sizeof *comp);
	if (!all || !comp) {
		free(all);
		free(comp);
		return -1;
	}
	size_t nc = 0;
	for (size_t i = 0; i < h->n; i++) {
		all[i] = (struct iv){.ts = h->v[i].ts, .end = h->v[i].end};
		if (h->v[i].ktype == HTA_COMPUTE)
			comp[nc++] = all[i];
	}
	const struct rx_key k[] = {RX_KEY(struct iv, ts, RX_I64)};
	int rc = rx_sort(all, h->n, sizeof *all, k, 1) || rx_sort(comp, nc, sizeof *comp, k, 1);
	if (!rc) {
		int64_t a, b, c, d;
		int64_t busy = merged(all, h->n, &a, &b);
		out->any = true;
		out->kernel_ns = b - a;
		out->idle_ns = out->kernel_ns - busy;
		out->compute_ns = nc ? merged(comp, nc, &c, &d) : 0;
		out->non_compute_ns = out->kernel_ns - out->compute_ns - out->idle_ns;
	}
	free(all);
	free(comp);
	return rc ? -1 : 0;
}

static void describe(int64_t *g, size_t n, struct hta_gap_stats *s)
{
	s->count = n;
	s->mean = s->std = s->min = s->p25 = s->p50 = s->p75 = s->p90 = s->max = NAN;
	if (!n)
		return;
	gp_qsort(g, n, sizeof *g, cmp_i64);
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += (double)g[i];
	s->mean = sum / (double)n;
	if (n > 1) {
		double ss = 0;
		for (size_t i = 0; i < n; i++)
			ss += ((double)g[i] - s->mean) * ((double)g[i] - s->mean);
		s->std = sqrt(ss / (double)(n - 1));
	}
	s->min = (double)g[0];
	s->max = (double)g[n - 1];
	s->p25 = stats_quantile(g, n, 0.25);
	s->p50 = stats_quantile(g, n, 0.50);
	s->p75 = stats_quantile(g, n, 0.75);
	s->p90 = stats_quantile(g, n, 0.90);
}

/* The gap before event i (> 0) of a stream and its category. */
static enum hta_idle_cat gap_cat(const struct iv *v, size_t i, const struct hta_idle_opts *o,
				 int64_t *gap)
{
	int64_t prev = v[i - 1].end;
	*gap = v[i].ts - prev;
	if (v[i].rt_ts != HTA_NO_TS && v[i].rt_ts > prev)
		return HTA_HOST_WAIT;
	return *gap < o->kernel_wait_ns ? HTA_KERNEL_WAIT : HTA_IDLE_OTHER;
}

/* One stream's events v[0..n) in ts order: its rows (and gap statistics,
 * when gaps is not NULL: scratch room for n values). */
static void one_stream(const struct iv *v, size_t n, int64_t stream, const struct hta_idle_opts *o,
		       struct hta_idle *out, int64_t *gaps)
{
	int64_t sum[HTA_IDLE_NCAT] = {0};
	size_t cnt[HTA_IDLE_NCAT] = {0};
	bool present[HTA_IDLE_NCAT] = {false};
	present[HTA_IDLE_OTHER] = true; /* the first event's */
	for (size_t i = 1; i < n; i++) {
		int64_t gap;
		enum hta_idle_cat c = gap_cat(v, i, o, &gap);
		present[c] = true;
		sum[c] += gap;
		cnt[c]++;
	}
	int64_t whole = sum[0] + sum[1] + sum[2];
	for (int c = 0; c < HTA_IDLE_NCAT; c++) {
		if (!present[c])
			continue;
		out->rows[out->nrows++] =
		    (struct hta_idle_row){.stream = stream,
					  .cat = (uint8_t)c,
					  .idle_ns = sum[c],
					  .ratio = whole ? (double)sum[c] / (double)whole : NAN};
		if (!gaps)
			continue;
		size_t k = 0;
		for (size_t i = 1; i < n; i++) {
			int64_t gap;
			if ((int)gap_cat(v, i, o, &gap) == c)
				gaps[k++] = gap;
		}
		struct hta_gap_stats *s = &out->gaps[out->ngaps++];
		s->stream = stream;
		s->cat = (uint8_t)c;
		describe(gaps, k, s);
	}
}

/* The streams in order of first appearance: sidx of each event, the
 * stream of each index. */
static int number_streams(const struct hta_events *h, struct iv *v, size_t *nv, int64_t **streams,
			  size_t *ns)
{
	size_t cap = 0;
	*ns = 0;
	*nv = 0;
	*streams = NULL;
	for (size_t i = 0; i < h->n; i++) {
		if (!h->v[i].kernel_cat)
			continue;
		size_t s = 0;
		while (s < *ns && (*streams)[s] != h->v[i].stream)
			s++;
		if (s == *ns) {
			if (*ns == cap) {
				size_t nc = cap ? cap * 2 : 16;
				int64_t *p = realloc(*streams, nc * sizeof *p);
				if (!p)
					return -1;
				*streams = p;
				cap = nc;
			}
			(*streams)[(*ns)++] = h->v[i].stream;
		}
		v[(*nv)++] = (struct iv){.sidx = (uint32_t)s,
					 .ts = h->v[i].ts,
					 .end = h->v[i].end,
					 .rt_ts = h->v[i].rt_ts};
	}
	return 0;
}

int hta_idle(const struct hta_events *h, const struct hta_idle_opts *o, struct hta_idle *out,
	     struct err *e)
{
	memset(out, 0, sizeof *out);
	size_t nv = 0, ns = 0;
	int64_t *streams = NULL;
	struct iv *v = malloc((h->n ? h->n : 1) * sizeof *v);
	int64_t *gaps = o->gaps ? malloc((h->n ? h->n : 1) * sizeof *gaps) : NULL;
	int rc = !v || (o->gaps && !gaps) || number_streams(h, v, &nv, &streams, &ns);
	const struct rx_key k[] = {RX_KEY(struct iv, sidx, RX_U32), RX_KEY(struct iv, ts, RX_I64)};
	if (!rc)
		rc = rx_sort(v, nv, sizeof *v, k, 2);
	if (!rc) {
		out->rows = malloc((ns ? ns : 1) * HTA_IDLE_NCAT * sizeof *out->rows);
		out->gaps =
		    o->gaps ? malloc((ns ? ns : 1) * HTA_IDLE_NCAT * sizeof *out->gaps) : NULL;
		rc = !out->rows || (o->gaps && !out->gaps);
	}
	for (size_t i = 0, s = 0; !rc && s < ns; s++) {
		size_t j = i;
		while (j < nv && v[j].sidx == s)
			j++;
		one_stream(v + i, j - i, streams[s], o, out, gaps);
		i = j;
	}
	out->nstreams = ns;
	if (!rc)
		rc = temporal(h, &out->temporal);
	free(v);
	free(gaps);
	free(streams);
	if (rc) {
		hta_idle_free(out);
		return err_set(e, ERR_NOMEM, "", -1, "out of memory");
	}
	return 0;
}

void hta_idle_free(struct hta_idle *r)
{
	free(r->rows);
	free(r->gaps);
	memset(r, 0, sizeof *r);
}
