/* counters: HTA's queue length, blocked time and memcpy bandwidth; see
 * counters.h. */
#include "hta/counters.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/hmap.h"
#include "core/radix.h"
#include "core/sort.h"
#include "core/vec.h"

/* A bandwidth point before the sort: key (kind), ts, order, value. */
struct pt {
	int64_t key, ts;
	uint32_t row;
	double gbps; /* bandwidth: +x / -x */
};

/* (correlation, device event) to join on, by correlation then order. */
struct cd {
	int64_t corr;
	uint32_t idx;
};

static int grow(void **v, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 256;
	void *p = realloc(*v, nc * size);
	if (!p)
		return -1;
	*v = p;
	*cap = nc;
	return 0;
}

/* HTA's get_trace_duration: latest minus earliest ts of its events. */
static int64_t trace_duration(const struct trace *t, const struct hta_events *h)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	for (size_t r = 0; r < t->ev.n; r++) {
		if (!hta_cpu_kept(t, h, r))
			continue;
		int64_t a, b;
		hta_row_times(t, h, r, &a, &b);
		lo = a < lo ? a : lo;
		hi = a > hi ? a : hi;
	}
	for (size_t i = 0; i < h->n; i++) {
		lo = h->v[i].ts < lo ? h->v[i].ts : lo;
		hi = h->v[i].ts > hi ? h->v[i].ts : hi;
	}
	return hi >= lo ? hi - lo : 0;
}

/* The device events whose correlation is a launch call's, by correlation;
 * the calls' rows in *calls. */
static int join_sides(const struct trace *t, const struct hta_events *h, struct cd **dev,
		      size_t *nd, uint32_t **calls, size_t *nc)
{
	uint32_t ids[HTA_NLAUNCH];
	hta_launch_ids(t, ids);
	struct hmap set = {0};
	size_t capc = 0, capd = 0;
	int rc = 0;
	for (size_t r = 0; r < t->ev.n && !rc; r++) {
		uint32_t v;
		int64_t c = tr_corr(t, r);
		if (c < 0 || !hta_is_launch(t, ids, r) || !hta_cpu_kept(t, h, r))
			continue;
		size_t slot = hmap_slot(&set, hmap_int(c), NULL, NULL, &v);
		if (slot == SIZE_MAX || grow((void **)calls, *nc, &capc, sizeof **calls)) {
			rc = -1;
			break;
		}
		if (v == HMAP_NONE)
			hmap_set(&set, slot, hmap_int(c), 0);
		(*calls)[(*nc)++] = (uint32_t)r;
	}
	for (size_t i = 0; i < h->n && !rc; i++) {
		int64_t c = tr_corr(t, h->v[i].row);
		if (c < 0 || hmap_get(&set, hmap_int(c), NULL, NULL) == HMAP_NONE)
			continue;
		if (grow((void **)dev, *nd, &capd, sizeof **dev))
			rc = -1;
		else
			(*dev)[(*nd)++] = (struct cd){c, (uint32_t)i};
	}
	hmap_free(&set);
	const struct rx_key k[] = {RX_KEY(struct cd, corr, RX_I64)};
	return rc ? rc : rx_sort(*dev, *nd, sizeof **dev, k, 1);
}

/* The streams of the queue length's points (the joined device events'),
 * ascending, and where each one's points go in c->ql: with c->ql NULL
 * each stream's n is counted, else each point is put at its stream's
 * next slot (at), len holding its +1 / -1 until the running sum. */
struct ql_fill {
	struct hta_counters *c;
	size_t *at;
};

static size_t ql_stream_of(const struct hta_counters *c, int64_t key)
{
	return gp_lower_bound_i64(c->streams, c->nstreams, sizeof *c->streams,
				  offsetof(struct hta_ql_stream, stream), key);
}

static void ql_put(struct ql_fill *f, int64_t key, int64_t ts, uint32_t row, int delta)
{
	size_t k = ql_stream_of(f->c, key);
	if (!f->c->ql)
		f->c->streams[k].n++;
	else
		f->c->ql[f->at[k]++] = (struct hta_ql_point){.ts = ts, .len = delta, .row = row};
}

