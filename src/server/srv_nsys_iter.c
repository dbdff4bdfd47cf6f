/* srv_nsys_iter: the per-iteration NVTX analysis in `gpuprof serve` (see
 * server.h):
 *   GET /api/file/ID/nsys/steps?capture_range=NAME&iterations=N  on an
 *       SQLite export: what `gpuprof nsys FILE steps --capture-range NAME
 *       --iterations N` prints (views/view_nsys_iter.c, the same code; no
 *       --manifest: no request may name a file on the server);
 *   GET /api/file/ID/nsys/analysis  on an analysis.json (or a run
 *       directory): the JSON as `nsys analyze` wrote it, bytes unchanged.
 * An analysis.json is checked once when it is loaded (input/input.h,
 * nsys_analysis_read: strict JSON, schema_version 1, the keys of schema
 * 1), so the page never receives a file it cannot read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsys/nsys.h"
#include "server/srv_int.h"
#include "views/view_nsys_iter.h"

static enum MHD_Result reply_steps(struct srv *s, struct MHD_Connection *c, const char *path)
{
	const char *cr = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "capture_range");
	const char *its = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "iterations");
	if (cr && !*cr)
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "capture_range needs a range name");
	if (its && !*its)
		its = NULL;
	if (its) {
		char *end;
		long long n = strtoll(its, &end, 10);
		if (*end || n < 0 || its[0] == '-' || its[0] == '+' || its[0] == ' ')
			return srv_reply_error(c, MHD_HTTP_BAD_REQUEST,
					       "iterations needs a count, not '%.40s'", its);
	}
	struct arena a;
	arena_init(&a);
	struct err e = {0};
	struct nsys_sql *q = NULL;
	struct nsys_jv *m = NULL, *out = NULL;
	srv_job_begin(s);
	int rc = nsys_sql_open(path, &q, &e);
	if (!rc)
		rc = nsys_steps_manifest(&a, cr ? cr : "profile-target", its, &m, &e);
	if (!rc)
		rc = nsys_view_steps(q, &a, m, NULL, path, &out, &e);
	nsys_sql_close(q);
	srv_job_end(s);
	char *buf = NULL;
	size_t len = 0;
	bool ok = false;
	if (!rc) {
		FILE *f = open_memstream(&buf, &len);
		if (f) {
			nsys_jv_write(f, out);
			ok = fclose(f) == 0;
		}
	}
	arena_free(&a);
	/* the export does not follow the harness contract (no such capture
	 * range, a duplicate iteration): the request's fault, 400 */
	enum MHD_Result res =
	    rc	 ? srv_reply_error(c,
				   rc == ERR_USAGE || rc == ERR_FORMAT ? MHD_HTTP_BAD_REQUEST : 500,
				   "%s", e.msg)
	    : ok ? srv_reply(c, MHD_HTTP_OK, "application/json", buf, len)
		 : srv_reply_error(c, 500, "could not write the answer");
	free(buf);
	return res;
}

enum MHD_Result srv_api_nsys_iter(struct srv *s, struct MHD_Connection *c, int id, const char *view)
{
	bool steps = !strcmp(view, "steps");
	char bad[SRV_BAD_PARAM];
	if (srv_unknown_param(c, steps ? " capture_range iterations " : "", bad))
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "nsys %s takes no parameter '%s'",
				       view, bad);
	struct srv_file f; /* files live as long as the server */
	if (!srv_file_get(s, id, &f))
		return srv_reply_error(c, MHD_HTTP_NOT_FOUND, "no file %d", id);
	const char *path = input_nsys_path(&f.in);
	size_t alen;
	const char *analysis = input_analysis(&f.in, &alen);
	if (!path)
		path = "";
	if (steps && !path[0])
		return srv_reply_error(
		    c, MHD_HTTP_BAD_REQUEST,
		    analysis ? "file %d is an analysis.json: ask /api/file/%d/nsys/analysis"
			     : "file %d is not an Nsight Systems SQLite export",
		    id, id);
	if (steps)
		return reply_steps(s, c, path);
	if (!analysis)
		return srv_reply_error(
		    c, MHD_HTTP_BAD_REQUEST,
		    path[0] ? "file %d is an SQLite export: ask /api/file/%d/nsys/steps"
			    : "file %d is not an Nsight Systems analysis.json",
		    id, id);
	return srv_reply(c, MHD_HTTP_OK, "application/json", analysis, alen);
}
