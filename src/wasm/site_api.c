/* site_api: the static site's engine keeps a file loaded between the
 * pages' requests and answers them as the server does. The worker
 * (site/engine_worker.js) opens each uploaded file once (gp_site_open),
 * then asks GET /api/file/ID/ENDPOINT?QUERY of it (gp_site_get): a view of
 * the registry (its options parsed from the query by the server's own
 * srv_q_view_opts, step= and range= cut by tr_select as the server cuts
 * them), /timeline and /timeline/find (views/view_timeline*.c), /trace
 * (the file's own bytes) and /annotations (server/srv_answer.h), and a Nsight Compute
 * report's ncu/VERB (its views, as srv_ncu.c). The trace,
 * its analysis session and its timeline index stay built, so a page's
 * second request costs the analysis only, not another import. An endpoint
 * or kind not answered here (a trace's endpoints that are no view) gets
 * status 0: the worker runs the command line for it instead.
 *
 * A file's view answers are kept by request (core/lru, as the server keeps
 * them), so a page asking again costs a copy, not the analysis.
 *
 * No state outside the handles: each file is a struct site_file the
 * worker holds as a pointer. One selection window is kept per file (the
 * last one asked; the pages ask one selection at a time). */
#include <emscripten.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lru.h"
#include "input/input.h"
#include "report/report.h"
#include "server/srv_answer.h"
#include "server/srv_query.h"
#include "tbprof/dist.h"
#include "tbprof/select.h"
#include "tbprof/session.h"
#include "trace/window.h"
#include "views/view.h"

struct site_sel {
	char *step, *range;  /* the selector (either NULL) */
	struct trace *t;     /* the window (borrows the file's trace) */
	struct ses *ses;     /* its session */
	struct tl_index *tl; /* its timeline index, built on first use */
};

#define SITE_ANSWERS 256	      /* answers kept per file */
#define SITE_ANSWER_BYTES (32u << 20) /* and their bytes */

struct site_file {
	struct input in;
	char *name;	     /* the file's display name (its upload's) */
	char *msg;	     /* the load's error, NULL when loaded */
	struct ses *ses;     /* a trace's session */
	struct tl_index *tl; /* the whole trace's timeline index, on first use */
	struct site_sel sel;
	struct lru *answers; /* view answers by "VIEW?QUERY", NUL included */
	char *body;	     /* the last answer */
	size_t len;
};

struct site_file *gp_site_open(const char *path, const char *name);
struct site_push;
struct site_push *gp_site_push_begin(const char *path, const char *name, double size);
char *gp_site_push_room(struct site_push *sp, size_t n);
int gp_site_push_data(struct site_push *sp, size_t n);
struct site_file *gp_site_push_end(struct site_push *sp);
const char *gp_site_error(const struct site_file *f);
double gp_site_events(const struct site_file *f);
int gp_site_get(struct site_file *f, const char *endpoint, char *query);
int gp_site_diff(struct site_file *base, struct site_file *nw, char *query);
char *gp_site_dist(struct site_file **fs, const int *ids, int n, char *query, int *status);
const char *gp_site_body(const struct site_file *f);
void gp_site_close(struct site_file *f);

static void sel_free(struct site_sel *s)
{
	tl_index_free(s->tl);
	ses_free(s->ses);
	if (s->t)
		tr_window_release(s->t);
	free(s->step);
	free(s->range);
	*s = (struct site_sel){0};
}

/* A new file entry named name; NULL when memory is out. */
static struct site_file *file_new(const char *name)
{
	struct site_file *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	input_init(&f->in);
	f->answers = lru_new(SITE_ANSWERS, SITE_ANSWER_BYTES); /* NULL: none kept */
	if (!(f->name = strdup(name))) {
		gp_site_close(f);
		return NULL;
	}
	return f;
}

/* f once its input's load returned rc (e set when not 0): a trace's
 * session, or the load's message as the server words it. */
