/* srv_query: what the server's endpoints read from a request, parsed from
 * plain strings: the query's key/value pairs (already decoded), the file
 * routes, Host and Origin. No socket and no libmicrohttpd here, so that a
 * fuzz target (tests/fuzz/fuzz_http_query.c) calls the same parsing the
 * server runs; srv_args.c builds a srv_query from a connection.
 *
 * The static site's engine (src/wasm/site_api.c) answers its requests
 * through the same functions.
 *
 * Owns nothing: a query points at strings its maker keeps. Depends on
 * views/ (the option declarations, the timeline's limits), report/ (the
 * error's JSON) and core/. */
#ifndef GP_SERVER_SRV_QUERY_H
#define GP_SERVER_SRV_QUERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "views/view.h"

/* The pairs in request order; val[i] NULL for a key given without '='. */
struct srv_query {
	size_t n;
	const char **key, **val;
};

/* Splits an encoded query "a=b&c" (changed in place) into q's pairs,
 * pointing into it and into key/val (at most max pairs): %XX and '+'
 * decoded as a form's, empty keys dropped, a key without '=' valueless. */
void srv_q_parse(char *query, struct srv_query *q, const char **key, const char **val, size_t max);
/* The value of the first pair named key, or NULL. */
const char *srv_q_get(const struct srv_query *q, const char *key);
/* true, with the first key not named in allowed (" a b c ": each name
 * between spaces; "" allows none) in bad (cut to 40 characters). */
#define SRV_BAD_PARAM 64
bool srv_q_unknown(const struct srv_query *q, const char *allowed, char bad[SRV_BAD_PARAM]);
/* An int64 value into *v, *has false when absent or empty; -1 when it is
 * not an integer. */
int srv_q_int(const struct srv_query *q, const char *key, int64_t *v, bool *has);
/* 1, true or empty. */
bool srv_q_flag(const struct srv_query *q, const char *key);
/* The timeline's start_ns, end_ns, px (default 1000), flows and links (-1
 * and *has_links false when absent) into o; -1 with the 400's message in
 * msg when one is bad. */
int srv_q_tl_opts(const struct srv_query *q, struct tl_opts *o, int64_t *links, bool *has_links,
		  char *msg, size_t n);
/* The parameters GET /api/file/ID/timeline and .../timeline/find take. */
#define SRV_TIMELINE_PARAMS                                                                        \
	" start_ns end_ns px flows links find step range stream_counters agg tracks "
#define SRV_FIND_PARAMS " find start_ns end_ns limit step range "
/* /timeline/find's find (non-empty), start_ns, end_ns and limit (default
 * TL_FIND_LIMIT, 0 to TL_FIND_MAX_LIMIT) into o; -1 with the 400's
 * message in msg when one is bad. */
int srv_q_find_opts(const struct srv_query *q, struct tl_find_opts *o, char *msg, size_t n);
/* GET /api/file/ID/trace's start_ns and end_ns (has_a/has_b false when
 * absent; srv_answer.h); -1 with the 400's message in msg when a parameter
 * is unknown or not an integer. */
#define SRV_TRACE_PARAMS " start_ns end_ns step range "
struct srv_trace_opts {
	int64_t a, b;
	bool has_a, has_b;
};
int srv_q_trace_opts(const struct srv_query *q, struct srv_trace_opts *o, char *msg, size_t n);
/* GET /api/dist's parameters: tb_compat, files= (the list, parsed by
 * srv_q_ids), names= (empty: absent), step=/range= (sel: either set),
 * fleet and top (top needs fleet); -1 with the 400's message in msg. */
struct srv_dist_opts {
	bool compat, sel, fleet;
	const char *files, *names, *step, *range;
	int64_t top;
};
int srv_q_dist_opts(const struct srv_query *q, struct srv_dist_opts *o, char *msg, size_t n);
/* step= and range= (empty: absent; a steps view's step is its row filter,
 * so NULL there); true when either is set. */
bool srv_q_selection(const struct srv_query *q, bool steps_view, const char **step,
		     const char **range);
/* View d's options from the query, through its declarations (the CLI's
 * parsing and messages); an empty value is no value, as a form's empty
 * field. A repeatable option (VO_LIST) takes every pair of its name, in
 * request order, as the CLI takes every use. -1 with the message in msg when a value is bad; o is
 * then to be released as on success (view_opts_release). */
int srv_q_view_opts(const struct srv_query *q, const struct view_decl *d, struct view_opts *o,
		    char *msg, size_t n);
/* /api/dist's files=: "1,2,..." into ids (at most max, no repeats): the
 * count, or -1 with the message in msg. */
int srv_q_ids(const char *list, int *ids, int max, char *msg, size_t n);
/* /api/diff's base= and new=: the file id of key (1..999999), 0 when it is
 * absent or empty, -1 when it is not an id. */
int srv_q_id(const struct srv_query *q, const char *key);
/* A path /api/file/ID/REST (*rest: "/REST"): the id (1..999999), or 0. */
int srv_q_file_id(const char *url, const char **rest);
/* Whether url is exactly /api/file/ID (its id in *id). */
bool srv_q_file_url(const char *url, int *id);
/* Host must be "localhost", an IPv4 literal or a bracketed IPv6 literal,
 * with the server's port: a DNS name (what a rebinding attack uses) never
 * is. Origin must be absent or exactly http:// + host. */
bool srv_q_host_ok(const char *host, int port);
/* The query parameters of view d, " a b c ": its options' query names, and
 * step and range (a window of the trace) unless it describes whole files. */
void srv_view_params(const struct view_decl *d, char *buf, size_t n);
/* "VIEW takes no parameter 'X'", with the closest parameter when one is
 * close, into msg. */
void srv_q_bad_param(const struct view_decl *d, const char *bad, char *msg, size_t n);
/* The HTTP status of an error code: 400 for a usage error, else 500. */
unsigned srv_http_status(int rc);
/* The error answer {"error": {"status", "message"}} into *buf (malloc'd,
 * *len bytes); -1 when out of memory. */
int srv_q_error_json(unsigned status, const char *msg, char **buf, size_t *len);
bool srv_q_origin_ok(const char *origin, const char *host);

#endif
