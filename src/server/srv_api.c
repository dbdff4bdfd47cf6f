/* srv_api: the JSON API of `gpuprof serve` (see server.h) and the loaded
 * files. Each view answer is what `gpuprof VIEW --format json` prints: the
 * same views/ code writes it through the same JSON sink, into memory. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ncu/ncu.h"
#include "report/report.h"
#include "core/lru.h"
#include "core/suggest.h"
#include "io/outfile.h"
#include "server/srv_answer.h"
#include "server/srv_int.h"
#include "tbprof/select.h"
#include "views/view.h"

void srv_job_begin(struct srv *s)
{
	pthread_mutex_lock(&s->mu);
	while (s->jobs >= s->o.max_jobs)
		pthread_cond_wait(&s->cv, &s->mu);
	s->jobs++;
	pthread_mutex_unlock(&s->mu);
}

void srv_job_end(struct srv *s)
{
	pthread_mutex_lock(&s->mu);
	s->jobs--;
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&s->mu);
}

static const struct rep_col file_cols[] = {
    {"id", "ID", REP_INT},	   {"name", "Name", REP_STR}, {"bytes", "Size", REP_BYTES},
    {"events", "Events", REP_INT}, {"kind", "Kind", REP_STR},
};

enum MHD_Result srv_reply_files(struct srv *s, struct MHD_Connection *c, int only)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return MHD_NO;
	struct report *r = rep_open(f, REP_JSON);
	if (r) {
		rep_table_begin(r, "files", "Files", file_cols, 5);
		pthread_mutex_lock(&s->mu);
		for (int i = 0; i < s->nfiles; i++) {
			const struct srv_file *x = s->files[i];
			if (only > 0 && x->id != only)
				continue;
			int64_t count = input_count(&x->in);
			struct rep_val v[] = {rep_i(x->id), rep_s(x->name),
					      x->in.bytes >= 0 ? rep_i(x->in.bytes) : rep_null(),
					      count >= 0 ? rep_i(count) : rep_null(),
					      rep_s(input_kind_name(x->in.kind))};
			rep_row(r, v);
		}
		pthread_mutex_unlock(&s->mu);
		rep_table_end(r);
	}
	bool ok = r && rep_close(r) == 0;
	fclose(f);
	enum MHD_Result res = ok ? srv_reply(c, MHD_HTTP_OK, "application/json", buf, len)
				 : srv_reply_error(c, 500, "could not write the answer");
	free(buf);
	return res;
}

/* "VIEW takes no parameter 'X'" (srv_q_bad_param). */
enum MHD_Result srv_reply_bad_param(struct MHD_Connection *c, const struct view_decl *d,
				    const char *bad)
{
	char msg[256];
	srv_q_bad_param(d, bad, msg, sizeof msg);
	return srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "%s", msg);
}

int srv_view_key(char *key, size_t n, int id, const struct view_decl *d)
{
	return snprintf(key, n, "%d/%s?", id, d->name);
}

int srv_key_param(char *key, size_t n, int len, const char *name, const char *value)
{
	if (len < 0 || (size_t)len >= n)
		return len;
	return len + snprintf(key + len, n - (size_t)len, "%s=%s&", name, value ? value : "");
}

int srv_view_json(struct srv *s, struct ses *ses, const struct view_decl *d,
		  const struct view_opts *o, char **buf, size_t *len, struct err *e)
{
	return srv_view_json_many(s, &ses, 1, d, o, buf, len, e);
}

int srv_view_json_many(struct srv *s, struct ses *const *ss, size_t n, const struct view_decl *d,
		       const struct view_opts *o, char **buf, size_t *len, struct err *e)
{
	struct view *v;
	srv_job_begin(s);
	int rc = view_compute_many(d, ss, n, o, &v, e);
	srv_job_end(s);
	return rc ? rc : view_json_text(v, buf, len, e);
}

enum MHD_Result srv_reply_json(struct MHD_Connection *c, int rc, const struct err *e, char *buf,
			       size_t len)
{
	enum MHD_Result res = rc ? srv_reply_error(c, srv_http_status(rc), "%s", e->msg)
				 : srv_reply(c, MHD_HTTP_OK, "application/json", buf, len);
	free(buf);
	return res;
}

struct cache_key {
	char key[SRV_MAX_URL + 64];
	int n; /* >= sizeof key: too long, not cached */
};

