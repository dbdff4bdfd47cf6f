/* Unit tests for the YAML manifest reader (src/nsys/manifest.c) and the
 * sorted writing of large objects: aliases share their node, repeated keys
 * replace in place, every error names its line and column, alias expansion
 * and cycles are refused, and keys come out in code-point order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsys/nsys.h"
#include "test.h"

static int parse(struct arena *a, const char *text, struct nsys_jv **doc, struct err *e)
{
	*e = (struct err){0};
	return nsys_yaml_parse(a, "m.yaml", (const unsigned char *)text, strlen(text), doc, e);
}

void test_manifest_aliases(struct t *t)
{
	struct arena a;
	arena_init(&a);
	struct nsys_jv *d;
	struct err e;
	CHECK_INT(t, parse(&a, "a: &x {b: 1}\nc: *x\nd: &s text\ne: *s\n", &d, &e), 0);
	const struct nsys_jv *x = nsys_jv_get(d, "a");
	CHECK(t, x && x == nsys_jv_get(d, "c"));
	CHECK_INT(t, nsys_jv_get(x, "b")->i, 1);
	CHECK_STR(t, nsys_jv_get(d, "e")->s, "text");
	/* a later anchor of the same name hides the earlier one */
	CHECK_INT(t, parse(&a, "a: &x 1\nb: &x 2\nc: *x\n", &d, &e), 0);
	CHECK_INT(t, nsys_jv_get(d, "c")->i, 2);
	arena_free(&a);
}

void test_manifest_repeated_keys(struct t *t)
{
	struct arena a;
	arena_init(&a);
	struct nsys_jv *d;
	struct err e;
	/* as PyYAML's dict: the last value, in the place of the first key */
	CHECK_INT(t, parse(&a, "a: 1\nb: 2\na: 3\n1: x\n'1': y\n", &d, &e), 0);
	CHECK_INT(t, d->n, 3);
	CHECK_STR(t, d->keys[0], "a");
	CHECK_INT(t, d->items[0]->i, 3);
	CHECK_STR(t, d->keys[1], "b");
	CHECK_STR(t, d->keys[2], "1");
	CHECK_STR(t, d->items[2]->s, "y");
	arena_free(&a);
}

void test_manifest_errors(struct t *t)
{
	struct arena a;
	arena_init(&a);
	struct nsys_jv *d;
	struct err e;
	CHECK_INT(t, parse(&a, "a: 1\nb: [1,\n", &d, &e), ERR_FORMAT);
	CHECK_STR(t, e.msg,
		  "Profiling manifest is invalid YAML: m.yaml: line 3, column 1: did not find "
		  "expected node content while parsing a flow node");
	CHECK_INT(t, parse(&a, "a: 1\nb: *nope\n", &d, &e), ERR_FORMAT);
	CHECK_STR(t, e.msg,
		  "Profiling manifest is invalid YAML: m.yaml: line 2, column 4: found undefined "
		  "alias 'nope'");
	CHECK_INT(t, parse(&a, "a: &x [1, {b: *x}]\n", &d, &e), ERR_FORMAT);
	CHECK_STR(t, e.msg,
		  "Profiling manifest is invalid YAML: m.yaml: line 1, column 15: alias 'x' refers "
		  "to a node that holds it");
	/* bad UTF-8: libyaml gives a byte offset, turned into line and column */
	CHECK_INT(t, parse(&a, "a: 1\nbb: \"\xc3\xa9\xff\"\n", &d, &e), ERR_FORMAT);
	CHECK_STR(t, e.msg,
		  "Profiling manifest is invalid YAML: m.yaml: line 2, column 7: invalid leading "
		  "UTF-8 octet");
	CHECK_INT(t, parse(&a, "a: 1\n---\nb: 2\n", &d, &e), ERR_FORMAT);
	CHECK_STR(t, e.msg,
		  "Profiling manifest is invalid YAML: m.yaml: line 3, column 1: expected a single "
		  "document in the stream");
	CHECK_INT(t, parse(&a, "- 1\n", &d, &e), ERR_FORMAT);
	CHECK_STR(t, e.msg, "Profiling manifest must contain a mapping: m.yaml");
	arena_free(&a);
}

