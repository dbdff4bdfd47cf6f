/* ranges: interval algebra with torch-tb-profiler's semantics; see ranges.h. */
#include "core/radix.h"
#include "core/sort.h"
#include "tbprof/ranges.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int grow(void **v, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap : 16;
	while (c < need) {
		if (c > SIZE_MAX / 2 / size)
			return -1;
		c *= 2;
	}
	void *p = realloc(*v, c * size);
	if (!p)
		return -1;
	*v = p;
	*cap = c;
	return 0;
}

int rg_reserve(struct rg_vec *a, size_t n)
{
	if (n > SIZE_MAX - a->n)
		return -1;
	return grow((void **)&a->v, &a->cap, a->n + n, sizeof *a->v);
}

int rg_push(struct rg_vec *a, int64_t start, int64_t end)
{
	if (a->n == a->cap && rg_reserve(a, 1))
		return -1;
	a->v[a->n++] = (struct rg){start, end};
	return 0;
}

void rg_vec_free(struct rg_vec *a)
{
	free(a->v);
	memset(a, 0, sizeof *a);
}

static int cmp_rg(const void *x, const void *y)
{
	const struct rg *a = x, *b = y;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return (a->end > b->end) - (a->end < b->end);
}

/* Ranges equal in both keys are equal records, so the comparator sort
 * is an exact stand-in when the radix sort's scratch copy is refused. */
void rg_sort(struct rg *v, size_t n)
{
	static const struct rx_key by_range[] = {RX_KEY(struct rg, start, RX_I64),
						 RX_KEY(struct rg, end, RX_I64)};
	if (n > 1 && rx_sort(v, n, sizeof *v, by_range, 2))
		gp_qsort(v, n, sizeof *v, cmp_rg);
}

/* The reference folds a start-sorted list: a range extends the last kept
 * one when it ends later and starts no later than that one's end, starts a
 * new one when it ends later and starts after it, and is dropped when it
 * ends no later. (Among equal starts the order does not change the result,
 * so sorting by (start, end) is as good as the reference's stable sort.) */
size_t rg_merge(struct rg *v, size_t n)
{
	if (!n)
		return 0;
	size_t k = 0;
	for (size_t i = 1; i < n; i++) {
		if (v[i].end <= v[k].end)
			continue;
		if (v[i].start <= v[k].end)
			v[k].end = v[i].end;
		else
			v[++k] = v[i];
	}
	return k + 1;
}

/* Whether x sorts before y by (start, end). */
static bool rg_before(const struct rg *x, const struct rg *y)
{
	return x->start < y->start || (x->start == y->start && x->end < y->end);
}

int rg_union(const struct rg *a, size_t na, const struct rg *b, size_t nb, struct rg_vec *out)
{
	out->n = 0;
	if (rg_reserve(out, na + nb))
		return -1;
	size_t i = 0, j = 0;
	while (i < na || j < nb) /* equal ranges are equal records: either first */
		out->v[out->n++] =
		    j == nb || (i < na && !rg_before(&b[j], &a[i])) ? a[i++] : b[j++];
	out->n = rg_merge(out->v, out->n);
	return 0;
}

int64_t rg_total(const struct rg *v, size_t n)
{
	int64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += v[i].end - v[i].start;
	return s;
}

/* Both walks keep a current range from each list (r1 from a, r2 from b),
 * trimmed as it is consumed; "next" reloads the untrimmed next element. */
int rg_subtract(const struct rg *a, size_t na, const struct rg *b, size_t nb, struct rg_vec *out)
{
	out->n = 0;
	if (!na)
		return 0;
	if (rg_reserve(out, na + nb))
		return -1;
	if (!nb) {
		memcpy(out->v, a, na * sizeof *a);
		out->n = na;
		return 0;
	}
	size_t i1 = 0, i2 = 0;
	struct rg r1 = a[0], r2 = b[0];
	while (i1 < na) {
		if (i2 == nb) {
			out->v[out->n++] = r1;
			if (++i1 < na)
				r1 = a[i1];
		} else if (r2.end <= r1.start) {
			if (++i2 < nb)
				r2 = b[i2];
		} else if (r2.start <= r1.start && r2.end < r1.end) {
			r1.start = r2.end;
			if (++i2 < nb)
				r2 = b[i2];
		} else if (r2.start <= r1.start) { /* r2 covers the rest of r1 */
			r2.start = r1.end;
			if (++i1 < na)
				r1 = a[i1];
		} else if (r2.start < r1.end) { /* r2 starts inside r1 */
			out->v[out->n++] = (struct rg){r1.start, r2.start};
			r1.start = r2.start;
		} else { /* r2 starts at or after r1's end */
			out->v[out->n++] = r1;
			if (++i1 < na)
				r1 = a[i1];
		}
	}
	return 0;
}

