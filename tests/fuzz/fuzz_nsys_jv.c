/* fuzz_nsys_jv: libFuzzer target for the JSON reader of the value tree
 * (nsys/jv_parse.c), which `gpuprof diff` reads every analysis.json with:
 * any bytes are a tree or an error whose offset lies in the input, never
 * a crash or a hang; a tree written back with nsys_jv_write reads again. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "nsys/nsys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	arena_init(&a);
	struct err e = {0};
	struct nsys_jv *v = NULL;
	if (nsys_jv_parse(&a, (const char *)data, size, "analysis.json", &v, &e)) {
		if (e.offset < -1 || e.offset > (int64_t)size)
			__builtin_trap();
		arena_free(&a);
		return 0;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (f) {
		nsys_jv_write(f, v);
		fclose(f);
		struct nsys_jv *w = NULL;
		if (buf && nsys_jv_parse(&a, buf, len, "again", &w, &e))
			__builtin_trap(); /* what it writes, it reads */
	}
	free(buf);
	arena_free(&a);
	return 0;
}