void test_manifest_limits(struct t *t)
{
	struct arena a;
	arena_init(&a);
	struct nsys_jv *d;
	struct err e;
	/* units: l0 = 1 + 8 * 3 = 25, l(i) = 1 + 8 * l(i-1): l6 = 6591049,
	 * l7 = 52728393 */
	char text[2048], *p = text;
	p += sprintf(p, "l0: &l0 [ab, ab, ab, ab, ab, ab, ab, ab]\n");
	for (int i = 1; i <= 8; i++) {
		p += sprintf(p, "l%d: &l%d [", i, i);
		for (int j = 0; j < 8; j++)
			p += sprintf(p, "%s*l%d", j ? ", " : "", i - 1);
		p += sprintf(p, "]\n");
	}
	CHECK_INT(t, parse(&a, text, &d, &e), ERR_LIMIT);
	/* l7 passes 16 Mi at its third alias: 1 + 3 * 6591049 */
	CHECK_STR(
	    t, e.msg,
	    "Profiling manifest is beyond a limit: m.yaml: line 8, column 20: with its aliases "
	    "expanded the document passes 16777216 units (nodes and scalar bytes)");
	/* without l7 and l8 (the document: 7.5 M units) it is accepted */
	*strstr(text, "l7:") = 0;
	CHECK_INT(t, parse(&a, text, &d, &e), 0);
	char deep[200] = "a: ";
	for (int i = 0; i < 70; i++)
		strcat(deep, "[");
	CHECK_INT(t, parse(&a, deep, &d, &e), ERR_LIMIT);
	CHECK_STR(t, e.msg,
		  "Profiling manifest is beyond a limit: m.yaml: line 1, column 68: nested deeper "
		  "than 64 levels");
	arena_free(&a);
}

void test_manifest_sorted_write(struct t *t)
{
	struct arena a;
	arena_init(&a);
	struct nsys_jv *d;
	struct err e;
	CHECK_INT(t, parse(&a, "b: 1\nB: 2\na: [x, {z: 1, y: 2}]\n\"\\u00e9\": 3\n", &d, &e), 0);
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	nsys_jv_write(f, d);
	fclose(f);
	CHECK_STR(t, buf,
		  "{\n  \"B\": 2,\n  \"a\": [\n    \"x\",\n    {\n      \"y\": 2,\n      \"z\": 1\n"
		  "    }\n  ],\n  \"b\": 1,\n  \"\\u00e9\": 3\n}\n");
	free(buf);
	arena_free(&a);
}

/* nsys_yaml_write (what `nsys profile` writes as manifest.yaml): the exact
 * bytes of a small tree, hand-written, and the reader's tree of them. */
