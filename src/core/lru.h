/* lru: a cache of byte strings (e.g. finished answers) by string key,
 * bounded in entries and bytes; the least recently used entries leave
 * first. Thread-safe (one mutex). Every call accepts a NULL cache, which
 * caches nothing.
 *
 * The server keeps the answers of trace views in one, so that going back
 * to a page costs a copy instead of a recomputation (a summary of a 1 GB
 * trace takes about a second). */
#ifndef GP_CORE_LRU_H
#define GP_CORE_LRU_H

#include <stddef.h>

struct lru;

/* A cache of at most `entries` entries and `bytes` bytes of values (keys
 * not counted); NULL when out of memory or entries < 1. */
struct lru *lru_new(int entries, size_t bytes);
void lru_free(struct lru *c);
/* A malloc'd copy of the value under key (its length in *len), or NULL.
 * A hit makes the entry the most recently used. */
char *lru_get(struct lru *c, const char *key, size_t *len);
/* Stores a copy of body under key (replacing an entry of that key),
 * evicting least recently used entries until it fits. A value over a
 * quarter of the byte cap is not stored (one answer never empties the
 * cache); nor is anything when memory runs out. */
void lru_put(struct lru *c, const char *key, const char *body, size_t len);
/* Drops every entry whose key starts with prefix (the answers about a
 * file that is gone); returns how many. */
int lru_drop_prefix(struct lru *c, const char *prefix);
/* Bytes of values held. */
size_t lru_bytes(struct lru *c);

#endif
