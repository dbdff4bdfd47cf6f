/* fuzz_sass_out: the reader of nvdisasm's output (ncu_sass_parse) on any
 * bytes: rows or none, each text NUL-terminated and shorter than the
 * line it came from plus the predicate field's padding; never a read
 * outside the input (copied to a buffer of exactly its size, no NUL). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ncu/ncu_sass.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *b = malloc(size ? size : 1);
	if (!b)
		abort();
	memcpy(b, data, size);
	struct arena a;
	arena_init(&a);
	struct ncu_sass_line *rows;
	size_t n;
	if (ncu_sass_parse(b, size, size / 4 + 1, &a, &rows, &n))
		__builtin_trap(); /* only ERR_NOMEM, not on small inputs */
	for (size_t i = 0; i < n; i++)
		if (strlen(rows[i].text) > size + 7)
			__builtin_trap();
	arena_free(&a);
	free(b);
	return 0;
}
