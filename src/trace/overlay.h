/* overlay: what analyses add to a trace written back whole (`gpuprof trace
 * overlay VIEW TRACE`, kineto/pass.h kpass_overlay): members added to the
 * args of chosen events, named by the byte offset the model recorded for
 * each, and whole events of their own appended to traceEvents (counter
 * tracks, flow arrows). A view fills one through its declaration's overlay
 * function (views/view.h); the writer copies every other byte as it was.
 *
 * The builder owns its text. Out of memory (or past LIM_OVERLAY_BYTES) is
 * latched (tr_ov_failed) rather than returned by every call, so a view
 * writes its additions as straight-line code and the writer reports it.
 * Depends on core and the trace model only.
 */
#ifndef GP_TRACE_OVERLAY_H
#define GP_TRACE_OVERLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"

/* One item: the args members of the event at source offset off, or (off
 * < 0) a whole event; its text is text[at, at + len). */
struct tr_ov_item {
	int64_t off;
	size_t at, len;
};

struct tr_overlay {
	struct tr_ov_item *items;
	size_t n, cap;
	char *text;
	size_t tlen, tcap;
	bool failed; /* out of memory or past the limit: nothing is written */
};

void tr_ov_init(struct tr_overlay *o);
void tr_ov_free(struct tr_overlay *o);

/* Starts members added to the args of event row of t (t may be any window
 * of the loaded trace: the row's source offset names the event). The text
 * put until the next begin is a list of JSON object members without braces,
 * e.g. "critical": 1; several begins for one event, from one view or more,
 * are joined with ", " in the order given; an event without args gets
 * "args": {...}. */
void tr_ov_arg(struct tr_overlay *o, const struct trace *t, uint32_t row);
/* Starts one whole event (a JSON object, e.g. {"ph": "C", ...}) appended at
 * the end of traceEvents, in the order given. */
void tr_ov_event(struct tr_overlay *o);
/* Raw text (printf) of the item begun last. */
void tr_ov_put(struct tr_overlay *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as one JSON string: quoted, with '"', '\\' and control bytes escaped. */
void tr_ov_str(struct tr_overlay *o, const char *s);
/* A time of the trace's own clock (ns) as its ts values are written: µs
 * with up to three decimals ("12.5", "-3", "7.001"); tr_fmt_us writes it
 * into buf (32 bytes) and returns buf. */
void tr_ov_us(struct tr_overlay *o, int64_t ns);
const char *tr_fmt_us(int64_t ns, char *buf);

static inline bool tr_ov_failed(const struct tr_overlay *o)
{
	return o->failed;
}

/* The items of arguments sorted by offset (the order given kept among
 * equal offsets), then the whole events in the order given: what the
 * writer walks. False when out of memory (then o is failed). */
bool tr_ov_sort(struct tr_overlay *o);

#endif
