/* Unit tests of nsys_jv_parse (nsys/jv_parse.c): JSON into the value tree,
 * each kind of value with hand-written expectations, the errors with their
 * byte offsets, and a tree written by nsys_jv_write read back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsys/nsys.h"
#include "test.h"

static struct nsys_jv *parse(struct arena *a, const char *text, struct err *e)
{
	struct nsys_jv *v = NULL;
	return nsys_jv_parse(a, text, strlen(text), "t.json", &v, e) ? NULL : v;
}

void test_nsys_jv_parse(struct t *t)
{
	struct arena a;
	arena_init(&a);
	struct err e = {0};
	struct nsys_jv *v = parse(&a,
				  "\xEF\xBB\xBF {\"a\": [1, -2.5, 3e2, \"x\\u00e9\\n\"], \"b\": "
				  "{\"c\": null, \"d\": true}}",
				  &e);
	CHECK(t, v && v->kind == NSYS_JOBJ && v->n == 2);
	const struct nsys_jv *arr = v ? nsys_jv_get(v, "a") : NULL;
	CHECK(t, arr && arr->kind == NSYS_JARR && arr->n == 4);
	if (arr && arr->n == 4) {
		CHECK(t, arr->items[0]->kind == NSYS_JINT && arr->items[0]->i == 1);
		CHECK(t, arr->items[1]->kind == NSYS_JFLOAT && arr->items[1]->f == -2.5);
		CHECK(t, arr->items[2]->kind == NSYS_JFLOAT && arr->items[2]->f == 300.0);
		CHECK_STR(t, arr->items[3]->s, "x\xC3\xA9\n");
	}
	const struct nsys_jv *b = v ? nsys_jv_get(v, "b") : NULL;
	CHECK(t, b && nsys_jv_get(b, "c") && nsys_jv_get(b, "c")->kind == NSYS_JNULL);
	CHECK(t, b && nsys_jv_get(b, "d") && nsys_jv_get(b, "d")->b);

	/* written back and read again: the same text */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	nsys_jv_write(f, v);
	fclose(f);
	struct nsys_jv *w = NULL;
	CHECK_INT(t, nsys_jv_parse(&a, buf, len, "again", &w, &e), 0);
	CHECK(t, w && w->n == 2 && nsys_jv_get(w, "a")->n == 4);
	free(buf);

	/* errors: the byte where something else was expected */
	CHECK(t, parse(&a, "{\"a\": }", &e) == NULL);
	CHECK_INT(t, e.code, ERR_FORMAT);
	CHECK_INT(t, e.offset, 6);
	CHECK(t, parse(&a, "[1, 2,]", &e) == NULL); /* strict: no trailing comma */
	CHECK(t, strstr(e.msg, "trailing comma") != NULL);
	CHECK(t, parse(&a, "{\"a\": [1, 2", &e) == NULL);
	CHECK(t, strstr(e.msg, "ends inside the value") != NULL);
	CHECK_INT(t, e.offset, 11);
	CHECK(t, parse(&a, "{} {}", &e) == NULL);
	CHECK_INT(t, e.offset, 3);
	CHECK(t, parse(&a, "tru", &e) == NULL);
	CHECK(t, parse(&a, "nul!", &e) == NULL);
	CHECK_INT(t, e.offset, 0);
	char deep[600];
	memset(deep, '[', 300);
	memset(deep + 300, ']', 300);
	deep[599] = 0;			       /* 300 '[', 299 ']' */
	CHECK(t, parse(&a, deep, &e) == NULL); /* deeper than LIM_JSON_DEPTH */
	CHECK(t, strstr(e.msg, "nested deeper") != NULL);
	arena_free(&a);
}
