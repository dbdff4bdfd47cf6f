/* fuzz_dwarf_line: the DWARF line-program reader (ncu_dwarf_lines) on any
 * bytes: rows, files and sequences that hold together, or ERR_FORMAT with
 * an offset inside the buffer (or ERR_NOMEM); never a read outside it (the
 * input is copied to a buffer of exactly its size). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ncu/ncu_dwarf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *b = malloc(size ? size : 1);
	if (!b)
		abort();
	memcpy(b, data, size);
	struct arena a;
	arena_init(&a);
	struct ncu_dw_lines l;
	struct err e;
	int rc = ncu_dwarf_lines(b, size, "fuzz", 0, &a, &l, &e);
	if (rc && rc != ERR_NOMEM && (rc != ERR_FORMAT || e.offset < 0 || e.offset > (int64_t)size))
		__builtin_trap();
	for (size_t i = 0; !rc && i < l.nrows; i++)
		if (l.rows[i].file >= l.nfiles || l.rows[i].inlined_at > i ||
		    strlen(l.files[l.rows[i].file]) > 2 * size)
			__builtin_trap();
	for (size_t q = 0; !rc && q < l.nseqs; q++)
		if (l.seqs[q].first > l.nrows || l.seqs[q].n > l.nrows - l.seqs[q].first)
			__builtin_trap();
	arena_free(&a);
	free(b);
	return 0;
}
