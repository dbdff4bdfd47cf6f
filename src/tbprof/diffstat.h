/* diffstat: the statistics and the name rules of comparing two runs
 * (`gpuprof diff`): medians and quartiles of samples, the two-sided
 * Mann-Whitney U test, and the normalization of kernel names that makes
 * one kernel of two builds one row.
 *
 * docs/diff.md states the rules and the test exactly; the unit tests check
 * them against hand-computed and textbook values.
 *
 * Owns nothing (callers give the buffers); pure functions of their
 * arguments. Depends on core only: no trace, no analysis.
 */
#ifndef GP_TBPROF_DIFFSTAT_H
#define GP_TBPROF_DIFFSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The quantile and the mean are core/stats.h's (stats_quantile, stats_mean). */
#include "core/stats.h"

/* Sorts v[0..n) ascending. */
void ds_sort(int64_t *v, size_t n);

/* Mann-Whitney U of samples a[0..na) and b[0..nb) (any order; na, nb > 0).
 * u: U of a (the number of pairs a > b, ties counting half); p: the
 * two-sided p-value. exact: the exact null distribution was used (no ties
 * and min(na, nb) < 8), else the normal approximation with the tie
 * correction and a continuity correction of 0.5. */
struct ds_mwu {
	double u;
	double p;
	bool exact;
};
int ds_mannwhitney(const int64_t *a, size_t na, const int64_t *b, size_t nb, struct ds_mwu *out);

/* The normalized form of kernel name s into buf (n > 0, always
 * NUL-terminated; a longer result is cut): the rules of docs/diff.md
 * ("Kernel names"), in this order:
 *   1. a leading return type "void " is dropped;
 *   2. every balanced <...> (template arguments) is dropped, nested ones
 *      with it; an unbalanced '<' is kept as it is;
 *   3. a trailing parameter list "(...)" is dropped;
 *   4. the name is split at '_'; a part that is a tile or configuration
 *      (digits 'x' digits..., optionally after letters: 128x128, 32x3,
 *      tilesize128x128x32), alignN, stageN, splitkN, a hash (8 or more
 *      hex digits with at least one digit) is dropped; the rest joined
 *      with '_' again, empty parts gone.
 * A name that becomes empty is kept whole. Returns the length written. */
size_t ds_kernel_name(const char *s, char *buf, size_t n);

#endif
