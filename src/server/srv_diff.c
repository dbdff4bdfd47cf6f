/* srv_diff: GET /api/diff?base=ID&new=ID[&top=N&fail_if=EXPR&min_abs=AMOUNT
 * &exact_names=1&step=N|A-B&range=NAME&metric=NAME], the comparison of two
 * loaded files of one kind: what `gpuprof [--step ...|--range NAME] diff
 * --format json [options] BASE NEW` prints for the same two files, written
 * by the same views/ code.
 *
 * Two traces: on the analysis sessions the server already holds for them
 * (each served trace has one; a step/range selection cuts each side to its
 * own window, srv_select.c, as the CLI's global --step cuts each trace it
 * loads). Two Nsight Compute reports: the ncu diff with both reports'
 * locks held (views/view_ncu.h: one call at a time per report; taken in
 * id order, once when both sides are one file). Two Nsight Systems files
 * (exports, analysis.json files, run directories, in any mix): the nsys
 * diff of each side's analysis, an export's computed on its own
 * connection as GET /api/file/ID/nsys/steps does. Reports and analyses
 * take no step= or range= (the whole files are compared).
 *
 * The view's options are parsed from the query through its declarations
 * (srv_view_opts: the CLI's values and messages, a gate that does not read
 * included). A gate that trips is in the answer's gates table; the status
 * is 200 all the same (the CLI's exit status 1 has no HTTP counterpart).
 * Errors: 400 when base or new is missing or not an id, when the two files
 * are of different kinds or of a kind without a diff view, when an export
 * has no steps analysis (its capture range); 404 when an id names no
 * loaded file.
 *
 * Both files are held (srv_files.c) until the answer is written, so their
 * sessions stay valid while one is removed meanwhile. The answer is not
 * cached: a removal drops the answers of one file, and this one is of two. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/srv_int.h"

/* The view comparing two files of kind k, or NULL when k has none (an
 * export and an analysis.json compare, as the CLI's nsys diff takes both). */
static const struct view_decl *diff_view_of(enum input_kind k)
{
	switch (k) {
	case INPUT_TRACE:
		return view_find("diff");
	case INPUT_NCU:
		return view_find_in(VIEW_FAMILY_NCU, "diff");
	case INPUT_NSYS:
	case INPUT_NSYS_ANALYSIS:
		return view_find_in(VIEW_FAMILY_NSYS, "diff");
	default:
		return NULL;
	}
}

struct diff_side {
	int id;
	struct srv_file *file; /* held */
	struct srv_win *win;   /* step=/range=: the file's window, else NULL */
};

/* Holds the files of both sides; a status and a message when one is
 * missing or the two cannot be compared. */
static unsigned hold_sides(struct srv *s, struct diff_side *side, const struct view_decl **d,
			   char *msg, size_t n)
{
	for (int k = 0; k < 2; k++) {
		side[k].file = srv_file_hold(s, side[k].id, true);
		if (!side[k].file)
			return snprintf(msg, n, "no file %d", side[k].id), MHD_HTTP_NOT_FOUND;
	}
	const struct srv_file *b = side[0].file, *nw = side[1].file;
	*d = diff_view_of(b->in.kind);
	if (b->in.kind != nw->in.kind && (!*d || *d != diff_view_of(nw->in.kind)))
		return snprintf(msg, n,
				"diff compares two files of one kind: file %d (%s) is %s, file %d "
				"(%s) is %s",
				b->id, b->name, input_row(b->in.kind)->what, nw->id, nw->name,
				input_row(nw->in.kind)->what),
		       MHD_HTTP_BAD_REQUEST;
	if (!*d)
		return snprintf(msg, n,
				"diff compares two PyTorch traces, Nsight Compute reports or "
				"Nsight Systems analyses: file %d (%s) is %s",
				b->id, b->name, input_row(b->in.kind)->what),
		       MHD_HTTP_BAD_REQUEST;
	return 0;
}

/* The windows of step/range of both sides; on an error the message (the
 * file as the server lists it, then tr_select's text) and its status. */
static unsigned cut_sides(struct srv *s, struct diff_side *side, const char *step,
			  const char *range, char *msg, size_t n)
{
	for (int k = 0; k < 2; k++) {
		struct err e = {0};
		struct trace *t = input_trace(&side[k].file->in);
		int rc = srv_window_get(s, side[k].id, t, step, range, &side[k].win, &e);
		if (rc) {
			side[k].win = NULL;
			snprintf(msg, n, "%s: %s", side[k].file->name, e.msg);
			return srv_http_status(rc);
		}
	}
	return 0;
}

