/* Interval algebra: the four upstream range_utils tests
 * (shared/data/tbprof/cases/test_ranges.expected.json, µs values scaled to
 * ns) and hand-made degenerate cases worked out from the reference rules. */
#include <stdlib.h>
#include <string.h>

#include "tbprof/ranges.h"
#include "test.h"

#define N(a) (sizeof a / sizeof a[0])

static void check_list(struct t *t, int line, const struct rg *got, size_t ngot,
		       const struct rg *want, size_t nwant)
{
	if (ngot != nwant) {
		t_fail(t, __FILE__, line, "list has %zu ranges, want %zu", ngot, nwant);
		return;
	}
	for (size_t i = 0; i < ngot; i++)
		if (got[i].start != want[i].start || got[i].end != want[i].end)
			t_fail(t, __FILE__, line, "range %zu = [%lld, %lld], want [%lld, %lld]", i,
			       (long long)got[i].start, (long long)got[i].end,
			       (long long)want[i].start, (long long)want[i].end);
}

void test_ranges_upstream(struct t *t)
{
	/* test_merge_ranges */
	struct rg m[] = {{1100, 2200}, {1500, 2300}, {3300, 3900},
			 {3500, 3600}, {3700, 3800}, {4100, 4200}};
	size_t nm = rg_merge(m, N(m));
	const struct rg mw[] = {{1100, 2300}, {3300, 3900}, {4100, 4200}};
	check_list(t, __LINE__, m, nm, mw, N(mw));

	const struct rg a[] = {{1100, 2200}, {3300, 4400}, {5500, 6600}};
	const struct rg b[] = {{0, 100}, {1000, 1400}, {1500, 1600}, {1900, 3400}, {4300, 4600}};
	struct rg_vec out = {0};
	/* test_subtract_ranges_lists */
	CHECK_INT(t, rg_subtract(a, N(a), b, N(b), &out), 0);
	const struct rg sw[] = {{1400, 1500}, {1600, 1900}, {3400, 4300}, {5500, 6600}};
	check_list(t, __LINE__, out.v, out.n, sw, N(sw));
	/* test_intersection_ranges_lists */
	CHECK_INT(t, rg_intersect(a, N(a), b, N(b), &out), 0);
	const struct rg iw[] = {
	    {1100, 1400}, {1500, 1600}, {1900, 2200}, {3300, 3400}, {4300, 4400}};
	check_list(t, __LINE__, out.v, out.n, iw, N(iw));
	/* test_get_ranges_sum: 3.3 µs */
	CHECK_INT(t, rg_total(a, N(a)), 3300);
	rg_vec_free(&out);
}

void test_ranges_degenerate(struct t *t)
{
	struct rg_vec out = {0};
	/* touching ranges merge; contained and zero-length-inside ones vanish;
	 * an isolated zero-length range survives */
	struct rg m[] = {{0, 10}, {10, 20}, {12, 15}, {20, 20}, {30, 30}, {30, 35}, {40, 40}};
	rg_sort(m, N(m));
	size_t nm = rg_merge(m, N(m));
	const struct rg mw[] = {{0, 20}, {30, 35}, {40, 40}};
	check_list(t, __LINE__, m, nm, mw, N(mw));
	CHECK_INT(t, rg_merge(m, 0), 0);

	/* a zero-length range inside splits a range into two touching ones
	 * when subtracted, and is kept when intersected (the reference does
	 * both; lengths are unchanged) */
	const struct rg a[] = {{0, 10}};
	const struct rg z[] = {{5, 5}};
	CHECK_INT(t, rg_subtract(a, 1, z, 1, &out), 0);
	const struct rg sw[] = {{0, 5}, {5, 10}};
	check_list(t, __LINE__, out.v, out.n, sw, N(sw));
	CHECK_INT(t, rg_intersect(a, 1, z, 1, &out), 0);
	check_list(t, __LINE__, out.v, out.n, z, 1);

	/* subtracting everything leaves an empty list; empty operands */
	const struct rg all[] = {{-5, 20}};
	CHECK_INT(t, rg_subtract(a, 1, all, 1, &out), 0);
	CHECK_INT(t, out.n, 0);
	CHECK_INT(t, rg_subtract(a, 1, NULL, 0, &out), 0);
	check_list(t, __LINE__, out.v, out.n, a, 1);
	CHECK_INT(t, rg_intersect(a, 1, NULL, 0, &out), 0);
	CHECK_INT(t, out.n, 0);
	/* ranges that only touch do not intersect */
	const struct rg touch[] = {{10, 12}};
	CHECK_INT(t, rg_intersect(a, 1, touch, 1, &out), 0);
	CHECK_INT(t, out.n, 0);

	/* measure of a disjoint list inside windows */
	const struct rg l[] = {{0, 10}, {20, 30}, {40, 45}};
	struct rg_index ix;
	CHECK_INT(t, rg_index_build(&ix, l, N(l)), 0);
	CHECK_INT(t, rg_measure(&ix, -100, 100), 25);
	CHECK_INT(t, rg_measure(&ix, 5, 25), 10);
	CHECK_INT(t, rg_measure(&ix, 10, 20), 0);
	CHECK_INT(t, rg_measure(&ix, 29, 41), 2);
	CHECK_INT(t, rg_measure(&ix, 44, 44), 0);
	CHECK_INT(t, rg_measure(&ix, 30, 20), 0);
	rg_index_free(&ix);
	rg_vec_free(&out);
}

