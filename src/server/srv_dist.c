/* srv_dist: GET /api/dist?files=1,2,...&tb_compat=1&step=N|A-B&range=NAME&names=A,B,...,
 * the distributed view (torch-tb-profiler's, tbprof/dist.h) over several
 * loaded traces, one per worker: what `gpuprof dist [--tb-compat] [--step
 * ...|--range NAME] [--names A,B,...] --format json FILE...` prints for the
 * same files in the same order, written by the same views/view_dist.c
 * code. Without `files`: every loaded PyTorch trace, in file-id order.
 *
 * step=/range= cut each worker's trace to its own window, as the CLI's
 * global --step/--range do to each trace it loads: the windows are
 * srv_select.c's (the table the other views use, reference counted; a
 * window evicted meanwhile lives until this request gives it back). A
 * worker without that step or range is a 400 with the CLI's message,
 * prefixed by the worker's file as the workers table shows it.
 *
 * Worker names come from names= (one per listed file, dist_nth_name's
 * rules and the CLI's message when the count differs; empty: absent) or
 * else from each file's display name (dist_worker_name of its base name,
 * as the CLI does of a path's), so an upload is named by its uploaded
 * name. The workers table's File is the path the server was given, as the
 * CLI prints the path it was given; an upload's is its name (its trace's
 * path is the private /proc/self/fd link, which means nothing to a reader
 * and is gone after the upload).
 *
 * Rank summaries (`gpuprof rank-summary`, loaded as files of kind
 * rank-summary) are workers too, as `gpuprof dist` takes them: each is
 * read again, whole, for the answer (fleet_summary_add), keeps its own
 * worker name unless names= gives one, and refuses step=/range= (a
 * summary's window is the one it was made with) as the CLI does. Without
 * files=, the workers are the loaded summaries when there are any (the
 * traces loaded beside them are then their ranks' traces, for the page's
 * links), else every loaded trace. fleet=1 adds `dist --fleet`'s tables
 * (top=N: `--top N` of skew).
 *
 * Each pick holds its file (srv_files.c), so the computation reads the
 * traces outside the lock even while one is removed; it runs as one
 * analysis (srv_job_begin/end) for all workers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/srv_answer.h"
#include "server/srv_int.h"
#include "tbprof/dist.h"

#define UPLOAD_PATH "/proc/self/fd/"

struct dist_pick {
	int id;
	struct trace *t;	     /* NULL: a rank summary, read from path */
	char path[4096];	     /* a summary's: as given, or an upload's private link */
	char name[SRV_MAX_NAME + 1]; /* the file's display name */
	struct srv_win *win;	     /* step=/range=: t's window, else NULL */
	struct srv_file *file;	     /* held until the answer is written */
};

/* picks[k] is file f, held. Under s->mu. */
static void pick_locked(struct srv *s, struct dist_pick *p, struct srv_file *f)
{
	p->id = f->id;
	p->t = input_trace(&f->in);
	snprintf(p->path, sizeof p->path, "%s", f->in.path);
	snprintf(p->name, sizeof p->name, "%s", f->name);
	p->file = f;
	f->refs++;
	f->used = ++s->file_clock; /* a request's use */
}

static bool is_upload(const struct trace *t)
{
	return !strncmp(t->path, UPLOAD_PATH, strlen(UPLOAD_PATH));
}

static bool is_summary(const struct srv_file *f)
{
	return f->in.kind == INPUT_RANK_SUMMARY;
}

/* Fills picks from the files with the given ids (or the default workers
 * when ids is NULL: srv_answer.h's srv_dist_pick); an HTTP status and a
 * message when one is missing or no trace. */
