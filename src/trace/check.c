/* check: whole-trace anomaly checks; see check.h. Linear except for the
 * per-track sort, which is skipped when a track is already in order (the
 * common case for Kineto output). */
#include "trace/check.h"

#include "core/hmap.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static int nomem(const struct trace *t, struct err *e)
{
	return err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
}

static bool row_before(const struct trace *t, uint32_t a, uint32_t b)
{
	const int64_t *ts = t->ev.ts;
	if (ts[a] != ts[b])
		return ts[a] < ts[b];
	int64_t da = tr_dur(t, a), db = tr_dur(t, b);
	if (da != db)
		return da > db;
	return a < b;
}

/* Merge sort of rows by row_before (stable, no qsort context needed). */
static void sort_rows(const struct trace *t, uint32_t *v, uint32_t *tmp, size_t n)
{
	if (n < 2)
		return;
	if (n <= 16) {
		for (size_t i = 1; i < n; i++) {
			uint32_t x = v[i];
			size_t k = i;
			while (k && row_before(t, x, v[k - 1])) {
				v[k] = v[k - 1];
				k--;
			}
			v[k] = x;
		}
		return;
	}
	size_t h = n / 2;
	sort_rows(t, v, tmp, h);
	sort_rows(t, v + h, tmp, n - h);
	if (!row_before(t, v[h], v[h - 1]))
		return;
	memcpy(tmp, v, h * sizeof *v);
	size_t i = 0, k = h, o = 0;
	while (i < h && k < n)
		v[o++] = row_before(t, v[k], tmp[i]) ? v[k++] : tmp[i++];
	while (i < h)
		v[o++] = tmp[i++];
}

/* Natural merge sort: traces come in a few long ordered runs (each step's
 * events in order, steps or threads interleaved), so merging the runs
 * pairwise costs n log(runs) instead of n log n. bounds[0..nruns] are the
 * run starts plus n; tmp has room for n rows. */
static void merge_runs(const struct trace *t, uint32_t *v, uint32_t *tmp, size_t *bounds,
		       size_t nruns)
{
	while (nruns > 1) {
		size_t out = 0;
		for (size_t i = 0; i < nruns; i += 2) {
			size_t lo = bounds[i];
			if (i + 1 == nruns) {
				bounds[out++] = lo;
				break;
			}
			size_t mid = bounds[i + 1], hi = bounds[i + 2];
			if (row_before(t, v[mid], v[mid - 1])) {
				memcpy(tmp, v + lo, (mid - lo) * sizeof *v);
				size_t a = 0, na = mid - lo, b = mid, o = lo;
				while (a < na && b < hi)
					v[o++] = row_before(t, v[b], tmp[a]) ? v[b++] : tmp[a++];
				while (a < na)
					v[o++] = tmp[a++];
			}
			bounds[out++] = lo;
		}
		bounds[out] = bounds[nruns];
		nruns = out;
	}
}

int tr_track_order(const struct trace *t, uint32_t **rows_out, size_t **first_out)
{
	size_t ntr = t->tracks.n, n = t->ev.n;
	size_t *first = calloc(ntr + 1, sizeof *first);
	uint32_t *rows = malloc((n ? n : 1) * sizeof *rows);
	if (!first || !rows) {
		free(first);
		free(rows);
		return -1;
	}
	for (size_t r = 0; r < n; r++)
		if (t->ev.ph[r] != 'i' && !(t->ev.flags[r] & TRF_UNMATCHED))
			first[t->ev.track[r] + 1]++;
	for (size_t k = 0; k < ntr; k++)
		first[k + 1] += first[k];
	size_t *fill = malloc((ntr ? ntr : 1) * sizeof *fill);
	if (!fill) {
		free(first);
		free(rows);
		return -1;
	}
	memcpy(fill, first, ntr * sizeof *fill);
	for (size_t r = 0; r < n; r++)
		if (t->ev.ph[r] != 'i' && !(t->ev.flags[r] & TRF_UNMATCHED))
			rows[fill[t->ev.track[r]]++] = (uint32_t)r;
	free(fill);
	uint32_t *tmp = NULL;
	for (size_t k = 0; k < ntr; k++) {
		uint32_t *v = rows + first[k];
		size_t m = first[k + 1] - first[k];
		size_t i = 1;
		while (i < m && !row_before(t, v[i], v[i - 1]))
			i++;
		if (i >= m)
			continue;
		if (!tmp && !(tmp = malloc(n * sizeof *tmp))) {
			free(first);
			free(rows);
			return -1;
		}
		size_t nruns = 1;
		for (size_t j = i; j < m; j++)
			nruns += row_before(t, v[j], v[j - 1]);
		size_t *bounds = nruns <= m / 16 ? malloc((nruns + 1) * sizeof *bounds) : NULL;
		if (!bounds) {
			sort_rows(t, v, tmp, m);
			continue;
		}
		size_t b = 0;
		bounds[b++] = 0;
		for (size_t j = 1; j < m; j++)
			if (row_before(t, v[j], v[j - 1]))
				bounds[b++] = j;
		bounds[b] = m;
		merge_runs(t, v, tmp, bounds, nruns);
		free(bounds);
	}
	free(tmp);
	*rows_out = rows;
	*first_out = first;
	return 0;
}

