/* fuzz_nsys_csv: libFuzzer target for the `nsys stats` CSV reader. Any
 * bytes must give a table or an error whose offset lies in the input,
 * never a crash, a hang or unbounded memory; a parsed table is read as
 * both NVTX trace reports (every integer column, names, parents) and every
 * row's location is formatted. */
#include <stdint.h>
#include <stdio.h>

#include "nsys/nsys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	arena_init(&a);
	struct nsys_csv c;
	struct nsys_ranges r;
	struct err e = {0};
	if (nsys_csv_parse(&a, "fuzz.csv", (const char *)data, size, &c, &e)) {
		if (e.offset < -1 || e.offset > (int64_t)size)
			__builtin_trap();
		arena_free(&a);
		return 0;
	}
	char where[64];
	for (size_t i = 0; i < c.nrows; i++)
		nsys_csv_where(&c, i, (int)(i % (c.ncols ? c.ncols : 1)), where, sizeof where);
	(void)nsys_host_from_csv(&a, &c, &r, &e);
	(void)nsys_gpu_from_csv(&a, &c, &r, &e);
	arena_free(&a);
	return 0;
}
