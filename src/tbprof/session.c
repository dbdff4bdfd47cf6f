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
	int threads; /* at most this many at once (gp_threads) */
	/* the side thread (ses_side_run), all guarded by side_mu */
	pthread_mutex_t side_mu;
	pthread_cond_t side_cv;			/* a job done, or the thread closed */
	bool side_running;			/* a thread to join */
	bool side_open;				/* it still takes jobs: the queue below */
	struct ses_side *side_head, *side_tail; /* queued, not yet taken */
	struct ahead {				/* ses_tree_ahead's job, by tb_compat */
		struct ses_side job;
		struct ses *s;
		bool tb_compat, queued;
	} ahead[2];
	pthread_t side;
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
	pthread_mutex_init(&s->side_mu, NULL);
	pthread_cond_init(&s->side_cv, NULL);
	s->threads = gp_threads(0);
	*out = s;
	return 0;
}

void ses_set_threads(struct ses *s, int n)
{
	s->threads = gp_threads(n);
}

/* Waits until the side thread has run every job and ended. */
static void side_join(struct ses *s)
{
	pthread_mutex_lock(&s->side_mu);
	while (s->side_open)
		pthread_cond_wait(&s->side_cv, &s->side_mu);
	if (s->side_running) { /* closed: it takes side_mu no more */
		pthread_join(s->side, NULL);
		s->side_running = false;
	}
	pthread_mutex_unlock(&s->side_mu);
}

void ses_free(struct ses *s)
{
	if (!s)
		return;
	side_join(s);
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
	pthread_mutex_destroy(&s->side_mu);
	pthread_cond_destroy(&s->side_cv);
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
	/* (a build on the side thread holds tree_mu: this waits for it) */
	return tree_get(s, tb_compat, out, e);
}

static void side_done(struct ses *s, struct ses_side *j)
{
	pthread_mutex_lock(&s->side_mu);
	j->done = true;
	pthread_cond_broadcast(&s->side_cv);
	pthread_mutex_unlock(&s->side_mu);
}

/* The side thread: the jobs of the queue in order, until it is empty. */
static void *side_main(void *arg)
{
	struct ses *s = arg;
	pthread_mutex_lock(&s->side_mu);
	for (struct ses_side *j; (j = s->side_head);) {
		s->side_head = j->next;
		pthread_mutex_unlock(&s->side_mu);
		j->fn(j->arg);
		side_done(s, j);
		pthread_mutex_lock(&s->side_mu);
	}
	s->side_open = false;
	pthread_cond_broadcast(&s->side_cv);
	pthread_mutex_unlock(&s->side_mu);
	return NULL;
}

void ses_side_run(struct ses *s, struct ses_side *j)
{
	j->done = false;
	j->next = NULL;
	pthread_mutex_lock(&s->side_mu);
	if (!s->side_open && s->threads >= 2) {
		if (s->side_running) /* closed: it takes side_mu no more */
			pthread_join(s->side, NULL);
		s->side_running = s->side_open = !pthread_create(&s->side, NULL, side_main, s);
	}
	if (s->side_open) {
		*(s->side_head ? &s->side_tail->next : &s->side_head) = j;
		s->side_tail = j;
	}
	bool here = !s->side_open;
	pthread_mutex_unlock(&s->side_mu);
	if (here) { /* one thread only, or none could start */
		j->fn(j->arg);
		j->done = true;
	}
}

void ses_side_wait(struct ses *s, struct ses_side *j)
{
	pthread_mutex_lock(&s->side_mu);
	while (!j->done)
		pthread_cond_wait(&s->side_cv, &s->side_mu);
	pthread_mutex_unlock(&s->side_mu);
}

/* The tree built on the side; a failure is not kept, so the caller's own
 * ses_tree builds again and reports it. */
static void ahead_main(void *arg)
{
	const struct ahead *a = arg;
	const struct optree *o;
	struct err e = {0};
	tree_get(a->s, a->tb_compat, &o, &e);
}

void ses_tree_ahead(struct ses *s, bool tb_compat)
{
	if (s->threads < 2)
		return;
	pthread_mutex_lock(&s->tree_mu);
	bool built = s->tree_ok[tb_compat];
	pthread_mutex_unlock(&s->tree_mu);
	struct ahead *a = &s->ahead[tb_compat];
	pthread_mutex_lock(&s->side_mu);
	bool queue = !built && !a->queued; /* the job is queued once at most */
	if (queue)
		*a = (struct ahead){
		    .job = {.fn = ahead_main, .arg = a}, .s = s, .tb_compat = tb_compat};
	a->queued = true;
	pthread_mutex_unlock(&s->side_mu);
	if (queue)
		ses_side_run(s, &a->job);
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
