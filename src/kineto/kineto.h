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

/* The same load with the bytes pushed by the caller, in order, as it gets
 * them (the static site reads a File asynchronously, in slices, and hands
 * each one over): the result and every error are kineto_load's on the same
 * bytes (plain JSON; gzip is kineto_load's). path names the trace in
 * messages; size is the file's (-1 unknown); e must outlive the push.
 *   kineto_push_begin: 0, or the error (*out NULL);
 *   kineto_push_room: where to write the next n bytes (in the read
 *     window), or NULL after an error (the error is kept for the end);
 *   kineto_push_data: those n bytes were written: parses the records they
 *     complete; 0, or the error (then stop pushing);
 *   kineto_push_end: the end of the input: the trace, or the first error;
 *     frees the push. */
struct kineto_push;
int kineto_push_begin(const char *path, const struct kineto_opts *opts, int64_t size,
		      struct kineto_push **out, struct err *e);
char *kineto_push_room(struct kineto_push *p, size_t n);
int kineto_push_data(struct kineto_push *p, size_t n);
int kineto_push_end(struct kineto_push *p, struct trace **out);

#endif