static struct site_file *file_opened(struct site_file *f, int rc, struct err *e, const char *path)
{
	if (!rc && input_trace(&f->in))
		rc = ses_new(input_trace(&f->in), &f->ses, e);
	char msg[1200];
	if (rc)
		srv_load_message(e, f->name, input_sniff_path(path).kind, msg, sizeof msg);
	if (rc && !(f->msg = strdup(e->msg[0] ? msg : "could not load the file"))) {
		gp_site_close(f);
		return NULL;
	}
	return f;
}

EMSCRIPTEN_KEEPALIVE struct site_file *gp_site_open(const char *path, const char *name)
{
	struct site_file *f = file_new(name);
	if (!f)
		return NULL;
	struct err e = {0};
	struct input_opts o = {.name = name};
	return file_opened(f, input_open(path, &o, &f->in, &e), &e, path);
}

/* A file pushed by the worker (engine_worker.js reads the File's stream
 * and hands each slice over): the same load as gp_site_open's, without
 * FileReaderSync's copy of every slice (which the worker's garbage
 * collector cannot free while the import runs). */
struct site_push {
	struct input_push *p;
	struct input_opts o; /* as gp_site_open's */
	struct err e;
	char *path, *name;
};

/* The push of the file at path (mounted: its head is sniffed there), or
 * NULL when its kind has no push form (input_push_begin) or memory is
 * out: then gp_site_open reads it. size: the file's bytes. */
EMSCRIPTEN_KEEPALIVE struct site_push *gp_site_push_begin(const char *path, const char *name,
							  double size)
{
	struct site_push *sp = calloc(1, sizeof *sp);
	if (!sp || !(sp->path = strdup(path)) || !(sp->name = strdup(name))) {
		if (sp)
			free(sp->path);
		free(sp);
		return NULL;
	}
	sp->o = (struct input_opts){.name = sp->name};
	if (!(sp->p = input_push_begin(path, &sp->o, (int64_t)size, &sp->e))) {
		free(sp->path);
		free(sp->name);
		free(sp);
		return NULL;
	}
	return sp;
}

/* Where the worker writes the next n bytes; NULL after an error (stop
 * pushing, then gp_site_push_end). */
EMSCRIPTEN_KEEPALIVE char *gp_site_push_room(struct site_push *sp, size_t n)
{
	return input_push_room(sp->p, n);
}

/* The n bytes are written: 0, or not (an error: stop pushing). */
EMSCRIPTEN_KEEPALIVE int gp_site_push_data(struct site_push *sp, size_t n)
{
	return input_push_data(sp->p, n);
}

/* The end of the file (or of the pushing, after an error): the file entry
 * as gp_site_open returns it; frees sp. */
EMSCRIPTEN_KEEPALIVE struct site_file *gp_site_push_end(struct site_push *sp)
{
	struct site_file *f = file_new(sp->name);
	struct input in;
	int rc = input_push_end(sp->p, f ? &f->in : &in);
	if (!f)
		input_free(&in);
	else
		f = file_opened(f, rc, &sp->e, sp->path);
	free(sp->path);
	free(sp->name);
	free(sp);
	return f;
}

EMSCRIPTEN_KEEPALIVE const char *gp_site_error(const struct site_file *f)
{
	return f->msg;
}

/* The file list's "events": a trace's events, a report's results; -1
 * none (a double: JavaScript's number, whole below 2^53). */
EMSCRIPTEN_KEEPALIVE double gp_site_events(const struct site_file *f)
{
	return (double)input_count(&f->in);
}

EMSCRIPTEN_KEEPALIVE const char *gp_site_body(const struct site_file *f)
{
	return f->body ? f->body : "";
}

EMSCRIPTEN_KEEPALIVE void gp_site_close(struct site_file *f)
{
	if (!f)
		return;
	sel_free(&f->sel);
	tl_index_free(f->tl);
	ses_free(f->ses);
	lru_free(f->answers);
	input_free(&f->in);
	free(f->name);
	free(f->msg);
	free(f->body);
	free(f);
}

