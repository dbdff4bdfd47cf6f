/* srv_ncu: the Nsight Compute part of the API of `gpuprof serve` (see
 * server.h): GET /api/file/ID/ncu/VERB answers what `gpuprof ncu VERB
 * --format json` prints, written by the same views/view_ncu.c code. */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncu/ncu.h"
#include "report/report.h"
#include "server/srv_int.h"
#include "views/view_ncu.h"

/* The verbs and the query parameters each takes (the CLI's options). */
static const struct {
	const char *verb, *params;
} ncu_verbs[] = {
    {"list", " id kernel "},
    {"raw", " id kernel print_units "},
    {"session", " "},
    {"details", " id kernel section print_units print_details "},
    {"hints", " id kernel section sort "},
};

static const char *arg(struct MHD_Connection *c, const char *key)
{
	const char *v = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, key);
	return v && *v ? v : NULL;
}

/* Fills o from the query as cmd_ncu.c's parse_opts does from the options;
 * a message in msg (and -1) when a value is bad. */
static int parse_opts(struct MHD_Connection *c, struct ncu_view_opts *o, char *msg, size_t n)
{
	memset(o, 0, sizeof *o);
	o->id = -1;
	o->parts = NCU_DETAILS_HEADER | NCU_DETAILS_BODY;
	const char *v;
	if ((v = arg(c, "id"))) {
		char *end;
		o->id = strtol(v, &end, 10);
		if (*end || o->id < 0)
			return snprintf(msg, n, "id needs a number >= 0, not '%.40s'", v), -1;
	}
	o->section = arg(c, "section");
	if ((v = arg(c, "print_units"))) {
		if (strcmp(v, "base") && strcmp(v, "auto"))
			return snprintf(msg, n, "print_units takes base or auto"), -1;
		o->base_units = !strcmp(v, "base");
	}
	if ((v = arg(c, "print_details"))) {
		if (!strcmp(v, "header"))
			o->parts = NCU_DETAILS_HEADER;
		else if (!strcmp(v, "body"))
			o->parts = NCU_DETAILS_BODY;
		else if (strcmp(v, "all"))
			return snprintf(msg, n, "print_details takes header, body or all"), -1;
	}
	if ((v = arg(c, "sort"))) {
		o->sort = !strcmp(v, "type")	  ? NCU_HINT_SORT_TYPE
			  : !strcmp(v, "section") ? NCU_HINT_SORT_SECTION
			  : !strcmp(v, "speedup") ? NCU_HINT_SORT_SPEEDUP
						  : -1;
		if (o->sort < 0)
			return snprintf(msg, n, "sort takes type, section or speedup"), -1;
	}
	if ((o->kernel = arg(c, "kernel"))) {
		if (regcomp(&o->re, o->kernel, REG_EXTENDED | REG_NOSUB))
			return snprintf(msg, n, "kernel: invalid regular expression"), -1;
		o->has_re = true;
	}
	return 0;
}

enum MHD_Result srv_api_ncu(struct srv *s, struct MHD_Connection *c, struct ncu_report *r,
			    pthread_mutex_t *mu, const char *verb)
{
	size_t k = 0, nverbs = sizeof ncu_verbs / sizeof ncu_verbs[0];
	while (k < nverbs && strcmp(ncu_verbs[k].verb, verb))
		k++;
	if (k == nverbs)
		return srv_reply_error(c, MHD_HTTP_NOT_FOUND,
				       "no ncu verb '%.40s' (list, raw, session, details, hints)",
				       verb);
	char bad[SRV_BAD_PARAM];
	if (srv_unknown_param(c, ncu_verbs[k].params, bad))
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "ncu %s takes no parameter '%s'",
				       verb, bad);
	struct ncu_view_opts o;
	char msg[128];
	if (parse_opts(c, &o, msg, sizeof msg)) {
		if (o.has_re)
			regfree(&o.re);
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "%s", msg);
	}
	char *buf = NULL;
	size_t len = 0;
	bool ok = false;
	FILE *f = open_memstream(&buf, &len);
	struct report *rp = f ? rep_open(f, REP_JSON) : NULL;
	if (rp) {
		srv_job_begin(s);
		pthread_mutex_lock(mu);
		ok = true;
		if (!strcmp(verb, "list"))
			ncu_view_list(r, &o, rp);
		else if (!strcmp(verb, "raw"))
			ncu_view_raw(r, &o, rp, true);
		else if (!strcmp(verb, "session"))
			ncu_view_session(r, rp);
		else if (!strcmp(verb, "details"))
			ncu_view_details(r, &o, rp);
		else
			ok = ncu_view_hints(r, &o, rp) == 0;
		pthread_mutex_unlock(mu);
		srv_job_end(s);
	}
	ok = rp && rep_close(rp) == 0 && ok;
	if (f)
		fclose(f);
	if (o.has_re)
		regfree(&o.re);
	enum MHD_Result res = ok ? srv_reply(c, MHD_HTTP_OK, "application/json", buf, len)
				 : srv_reply_error(c, 500, "could not write the answer");
	free(buf);
	return res;
}