int rg_intersect(const struct rg *a, size_t na, const struct rg *b, size_t nb, struct rg_vec *out)
{
	out->n = 0;
	if (!na || !nb)
		return 0;
	if (rg_reserve(out, na + nb))
		return -1;
	size_t i1 = 0, i2 = 0;
	struct rg r1 = a[0], r2 = b[0];
	while (i1 < na && i2 < nb) {
		if (r2.end <= r1.start) {
			if (++i2 < nb)
				r2 = b[i2];
		} else if (r2.start <= r1.start && r2.end < r1.end) {
			out->v[out->n++] = (struct rg){r1.start, r2.end};
			r1.start = r2.end;
			if (++i2 < nb)
				r2 = b[i2];
		} else if (r2.start <= r1.start) { /* r2 covers the rest of r1 */
			out->v[out->n++] = r1;
			r2.start = r1.end;
			if (++i1 < na)
				r1 = a[i1];
		} else if (r2.end < r1.end) { /* r2 inside r1 */
			out->v[out->n++] = r2;
			r1.start = r2.end;
			if (++i2 < nb)
				r2 = b[i2];
		} else if (r2.start < r1.end) { /* r2 starts inside r1, ends after */
			out->v[out->n++] = (struct rg){r2.start, r1.end};
			r2.start = r1.end;
			if (++i1 < na)
				r1 = a[i1];
		} else {
			if (++i1 < na)
				r1 = a[i1];
		}
	}
	return 0;
}

int rg_index_build(struct rg_index *ix, const struct rg *v, size_t n)
{
	ix->v = v;
	ix->n = n;
	ix->prefix = malloc((n + 1) * sizeof *ix->prefix);
	if (!ix->prefix)
		return -1;
	ix->prefix[0] = 0;
	for (size_t i = 0; i < n; i++)
		ix->prefix[i + 1] = ix->prefix[i] + (v[i].end - v[i].start);
	return 0;
}

void rg_index_free(struct rg_index *ix)
{
	free(ix->prefix);
	memset(ix, 0, sizeof *ix);
}

/* Length of the list before x: the ranges are sorted and do not overlap,
 * so their ends are sorted too. */
static int64_t before(const struct rg_index *ix, int64_t x)
{
	size_t lo = 0, hi = ix->n; /* first range with start >= x */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ix->v[mid].start < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return 0;
	const struct rg *r = &ix->v[lo - 1];
	return ix->prefix[lo - 1] + ((r->end < x ? r->end : x) - r->start);
}

int64_t rg_measure(const struct rg_index *ix, int64_t a, int64_t b)
{
	return b <= a ? 0 : before(ix, b) - before(ix, a);
}

void rgv_vec_free(struct rgv_vec *a)
{
	free(a->v);
	memset(a, 0, sizeof *a);
}

struct endpoint {
	int64_t time;
	uint32_t is_end; /* starts sort before ends at equal times */
	uint32_t seq;	 /* then the order of the source */
	double value;
};

static const struct rx_key by_endpoint[] = {RX_KEY(struct endpoint, time, RX_I64),
					    RX_KEY(struct endpoint, is_end, RX_U32),
					    RX_KEY(struct endpoint, seq, RX_U32)};

int rgv_sweep(const struct rgv *src, size_t n, struct rgv_vec *out)
{
	out->n = 0;
	if (!n)
		return 0;
	if (n > UINT32_MAX / 2 || n > SIZE_MAX / 2 / sizeof(struct endpoint))
		return -1;
	struct endpoint *ep = malloc(2 * n * sizeof *ep);
	if (!ep || grow((void **)&out->v, &out->cap, 2 * n, sizeof *out->v)) {
		free(ep);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		ep[2 * i] = (struct endpoint){src[i].start, 0, (uint32_t)(2 * i), src[i].value};
		ep[2 * i + 1] =
		    (struct endpoint){src[i].end, 1, (uint32_t)(2 * i + 1), src[i].value};
	}
	if (rx_sort(ep, 2 * n, sizeof *ep, by_endpoint, 3)) {
		free(ep);
		return -1;
	}
	int64_t last_time = ep[0].time;
	double sum = ep[0].value; /* the first endpoint is always a start */
	for (size_t i = 1; i < 2 * n; i++) {
		if (ep[i].time > last_time && sum > 0.0)
			out->v[out->n++] =
			    (struct rgv){last_time, ep[i].time, sum < 1.0 ? sum : 1.0};
		last_time = ep[i].time;
		if (ep[i].is_end)
			sum -= ep[i].value;
		else
			sum += ep[i].value;
	}
	free(ep);
	return 0;
}
