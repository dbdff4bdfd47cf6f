/* srv_ncu: the Nsight Compute part of the API of `gpuprof serve` (see
 * server.h): GET /api/file/ID/ncu/VERB answers what `gpuprof ncu VERB
 * --format json` prints: the registry's ncu view of that name (srv_api.c
 * finds it and parses the query through its option declarations), written
 * by the same views/ code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "server/srv_int.h"
#include "views/view.h"

enum MHD_Result srv_api_ncu(struct srv *s, struct MHD_Connection *c, struct ncu_report *r,
			    pthread_mutex_t *mu, const struct view_decl *d,
			    const struct view_opts *o)
{
	struct view_opts vo = *o;
	vo.ncu.json = true; /* raw: the description column, as --format json */
	char *buf = NULL;
	size_t len = 0;
	bool ok = false;
	struct err e = {0};
	struct view *v = NULL;
	FILE *f = open_memstream(&buf, &len);
	struct report *rp = f ? rep_open(f, REP_JSON) : NULL;
	int rc = 0;
	if (rp) {
		srv_job_begin(s);
		pthread_mutex_lock(mu); /* lazy caches in the report's arena */
		if (!(rc = view_compute_ncu(d, r, &vo, &v, &e))) {
			view_emit(v, rp);
			ok = !view_emit_failed(v);
			view_free(v);
		}
		pthread_mutex_unlock(mu);
		srv_job_end(s);
	}
	ok = rp && rep_close(rp) == 0 && ok;
	if (f)
		fclose(f);
	/* a view this file cannot answer (diff takes two reports): 400 */
	enum MHD_Result res = rc == ERR_USAGE
				  ? srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "%s", e.msg)
			      : ok ? srv_reply(c, MHD_HTTP_OK, "application/json", buf, len)
				   : srv_reply_error(c, 500, "could not write the answer");
	free(buf);
	return res;
}
