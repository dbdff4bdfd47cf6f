/* kineto: the reader of Kineto / PyTorch profiler chrome-trace JSON
 * (.json, .json.gz, truncated ones included) into the trace model
 * (trace/trace.h). The reader's internals (import_internal.h) stay in this
 * folder; callers see only this header. Depends on core, io, json, trace.
 */
#ifndef GP_KINETO_KINETO_H
#define GP_KINETO_KINETO_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "trace/trace.h"

/* Progress callback: bytes of input consumed so far and the total (-1 when
 * unknown); called every few MB. */
typedef void (*kineto_progress_fn)(void *ctx, int64_t done, int64_t total);

struct kineto_opts {
	kineto_progress_fn progress;
	void *progress_ctx;
	int threads;	     /* importing threads: 0 = as many as useful (1 or 2) */
	size_t split_min;    /* split windows with at least this many unread bytes
				(0 = default, 2 MiB); for tests */
	size_t window;	     /* read window in bytes (0 = default, 8 MiB); for tests */
	uint64_t max_memory; /* bytes the loading trace may hold: its tables,
				arena and string pool, the importer's own arrays
				and read window (0 = kineto_default_max_memory) */
};

/* The default memory limit of a load: half of the machine's physical
 * memory (sysconf), or 1 TiB when that is unknown. */
uint64_t kineto_default_max_memory(void);

/* Loads path ("-" = stdin) into a new trace. On failure returns a negative
 * err code with *e filled and *out NULL. Anomalies never fail the load. A
 * trace that needs more than opts->max_memory fails with ERR_LIMIT at the
 * byte offset reached (checked every few thousand events and at every
 * refill of the read window). */
int kineto_load(const char *path, const struct kineto_opts *opts, struct trace **out,
		struct err *e);

#endif
