/* sort: qsort and qsort_r that accept an empty array given as NULL (libc's
 * take a base declared never NULL, even for 0 elements: UBSan reports it).
 * Arrays of fewer than two elements are already sorted. And the search of
 * an array sorted by a 64-bit field. */
#ifndef GP_CORE_SORT_H
#define GP_CORE_SORT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline void gp_qsort(void *base, size_t n, size_t size,
			    int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

static inline void gp_qsort_r(void *base, size_t n, size_t size,
			      int (*cmp)(const void *, const void *, void *), void *arg)
{
	if (n > 1)
		qsort_r(base, n, size, cmp, arg);
}

/* The first of n records of `size` bytes at base, ascending by the int64_t
 * at byte offset `off` of each, whose field is >= key; n when none. */
static inline size_t gp_lower_bound_i64(const void *base, size_t n, size_t size, size_t off,
					int64_t key)
{
	const unsigned char *b = base;
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int64_t v;
		memcpy(&v, b + mid * size + off, sizeof v);
		if (v < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif
