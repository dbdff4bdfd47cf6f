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

#include "fleet/summary.h"
#include "report/report.h"
#include "server/srv_int.h"
#include "tbprof/dist.h"
#include "views/view_dist.h"

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

/* Fills picks from the files with the given ids (or every trace when ids is
 * NULL); an HTTP status and a message when one is missing or no trace. */
static unsigned pick_files(struct srv *s, const int *ids, int nids, struct dist_pick *picks,
			   int *npicks, char *msg, size_t n)
{
	unsigned status = 0;
	*npicks = 0;
	pthread_mutex_lock(&s->mu);
	if (!ids) {
		for (int i = 0; i < s->nfiles && *npicks < s->o.max_files; i++)
			if (is_summary(s->files[i]))
				pick_locked(s, &picks[(*npicks)++], s->files[i]);
		bool sums = *npicks > 0;
		for (int i = 0; !sums && i < s->nfiles && *npicks < s->o.max_files; i++)
			if (input_trace(&s->files[i]->in))
				pick_locked(s, &picks[(*npicks)++], s->files[i]);
		if (!*npicks) {
			status = MHD_HTTP_BAD_REQUEST;
			snprintf(msg, n, "no PyTorch trace is loaded");
		}
	}
	for (int k = 0; ids && k < nids && !status; k++) {
		struct srv_file *f = srv_file_find_locked(s, ids[k]);
		if (!f) {
			status = MHD_HTTP_NOT_FOUND;
			snprintf(msg, n, "no file %d", ids[k]);
		} else if (!input_trace(&f->in) && !is_summary(f)) {
			status = MHD_HTTP_BAD_REQUEST;
			snprintf(msg, n, "file %d (%s) is not a PyTorch trace or a rank summary",
				 f->id, f->name);
		} else {
			pick_locked(s, &picks[(*npicks)++], f);
		}
	}
	pthread_mutex_unlock(&s->mu);
	return status;
}

/* Computes the view over picks and writes its JSON into *buf. 0, or an err
 * code (e filled). */
/* Adds the worker of summary pick p (the i-th): the CLI's add_summary. */
static int add_summary(struct dist_result *d, const struct dist_pick *p, const char *names, int i,
		       struct err *e)
{
	char name[256], *text = NULL;
	size_t len = 0;
	const char *nm = names ? dist_nth_name(names, i, name, sizeof name) : NULL;
	const char *shown = strncmp(p->path, UPLOAD_PATH, strlen(UPLOAD_PATH)) ? p->path : p->name;
	int rc = fleet_summary_read_file(p->path, &text, &len, e);
	if (!rc)
		rc = fleet_summary_add(d, text, len, shown, nm, e);
	if (rc && e->path[0] && shown == p->name)
		snprintf(e->path, sizeof e->path, "%s", p->name);
	free(text);
	return rc;
}

static int compute(const struct dist_pick *picks, int n, bool compat, const char *names,
		   const int64_t *top, char **buf, size_t *len, struct err *e)
{
	struct dist_opts o = {.tb_compat = compat};
	struct dist_result d;
	int rc = dist_init(&d, &o, e);
	if (rc)
		return rc;
	for (int i = 0; !rc && i < n; i++) {
		if (!picks[i].t) {
			rc = add_summary(&d, &picks[i], names, i, e);
			continue;
		}
		const struct trace *t = picks[i].win ? srv_window_trace(picks[i].win) : picks[i].t;
		char name[256]; /* the CLI's size: a longer name is cut alike */
		if (!names || !dist_nth_name(names, i, name, sizeof name))
			dist_worker_name(picks[i].name, name, sizeof name);
		rc = dist_add(&d, t, name, is_upload(picks[i].t) ? picks[i].name : NULL, e);
	}
	if (!rc)
		rc = dist_finish(&d, e);
	if (!rc) {
		FILE *f = open_memstream(buf, len);
		struct report *r = f ? rep_open(f, REP_JSON) : NULL;
		bool ok = r && dist_view_emit(r, &d) == 0;
		ok = ok && (!top || dist_fleet_view_emit(r, &d, (size_t)*top) == 0);
		ok = r && rep_close(r) == 0 && ok;
		if (f && fclose(f))
			ok = false;
		if (!ok)
			rc = err_set(e, ERR_NOMEM, NULL, -1, "could not write the answer");
	}
	dist_free(&d);
	return rc;
}

/* The windows of step/range for every pick; on an error the message (the
 * CLI's: the worker's file, then tr_select's text) in msg and its status. */
static unsigned cut_windows(struct srv *s, struct dist_pick *picks, int n, const char *step,
			    const char *range, char *msg, size_t size)
{
	for (int i = 0; i < n; i++) {
		struct err e = {0};
		if (!picks[i].t) { /* the CLI's refusal */
			snprintf(msg, size,
				 "%s is a rank summary: --step and --range apply when it is made "
				 "(gpuprof rank-summary --step ...)",
				 picks[i].name);
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
	char bad[SRV_BAD_PARAM];
	if (srv_unknown_param(c, " files tb_compat step range names fleet top ", bad))
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "dist takes no parameter '%s'",
				       bad);
	const char *tb = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "tb_compat");
	bool compat = tb && (!strcmp(tb, "1") || !strcmp(tb, "true") || !*tb);
	const char *list = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "files");
	const char *names = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "names");
	if (names && !*names)
		names = NULL;
	const char *step, *range;
	bool sel = srv_selection(c, false, &step, &range);
	int64_t top = 0;
	bool has_top = false;
	bool fleet = srv_flag(c, "fleet");
	if (srv_int_arg(c, "top", &top, &has_top) || top < 0 || (has_top && !fleet))
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST,
				       "top needs fleet=1 and a count of 0 or more");
	int max = s->o.max_files > 0 ? s->o.max_files : 1;
	int *ids = calloc((size_t)max, sizeof *ids);
	struct dist_pick *picks = calloc((size_t)max, sizeof *picks);
	if (!ids || !picks) {
		free(ids);
		free(picks);
		return srv_reply_error(c, 500, "out of memory");
	}
	char msg[1100];
	int nids = 0, npicks = 0;
	unsigned status = 0;
	if (list && (nids = srv_q_ids(list, ids, max, msg, sizeof msg)) < 0)
		status = MHD_HTTP_BAD_REQUEST;
	if (!status)
		status = pick_files(s, list ? ids : NULL, nids, picks, &npicks, msg, sizeof msg);
	free(ids);
	/* the CLI's order: the names' count, then each trace's cut */
	if (!status && names && !dist_names_fit(names, npicks)) {
		status = MHD_HTTP_BAD_REQUEST;
		snprintf(msg, sizeof msg, DIST_NAMES_MSG, npicks);
	}
	if (!status && sel)
		status = cut_windows(s, picks, npicks, step, range, msg, sizeof msg);
	struct err e = {0};
	char *buf = NULL;
	size_t len = 0;
	int rc = 0;
	if (!status) {
		srv_job_begin(s);
		rc = compute(picks, npicks, compat, names, fleet ? &top : NULL, &buf, &len, &e);
		srv_job_end(s);
	}
	for (int i = 0; i < npicks; i++) {
		srv_window_put(s, picks[i].win);
		srv_file_release(s, picks[i].file);
	}
	free(picks);
	if (status)
		return srv_reply_error(c, status, "%s", msg);
	return srv_reply_json(c, rc, &e, buf, len);
}
