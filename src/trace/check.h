/* check: the anomalies that need the whole trace (overlapping events on a
 * thread, kernels without a launch, flows with one end), counted into
 * t->anomalies after import. Depends on trace/trace only. */
#ifndef GP_CHECK_H
#define GP_CHECK_H

#include "trace/trace.h"

/* parallel: run the overlap check on a second thread. */
int tr_check(struct trace *t, bool parallel, struct err *e);

/* Event rows grouped by track, each group ordered by (ts, longer first,
 * input order): rows[first[k] .. first[k+1]) are track k's. Caller frees
 * both arrays. Instants and unmatched B events are left out. */
int tr_track_order(const struct trace *t, uint32_t **rows, size_t **first);

#endif