/* The +1 and -1 points of the queue length, in HTA's concatenated order
 * (the calls' side, then the device side in row order), each given to
 * ql_put; in marks the joined device events. */
static void ql_walk(const struct trace *t, const struct hta_events *h, const struct cd *dev,
		    size_t nd, const uint32_t *calls, size_t nc, const uint8_t *in,
		    struct ql_fill *f)
{
	for (size_t i = 0; i < nc; i++) {
		int64_t c = tr_corr(t, calls[i]), a, b;
		hta_row_times(t, h, calls[i], &a, &b);
		size_t lo = gp_lower_bound_i64(dev, nd, sizeof *dev, offsetof(struct cd, corr), c);
		for (size_t j = lo; j < nd && dev[j].corr == c; j++) {
			const struct hta_ev *d = &h->v[dev[j].idx];
			ql_put(f, d->stream, a, d->row, 1);
		}
	}
	for (size_t i = 0; i < h->n; i++)
		if (in[i])
			ql_put(f, h->v[i].stream, h->v[i].ts, h->v[i].row, -1);
}

/* c->streams: the distinct streams of the joined device events, ascending. */
static int ql_streams(const struct hta_events *h, const struct cd *dev, size_t nd,
		      struct hta_counters *c)
{
	size_t cap = 0;
	for (size_t j = 0; j < nd; j++) {
		int64_t key = h->v[dev[j].idx].stream;
		size_t k = ql_stream_of(c, key);
		if (k < c->nstreams && c->streams[k].stream == key)
			continue;
		if (grow((void **)&c->streams, c->nstreams, &cap, sizeof *c->streams))
			return -1;
		memmove(c->streams + k + 1, c->streams + k, (c->nstreams - k) * sizeof *c->streams);
		c->streams[k] = (struct hta_ql_stream){.stream = key};
		c->nstreams++;
	}
	return 0;
}

/* Describe, then blocked time, of stream s's points. */
static int ql_stream(struct hta_counters *c, struct hta_ql_stream *s, int64_t max_len)
{
	double *v = malloc((s->n ? s->n : 1) * sizeof *v);
	if (!v)
		return -1;
	const struct hta_ql_point *p = c->ql + s->first;
	for (size_t i = 0; i < s->n; i++) {
		v[i] = (double)p[i].len;
		if (p[i].len < max_len)
			continue;
		s->full = true;
		if (i + 1 < s->n)
			s->blocked_ns += p[i + 1].ts - p[i].ts;
	}
	stats_describe(v, s->n, &s->desc);
	free(v);
	s->blocked_ratio = c->trace_ns ? (double)s->blocked_ns / (double)c->trace_ns : NAN;
	return 0;
}

/* HTA's queue length per stream: its points (ql_walk) by stream, then by
 * time, the earlier point first among equal times (HTA's stable sort of
 * the concatenated sides), placed by stream straight into c->ql (a count,
 * then a fill), then each stream's points sorted by time alone: no copy of
 * the points besides c->ql, and a stream's points are a few ascending runs
 * (the calls' side, the device side) that rx_sort merges. */
