/* srv_dist: GET /api/dist?files=1,2,...&tb_compat=1, the distributed view
 * (torch-tb-profiler's, torch/dist.h) over several loaded traces, one per
 * worker: what `gpuprof dist [--tb-compat] --format json FILE...` prints for
 * the same files in the same order, written by the same views/view_dist.c
 * code. Without `files`: every loaded PyTorch trace, in file-id order.
 *
 * Worker names come from each file's display name (dist_worker_name of its
 * base name, as the CLI does of a path's), so an upload is named by its
 * uploaded name. The workers table's File is the path the server was given,
 * as the CLI prints the path it was given; an upload's is its name (its
 * trace's path is the private /proc/self/fd link, which means nothing to a
 * reader and is gone after the upload).
 *
 * Traces live as long as the server, so the computation reads them outside
 * the lock; it runs as one analysis (srv_job_begin/end) for all workers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "server/srv_int.h"
#include "torch/dist.h"
#include "views/view_dist.h"

#define UPLOAD_PATH "/proc/self/fd/"

struct dist_pick {
	const struct trace *t;
	char name[SRV_MAX_NAME + 1]; /* the file's display name */
};

/* Parses "1,2,..." into ids (at most max, no repeats); a message in msg and
 * -1 when the list is bad, else the count. */
static int parse_ids(const char *list, int *ids, int max, char *msg, size_t n)
{
	int k = 0;
	const char *p = list;
	for (;;) {
		char *end;
		if (*p < '0' || *p > '9')
			return snprintf(msg, n, "files takes file ids separated by commas (e.g. 1,2)"), -1;
		long id = strtol(p, &end, 10);
		if (id <= 0 || id >= 1000000 || (*end && *end != ','))
			return snprintf(msg, n, "files takes file ids separated by commas (e.g. 1,2)"), -1;
		for (int i = 0; i < k; i++)
			if (ids[i] == id)
				return snprintf(msg, n, "files lists file %ld twice", id), -1;
		if (k == max)
			return snprintf(msg, n, "files lists more than %d files", max), -1;
		ids[k++] = (int)id;
		if (!*end)
			return k;
		p = end + 1;
	}
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
			if (s->files[i].t) {
				picks[*npicks].t = s->files[i].t;
				snprintf(picks[*npicks].name, sizeof picks[0].name, "%s", s->files[i].name);
				++*npicks;
			}
		if (!*npicks) {
			status = MHD_HTTP_BAD_REQUEST;
			snprintf(msg, n, "no PyTorch trace is loaded");
		}
	}
	for (int k = 0; ids && k < nids && !status; k++) {
		const struct srv_file *f = NULL;
		for (int i = 0; i < s->nfiles; i++)
			if (s->files[i].id == ids[k])
				f = &s->files[i];
		if (!f) {
			status = MHD_HTTP_NOT_FOUND;
			snprintf(msg, n, "no file %d", ids[k]);
		} else if (!f->t) {
			status = MHD_HTTP_BAD_REQUEST;
			snprintf(msg, n, "file %d (%s) is not a PyTorch trace", f->id, f->name);
		} else {
			picks[*npicks].t = f->t;
			snprintf(picks[*npicks].name, sizeof picks[0].name, "%s", f->name);
			++*npicks;
		}
	}
	pthread_mutex_unlock(&s->mu);
	return status;
}

/* Computes the view over picks and writes its JSON into *buf. 0, or an err
 * code (e filled). */
static int compute(const struct dist_pick *picks, int n, bool compat, char **buf, size_t *len,
		   struct err *e)
{
	struct dist_opts o = {.tb_compat = compat};
	struct dist_result d;
	int rc = dist_init(&d, &o, e);
	if (rc)
		return rc;
	for (int i = 0; !rc && i < n; i++) {
		const struct trace *t = picks[i].t;
		char name[256];
		dist_worker_name(picks[i].name, name, sizeof name);
		bool upload = !strncmp(t->path, UPLOAD_PATH, strlen(UPLOAD_PATH));
		rc = dist_add(&d, t, name, upload ? picks[i].name : NULL, e);
	}
	if (!rc)
		rc = dist_finish(&d, e);
	if (!rc) {
		FILE *f = open_memstream(buf, len);
		struct report *r = f ? rep_open(f, REP_JSON) : NULL;
		bool ok = r && dist_view_emit(r, &d) == 0;
		ok = r && rep_close(r) == 0 && ok;
		if (f && fclose(f))
			ok = false;
		if (!ok)
			rc = err_set(e, ERR_NOMEM, NULL, -1, "could not write the answer");
	}
	dist_free(&d);
	return rc;
}

enum MHD_Result srv_api_dist(struct srv *s, struct MHD_Connection *c)
{
	char bad[SRV_BAD_PARAM];
	if (srv_unknown_param(c, " files tb_compat ", bad))
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "dist takes no parameter '%s'", bad);
	const char *tb = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "tb_compat");
	bool compat = tb && (!strcmp(tb, "1") || !strcmp(tb, "true") || !*tb);
	const char *list = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "files");
	int max = s->o.max_files > 0 ? s->o.max_files : 1;
	int *ids = calloc((size_t)max, sizeof *ids);
	struct dist_pick *picks = calloc((size_t)max, sizeof *picks);
	if (!ids || !picks) {
		free(ids);
		free(picks);
		return srv_reply_error(c, 500, "out of memory");
	}
	char msg[320];
	int nids = 0, npicks = 0;
	unsigned status = 0;
	if (list && (nids = parse_ids(list, ids, max, msg, sizeof msg)) < 0)
		status = MHD_HTTP_BAD_REQUEST;
	if (!status)
		status = pick_files(s, list ? ids : NULL, nids, picks, &npicks, msg, sizeof msg);
	free(ids);
	if (status) {
		free(picks);
		return srv_reply_error(c, status, "%s", msg);
	}
	struct err e = {0};
	char *buf = NULL;
	size_t len = 0;
	srv_job_begin(s);
	int rc = compute(picks, npicks, compat, &buf, &len, &e);
	srv_job_end(s);
	free(picks);
	enum MHD_Result res = rc ? srv_reply_error(c, rc == ERR_USAGE ? MHD_HTTP_BAD_REQUEST : 500,
						   "%s", e.msg)
				 : srv_reply(c, MHD_HTTP_OK, "application/json", buf, len);
	free(buf);
	return res;
}
