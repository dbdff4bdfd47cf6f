/* srv_conn: the deadline of every connection's request (see srv_int.h).
 *
 * libmicrohttpd's own timeout is an idle timeout: a client that sends a
 * byte a second never meets it, and the request callback only sees a
 * request once its head is complete. So the server follows each
 * connection from its start (MHD_OPTION_NOTIFY_CONNECTION) through its
 * requests, and one watchdog thread shuts down the socket of a connection
 * whose request is not received in time: its head within the request
 * timeout, its body in the timeout plus one second per SRV_MIN_BODY_RATE
 * bytes received. The connection's thread then sees the end of its input
 * and closes it. A request whose head and body are in (a computation or
 * an answer being sent) has no deadline; between the requests of a
 * keep-alive connection the clock starts again.
 *
 * Records are linked and unlinked under the table's lock; libmicrohttpd
 * reports a closed connection before it closes the socket, so the
 * watchdog, under that lock, never shuts down a reused descriptor. */
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#include "server/srv_int.h"

enum conn_phase { CONN_HEAD, CONN_BODY, CONN_DONE };

struct srv_conn {
	struct srv_conn *prev, *next;
	int fd;
	double start; /* when the request's head began to be awaited (s) */
	int64_t body; /* body bytes received */
	enum conn_phase phase;
	bool cut; /* shut down by the watchdog */
};

struct srv_conns {
	pthread_mutex_t mu;
	pthread_cond_t cv; /* stop */
	pthread_t th;
	bool stop;
	double timeout; /* seconds */
	struct srv_conn *head;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool past_deadline(const struct srv_conns *t, const struct srv_conn *k, double now)
{
	if (k->phase == CONN_HEAD)
		return now - k->start > t->timeout;
	if (k->phase == CONN_BODY)
		return now - k->start > t->timeout + (double)k->body / SRV_MIN_BODY_RATE;
	return false;
}

static void *watch_main(void *arg)
{
	struct srv_conns *t = arg;
	/* four looks per timeout, and one a second at least: a connection goes
	 * at most that period past its deadline */
	double period = t->timeout / 4 > 1 ? 1 : t->timeout / 4;
	pthread_mutex_lock(&t->mu);
	while (!t->stop) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		long ns = ts.tv_nsec + (long)(period * 1e9);
		ts.tv_sec += ns / 1000000000L;
		ts.tv_nsec = ns % 1000000000L;
		pthread_cond_timedwait(&t->cv, &t->mu, &ts);
		double now = now_s();
		for (struct srv_conn *k = t->head; k; k = k->next)
			if (!k->cut && past_deadline(t, k, now)) {
				shutdown(k->fd, SHUT_RDWR);
				k->cut = true;
			}
	}
	pthread_mutex_unlock(&t->mu);
	return NULL;
}

int srv_conns_start(struct srv *s)
{
	struct srv_conns *t = calloc(1, sizeof *t);
	if (!t)
		return -1;
	t->timeout = s->o.request_timeout > 0 ? s->o.request_timeout : SRV_REQUEST_TIMEOUT;
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->cv, NULL);
	if (pthread_create(&t->th, NULL, watch_main, t)) {
		pthread_cond_destroy(&t->cv);
		pthread_mutex_destroy(&t->mu);
		free(t);
		return -1;
	}
	s->conns = t;
	return 0;
}

void srv_conns_stop(struct srv *s)
{
	struct srv_conns *t = s->conns;
	if (!t)
		return;
	pthread_mutex_lock(&t->mu);
	t->stop = true;
	pthread_cond_signal(&t->cv);
	pthread_mutex_unlock(&t->mu);
	pthread_join(t->th, NULL);
	/* the daemon is stopped: every connection was reported closed */
	pthread_cond_destroy(&t->cv);
	pthread_mutex_destroy(&t->mu);
	free(t);
	s->conns = NULL;
}

void srv_conn_notify(void *cls, struct MHD_Connection *c, void **ctx,
		     enum MHD_ConnectionNotificationCode code)
{
	struct srv *s = cls;
	struct srv_conns *t = s->conns;
	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci =
		    srv_mhd()->get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		struct srv_conn *k = ci ? calloc(1, sizeof *k) : NULL;
		*ctx = k;
		if (!k) /* no deadline; the idle timeout still holds */
			return;
		k->fd = ci->connect_fd;
		k->start = now_s();
		pthread_mutex_lock(&t->mu);
		k->next = t->head;
		if (t->head)
			t->head->prev = k;
		t->head = k;
		pthread_mutex_unlock(&t->mu);
		return;
	}
	struct srv_conn *k = *ctx;
	if (!k)
		return;
	pthread_mutex_lock(&t->mu);
	if (k->prev)
		k->prev->next = k->next;
	else
		t->head = k->next;
	if (k->next)
		k->next->prev = k->prev;
	pthread_mutex_unlock(&t->mu);
	free(k);
	*ctx = NULL;
}

static struct srv_conn *conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
	    srv_mhd()->get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return ci ? ci->socket_context : NULL;
}

void srv_conn_phase(struct srv *s, struct MHD_Connection *c, int phase, int64_t body)
{
	struct srv_conn *k = conn_of(c);
	if (!k)
		return;
	pthread_mutex_lock(&s->conns->mu);
	if (phase == SRV_CONN_NEXT) { /* the next request of a keep-alive connection */
		k->phase = CONN_HEAD;
		k->start = now_s();
		k->body = 0;
	} else {
		k->phase = phase == SRV_CONN_BODY ? CONN_BODY : CONN_DONE;
		k->body = body;
	}
	pthread_mutex_unlock(&s->conns->mu);
}
