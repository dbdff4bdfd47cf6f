/* session: see session.h. */
#include "tbprof/session.h"

#include <pthread.h>
#include <stdlib.h>

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
	struct ses_stats stats;
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
	*out = s;
	return 0;
}

void ses_free(struct ses *s)
{
	if (!s)
		return;
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
	free(s);
}

const struct trace *ses_trace(const struct ses *s)
{
	return s->t;
}

int ses_links(struct ses *s, bool driver, const struct tr_links **out, struct err *e)
{
	int slot = driver && s->has_driver;
	int rc = 0;
	pthread_mutex_lock(&s->links_mu);
	if (!s->links_ok[slot]) {
		rc = tr_links_build(s->t, slot == 1, &s->links[slot], e);
		s->links_ok[slot] = !rc;
		s->stats.links++;
	}
	pthread_mutex_unlock(&s->links_mu);
	*out = rc ? NULL : &s->links[slot];
	return rc;
}

int ses_steps(struct ses *s, bool tb_compat, const struct st_result **out, struct err *e)
{
	const struct tr_links *l;
	int rc = ses_links(s, false, &l, e);
	if (rc)
		return *out = NULL, rc;
	int slot = tb_compat;
	pthread_mutex_lock(&s->steps_mu);
	if (!s->steps_ok[slot]) {
		struct st_opts so = {.tb_compat = tb_compat};
		rc = st_compute(s->t, l, &so, &s->steps[slot], e);
		s->steps_ok[slot] = !rc;
		s->stats.steps++;
	}
	pthread_mutex_unlock(&s->steps_mu);
	*out = rc ? NULL : &s->steps[slot];
	return rc;
}

int ses_tree(struct ses *s, bool tb_compat, const struct optree **out, struct err *e)
{
	/* tb-compat keeps tb's rule: kernels launched through cuda_driver
	 * stay unattributed */
	const struct tr_links *l;
	int rc = ses_links(s, !tb_compat, &l, e);
	if (rc)
		return *out = NULL, rc;
	int slot = tb_compat;
	pthread_mutex_lock(&s->tree_mu);
	if (!s->tree_ok[slot]) {
		struct optree_opts to = {.tb_compat = tb_compat};
		rc = optree_build(s->t, l, &to, &s->tree[slot], e);
		s->tree_ok[slot] = !rc;
		s->stats.trees++;
	}
	pthread_mutex_unlock(&s->tree_mu);
	*out = rc ? NULL : &s->tree[slot];
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
