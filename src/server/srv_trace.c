/* srv_trace: GET /api/file/ID/trace?start_ns=A&end_ns=B: the loaded trace
 * as chrome-trace JSON, written from the model by export/chrome.c, for the
 * viewer's "Open in Perfetto" (the page hands these bytes to
 * ui.perfetto.dev by postMessage; nothing leaves the machine otherwise).
 * A and B are nanoseconds from the trace's start, as the timeline takes
 * them; with either, only the events meeting [A, B) (plus all metadata)
 * are written. With step=/range=, the trace cut to that selection
 * (srv_select.c), its times from the window's start. */
#include <stdlib.h>
#include <string.h>

#include "export/chrome.h"
#include "server/srv_int.h"

static enum MHD_Result reply_trace(struct srv *s, struct MHD_Connection *c, const struct trace *t,
				   int64_t a, bool has_a, int64_t b, bool has_b);

enum MHD_Result srv_api_trace(struct srv *s, struct MHD_Connection *c, int id)
{
	char bad[SRV_BAD_PARAM];
	if (srv_unknown_param(c, " start_ns end_ns step range ", bad))
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "trace takes no parameter '%s'",
				       bad);
	int64_t a = 0, b = 0;
	bool has_a, has_b;
	if (srv_int_arg(c, "start_ns", &a, &has_a) || srv_int_arg(c, "end_ns", &b, &has_b))
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST,
				       "start_ns and end_ns take integer nanoseconds");
	enum MHD_Result res;
	struct trace *t = srv_trace_of(s, c, id, &res);
	if (!t)
		return res;
	/* step=/range=: the window's events, times from its start as the
	 * timeline's (srv_select.c) */
	const char *step, *range;
	struct srv_win *win = NULL;
	struct err e = {0};
	if (srv_selection(c, false, &step, &range)) {
		int rc = srv_window_get(s, id, t, step, range, &win, &e);
		if (rc)
			return srv_reply_error(c, rc == ERR_USAGE ? MHD_HTTP_BAD_REQUEST : 500,
					       "%s", e.msg);
		t = (struct trace *)srv_window_trace(win);
	}
	res = reply_trace(s, c, t, a, has_a, b, has_b);
	srv_window_put(s, win);
	return res;
}

/* The answer for trace t (the file's or a window). */
static enum MHD_Result reply_trace(struct srv *s, struct MHD_Connection *c, const struct trace *t,
				   int64_t a, bool has_a, int64_t b, bool has_b)
{
	struct chrome_opts o = {.windowed = has_a || has_b};
	bool some = t->min_ts <= t->max_end;
	int64_t lo = some ? t->min_ts : 0, hi = some ? t->max_end : 0;
	o.start_ns = lo;
	o.end_ns = hi + 1; /* the whole trace, zero-length events at its end included */
	if ((has_a && __builtin_add_overflow(lo, a, &o.start_ns)) ||
	    (has_b && __builtin_add_overflow(lo, b, &o.end_ns)))
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST,
				       "start_ns or end_ns is out of range");
	if (o.windowed && o.end_ns <= o.start_ns)
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST,
				       "the window is empty: end_ns must be after start_ns");
	char *buf = NULL;
	size_t len = 0;
	struct err e = {0};
	srv_job_begin(s);
	FILE *f = open_memstream(&buf, &len);
	int rc = f ? chrome_write(t, &o, f, &e) : err_set(&e, ERR_NOMEM, NULL, -1, "out of memory");
	bool ok = f && fclose(f) == 0 && rc == 0;
	srv_job_end(s);
	enum MHD_Result res =
	    ok ? srv_reply(c, MHD_HTTP_OK, "application/json", buf, len)
	       : srv_reply_error(c, 500, "%s", rc ? e.msg : "could not write the trace");
	free(buf);
	return res;
}
