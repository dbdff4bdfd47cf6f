/* session: see session.h. */
#include "tbprof/session.h"

#include <pthread.h>
#include <stdlib.h>

#include "core/threads.h"
#include "trace/window.h"

struct ses {
	const struct trace *t;
	pthread_mutex_t links_mu, steps_mu, tree_mu;
	bool has_driver;	  /* some event is a cuda_driver call */
	bool links_ok[2];	  /* by driver */
	struct tr_links links[2]; /* [1] unused when !has_driver: [0] serves both */
	bool steps_ok[2];	  /* by tb_compat */
	struct st_result steps[2];
	bool tree_ok[2]; /* by tb_compat */
	struct optree tree[2];
	bool bounds_ok; /* st_bounds, when steps[0] is not built */
	struct st_result bounds;
	struct ses_stats stats;
	int threads;		  /* at most this many at once (gp_threads) */
	pthread_mutex_t ahead_mu; /* guards the two below */
	bool ahead_running;	  /* a thread of ses_tree_ahead to join */
	pthread_t ahead;
};

int ses_new(const struct trace *t, struct ses **out, struct err *e)
{
	*out = NULL;
	struct ses *s = calloc(1, sizeof *s);
	if (!s)
		return err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
	s->t = t;
	for (size_t r = 0; r < t->ev.n && !s->has_driver; r++)
		s->has_driver = t->ev.kind[r] == TR_DRIVER;
	pthread_mutex_init(&s->links_mu, NULL);
	pthread_mutex_init(&s->steps_mu, NULL);
	pthread_mutex_init(&s->tree_mu, NULL);
	pthread_mutex_init(&s->ahead_mu, NULL);
	s->threads = gp_threads(0);
	*out = s;
	return 0;
}

void ses_set_threads(struct ses *s, int n)
{
	s->threads = gp_threads(n);
}

/* Waits for the thread of ses_tree_ahead, if one runs. */
static void ahead_join(struct ses *s)
{
	pthread_mutex_lock(&s->ahead_mu);
	if (s->ahead_running) {
		pthread_join(s->ahead, NULL);
		s->ahead_running = false;
	}
	pthread_mutex_unlock(&s->ahead_mu);
}

void ses_free(struct ses *s)
{
	if (!s)
		return;
	ahead_join(s);
	if (s->bounds_ok)
		st_free(&s->bounds);
	for (int i = 0; i < 2; i++) {
		if (s->links_ok[i])
			tr_links_free(&s->links[i]);
		if (s->steps_ok[i])
			st_free(&s->steps[i]);
		if (s->tree_ok[i])
			optree_free(&s->tree[i]);
	}
	pthread_mutex_destroy(&s->links_mu);
	pthread_mutex_destroy(&s->steps_mu);
	pthread_mutex_destroy(&s->tree_mu);
	pthread_mutex_destroy(&s->ahead_mu);
	free(s);
}

const struct trace *ses_trace(const struct ses *s)
{
	return s->t;
}

/* Runs build(ctx) under mu unless *ok says it already succeeded; a failed
 * build is not kept (the next caller tries again). */
static int build_once(pthread_mutex_t *mu, bool *ok, unsigned *count,
		      int (*build)(void *ctx, struct err *e), void *ctx, struct err *e)
{
	int rc = 0;
	pthread_mutex_lock(mu);
	if (!*ok) {
		rc = build(ctx, e);
		*ok = !rc;
		(*count)++;
	}
	pthread_mutex_unlock(mu);
	return rc;
}

struct job {
	struct ses *s;
	int slot;
	const struct tr_links *links;
};

static int links_build(void *ctx, struct err *e)
{
	struct job *j = ctx;
	return tr_links_build(j->s->t, j->slot == 1, &j->s->links[j->slot], e);
}

static int steps_build(void *ctx, struct err *e)
{
	struct job *j = ctx;
	struct st_opts so = {.tb_compat = j->slot == 1};
	return st_compute(j->s->t, j->links, &so, &j->s->steps[j->slot], e);
}

static int bounds_build(void *ctx, struct err *e)
{
	struct job *j = ctx;
	return st_bounds(j->s->t, j->links, NULL, &j->s->bounds, e);
}

static int tree_build(void *ctx, struct err *e)
{
	struct job *j = ctx;
	struct optree_opts to = {.tb_compat = j->slot == 1};
	return optree_build(j->s->t, j->links, &to, &j->s->tree[j->slot], e);
}

int ses_links(struct ses *s, bool driver, const struct tr_links **out, struct err *e)
{
	struct job j = {.s = s, .slot = driver && s->has_driver};
	int rc =
	    build_once(&s->links_mu, &s->links_ok[j.slot], &s->stats.links, links_build, &j, e);
	*out = rc ? NULL : &s->links[j.slot];
	return rc;
}