static enum MHD_Result add_key(void *cls, enum MHD_ValueKind kind, const char *key,
			       const char *value)
{
	struct cache_key *ck = cls;
	ck->n = srv_key_param(ck->key, sizeof ck->key, ck->n, key, value);
	return MHD_YES;
}

static enum MHD_Result reply_view(struct srv *s, struct MHD_Connection *c, int id,
				  const struct view_decl *d)
{
	char bad[SRV_BAD_PARAM], params[512];
	srv_view_params(d, params, sizeof params);
	if (srv_unknown_param(c, params, bad))
		return srv_reply_bad_param(c, d, bad);
	struct view_opts o;
	char msg[640];
	if (srv_view_opts(c, d, &o, msg, sizeof msg))
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "%s", msg);
	/* the cache key: the file, the view and its parameters in request order
	 * (the URL's length is capped, so the key's is too) */
	struct cache_key ck = {.n = srv_view_key(ck.key, sizeof ck.key, id, d)};
	srv_mhd()->get_connection_values(c, MHD_GET_ARGUMENT_KIND, add_key, &ck);
	size_t clen;
	/* a removed file's answers are not served, even one cached after it
	 * went (by a computation that ran meanwhile) */
	struct srv_file held;
	bool cacheable = ck.n < (int)sizeof ck.key && srv_file_get(s, id, &held);
	if (cacheable)
		srv_warm_wait(s, ck.key);
	char *cached = cacheable ? lru_get(s->cache, ck.key, &clen) : NULL;
	if (cached) {
		enum MHD_Result res =
		    srv_reply_cached(c, MHD_HTTP_OK, "application/json", cached, clen, "hit");
		free(cached);
		return res;
	}
	enum MHD_Result res;
	struct trace *t = srv_trace_of(s, c, id, &res);
	if (!t)
		return res;
	struct err e = {0};
	const char *step, *range;
	struct srv_win *win = NULL; /* step=/range=: a window of t (srv_select.c) */
	int rc = srv_selection(c, (d->flags & VIEW_STEP_ROWS) != 0, &step, &range)
		     ? srv_window_get(s, id, t, step, range, &win, &e)
		     : 0;
	char *buf = NULL;
	size_t len = 0;
	if (!rc)
		rc = srv_view_json(s, win ? srv_window_ses(win) : srv_file_ses(s, id), d, &o, &buf,
				   &len, &e);
	srv_window_put(s, win);
	if (rc)
		return srv_reply_error(c, srv_http_status(rc), "%s", e.msg);
	if (cacheable)
		lru_put(s->cache, ck.key, buf, len);
	res = srv_reply_cached(c, MHD_HTTP_OK, "application/json", buf, len, "miss");
	free(buf);
	return res;
}

static enum MHD_Result reply_ncu(struct srv *s, struct MHD_Connection *c, int id, const char *verb)
{
	struct srv_file f;
	if (!srv_file_get(s, id, &f))
		return srv_reply_error(c, MHD_HTTP_NOT_FOUND, "no file %d", id);
	struct ncu_report *r = input_ncu(&f.in);
	if (!r)
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST,
				       "file %d is not an Nsight Compute report", id);
	const struct view_decl *d = view_find_in(VIEW_FAMILY_NCU, verb);
	char msg[640];
	if (!d) {
		view_unknown(VIEW_FAMILY_NCU, verb, msg, sizeof msg);
		return srv_reply_error(c, MHD_HTTP_NOT_FOUND, "ncu: %s", msg);
	}
	char bad[SRV_BAD_PARAM], params[512];
	srv_view_params(d, params, sizeof params);
	if (srv_unknown_param(c, params, bad))
		return srv_reply_bad_param(c, d, bad);
	struct view_opts o;
	enum MHD_Result res = srv_view_opts(c, d, &o, msg, sizeof msg)
				  ? srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "%s", msg)
				  : srv_api_ncu(s, c, r, f.ncu_mu, d, &o);
	view_opts_release(&o);
	return res;
}

/* GET /api/file/ID/nsys/VIEW: view VIEW of the export, the query parsed
 * through its option declarations (steps: capture_range, iterations; no
 * manifest: no request may name a file on the server). */
