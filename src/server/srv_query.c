/* srv_query: the parsing of a request's query, routes, Host and Origin
 * (see srv_query.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/suggest.h"
#include "report/report.h"
#include "server/srv_query.h"

const char *srv_q_get(const struct srv_query *q, const char *key)
{
	for (size_t i = 0; i < q->n; i++)
		if (!strcmp(q->key[i], key))
			return q->val[i];
	return NULL;
}

bool srv_q_unknown(const struct srv_query *q, const char *allowed, char bad[SRV_BAD_PARAM])
{
	bad[0] = 0;
	for (size_t i = 0; i < q->n; i++) {
		const char *key = q->key[i];
		char pat[48];
		if (strlen(key) <= 40) {
			snprintf(pat, sizeof pat, " %s ", key);
			if (strstr(allowed, pat))
				continue;
		}
		snprintf(bad, SRV_BAD_PARAM, "%.40s", key);
		return true;
	}
	return false;
}

int srv_q_int(const struct srv_query *q, const char *key, int64_t *v, bool *has)
{
	const char *s = srv_q_get(q, key);
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

int srv_q_trace_opts(const struct srv_query *q, struct srv_trace_opts *o, char *msg, size_t n)
{
	char bad[SRV_BAD_PARAM];
	*o = (struct srv_trace_opts){0};
	if (srv_q_unknown(q, SRV_TRACE_PARAMS, bad))
		return snprintf(msg, n, "trace takes no parameter '%s'", bad), -1;
	if (srv_q_int(q, "start_ns", &o->a, &o->has_a) || srv_q_int(q, "end_ns", &o->b, &o->has_b))
		return snprintf(msg, n, "start_ns and end_ns take integer nanoseconds"), -1;
	return 0;
}

int srv_q_dist_opts(const struct srv_query *q, struct srv_dist_opts *o, char *msg, size_t n)
{
	char bad[SRV_BAD_PARAM];
	*o = (struct srv_dist_opts){0};
	if (srv_q_unknown(q, " files tb_compat step range names fleet top ", bad))
		return snprintf(msg, n, "dist takes no parameter '%s'", bad), -1;
	o->compat = srv_q_flag(q, "tb_compat");
	o->files = srv_q_get(q, "files");
	o->names = srv_q_get(q, "names");
	if (o->names && !*o->names)
		o->names = NULL;
	o->sel = srv_q_selection(q, false, &o->step, &o->range);
	o->fleet = srv_q_flag(q, "fleet");
	bool has_top = false;
	if (srv_q_int(q, "top", &o->top, &has_top) || o->top < 0 || (has_top && !o->fleet))
		return snprintf(msg, n, "top needs fleet=1 and a count of 0 or more"), -1;
	return 0;
}

bool srv_q_flag(const struct srv_query *q, const char *key)
{
	const char *v = srv_q_get(q, key);
	return v && (!strcmp(v, "1") || !strcmp(v, "true") || !*v);
}

int srv_q_tl_opts(const struct srv_query *q, struct tl_opts *o, int64_t *links, bool *has_links,
		  char *msg, size_t n)
{
	*o = (struct tl_opts){0};
	int64_t px = 1000;
	bool has_px;
	*links = -1;
	*has_links = false;
	if (srv_q_int(q, "start_ns", &o->start_ns, &o->has_start) ||
	    srv_q_int(q, "end_ns", &o->end_ns, &o->has_end))
		return snprintf(msg, n, "start_ns and end_ns take integer nanoseconds"), -1;
	if (srv_q_int(q, "px", &px, &has_px) || px < 1 || px > TL_MAX_PX)
		return snprintf(msg, n, "px takes a width of 1 to %d pixels", TL_MAX_PX), -1;
	o->px = (int)px;
	o->flows = srv_q_flag(q, "flows");
	o->stream_counters = srv_q_flag(q, "stream_counters");
	o->agg = srv_q_flag(q, "agg");
	o->tracks = srv_q_get(q, "tracks");
	if (srv_q_int(q, "links", links, has_links) || (*has_links && *links < 0))
		return snprintf(msg, n, "links takes an event row"), -1;
	return 0;
}

int srv_q_find_opts(const struct srv_query *q, struct tl_find_opts *o, char *msg, size_t n)
{
	*o = (struct tl_find_opts){.text = srv_q_get(q, "find")};
	if (!o->text || !*o->text)
		return snprintf(msg, n, "find takes a non-empty text"), -1;
	if (srv_q_int(q, "start_ns", &o->start_ns, &o->has_start) ||
	    srv_q_int(q, "end_ns", &o->end_ns, &o->has_end))
		return snprintf(msg, n, "start_ns and end_ns take integer nanoseconds"), -1;
	int64_t limit = TL_FIND_LIMIT;
	bool has;
	if (srv_q_int(q, "limit", &limit, &has) || limit < 0 || limit > TL_FIND_MAX_LIMIT)
		return snprintf(msg, n, "limit takes 0 to %d matches", TL_FIND_MAX_LIMIT), -1;
	o->limit = (int)limit;
	return 0;
}

bool srv_q_selection(const struct srv_query *q, bool steps_view, const char **step,
		     const char **range)
{
	*step = srv_q_get(q, "step");
	*range = srv_q_get(q, "range");
	if (*step && !**step)
		*step = NULL;
	if (*range && !**range)
		*range = NULL;
	/* the steps view picks its rows by step from the whole trace's steps
	 * (as `gpuprof steps --step`): only range cuts its events */
	if (steps_view)
		*step = NULL;
	return *step || *range;
}

