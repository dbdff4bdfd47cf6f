/* srv_warm: answers computed ahead. A trace's first page is the Overview
 * (the summary view, and the steps the step selector lists), the next ones
 * usually Operators and Kernels; on a 1 GB trace each takes about a
 * second. One background thread computes them
 * for each added trace, in order, into the answer cache under the keys a
 * request without parameters uses, so the page usually finds them ready.
 * It takes job slots like any analysis (requests are never starved of
 * more than one) and stops between views when the server stops.
 *
 * Work ahead yields to work asked for. The first answer (the Overview's
 * quick summary, a fraction of a second) is computed at once; each next
 * view is begun only once no request has begun or ended, and no file has
 * been added, for WARM_QUIET_MS (srv_warm_touch). So a browser opened on
 * a file just loaded has both cores while it loads the page (which asks
 * for the full summary itself), and so has a person panning the Timeline
 * or paging through tables: on the 1 GB trace the Timeline's first
 * windows took 127-170 ms instead of 33-68 ms while the views were
 * computed beside them, at the lowest priority even (the two cores share
 * more than CPU time). A view begun still runs to its end. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "core/lru.h"
#include "server/srv_int.h"

#define WARM_QUEUE 64
#define WARM_QUIET_MS 2000 /* no request for this long: work ahead */

struct srv_warm {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;   /* the queue has work, or stop (CLOCK_MONOTONIC) */
	pthread_cond_t done; /* busy was cleared */
	int q[WARM_QUEUE], nq;
	bool stop;
	char busy[64];	 /* the key being computed, "" when none */
	int64_t last_ms; /* when a request last began or ended (monotonic); 0: none yet */
};

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits until no request has begun or ended for WARM_QUIET_MS; false when
 * the server stops meanwhile. */
static bool quiet_wait(struct srv_warm *w)
{
	pthread_mutex_lock(&w->mu);
	for (;;) {
		int64_t due = w->last_ms ? w->last_ms + WARM_QUIET_MS : 0;
		if (w->stop || now_ms() >= due)
			break;
		struct timespec ts = {.tv_sec = (time_t)(due / 1000),
				      .tv_nsec = (long)(due % 1000) * 1000000};
		pthread_cond_timedwait(&w->cv, &w->mu, &ts);
	}
	bool go = !w->stop;
	pthread_mutex_unlock(&w->mu);
	return go;
}

/* The views the pages ask for first, in that order: the Overview (drawn
 * from summary?quick=1, then the full summary) and its step selector, then
 * Operators and Kernels. */
static const struct warm_view {
	enum view_kind kind;
	bool quick; /* summary's quick=1 */
} warm_views[] = {{VIEW_SUMMARY, true},
		  {VIEW_SUMMARY, false},
		  {VIEW_STEPS, false},
		  {VIEW_OPS, false},
		  {VIEW_KERNELS, false}};

static void warm_file(struct srv *s, int id)
{
	/* held: the session stays while its answers are computed, even if the
	 * file is removed meanwhile */
	struct srv_file *f = srv_file_hold(s, id, false);
	struct ses *ses = f ? f->ses : NULL;
	for (size_t k = 0; ses && k < sizeof warm_views / sizeof warm_views[0]; k++) {
		if (k && !quiet_wait(s->warm))
			break;
		char key[64];
		const struct view_decl *d = view_get(warm_views[k].kind);
		int klen = srv_view_key(key, sizeof key, id, d);
		if (warm_views[k].quick)
			srv_key_param(key, sizeof key, klen, "quick", "1");
		size_t len;
		char *have = lru_get(s->cache, key, &len);
		if (have) { /* a request was first */
			free(have);
			continue;
		}
		struct view_opts o;
		view_opts_defaults(d, &o);
		o.quick = warm_views[k].quick;
		struct err e = {0};
		char *buf;
		pthread_mutex_lock(&s->warm->mu);
		snprintf(s->warm->busy, sizeof s->warm->busy, "%s", key);
		pthread_mutex_unlock(&s->warm->mu);
		if (!srv_view_json(s, ses, d, &o, &buf, &len, &e)) {
			lru_put(s->cache, key, buf, len);
			free(buf);
		} /* else: the request will meet (and report) the same error */
		pthread_mutex_lock(&s->warm->mu);
		s->warm->busy[0] = 0;
		pthread_cond_broadcast(&s->warm->done);
		pthread_mutex_unlock(&s->warm->mu);
	}
	srv_file_release(s, f);
}

/* And it yields its CPU share: on Linux (where a nice value is a
 * thread's) the warm thread and the side threads it starts run at nice
 * WARM_NICE, so the requests' threads and the browser on the same cores go
 * first (on a 1 GB trace the page's own scripts took a second to arrive
 * while two warm threads held both cores). */
#define WARM_NICE 19

static void *warm_main(void *arg)
{
	struct srv *s = arg;
	struct srv_warm *w = s->warm;
#ifdef __linux__
	(void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), WARM_NICE);
#endif
	for (;;) {
		pthread_mutex_lock(&w->mu);
		while (!w->nq && !w->stop)
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->stop) {
			pthread_mutex_unlock(&w->mu);
			return NULL;
		}
		int id = w->q[0];
		for (int i = 1; i < w->nq; i++)
			w->q[i - 1] = w->q[i];
		w->nq--;
		pthread_mutex_unlock(&w->mu);
		warm_file(s, id);
	}
}

int srv_warm_start(struct srv *s)
{
	struct srv_warm *w = calloc(1, sizeof *w);
	if (!w)
		return -1;
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, &ca);
	pthread_condattr_destroy(&ca);
	pthread_cond_init(&w->done, NULL);
	s->warm = w;
	if (pthread_create(&w->th, NULL, warm_main, s)) {
		pthread_cond_destroy(&w->done);
		pthread_cond_destroy(&w->cv);
		pthread_mutex_destroy(&w->mu);
		free(w);
		s->warm = NULL;
		return -1;
	}
	return 0;
}

void srv_warm_add(struct srv *s, int id)
{
	struct srv_warm *w = s->warm;
	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	if (w->nq < WARM_QUEUE) /* more waiting than files exist: drop (only speed) */
		w->q[w->nq++] = id;
	w->last_ms = now_ms(); /* a page may be loading it now */
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

void srv_warm_touch(struct srv *s)
{
	struct srv_warm *w = s->warm;
	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	w->last_ms = now_ms();
	pthread_mutex_unlock(&w->mu);
}

void srv_warm_wait(struct srv *s, const char *key)
{
	struct srv_warm *w = s->warm;
	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	while (w->busy[0] && !strcmp(w->busy, key))
		pthread_cond_wait(&w->done, &w->mu);
	pthread_mutex_unlock(&w->mu);
}

void srv_warm_stop(struct srv *s)
{
	struct srv_warm *w = s->warm;
	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	w->stop = true;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->th, NULL);
	pthread_cond_destroy(&w->done);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	free(w);
	s->warm = NULL;
}
