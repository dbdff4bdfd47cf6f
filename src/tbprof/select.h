/* select: the trace commands' selectors, --step N|A-B and --range NAME, as
 * one decision for every front end (the CLI's trace commands and the
 * viewer's API): which time window they name and the trace cut to it.
 *
 * --step: the window from the first selected step's start to the last one's
 * end, each step as `gpuprof steps` finds it (the ProfilerStep range
 * stretched to the GPU work launched from it) joined with its host range.
 * --range: the first (earliest) user annotation, or CPU operator, with that
 * exact name. The cut itself is tr_window's (window.h): GPU work goes with
 * its launch. Errors are ERR_USAGE with the messages the CLI prints
 * ("--step: no step 9 (steps 1 to 6)").
 * Depends on trace/trace, trace/link, tbprof/steps, trace/window.
 */
#ifndef GP_TORCH_SELECT_H
#define GP_TORCH_SELECT_H

#include "tbprof/session.h"
#include "trace/trace.h"

/* A step selector's text: "7" or "5-9" -> [*a, *b]; -1 when malformed. */
int tr_parse_steps(const char *s, int64_t *a, int64_t *b);

/* The window [*t0, *t1] (inclusive end) that step (or range; exactly one
 * non-NULL) names in the session's trace (its steps are the session's). */
int tr_select_bounds(struct ses *ses, const char *step, const char *range, int64_t *t0, int64_t *t1,
		     struct err *e);

/* The window of t that step or range names, as a new trace (tr_window's,
 * whose base is t): tr_free(*out) frees t too, tr_window_release(*out)
 * frees only the window. t is left as it was in every case. ses: t's
 * session (its steps and links are used, built there if not yet), or NULL
 * for a session of this call only. */
int tr_select(struct trace *t, struct ses *ses, const char *step, const char *range,
	      struct trace **out, struct err *e);

#endif
