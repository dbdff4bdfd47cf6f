/* srv_timeline_find: GET /api/file/ID/timeline/find?find=TEXT&start_ns=A&
 * end_ns=B&limit=N, the timeline's search (views/view_timeline_find.c):
 * the slices whose name contains TEXT, in time order, at most N (default
 * 1000, 0 to 10000) with their total and the matching names' counts. A and
 * B are nanoseconds from the trace's start, as the timeline takes them.
 *
 * Also srv_tl_index, the timeline index of a file (built on first use and
 * kept with the file), which /timeline and /timeline/find share. */
#include <stdlib.h>
#include <string.h>

#include "server/srv_int.h"
#include "views/view.h"

struct tl_index *srv_tl_index(struct srv *s, struct MHD_Connection *c, int id, struct srv_win **win,
			      enum MHD_Result *res)
{
	*win = NULL;
	struct trace *t = srv_trace_of(s, c, id, res);
	if (!t)
		return NULL;
	struct srv_file f;
	struct tl_index *ix = srv_file_get(s, id, &f) ? f.tl : NULL;
	struct err e = {0};
	const char *step, *range;
	if (srv_selection(c, false, &step, &range)) { /* the window's own index */
		int rc = srv_window_get(s, id, t, step, range, win, &e);
		if (!rc) {
			srv_job_begin(s);
			if ((rc = srv_window_tl(s, *win, &ix, &e)))
				srv_job_end(s);
		}
		if (rc) {
			srv_window_put(s, *win);
			*win = NULL;
			*res = srv_reply_error(c, rc == ERR_USAGE ? MHD_HTTP_BAD_REQUEST : 500,
					       "%s", e.msg);
			return NULL;
		}
		return ix;
	}
	srv_job_begin(s);
	if (!ix) { /* built once; a concurrent builder's copy is dropped */
		struct tl_index *nix;
		if (tl_index_build(t, &nix, &e)) {
			srv_job_end(s);
			*res = srv_reply_error(c, 500, "%s", e.msg);
			return NULL;
		}
		pthread_mutex_lock(&s->mu);
		struct srv_file *lf = srv_file_find_locked(s, id);
		if (lf && !lf->tl)
			lf->tl = nix, nix = NULL;
		ix = lf ? lf->tl : NULL;
		pthread_mutex_unlock(&s->mu);
		tl_index_free(nix);
		if (!ix) { /* removed meanwhile */
			srv_job_end(s);
			*res = srv_reply_error(c, MHD_HTTP_NOT_FOUND, "no file %d", id);
			return NULL;
		}
	}
	return ix;
}

enum MHD_Result srv_api_timeline_find(struct srv *s, struct MHD_Connection *c, int id)
{
	char bad[SRV_BAD_PARAM];
	if (srv_unknown_param(c, SRV_FIND_PARAMS, bad))
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST,
				       "timeline/find takes no parameter '%s'", bad);
	struct tl_find_opts o;
	enum MHD_Result res;
	if (srv_find_opts(c, &o, &res))
		return res;
	struct srv_win *win; /* step=/range=: search the window */
	struct tl_index *ix = srv_tl_index(s, c, id, &win, &res);
	if (!ix)
		return res;
	char *buf = NULL;
	size_t len = 0;
	struct err e = {0};
	FILE *f = open_memstream(&buf, &len);
	int rc =
	    f ? tl_write_find(ix, &o, f, &e) : err_set(&e, ERR_NOMEM, NULL, -1, "out of memory");
	srv_job_end(s);
	srv_window_put(s, win);
	return srv_reply_stream(c, f, &buf, &len, rc, &e);
}
