/* Unit tests of core/radix: the order of a comparator sort with the input
 * position as the last tie-break (the stable order), on random records
 * with many equal keys, negative and extreme values, descending keys, and
 * input already in order. */
#include <stdint.h>
#include <stdlib.h>

#include "core/radix.h"
#include "test.h"

struct rec {
	int64_t start;
	int64_t end;
	uint32_t row;
	uint32_t pos; /* input position: the stable tie-break */
};

static int cmp_ref(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1; /* descending */
	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int64_t pick(uint64_t *s)
{
	static const int64_t special[] = {INT64_MIN, INT64_MIN + 1, -1,	      0,
					  1,	     INT64_MAX - 1, INT64_MAX};
	uint64_t r = next(s);
	switch (r % 4) {
	case 0:
		return special[(r >> 8) % 7];
	case 1:
		return (int64_t)(r >> 40) % 7 - 3; /* many ties */
	case 2:
		return 1700000000000000 + (int64_t)((r >> 20) % 100000);
	default:
		return (int64_t)next(s);
	}
}

/* Sorts a with rx_sort and b (a copy of a) with the reference comparator
 * and checks that both put the records in the same order. */
static void check_sort(struct t *t, struct rec *a, struct rec *b, size_t n,
		       const struct rx_key *keys)
{
	if (n)
		qsort(b, n, sizeof *b, cmp_ref);
	CHECK_INT(t, rx_sort(a, n, sizeof *a, keys, 3), 0);
	size_t diff = 0;
	for (size_t i = 0; i < n; i++)
		diff += a[i].pos != b[i].pos;
	CHECK_INT(t, diff, 0);
}

/* Sorts the five records h by the first two keys and checks their input
 * positions against want (worked out by hand). */
static void check_five(struct t *t, struct rec *h, const struct rx_key *keys,
		       const uint32_t want[5])
{
	CHECK_INT(t, rx_sort(h, 5, sizeof *h, keys, 2), 0);
	for (int i = 0; i < 5; i++)
		CHECK_INT(t, h[i].pos, want[i]);
}

void test_core_radix(struct t *t)
{
	const struct rx_key keys[] = {RX_KEY(struct rec, start, RX_I64),
				      RX_KEY_DESC(struct rec, end, RX_I64),
				      RX_KEY(struct rec, row, RX_U32)};
	uint64_t seed = 0x9e3779b97f4a7c15u;
	const size_t sizes[] = {0, 1, 2, 3, 17, 256, 1000, 5000};
	for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
		size_t n = sizes[z];
		struct rec *a = malloc((n ? n : 1) * sizeof *a),
			   *b = malloc((n ? n : 1) * sizeof *b);
		for (size_t i = 0; i < n; i++) {
			a[i] = (struct rec){pick(&seed), pick(&seed), (uint32_t)(next(&seed) % 5),
					    (uint32_t)i};
			b[i] = a[i];
		}
		check_sort(t, a, b, n, keys);
		/* already sorted input stays as it is */
		check_sort(t, a, b, n, keys);
		free(a);
		free(b);
	}
	/* a hand-checked case: (start asc, end desc), ties in input order */
	struct rec h[] = {{5, 1, 0, 0}, {3, 9, 0, 1}, {3, 10, 0, 2}, {5, 1, 0, 3}, {-2, 0, 0, 4}};
	check_five(t, h, keys, (const uint32_t[5]){4, 2, 1, 0, 3});
	/* narrow and signed 32-bit keys */
	struct n32 {
		int32_t v;
		uint8_t b;
		uint16_t w;
	} s[] = {{-1, 2, 7}, {INT32_MIN, 2, 1}, {0, 1, 65535}, {-1, 1, 0}, {INT32_MAX, 0, 3}};
	const struct rx_key k2[] = {RX_KEY(struct n32, b, RX_U8), RX_KEY(struct n32, v, RX_I32),
				    RX_KEY_DESC(struct n32, w, RX_U16)};
	CHECK_INT(t, rx_sort(s, 5, sizeof *s, k2, 3), 0);
	CHECK_INT(t, s[0].v, INT32_MAX);
	CHECK_INT(t, s[1].v, -1);
	CHECK_INT(t, s[1].w, 0);
	CHECK_INT(t, s[2].v, 0);
	CHECK_INT(t, s[3].v, INT32_MIN);
	CHECK_INT(t, s[4].w, 7);
}

/* Nearly sorted input (the insertion pass) and input that is out of order
 * past that pass's budget (its partial work, then the radix passes): the
 * stable comparator order either way. */
