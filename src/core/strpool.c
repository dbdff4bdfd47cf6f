#include "core/strpool.h"

#include <stdlib.h>
#include <string.h>

#include "core/limits.h"

static uint64_t rd64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* The low and high halves of the 128-bit product a * b, xored. wasm32 has
 * no 128-bit multiply (clang calls a library routine for each): there the
 * product is made of four 32x32 -> 64 ones, the same value. */
static uint64_t mix(uint64_t a, uint64_t b)
{
#ifdef __wasm__
	uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
	uint64_t lo = (mid << 32) | (uint32_t)ll;
	uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	return lo ^ hi;
#else
	__uint128_t r = (__uint128_t)a * b;
	return (uint64_t)r ^ (uint64_t)(r >> 64);
#endif
}

uint64_t strpool_hash(const void *data, size_t len)
{
	const unsigned char *p = data;
	const uint64_t k0 = 0xa0761d6478bd642full, k1 = 0xe7037ed1a0b428dbull;
	uint64_t h = k0 ^ (len * k1);
	if (len > 64) {
		/* Long strings (kernel names, shapes) are hashed by their length,
		 * first 32 and last 32 bytes: cheap, and lookups still compare the
		 * whole string, so a collision only costs a probe. */
		for (int i = 0; i < 4; i++)
			h = mix(h ^ rd64(p + 8 * i), k1);
		for (int i = 4; i >= 1; i--)
			h = mix(h ^ rd64(p + len - 8 * i), k1);
		return mix(h ^ k0, k1 ^ len);
	}
	while (len >= 8) {
		h = mix(h ^ rd64(p), k1);
		p += 8;
		len -= 8;
	}
	uint64_t t = 0;
	for (size_t i = 0; i < len; i++)
		t |= (uint64_t)p[i] << (8 * i);
	return mix(h ^ t ^ k0, k1 ^ len);
}

static int grow_strs(struct strpool *p)
{
	uint32_t ncap = p->cap ? p->cap * 2 : 1024;
	struct strpool_str *s = realloc(p->strs, (size_t)ncap * sizeof *s);
	if (!s)
		return -1;
	p->strs = s;
	uint32_t *h = realloc(p->hashes, (size_t)ncap * sizeof *h);
	if (!h)
		return -1;
	p->hashes = h;
	p->cap = ncap;
	return 0;
}

static int rehash(struct strpool *p, uint32_t nslots)
{
	uint32_t *slots = calloc(nslots, sizeof *slots);
	if (!slots)
		return -1;
	uint32_t mask = nslots - 1;
	for (uint32_t id = 0; id < p->n; id++) {
		uint32_t i = p->hashes[id] & mask;
		while (slots[i])
			i = (i + 1) & mask;
		slots[i] = id + 1;
	}
	free(p->slots);
	p->slots = slots;
	p->mask = mask;
	return 0;
}

int strpool_init(struct strpool *p, struct arena *a)
{
	memset(p, 0, sizeof *p);
	p->arena = a;
	if (grow_strs(p) || rehash(p, 2048))
		return -1;
	return strpool_intern(p, "", 0) == 0 ? 0 : -1;
}

void strpool_free(struct strpool *p)
{
	free(p->strs);
	free(p->slots);
	free(p->hashes);
	memset(p, 0, sizeof *p);
}

uint32_t strpool_find(const struct strpool *p, const char *s, size_t len)
{
	uint32_t h = (uint32_t)strpool_hash(s, len);
	for (uint32_t i = h & p->mask;; i = (i + 1) & p->mask) {
		uint32_t slot = p->slots[i];
		if (!slot)
			return UINT32_MAX;
		uint32_t id = slot - 1;
		if (p->hashes[id] == h && p->strs[id].len == len && !memcmp(p->strs[id].s, s, len))
			return id;
	}
}

uint32_t strpool_intern(struct strpool *p, const char *s, size_t len)
{
	uint32_t h = (uint32_t)strpool_hash(s, len);
	uint32_t i = h & p->mask;
	for (;; i = (i + 1) & p->mask) {
		uint32_t slot = p->slots[i];
		if (!slot)
			break;
		uint32_t id = slot - 1;
		if (p->hashes[id] == h && p->strs[id].len == len && !memcmp(p->strs[id].s, s, len))
			return id;
	}
	if (p->n >= LIM_STRPOOL_STRINGS || len > UINT32_MAX - 1)
		return UINT32_MAX;
	if (p->n == p->cap && grow_strs(p))
		return UINT32_MAX;
	char *copy = arena_strndup(p->arena, s, len);
	if (!copy)
		return UINT32_MAX;
	uint32_t id = p->n++;
	p->strs[id].s = copy;
	p->strs[id].len = (uint32_t)len;
	p->hashes[id] = h;
	p->slots[i] = id + 1;
	/* Keep the load factor under 1/2. */
	if ((uint64_t)p->n * 2 > (uint64_t)p->mask + 1 && rehash(p, (p->mask + 1) * 2)) {
		p->n--;
		p->slots[i] = 0;
		return UINT32_MAX;
	}
	return id;
}
