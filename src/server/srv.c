/* srv: the HTTP side of `gpuprof serve` (see server.h): the libmicrohttpd
 * daemon, the checks every request passes (Host, Origin, URL size), the
 * embedded assets and the dispatch to the API (srv_api.c). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "report/report.h"
#include "server/assets.h"
#include "core/lru.h"
#include "server/srv_int.h"
#include "views/view.h"

bool srv_is_loopback(const char *host)
{
	struct in_addr a4;
	struct in6_addr a6;
	if (!strcasecmp(host, "localhost"))
		return true;
	if (inet_pton(AF_INET, host, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	return inet_pton(AF_INET6, host, &a6) == 1 && IN6_IS_ADDR_LOOPBACK(&a6);
}

static void add_headers(struct MHD_Response *r, const char *mime)
{
	const struct srv_mhd *m = srv_mhd();
	if (mime)
		m->add_response_header(r, "Content-Type", mime);
	m->add_response_header(r, "X-Content-Type-Options", "nosniff");
	m->add_response_header(r, "Referrer-Policy", "no-referrer");
	m->add_response_header(r, "X-Frame-Options", "DENY");
	m->add_response_header(r, "Content-Security-Policy",
			       "default-src 'self'; img-src 'self' data: blob:; "
			       "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; "
			       "connect-src 'self' https://ui.perfetto.dev");
	m->add_response_header(r, "Cache-Control", "no-store");
}

enum MHD_Result srv_reply(struct MHD_Connection *c, unsigned status, const char *mime,
			  const void *body, size_t len)
{
	return srv_reply_cached(c, status, mime, body, len, NULL);
}

enum MHD_Result srv_reply_cached(struct MHD_Connection *c, unsigned status, const char *mime,
				 const void *body, size_t len, const char *cache)
{
	struct MHD_Response *r = srv_mhd()->create_response_from_buffer(
	    len, (void *)(body ? body : ""), MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	add_headers(r, mime);
	if (cache)
		srv_mhd()->add_response_header(r, "X-Gpuprof-Cache", cache);
	enum MHD_Result ok = srv_mhd()->queue_response(c, status, r);
	srv_mhd()->destroy_response(r);
	return ok;
}

enum MHD_Result srv_reply_error(struct MHD_Connection *c, unsigned status, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	char *buf;
	size_t len;
	if (srv_q_error_json(status, msg, &buf, &len))
		return MHD_NO;
	enum MHD_Result ok = srv_reply(c, status, "application/json", buf, len);
	free(buf);
	return ok;
}

static enum MHD_Result serve_asset(struct MHD_Connection *c, const char *url)
{
	if (!strcmp(url, "/"))
		url = "/index.html";
	for (const struct srv_asset *a = srv_assets; a->path; a++) {
		if (strcmp(a->path, url))
			continue;
		struct MHD_Response *r = srv_mhd()->create_response_from_buffer(
		    a->len, (void *)a->data, MHD_RESPMEM_PERSISTENT);
		if (!r)
			return MHD_NO;
		add_headers(r, a->mime);
		enum MHD_Result ok = srv_mhd()->queue_response(c, MHD_HTTP_OK, r);
		srv_mhd()->destroy_response(r);
		return ok;
	}
	return srv_reply_error(c, MHD_HTTP_NOT_FOUND, "no such page: %s", url);
}

static enum MHD_Result add_len(void *cls, enum MHD_ValueKind kind, const char *key,
			       const char *value)
{
	size_t *n = cls;
	*n += strlen(key) + (value ? strlen(value) : 0) + 2;
	return MHD_YES;
}

/* The URL's length, its (decoded) query included. */
static size_t url_len(struct MHD_Connection *c, const char *url)
{
	size_t n = strlen(url);
	srv_mhd()->get_connection_values(c, MHD_GET_ARGUMENT_KIND, add_len, &n);
	return n;
}