/* The ncu diff of the two reports, their locks held. */
static int diff_ncu(struct srv *s, struct diff_side *side, const struct view_decl *d,
		    const struct view_opts *o, char **buf, size_t *len, struct err *e)
{
	pthread_mutex_t *mu[2] = {side[0].file->ncu_mu, side[1].file->ncu_mu};
	bool two = mu[0] != mu[1], swap = two && side[0].file->id > side[1].file->id;
	struct view *v = NULL;
	srv_job_begin(s);
	pthread_mutex_lock(mu[swap]);
	if (two)
		pthread_mutex_lock(mu[!swap]);
	int rc = view_compute_ncu2(d, input_ncu(&side[0].file->in), input_ncu(&side[1].file->in), o,
				   &v, e);
	if (!rc)
		rc = view_json_text(v, buf, len, e);
	if (two)
		pthread_mutex_unlock(mu[!swap]);
	pthread_mutex_unlock(mu[swap]);
	srv_job_end(s);
	return rc;
}

/* The nsys diff of the analyses of both files (an export's computed now). */
static int diff_nsys(struct srv *s, struct diff_side *side, const struct view_decl *d,
		     const struct view_opts *o, char **buf, size_t *len, struct err *e)
{
	struct view_nsys_side ns[2];
	memset(ns, 0, sizeof ns);
	srv_job_begin(s);
	int rc = 0;
	for (int k = 0; k < 2 && !rc; k++) {
		const struct input *in = &side[k].file->in;
		size_t n;
		const char *text = input_analysis(in, &n);
		rc = view_nsys_side_open(&ns[k], input_nsys_path(in), text, n, in->path, e);
	}
	struct view *v = NULL;
	if (!rc)
		rc = view_compute_nsys2(d, ns[0].root, side[0].file->in.path, ns[1].root,
					side[1].file->in.path, o, &v, e);
	if (!rc)
		rc = view_json_text(v, buf, len, e);
	for (int k = 0; k < 2; k++)
		view_nsys_side_close(&ns[k]);
	srv_job_end(s);
	/* an export without the steps analysis's capture range: the
	 * request's fault, as GET /api/file/ID/nsys/steps answers it */
	return rc == ERR_FORMAT ? ERR_USAGE : rc;
}

/* The comparison of the held sides with view d (its options parsed from
 * the query: d's checks refuse what its kind does not take); the status
 * and message of a request error, else 0 with the computation's rc. */
static unsigned diff_sides(struct srv *s, struct MHD_Connection *c, struct diff_side *side,
			   const struct view_decl *d, char **buf, size_t *len, int *rc,
			   struct err *e, char *msg, size_t n)
{
	struct view_opts o;
	unsigned status = 0;
	if (srv_view_opts(c, d, &o, msg, n))
		status = MHD_HTTP_BAD_REQUEST;
	else if (d->family == VIEW_FAMILY_NCU)
		*rc = diff_ncu(s, side, d, &o, buf, len, e);
	else if (d->family == VIEW_FAMILY_NSYS)
		*rc = diff_nsys(s, side, d, &o, buf, len, e);
	else {
		const char *step, *range;
		if (srv_selection(c, false, &step, &range))
			status = cut_sides(s, side, step, range, msg, n);
		struct ses *ss[2];
		for (int k = 0; k < 2; k++)
			ss[k] = side[k].win ? srv_window_ses(side[k].win) : side[k].file->ses;
		if (!status)
			*rc = srv_view_json_many(s, ss, 2, d, &o, buf, len, e);
	}
	view_opts_release(&o);
	return status;
}

enum MHD_Result srv_api_diff(struct srv *s, struct MHD_Connection *c)
{
	const struct view_decl *d = view_find("diff");
	char params[512], bad[SRV_BAD_PARAM], msg[1100];
	srv_view_params(d, params, sizeof params);
	snprintf(params + strlen(params), sizeof params - strlen(params), "base new ");
	if (srv_unknown_param(c, params, bad))
		return srv_reply_bad_param(c, d, bad);
	struct diff_side side[2] = {{.id = srv_id_arg(c, "base")}, {.id = srv_id_arg(c, "new")}};
	if (side[0].id <= 0 || side[1].id <= 0)
		return srv_reply_error(
		    c, MHD_HTTP_BAD_REQUEST,
		    "diff takes base=ID and new=ID, two loaded files of one kind "
		    "(e.g. /api/diff?base=1&new=2)");
	unsigned status = hold_sides(s, side, &d, msg, sizeof msg);
	if (!status && d->family != VIEW_FAMILY_TRACE) {
		/* whole files: the parameters of d (no step, no range) */
		srv_view_params(d, params, sizeof params);
		snprintf(params + strlen(params), sizeof params - strlen(params), "base new ");
		if (srv_unknown_param(c, params, bad)) {
			for (int k = 0; k < 2; k++)
				srv_file_release(s, side[k].file);
			return srv_reply_bad_param(c, d, bad);
		}
	}
	char *buf = NULL;
	size_t len = 0;
	struct err e = {0};
	int rc = 0;
	if (!status)
		status = diff_sides(s, c, side, d, &buf, &len, &rc, &e, msg, sizeof msg);
	for (int k = 0; k < 2; k++) {
		srv_window_put(s, side[k].win);
		srv_file_release(s, side[k].file);
	}
	if (status) {
		free(buf);
		return srv_reply_error(c, status, "%s", msg);
	}
	return srv_reply_json(c, rc, &e, buf, len);
}
