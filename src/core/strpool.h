/* strpool: string interning to dense 32-bit ids.
 *
 * Owns an open-addressing hash table (heap) and the string bytes (in the
 * caller's arena, which must outlive the pool's use). Id 0 is always the
 * empty string. Strings may contain any bytes, including NUL; each stored
 * string is also NUL-terminated for convenience. Not thread-safe.
 * Depends on core/arena only.
 */
#ifndef GP_STRPOOL_H
#define GP_STRPOOL_H

#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"

struct strpool_str {
	const char *s;
	uint32_t len;
};

struct strpool {
	struct arena *arena;
	struct strpool_str *strs; /* id -> string */
	uint32_t n, cap;	  /* strings held, capacity of strs */
	uint32_t *slots;	  /* hash table of id+1 (0 = empty) */
	uint32_t *hashes;	  /* id -> 32-bit hash, for cheap rehash */
	uint32_t mask;		  /* slots size - 1 */
};

int strpool_init(struct strpool *p, struct arena *a);
void strpool_free(struct strpool *p);
/* Returns the id of s[0..len), adding it if new; UINT32_MAX on failure
 * (out of memory or LIM_STRPOOL_STRINGS reached). */
uint32_t strpool_intern(struct strpool *p, const char *s, size_t len);
/* Returns the id or UINT32_MAX when s is not in the pool. */
uint32_t strpool_find(const struct strpool *p, const char *s, size_t len);
static inline const char *strpool_get(const struct strpool *p, uint32_t id)
{
	return p->strs[id].s;
}
static inline uint32_t strpool_len(const struct strpool *p, uint32_t id)
{
	return p->strs[id].len;
}
/* A fast 64-bit hash of bytes (not cryptographic). */
uint64_t strpool_hash(const void *s, size_t len);

#endif
