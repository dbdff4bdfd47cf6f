/* srv_trace: GET /api/file/ID/trace?start_ns=A&end_ns=B: the loaded trace
 * written back from its own bytes (server/srv_answer.h: what `gpuprof trace
 * slice` writes, every kept event as the file has it, every top-level
 * key), for the viewer's "Download trace" and "Open in Perfetto" (the page
 * hands these bytes to ui.perfetto.dev by postMessage; nothing leaves the
 * machine otherwise). A and B are nanoseconds from the trace's start, as
 * the timeline takes them; with either, the window [A, B) as `trace slice
 * --from --to` cuts it. With step=/range=, the trace cut to that selection
 * (srv_select.c), A and B then counting from the window's start. The file
 * is read again for each answer: a named file at its path, an upload
 * through the descriptor its input keeps (srv_api.c). */
#include <stdio.h>
#include <stdlib.h>

#include "server/srv_int.h"
#include "server/srv_answer.h"

enum MHD_Result srv_api_trace(struct srv *s, struct MHD_Connection *c, int id)
{
	struct srv_trace_opts o;
	char msg[128];
	if (srv_trace_opts(c, &o, msg, sizeof msg))
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "%s", msg);
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
	struct srv_file f;
	char *buf = NULL;
	size_t len = 0;
	int rc = srv_file_get(s, id, &f) ? 0 : err_set(&e, ERR_IO, NULL, -1, "the file is gone");
	if (!rc) {
		char path[64];
		if (f.in.copy_fd >= 0)
			snprintf(path, sizeof path, "/proc/self/fd/%d", f.in.copy_fd);
		srv_job_begin(s);
		rc = srv_slice(f.in.copy_fd >= 0 ? path : f.in.path, t,
			       win ? srv_window_trace(win) : NULL, win ? NULL : srv_file_ses(s, id),
			       &o, &buf, &len, &e);
		srv_job_end(s);
	}
	srv_window_put(s, win);
	res = !rc		? srv_reply(c, MHD_HTTP_OK, "application/json", buf, len)
	      : rc == ERR_USAGE ? srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "%s", e.msg)
				: srv_reply_error(c, 500, "%s", e.msg);
	free(buf);
	return res;
}
