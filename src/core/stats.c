/* stats: see stats.h. */
#include "core/stats.h"

#include <math.h>

#include "core/cmp.h"
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

void stats_describe(double *v, size_t n, struct stats_desc *d)
{
	d->count = n;
	d->mean = d->std = d->min = d->p25 = d->p50 = d->p75 = d->max = NAN;
	if (!n)
		return;
	gp_qsort(v, n, sizeof *v, cmp_dbl);
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
