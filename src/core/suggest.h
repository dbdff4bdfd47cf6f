/* suggest: "did you mean": the closest of a list of valid words to a
 * mistyped one, by edit distance (insertions, deletions, substitutions and
 * transpositions of adjacent characters each count 1).
 *
 * Used for mistyped commands, options, enum values and query parameters, so
 * every front end suggests the same way. Owns nothing; depends on libc only.
 */
#ifndef GP_CORE_SUGGEST_H
#define GP_CORE_SUGGEST_H

#include <stddef.h>

/* Edit distance of a and b (optimal string alignment); words longer than
 * SUG_MAX_LEN count as far from everything (SIZE_MAX). */
#define SUG_MAX_LEN 63
size_t sug_distance(const char *a, const char *b);

/* The word of words[0..n) (NULL entries skipped) closest to w, when it is
 * close: at distance 1 for words of up to 4 characters, else at most 2, and
 * less than half the length of w. The first of equally close words wins.
 * NULL when none is close or w is one of the words. */
const char *sug_closest(const char *w, const char *const *words, size_t n);

#endif
