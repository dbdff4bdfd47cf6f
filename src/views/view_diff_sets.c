/* view_diff_sets: how `gpuprof diff --base A0 A1 ... --new B0 B1 ...`
 * combines a set of rank traces into one side (views/view_diff.h,
 * docs/diff.md "Sets of rank traces"): a synchronous step lasts as long as
 * its slowest rank, so step N of a set is the slowest rank's step N. */
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "views/view_diff.h"

struct num_idx {
	int64_t number;
	size_t idx;
};

static int cmp_num(const void *x, const void *y)
{
	const struct num_idx *a = x, *b = y;
	if (a->number != b->number)
		return a->number < b->number ? -1 : 1;
	return (a->idx > b->idx) - (a->idx < b->idx);
}

/* The first step numbered num in by[0..n) (sorted), or NULL. */
static const struct num_idx *find_num(const struct num_idx *by, size_t n, int64_t num)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (by[mid].number < num)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && by[lo].number == num ? &by[lo] : NULL;
}

/* The flags of the parts shown: any rank's. */
static void or_flags(struct st_result *out, const struct st_result *r)
{
	out->fallback |= r->fallback;
	out->device_adjusted |= r->device_adjusted;
	out->has_kernel |= r->has_kernel;
	out->has_runtime |= r->has_runtime;
	out->has_memcpy_or_memset |= r->has_memcpy_or_memset;
	out->has_communication |= r->has_communication;
	out->has_nccl |= r->has_nccl;
	out->has_gloo |= r->has_gloo;
}

int df_set_steps(const struct st_result *const *rs, size_t n, struct st_result *out)
{
	memset(out, 0, sizeof *out);
	size_t total = 0;
	for (size_t k = 0; k < n; k++) {
		total += rs[k]->n;
		or_flags(out, rs[k]);
	}
	/* every rank's steps by number, one array after the other */
	struct num_idx *by = malloc((total ? total : 1) * sizeof *by);
	size_t *at = malloc((n + 1) * sizeof *at);
	out->steps = malloc((rs[0]->n ? rs[0]->n : 1) * sizeof *out->steps);
	if (!by || !at || !out->steps) {
		free(by);
		free(at);
		free(out->steps);
		out->steps = NULL;
		return -1;
	}
	at[0] = 0;
	for (size_t k = 0; k < n; k++) {
		for (size_t i = 0; i < rs[k]->n; i++)
			by[at[k] + i] = (struct num_idx){rs[k]->steps[i].number, i};
		if (rs[k]->n > 1)
			gp_qsort(by + at[k], rs[k]->n, sizeof *by, cmp_num);
		at[k + 1] = at[k] + rs[k]->n;
	}
	for (size_t i = 0; i < rs[0]->n; i++) {
		const struct st_step *slow = &rs[0]->steps[i];
		bool all = find_num(by, at[1], slow->number)->idx == i; /* its first */
		for (size_t k = 1; k < n && all; k++) {
			const struct num_idx *f = find_num(by + at[k], rs[k]->n, slow->number);
			all = f != NULL;
			if (f && rs[k]->steps[f->idx].cost[ST_TOTAL] > slow->cost[ST_TOTAL])
				slow = &rs[k]->steps[f->idx];
		}
		if (!all)
			continue;
		out->steps[out->n++] = *slow;
		for (int p = 0; p < ST_NPARTS; p++)
			out->sum[p] += slow->cost[p];
	}
	out->host_steps = out->n;
	free(by);
	free(at);
	return 0;
}

void df_set_ranks(const struct trace *const *ts, size_t n, int64_t *rank)
{
	bool own = true;
	for (size_t i = 0; i < n && own; i++) {
		own = ts[i]->meta.dist_rank != INT64_MIN;
		for (size_t k = 0; k < i && own; k++)
			own = ts[k]->meta.dist_rank != ts[i]->meta.dist_rank;
	}
	for (size_t i = 0; i < n; i++)
		rank[i] = own ? ts[i]->meta.dist_rank : (int64_t)i;
}

char *df_set_paths(const struct trace *const *ts, size_t n)
{
	size_t len = 1;
	for (size_t i = 0; i < n; i++)
		len += strlen(ts[i]->path) + 2;
	char *s = malloc(len);
	if (!s)
		return NULL;
	size_t at = 0;
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(ts[i]->path);
		if (i) {
			memcpy(s + at, ", ", 2);
			at += 2;
		}
		memcpy(s + at, ts[i]->path, l);
		at += l;
	}
	s[at] = 0;
	return s;
}
