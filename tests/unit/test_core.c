#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/arena.h"
#include "core/err.h"
#include "core/lru.h"
#include "core/sort.h"
#include "core/strpool.h"
#include "test.h"

void test_core_arena(struct t *t)
{
	struct arena a;
	arena_init(&a);
	char *p = arena_alloc(&a, 10);
	char *q = arena_alloc(&a, 10);
	CHECK(t, p && q);
	CHECK_INT(t, q - p, 16); /* 16-byte alignment */
	void *big = arena_alloc(&a, 5u << 20);
	CHECK(t, big != NULL);
	CHECK(t, arena_array(&a, SIZE_MAX / 2, 4) == NULL); /* overflow refused */
	a.cap = a.total;
	CHECK(t, arena_alloc(&a, 2u << 20) == NULL); /* cap respected */
	arena_free(&a);
	CHECK_INT(t, a.total, 0);
	/* adopt: src's blocks freed with dst, what both hold kept, dst's own
	 * block still the one allocated from (under ASan a lost or twice
	 * freed block is an error) */
	struct arena d, s;
	arena_init(&d);
	arena_init(&s);
	arena_adopt(&d, &s); /* both empty: nothing */
	CHECK(t, d.head == NULL);
	char *s1 = arena_strndup(&s, "from src", 8);
	void *s2 = arena_alloc(&s, 3u << 20); /* a second block */
	arena_adopt(&d, &s);		      /* into an empty dst */
	CHECK(t, s.head == NULL && s.total == 0);
	CHECK_INT(t, d.total, (1u << 20) + (3u << 20));
	char *d1 = arena_strndup(&d, "dst", 3);
	struct arena s3;
	arena_init(&s3);
	char *s4 = arena_strndup(&s3, "third", 5);
	size_t before = d.total;
	char *cur = d.cur;
	arena_adopt(&d, &s3); /* behind dst's newest block */
	CHECK_INT(t, d.total, before + (1u << 20));
	CHECK(t, d.cur == cur);
	char *d2 = arena_strndup(&d, "x", 1);
	CHECK(t, d2 == cur); /* still from dst's own block */
	CHECK(t, s2 != NULL);
	CHECK_STR(t, s1, "from src");
	CHECK_STR(t, d1, "dst");
	CHECK_STR(t, s4, "third");
	arena_free(&d);
	CHECK_INT(t, d.total, 0);
}

void test_core_strpool(struct t *t)
{
	struct arena a;
	arena_init(&a);
	struct strpool p;
	CHECK_INT(t, strpool_init(&p, &a), 0);
	CHECK_INT(t, strpool_intern(&p, "", 0), 0);
	uint32_t x = strpool_intern(&p, "aten::mm", 8);
	CHECK_INT(t, x, 1);
	CHECK_INT(t, strpool_intern(&p, "aten::mm", 8), 1);
	CHECK_INT(t, strpool_intern(&p, "a\0b", 3), 2); /* embedded NUL kept */
	CHECK_INT(t, strpool_len(&p, 2), 3);
	char buf[32];
	for (int i = 0; i < 100000; i++) {
		int n = snprintf(buf, sizeof buf, "k%d", i);
		if (strpool_intern(&p, buf, (size_t)n) != (uint32_t)(3 + i)) {
			CHECK(t, !"dense ids");
			break;
		}
	}
	CHECK_INT(t, strpool_find(&p, "k99999", 6), 3 + 99999);
	CHECK_STR(t, strpool_get(&p, 3 + 777), "k777");
	CHECK_INT(t, strpool_find(&p, "nope", 4), UINT32_MAX);
	strpool_free(&p);
	arena_free(&a);
}

void test_core_err(struct t *t)
{
	struct err e;
	char buf[256];
	CHECK_INT(t, err_set(&e, ERR_FORMAT, "t.json.gz", 1834, "expected ','"), ERR_FORMAT);
	err_mark_uncompressed(&e, true);
	err_format(&e, buf, sizeof buf);
	CHECK_STR(t, buf, "t.json.gz: byte 1834 (uncompressed): expected ','");
	err_set(&e, ERR_IO, "x", -1, "no such file");
	err_format(&e, buf, sizeof buf);
	CHECK_STR(t, buf, "x: no such file");
	CHECK_INT(t, err_exit_code(ERR_GATE), 1);
	CHECK_INT(t, err_exit_code(ERR_FORMAT), 2);
	CHECK_INT(t, err_exit_code(ERR_OK), 0);
}

