/* srv_args: what every endpoint asks of a request's query and of a file
 * given to the server, in one place: unknown parameters, integer values,
 * flags, and the trace of a file id. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/srv_int.h"

/* The query of c: pointers to libmicrohttpd's strings (valid while the
 * request lasts); an empty query when memory runs out. */
static enum MHD_Result add_pair(void *cls, enum MHD_ValueKind kind, const char *key,
				const char *value)
{
	struct srv_query *q = cls;
	q->key[q->n] = key;
	q->val[q->n] = value;
	q->n++;
	return MHD_YES;
}

static void query_of(struct MHD_Connection *c, struct srv_query *q)
{
	*q = (struct srv_query){0};
	int n = srv_mhd()->get_connection_values(c, MHD_GET_ARGUMENT_KIND, NULL, NULL);
	if (n <= 0)
		return;
	q->key = malloc((size_t)n * sizeof *q->key);
	q->val = malloc((size_t)n * sizeof *q->val);
	if (q->key && q->val)
		srv_mhd()->get_connection_values(c, MHD_GET_ARGUMENT_KIND, add_pair, q);
}

static void query_free(struct srv_query *q)
{
	free(q->key);
	free(q->val);
}

bool srv_unknown_param(struct MHD_Connection *c, const char *allowed, char bad[SRV_BAD_PARAM])
{
	struct srv_query q;
	query_of(c, &q);
	bool r = srv_q_unknown(&q, allowed, bad);
	query_free(&q);
	return r;
}

int srv_int_arg(struct MHD_Connection *c, const char *key, int64_t *v, bool *has)
{
	struct srv_query q;
	query_of(c, &q);
	int r = srv_q_int(&q, key, v, has);
	query_free(&q);
	return r;
}

int srv_trace_opts(struct MHD_Connection *c, struct srv_trace_opts *o, char *msg, size_t n)
{
	struct srv_query q;
	query_of(c, &q);
	int r = srv_q_trace_opts(&q, o, msg, n);
	query_free(&q);
	return r;
}

int srv_dist_opts(struct MHD_Connection *c, struct srv_dist_opts *o, char *msg, size_t n)
{
	struct srv_query q;
	query_of(c, &q);
	int r = srv_q_dist_opts(&q, o, msg, n); /* o's strings: the connection's */
	query_free(&q);
	return r;
}

int srv_id_arg(struct MHD_Connection *c, const char *key)
{
	struct srv_query q;
	query_of(c, &q);
	int r = srv_q_id(&q, key);
	query_free(&q);
	return r;
}

bool srv_flag(struct MHD_Connection *c, const char *key)
{
	struct srv_query q;
	query_of(c, &q);
	bool r = srv_q_flag(&q, key);
	query_free(&q);
	return r;
}

int srv_selection(struct MHD_Connection *c, bool steps_view, const char **step, const char **range)
{
	struct srv_query q;
	query_of(c, &q);
	bool r = srv_q_selection(&q, steps_view, step, range);
	query_free(&q);
	return r;
}

int srv_view_opts(struct MHD_Connection *c, const struct view_decl *d, struct view_opts *o,
		  char *msg, size_t n)
{
	struct srv_query q;
	query_of(c, &q);
	int r = srv_q_view_opts(&q, d, o, msg, n);
	query_free(&q);
	return r;
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
	struct srv_query q;
	char msg[128];
	query_of(c, &q);
	int r = srv_q_tl_opts(&q, o, links, has_links, msg, sizeof msg);
	query_free(&q);
	if (r)
		*res = srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "%s", msg);
	return r;
}

int srv_find_opts(struct MHD_Connection *c, struct tl_find_opts *o, enum MHD_Result *res)
{
	struct srv_query q;
	char msg[128];
	query_of(c, &q);
	int r = srv_q_find_opts(&q, o, msg, sizeof msg); /* o->text: the connection's string */
	query_free(&q);
	if (r)
		*res = srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "%s", msg);
	return r;
}