static unsigned pick_files(struct srv *s, const int *ids, int nids, struct dist_pick *picks,
			   int *npicks, char *msg, size_t n)
{
	int max = s->o.max_files > 0 ? s->o.max_files : 1;
	struct srv_dist_file *files = calloc((size_t)max + 1, sizeof *files);
	int *fid = calloc((size_t)max + 1, sizeof *fid),
	    *pick = calloc((size_t)max + 1, sizeof *pick);
	*npicks = 0;
	if (!files || !fid || !pick) {
		free(files);
		free(fid);
		free(pick);
		return snprintf(msg, n, "out of memory"), 500;
	}
	pthread_mutex_lock(&s->mu);
	int nf = s->nfiles < max ? s->nfiles : max;
	for (int i = 0; i < nf; i++) {
		struct srv_file *f = s->files[i];
		files[i] =
		    (struct srv_dist_file){f->name, input_trace(&f->in) != NULL, is_summary(f)};
		fid[i] = f->id;
	}
	int k = 0;
	unsigned status = srv_dist_pick(files, fid, nf, ids, nids, max, pick, &k, msg, n);
	for (int i = 0; !status && i < k; i++)
		pick_locked(s, &picks[(*npicks)++], s->files[pick[i]]);
	pthread_mutex_unlock(&s->mu);
	free(files);
	free(fid);
	free(pick);
	return status;
}

/* The windows of step/range for every pick; on an error the message (the
 * CLI's: the worker's file, then tr_select's text) in msg and its status. */
static unsigned cut_windows(struct srv *s, struct dist_pick *picks, int n, const char *step,
			    const char *range, char *msg, size_t size)
{
	for (int i = 0; i < n; i++) {
		struct err e = {0};
		if (!picks[i].t) { /* the CLI's refusal */
			snprintf(msg, size, SRV_DIST_SUMMARY_CUT, picks[i].name);
			return MHD_HTTP_BAD_REQUEST;
		}
		int rc = srv_window_get(s, picks[i].id, picks[i].t, step, range, &picks[i].win, &e);
		if (!rc)
			continue;
		picks[i].win = NULL;
		if (e.path[0])
			snprintf(msg, size, "%s: %s",
				 is_upload(picks[i].t) ? picks[i].name : e.path, e.msg);
		else
			snprintf(msg, size, "%s", e.msg);
		return srv_http_status(rc);
	}
	return 0;
}

enum MHD_Result srv_api_dist(struct srv *s, struct MHD_Connection *c)
{
	struct srv_dist_opts o;
	char msg[1100];
	if (srv_dist_opts(c, &o, msg, sizeof msg))
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "%s", msg);
	int max = s->o.max_files > 0 ? s->o.max_files : 1;
	int *ids = calloc((size_t)max, sizeof *ids);
	struct dist_pick *picks = calloc((size_t)max, sizeof *picks);
	struct srv_dist_worker *w = calloc((size_t)max, sizeof *w);
	if (!ids || !picks || !w) {
		free(ids);
		free(picks);
		free(w);
		return srv_reply_error(c, 500, "out of memory");
	}
	int nids = 0, npicks = 0;
	unsigned status = 0;
	if (o.files && (nids = srv_q_ids(o.files, ids, max, msg, sizeof msg)) < 0)
		status = MHD_HTTP_BAD_REQUEST;
	if (!status)
		status = pick_files(s, o.files ? ids : NULL, nids, picks, &npicks, msg, sizeof msg);
	free(ids);
	/* the CLI's order: the names' count, then each trace's cut */
	if (!status && o.names && !dist_names_fit(o.names, npicks)) {
		status = MHD_HTTP_BAD_REQUEST;
		snprintf(msg, sizeof msg, DIST_NAMES_MSG, npicks);
	}
	if (!status && o.sel)
		status = cut_windows(s, picks, npicks, o.step, o.range, msg, sizeof msg);
	struct err e = {0};
	char *buf = NULL;
	size_t len = 0;
	int rc = 0;
	if (!status) {
		for (int i = 0; i < npicks; i++) {
			struct dist_pick *p = &picks[i];
			w[i] = (struct srv_dist_worker){
			    .t = p->t && p->win ? srv_window_trace(p->win) : p->t,
			    .path = p->path,
			    .name = p->name,
			    .upload = p->t ? is_upload(p->t)
					   : !strncmp(p->path, UPLOAD_PATH, strlen(UPLOAD_PATH))};
		}
		srv_job_begin(s);
		rc = srv_dist(w, npicks, &o, &buf, &len, &e);
		srv_job_end(s);
	}
	for (int i = 0; i < npicks; i++) {
		srv_window_put(s, picks[i].win);
		srv_file_release(s, picks[i].file);
	}
	free(picks);
	free(w);
	if (status)
		return srv_reply_error(c, status, "%s", msg);
	return srv_reply_json(c, rc, &e, buf, len);
}
