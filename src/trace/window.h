/* window: a trace restricted to a time window, for the --step and --range
 * selectors of the trace commands.
 *
 * Kept: host events (and instants, counters, flows) that start inside
 * [t0, t1), and the GPU activities their runtime calls launched, wherever
 * those run (a kernel launched in step 7 belongs to step 7 even when it runs
 * after the step's host range); an activity without a known launch is kept
 * when it starts inside the window. Rows keep their order; argument rows,
 * wide values, processes and threads come along. On success the result
 * owns t (it uses t's strings and device list; tr_free frees both); its
 * per-category counts and anomalies are those of the whole file.
 * Depends on trace/trace, trace/link.
 */
#ifndef GP_WINDOW_H
#define GP_WINDOW_H

#include "trace/link.h"
#include "trace/trace.h"

/* links: t's links built with driver=true (GPU work goes with its launch),
 * or NULL to have them built here. */
int tr_window(struct trace *t, const struct tr_links *links, int64_t t0, int64_t t1,
	      struct trace **out, struct err *e);
/* The row of w's base trace each of w's event rows was copied from (in
 * increasing order), or NULL when w is not a window. */
const uint32_t *tr_window_rows(const struct trace *w);
/* Frees window w but not the trace it was cut from (for a caller that keeps
 * that trace, such as the server); tr_free(w) frees both. NULL is fine. */
void tr_window_release(struct trace *w);

#endif
