/* suggest: see suggest.h. */
#include <stdint.h>
#include <string.h>

#include "core/suggest.h"

size_t sug_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > SUG_MAX_LEN || lb > SUG_MAX_LEN)
		return SIZE_MAX;
	/* three rows of the (la+1) x (lb+1) table: i-2, i-1, i */
	size_t rows[3][SUG_MAX_LEN + 1];
	for (size_t j = 0; j <= lb; j++)
		rows[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t *cur = rows[i % 3], *prev = rows[(i - 1) % 3], *prev2 = rows[(i - 2) % 3];
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (prev[j - 1] + cost < d)
				d = prev[j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
		}
	}
	return rows[la % 3][lb];
}

const char *sug_closest(const char *w, const char *const *words, size_t n)
{
	size_t lw = strlen(w), best_d = SIZE_MAX;
	const char *best = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!words[i])
			continue;
		size_t d = sug_distance(w, words[i]);
		if (d == 0)
			return NULL;
		size_t lmax = lw > strlen(words[i]) ? lw : strlen(words[i]);
		size_t limit = lmax <= 4 ? 1 : 2;
		if (d <= limit && 2 * d < lw && d < best_d) {
			best_d = d;
			best = words[i];
		}
	}
	return best;
}
