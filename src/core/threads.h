/* threads: how many threads an import or an analysis may use: the number
 * asked for when it is positive, else two when the machine has more than
 * one CPU, else one. (gpuprof uses at most two: the work splits in two
 * halves, the reading and the rest.) Depends on libc only. */
#ifndef GP_CORE_THREADS_H
#define GP_CORE_THREADS_H

#include <unistd.h>

static inline int gp_threads(int asked)
{
	if (asked > 0)
		return asked > 1 ? 2 : 1;
	return sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 2 : 1;
}

#endif
