/* fuzz_sass_elf: the cubin ELF64 section reader (ncu_elf_section) on any
 * bytes: it finds a section inside the buffer, says there is none, or gives
 * ERR_FORMAT with an offset inside the buffer; never a read outside it
 * (the input is copied to a buffer of exactly its size). The first byte
 * picks the name looked for. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ncu/ncu_sass.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {".text.k", ".shstrtab", "", ".text.probe_timer_only"};
	if (!size)
		return 0;
	const char *name = names[data[0] % 4];
	uint8_t *b = malloc(size - 1 ? size - 1 : 1);
	if (!b)
		abort();
	memcpy(b, data + 1, size - 1);
	const uint8_t *d;
	size_t len;
	uint32_t fl;
	struct err e;
	int rc = ncu_elf_section(b, size - 1, name, "fuzz", 0, &d, &len, &fl, &e);
	if (rc == 0 && (d < b || len > size - 1 || (size_t)(d - b) > size - 1 - len))
		__builtin_trap();
	if (rc < 0 && (rc != ERR_FORMAT || e.offset < 0 || e.offset > (int64_t)size))
		__builtin_trap();
	if (rc == 0) { /* read every byte found (the sanitizers check the bounds) */
		uint8_t x = 0;
		for (size_t i = 0; i < len; i++)
			x ^= d[i];
		if (x == 0 && len == SIZE_MAX)
			__builtin_trap(); /* never: keeps the reads */
	}
	free(b);
	return 0;
}