void test_manifest_yaml_write(struct t *t)
{
	struct arena a;
	arena_init(&a);
	struct nsys_jv *m = nsys_jv_new(&a, NSYS_JOBJ), *w = nsys_jv_new(&a, NSYS_JOBJ);
	nsys_jv_add(&a, w, "warmup", nsys_jv_int(&a, 1));
	nsys_jv_add(&a, w, "iterations", nsys_jv_int(&a, -3));
	nsys_jv_add(&a, m, "workload", w);
	nsys_jv_add(&a, m, "run_id",
		    nsys_jv_str(&a, "a\"b\\c\n\x01\xC3\xA9\xF0\x9F\x98\x80\xFF:#"));
	nsys_jv_add(&a, m, "git_commit", nsys_jv_null(&a));
	nsys_jv_add(&a, m, "empty", nsys_jv_new(&a, NSYS_JOBJ));
	struct nsys_jv *l = nsys_jv_new(&a, NSYS_JARR);
	nsys_jv_push(&a, l, nsys_jv_str(&a, "x y"));
	nsys_jv_push(&a, l, nsys_jv_float(&a, 1e20));
	nsys_jv_push(&a, l, nsys_jv_float(&a, 0.5));
	nsys_jv_add(&a, m, "list", l);
	nsys_jv_add(&a, m, "odd key", nsys_jv_new(&a, NSYS_JBOOL));
	nsys_jv_add(&a, m, "Yes", nsys_jv_int(&a, 7)); /* plain, YAML 1.1 reads a boolean */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	nsys_yaml_write(f, m);
	fclose(f);
	CHECK_STR(t, buf,
		  "\"Yes\": 7\n"
		  "empty: {}\n"
		  "git_commit: null\n"
		  "list: [\"x y\", 1.0e+20, 0.5]\n"
		  "\"odd key\": false\n"
		  "run_id: \"a\\\"b\\\\c\\n\\x01\\u00e9\\U0001f600\\ufffd:#\"\n"
		  "workload:\n"
		  "  iterations: -3\n"
		  "  warmup: 1\n");
	struct nsys_jv *doc = NULL;
	struct err e;
	CHECK_INT(t, parse(&a, buf, &doc, &e), 0);
	CHECK_STR(t, doc ? nsys_jv_get(doc, "run_id")->s : "",
		  "a\"b\\c\n\x01\xC3\xA9\xF0\x9F\x98\x80\xEF\xBF\xBD:#");
	const struct nsys_jv *wl = doc ? nsys_jv_get(doc, "workload") : NULL;
	CHECK(t, wl && nsys_jv_get(wl, "iterations")->kind == NSYS_JINT &&
		     nsys_jv_get(wl, "iterations")->i == -3);
	const struct nsys_jv *rl = doc ? nsys_jv_get(doc, "list") : NULL;
	CHECK(t, rl && rl->n == 3 && rl->items[1]->kind == NSYS_JFLOAT && rl->items[1]->f == 1e20);
	CHECK(t, doc && nsys_jv_get(doc, "git_commit")->kind == NSYS_JNULL);
	CHECK(t, doc && nsys_jv_get(doc, "odd key")->kind == NSYS_JBOOL);
	CHECK(t, doc && nsys_jv_get(doc, "Yes") && nsys_jv_get(doc, "Yes")->i == 7);
	free(buf);

	/* a key past YAML's 1024 characters of an implicit key, escaped: an
	 * explicit "? KEY" (block and flow), read back as it was */
	char key[301];
	memset(key, '\x01', 300);
	key[300] = 0;
	struct nsys_jv *k = nsys_jv_new(&a, NSYS_JOBJ), *in = nsys_jv_new(&a, NSYS_JOBJ);
	nsys_jv_add(&a, in, key, nsys_jv_int(&a, 2));
	nsys_jv_add(&a, k, key, nsys_jv_int(&a, 1));
	struct nsys_jv *arr = nsys_jv_new(&a, NSYS_JARR);
	nsys_jv_push(&a, arr, in);
	nsys_jv_add(&a, k, "list", arr);
	f = open_memstream(&buf, &len);
	nsys_yaml_write(f, k);
	fclose(f);
	CHECK(t, strncmp(buf, "? \"\\x01", 6) == 0 && strstr(buf, "\"\n: 1\nlist: [{? \"") != NULL);
	doc = NULL;
	CHECK_INT(t, parse(&a, buf, &doc, &e), 0);
	CHECK(t, doc && nsys_jv_get(doc, key) && nsys_jv_get(doc, key)->i == 1);
	const struct nsys_jv *l2 = doc ? nsys_jv_get(doc, "list") : NULL;
	CHECK(t, l2 && l2->n == 1 && nsys_jv_get(l2->items[0], key) &&
		     nsys_jv_get(l2->items[0], key)->i == 2);
	free(buf);
	arena_free(&a);
}