int srv_q_view_opts(const struct srv_query *q, const struct view_decl *d, struct view_opts *o,
		    char *msg, size_t n)
{
	view_opts_defaults(d, o);
	for (size_t i = 0; i < d->nopts; i++) {
		const struct vo *opt = &d->opts[i];
		if (!opt->api)
			continue;
		if (opt->type == VO_LIST) { /* repeatable: every pair, in order */
			for (size_t k = 0; k < q->n; k++)
				if (!strcmp(q->key[k], opt->api) && q->val[k] && *q->val[k] &&
				    vo_parse(opt, VO_API, o, q->val[k], msg, n))
					return -1;
			continue;
		}
		const char *v = srv_q_get(q, opt->api);
		if (!v || (!*v && opt->type != VO_FLAG))
			continue;
		if (vo_parse(opt, VO_API, o, v, msg, n))
			return -1;
	}
	if (d->check && d->check(d, o, VO_API, msg, n))
		return -1;
	/* steps: step picks rows, as `gpuprof steps --step` (the other views'
	 * step is a cut: srv_select.c) */
	const char *step = srv_q_get(q, "step");
	if (step && *step && (d->flags & VIEW_STEP_ROWS))
		return view_step_rows(o, step, msg, n);
	return 0;
}

int srv_q_ids(const char *list, int *ids, int max, char *msg, size_t n)
{
	int k = 0;
	const char *p = list;
	for (;;) {
		char *end;
		if (*p < '0' || *p > '9')
			return snprintf(msg, n,
					"files takes file ids separated by commas (e.g. 1,2)"),
			       -1;
		long id = strtol(p, &end, 10);
		if (id <= 0 || id >= 1000000 || (*end && *end != ','))
			return snprintf(msg, n,
					"files takes file ids separated by commas (e.g. 1,2)"),
			       -1;
		for (int i = 0; i < k; i++)
			if (ids[i] == id)
				return snprintf(msg, n, "files lists file %ld twice", id), -1;
		if (k == max)
			return snprintf(msg, n, "files lists more than %d files", max), -1;
		ids[k++] = (int)id;
		if (!*end)
			return k;
		p = end + 1;
	}
}

int srv_q_id(const struct srv_query *q, const char *key)
{
	const char *v = srv_q_get(q, key);
	if (!v || !*v)
		return 0;
	char *end;
	errno = 0;
	long id = strtol(v, &end, 10);
	if (*v < '0' || *v > '9' || *end || errno || id <= 0 || id >= 1000000)
		return -1;
	return (int)id;
}

int srv_q_file_id(const char *url, const char **rest)
{
	if (strncmp(url, "/api/file/", 10))
		return 0;
	const char *p = url + 10;
	char *end;
	long id = strtol(p, &end, 10);
	if (end == p || *end != '/' || id <= 0 || id >= 1000000)
		return 0;
	*rest = end;
	return (int)id;
}

bool srv_q_file_url(const char *url, int *id)
{
	const char *p = url + 10;
	if (strncmp(url, "/api/file/", 10) || *p < '1' || *p > '9')
		return false;
	char *end;
	long v = strtol(p, &end, 10);
	if (*end || end - p > 6)
		return false;
	*id = (int)v;
	return true;
}

