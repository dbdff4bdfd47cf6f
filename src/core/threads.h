/* threads: how many threads an import or an analysis may use: the number
 * asked for when it is positive, else two when the machine has more than
 * one CPU, else one. (gpuprof uses at most two: the work splits in two
 * halves, the reading and the rest.) Depends on libc only.
 *
 * GP_ONE_THREAD (the WebAssembly build, `make wasm`) makes it one always:
 * that build has no threads, and every place that could start one either
 * asks here or falls back to doing the work in place when pthread_create
 * fails (as it always does there). This is the only place that knows. */
#ifndef GP_CORE_THREADS_H
#define GP_CORE_THREADS_H

#include <unistd.h>

static inline int gp_threads(int asked)
{
#ifdef GP_ONE_THREAD
	(void)asked;
	return 1;
#else
	if (asked > 0)
		return asked > 1 ? 2 : 1;
	return sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 2 : 1;
#endif
}

#endif