static int queue_length(const struct trace *t, const struct hta_events *h, int64_t max_len,
			struct hta_counters *c)
{
	struct cd *dev = NULL;
	uint32_t *calls = NULL;
	size_t nd = 0, nc = 0, *at = NULL;
	uint8_t *in = NULL;
	int rc = join_sides(t, h, &dev, &nd, &calls, &nc) || ql_streams(h, dev, nd, c) ? -1 : 0;
	if (!rc && !(in = calloc(h->n ? h->n : 1, 1)))
		rc = -1;
	for (size_t j = 0; j < nd && !rc; j++)
		in[dev[j].idx] = 1;
	struct ql_fill f = {.c = c};
	if (!rc)
		ql_walk(t, h, dev, nd, calls, nc, in, &f); /* counts */
	size_t n = 0;
	for (size_t k = 0; k < c->nstreams; k++) {
		c->streams[k].first = n;
		n += c->streams[k].n;
		if (c->streams[k].n > INT32_MAX)
			rc = -1; /* its length would not fit hta_ql_point.len */
	}
	if (!rc && (!(at = malloc((c->nstreams ? c->nstreams : 1) * sizeof *at)) ||
		    !(c->ql = malloc((n ? n : 1) * sizeof *c->ql))))
		rc = -1;
	for (size_t k = 0; k < c->nstreams && !rc; k++)
		at[k] = c->streams[k].first;
	f.at = at;
	if (!rc)
		ql_walk(t, h, dev, nd, calls, nc, in, &f); /* fills */
	free(at);
	free(in);
	free(dev);
	free(calls);
	const struct rx_key k[] = {RX_KEY(struct hta_ql_point, ts, RX_I64)};
	for (size_t s = 0; s < c->nstreams && !rc; s++) {
		struct hta_ql_point *p = c->ql + c->streams[s].first;
		rc = rx_sort(p, c->streams[s].n, sizeof *p, k, 1);
		for (size_t i = 1; i < c->streams[s].n && !rc; i++)
			p[i].len += p[i - 1].len; /* the running sum of the +1 / -1 */
	}
	c->nql = rc ? 0 : n;
	for (size_t s = 0; s < c->nstreams && !rc; s++)
		rc = ql_stream(c, &c->streams[s], max_len);
	return rc;
}

/* Bytes of the first n characters (code points) of UTF-8 text s[0..len). */
static size_t utf8_prefix(const char *s, size_t len, size_t n)
{
	size_t i = 0;
	for (size_t k = 0; i < len; i++) {
		if (((unsigned char)s[i] & 0xC0) == 0x80)
			continue;
		if (k++ == n)
			break;
	}
	return i;
}

/* HTA's memcpy kind of a memory kernel's name, as (text, bytes). */
static void bw_kind(const char *s, size_t len, const char **k, size_t *klen)
{
	if (len >= 6 && !memcmp(s, "Memset", 6)) {
		*k = "Memset";
		*klen = 6;
	} else if (len < 6 || memcmp(s, "Memcpy", 6)) {
		*k = "Memcpy Unknown";
		*klen = 14;
	} else {
		*k = s;
		*klen = utf8_prefix(s, len, 11);
	}
}

static int kind_cmp(const void *a, const void *b)
{
	const struct hta_bw_kind *x = a, *y = b;
	size_t n = x->first < y->first ? x->first : y->first; /* first holds the length here */
	int c = memcmp(x->name, y->name, n);
	return c ? c : (x->first > y->first) - (x->first < y->first);
}

/* The kind index of each memory event (SIZE_MAX: not one), kinds sorted. */
static int bw_kinds(const struct trace *t, const struct hta_events *h, struct hta_counters *c,
		    uint32_t *kidx)
{
	size_t cap = 0;
	for (size_t i = 0; i < h->n; i++) {
		kidx[i] = UINT32_MAX;
		if (h->v[i].ktype != HTA_MEMORY)
			continue;
		uint32_t nm = t->ev.name[h->v[i].row];
		const char *k;
		size_t kl;
		bw_kind(tr_str(t, nm), strpool_len(&t->pool, nm), &k, &kl);
		size_t j = 0;
		while (j < c->nkinds &&
		       !(c->kinds[j].first == kl && !memcmp(c->kinds[j].name, k, kl)))
			j++;
		if (j == c->nkinds) {
			char *name = malloc(kl + 1);
			if (!name || grow((void **)&c->kinds, c->nkinds, &cap, sizeof *c->kinds)) {
				free(name);
				return -1;
			}
			memcpy(name, k, kl);
			name[kl] = 0;
			c->kinds[c->nkinds++] = (struct hta_bw_kind){.name = name, .first = kl};
		}
		kidx[i] = (uint32_t)j;
	}
	return 0;
}