void test_core_lru(struct t *t)
{
	struct lru *c = lru_new(3, 400);
	CHECK(t, c != NULL);
	size_t n = 0;
	CHECK(t, lru_get(c, "a", &n) == NULL);
	lru_put(c, "a", "AAAA", 4);
	lru_put(c, "b", "BB", 2);
	char *v = lru_get(c, "a", &n);
	CHECK(t, v && n == 4 && !memcmp(v, "AAAA", 4));
	free(v);
	CHECK_INT(t, lru_bytes(c), 6);
	/* a third and a fourth entry: the least recently used ("b": "a" was
	 * just read) leaves */
	lru_put(c, "c", "C", 1);
	lru_put(c, "d", "DDD", 3);
	CHECK(t, lru_get(c, "b", &n) == NULL);
	v = lru_get(c, "c", &n);
	CHECK(t, v && n == 1 && v[0] == 'C');
	free(v);
	CHECK_INT(t, lru_bytes(c), 8);
	/* the same key again replaces its value */
	lru_put(c, "d", "dd", 2);
	v = lru_get(c, "d", &n);
	CHECK(t, v && n == 2 && !memcmp(v, "dd", 2));
	free(v);
	CHECK_INT(t, lru_bytes(c), 7);
	/* over a quarter of the byte cap: not stored, nothing evicted */
	char big[200];
	memset(big, 'x', sizeof big);
	lru_put(c, "big", big, 101);
	CHECK(t, lru_get(c, "big", &n) == NULL);
	CHECK_INT(t, lru_bytes(c), 7);
	/* bytes: 100 + 100 + 100 + 100 > 400 - 7 evicts by age until it fits */
	lru_put(c, "p", big, 100);
	lru_put(c, "q", big, 100);
	lru_put(c, "r", big, 100);
	CHECK_INT(t, lru_bytes(c), 300); /* three entries at most */
	CHECK(t, lru_get(c, "a", &n) == NULL && lru_get(c, "c", &n) == NULL);
	v = lru_get(c, "p", &n);
	CHECK(t, v && n == 100);
	free(v);
	lru_put(c, "s", big, 100); /* evicts "q", the oldest after p's hit */
	CHECK(t, lru_get(c, "q", &n) == NULL);
	CHECK_INT(t, lru_bytes(c), 300);
	lru_free(c);
	/* dropping by prefix: "1/" takes "1/a" and "1/b", not "12/a" */
	c = lru_new(4, 400);
	lru_put(c, "1/a", "x", 1);
	lru_put(c, "12/a", "yy", 2);
	lru_put(c, "1/b", "zzz", 3);
	CHECK_INT(t, lru_drop_prefix(c, "1/"), 2);
	CHECK(t, lru_get(c, "1/a", &n) == NULL && lru_get(c, "1/b", &n) == NULL);
	v = lru_get(c, "12/a", &n);
	CHECK(t, v && n == 2);
	free(v);
	CHECK_INT(t, lru_bytes(c), 2);
	CHECK_INT(t, lru_drop_prefix(c, "9/"), 0);
	lru_free(c);
	CHECK_INT(t, lru_drop_prefix(NULL, "1/"), 0);
	/* a NULL cache caches nothing */
	lru_put(NULL, "a", "A", 1);
	CHECK(t, lru_get(NULL, "a", &n) == NULL);
	CHECK(t, lru_new(0, 10) == NULL);
}

/* gp_lower_bound_i64 on records sorted by their 64-bit field, by hand:
 * keys -5, 2, 2, 9 at offset 8 of 16-byte records. */
void test_core_lower_bound(struct t *t)
{
	struct r {
		uint32_t pad;
		int64_t k;
	} v[] = {{0, -5}, {1, 2}, {2, 2}, {3, 9}};
	const size_t off = offsetof(struct r, k), n = 4;
	CHECK_INT(t, (int64_t)gp_lower_bound_i64(v, n, sizeof *v, off, INT64_MIN), 0);
	CHECK_INT(t, (int64_t)gp_lower_bound_i64(v, n, sizeof *v, off, -5), 0);
	CHECK_INT(t, (int64_t)gp_lower_bound_i64(v, n, sizeof *v, off, 0), 1);
	CHECK_INT(t, (int64_t)gp_lower_bound_i64(v, n, sizeof *v, off, 2), 1);
	CHECK_INT(t, (int64_t)gp_lower_bound_i64(v, n, sizeof *v, off, 3), 3);
	CHECK_INT(t, (int64_t)gp_lower_bound_i64(v, n, sizeof *v, off, 10), 4);
	CHECK_INT(t, (int64_t)gp_lower_bound_i64(NULL, 0, sizeof *v, off, 1), 0);
}
