/* ranges: interval algebra on sorted lists of int64 ns ranges, with the
 * exact semantics of torch-tb-profiler's range_utils (tb_profiler.md §5.3).
 *
 * A range is [start, end] with start <= end. Lists are sorted by start.
 * rg_merge joins overlapping or touching ranges (dropping contained ones);
 * rg_subtract and rg_intersect walk two sorted lists with two pointers and
 * follow the reference's case analysis step by step, so even degenerate
 * inputs (zero-length ranges, which trace events with dur 0 produce) give
 * the same list shape as the reference: the overview breakdown depends on
 * whether a list is empty, not only on its total length. rg_measure answers
 * "how much of this disjoint list lies inside [a, b]" in O(log n) from
 * prefix sums, which keeps per-step breakdowns n log n.
 * Valued ranges (rgv) carry a double: rgv_sweep is the reference's
 * merge_ranges_with_value (the SM-efficiency sweep). Owns nothing beyond
 * the vectors it fills. Depends on libc only.
 */
#ifndef GP_RANGES_H
#define GP_RANGES_H

#include <stddef.h>
#include <stdint.h>

struct rg {
	int64_t start, end;
};

/* A growable list; zero-initialise, free with rg_vec_free. */
struct rg_vec {
	struct rg *v;
	size_t n, cap;
};

int rg_push(struct rg_vec *a, int64_t start, int64_t end); /* 0 or -1 (no memory) */
int rg_reserve(struct rg_vec *a, size_t n);		   /* room for n more */
void rg_vec_free(struct rg_vec *a);

/* Sorts by (start, end). */
void rg_sort(struct rg *v, size_t n);
/* Merges a list sorted by start in place; returns the new length. A range
 * is joined to the previous one when it starts at or before that one's end
 * and ends after it; ranges inside the previous one are dropped. */
size_t rg_merge(struct rg *v, size_t n);
/* out = a - b and out = a ∩ b (out is cleared first; a, b sorted and each
 * free of overlaps, as rg_merge leaves them). 0 or -1 (no memory). */
int rg_subtract(const struct rg *a, size_t na, const struct rg *b, size_t nb, struct rg_vec *out);
int rg_intersect(const struct rg *a, size_t na, const struct rg *b, size_t nb, struct rg_vec *out);
/* out = the merged union of a and b (each sorted by (start, end)): what
 * rg_sort and rg_merge of the two lists together give, in one walk.
 * 0 or -1 (no memory). */
int rg_union(const struct rg *a, size_t na, const struct rg *b, size_t nb, struct rg_vec *out);
/* Σ (end - start). */
int64_t rg_total(const struct rg *v, size_t n);

/* Prefix sums over a sorted list without overlaps, for rg_measure. */
struct rg_index {
	const struct rg *v;
	size_t n;
	int64_t *prefix; /* prefix[i] = rg_total(v, i) */
};
int rg_index_build(struct rg_index *ix, const struct rg *v, size_t n);
void rg_index_free(struct rg_index *ix);
/* Length of the list inside [a, b] (0 when b <= a). */
int64_t rg_measure(const struct rg_index *ix, int64_t a, int64_t b);

/* Valued ranges. */
struct rgv {
	int64_t start, end;
	double value;
};
struct rgv_vec {
	struct rgv *v;
	size_t n, cap;
};
void rgv_vec_free(struct rgv_vec *a);
/* The reference's sweep: src (in its given order) becomes endpoints sorted
 * by (time, start before end, then given order); between consecutive
 * endpoint times where the running sum of values is > 0, one range with
 * value min(sum, 1.0). The running sum is a double updated in endpoint
 * order, so float residue ranges appear exactly where the reference has
 * them. out is cleared first. 0 or -1 (no memory). */
int rgv_sweep(const struct rgv *src, size_t n, struct rgv_vec *out);

#endif
