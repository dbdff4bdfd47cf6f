/* srv_trace: GET /api/file/ID/trace?start_ns=A&end_ns=B: the loaded trace
 * written back from its own bytes by kineto/pass.h (what `gpuprof trace
 * slice` writes: every kept event as the file has it, every top-level key),
 * for the viewer's "Download trace" and "Open in Perfetto" (the page hands
 * these bytes to ui.perfetto.dev by postMessage; nothing leaves the machine
 * otherwise). A and B are nanoseconds from the trace's start, as the
 * timeline takes them; with either, the window [A, B) as `trace slice
 * --from --to` cuts it (trace/window.h: host events starting inside it and
 * the GPU work they launched). With step=/range=, the trace cut to that
 * selection (srv_select.c), A and B then counting from the window's start.
 * The file is read again for each answer: a named file at its path, an
 * upload through the descriptor its input keeps (srv_api.c). */
#include <stdlib.h>
#include <string.h>

#include "kineto/pass.h"
#include "server/srv_int.h"
#include "trace/window.h"

static enum MHD_Result reply_trace(struct srv *s, struct MHD_Connection *c, int id,
				   const struct trace *t, const struct trace *sel, int64_t a,
				   bool has_a, int64_t b, bool has_b);

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
	const char *step, *range;
	struct srv_win *win = NULL;
	struct err e = {0};
	if (srv_selection(c, false, &step, &range)) {
		int rc = srv_window_get(s, id, t, step, range, &win, &e);
		if (rc)
			return srv_reply_error(c, rc == ERR_USAGE ? MHD_HTTP_BAD_REQUEST : 500,
					       "%s", e.msg);
	}
	res = reply_trace(s, c, id, t, win ? srv_window_trace(win) : NULL, a, has_a, b, has_b);
	srv_window_put(s, win);
	return res;
}

/* The bytes of file id's trace t, cut to sel (a window of t, or NULL) and
 * then to [a, b) from the start of what is left, into *buf. */
static int write_trace(struct srv *s, int id, const struct trace *t, const struct trace *sel,
		       int64_t a, int64_t b, bool windowed, char **buf, size_t *len, struct err *e)
{
	struct srv_file f;
	if (!srv_file_get(s, id, &f))
		return err_set(e, ERR_IO, NULL, -1, "the file is gone");
	char path[64];
	if (f.in.copy_fd >= 0)
		snprintf(path, sizeof path, "/proc/self/fd/%d", f.in.copy_fd);
	const char *src = f.in.copy_fd >= 0 ? path : f.in.path;
	const struct trace *base = sel ? sel : t;
	struct trace *cut = NULL;
	int rc = 0;
	if (windowed) {
		const struct tr_links *l = NULL;
		struct ses *ses = sel ? NULL : srv_file_ses(s, id);
		rc = ses ? ses_links(ses, true, &l, e) : 0;
		if (!rc)
			rc = tr_window((struct trace *)base, l, a, b, &cut, e);
	}
	FILE *out = rc ? NULL : open_memstream(buf, len);
	if (!rc && !out)
		rc = err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	struct kpass_info info;
	if (!rc)
		rc = kpass_slice(src, t, cut ? cut : sel, false, out, &info, e);
	if (out && fclose(out) && !rc)
		rc = err_set(e, ERR_NOMEM, NULL, -1, "could not write the trace");
	tr_window_release(cut);
	return rc;
}

static enum MHD_Result reply_trace(struct srv *s, struct MHD_Connection *c, int id,
				   const struct trace *t, const struct trace *sel, int64_t a,
				   bool has_a, int64_t b, bool has_b)
{
	const struct trace *shown = sel ? sel : t;
	bool some = shown->min_ts <= shown->max_end;
	int64_t lo = some ? shown->min_ts : 0, hi = some ? shown->max_end : 0;
	int64_t start = lo, end = hi + 1; /* zero-length events at the end included */
	bool windowed = has_a || has_b;
	if ((has_a && __builtin_add_overflow(lo, a, &start)) ||
	    (has_b && __builtin_add_overflow(lo, b, &end)))
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST,
				       "start_ns or end_ns is out of range");
	if (windowed && end <= start)
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST,
				       "the window is empty: end_ns must be after start_ns");
	char *buf = NULL;
	size_t len = 0;
	struct err e = {0};
	srv_job_begin(s);
	int rc = write_trace(s, id, t, sel, start, end, windowed, &buf, &len, &e);
	srv_job_end(s);
	enum MHD_Result res = !rc ? srv_reply(c, MHD_HTTP_OK, "application/json", buf, len)
				  : srv_reply_error(c, 500, "%s", e.msg);
	free(buf);
	return res;
}
