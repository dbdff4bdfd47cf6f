/* srv_select: the viewer's step and range selection (`step=N|A-B`,
 * `range=NAME` on the trace views, the timeline and /trace: what --step and
 * --range do to `gpuprof VIEW`), and GET /api/file/ID/annotations (the
 * trace's distinct user annotation names, for the page's --range field).
 *
 * The loaded trace is never changed: a selection is answered from a window
 * of it (tbprof/select.h, the CLI's own cut), built once per (file, step,
 * range) and kept in a small table of the last SRV_MAX_WINS windows used.
 * Each window is reference counted: the table holds one reference and every
 * request using it one more, so evicting a window another request is still
 * reading only drops the table's reference; the last one out frees it. The
 * counts change only under s->mu. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "report/report.h"
#include "server/srv_int.h"
#include "server/srv_answer.h"
#include "tbprof/select.h"
#include "trace/window.h"
#include "views/view.h"

struct srv_win {
	int id;		       /* the file */
	char *step, *range;    /* the selector (either NULL) */
	struct trace *t;       /* the window (borrows the file's trace) */
	struct ses *ses;       /* t's analysis session */
	struct tl_index *tl;   /* the timeline's index of t, built on first use */
	struct srv_file *file; /* held: t borrows its trace */
	int refs;
	uint64_t used; /* s->win_clock at the last use */
};

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static void win_free(struct srv *s, struct srv_win *w)
{
	if (!w)
		return;
	tl_index_free(w->tl);
	ses_free(w->ses);
	tr_window_release(w->t);
	srv_file_release(s, w->file); /* after the window that borrows its trace */
	free(w->step);
	free(w->range);
	free(w);
}

/* Drops one reference; returns w when it was the last (to free outside the
 * lock), else NULL. Under s->mu. */
static struct srv_win *unref_locked(struct srv_win *w)
{
	return --w->refs == 0 ? w : NULL;
}

void srv_window_put(struct srv *s, struct srv_win *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&s->mu);
	struct srv_win *dead = unref_locked(w);
	pthread_mutex_unlock(&s->mu);
	win_free(s, dead);
}

const struct trace *srv_window_trace(const struct srv_win *w)
{
	return w->t;
}

struct ses *srv_window_ses(const struct srv_win *w)
{
	return w->ses;
}

/* The table's window of (id, step, range) with one more reference, or NULL.
 * Under s->mu. */
static struct srv_win *find_locked(struct srv *s, int id, const char *step, const char *range)
{
	for (int i = 0; i < SRV_MAX_WINS; i++) {
		struct srv_win *w = s->wins[i];
		if (w && w->id == id && same_str(w->step, step) && same_str(w->range, range)) {
			w->refs++;
			w->used = ++s->win_clock;
			return w;
		}
	}
	return NULL;
}

int srv_window_get(struct srv *s, int id, struct trace *t, const char *step, const char *range,
		   struct srv_win **out, struct err *e)
{
	pthread_mutex_lock(&s->mu);
	*out = find_locked(s, id, step, range);
	pthread_mutex_unlock(&s->mu);
	if (*out)
		return 0;
	struct srv_win *w = calloc(1, sizeof *w);
	if (!w || (step && !(w->step = strdup(step))) || (range && !(w->range = strdup(range)))) {
		win_free(s, w);
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	}
	w->id = id;
	if (!(w->file = srv_file_hold(s, id, false))) { /* removed meanwhile */
		win_free(s, w);
		return err_set(e, ERR_IO, NULL, -1, "file %d was removed", id);
	}
	srv_job_begin(s); /* a cut costs a pass over the trace */
	int rc = tr_select(t, srv_file_ses(s, id), step, range, &w->t, e);
	if (!rc)
		rc = ses_new_window(srv_file_ses(s, id), w->t, &w->ses, e);
	srv_job_end(s);
	if (rc) {
		win_free(s, w);
		return rc;
	}
	/* another request may have cut the same window meanwhile: use one */
	struct srv_win *dead = NULL;
	pthread_mutex_lock(&s->mu);
	*out = find_locked(s, id, step, range);
	if (*out) {
		dead = w;
	} else {
		int slot = 0;
		for (int i = 0; i < SRV_MAX_WINS; i++) {
			if (!s->wins[i]) {
				slot = i;
				break;
			}
			if (s->wins[i]->used < s->wins[slot]->used)
				slot = i;
		}
		if (s->wins[slot])
			dead =
			    unref_locked(s->wins[slot]); /* still in use: its last user frees it */
		w->refs = 2;				 /* the table's and the caller's */
		w->used = ++s->win_clock;
		s->wins[slot] = w;
		*out = w;
	}
	pthread_mutex_unlock(&s->mu);
	win_free(s, dead);
	return 0;
}

int srv_window_tl(struct srv *s, struct srv_win *w, struct tl_index **ix, struct err *e)
{
	pthread_mutex_lock(&s->mu);
	*ix = w->tl;
	pthread_mutex_unlock(&s->mu);
	if (*ix)
		return 0;
	struct tl_index *nix;
	int rc = tl_index_build(w->t, &nix, e);
	if (rc)
		return rc;
	pthread_mutex_lock(&s->mu); /* a concurrent builder's copy is dropped */
	if (!w->tl)
		w->tl = nix, nix = NULL;
	*ix = w->tl;
	pthread_mutex_unlock(&s->mu);
	tl_index_free(nix);
	return 0;
}

void srv_windows_free(struct srv *s)
{
	for (int i = 0; i < SRV_MAX_WINS; i++) {
		win_free(s, s->wins[i]);
		s->wins[i] = NULL;
	}
}

void srv_windows_drop(struct srv *s, int id)
{
	struct srv_win *dead[SRV_MAX_WINS] = {0};
	pthread_mutex_lock(&s->mu);
	for (int i = 0; i < SRV_MAX_WINS; i++)
		if (s->wins[i] && s->wins[i]->id == id) {
			dead[i] = unref_locked(s->wins[i]); /* in use: its last user frees it */
			s->wins[i] = NULL;
		}
	pthread_mutex_unlock(&s->mu);
	for (int i = 0; i < SRV_MAX_WINS; i++)
		win_free(s, dead[i]);
}

/* GET /api/file/ID/annotations: the trace's user annotation names
 * (server/srv_answer.h, socket-free for the static site too). */
enum MHD_Result srv_api_annotations(struct srv *s, struct MHD_Connection *c, int id)
{
	char bad[SRV_BAD_PARAM];
	if (srv_unknown_param(c, "", bad))
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST,
				       "annotations takes no parameter '%s'", bad);
	enum MHD_Result res;
	const struct trace *t = srv_trace_of(s, c, id, &res);
	if (!t)
		return res;
	char *buf = NULL;
	size_t len = 0;
	srv_job_begin(s);
	bool ok = !srv_annotations(t, &buf, &len);
	srv_job_end(s);
	res = ok ? srv_reply(c, MHD_HTTP_OK, "application/json", buf, len)
		 : srv_reply_error(c, 500, "could not write the answer");
	free(buf);
	return res;
}
