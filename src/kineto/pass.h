/* pass: Kineto traces written back from their own bytes: a window of a
 * trace (`gpuprof trace slice`, the viewer's download and "Open in
 * Perfetto"), a trace with what an analysis adds (`gpuprof trace
 * overlay`) and several ranks' traces as one (`gpuprof trace merge`).
 *
 * The loaded model (trace/trace.h) decides which events go; the text of
 * each kept event is copied from the source as it was, every field and
 * its spelling, by a second streaming pass over the file with the reader's
 * tokenizer (json/jscan.h) that meets each event at the byte offset the
 * model recorded for it. Only what the operation names is rewritten: ts
 * and dur of an event cut at the window's edges (--clip); pid, ts and
 * id/bind_id of a merged rank. Top-level members other than traceEvents
 * are copied as they were. Output depends only on the inputs and the
 * options. Owns nothing past a call. Depends on core, io, json, trace.
 */
#ifndef GP_KINETO_PASS_H
#define GP_KINETO_PASS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "trace/overlay.h"
#include "trace/trace.h"

struct kpass_info {
	uint64_t events; /* elements of traceEvents written */
	bool truncated;	 /* the source ended inside its events: what was whole is written */
};

/* Writes the trace at path (the file t was loaded from; for an upload its
 * /proc/self/fd link) to out: every event when w is NULL, else what window
 * w of t keeps (trace/window.h; a window of a window of t too: the rows it
 * holds, within the bounds of every window of the chain; the flow events, s/t/f,
 * of every flow whose events all bind to kept slices; E events whose B is
 * kept; metadata events (M) always; counters and events of other phases
 * by their ts in the window, or always when they have no ts). With clip,
 * kept X events are cut to the window ([t0, t1) of tr_window), those
 * wholly outside it (GPU work launched inside, run after) dropped, and E
 * events past its end moved to it. A source that no longer matches t
 * (changed since it was loaded) is ERR_FORMAT. */
int kpass_slice(const char *path, const struct trace *t, const struct trace *w, bool clip,
		FILE *out, struct kpass_info *info, struct err *e);

/* Writes the whole trace at path (the file t was loaded from) to out, as
 * kpass_slice with no window, with what ov adds (trace/overlay.h): its
 * members put into the args of the events they name (appended inside an
 * args object; "args": {...} added to an event without one; an args that
 * is not an object left as it is), its events after the last of
 * traceEvents. ov is sorted here. A source that no longer matches t, or
 * an offset of ov no event of it has, is ERR_FORMAT; a failed ov
 * (tr_ov_failed) is ERR_NOMEM. */
int kpass_overlay(const char *path, const struct trace *t, struct tr_overlay *ov, FILE *out,
		  struct kpass_info *info, struct err *e);

/* One rank's input of a merge. */
struct kpass_rank {
	const char *path;
	int64_t rank; /* its process group's number ("rank N") */
	const struct trace *t;
};

struct kpass_merge_info {
	uint64_t events;
	bool aligned;	  /* every rank had baseTimeNanoseconds: ts shifted to the earliest */
	int64_t pid_base; /* pids are rank * pid_base + pid */
};

/* Writes ranks r[0..n) as one trace: each rank's events with pid rank *
 * pid_base + pid (a string or negative pid becomes "rank N PID"), ts
 * shifted by its baseTimeNanoseconds minus the earliest one's (when every
 * rank has one), numeric id and bind_id as id * n + index (strings get
 * "rN:" in front), so that ranks share no process and no flow; each
 * process named "rank N NAME" (its process_name, else "pid PID") and
 * sorted by rank (process_sort_index rank * 1000 + its own index); the
 * first rank's top-level members, and "gpuprofMerge" listing the ranks. */
int kpass_merge(const struct kpass_rank *r, size_t n, FILE *out, struct kpass_merge_info *info,
		struct err *e);

#endif
