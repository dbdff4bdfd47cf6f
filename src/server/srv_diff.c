/* srv_diff: GET /api/diff?base=ID&new=ID[&top=N&fail_if=EXPR&min_abs=AMOUNT
 * &exact_names=1&step=N|A-B&range=NAME], the comparison of two loaded
 * files of one kind: what `gpuprof [--step ...|--range NAME] diff
 * --format json [options] BASE NEW` prints for the same two files, written
 * by the same views/ code on the analysis sessions the server already
 * holds for them (each served trace has one; a step/range selection cuts
 * each side to its own window, srv_select.c, as the CLI's global --step
 * cuts each trace it loads).
 *
 * The view's options are parsed from the query through its declarations
 * (srv_view_opts: the CLI's values and messages, a gate that does not read
 * included). A gate that trips is in the answer's gates table; the status
 * is 200 all the same (the CLI's exit status 1 has no HTTP counterpart).
 * Errors: 400 when base or new is missing or not an id, when the two files
 * are of different kinds or of a kind without a diff view; 404 when an id
 * names no loaded file.
 *
 * Both files are held (srv_files.c) until the answer is written, so their
 * sessions stay valid while one is removed meanwhile. The answer is not
 * cached: a removal drops the answers of one file, and this one is of two. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/srv_int.h"

/* The view comparing two files of kind k, or NULL when k has none. */
static const struct view_decl *diff_view_of(enum input_kind k)
{
	return k == INPUT_TRACE ? view_find("diff") : NULL;
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
	if (b->in.kind != nw->in.kind)
		return snprintf(msg, n,
				"diff compares two files of one kind: file %d (%s) is %s, file %d "
				"(%s) is %s",
				b->id, b->name, input_row(b->in.kind)->what, nw->id, nw->name,
				input_row(nw->in.kind)->what),
		       MHD_HTTP_BAD_REQUEST;
	if (!(*d = diff_view_of(b->in.kind)))
		return snprintf(msg, n, "diff compares two PyTorch traces: file %d (%s) is %s",
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
	struct view_opts o;
	if (srv_view_opts(c, d, &o, msg, sizeof msg)) {
		view_opts_release(&o);
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "%s", msg);
	}
	unsigned status = hold_sides(s, side, &d, msg, sizeof msg);
	const char *step, *range;
	if (!status && srv_selection(c, false, &step, &range))
		status = cut_sides(s, side, step, range, msg, sizeof msg);
	char *buf = NULL;
	size_t len = 0;
	struct err e = {0};
	int rc = 0;
	if (!status) {
		struct ses *ss[2];
		for (int k = 0; k < 2; k++)
			ss[k] = side[k].win ? srv_window_ses(side[k].win) : side[k].file->ses;
		rc = srv_view_json_many(s, ss, 2, d, &o, &buf, &len, &e);
	}
	for (int k = 0; k < 2; k++) {
		srv_window_put(s, side[k].win);
		srv_file_release(s, side[k].file);
	}
	view_opts_release(&o);
	if (status)
		return srv_reply_error(c, status, "%s", msg);
	return srv_reply_json(c, rc, &e, buf, len);
}