static enum MHD_Result reply_nsys(struct srv *s, struct MHD_Connection *c, int id, const char *view)
{
	const struct view_decl *d = view_find_in(VIEW_FAMILY_NSYS, view);
	bool steps = d && d->kind == VIEW_NSYS_STEPS;
	char bad[SRV_BAD_PARAM], params[512], msg[640];
	if (d)
		srv_view_params(d, params, sizeof params);
	/* steps names a bad parameter before looking at the file */
	if (steps && srv_unknown_param(c, params, bad))
		return srv_reply_bad_param(c, d, bad);
	struct srv_file f;
	if (!srv_file_get(s, id, &f))
		return srv_reply_error(c, MHD_HTTP_NOT_FOUND, "no file %d", id);
	const char *path = input_nsys_path(&f.in);
	size_t alen;
	if (!path)
		return srv_reply_error(
		    c, MHD_HTTP_BAD_REQUEST,
		    steps && input_analysis(&f.in, &alen)
			? "file %d is an analysis.json: ask /api/file/%d/nsys/analysis"
			: "file %d is not an Nsight Systems SQLite export",
		    id, id);
	if (!d) {
		view_unknown(VIEW_FAMILY_NSYS, view, msg, sizeof msg);
		return srv_reply_error(c, MHD_HTTP_NOT_FOUND, "%s", msg);
	}
	if (!steps && srv_unknown_param(c, params, bad))
		return srv_reply_bad_param(c, d, bad);
	const char *cr =
	    srv_mhd()->lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "capture_range");
	if (steps && cr && !*cr) /* an empty value is no value elsewhere */
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "capture_range needs a range name");
	struct view_opts o;
	if (srv_view_opts(c, d, &o, msg, sizeof msg))
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "%s", msg);
	return srv_api_nsys(s, c, path, d, &o);
}

/* GET /api/file/ID/timeline?start_ns=A&end_ns=B&px=W&flows=1&find=TEXT,
 * ?links=ROW (views/view_timeline.c), or ?agg=1&start_ns=A&end_ns=B&tracks=K,L
 * (the area selection, views/view_timeline_agg.c) */
static enum MHD_Result reply_timeline(struct srv *s, struct MHD_Connection *c, int id)
{
	char bad[SRV_BAD_PARAM];
	if (srv_unknown_param(c, SRV_TIMELINE_PARAMS, bad))
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "timeline takes no parameter '%s'",
				       bad);
	struct tl_opts o;
	int64_t links;
	bool has_links;
	enum MHD_Result res;
	if (srv_tl_opts(c, &o, &links, &has_links, &res))
		return res;
	struct srv_win *win; /* step=/range=: the window's timeline, from its start */
	struct tl_index *ix = srv_tl_index(s, c, id, &win, &res);
	if (!ix)
		return res;
	struct err e = {0};
	uint8_t *match = NULL; /* find=TEXT: mark the events of matching names */
	const char *find = srv_mhd()->lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "find");
	if (find && *find && tl_find_match(ix, find, &match, NULL, &e)) {
		srv_job_end(s);
		srv_window_put(s, win);
		return srv_reply_error(c, 500, "%s", e.msg);
	}
	o.match = match;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = !f	     ? err_set(&e, ERR_NOMEM, NULL, -1, "out of memory")
		 : has_links ? tl_write_links(ix, links, f, &e)
		 : o.agg     ? tl_write_agg(ix, &o, f, &e)
			     : tl_write_json(ix, &o, f, &e);
	srv_job_end(s);
	srv_window_put(s, win);
	free(match);
	return srv_reply_stream(c, f, &buf, &len, rc, &e);
}

/* GET /api/file/ID/... (url): end is the path after the id ("/summary"). */
static enum MHD_Result reply_file(struct srv *s, struct MHD_Connection *c, int id, const char *end,
				  const char *url)
{
	if (!strncmp(end, "/ncu/", 5))
		return reply_ncu(s, c, id, end + 5);
	if (!strcmp(end, "/nsys/analysis"))
		return srv_api_nsys_analysis(s, c, id);
	if (!strcmp(end, "/nsys/timeline"))
		return srv_api_nsys_tl(s, c, id);
	if (!strncmp(end, "/nsys/", 6))
		return reply_nsys(s, c, id, end + 6);
	if (!strcmp(end, "/timeline"))
		return reply_timeline(s, c, id);
	if (!strcmp(end, "/timeline/find"))
		return srv_api_timeline_find(s, c, id);
	if (!strcmp(end, "/trace"))
		return srv_api_trace(s, c, id);
	if (!strcmp(end, "/annotations"))
		return srv_api_annotations(s, c, id);
	const struct view_decl *d = view_find(end + 1);
	if (d) /* a view of the registry; any other name is no endpoint */
		return reply_view(s, c, id, d);
	return srv_reply_error(c, MHD_HTTP_NOT_FOUND, "no such endpoint: %s", url);
}

