/* optree_map: a small open-addressing hash index used by the tree and the
 * views (external id -> node, group key -> group). It stores a 64-bit hash
 * and a 32-bit value per slot; callers keep the keys themselves and say, on
 * lookup, whether a value's key equals the one sought. Depends on libc.
 */
#ifndef GP_OPTREE_MAP_H
#define GP_OPTREE_MAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

struct omap {
	uint64_t *hash; /* 0 = empty slot */
	uint32_t *val;
	size_t mask, n;
};

/* Returns true when the value v has the key the caller looks for. */
typedef bool (*omap_eq_fn)(const void *ctx, uint32_t v);

static inline uint64_t omap_mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x | 1; /* never 0, the empty mark */
}

static inline int omap_init(struct omap *m, size_t expect)
{
	size_t size = 64;
	while (size < expect * 2)
		size *= 2;
	m->hash = calloc(size, sizeof *m->hash);
	m->val = malloc(size * sizeof *m->val);
	m->mask = size - 1;
	m->n = 0;
	if (!m->hash || !m->val) {
		free(m->hash);
		free(m->val);
		m->hash = NULL;
		m->val = NULL;
		return -1;
	}
	return 0;
}

static inline void omap_free(struct omap *m)
{
	free(m->hash);
	free(m->val);
	m->hash = NULL;
	m->val = NULL;
}

/* The value stored under hash h whose key eq accepts, or UINT32_MAX. */
static inline uint32_t omap_get(const struct omap *m, uint64_t h, omap_eq_fn eq, const void *ctx)
{
	for (size_t i = h & m->mask; m->hash[i]; i = (i + 1) & m->mask)
		if (m->hash[i] == h && eq(ctx, m->val[i]))
			return m->val[i];
	return UINT32_MAX;
}

/* Adds (h, v); the caller has checked the key is not present. */
static inline int omap_put(struct omap *m, uint64_t h, uint32_t v)
{
	if ((m->n + 1) * 2 > m->mask + 1) {
		size_t size = (m->mask + 1) * 2;
		uint64_t *nh = calloc(size, sizeof *nh);
		uint32_t *nv = malloc(size * sizeof *nv);
		if (!nh || !nv) {
			free(nh);
			free(nv);
			return -1;
		}
		for (size_t i = 0; i <= m->mask; i++) {
			if (!m->hash[i])
				continue;
			size_t k = m->hash[i] & (size - 1);
			while (nh[k])
				k = (k + 1) & (size - 1);
			nh[k] = m->hash[i];
			nv[k] = m->val[i];
		}
		free(m->hash);
		free(m->val);
		m->hash = nh;
		m->val = nv;
		m->mask = size - 1;
	}
	size_t i = h & m->mask;
	while (m->hash[i])
		i = (i + 1) & m->mask;
	m->hash[i] = h;
	m->val[i] = v;
	m->n++;
	return 0;
}

#endif