/* An error answer {"error": {"status", "message"}}, as the server's. */
static int fail(struct site_file *f, unsigned status, const char *msg)
{
	free(f->body);
	if (srv_q_error_json(status, msg, &f->body, &f->len))
		f->body = NULL, f->len = 0;
	return (int)status;
}

/* The session and timeline slot (tl, when not NULL) that q's
 * step=/range= select: the file's own, or its selection window (cut anew
 * when the selector changed). */
static int selected(struct site_file *f, const struct srv_query *q, bool steps_view,
		    struct ses **ses, struct tl_index ***tl, struct err *e)
{
	const char *step, *range;
	*ses = f->ses;
	if (tl)
		*tl = &f->tl;
	if (!srv_q_selection(q, steps_view, &step, &range))
		return 0;
	struct site_sel *s = &f->sel;
	bool same = s->t && !strcmp(s->step ? s->step : "", step ? step : "") &&
		    !strcmp(s->range ? s->range : "", range ? range : "");
	if (!same) {
		sel_free(s);
		if ((step && !(s->step = strdup(step))) || (range && !(s->range = strdup(range))))
			return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
		int rc = tr_select(input_trace(&f->in), f->ses, step, range, &s->t, e);
		if (!rc)
			rc = ses_new_window(f->ses, s->t, &s->ses, e);
		if (rc) {
			sel_free(s);
			return rc;
		}
	}
	*ses = s->ses;
	if (tl)
		*tl = &s->tl;
	return 0;
}

/* Runs f's write into an answer (status 200) or an error. */
static int answer(struct site_file *f, int rc, FILE *o, struct err *e)
{
	if (o && fclose(o) && !rc)
		rc = err_set(e, ERR_NOMEM, NULL, -1, "could not write the answer");
	if (rc)
		return fail(f, srv_http_status(rc), e->msg);
	return 200;
}

/* View d's options from q, refusing a parameter d does not take (more:
 * the request's own, " base new "); 0, or the 400 answered in f. */
static int view_opts_of(struct site_file *f, const struct view_decl *d, const struct srv_query *q,
			const char *more, struct view_opts *o)
{
	char params[512], bad[SRV_BAD_PARAM], msg[640];
	srv_view_params(d, params, sizeof params);
	snprintf(params + strlen(params), sizeof params - strlen(params), "%s", more);
	if (srv_q_unknown(q, params, bad)) {
		srv_q_bad_param(d, bad, msg, sizeof msg);
		return fail(f, 400, msg);
	}
	if (srv_q_view_opts(q, d, o, msg, sizeof msg)) {
		view_opts_release(o);
		return fail(f, 400, msg);
	}
	return 0;
}

/* View d over the sessions of files fs[0..n) (each cut to q's selection),
 * answered in fs[0]. */
static int view_answer(struct site_file *const *fs, size_t n, const struct view_decl *d,
		       const struct srv_query *q, const char *more)
{
	struct site_file *f = fs[0];
	struct view_opts o;
	int status = view_opts_of(f, d, q, more, &o);
	if (status)
		return status;
	struct err e = {0};
	struct ses *ss[2];
	int rc = 0;
	for (size_t i = 0; !rc && i < n; i++)
		rc = selected(fs[i], q, (d->flags & VIEW_STEP_ROWS) != 0, &ss[i], NULL, &e);
	struct view *v = NULL;
	if (!rc)
		rc = view_compute_many(d, ss, n, &o, &v, &e);
	free(f->body);
	f->body = NULL;
	if (!rc)
		rc = view_json_text(v, &f->body, &f->len, &e);
	view_opts_release(&o); /* after the writing, which may read the options */
	return answer(f, rc, NULL, &e);
}

