/* fuzz_yaml_manifest: libFuzzer target for the YAML manifest reader. The
 * input is a manifest.yaml's text, parsed with nsys_yaml_parse into a value
 * tree in an arena: any bytes must give a tree or one error, never a crash,
 * a hang or growth past the limits (LIM_YAML_*). A tree whose size with its
 * aliases expanded is small is also written as analysis.json writes it (to
 * /dev/null), to exercise shared (aliased) nodes, and as manifest.yaml
 * (nsys_yaml_write): that text must parse, and the tree read from it must
 * be written as the same bytes (the writer's YAML means what it says). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "nsys/nsys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Nodes of v with every alias written out, stopping past max. */
static size_t expanded(const struct nsys_jv *v, size_t max)
{
	size_t n = 1;
	if (v->kind == NSYS_JARR || v->kind == NSYS_JOBJ)
		for (size_t i = 0; i < v->n && n <= max; i++)
			n += expanded(v->items[i], max - n);
	return n;
}

/* v written with nsys_yaml_write into a new malloc'd text, or NULL. */
static char *yaml_text(const struct nsys_jv *v, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	if (!f)
		return NULL;
	nsys_yaml_write(f, v);
	fclose(f);
	return buf;
}

static void yaml_round_trip(struct arena *a, const struct nsys_jv *doc)
{
	size_t n1 = 0, n2 = 0;
	char *t1 = yaml_text(doc, &n1);
	struct nsys_jv *back = NULL;
	struct err e = {0};
	if (!t1 || n1 > (4u << 20)) {
		free(t1);
		return;
	}
	if (nsys_yaml_parse(a, "written.yaml", (const unsigned char *)t1, n1, &back, &e))
		__builtin_trap(); /* the writer's YAML does not parse */
	char *t2 = yaml_text(back, &n2);
	if (t2 && (n1 != n2 || memcmp(t1, t2, n1)))
		__builtin_trap(); /* read back as something else */
	free(t1);
	free(t2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	arena_init(&a);
	struct nsys_jv *doc = NULL;
	struct err e = {0};
	if (nsys_yaml_parse(&a, "fuzz.yaml", data, size, &doc, &e) == 0) {
		if (!doc || doc->kind != NSYS_JOBJ)
			__builtin_trap(); /* success promises a mapping */
		if (expanded(doc, 1u << 16) <= 1u << 16) {
			FILE *f = fopen("/dev/null", "w");
			if (f) {
				nsys_jv_write(f, doc);
				fclose(f);
			}
			yaml_round_trip(&a, doc);
		}
	} else if (!e.msg[0] || strchr(e.msg, '\n')) {
		__builtin_trap(); /* an error is one line that says something */
	}
	arena_free(&a);
	return 0;
}
