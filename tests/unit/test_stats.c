/* core/stats' describe(): its sort (a radix sort of order-preserving keys)
 * against hand-ordered values, -0 and +0 kept in input order as a stable
 * comparator sort keeps them, and against libc's qsort on random doubles;
 * its figures worked out by hand. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cmp.h"
#include "core/stats.h"
#include "test.h"

void test_stats_describe_order(struct t *t)
{
	double v[] = {3.5, -0.0, -2, 0.0, 1e300, -1e-300, 3.5, -INFINITY, 7};
	struct stats_desc d;
	stats_describe(v, 9, &d);
	const double want[] = {-INFINITY, -2, -1e-300, -0.0, 0.0, 3.5, 3.5, 7, 1e300};
	for (size_t i = 0; i < 9; i++)
		CHECK(t, v[i] == want[i]);
	/* the zeros in input order: -0 came first */
	CHECK(t, signbit(v[3]) && !signbit(v[4]));
	double w[] = {0.0, 1, -0.0};
	stats_describe(w, 3, &d);
	CHECK(t, !signbit(w[0]) && signbit(w[1]) && w[2] == 1);
	/* {0, -0, 1}: mean 1/3; std sqrt(((1/3)^2 * 2 + (2/3)^2) / 2) =
	 * sqrt(1/3); h = 2q: p25 h = 0.5 -> the upper sample's side, -0 + 0;
	 * p50 = -0 (a sample); p75 h = 1.5 -> 1 - 1 * 0.5 = 0.5 */
	CHECK_DBL(t, d.mean, 1.0 / 3, 1e-15);
	CHECK_DBL(t, d.std, sqrt(1.0 / 3), 1e-15);
	CHECK_DBL(t, d.min, 0, 0);
	CHECK_DBL(t, d.p50, 0, 0);
	CHECK_DBL(t, d.p75, 0.5, 1e-15);
	CHECK_DBL(t, d.max, 1, 0);
}

void test_stats_describe_random(struct t *t)
{
	enum { N = 50000 };
	double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
	CHECK(t, a && b);
	if (!a || !b) {
		free(a);
		free(b);
		return;
	}
	unsigned long long x = 88172645463325252ull;
	for (size_t i = 0; i < N; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		/* a mix of magnitudes, signs and repeats */
		double m = (double)(x % 1000) - 500;
		a[i] = i % 7 == 0 ? m : m * pow(10, (double)((x >> 20) % 40) - 20);
	}
	memcpy(b, a, N * sizeof *a);
	struct stats_desc d;
	stats_describe(a, N, &d);
	qsort(b, N, sizeof *b, cmp_dbl);
	CHECK(t, memcmp(a, b, N * sizeof *a) == 0);
	free(a);
	free(b);
}