bool srv_q_host_ok(const char *h, int port)
{
	char name[128];
	const char *colon = h[0] == '[' ? strstr(h, "]:") : strrchr(h, ':');
	if (!colon)
		return false;
	if (h[0] == '[')
		colon++;
	size_t n = (size_t)(colon - h);
	if (n == 0 || n >= sizeof name)
		return false;
	memcpy(name, h, n);
	name[n] = 0;
	char *end;
	long p = strtol(colon + 1, &end, 10);
	if (*end || end == colon + 1 || p != port)
		return false;
	if (!strcasecmp(name, "localhost"))
		return true;
	struct in_addr a4;
	struct in6_addr a6;
	if (name[0] == '[') {
		if (name[n - 1] != ']')
			return false;
		name[n - 1] = 0;
		return inet_pton(AF_INET6, name + 1, &a6) == 1;
	}
	return inet_pton(AF_INET, name, &a4) == 1;
}

bool srv_q_origin_ok(const char *origin, const char *host)
{
	if (!origin)
		return true;
	return !strncmp(origin, "http://", 7) && !strcmp(origin + 7, host);
}

void srv_view_params(const struct view_decl *d, char *buf, size_t n)
{
	size_t len = (size_t)snprintf(buf, n, " ");
	for (size_t i = 0; i < d->nopts && len < n; i++)
		if (d->opts[i].api)
			len += (size_t)snprintf(buf + len, n - len, "%s ", d->opts[i].api);
	if (!(d->flags & VIEW_WHOLE_FILE) && len < n)
		snprintf(buf + len, n - len, "step range ");
}

void srv_q_bad_param(const struct view_decl *d, const char *bad, char *msg, size_t n)
{
	const char *names[40];
	size_t k = 0;
	for (size_t i = 0; i < d->nopts && k < 38; i++)
		if (d->opts[i].api)
			names[k++] = d->opts[i].api;
	if (!(d->flags & VIEW_WHOLE_FILE)) {
		names[k++] = "step";
		names[k++] = "range";
	}
	const char *close = sug_closest(bad, names, k);
	const char *pre = view_family_prefix(d->family); /* "ncu list" */
	if (close)
		snprintf(msg, n, "%s%s%s takes no parameter '%s'; did you mean '%s'?",
			 pre ? pre : "", pre ? " " : "", d->name, bad, close);
	else
		snprintf(msg, n, "%s%s%s takes no parameter '%s'", pre ? pre : "", pre ? " " : "",
			 d->name, bad);
}

unsigned srv_http_status(int rc)
{
	return rc == ERR_USAGE ? 400 : 500;
}

int srv_q_error_json(unsigned status, const char *msg, char **buf, size_t *len)
{
	*buf = NULL;
	*len = 0;
	FILE *f = open_memstream(buf, len);
	if (!f)
		return -1;
	/* the JSON sink escapes the message */
	struct report *r = rep_open(f, REP_JSON);
	if (r) {
		rep_kv_begin(r, "error", "Error");
		rep_kv(r, "status", "Status", REP_INT, rep_i(status));
		rep_kv(r, "message", "Message", REP_STR, rep_s(msg));
		rep_kv_end(r);
	}
	int rc = !r || rep_close(r) ? -1 : 0;
	if (fclose(f) || rc) {
		free(*buf);
		*buf = NULL;
		return -1;
	}
	return 0;
}

static int hex(char c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
				      : -1;
}

/* Decodes s in place as a form's field: '+' a space, %XX a byte. */
static void form_decode(char *s)
{
	char *w = s;
	for (char *c = s; *c; c++) {
		if (*c == '+') {
			*w++ = ' ';
		} else if (*c == '%' && hex(c[1]) >= 0 && hex(c[2]) >= 0) {
			*w++ = (char)(hex(c[1]) * 16 + hex(c[2]));
			c += 2;
		} else {
			*w++ = *c;
		}
	}
	*w = 0;
}

void srv_q_parse(char *query, struct srv_query *q, const char **key, const char **val, size_t max)
{
	*q = (struct srv_query){.key = key, .val = val};
	for (char *p = query; p && *p && q->n < max;) {
		char *amp = strchr(p, '&');
		if (amp)
			*amp = 0;
		char *eq = strchr(p, '=');
		if (eq)
			*eq = 0;
		form_decode(p);
		if (eq)
			form_decode(eq + 1);
		if (*p) {
			key[q->n] = p;
			val[q->n++] = eq ? eq + 1 : NULL;
		}
		p = amp ? amp + 1 : NULL;
	}
}
