/* srv_ncu_body: GET /api/file/ID/ncu/body?id=N&kernel=REGEX&section=S&
 * metric=REGEX, the section bodies of a report's results (and the metrics
 * named by metric) for the viewer's charts: what
 * `gpuprof ncu body --format json` prints, written by the same
 * views/view_ncu_body.c code. */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "server/srv_int.h"
#include "views/view_ncu.h"

static enum MHD_Result only_known(void *cls, enum MHD_ValueKind kind, const char *key,
				  const char *value)
{
	char *bad = cls;
	if (strcmp(key, "id") && strcmp(key, "kernel") && strcmp(key, "section") &&
	    strcmp(key, "metric")) {
		snprintf(bad, 64, "%.40s", key);
		return MHD_NO;
	}
	return MHD_YES;
}

static const char *arg(struct MHD_Connection *c, const char *key)
{
	const char *v = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, key);
	return v && *v ? v : NULL;
}

enum MHD_Result srv_api_ncu_body(struct srv *s, struct MHD_Connection *c, struct ncu_report *r,
				 pthread_mutex_t *mu)
{
	char bad[64] = "";
	MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, only_known, bad);
	if (bad[0])
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "ncu body takes no parameter '%s'",
				       bad);
	struct ncu_view_opts o = {.id = -1, .section = arg(c, "section")};
	const char *v;
	if ((v = arg(c, "id"))) {
		char *end;
		o.id = strtol(v, &end, 10);
		if (*end || o.id < 0)
			return srv_reply_error(c, MHD_HTTP_BAD_REQUEST,
					       "id needs a number >= 0, not '%.40s'", v);
	}
	if ((o.kernel = arg(c, "kernel"))) {
		if (regcomp(&o.re, o.kernel, REG_EXTENDED | REG_NOSUB))
			return srv_reply_error(c, MHD_HTTP_BAD_REQUEST,
					       "kernel: invalid regular expression");
		o.has_re = true;
	}
	if ((o.metric = arg(c, "metric"))) {
		if (regcomp(&o.mre, o.metric, REG_EXTENDED | REG_NOSUB)) {
			if (o.has_re)
				regfree(&o.re);
			return srv_reply_error(c, MHD_HTTP_BAD_REQUEST,
					       "metric: invalid regular expression");
		}
		o.has_mre = true;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct report *rp = f ? rep_open(f, REP_JSON) : NULL;
	if (rp) {
		srv_job_begin(s);
		pthread_mutex_lock(mu); /* lazy caches in the report's arena */
		ncu_view_body(r, &o, rp);
		pthread_mutex_unlock(mu);
		srv_job_end(s);
	}
	bool ok = rp && rep_close(rp) == 0;
	if (f)
		fclose(f);
	if (o.has_re)
		regfree(&o.re);
	if (o.has_mre)
		regfree(&o.mre);
	enum MHD_Result res = ok ? srv_reply(c, MHD_HTTP_OK, "application/json", buf, len)
				 : srv_reply_error(c, 500, "could not write the answer");
	free(buf);
	return res;
}