static int timeline_answer(struct site_file *f, const struct srv_query *q, bool find)
{
	char bad[SRV_BAD_PARAM], msg[160];
	if (srv_q_unknown(q, find ? SRV_FIND_PARAMS : SRV_TIMELINE_PARAMS, bad)) {
		snprintf(msg, sizeof msg, "%s takes no parameter '%s'",
			 find ? "timeline/find" : "timeline", bad);
		return fail(f, 400, msg);
	}
	struct tl_opts o = {0};
	struct tl_find_opts fo = {0};
	int64_t links = -1;
	bool has_links = false;
	if (find ? srv_q_find_opts(q, &fo, msg, sizeof msg)
		 : srv_q_tl_opts(q, &o, &links, &has_links, msg, sizeof msg))
		return fail(f, 400, msg);
	const char *mark = find ? NULL : srv_q_get(q, "find"); /* /timeline's find= marks */
	struct err e = {0};
	struct ses *ses;
	struct tl_index **tl;
	int rc = selected(f, q, false, &ses, &tl, &e);
	if (!rc && !*tl)
		rc = tl_index_build(ses_trace(ses), tl, &e);
	uint8_t *match = NULL; /* find=TEXT on /timeline: mark the matching names */
	if (!rc && mark && *mark)
		rc = tl_find_match(*tl, mark, &match, NULL, &e);
	free(f->body);
	f->body = NULL;
	FILE *out = rc ? NULL : open_memstream(&f->body, &f->len);
	if (!rc && !out)
		rc = err_set(&e, ERR_NOMEM, NULL, -1, "out of memory");
	if (!rc && !find)
		o.match = match;
	if (!rc)
		rc = find	 ? tl_write_find(*tl, &fo, out, &e)
		     : has_links ? tl_write_links(*tl, links, out, &e)
		     : o.agg	 ? tl_write_agg(*tl, &o, out, &e)
				 : tl_write_json(*tl, &o, out, &e);
	free(match);
	return answer(f, rc, out, &e);
}

/* GET trace?query of a trace: its own bytes, cut to the selection and
 * the window asked (server/srv_answer.h, as the server's /trace). */
static int trace_answer(struct site_file *f, const struct srv_query *q)
{
	char msg[128];
	struct srv_trace_opts o;
	if (srv_q_trace_opts(q, &o, msg, sizeof msg))
		return fail(f, 400, msg);
	struct err e = {0};
	struct ses *ses;
	int rc = selected(f, q, false, &ses, NULL, &e);
	bool sel = !rc && ses != f->ses; /* the selection's window, not the file's own */
	free(f->body);
	f->body = NULL;
	if (!rc)
		rc = srv_slice(f->in.path, input_trace(&f->in), sel ? ses_trace(ses) : NULL,
			       sel ? NULL : ses, &o, &f->body, &f->len, &e);
	return answer(f, rc, NULL, &e);
}

/* GET annotations of a trace: its user annotation names (srv_answer.h). */
static int annotations_answer(struct site_file *f, const struct srv_query *q)
{
	char bad[SRV_BAD_PARAM], msg[128];
	if (srv_q_unknown(q, "", bad)) {
		snprintf(msg, sizeof msg, "annotations takes no parameter '%s'", bad);
		return fail(f, 400, msg);
	}
	free(f->body);
	f->body = NULL;
	if (srv_annotations(input_trace(&f->in), &f->body, &f->len))
		return fail(f, 500, "could not write the answer");
	return 200;
}

/* GET ncu/VERB?query of a report: the registry's ncu view VERB, its
 * options parsed from the query as the server parses them, written as
 * `gpuprof ncu VERB --format json` writes it (the server's srv_ncu.c). */
static int ncu_answer(struct site_file *f, struct ncu_report *r, const char *verb,
		      const struct srv_query *q)
{
	const struct view_decl *d = view_find_in(VIEW_FAMILY_NCU, verb);
	if (!d) {
		char msg[640], full[660];
		view_unknown(VIEW_FAMILY_NCU, verb, msg, sizeof msg);
		snprintf(full, sizeof full, "ncu: %s", msg);
		return fail(f, 404, full);
	}
	struct view_opts o;
	int status = view_opts_of(f, d, q, "", &o);
	if (status)
		return status;
	o.ncu.json = true; /* raw: the description column, as --format json */
	struct err e = {0};
	struct view *v = NULL;
	int rc = view_compute_ncu(d, r, &o, &v, &e);
	free(f->body);
	f->body = NULL;
	if (!rc)
		rc = view_json_text(v, &f->body, &f->len, &e);
	view_opts_release(&o); /* after the writing: the view reads its regexes */
	return answer(f, rc, NULL, &e);
}

