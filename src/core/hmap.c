/* hmap: growth and insertion of the hash index; see hmap.h. */
#include "core/hmap.h"

#include <stdlib.h>
#include <string.h>

/* Slot arrays of size (a power of two >= 16) with the entries of m. */
static int rehash(struct hmap *m, size_t size, unsigned bits)
{
	/* zeroed by writing, not by calloc: a large calloc maps the zero page,
	 * which the probes read and the inserts then replace page by page,
	 * each replacement a TLB flush sent to every core the process runs
	 * on. (explicit_bzero: gcc folds malloc + memset back into calloc.) */
	uint64_t *nk = malloc(size * sizeof *nk);
	uint32_t *nv = malloc(size * sizeof *nv);
	if (!nk || !nv) {
		free(nk);
		free(nv);
		return -1;
	}
	explicit_bzero(nk, size * sizeof *nk);
	struct hmap g = {.key = nk, .val = nv, .mask = size - 1, .shift = 64 - bits};
	for (size_t i = 0; m->key && i <= m->mask; i++) {
		if (!m->key[i])
			continue;
		uint32_t old;
		size_t s = hmap_find(&g, m->key[i], NULL, NULL, &old);
		while (g.key[s]) /* an equal hash key of another entry */
			s = (s + 1) & g.mask;
		hmap_set(&g, s, m->key[i], m->val[i]);
	}
	free(m->key);
	free(m->val);
	*m = g;
	return 0;
}

int hmap_grow(struct hmap *m, size_t n)
{
	size_t size = m->key ? m->mask + 1 : 0;
	if (n <= size / 2 && m->key)
		return 0;
	if (n > (SIZE_MAX / 2) / sizeof(uint64_t) || (unsigned long long)n >= 1ull << 40)
		return -1;
	size_t want = 16;
	unsigned bits = 4;
	while (want < n * 2) {
		want *= 2;
		bits++;
	}
	return rehash(m, want, bits);
}

int hmap_init(struct hmap *m, size_t expect)
{
	*m = (struct hmap){0};
	return hmap_reserve(m, expect ? expect : 1);
}

void hmap_free(struct hmap *m)
{
	free(m->key);
	free(m->val);
	*m = (struct hmap){0};
}

int hmap_put(struct hmap *m, uint64_t key, uint32_t v)
{
	if (hmap_reserve(m, m->n + 1))
		return -1;
	size_t i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> m->shift);
	while (m->key[i])
		i = (i + 1) & m->mask;
	hmap_set(m, i, key, v);
	return 0;
}
