/* dist_match: the cross-worker part of the distributed view (dist_finish):
 * matching the workers' communication nodes, their data-transfer ("real")
 * ranges, and the per-step wait and per-collective tables; plus the
 * result's life cycle. See dist.h. */
#include "core/sort.h"
#include "tbprof/dist.h"

#include <stdlib.h>
#include <string.h>

int dist_init(struct dist_result *r, const struct dist_opts *o, struct err *e)
{
	memset(r, 0, sizeof *r);
	arena_init(&r->arena);
	if (strpool_init(&r->pool, &r->arena)) {
		arena_free(&r->arena);
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	}
	r->compat = o && o->tb_compat;
	r->view = true;
	return 0;
}

void dist_free(struct dist_result *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct dist_worker *w = &r->w[i];
		free(w->nodes);
		free(w->kr);
		free(w->real);
		free(w->overlap);
		free(w->wait);
		free(w->ops);
		free(w->gpus);
	}
	free(r->w);
	strpool_free(&r->pool);
	arena_free(&r->arena);
	memset(r, 0, sizeof *r);
}

/* Sets the real ranges of matched nodes nodes[k] of worker k (k < n):
 * for each range index j below the smallest range count, the shortest
 * duration d over the workers gives [end - d, end] on every worker. */
static void match_one(struct dist_result *r, const size_t *idx)
{
	size_t m = SIZE_MAX;
	for (size_t k = 0; k < r->n; k++) {
		const struct dist_node *d = &r->w[k].nodes[idx[k]];
		m = d->n < m ? d->n : m;
	}
	for (size_t j = 0; j < m; j++) {
		int64_t min = INT64_MAX;
		for (size_t k = 0; k < r->n; k++) {
			const struct dist_worker *w = &r->w[k];
			const struct rg *g = &w->kr[w->nodes[idx[k]].first + j];
			min = g->end - g->start < min ? g->end - g->start : min;
		}
		for (size_t k = 0; k < r->n; k++) {
			struct dist_worker *w = &r->w[k];
			size_t at = w->nodes[idx[k]].first + j;
			w->real[at] = (struct rg){w->kr[at].end - min, w->kr[at].end};
		}
	}
	for (size_t k = 0; k < r->n; k++)
		r->w[k].nodes[idx[k]].nreal = m;
}

/* The reference: every worker must have communication and the same number
 * of nodes, and node i the same number of ranges everywhere; nodes are
 * matched by index. Otherwise there is no view at all. */
static int match_tb(struct dist_result *r)
{
	if (!r->n) {
		r->view = false;
		r->why_not = "no worker";
		return 0;
	}
	for (size_t k = 0; k < r->n; k++) {
		const struct dist_worker *w = &r->w[k];
		if (!w->has_communication || !w->nnodes) {
			r->view = false;
			r->why_not = w->cleared ? "a worker has both nccl: and gloo: collectives"
						: "a worker has no communication";
			return 0;
		}
		if (w->nnodes != r->w[0].nnodes) {
			r->view = false;
			r->why_not = "the workers' numbers of collective ops differ";
			return 0;
		}
	}
	for (size_t i = 0; i < r->w[0].nnodes; i++)
		for (size_t k = 1; k < r->n; k++)
			if (r->w[k].nodes[i].n != r->w[0].nodes[i].n) {
				r->view = false;
				r->why_not = "the workers' numbers of communication kernels differ";
				return 0;
			}
	size_t *idx = malloc(r->n * sizeof *idx);
	if (!idx)
		return -1;
	for (size_t i = 0; i < r->w[0].nnodes; i++) {
		for (size_t k = 0; k < r->n; k++)
			idx[k] = i;
		match_one(r, idx);
	}
	free(idx);
	return 0;
}

/* (key, node) pairs: sorting them groups a worker's nodes by key. */
struct kn {
	int64_t key;
	size_t node;
};

static int cmp_kn(const void *x, const void *y)
{
	const struct kn *a = x, *b = y;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->node > b->node) - (a->node < b->node);
}

/* A worker's nodes sorted by (name, order); NULL when out of memory. */
static struct kn *by_name(const struct dist_worker *w)
{
	struct kn *v = malloc((w->nnodes ? w->nnodes : 1) * sizeof *v);
	if (!v)
		return NULL;
	for (size_t i = 0; i < w->nnodes; i++)
		v[i] = (struct kn){w->nodes[i].name, i};
	if (w->nnodes > 1)
		gp_qsort(v, w->nnodes, sizeof *v, cmp_kn);
	return v;
}

/* Default: the i-th call of a name on one worker matches the i-th call of
 * that name on every other worker (names are ids in the shared pool);
 * calls beyond the smallest count, and names some worker lacks, stay
 * unmatched. A k-way walk over the name-sorted lists. */
