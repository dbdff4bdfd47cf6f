/* stats: see stats.h. */
#include "core/stats.h"

#include <math.h>

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
