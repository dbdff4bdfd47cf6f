/* fuzz_trace: the whole trace loader (io sniffing, gzip, JSON scanner,
 * Kineto importer, whole-trace checks) on arbitrary bytes. The input is
 * put in a memfd and loaded through its /proc path, as a file would be.
 * Any result is fine; a crash, a sanitizer report or a leak is not. */
#include <stdint.h>

#include "fuzz_memfd.h"
#include "trace/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tr_free(fuzz_load_trace(data, size, NULL));
	return 0;
}