static int match_by_name(struct dist_result *r)
{
	size_t n = r->n;
	struct kn **v = calloc(n ? n : 1, sizeof *v);
	size_t *pos = calloc(n ? n : 1, sizeof *pos), *run = calloc(n ? n : 1, sizeof *run);
	size_t *idx = calloc(n ? n : 1, sizeof *idx);
	int rc = -1;
	if (!v || !pos || !run || !idx)
		goto done;
	for (size_t k = 0; k < n; k++)
		if (!(v[k] = by_name(&r->w[k])))
			goto done;
	while (n && pos[0] < r->w[0].nnodes) {
		int64_t name = v[0][pos[0]].key;
		size_t c = SIZE_MAX;
		for (size_t k = 0; k < n; k++) {
			const struct dist_worker *w = &r->w[k];
			while (pos[k] < w->nnodes && v[k][pos[k]].key < name)
				pos[k]++;
			size_t e = pos[k];
			while (e < w->nnodes && v[k][e].key == name)
				e++;
			run[k] = e - pos[k];
			c = run[k] < c ? run[k] : c;
		}
		for (size_t i = 0; i < c; i++) {
			for (size_t k = 0; k < n; k++)
				idx[k] = v[k][pos[k] + i].node;
			match_one(r, idx);
		}
		for (size_t k = 0; k < n; k++)
			pos[k] += run[k];
	}
	rc = 0;
done:
	for (size_t k = 0; v && k < n; k++)
		free(v[k]);
	free(v);
	free(pos);
	free(run);
	free(idx);
	return rc;
}

/* |merge(ranges)| of the listed ranges, using buf (room for them). */
static int64_t merged(struct rg *buf, size_t n)
{
	rg_sort(buf, n);
	return rg_total(buf, rg_merge(buf, n));
}

/* One group of nodes with the same key, for a table row. */
struct grp {
	int64_t key, calls, bytes, comm, transfer;
	size_t first; /* first node (appearance order) */
};

static int cmp_grp(const void *x, const void *y)
{
	const struct grp *a = x, *b = y;
	return (a->first > b->first) - (a->first < b->first);
}

/* Groups worker w's nodes by key (the step number, or the name id), in
 * order of first appearance, each with Σ bytes and the merged lengths of
 * its nodes' ranges and real ranges. *out is malloc'd. */
static int group(const struct dist_worker *w, bool by_step, struct grp **out, size_t *nout)
{
	size_t n = w->nnodes;
	struct kn *v = malloc((n ? n : 1) * sizeof *v);
	struct grp *g = malloc((n ? n : 1) * sizeof *g);
	struct rg *buf = malloc((w->nkr ? w->nkr : 1) * sizeof *buf);
	if (!v || !g || !buf) {
		free(v);
		free(g);
		free(buf);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = (struct kn){by_step ? w->nodes[i].step : (int64_t)w->nodes[i].name, i};
	if (n > 1)
		gp_qsort(v, n, sizeof *v, cmp_kn);
	size_t ng = 0;
	for (size_t i = 0, j; i < n; i = j) {
		struct grp *p = &g[ng++];
		*p = (struct grp){.key = v[i].key, .first = v[i].node};
		size_t nb = 0, nr = 0;
		for (j = i; j < n && v[j].key == v[i].key; j++) {
			const struct dist_node *d = &w->nodes[v[j].node];
			p->calls++;
			p->bytes = __builtin_add_overflow(p->bytes, d->bytes, &p->bytes) ? INT64_MAX
											 : p->bytes;
			memcpy(buf + nb, w->kr + d->first, d->n * sizeof *buf);
			nb += d->n;
		}
		p->comm = merged(buf, nb);
		for (size_t k = i; k < j; k++) {
			const struct dist_node *d = &w->nodes[v[k].node];
			memcpy(buf + nr, w->real + d->first, d->nreal * sizeof *buf);
			nr += d->nreal;
		}
		p->transfer = merged(buf, nr);
	}
	if (ng > 1)
		gp_qsort(g, ng, sizeof *g, cmp_grp);
	free(v);
	free(buf);
	*out = g;
	*nout = ng;
	return 0;
}

/* The wait rows and the op rows of one worker. */
static int tables(struct dist_result *r, struct dist_worker *w)
{
	struct grp *g;
	size_t ng;
	if (group(w, true, &g, &ng))
		return -1;
	w->wait = malloc((ng ? ng : 1) * sizeof *w->wait);
	if (!w->wait) {
		free(g);
		return -1;
	}
	int64_t sum[2] = {0};
	for (size_t i = 0; i < ng; i++) {
		w->wait[i] = (struct dist_wait){g[i].key, g[i].comm, g[i].transfer};
		sum[0] += g[i].transfer;
		sum[1] += g[i].comm - g[i].transfer;
	}
	w->nwait = ng;
	for (int j = 0; j < 2; j++)
		w->wait_avg[j] = dist_avg_trunc(sum[j], (int64_t)ng, r->compat);
	free(g);
	if (group(w, false, &g, &ng))
		return -1;
	w->ops = malloc((ng ? ng : 1) * sizeof *w->ops);
	if (!w->ops) {
		free(g);
		return -1;
	}
	for (size_t i = 0; i < ng; i++)
		w->ops[i] = (struct dist_op){(uint32_t)g[i].key, g[i].calls, g[i].bytes, g[i].comm,
					     g[i].transfer};
	w->nops = ng;
	free(g);
	return 0;
}

int dist_finish(struct dist_result *r, struct err *e)
{
	int rc = r->compat ? match_tb(r) : match_by_name(r);
	for (size_t k = 0; !rc && k < r->n; k++) {
		struct dist_worker *w = &r->w[k];
		for (size_t i = 0; i < w->nnodes; i++)
			w->unmatched += !w->nodes[i].nreal;
		if (r->view)
			rc = tables(r, w);
	}
	if (rc)
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory in the distributed view");
	return 0;
}