void test_ranges_sweep(struct t *t)
{
	/* the upstream test_gpu_utilization kernels on device 1, in trace
	 * (ts) order, as (start, end, blocks per SM) in ns; the expected
	 * values are the reference dump's sm_efficiency_ranges, bit for bit,
	 * float residue included */
	const struct rgv src[] = {{130000, 140000, 0.5},
				  {135000, 150000, 0.6},
				  {145000, 170000, 0.3},
				  {150000, 150000, 0.3},
				  {200000, 220000, 10.5}};
	const struct rgv want[] = {{130000, 135000, 0.5},
				   {135000, 140000, 1.0},
				   {140000, 145000, 0.6000000000000001},
				   {145000, 150000, 0.9000000000000001},
				   {150000, 170000, 0.3000000000000002},
				   {170000, 200000, 2.220446049250313e-16},
				   {200000, 220000, 1.0}};
	struct rgv_vec out = {0};
	CHECK_INT(t, rgv_sweep(src, N(src), &out), 0);
	CHECK_INT(t, out.n, N(want));
	for (size_t i = 0; i < out.n && i < N(want); i++) {
		CHECK_INT(t, out.v[i].start, want[i].start);
		CHECK_INT(t, out.v[i].end, want[i].end);
		CHECK_DBL(t, out.v[i].value, want[i].value, 0);
	}
	CHECK_INT(t, rgv_sweep(src, 0, &out), 0);
	CHECK_INT(t, out.n, 0);
	rgv_vec_free(&out);
}

/* rg_union: two merged lists into one, as sorting and merging them
 * together does (hand-computed; and against rg_sort + rg_merge of the
 * concatenation on lists with touching, equal and zero-length ranges). */
void test_ranges_union(struct t *t)
{
	struct rg_vec out = {0};
	const struct rg a[] = {{0, 10}, {20, 30}, {40, 40}};
	const struct rg b[] = {{5, 12}, {30, 35}, {40, 40}, {50, 60}};
	CHECK_INT(t, rg_union(a, N(a), b, N(b), &out), 0);
	const struct rg uw[] = {{0, 12}, {20, 35}, {40, 40}, {50, 60}};
	check_list(t, __LINE__, out.v, out.n, uw, N(uw));
	CHECK_INT(t, rg_union(a, N(a), NULL, 0, &out), 0);
	check_list(t, __LINE__, out.v, out.n, a, N(a));
	CHECK_INT(t, rg_union(NULL, 0, NULL, 0, &out), 0);
	CHECK_INT(t, out.n, 0);
	struct rg x[64], y[64], both[128];
	uint64_t s = 88172645463325252u;
	for (int round = 0; round < 50; round++) {
		size_t nx = 0, ny = 0;
		for (int64_t at = 0; nx < 64 && at < 2000; nx++) { /* a merged list */
			s ^= s << 13, s ^= s >> 7, s ^= s << 17;
			at += (int64_t)(s % 7) + 1;
			x[nx] = (struct rg){at, at + (int64_t)(s >> 8) % 9};
			at = x[nx].end + 1;
		}
		for (int64_t at = 0; ny < 64 && at < 2000; ny++) {
			s ^= s << 13, s ^= s >> 7, s ^= s << 17;
			at += (int64_t)(s % 11);
			y[ny] = (struct rg){at, at + (int64_t)(s >> 8) % 13};
			at = y[ny].end + 1;
		}
		memcpy(both, x, nx * sizeof *x);
		memcpy(both + nx, y, ny * sizeof *y);
		rg_sort(both, nx + ny);
		size_t nb = rg_merge(both, nx + ny);
		CHECK_INT(t, rg_union(x, nx, y, ny, &out), 0);
		check_list(t, __LINE__, out.v, out.n, both, nb);
	}
	rg_vec_free(&out);
}
