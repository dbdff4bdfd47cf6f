/* srv_nsys: the Nsight Systems part of the API of `gpuprof serve` (see
 * server.h): GET /api/file/ID/nsys/VIEW answers what `gpuprof nsys FILE
 * VIEW --format json` prints, written by the same views (the registry's
 * family VIEW_FAMILY_NSYS; steps: the analysis.json of view_nsys_iter.c).
 * Each answer opens the export read-only (its own connection), so answers
 * need no lock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsys/nsys.h"
#include "report/report.h"
#include "server/srv_int.h"
#include "views/view.h"

/* The view's answer into *buf: its JSON document or its report as JSON. */
static bool write_answer(struct view *v, char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);
	if (!f)
		return false;
	bool ok = false;
	const struct nsys_jv *json = view_json(v);
	if (json) {
		nsys_jv_write(f, json);
		ok = true;
	} else {
		struct report *r = rep_open(f, REP_JSON);
		if (r) {
			view_emit(v, r);
			ok = !view_emit_failed(v);
			ok = rep_close(r) == 0 && ok;
		}
	}
	return fclose(f) == 0 && ok;
}

enum MHD_Result srv_api_nsys(struct srv *s, struct MHD_Connection *c, const char *path,
			     const struct view_decl *d, const struct view_opts *o)
{
	struct err e = {0};
	struct nsys_sql *q = NULL;
	struct view *v = NULL;
	char *buf = NULL;
	size_t len = 0;
	srv_job_begin(s);
	int rc = nsys_sql_open(path, &q, &e);
	if (!rc)
		rc = view_compute_nsys(d, q, path, o, &v, &e);
	bool ok = !rc && write_answer(v, &buf, &len);
	view_free(v);
	nsys_sql_close(q);
	srv_job_end(s);
	/* steps on an export that does not follow the harness contract (no
	 * such capture range, a duplicate iteration): the request's fault, 400 */
	bool bad = rc == ERR_USAGE || (rc == ERR_FORMAT && d->kind == VIEW_NSYS_STEPS);
	enum MHD_Result res = rc ? srv_reply_error(c, bad ? MHD_HTTP_BAD_REQUEST : 500, "%s", e.msg)
			      : ok ? srv_reply(c, MHD_HTTP_OK, "application/json", buf, len)
				   : srv_reply_error(c, 500, "could not write the answer");
	free(buf);
	return res;
}
