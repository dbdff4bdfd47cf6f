/* stats: the mean and the linear-interpolation quantile of int64 samples,
 * shared by the analyses that summarize durations (tbprof/diffstat's tests,
 * hta/idle's gap statistics, the launches view). Depends on libc only. */
#ifndef GP_CORE_STATS_H
#define GP_CORE_STATS_H

#include <stddef.h>
#include <stdint.h>

/* The mean of v[0..n) (0 when n is 0). */
double stats_mean(const int64_t *v, size_t n);
/* Quantile q (0..1) of v[0..n) sorted ascending, by linear interpolation
 * between closest ranks (h = (n - 1) q; numpy's and pandas' default). n > 0. */
double stats_quantile(const int64_t *sorted, size_t n, double q);

#endif