/* The ncu diff of reports r[0] (base) and r[1] (new), answered in f: the
 * server's srv_diff.c diff_ncu (whole reports: no step= or range=). */
static int ncu_diff_answer(struct site_file *f, struct ncu_report *const *r,
			   const struct srv_query *q)
{
	const struct view_decl *d = view_find_in(VIEW_FAMILY_NCU, "diff");
	struct view_opts o;
	int status = view_opts_of(f, d, q, "base new ", &o);
	if (status)
		return status;
	struct err e = {0};
	struct view *v = NULL;
	int rc = view_compute_ncu2(d, r[0], r[1], &o, &v, &e);
	free(f->body);
	f->body = NULL;
	if (!rc)
		rc = view_json_text(v, &f->body, &f->len, &e);
	view_opts_release(&o);
	return answer(f, rc, NULL, &e);
}

/* GET /api/diff?base=ID&new=ID&query of two traces or two Nsight Compute
 * reports (the server's /api/diff of those; any other pair: 0, not
 * answered here), answered in base. query is changed. */
EMSCRIPTEN_KEEPALIVE int gp_site_diff(struct site_file *base, struct site_file *nw, char *query)
{
	struct site_file *fs[2] = {base, nw};
	for (int k = 0; k < 2; k++)
		if (fs[k]->msg)
			return fail(base, 400, fs[k]->msg);
	const char *key[64], *val[64];
	struct srv_query q;
	srv_q_parse(query, &q, key, val, 64);
	if (input_trace(&base->in) && input_trace(&nw->in))
		return view_answer(fs, 2, view_find("diff"), &q, "base new ");
	struct ncu_report *r[2] = {input_ncu(&base->in), input_ncu(&nw->in)};
	if (r[0] && r[1])
		return ncu_diff_answer(base, r, &q);
	return 0;
}

#define SITE_DIST_MAX 1024 /* files= ids at most */

/* The workers of /api/dist among fs (srv_dist_pick), cut to step=/range=
 * (each file's selection window), into w; 0 or the status with msg. */
static unsigned dist_workers(struct site_file **fs, const int *ids, int n,
			     const struct srv_query *q, const struct srv_dist_opts *o,
			     struct srv_dist_worker *w, int *k, char *msg, size_t size)
{
	int want[SITE_DIST_MAX], nwant = 0, pick[SITE_DIST_MAX];
	struct srv_dist_file *files = calloc(n > 0 ? (size_t)n : 1, sizeof *files);
	if (!files)
		return snprintf(msg, size, "out of memory"), 500;
	for (int i = 0; i < n; i++)
		files[i] = (struct srv_dist_file){fs[i]->name, input_trace(&fs[i]->in) != NULL,
						  fs[i]->in.kind == INPUT_RANK_SUMMARY};
	unsigned st = 0;
	if (o->files && (nwant = srv_q_ids(o->files, want, SITE_DIST_MAX, msg, size)) < 0)
		st = 400;
	if (!st)
		st = srv_dist_pick(files, ids, n, o->files ? want : NULL, nwant, SITE_DIST_MAX,
				   pick, k, msg, size);
	free(files);
	if (!st && o->names && !dist_names_fit(o->names, *k))
		st = 400, snprintf(msg, size, DIST_NAMES_MSG, *k);
	for (int i = 0; !st && i < *k; i++) {
		struct site_file *f = fs[pick[i]];
		const struct trace *t = input_trace(&f->in);
		w[i] = (struct srv_dist_worker){t, f->in.path, f->name, true};
		if (!o->sel)
			continue;
		if (!t) { /* the CLI's refusal */
			snprintf(msg, size, SRV_DIST_SUMMARY_CUT, f->name);
			st = 400;
			break;
		}
		struct err e = {0};
		struct ses *ses;
		int rc = selected(f, q, false, &ses, NULL, &e);
		if (rc) {
			if (e.path[0]) /* the CLI's: the worker's file, then the message */
				snprintf(msg, size, "%s: %s", f->name, e.msg);
			else
				snprintf(msg, size, "%s", e.msg);
			st = srv_http_status(rc);
		} else {
			w[i].t = ses_trace(ses);
		}
	}
	return st;
}

