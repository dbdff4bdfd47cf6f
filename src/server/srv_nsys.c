/* srv_nsys: the Nsight Systems part of the API of `gpuprof serve` (see
 * server.h): GET /api/file/ID/nsys/VIEW answers what `gpuprof nsys FILE
 * VIEW --format json` prints, written by the same views/view_nsys.c code.
 * Each answer opens the export
 * read-only (its own connection), so answers need no lock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsys/nsys.h"
#include "report/report.h"
#include "server/srv_int.h"
#include "views/view_nsys.h"

enum MHD_Result srv_api_nsys(struct srv *s, struct MHD_Connection *c, const char *path,
			     const char *view)
{
	static const char *const names[] = {"info", "kernels", "memcpy", "api", "nvtx", "gpus"};
	static const enum nsys_sql_view views[] = {NSYS_SQL_INFO,   NSYS_SQL_KERNELS,
						   NSYS_SQL_MEMCPY, NSYS_SQL_API,
						   NSYS_SQL_NVTX,   NSYS_SQL_DEVICES};
	size_t k = 0, nviews = sizeof names / sizeof names[0];
	while (k < nviews && strcmp(names[k], view))
		k++;
	if (k == nviews)
		return srv_reply_error(
		    c, MHD_HTTP_NOT_FOUND,
		    "no nsys view '%.40s' (info, kernels, memcpy, api, nvtx, gpus)", view);
	char bad[SRV_BAD_PARAM];
	if (srv_unknown_param(c, "", bad))
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "nsys %s takes no parameter '%s'",
				       view, bad);
	struct arena a;
	arena_init(&a);
	struct err e = {0};
	struct nsys_sql *q = NULL;
	struct nsys_sql_table t = {0};
	char *buf = NULL;
	size_t len = 0;
	srv_job_begin(s);
	int rc = nsys_sql_open(path, &q, &e);
	if (!rc && views[k] != NSYS_SQL_INFO)
		rc = nsys_view_compute(q, &a, views[k], &t, &e);
	bool ok = false;
	if (!rc) {
		FILE *f = open_memstream(&buf, &len);
		struct report *r = f ? rep_open(f, REP_JSON) : NULL;
		if (r) {
			ok = (views[k] == NSYS_SQL_INFO ? nsys_view_info(r, q, &a, path)
							: nsys_view_table(r, views[k], &t)) == 0;
			ok = rep_close(r) == 0 && ok;
		}
		if (f)
			fclose(f);
	}
	nsys_sql_close(q);
	srv_job_end(s);
	arena_free(&a);
	enum MHD_Result res =
	    rc	 ? srv_reply_error(c, rc == ERR_USAGE ? MHD_HTTP_BAD_REQUEST : 500, "%s", e.msg)
	    : ok ? srv_reply(c, MHD_HTTP_OK, "application/json", buf, len)
		 : srv_reply_error(c, 500, "could not write the answer");
	free(buf);
	return res;
}
