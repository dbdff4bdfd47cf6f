/* stats: the mean and the linear-interpolation quantile of int64 samples,
 * shared by the analyses that summarize durations (tbprof/diffstat's tests,
 * hta/idle's gap statistics, the launches view), and pandas' describe() of
 * double samples (hta/counters). Depends on core/sort, core/cmp and
 * core/radix. */
#ifndef GP_CORE_STATS_H
#define GP_CORE_STATS_H

#include <stddef.h>
#include <stdint.h>

/* The mean of v[0..n) (0 when n is 0). */
double stats_mean(const int64_t *v, size_t n);
/* Quantile q (0..1) of v[0..n) sorted ascending, by linear interpolation
 * between closest ranks (h = (n - 1) q; numpy's and pandas' default). n > 0. */
double stats_quantile(const int64_t *sorted, size_t n, double q);

/* pandas' Series.describe() of v[0..n), which it sorts ascending (NaN
 * kept out by the caller): count, mean, std (n - 1 in the divisor; NaN
 * under 2 samples), min, the 25/50/75 % linear quantiles (numpy's
 * interpolation, exact at the samples), max. All NaN when n is 0. */
struct stats_desc {
	size_t count;
	double mean, std, min, p25, p50, p75, max;
};
void stats_describe(double *v, size_t n, struct stats_desc *d);

#endif