static void add_min(struct tr_anomalies *a, enum tr_anomaly k, int64_t off)
{
	tr_anomaly_add(a, k, off);
	if (off < a->first_offset[k])
		a->first_offset[k] = off;
}

/* Partial overlaps: an event that starts inside the enclosing one and ends
 * after it. Only the enclosing chain is compared, so cost is linear in the
 * events times nesting depth. */
static int check_overlaps(const struct trace *t, struct tr_anomalies *found, struct err *e)
{
	uint32_t *rows;
	size_t *first;
	if (tr_track_order(t, &rows, &first))
		return nomem(t, e);
	uint32_t *stack = NULL;
	size_t cap = 0;
	for (size_t k = 0; k < t->tracks.n; k++) {
		size_t depth = 0;
		for (size_t i = first[k]; i < first[k + 1]; i++) {
			uint32_t r = rows[i];
			int64_t ts = t->ev.ts[r], end = ts + tr_dur(t, r);
			while (depth &&
			       t->ev.ts[stack[depth - 1]] + tr_dur(t, stack[depth - 1]) <= ts)
				depth--;
			if (depth) {
				uint32_t top = stack[depth - 1];
				if (end > t->ev.ts[top] + tr_dur(t, top)) {
					int64_t off = t->ev.offset[r] < t->ev.offset[top]
							  ? t->ev.offset[r]
							  : t->ev.offset[top];
					add_min(found, AN_OVERLAP, off);
					continue; /* not nested: it cannot enclose later events */
				}
			}
			if (depth == cap) {
				size_t ncap = cap ? cap * 2 : 64;
				uint32_t *ns = realloc(stack, ncap * sizeof *ns);
				if (!ns) {
					free(stack);
					free(rows);
					free(first);
					return nomem(t, e);
				}
				stack = ns;
				cap = ncap;
			}
			stack[depth++] = r;
		}
	}
	free(stack);
	free(rows);
	free(first);
	return 0;
}

static int check_launches(struct trace *t, struct err *e)
{
	const struct tr_events *ev = &t->ev;
	size_t nrt = t->counts.by_kind[TR_RUNTIME] + t->counts.by_kind[TR_DRIVER];
	struct hmap s; /* correlation ids of launches */
	if (hmap_init(&s, nrt + 1))
		return nomem(t, e);
	for (size_t r = 0; r < ev->n; r++) {
		int64_t c = tr_corr(t, r);
		if ((ev->kind[r] == TR_RUNTIME || ev->kind[r] == TR_DRIVER) && c >= 0 &&
		    hmap_get(&s, hmap_int(c), NULL, NULL) == HMAP_NONE &&
		    hmap_put(&s, hmap_int(c), 0)) {
			hmap_free(&s);
			return nomem(t, e);
		}
	}
	for (size_t r = 0; r < ev->n; r++)
		if (ev->kind[r] == TR_KERNEL &&
		    (tr_corr(t, r) < 0 ||
		     hmap_get(&s, hmap_int(tr_corr(t, r)), NULL, NULL) == HMAP_NONE))
			tr_anomaly_add(&t->anomalies, AN_KERNEL_NO_LAUNCH, ev->offset[r]);
	hmap_free(&s);
	return 0;
}

/* A flow's (category, id) as one exact map key. */
static uint64_t flow_key(const struct tr_flow *f)
{
	int64_t key = (int64_t)(((uint64_t)f->cat << 40) ^ (uint64_t)f->id);
	return hmap_int(key == INT64_MIN ? INT64_MIN + 1 : key);
}

/* Flow ends per (category, id): bit 1 = start seen, bit 2 = finish seen. */
static int check_flows(struct trace *t, struct err *e)
{
	const struct tr_flows *fl = &t->flows;
	struct hmap s;
	/* room for the flows as pairs (a start and a finish each, as most
	 * are): the map of a 1 GB trace's flows is then about 50 MB, not 100 */
	if (hmap_init(&s, fl->n / 2 + 1))
		return nomem(t, e);
	for (size_t i = 0; i < fl->n; i++) {
		const struct tr_flow *f = &fl->v[i];
		uint64_t key = flow_key(f);
		uint32_t bits;
		size_t k = hmap_slot(&s, key, NULL, NULL, &bits);
		if (k == SIZE_MAX) {
			hmap_free(&s);
			return nomem(t, e);
		}
		if (bits == HMAP_NONE)
			hmap_set(&s, k, key, 0);
		s.val[k] |= f->ph == 's' ? 1 : f->ph == 'f' ? 2 : 0;
	}
	/* Report in input order so the first offset is the earliest event. */
	for (size_t i = 0; i < fl->n; i++) {
		const struct tr_flow *f = &fl->v[i];
		uint32_t bits;
		size_t k = hmap_find(&s, flow_key(f), NULL, NULL, &bits);
		if (f->ph != 't' && bits != 3 && !(bits & 4)) {
			s.val[k] |= 4; /* count each flow once */
			tr_anomaly_add(&t->anomalies, AN_FLOW_ONE_END, f->offset);
		}
	}
	hmap_free(&s);
	return 0;
}

