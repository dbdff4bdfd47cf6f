/* stats: the duration summary S(values) of analysis.json.
 *
 * Mirrors the reference analyzer (Python): total is the exact integer sum,
 * mean the float quotient, median statistics.median (a middle element stays
 * an integer; the mean of two middles is a float), sample standard deviation
 * with an n - 1 denominator, 0.0 for a single value. The variance is computed
 * from exact 128-bit integer sums (n*sum(x^2) - sum(x)^2) so it is rounded
 * once, like Python's exact Fraction arithmetic; only the final division and
 * square root round.
 */
#include <math.h>
#include <stdlib.h>

#include "core/cmp.h"
#include "core/sort.h"
#include "nsys/nsys.h"

double nsys_median(const int64_t *sorted, size_t n, bool *is_int)
{
	if (n % 2) {
		*is_int = true;
		return (double)sorted[n / 2];
	}
	*is_int = false;
	/* Python: (a + b) / 2 on ints is exact integer addition then one
	 * correctly rounded division; long double keeps the sum exact. */
	return (double)(((long double)sorted[n / 2 - 1] + (long double)sorted[n / 2]) / 2.0L);
}

double nsys_stddev(const int64_t *values, size_t n)
{
	if (n < 2)
		return 0.0;
	uint64_t big = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t m = values[i] < 0 ? -(uint64_t)values[i] : (uint64_t)values[i];
		big = m > big ? m : big;
	}
	if (big && (uint64_t)n > (UINT64_C(1) << 63) / big) {
		/* hostile magnitudes: n * sum(x^2) would overflow 128 bits; two
		 * passes in long double (finite, not exact) */
		long double mean = 0, ss = 0;
		for (size_t i = 0; i < n; i++)
			mean += ((long double)values[i] - mean) / (long double)(i + 1);
		for (size_t i = 0; i < n; i++) {
			long double d = (long double)values[i] - mean;
			ss += d * d;
		}
		return (double)sqrtl(ss / (long double)(n - 1));
	}
	__int128 sum = 0, sq = 0;
	for (size_t i = 0; i < n; i++) {
		sum += values[i];
		sq += (__int128)values[i] * values[i];
	}
	__int128 num = (__int128)n * sq - sum * sum; /* = n * sum((x - mean)^2) */
	__int128 den = (__int128)n * (__int128)(n - 1);
	if (num <= 0)
		return 0.0;
	/* long double keeps num and den exact up to 2^64, so one rounding in the
	 * quotient and one in the root. */
	long double var = (long double)num / (long double)den;
	return (double)sqrtl(var);
}

struct nsys_jv *nsys_summary(struct arena *a, int64_t *values, size_t n)
{
	gp_qsort(values, n, sizeof *values, cmp_i64);
	int64_t total = 0;
	for (size_t i = 0; i < n; i++)
		if (!nsys_add(&total, values[i]))
			return NULL;
	bool med_int;
	double med = nsys_median(values, n, &med_int);
	struct nsys_jv *s = nsys_jv_new(a, NSYS_JOBJ);
	if (!s)
		return NULL;
	int rc = 0;
	rc |= nsys_jv_set(a, s, "total_ns", nsys_jv_int(a, total));
	rc |= nsys_jv_set(a, s, "mean_ns", nsys_jv_float(a, (double)total / (double)n));
	rc |= nsys_jv_set(a, s, "median_ns",
			  med_int ? nsys_jv_int(a, values[n / 2]) : nsys_jv_float(a, med));
	rc |= nsys_jv_set(a, s, "minimum_ns", nsys_jv_int(a, values[0]));
	rc |= nsys_jv_set(a, s, "maximum_ns", nsys_jv_int(a, values[n - 1]));
	rc |= nsys_jv_set(a, s, "stddev_ns", nsys_jv_float(a, nsys_stddev(values, n)));
	return rc ? NULL : s;
}
