/* fuzz_nsys_analysis: libFuzzer target for the check of an analysis.json
 * (nsys/analysis_file.c): any bytes are accepted or refused with an error
 * whose offset lies in the input, never a crash or a hang. */
#include <stdint.h>

#include "nsys/nsys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e = {0};
	if (nsys_analysis_check((const char *)data, size, "analysis.json", &e) &&
	    (e.offset < -1 || e.offset > (int64_t)size))
		__builtin_trap();
	return 0;
}
