/* srv_args: what every endpoint asks of a request's query and of a file
 * given to the server, in one place: unknown parameters, integer values,
 * flags, and the trace of a file id. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/srv_int.h"

struct unknown {
	const char *allowed;
	char *bad;
};

static enum MHD_Result check_key(void *cls, enum MHD_ValueKind kind, const char *key,
				 const char *value)
{
	(void)kind;
	(void)value;
	struct unknown *u = cls;
	char pat[48];
	if (strlen(key) <= 40) {
		snprintf(pat, sizeof pat, " %s ", key);
		if (strstr(u->allowed, pat))
			return MHD_YES;
	}
	snprintf(u->bad, SRV_BAD_PARAM, "%.40s", key);
	return MHD_NO;
}

bool srv_unknown_param(struct MHD_Connection *c, const char *allowed, char bad[SRV_BAD_PARAM])
{
	bad[0] = 0;
	struct unknown u = {allowed, bad};
	MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, check_key, &u);
	return bad[0] != 0;
}

int srv_int_arg(struct MHD_Connection *c, const char *key, int64_t *v, bool *has)
{
	const char *s = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, key);
	*has = s && *s;
	if (!*has)
		return 0;
	char *end;
	errno = 0;
	long long x = strtoll(s, &end, 10);
	if (*end || errno)
		return -1;
	*v = x;
	return 0;
}

bool srv_flag(struct MHD_Connection *c, const char *key)
{
	const char *v = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, key);
	return v && (!strcmp(v, "1") || !strcmp(v, "true") || !*v);
}

struct trace *srv_trace_of(struct srv *s, struct MHD_Connection *c, int id, enum MHD_Result *res)
{
	struct srv_file f;
	if (!srv_file_get(s, id, &f)) {
		*res = srv_reply_error(c, MHD_HTTP_NOT_FOUND, "no file %d", id);
		return NULL;
	}
	struct trace *t = input_trace(&f.in);
	if (!t)
		*res = srv_reply_error(c, MHD_HTTP_BAD_REQUEST,
				       "file %d is not a trace: ask /api/file/%d/%s", id, id,
				       f.in.kind == INPUT_NSYS	? "nsys/info"
				       : f.in.kind == INPUT_NCU ? "ncu/list"
								: "nsys/analysis");
	return t;
}

unsigned srv_http_status(int rc)
{
	return rc == ERR_USAGE ? MHD_HTTP_BAD_REQUEST : MHD_HTTP_INTERNAL_SERVER_ERROR;
}

unsigned srv_http_upload_status(int rc)
{
	return rc == ERR_LIMIT || rc == ERR_NOMEM ? MHD_HTTP_INSUFFICIENT_STORAGE
						  : MHD_HTTP_BAD_REQUEST;
}

enum MHD_Result srv_reply_stream(struct MHD_Connection *c, FILE *f, char **buf, size_t *len, int rc,
				 const struct err *e)
{
	bool ok = f && fclose(f) == 0 && rc == 0; /* fclose sets *buf, *len */
	enum MHD_Result res = ok ? srv_reply(c, MHD_HTTP_OK, "application/json", *buf, *len)
				 : srv_reply_error(c, srv_http_status(rc), "%s",
						   rc ? e->msg : "could not write the answer");
	free(*buf);
	*buf = NULL;
	return res;
}

int srv_tl_opts(struct MHD_Connection *c, struct tl_opts *o, int64_t *links, bool *has_links,
		enum MHD_Result *res)
{
	*o = (struct tl_opts){0};
	int64_t px = 1000;
	bool has_px;
	*links = -1;
	if (srv_int_arg(c, "start_ns", &o->start_ns, &o->has_start) ||
	    srv_int_arg(c, "end_ns", &o->end_ns, &o->has_end)) {
		*res = srv_reply_error(c, MHD_HTTP_BAD_REQUEST,
				       "start_ns and end_ns take integer nanoseconds");
		return -1;
	}
	if (srv_int_arg(c, "px", &px, &has_px) || px < 1 || px > TL_MAX_PX) {
		*res = srv_reply_error(c, MHD_HTTP_BAD_REQUEST,
				       "px takes a width of 1 to %d pixels", TL_MAX_PX);
		return -1;
	}
	o->px = (int)px;
	o->flows = srv_flag(c, "flows");
	if (srv_int_arg(c, "links", links, has_links) || (*has_links && *links < 0)) {
		*res = srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "links takes an event row");
		return -1;
	}
	return 0;
}