enum MHD_Result srv_api_get(struct srv *s, struct MHD_Connection *c, const char *url)
{
	if (!strcmp(url, "/api/files"))
		return srv_reply_files(s, c, 0);
	if (!strcmp(url, "/api/dist"))
		return srv_api_dist(s, c);
	if (!strcmp(url, "/api/diff"))
		return srv_api_diff(s, c);
	const char *rest;
	int id = srv_q_file_id(url, &rest);
	if (id) {
		/* the file stays whole until the answer is queued (a copy) */
		struct srv_file *f = srv_file_hold(s, id, true);
		enum MHD_Result res = reply_file(s, c, id, rest, url);
		srv_file_release(s, f);
		return res;
	}
	return srv_reply_error(c, MHD_HTTP_NOT_FOUND, "no such endpoint: %s", url);
}

int srv_upload_data(struct srv *s, struct srv_upload *u, const char *data, size_t n)
{
	if (u->io_failed)
		return -1;
	if ((int64_t)n > s->o.max_upload - u->n)
		return 1;
	if (u->fd < 0) {
		/* a file with no name: nobody else can open it and it vanishes
		 * with the connection, even when the server is killed */
		if ((u->fd = outfile_unnamed(getenv("TMPDIR"), NULL)) < 0) {
			u->io_failed = true;
			return -1;
		}
	}
	while (n) {
		ssize_t w = write(u->fd, data, n);
		if (w <= 0) {
			u->io_failed = true;
			return -1;
		}
		data += w;
		n -= (size_t)w;
		u->n += w;
	}
	return 0;
}

enum MHD_Result srv_api_upload(struct srv *s, struct MHD_Connection *c, struct srv_upload *u)
{
	if (u->io_failed)
		return srv_reply_error(c, 500, "could not store the upload");
	if (u->fd < 0 || u->n == 0)
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "%s: the file is empty", u->name);
	char path[4096];
	snprintf(path, sizeof path, "/proc/self/fd/%d", u->fd);
	struct input_sniff sn = input_sniff_path(path);
	/* a reader that opens the file again for each answer (an SQLite
	 * export) keeps a descriptor of it, and reads it through its
	 * /proc/self/fd link: it never has a name */
	int copy = -1;
	if (input_row(sn.kind)->by_name) {
		if ((copy = fcntl(u->fd, F_DUPFD_CLOEXEC, 0)) < 0)
			return srv_reply_error(c, 500, "could not keep the upload");
		snprintf(path, sizeof path, "/proc/self/fd/%d", copy);
	}
	struct input_opts o = {
	    .name = u->name, .max_bytes = s->o.max_upload, .trace = {.max_memory = s->o.max_mem}};
	struct input in;
	struct err e = {0};
	srv_job_begin(s);
	int rc = input_load(path, sn, &o, &in, &e);
	srv_job_end(s);
	/* a trace's answers of /trace read the file again (srv_trace.c): it
	 * keeps a descriptor too, taken after the load */
	if (!rc && copy < 0 && in.kind == INPUT_TRACE &&
	    (copy = fcntl(u->fd, F_DUPFD_CLOEXEC, 0)) < 0) {
		input_free(&in);
		return srv_reply_error(c, 500, "could not keep the upload");
	}
	if (rc && copy >= 0) {
		close(copy);
	} else if (!rc) {
		in.copy_fd = copy;
		in.bytes = u->n;
	}
	int id = rc ? rc : srv_add_upload(s, &in, &e);
	if (id > 0)
		return srv_reply_files(s, c, id);
	bool nsys = sn.kind == INPUT_NSYS || sn.kind == INPUT_NSYS_ANALYSIS;
	if (!rc && !nsys)
		return srv_reply_error(c, MHD_HTTP_INSUFFICIENT_STORAGE, "%s", e.msg);
	char msg[1200];
	srv_load_message(&e, u->name, sn.kind, msg, sizeof msg);
	return srv_reply_error(c, nsys ? srv_http_upload_status(e.code) : MHD_HTTP_BAD_REQUEST,
			       "%s", msg);
}