void test_core_radix_nearly(struct t *t)
{
	const struct rx_key keys[] = {RX_KEY(struct rec, start, RX_I64),
				      RX_KEY_DESC(struct rec, end, RX_I64),
				      RX_KEY(struct rec, row, RX_U32)};
	uint64_t seed = 0x2545f4914f6cdd1du;
	const size_t n = 3000;
	struct rec *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
	/* swaps: a few (inside the budget of n moves), then many (past it) */
	const size_t swaps[] = {1, 10, 100, 3000};
	for (size_t z = 0; z < sizeof swaps / sizeof *swaps; z++) {
		for (size_t i = 0; i < n; i++) /* in order, with runs of equal keys */
			a[i] = (struct rec){(int64_t)(i / 4) - 100, (int64_t)(i % 3),
					    (uint32_t)(i % 2), 0};
		qsort(a, n, sizeof *a, cmp_ref);
		for (size_t k = 0; k < swaps[z]; k++) {
			size_t i = next(&seed) % n, j = i + 1 + next(&seed) % 40;
			if (j < n) {
				struct rec x = a[i];
				a[i] = a[j];
				a[j] = x;
			}
		}
		for (size_t i = 0; i < n; i++) {
			a[i].pos = (uint32_t)i;
			b[i] = a[i];
		}
		check_sort(t, a, b, n, keys);
	}
	/* one record out of place: a descending key decides, equal records
	 * keep their input order */
	struct rec h[] = {{1, 9, 0, 0}, {1, 5, 0, 1}, {2, 0, 0, 2}, {1, 7, 0, 3}, {2, 0, 0, 4}};
	check_five(t, h, keys, (const uint32_t[5]){0, 3, 1, 2, 4});
	free(a);
	free(b);
}

/* Input of k ascending runs appended one after another (a list per stream
 * or device): 2 to 8 are merged run with run, 9 go through the insertion
 * pass and the radix passes; the stable comparator order either way, with
 * equal records in different runs kept in input order. */
void test_core_radix_runs(struct t *t)
{
	const struct rx_key keys[] = {RX_KEY(struct rec, start, RX_I64),
				      RX_KEY_DESC(struct rec, end, RX_I64),
				      RX_KEY(struct rec, row, RX_U32)};
	uint64_t seed = 0x853c49e6748fea9bu;
	const size_t n = 2400, runs[] = {2, 3, 5, 8, 9, 40};
	struct rec *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
	for (size_t z = 0; z < sizeof runs / sizeof *runs; z++) {
		size_t k = runs[z], len = n / k;
		for (size_t i = 0; i < n; i++) /* few distinct keys: ties across runs */
			a[i] = (struct rec){(int64_t)(next(&seed) % 300) - 150,
					    (int64_t)(next(&seed) % 3), (uint32_t)(next(&seed) % 2),
					    0};
		for (size_t r = 0; r < k; r++) { /* each run in order; the last takes the rest */
			size_t lo = r * len, m = r + 1 == k ? n - lo : len;
			qsort(a + lo, m, sizeof *a, cmp_ref);
		}
		for (size_t i = 0; i < n; i++) {
			a[i].pos = (uint32_t)i;
			b[i] = a[i];
		}
		check_sort(t, a, b, n, keys);
	}
	/* two runs whose seam is in order: one run, nothing moves */
	struct rec h[] = {{1, 9, 0, 0}, {2, 5, 0, 1}, {2, 5, 0, 2}, {3, 7, 0, 3}, {4, 0, 0, 4}};
	check_five(t, h, keys, (const uint32_t[5]){0, 1, 2, 3, 4});
	/* two runs by hand, (start asc, end desc): the second run's (1, 9)
	 * sorts first; its (2, 0) equals the first run's and follows it */
	struct rec g[] = {{1, 5, 0, 0}, {2, 0, 0, 1}, {1, 9, 0, 2}, {2, 0, 0, 3}, {2, -1, 0, 4}};
	check_five(t, g, keys, (const uint32_t[5]){2, 0, 1, 3, 4});
	free(a);
	free(b);
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return (a > b) - (a < b);
}

/* rx_sort_u64: the values in qsort's order, for values that differ in
 * every digit, in the low digits only, and all equal; by hand on five. */
void test_core_radix_u64(struct t *t)
{
	uint64_t seed = 0x9e3779b97f4a7c15u;
	const size_t n = 5000;
	uint64_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
	const uint64_t masks[] = {UINT64_MAX, 0xfff, 0};
	for (size_t z = 0; z < 3; z++) {
		for (size_t i = 0; i < n; i++)
			a[i] = b[i] = (next(&seed) & masks[z]) | 0x0100000000000000u;
		qsort(b, n, sizeof *b, cmp_u64);
		CHECK_INT(t, rx_sort_u64(a, n), 0);
		CHECK(t, !memcmp(a, b, n * sizeof *a));
	}
	uint64_t h[] = {UINT64_MAX, 0, 1u << 20, 3, 1u << 20};
	CHECK_INT(t, rx_sort_u64(h, 5), 0);
	CHECK(t,
	      h[0] == 0 && h[1] == 3 && h[2] == 1u << 20 && h[3] == 1u << 20 && h[4] == UINT64_MAX);
	free(a);
	free(b);
}