static struct srv_upload *upload_new(struct MHD_Connection *c)
{
	struct srv_upload *u = calloc(1, sizeof *u);
	if (!u)
		return NULL;
	u->fd = -1;
	const char *name = srv_mhd()->lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "name");
	snprintf(u->name, sizeof u->name, "%s", name && *name ? name : "upload");
	return u;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *data,
				  size_t *data_size, void **state)
{
	struct srv *s = cls;
	bool post = !strcmp(method, "POST");
	if (*state) { /* the body of an upload, then its end */
		struct srv_upload *u = *state;
		if (*data_size) {
			u->got += (int64_t)*data_size;
			srv_conn_phase(s, c, SRV_CONN_BODY, u->got);
			int over = srv_upload_data(s, u, data, *data_size) > 0;
			*data_size = 0;
			/* over the cap (not reached: the declared length was checked
			 * below, and libmicrohttpd reads no more than it): the
			 * connection is closed */
			return over ? MHD_NO : MHD_YES;
		}
		srv_conn_phase(s, c, SRV_CONN_DONE, 0);
		return srv_api_upload(s, c, u);
	}
	srv_conn_phase(s, c, SRV_CONN_DONE, 0); /* an upload's body comes next: below */
	srv_warm_touch(s);			/* work ahead waits: a person is here */
	const char *host = srv_mhd()->lookup_connection_value(c, MHD_HEADER_KIND, "Host");
	if (!host || !srv_q_host_ok(host, s->port))
		return srv_reply_error(c, MHD_HTTP_FORBIDDEN,
				       "Host '%s' is not this server's address", host ? host : "");
	const char *origin = srv_mhd()->lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
	if (!srv_q_origin_ok(origin, host))
		return srv_reply_error(c, MHD_HTTP_FORBIDDEN, "cross-origin requests are refused");
	if (url_len(c, url) > SRV_MAX_URL)
		return srv_reply_error(c, MHD_HTTP_URI_TOO_LONG, "the URL is too long");
	if (post && !strcmp(url, "/api/upload")) {
		const char *len =
		    srv_mhd()->lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
		/* a chunked body is refused at once: its chunks may declare any
		 * size, and libmicrohttpd answers only after a chunk is whole, so
		 * a 413 could come only when the declared bytes had been sent */
		if (!len)
			return srv_reply_error(c, MHD_HTTP_LENGTH_REQUIRED,
					       "an upload needs a Content-Length (curl "
					       "--data-binary @FILE sends one)");
		if (strtoll(len, NULL, 10) > s->o.max_upload)
			return srv_reply_error(
			    c, MHD_HTTP_CONTENT_TOO_LARGE,
			    "the file is larger than the upload limit (%lld bytes)",
			    (long long)s->o.max_upload);
		struct srv_upload *u = upload_new(c);
		if (!u)
			return MHD_NO;
		*state = u;
		srv_conn_phase(s, c, SRV_CONN_BODY, 0);
		return MHD_YES;
	}
	if (post)
		return srv_reply_error(c, MHD_HTTP_NOT_FOUND, "no such endpoint: POST %s", url);
	int id;
	if (!strcmp(method, "DELETE") && srv_q_file_url(url, &id))
		return srv_api_delete(s, c, id);
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return srv_reply_error(c, MHD_HTTP_METHOD_NOT_ALLOWED, "method %s not allowed",
				       method);
	if (!strncmp(url, "/api/", 5))
		return srv_api_get(s, c, url);
	return serve_asset(c, url);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **state,
			 enum MHD_RequestTerminationCode why)
{
	struct srv *s = cls;
	srv_conn_phase(s, c, SRV_CONN_NEXT, 0);
	srv_warm_touch(s);
	struct srv_upload *u = *state;
	if (!u)
		return;
	if (u->fd >= 0)
		close(u->fd);
	free(u);
	*state = NULL;
}

int srv_start(const struct srv_opts *o, struct srv **out, struct err *e)
{
	*out = NULL;
	int rc = srv_mhd_open(e);
	if (rc)
		return rc;
	union {
		struct sockaddr sa;
		struct sockaddr_in in4;
		struct sockaddr_in6 in6;
	} addr;
	memset(&addr, 0, sizeof addr);
	const char *h = !strcasecmp(o->host, "localhost") ? "127.0.0.1" : o->host;
	/* a thread per connection (an analysis does not hold up the others),
	 * poll (no FD_SETSIZE cap on descriptors) */
	unsigned flags =
	    MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL;
	if (inet_pton(AF_INET, h, &addr.in4.sin_addr) == 1) {
		addr.in4.sin_family = AF_INET;
		addr.in4.sin_port = htons((uint16_t)o->port);
	} else if (inet_pton(AF_INET6, h, &addr.in6.sin6_addr) == 1) {
		addr.in6.sin6_family = AF_INET6;
		addr.in6.sin6_port = htons((uint16_t)o->port);
		flags |= MHD_USE_IPv6;
	} else {
		return err_set(e, ERR_USAGE, NULL, -1, "--host must be an IP address, not '%s'",
			       o->host);
	}
	struct srv *s = calloc(1, sizeof *s);
	if (!s)
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	s->o = *o;
	s->next_id = 1;
	snprintf(s->host, sizeof s->host, addr.sa.sa_family == AF_INET6 ? "[%s]" : "%s", h);
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	s->cache = lru_new(64, (size_t)256 << 20); /* none (NULL) only costs speed */
	srv_warm_start(s);			   /* none: answers are computed when asked */
	if (srv_conns_start(s)) {
		srv_stop(s);
		return err_set(e, ERR_NOMEM, NULL, -1, "could not start a thread");
	}
	s->d = srv_mhd()->start_daemon(
	    flags, (uint16_t)o->port, NULL, NULL, on_request, s, MHD_OPTION_SOCK_ADDR, &addr.sa,
	    MHD_OPTION_NOTIFY_COMPLETED, on_completed, s, MHD_OPTION_NOTIFY_CONNECTION,
	    srv_conn_notify, s, MHD_OPTION_CONNECTION_LIMIT, (unsigned)SRV_MAX_CONNECTIONS,
	    MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)SRV_MAX_PER_ADDRESS,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SRV_IDLE_TIMEOUT,
	    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32768, MHD_OPTION_END);
	if (!s->d) {
		int port = o->port;
		srv_stop(s);
		return err_set(e, ERR_IO, NULL, -1,
			       "could not listen on %s port %d (in use? try --port 0)", o->host,
			       port);
	}
	const union MHD_DaemonInfo *di =
	    srv_mhd()->get_daemon_info(s->d, MHD_DAEMON_INFO_BIND_PORT);
	s->port = di ? di->port : o->port;
	*out = s;
	return 0;
}

int srv_port(const struct srv *s)
{
	return s->port;
}

void srv_url(const struct srv *s, char *buf, size_t n)
{
	snprintf(buf, n, "http://%s:%d/", s->host, s->port);
}

void srv_stop(struct srv *s)
{
	if (!s)
		return;
	if (s->d)
		srv_mhd()->stop_daemon(s->d);
	srv_conns_stop(s);
	srv_warm_stop(s);    /* before the files it reads are freed */
	srv_windows_free(s); /* they hold their files */
	srv_files_free(s);
	lru_free(s->cache);
	pthread_cond_destroy(&s->cv);
	pthread_mutex_destroy(&s->mu);
	free(s);
}
