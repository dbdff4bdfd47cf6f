#include <stdlib.h>

#include "core/arena.h"
#include "core/err.h"
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
