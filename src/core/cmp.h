/* cmp: three-way comparators of plain values for gp_qsort / bsearch
 * (core/sort.h), and CMP3 for the fields of a record's own comparator.
 * Ascending; -1, 0 or 1. Depends on libc only. */
#ifndef GP_CORE_CMP_H
#define GP_CORE_CMP_H

#include <stdint.h>

/* -1, 0 or 1 as a is below, equal to or above b (no overflow). */
#define CMP3(a, b) (((a) > (b)) - ((a) < (b)))

static inline int cmp_i64(const void *a, const void *b)
{
	return CMP3(*(const int64_t *)a, *(const int64_t *)b);
}

static inline int cmp_u64(const void *a, const void *b)
{
	return CMP3(*(const uint64_t *)a, *(const uint64_t *)b);
}

static inline int cmp_i32(const void *a, const void *b)
{
	return CMP3(*(const int32_t *)a, *(const int32_t *)b);
}

static inline int cmp_u32(const void *a, const void *b)
{
	return CMP3(*(const uint32_t *)a, *(const uint32_t *)b);
}

/* NaN compares equal to everything: keep NaN out of sorted arrays. */
static inline int cmp_dbl(const void *a, const void *b)
{
	return CMP3(*(const double *)a, *(const double *)b);
}

#endif