int ses_steps(struct ses *s, bool tb_compat, const struct st_result **out, struct err *e)
{
	struct job j = {.s = s, .slot = tb_compat};
	int rc = ses_links(s, false, &j.links, e);
	if (!rc)
		rc = build_once(&s->steps_mu, &s->steps_ok[j.slot], &s->stats.steps, steps_build,
				&j, e);
	*out = rc ? NULL : &s->steps[j.slot];
	return rc;
}

static int tree_get(struct ses *s, bool tb_compat, const struct optree **out, struct err *e)
{
	/* tb-compat keeps tb's rule: kernels launched through cuda_driver
	 * stay unattributed */
	struct job j = {.s = s, .slot = tb_compat};
	int rc = ses_links(s, !tb_compat, &j.links, e);
	if (!rc)
		rc = build_once(&s->tree_mu, &s->tree_ok[j.slot], &s->stats.trees, tree_build, &j,
				e);
	*out = rc ? NULL : &s->tree[j.slot];
	return rc;
}

int ses_tree(struct ses *s, bool tb_compat, const struct optree **out, struct err *e)
{
	ahead_join(s);
	return tree_get(s, tb_compat, out, e);
}

struct ahead_job {
	struct ses *s;
	bool tb_compat;
};

/* The tree built on the side; a failure is not kept, so the caller's own
 * ses_tree builds again and reports it. */
static void *ahead_main(void *arg)
{
	struct ahead_job j = *(struct ahead_job *)arg;
	free(arg);
	const struct optree *o;
	struct err e = {0};
	tree_get(j.s, j.tb_compat, &o, &e);
	return NULL;
}

void ses_tree_ahead(struct ses *s, bool tb_compat)
{
	if (s->threads < 2)
		return;
	pthread_mutex_lock(&s->ahead_mu);
	bool built;
	pthread_mutex_lock(&s->tree_mu);
	built = s->tree_ok[tb_compat];
	pthread_mutex_unlock(&s->tree_mu);
	struct ahead_job *j = s->ahead_running || built ? NULL : malloc(sizeof *j);
	if (j) {
		*j = (struct ahead_job){s, tb_compat};
		if (pthread_create(&s->ahead, NULL, ahead_main, j))
			free(j); /* no thread: ses_tree builds it in place */
		else
			s->ahead_running = true;
	}
	pthread_mutex_unlock(&s->ahead_mu);
}

int ses_step_bounds(struct ses *s, const struct st_result **out, struct err *e)
{
	pthread_mutex_lock(&s->steps_mu);
	bool have = s->steps_ok[0];
	pthread_mutex_unlock(&s->steps_mu);
	if (have) { /* built steps are never dropped: no lock needed to read them */
		*out = &s->steps[0];
		return 0;
	}
	struct job j = {.s = s};
	int rc = ses_links(s, false, &j.links, e);
	if (!rc)
		rc = build_once(&s->steps_mu, &s->bounds_ok, &s->stats.bounds, bounds_build, &j, e);
	*out = rc ? NULL : &s->bounds;
	return rc;
}

int ses_new_window(struct ses *parent, const struct trace *w, struct ses **out, struct err *e)
{
	int rc = ses_new(w, out, e);
	if (!rc && parent)
		(*out)->threads = parent->threads;
	const uint32_t *rows = tr_window_rows(w);
	if (rc || !parent || !rows || w->base != parent->t)
		return rc;
	struct ses *s = *out;
	for (int d = 0; d < 2 && !rc; d++) {
		int ws = d && s->has_driver, ps = d && parent->has_driver;
		if (s->links_ok[ws])
			continue;
		pthread_mutex_lock(&parent->links_mu);
		bool have = parent->links_ok[ps];
		pthread_mutex_unlock(&parent->links_mu);
		if (!have)
			continue;
		rc = tr_links_derive(&parent->links[ps], w, rows, &s->links[ws], e);
		if (rc == 1) { /* a launcher outside the window: built on first use */
			rc = 0;
			continue;
		}
		s->links_ok[ws] = !rc;
		s->stats.links_derived += !rc;
	}
	if (rc) {
		ses_free(s);
		*out = NULL;
	}
	return rc;
}

void ses_stats(struct ses *s, struct ses_stats *out)
{
	pthread_mutex_lock(&s->links_mu);
	pthread_mutex_lock(&s->steps_mu);
	pthread_mutex_lock(&s->tree_mu);
	*out = s->stats;
	pthread_mutex_unlock(&s->tree_mu);
	pthread_mutex_unlock(&s->steps_mu);
	pthread_mutex_unlock(&s->links_mu);
}