/* Sorts the kinds bytewise and renumbers kidx. */
static int sort_kinds(struct hta_counters *c, uint32_t *kidx, size_t n)
{
	uint32_t *map = malloc((c->nkinds ? c->nkinds : 1) * sizeof *map);
	if (!map)
		return -1;
	for (size_t j = 0; j < c->nkinds; j++)
		c->kinds[j].n = j; /* the old index, for the map */
	if (c->nkinds > 1)
		qsort(c->kinds, c->nkinds, sizeof *c->kinds, kind_cmp);
	for (size_t j = 0; j < c->nkinds; j++) {
		map[c->kinds[j].n] = (uint32_t)j;
		c->kinds[j].first = c->kinds[j].n = 0;
	}
	for (size_t i = 0; i < n; i++)
		if (kidx[i] != UINT32_MAX)
			kidx[i] = map[kidx[i]];
	free(map);
	return 0;
}

static int bw_summary(struct hta_counters *c)
{
	double *v = malloc((c->nbw ? c->nbw : 1) * sizeof *v);
	if (!v)
		return -1;
	for (size_t j = 0; j < c->nkinds; j++) {
		struct hta_bw_kind *k = &c->kinds[j];
		size_t m = 0;
		for (size_t i = k->first; i < k->first + k->n; i++)
			if (c->bw[i].gbps > 0)
				v[m++] = c->bw[i].gbps;
		stats_describe(v, m, &k->desc);
	}
	free(v);
	return 0;
}

static int memcpy_bw(const struct trace *t, const struct hta_events *h, struct hta_counters *c)
{
	uint32_t *kidx = malloc((h->n ? h->n : 1) * sizeof *kidx);
	struct pt *p = NULL;
	size_t n = 0, cap = 0;
	int rc = !kidx || bw_kinds(t, h, c, kidx) || sort_kinds(c, kidx, h->n);
	for (int side = 0; side < 2 && !rc; side++)
		for (size_t i = 0; i < h->n && !rc; i++) {
			if (kidx[i] == UINT32_MAX)
				continue;
			const struct hta_ev *d = &h->v[i];
			const struct tr_gpu_arg *g = tr_gpu_arg(t, d->row);
			double bw = g ? g->mem_bw_gbps : NAN;
			int64_t end = d->end == d->ts ? d->ts + 1000 : d->end;
			if (grow((void **)&p, n, &cap, sizeof *p))
				rc = -1;
			else
				p[n++] = (struct pt){.key = kidx[i],
						     .ts = side ? end : d->ts,
						     .row = d->row,
						     .gbps = side ? -bw : bw};
		}
	const struct rx_key k[] = {RX_KEY(struct pt, key, RX_I64), RX_KEY(struct pt, ts, RX_I64)};
	if (!rc)
		rc = rx_sort(p, n, sizeof *p, k, 2);
	if (!rc && n && !(c->bw = malloc(n * sizeof *c->bw)))
		rc = -1;
	double sum = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		struct hta_bw_kind *kd = &c->kinds[p[i].key];
		if (kd->n == 0) {
			kd->first = i;
			sum = 0;
		}
		kd->n++;
		if (!isnan(p[i].gbps))
			sum += p[i].gbps;
		c->bw[i] = (struct hta_bw_point){
		    .ts = p[i].ts, .gbps = isnan(p[i].gbps) ? NAN : sum, .row = p[i].row};
	}
	c->nbw = rc ? 0 : n;
	if (!rc)
		rc = bw_summary(c);
	free(p);
	free(kidx);
	return rc;
}

int hta_counters(const struct trace *t, const struct hta_events *h, int64_t max_queue_length,
		 struct hta_counters *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	out->trace_ns = trace_duration(t, h);
	int rc = queue_length(t, h, max_queue_length, out);
	if (!rc)
		rc = memcpy_bw(t, h, out);
	if (rc) {
		hta_counters_free(out);
		return err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
	}
	return 0;
}

void hta_counters_free(struct hta_counters *c)
{
	for (size_t j = 0; j < c->nkinds; j++)
		free(c->kinds[j].name);
	free(c->kinds);
	free(c->streams);
	free(c->ql);
	free(c->bw);
	memset(c, 0, sizeof *c);
}
