/* gpumetrics: GPU utilization, SM efficiency, occupancy and the
 * utilization timeline; see gpumetrics.h. One sort of the kernels by
 * (device, ts, row), then linear passes per device. */
#include "core/radix.h"
#include "tbprof/gpumetrics.h"
#include "tbprof/tbtime.h"

#include <stdlib.h>
#include <string.h>

struct kern {
	int64_t device, ts;
	uint32_t row;
};

static const struct rx_key by_device_ts_row[] = {RX_KEY(struct kern, device, RX_I64),
						 RX_KEY(struct kern, ts, RX_I64),
						 RX_KEY(struct kern, row, RX_U32)};

/* Row r's [start, end): exact, or under tb as the plugin's floats give
 * them (tbtime.h); a negative duration counts as 0. */
static struct tb_span span_of(const struct trace *t, size_t r, bool tb)
{
	struct tb_span sp = tb_span(t, r, tb);
	if (sp.end < sp.start)
		sp.end = sp.start;
	return sp;
}

static double us(int64_t ns)
{
	return (double)ns / 1000.0;
}

/* Events the reference parses (its category table), for the timeline
 * range when the trace has no profiler window event. */
static bool read_by_reference(enum tr_kind k)
{
	switch (k) {
	case TR_CPU_OP:
	case TR_USER_ANNOTATION:
	case TR_GPU_USER_ANNOTATION:
	case TR_PYTHON_FUNCTION:
	case TR_PYTHON:
	case TR_RUNTIME:
	case TR_KERNEL:
	case TR_MEMCPY:
	case TR_MEMSET:
	case TR_TRACE_SPAN:
		return true;
	default:
		return false;
	}
}

/* §6.2 range: the last (in ts order) profiler window event, else min..max. */
static void timeline_range(const struct trace *t, bool tb, struct gm_result *out)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	int64_t wts = INT64_MIN;
	struct tb_span wsp = {0, 0};
	bool win = false;
	for (size_t r = 0; r < t->ev.n; r++) {
		enum tr_kind k = t->ev.kind[r];
		if (t->ev.ph[r] != 'X' || !read_by_reference(k))
			continue;
		struct tb_span sp = span_of(t, r, tb);
		lo = sp.start < lo ? sp.start : lo;
		hi = sp.end > hi ? sp.end : hi;
		uint32_t id = t->ev.name[r];
		if (k == TR_TRACE_SPAN && t->ev.ts[r] >= wts &&
		    tr_is_profiler_window(tr_str(t, id), strpool_len(&t->pool, id))) {
			wts = t->ev.ts[r];
			wsp = sp;
			win = true;
		}
	}
	if (win) {
		out->has_range = true;
		out->range_start = wsp.start;
		out->range_end = wsp.end;
	} else if (lo != INT64_MAX) {
		out->has_range = true;
		out->range_start = lo;
		out->range_end = hi;
	}
}

/* Bucket size: the smallest power of ten µs giving at most 100 buckets. */
static void bucket_size(struct gm_result *out)
{
	if (!out->has_range || out->range_end <= out->range_start)
		return;
	int64_t range = out->range_end - out->range_start, size = 1000;
	while (range > 100 * size && size <= INT64_MAX / 1000)
		size *= 10;
	if (range / size > 0)
		out->bucket_ns = size;
}

static int timeline(const struct gm_result *out, const struct rg_index *ix, struct gm_gpu *g)
{
	if (!out->bucket_ns)
		return 0;
	int64_t s = out->range_start, size = out->bucket_ns;
	size_t nb = (size_t)((out->range_end - s) / size);
	g->buckets = malloc((nb + 1) * sizeof *g->buckets);
	if (!g->buckets)
		return -1;
	for (size_t i = 0; i < nb; i++) {
		int64_t b0 = s + (int64_t)i * size;
		int64_t b1 = i + 1 < nb ? b0 + size : out->range_end; /* the last one stretches */
		g->buckets[i] =
		    (struct gm_bucket){b0, (double)rg_measure(ix, b0, b1) / (double)(b1 - b0)};
	}
	g->buckets[nb] = (struct gm_bucket){out->range_end, 0.0};
	g->nbuckets = nb + 1;
	return 0;
}

