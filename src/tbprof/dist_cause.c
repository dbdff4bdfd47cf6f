/* dist_cause: what each collective call of a worker was doing before it
 * arrived, for the straggler causes of the fleet tables (docs/dist.md,
 * "Straggler causes"); see dist.h. One walk over the nodes in their
 * (start, -end) order and a binary search of the steps per node. */
#include "tbprof/dist.h"

#include <stdlib.h>

#include "core/hmap.h"

void dist_node_times(const struct dist_worker *w, const struct dist_node *x, int64_t *a, int64_t *z)
{
	bool cpu_seen = false, any = false;
	*a = x->start;
	*z = x->end;
	for (size_t j = 0; j < x->n; j++) {
		const struct rg *g = &w->kr[x->first + j];
		if (!cpu_seen && g->start == x->start && g->end == x->end) {
			cpu_seen = true; /* the CPU range is one of the node's ranges */
			continue;
		}
		if (!any || g->start < *a)
			*a = g->start;
		if (!any || g->end > *z)
			*z = g->end;
		any = true;
	}
}

/* The start of the step numbered `step` that holds [start, ...), or t0. */
static int64_t step_start(const struct st_result *s, int64_t step, int64_t start, int64_t t0)
{
	if (step == DIST_NO_STEP)
		return t0;
	size_t lo = 0, hi = s->n;
	while (lo < hi) { /* the first step starting after `start` */
		size_t mid = lo + (hi - lo) / 2;
		if (s->steps[mid].start <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && s->steps[lo - 1].number == step ? s->steps[lo - 1].start : t0;
}

void dist_causes(struct dist_worker *w, const struct st_result *s, const struct rg_index *k,
		 const struct rg_index *dl, const struct rg_index *u, int64_t t0)
{
	bool any = false;
	int64_t last_exit = 0; /* the latest exit of the calls before */
	for (size_t i = 0; i < w->nnodes; i++) {
		struct dist_node *x = &w->nodes[i];
		int64_t a, z;
		dist_node_times(w, x, &a, &z);
		int64_t w0 = step_start(s, x->step, x->start, t0);
		if (any && last_exit > w0)
			w0 = last_exit;
		if (w0 > a)
			w0 = a;
		x->compute = rg_measure(k, w0, a);
		x->input = rg_measure(dl, w0, a);
		x->idle = (a - w0) - rg_measure(u, w0, a);
		if (!any || z > last_exit)
			last_exit = z;
		any = true;
	}
}

int dist_seq_check(const struct dist_worker *w, size_t *at, int64_t *want)
{
	struct hmap m = {0};
	int64_t *last = malloc((w->nnodes ? w->nnodes : 1) * sizeof *last);
	int rc = last ? 0 : -1;
	size_t ng = 0;
	for (size_t i = 0; !rc && i < w->nnodes; i++) {
		const struct dist_node *x = &w->nodes[i];
		if (x->seq < 0)
			continue;
		*at = i;
		*want = -1;
		uint32_t g;
		if (!x->pg) {
			rc = 1; /* a number without a group */
		} else if (hmap_reserve(&m, ng + 1)) {
			rc = -1;
		} else {
			size_t slot = hmap_find(&m, hmap_int(x->pg), NULL, NULL, &g);
			if (g == HMAP_NONE) {
				hmap_set(&m, slot, hmap_int(x->pg), (uint32_t)ng);
				last[ng++] = x->seq;
			} else if (last[g] == INT64_MAX || x->seq != last[g] + 1) {
				*want = last[g] == INT64_MAX ? -1 : last[g] + 1;
				rc = 1;
			} else {
				last[g] = x->seq;
			}
		}
	}
	hmap_free(&m);
	free(last);
	return rc;
}

int dist_seq_normalize(struct dist_worker *w)
{
	size_t at;
	int64_t want;
	int rc;
	while ((rc = dist_seq_check(w, &at, &want)) == 1) {
		uint32_t pg = w->nodes[at].pg;
		for (size_t i = 0; i < w->nnodes; i++)
			if (i == at || (pg && w->nodes[i].pg == pg))
				w->nodes[i].seq = -1;
	}
	return rc;
}
