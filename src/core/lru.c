/* lru: a thread-safe cache of byte strings by string key, bounded in
 * entries and bytes, least recently used out first (see lru.h). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/lru.h"

struct cache_entry {
	char *key; /* NULL: a free slot */
	char *body;
	size_t len;
	uint64_t used; /* the tick of the last hit or store */
};

struct lru {
	pthread_mutex_t mu;
	int cap_entries;
	size_t cap_bytes;
	size_t bytes;
	uint64_t tick;
	struct cache_entry e[]; /* cap_entries slots */
};

struct lru *lru_new(int entries, size_t bytes)
{
	if (entries < 1)
		return NULL;
	struct lru *c = calloc(1, sizeof *c + (size_t)entries * sizeof c->e[0]);
	if (c) {
		pthread_mutex_init(&c->mu, NULL);
		c->cap_entries = entries;
		c->cap_bytes = bytes;
	}
	return c;
}

size_t lru_bytes(struct lru *c)
{
	if (!c)
		return 0;
	pthread_mutex_lock(&c->mu);
	size_t n = c->bytes;
	pthread_mutex_unlock(&c->mu);
	return n;
}

void lru_free(struct lru *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->cap_entries; i++) {
		free(c->e[i].key);
		free(c->e[i].body);
	}
	pthread_mutex_destroy(&c->mu);
	free(c);
}

char *lru_get(struct lru *c, const char *key, size_t *len)
{
	char *out = NULL;
	if (!c)
		return NULL;
	pthread_mutex_lock(&c->mu);
	for (int i = 0; i < c->cap_entries; i++) {
		struct cache_entry *x = &c->e[i];
		if (x->key && !strcmp(x->key, key)) {
			out = malloc(x->len ? x->len : 1);
			if (out) {
				memcpy(out, x->body, x->len);
				*len = x->len;
				x->used = ++c->tick;
			}
			break;
		}
	}
	pthread_mutex_unlock(&c->mu);
	return out;
}

static void drop(struct lru *c, struct cache_entry *x)
{
	c->bytes -= x->len;
	free(x->key);
	free(x->body);
	*x = (struct cache_entry){0};
}

void lru_put(struct lru *c, const char *key, const char *body, size_t len)
{
	if (!c || len > c->cap_bytes / 4)
		return;
	char *k = strdup(key), *b = malloc(len ? len : 1);
	if (!k || !b) {
		free(k);
		free(b);
		return;
	}
	memcpy(b, body, len);
	pthread_mutex_lock(&c->mu);
	for (int i = 0; i < c->cap_entries; i++)
		if (c->e[i].key && !strcmp(c->e[i].key, key))
			drop(c, &c->e[i]); /* computed twice at once: keep the newer */
	for (;;) {
		struct cache_entry *lru = NULL, *slot = NULL;
		for (int i = 0; i < c->cap_entries; i++) {
			struct cache_entry *x = &c->e[i];
			if (!x->key)
				slot = slot ? slot : x;
			else if (!lru || x->used < lru->used)
				lru = x;
		}
		if (slot && c->bytes + len <= c->cap_bytes) {
			*slot = (struct cache_entry){k, b, len, ++c->tick};
			c->bytes += len;
			break;
		}
		drop(c, lru); /* no free slot or too many bytes: lru exists */
	}
	pthread_mutex_unlock(&c->mu);
}

int lru_drop_prefix(struct lru *c, const char *prefix)
{
	if (!c)
		return 0;
	size_t n = strlen(prefix);
	int k = 0;
	pthread_mutex_lock(&c->mu);
	for (int i = 0; i < c->cap_entries; i++)
		if (c->e[i].key && !strncmp(c->e[i].key, prefix, n)) {
			drop(c, &c->e[i]);
			k++;
		}
	pthread_mutex_unlock(&c->mu);
	return k;
}