/* One GPU's kernels k[0..n), in (ts, row) order. */
static int one_gpu(const struct trace *t, bool tb, const struct kern *k, size_t n,
		   bool want_timeline, struct gm_result *out, struct gm_gpu *g)
{
	struct rg_vec ranges = {0};
	struct rgv *bps = malloc(n * sizeof *bps);
	struct rgv_vec sweep = {0};
	struct rg_index ix = {0};
	int rc = -1;
	if (!bps || rg_reserve(&ranges, n))
		goto done;
	bool win = out->has_window && out->win_end > out->win_start;
	int64_t ws = out->win_start, we = out->win_end;
	size_t nbps = 0;
	double occ_sum = 0.0;
	int64_t occ_time = 0;
	g->id = k[0].device;
	g->kernels = n;
	for (size_t i = 0; i < n; i++) {
		size_t r = k[i].row;
		const struct tr_gpu_arg *a =
		    t->ev.aux[r] != TR_NONE ? &t->gpu.v[t->ev.aux[r]] : NULL;
		struct tb_span sp = span_of(t, r, tb);
		int64_t s = sp.start, e = sp.end;
		ranges.v[ranges.n++] = (struct rg){s, e};
		if (a && a->blocks_per_sm > 0.0) {
			bps[nbps++] = (struct rgv){s, e, a->blocks_per_sm};
			g->blocks_per_sm_count++;
		}
		if (a && a->occupancy >= 0.0) {
			g->occupancy_count++;
			int64_t lo = s > ws ? s : ws, hi = e < we ? e : we;
			if (win && lo < hi) {
				occ_sum += a->occupancy * us(hi - lo);
				occ_time += hi - lo;
			}
		}
	}
	ranges.n = rg_merge(ranges.v, ranges.n);
	if (rg_index_build(&ix, ranges.v, ranges.n) || rgv_sweep(bps, nbps, &sweep))
		goto done;
	if (win) {
		g->busy_ns = rg_measure(&ix, ws, we);
		g->has_utilization = true;
		g->utilization = (double)g->busy_ns / (double)(we - ws);
		double sum = 0.0;
		bool any = false;
		for (size_t i = 0; i < sweep.n; i++) {
			const struct rgv *v = &sweep.v[i];
			int64_t lo = v->start > ws ? v->start : ws, hi = v->end < we ? v->end : we;
			if (lo < hi) {
				sum += v->value * us(hi - lo);
				any = true;
			}
		}
		if (any) {
			g->has_sm_efficiency = true;
			g->sm_efficiency = sum / us(we - ws);
		}
		if (occ_time > 0) {
			g->has_occupancy = true;
			g->occupancy = occ_sum / us(occ_time);
		}
	}
	if (want_timeline) {
		if (timeline(out, &ix, g))
			goto done;
		g->sm_ranges = sweep;
		sweep = (struct rgv_vec){0};
	}
	rc = 0;
done:
	free(bps);
	rg_vec_free(&ranges);
	rgv_vec_free(&sweep);
	rg_index_free(&ix);
	return rc;
}

/* The kernels with a device, sorted by (device, ts, row), malloc'd. */
static int collect(const struct trace *t, struct kern **out, size_t *n)
{
	size_t nk = 0;
	for (size_t r = 0; r < t->ev.n; r++)
		nk += t->ev.ph[r] == 'X' && t->ev.kind[r] == TR_KERNEL && t->ev.aux[r] != TR_NONE &&
		      t->gpu.v[t->ev.aux[r]].device >= 0;
	struct kern *k = malloc((nk ? nk : 1) * sizeof *k);
	if (!k)
		return -1;
	nk = 0;
	for (size_t r = 0; r < t->ev.n; r++)
		if (t->ev.ph[r] == 'X' && t->ev.kind[r] == TR_KERNEL && t->ev.aux[r] != TR_NONE &&
		    t->gpu.v[t->ev.aux[r]].device >= 0)
			k[nk++] =
			    (struct kern){t->gpu.v[t->ev.aux[r]].device, t->ev.ts[r], (uint32_t)r};
	if (rx_sort(k, nk, sizeof *k, by_device_ts_row, 3)) {
		free(k);
		return -1;
	}
	*out = k;
	*n = nk;
	return 0;
}

