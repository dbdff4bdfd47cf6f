/* hmap: an open-addressing hash index from a 64-bit key to a 32-bit value,
 * usually a row of a table the caller owns.
 *
 * Keys are nonzero 64-bit values (0 marks an empty slot). A key is either
 * the whole key, so equal keys are equal entries (an integer made nonzero by
 * hmap_int), or a hash of a larger key (hmap_hash), and then the eq callback
 * of a lookup says whether the row a value names holds the key sought; the
 * caller keeps the keys themselves. Linear probing, at most half full,
 * growth by doubling, no removal; a slot's home is the key's Fibonacci hash
 * (its top bits after a multiply), so integer keys need no mixing. The map
 * owns only its two slot arrays. A zeroed struct hmap is an empty map.
 * Depends on libc only.
 */
#ifndef GP_CORE_HMAP_H
#define GP_CORE_HMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HMAP_NONE UINT32_MAX

struct hmap {
	uint64_t *key; /* 0 = empty slot */
	uint32_t *val;
	size_t mask, n;
	unsigned shift; /* 64 - log2(slots) */
};

/* True when value v (a row of the caller's) has the key looked for. */
typedef bool (*hmap_eq_fn)(const void *ctx, uint32_t v);

/* A 64-bit mixer (the finalizer of MurmurHash3): a bijection, 0 -> 0. */
static inline uint64_t hmap_mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/* A hash key for x: mixed and never 0 (lookups then need an eq). */
static inline uint64_t hmap_hash(uint64_t x)
{
	return hmap_mix(x) | 1;
}

/* The exact key of an integer; v must not be INT64_MIN (that maps to 0). */
static inline uint64_t hmap_int(int64_t v)
{
	return (uint64_t)v ^ (1ull << 63);
}

/* Room for expect entries without growing; -1 when out of memory. */
int hmap_init(struct hmap *m, size_t expect);
void hmap_free(struct hmap *m);
/* Room for n entries in all (hmap_grow rehashes into larger slot arrays
 * when needed); -1 when out of memory or n is beyond what a slot array can
 * index. */
int hmap_grow(struct hmap *m, size_t n);
static inline int hmap_reserve(struct hmap *m, size_t n)
{
	return m->key && n <= (m->mask + 1) / 2 ? 0 : hmap_grow(m, n);
}

/* The slot holding key (eq accepting its value; NULL eq: the key is exact),
 * or the empty slot where it would go; *v = its value or HMAP_NONE. The map
 * must have slots (hmap_init or hmap_reserve). */
static inline size_t hmap_find(const struct hmap *m, uint64_t key, hmap_eq_fn eq, const void *ctx,
			       uint32_t *v)
{
	size_t i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> m->shift);
	for (; m->key[i]; i = (i + 1) & m->mask) {
		if (m->key[i] == key && (!eq || eq(ctx, m->val[i]))) {
			*v = m->val[i];
			return i;
		}
	}
	*v = HMAP_NONE;
	return i;
}

/* The value stored under key (see hmap_find), or HMAP_NONE. */
static inline uint32_t hmap_get(const struct hmap *m, uint64_t key, hmap_eq_fn eq, const void *ctx)
{
	uint32_t v = HMAP_NONE;
	if (m->key)
		hmap_find(m, key, eq, ctx, &v);
	return v;
}

/* Fills the empty slot hmap_find returned; room must have been reserved
 * before that find (hmap_reserve(m, m->n + 1)). */
static inline void hmap_set(struct hmap *m, size_t slot, uint64_t key, uint32_t v)
{
	m->key[slot] = key;
	m->val[slot] = v;
	m->n++;
}

/* Get-or-insert: hmap_find, growing the map first when the key is absent
 * and one more entry would fill it past half, so that hmap_set may fill the
 * slot returned. SIZE_MAX (and *v = HMAP_NONE) when out of memory. */
static inline size_t hmap_slot(struct hmap *m, uint64_t key, hmap_eq_fn eq, const void *ctx,
			       uint32_t *v)
{
	*v = HMAP_NONE;
	if (!m->key && hmap_grow(m, 1))
		return SIZE_MAX;
	size_t i = hmap_find(m, key, eq, ctx, v);
	if (*v != HMAP_NONE || (m->n + 1) * 2 <= m->mask + 1)
		return i;
	if (hmap_grow(m, m->n + 1))
		return SIZE_MAX;
	return hmap_find(m, key, eq, ctx, v);
}

/* Adds (key, v); the caller knows the key is absent. 0 or -1 (memory). */
int hmap_put(struct hmap *m, uint64_t key, uint32_t v);

#endif
