/* srv_nsys_iter: the per-iteration NVTX analysis of a run in `gpuprof
 * serve` (see server.h):
 *   GET /api/file/ID/nsys/analysis  on an analysis.json (or a run
 *       directory): the JSON as `nsys analyze` wrote it, bytes unchanged.
 * (GET /api/file/ID/nsys/steps computes the same analysis from an SQLite
 * export: the registry's nsys steps view, srv_nsys.c.)
 * An analysis.json is checked once when it is loaded (input/input.h,
 * nsys_analysis_read: strict JSON, schema_version 1, the keys of schema
 * 1), so the page never receives a file it cannot read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/srv_int.h"

enum MHD_Result srv_api_nsys_analysis(struct srv *s, struct MHD_Connection *c, int id)
{
	char bad[SRV_BAD_PARAM];
	if (srv_unknown_param(c, "", bad))
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST,
				       "nsys analysis takes no parameter '%s'", bad);
	struct srv_file f; /* files live as long as the server */
	if (!srv_file_get(s, id, &f))
		return srv_reply_error(c, MHD_HTTP_NOT_FOUND, "no file %d", id);
	const char *path = input_nsys_path(&f.in);
	size_t alen;
	const char *analysis = input_analysis(&f.in, &alen);
	if (!analysis)
		return srv_reply_error(
		    c, MHD_HTTP_BAD_REQUEST,
		    path ? "file %d is an SQLite export: ask /api/file/%d/nsys/steps"
			 : "file %d is not an Nsight Systems analysis.json",
		    id, id);
	return srv_reply(c, MHD_HTTP_OK, "application/json", analysis, alen);
}
