/* stats: see stats.h. */
#include "core/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cmp.h"
#include "core/radix.h"
#include "core/sort.h"

double stats_mean(const int64_t *v, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += (double)v[i];
	return n ? s / (double)n : 0;
}

double stats_quantile(const int64_t *sorted, size_t n, double q)
{
	double h = (double)(n - 1) * q;
	size_t lo = (size_t)floor(h);
	if (lo + 1 >= n)
		return (double)sorted[n - 1];
	double f = h - (double)lo;
	return (double)sorted[lo] + f * ((double)sorted[lo + 1] - (double)sorted[lo]);
}

/* numpy's linear interpolation: from the nearer sample, so that a
 * quantile that falls on a sample is that sample exactly. */
static double quantile_f(const double *v, size_t n, double q)
{
	double h = (double)(n - 1) * q;
	size_t lo = (size_t)floor(h);
	if (lo + 1 >= n)
		return v[n - 1];
	double f = h - (double)lo, d = v[lo + 1] - v[lo];
	return f >= 0.5 ? v[lo + 1] - d * (1 - f) : v[lo] + d * f;
}

/* An unsigned key in the order of the doubles (no NaN): the sign bit
 * flipped for a positive one, every bit for a negative one; -0 as +0, as
 * cmp_dbl has them equal. */
static uint64_t dbl_key(double x)
{
	if (x == 0)
		x = 0.0;
	uint64_t u;
	memcpy(&u, &x, sizeof u);
	return u >> 63 ? ~u : u | 1ull << 63;
}

/* v sorted ascending as a stable sort with cmp_dbl sorts it (equal values
 * keep their order: only -0 and +0 can tell). Each value is replaced by its
 * key (dbl_key, which is one to one but for -0) and the keys radix sorted
 * in place: a few linear passes instead of n log n comparator calls, and
 * one scratch copy of the values. With a -0 among the values, (key,
 * value) pairs are sorted, so that -0 and +0 keep their order. */
static void sort_dbl(double *v, size_t n)
{
	bool neg_zero = false;
	for (size_t i = 0; i < n && !neg_zero; i++)
		neg_zero = v[i] == 0 && signbit(v[i]);
	if (n > 1 && !neg_zero) {
		for (size_t i = 0; i < n; i++) {
			uint64_t k = dbl_key(v[i]);
			memcpy(&v[i], &k, sizeof k);
		}
		int rc = rx_sort_u64(v, n);
		for (size_t i = 0; i < n; i++) {
			uint64_t k;
			memcpy(&k, &v[i], sizeof k);
			k = k >> 63 ? k ^ 1ull << 63 : ~k; /* dbl_key undone */
			memcpy(&v[i], &k, sizeof k);
		}
		if (!rc)
			return;
	}
	struct kv {
		uint64_t k;
		double v;
	} *p = n > 1 ? malloc(n * sizeof *p) : NULL;
	static const struct rx_key asc = RX_KEY(struct kv, k, RX_U64);
	if (p) {
		for (size_t i = 0; i < n; i++)
			p[i] = (struct kv){dbl_key(v[i]), v[i]};
		if (!rx_sort(p, n, sizeof *p, &asc, 1)) {
			for (size_t i = 0; i < n; i++)
				v[i] = p[i].v;
			free(p);
			return;
		}
		free(p);
	}
	gp_qsort(v, n, sizeof *v, cmp_dbl);
}

void stats_describe(double *v, size_t n, struct stats_desc *d)
{
	d->count = n;
	d->mean = d->std = d->min = d->p25 = d->p50 = d->p75 = d->max = NAN;
	if (!n)
		return;
	sort_dbl(v, n);
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	d->mean = sum / (double)n;
	if (n > 1) {
		double ss = 0;
		for (size_t i = 0; i < n; i++)
			ss += (v[i] - d->mean) * (v[i] - d->mean);
		d->std = sqrt(ss / (double)(n - 1));
	}
	d->min = v[0];
	d->max = v[n - 1];
	d->p25 = quantile_f(v, n, 0.25);
	d->p50 = quantile_f(v, n, 0.50);
	d->p75 = quantile_f(v, n, 0.75);
}
