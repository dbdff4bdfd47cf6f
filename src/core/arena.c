#include "core/arena.h"

#include <stdlib.h>
#include <string.h>

#include "core/limits.h"

struct arena_block {
	struct arena_block *prev;
	size_t size;
	_Alignas(16) char data[];
};

enum { ARENA_MIN_BLOCK = 1 << 20 };

void arena_init(struct arena *a)
{
	memset(a, 0, sizeof *a);
}

static size_t align16(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

void *arena_alloc(struct arena *a, size_t size)
{
	size = align16(size ? size : 1);
	if ((size_t)(a->end - a->cur) >= size && a->cur) {
		void *p = a->cur;
		a->cur += size;
		return p;
	}
	/* Grow blocks geometrically with what is held, so the number of blocks
	 * stays logarithmic in the total. */
	size_t want = a->total / 4;
	if (want < ARENA_MIN_BLOCK)
		want = ARENA_MIN_BLOCK;
	if (want > (64u << 20))
		want = 64u << 20;
	if (want < size)
		want = size;
	size_t cap = a->cap ? a->cap : LIM_SIZE_CAP(LIM_ARENA_BYTES);
	if (want > cap || a->total > cap - want)
		return NULL;
	struct arena_block *b = malloc(sizeof *b + want);
	if (!b)
		return NULL;
	b->prev = a->head;
	b->size = want;
	a->head = b;
	a->total += want;
	a->cur = b->data + size;
	a->end = b->data + want;
	return b->data;
}

void *arena_zalloc(struct arena *a, size_t size)
{
	void *p = arena_alloc(a, size);
	if (p)
		memset(p, 0, size);
	return p;
}

void *arena_array(struct arena *a, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return arena_alloc(a, n * size);
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	if (p) {
		memcpy(p, s, n);
		p[n] = 0;
	}
	return p;
}

void arena_free(struct arena *a)
{
	struct arena_block *b = a->head;
	while (b) {
		struct arena_block *prev = b->prev;
		free(b);
		b = prev;
	}
	arena_init(a);
}

void arena_adopt(struct arena *dst, struct arena *src)
{
	if (!src->head)
		return;
	if (!dst->head) {
		size_t cap = dst->cap;
		*dst = *src;
		dst->cap = cap;
	} else {
		struct arena_block *oldest = src->head;
		while (oldest->prev)
			oldest = oldest->prev;
		oldest->prev = dst->head->prev;
		dst->head->prev = src->head;
		dst->total += src->total;
	}
	arena_init(src);
}