struct overlap_job {
	struct trace *t;
	struct tr_anomalies found; /* counted apart, added after the join */
	struct err e;
	int rc;
};

static void *overlap_thread(void *arg)
{
	struct overlap_job *job = arg;
	job->rc = check_overlaps(job->t, &job->found, &job->e);
	return NULL;
}

static uint64_t mag(int64_t v)
{
	return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/* The sum of |duration| over the events; past TR_DUR_SUM_MAX an error at the
 * event where the sum crosses it. Narrow durations are under 2^32 and rows
 * under 2^32, so their sum fits a uint64; the wide ones are checked one by
 * one. */
static int check_durations(const struct trace *t, struct err *e)
{
	uint64_t sum = 0;
	for (size_t r = 0; r < t->ev.n; r++)
		sum += t->ev.dur[r] <= TR_NARROW_MAX ? t->ev.dur[r] : 0;
	for (size_t i = 0; i < t->wide.n && sum <= TR_DUR_SUM_MAX; i++)
		if (t->wide.v[i].field == TRW_DUR)
			sum += mag(t->wide.v[i].value);
	if (sum <= TR_DUR_SUM_MAX)
		return 0;
	sum = 0;
	size_t r = 0;
	for (; r < t->ev.n; r++) {
		sum += mag(tr_dur(t, r));
		if (sum > TR_DUR_SUM_MAX)
			break;
	}
	return err_set(e, ERR_FORMAT, t->path, r < t->ev.n ? t->ev.offset[r] : -1,
		       "the events' durations add up past 2^56 ns (2.3 years) at this event: not a "
		       "profile whose times can be summed");
}

/* The byte counts a view sums: [memory] Bytes and memcpy/memset bytes, each
 * table's |values| together at most TR_BYTES_SUM_MAX, and the allocator's
 * totals each within it; else an error at the event holding the value
 * where it is crossed. */
static int check_bytes(const struct trace *t, struct err *e)
{
	uint64_t sum = 0;
	size_t bad = SIZE_MAX;
	enum tr_aux_table tab = TR_AUX_MEM;
	for (size_t i = 0; i < t->mem.n && bad == SIZE_MAX; i++) {
		const struct tr_mem_arg *m = &t->mem.v[i];
		sum += mag(m->bytes);
		if (sum > TR_BYTES_SUM_MAX ||
		    (m->total_allocated != INT64_MIN &&
		     mag(m->total_allocated) > TR_BYTES_SUM_MAX) ||
		    (m->total_reserved != INT64_MIN && mag(m->total_reserved) > TR_BYTES_SUM_MAX))
			bad = i;
	}
	sum = 0;
	for (size_t i = 0; i < t->gpu.n && bad == SIZE_MAX; i++) {
		sum += mag(t->gpu.v[i].bytes);
		if (sum > TR_BYTES_SUM_MAX) {
			bad = i;
			tab = TR_AUX_GPU;
		}
	}
	if (bad == SIZE_MAX)
		return 0;
	int64_t off = -1;
	for (size_t r = 0; r < t->ev.n && off < 0; r++)
		if (t->ev.aux[r] == bad && tr_aux_table((enum tr_kind)t->ev.kind[r]) == tab)
			off = t->ev.offset[r];
	return err_set(
	    e, ERR_FORMAT, t->path, off,
	    "byte counts past 2^60 (1 EiB) at this event (%s): not a profile whose sizes "
	    "can be summed",
	    tab == TR_AUX_MEM ? "[memory] Bytes or Total Allocated/Reserved"
			      : "memcpy/memset bytes");
}

int tr_check(struct trace *t, bool parallel, struct err *e)
{
	int drc = check_durations(t, e);
	if (!drc)
		drc = check_bytes(t, e);
	if (drc)
		return drc;
	/* The overlap check (a per-track sort) runs beside the other two, which
	 * only read the tables; each counts into its own anomaly set. */
	struct overlap_job job = {.t = t};
	tr_anomalies_init(&job.found);
	pthread_t th;
	bool threaded = parallel && !pthread_create(&th, NULL, overlap_thread, &job);
	if (!threaded)
		overlap_thread(&job);
	int rc = check_launches(t, e);
	if (!rc)
		rc = check_flows(t, e);
	if (threaded)
		pthread_join(th, NULL);
	if (!rc && job.rc) {
		*e = job.e;
		rc = job.rc;
	}
	if (job.found.count[AN_OVERLAP]) {
		tr_anomaly_add(&t->anomalies, AN_OVERLAP, job.found.first_offset[AN_OVERLAP]);
		t->anomalies.count[AN_OVERLAP] += job.found.count[AN_OVERLAP] - 1;
	}
	return rc;
}
