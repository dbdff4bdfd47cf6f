/* chrome: the loaded trace written back as chrome-trace JSON (the Trace
 * Event Format that Perfetto and chrome://tracing open), whole or a window
 * of it; what `GET /api/file/ID/trace` serves for "Open in Perfetto".
 *
 * Written from the model (trace/trace.h), not copied from the input: every
 * kept event (X, B/E pairs, instants, s/t/f flows, C counters) with the
 * arguments the model keeps, plus the metadata it keeps (process and thread
 * names, labels, sort indexes; device properties, schema version, base
 * time). Reading the output gives the same events by phase and kind, the
 * same tracks and the same analyses; what the model does not keep (other
 * arguments, unknown metadata, the category text where several spell one
 * kind, `I` instants, which come back as `i`) is not there. Output depends
 * only on the trace and the window. Depends on trace/trace.h, core.
 */
#ifndef GP_EXPORT_CHROME_H
#define GP_EXPORT_CHROME_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "trace/trace.h"

struct chrome_opts {
	/* Only what meets [start_ns, end_ns) on the trace's clock: slices
	 * overlapping it (a zero-length one at its start counts), instants,
	 * flow events and counter samples inside it; metadata always. */
	bool windowed;
	int64_t start_ns, end_ns;
};

int chrome_write(const struct trace *t, const struct chrome_opts *o, FILE *out, struct err *e);

#endif