int gm_compute(const struct trace *t, bool tb_compat, bool has_window, int64_t win_start,
	       int64_t win_end, bool want_timeline, struct gm_result *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	out->has_window = has_window;
	out->win_start = win_start;
	out->win_end = win_end;
	timeline_range(t, tb_compat, out);
	bucket_size(out);
	size_t nk = 0, ngpu = 0;
	struct kern *k = NULL;
	if (collect(t, &k, &nk))
		goto nomem;
	for (size_t i = 0; i < nk; i++)
		ngpu += !i || k[i].device != k[i - 1].device;
	out->gpus = calloc(ngpu ? ngpu : 1, sizeof *out->gpus);
	if (!out->gpus)
		goto nomem;
	for (size_t i = 0; i < nk;) {
		size_t j = i;
		while (j < nk && k[j].device == k[i].device)
			j++;
		if (one_gpu(t, tb_compat, k + i, j - i, want_timeline, out, &out->gpus[out->n++]))
			goto nomem;
		i = j;
	}
	free(k);
	return 0;
nomem:
	free(k);
	gm_free(out);
	return err_set(e, ERR_NOMEM, t->path, -1, "out of memory computing GPU metrics");
}

void gm_free(struct gm_result *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->gpus[i].buckets);
		rgv_vec_free(&r->gpus[i].sm_ranges);
	}
	free(r->gpus);
	memset(r, 0, sizeof *r);
}

int gm_busy(const struct trace *t, const struct rg *win, size_t nwin, struct gm_busy *out,
	    struct err *e)
{
	memset(out, 0, sizeof *out);
	struct kern *k = NULL;
	size_t nk = 0, ngpu = 0;
	struct rg_vec ranges = {0};
	struct rg_index ix = {0};
	if (collect(t, &k, &nk))
		goto nomem;
	for (size_t i = 0; i < nk; i++)
		ngpu += !i || k[i].device != k[i - 1].device;
	out->gpus = malloc((ngpu ? ngpu : 1) * sizeof *out->gpus);
	size_t nb = ngpu * nwin;
	out->busy = malloc((nb ? nb : 1) * sizeof *out->busy);
	if (!out->gpus || !out->busy || rg_reserve(&ranges, nk))
		goto nomem;
	out->nwin = nwin;
	for (size_t i = 0, j; i < nk; i = j) {
		ranges.n = 0;
		for (j = i; j < nk && k[j].device == k[i].device; j++) {
			struct tb_span sp = span_of(t, k[j].row, false);
			ranges.v[ranges.n++] = (struct rg){sp.start, sp.end};
		}
		ranges.n = rg_merge(ranges.v, ranges.n);
		rg_index_free(&ix);
		if (rg_index_build(&ix, ranges.v, ranges.n))
			goto nomem;
		for (size_t w = 0; w < nwin; w++)
			out->busy[w * ngpu + out->n] = rg_measure(&ix, win[w].start, win[w].end);
		out->gpus[out->n++] = k[i].device;
	}
	free(k);
	rg_vec_free(&ranges);
	rg_index_free(&ix);
	return 0;
nomem:
	free(k);
	rg_vec_free(&ranges);
	rg_index_free(&ix);
	gm_busy_free(out);
	return err_set(e, ERR_NOMEM, t->path, -1, "out of memory computing GPU metrics");
}

void gm_busy_free(struct gm_busy *b)
{
	free(b->gpus);
	free(b->busy);
	memset(b, 0, sizeof *b);
}
