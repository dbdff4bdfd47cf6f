/* sort: qsort and qsort_r that accept an empty array given as NULL (libc's
 * take a base declared never NULL, even for 0 elements: UBSan reports it).
 * Arrays of fewer than two elements are already sorted. */
#ifndef GP_CORE_SORT_H
#define GP_CORE_SORT_H

#include <stdlib.h>

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

#endif
