/* fuzz_trace: the whole trace loader (io sniffing, gzip, JSON scanner,
 * Kineto importer, whole-trace checks) on arbitrary bytes. The input is
 * put in a memfd and loaded through its /proc path, as a file would be.
 * Any result is fine; a crash, a sanitizer report or a leak is not. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trace/trace.h"
#include "kineto/kineto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-trace", 0);
	if (fd < 0)
		return 0;
	size_t done = 0;
	while (done < size) {
		ssize_t w = write(fd, data + done, size - done);
		if (w <= 0) {
			close(fd);
			return 0;
		}
		done += (size_t)w;
	}
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	struct trace *t = NULL;
	struct err e = {0};
	int rc = kineto_load(path, NULL, &t, &e);
	if (rc == 0 && !t)
		abort(); /* success must give a trace */
	if (rc != 0 && t)
		abort(); /* failure must not */
	tr_free(t);
	close(fd);
	return 0;
}