/* GET /api/dist?query over the loaded files fs[0..n) (in file-id order,
 * ids[k] fs[k]'s id), as the server answers it (srv_answer.h): the answer
 * (malloc'd; NULL out of memory) with its HTTP status in *status. query
 * is changed. */
EMSCRIPTEN_KEEPALIVE char *gp_site_dist(struct site_file **fs, const int *ids, int n, char *query,
					int *status)
{
	const char *key[64], *val[64];
	struct srv_query q;
	srv_q_parse(query, &q, key, val, 64);
	struct srv_dist_opts o;
	char msg[1100];
	unsigned st = srv_q_dist_opts(&q, &o, msg, sizeof msg) ? 400 : 0;
	struct srv_dist_worker *w = calloc(SITE_DIST_MAX, sizeof *w);
	int k = 0;
	if (!st && !w)
		st = 500, snprintf(msg, sizeof msg, "out of memory");
	if (!st)
		st = dist_workers(fs, ids, n, &q, &o, w, &k, msg, sizeof msg);
	char *body = NULL;
	size_t len = 0;
	struct err e = {0};
	if (!st) {
		int rc = srv_dist(w, k, &o, &body, &len, &e);
		if (rc)
			st = srv_http_status(rc), snprintf(msg, sizeof msg, "%s", e.msg);
	}
	free(w);
	if (st && srv_q_error_json(st, msg, &body, &len))
		body = NULL;
	*status = st ? (int)st : 200;
	return body;
}

/* GET ENDPOINT?query of f: the HTTP status with the answer in
 * gp_site_body, or 0 when it is not answered here. query is changed. */
EMSCRIPTEN_KEEPALIVE int gp_site_get(struct site_file *f, const char *endpoint, char *query)
{
	if (f->msg)
		return fail(f, 400, f->msg);
	const char *key[64], *val[64];
	struct srv_query q;
	struct ncu_report *r = input_ncu(&f->in);
	bool ncu = r && !strncmp(endpoint, "ncu/", 4);
	const struct view_decl *d = NULL;
	if (!ncu) {
		if (!input_trace(&f->in))
			return 0;
		if (!strcmp(endpoint, "timeline") || !strcmp(endpoint, "timeline/find")) {
			srv_q_parse(query, &q, key, val, 64);
			return timeline_answer(f, &q, endpoint[8] == '/');
		}
		if (!strcmp(endpoint, "trace")) {
			srv_q_parse(query, &q, key, val, 64);
			return trace_answer(f, &q);
		}
		if (!strcmp(endpoint, "annotations")) {
			srv_q_parse(query, &q, key, val, 64);
			return annotations_answer(f, &q);
		}
		if (!(d = view_find_in(VIEW_FAMILY_TRACE, endpoint)))
			return 0;
	}
	size_t klen = strlen(endpoint) + strlen(query) + 2;
	char *ck = malloc(klen); /* the answer's key, before the query is split */
	if (ck)
		snprintf(ck, klen, "%s?%s", endpoint, query);
	size_t len;
	char *kept = ck ? lru_get(f->answers, ck, &len) : NULL;
	if (kept) {
		free(f->body);
		f->body = kept;
		f->len = len - 1;
		free(ck);
		return 200;
	}
	srv_q_parse(query, &q, key, val, 64);
	int status = ncu ? ncu_answer(f, r, endpoint + 4, &q) : view_answer(&f, 1, d, &q, "");
	if (status == 200 && ck && f->body)
		lru_put(f->answers, ck, f->body, f->len + 1);
	free(ck);
	return status;
}
