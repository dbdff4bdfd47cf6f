/* fuzz_http_query: libFuzzer target for what the server parses of a
 * request (src/server/srv_query.c), without a socket. The input is lines:
 * the path, the Host header, the Origin header (an empty line: absent),
 * then the query "k=v&k&..." (a pair without '=' has no value), already
 * decoded, as libmicrohttpd hands it over; the same text is also split as
 * an encoded query (srv_q_parse, the static site's). Every endpoint's parsing runs on
 * it: the file routes, Host and Origin, unknown parameters, integers and
 * flags, the timeline's and its search's options, the step/range selection and its step
 * selector, /api/dist's ids and names, /api/diff's base and new, and the
 * options of every view of the registry through their declarations. A
 * bad value must give a message, never a crash, a leak or undefined
 * behaviour. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/srv_query.h"
#include "tbprof/dist.h"
#include "tbprof/select.h"

#define FUZZ_MAX_PAIRS 512

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The next line of [*p, end) as a new string (NULL: out of memory). */
static char *next_line(const char **p, const char *end)
{
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	size_t n = (size_t)((nl ? nl : end) - *p);
	char *s = malloc(n + 1);
	if (s) {
		memcpy(s, *p, n);
		s[n] = 0;
	}
	*p = nl ? nl + 1 : end;
	return s;
}

static void parse_all(const struct srv_query *q, const char *path, const char *host,
		      const char *origin)
{
	const char *rest;
	int id;
	(void)srv_q_file_id(path, &rest);
	(void)srv_q_file_url(path, &id);
	(void)srv_q_host_ok(host, 8765);
	(void)srv_q_host_ok(host, 0);
	(void)srv_q_origin_ok(*origin ? origin : NULL, host);
	char bad[SRV_BAD_PARAM], msg[640];
	(void)srv_q_unknown(q, SRV_TIMELINE_PARAMS, bad);
	(void)srv_q_unknown(q, SRV_FIND_PARAMS, bad);
	(void)srv_q_unknown(q, "", bad);
	int64_t v;
	bool has;
	(void)srv_q_int(q, "limit", &v, &has);
	(void)srv_q_flag(q, "tb_compat");
	struct tl_opts o;
	int64_t links;
	bool has_links;
	(void)srv_q_tl_opts(q, &o, &links, &has_links, msg, sizeof msg);
	struct tl_find_opts fo;
	(void)srv_q_find_opts(q, &fo, msg, sizeof msg);
	const char *step, *range;
	if (srv_q_selection(q, false, &step, &range) && step) {
		int64_t a, b;
		(void)tr_parse_steps(step, &a, &b);
	}
	(void)srv_q_selection(q, true, &step, &range);
	(void)srv_q_id(q, "base"); /* /api/diff */
	(void)srv_q_id(q, "new");
	const char *files = srv_q_get(q, "files");
	int ids[64];
	int n = files ? srv_q_ids(files, ids, 64, msg, sizeof msg) : 0;
	const char *names = srv_q_get(q, "names");
	if (names && *names) {
		char name[256];
		(void)dist_names_fit(names, n > 0 ? n : 2);
		(void)dist_nth_name(names, 1, name, sizeof name);
	}
	for (int k = 0; k < VIEW_COUNT; k++) {
		const struct view_decl *d = view_get((enum view_kind)k);
		struct view_opts vo;
		(void)srv_q_view_opts(q, d, &vo, msg, sizeof msg);
		view_opts_release(&vo);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	char *path = next_line(&p, end), *host = next_line(&p, end), *origin = next_line(&p, end);
	char *query = malloc((size_t)(end - p) + 1);
	const char *key[FUZZ_MAX_PAIRS], *val[FUZZ_MAX_PAIRS];
	struct srv_query q = {.key = key, .val = val};
	if (path && host && origin && query) {
		memcpy(query, p, (size_t)(end - p));
		query[end - p] = 0;
		/* pairs at '&' (or a NUL, which ends a C string), key=value */
		char *s = query;
		while (q.n < FUZZ_MAX_PAIRS && s < query + (end - p) + 1) {
			size_t len = strcspn(s, "&");
			char *next = s + len + 1;
			s[len] = 0;
			char *eq = strchr(s, '=');
			if (eq)
				*eq = 0;
			key[q.n] = s;
			val[q.n] = eq ? eq + 1 : NULL;
			q.n++;
			if (next > query + (end - p))
				break;
			s = next;
		}
		parse_all(&q, path, host, origin);
		/* the same bytes as an encoded query (the static site's) */
		memcpy(query, p, (size_t)(end - p));
		query[end - p] = 0;
		struct srv_query eq;
		srv_q_parse(query, &eq, key, val, FUZZ_MAX_PAIRS);
		parse_all(&eq, path, host, origin);
	}
	free(path);
	free(host);
	free(origin);
	free(query);
	return 0;
}
