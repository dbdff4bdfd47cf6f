/* stepseq: the steps' kernel sequences by a rolling hash; see stepseq.h. */
#include "hta/stepseq.h"

#include <stdlib.h>

#include "core/radix.h"
#include "trace/classify.h"

/* One launch pair: its call's start, the device event's name and the two
 * durations. */
struct ss_launch {
	int64_t ts;
	int64_t cpu_ns, gpu_ns;
	uint32_t name;
};

/* One step: its extent, then its sequence as it is folded. */
struct ss_step {
	int64_t ts, end;
	uint64_t hash, n;
	int64_t cpu_ns, gpu_ns;
	uint32_t first, last;
	uint32_t ord; /* by start */
};

static const struct rx_key by_ts[] = {RX_KEY(struct ss_launch, ts, RX_I64)};
static const struct rx_key step_by_ts[] = {RX_KEY(struct ss_step, ts, RX_I64)};
static const struct rx_key by_seq[] = {RX_KEY(struct ss_step, hash, RX_U64),
				       RX_KEY(struct ss_step, n, RX_U64),
				       RX_KEY(struct ss_step, ord, RX_U32)};

/* FNV-1a's prime: each name id is folded in as h = (h ^ (id + 1)) * P. */
#define SS_PRIME 0x100000001b3ULL
#define SS_BASIS 0xcbf29ce484222325ULL

static bool is_step(const struct trace *t, size_t r)
{
	return (t->ev.flags[r] & TRF_STEP) && t->ev.kind[r] != TR_GPU_USER_ANNOTATION &&
	       hta_row_kept(t, r) && hta_row_stream(t, r) == -1;
}

static int collect_steps(const struct trace *t, const struct hta_events *h, struct ss_step **out,
			 size_t *n)
{
	size_t cap = 0;
	for (size_t r = 0; r < t->ev.n; r++) {
		if (!is_step(t, r))
			continue;
		if (*n == cap) {
			size_t nc = cap ? 2 * cap : 64;
			struct ss_step *p = realloc(*out, nc * sizeof *p);
			if (!p)
				return -1;
			*out = p;
			cap = nc;
		}
		struct ss_step *s = &(*out)[(*n)++];
		*s = (struct ss_step){.hash = SS_BASIS};
		hta_row_times(t, h, r, &s->ts, &s->end);
	}
	if (rx_sort(*out, *n, sizeof **out, step_by_ts, 1))
		return -1;
	for (size_t i = 0; i < *n; i++)
		(*out)[i].ord = (uint32_t)i;
	return 0;
}

static int collect_launches(const struct trace *t, const struct hta_events *h,
			    const struct hta_launches *l, struct ss_launch **out)
{
	struct ss_launch *v = malloc((l->n ? l->n : 1) * sizeof *v);
	if (!v)
		return -1;
	for (size_t i = 0; i < l->n; i++) {
		int64_t a, b;
		hta_row_times(t, h, l->v[i].cpu_row, &a, &b);
		v[i] = (struct ss_launch){.ts = a,
					  .cpu_ns = l->v[i].cpu_ns,
					  .gpu_ns = l->v[i].gpu_ns,
					  .name = t->ev.name[l->v[i].gpu_row]};
	}
	*out = v;
	return rx_sort(v, l->n, sizeof *v, by_ts, 1);
}

/* Folds the launches (by start) into the steps (by start). */
static void fold(struct ss_step *s, size_t ns, const struct ss_launch *v, size_t nl)
{
	size_t j = 0;
	for (size_t i = 0; i < nl && j < ns; i++) {
		while (j < ns && s[j].end <= v[i].ts)
			j++;
		if (j == ns || v[i].ts < s[j].ts)
			continue;
		struct ss_step *p = &s[j];
		p->hash = (p->hash ^ ((uint64_t)v[i].name + 1)) * SS_PRIME;
		p->first = p->n++ ? p->first : v[i].name;
		p->last = v[i].name;
		p->cpu_ns += v[i].cpu_ns;
		p->gpu_ns += v[i].gpu_ns;
	}
}

/* The most frequent sequence among the steps of min_len launches or more
 * (s is reordered). */
static int top(struct ss_step *s, size_t ns, size_t min_len, struct hta_stepseq *out)
{
	size_t m = 0;
	for (size_t i = 0; i < ns; i++)
		if (s[i].n >= min_len)
			s[m++] = s[i];
	out->steps = m;
	if (rx_sort(s, m, sizeof *s, by_seq, 3))
		return -1;
	uint32_t best_ord = 0;
	for (size_t i = 0, k; i < m; i = k) {
		struct hta_stepseq g = {
		    .steps = m, .len = s[i].n, .first = s[i].first, .last = s[i].last};
		for (k = i; k < m && s[k].hash == s[i].hash && s[k].n == s[i].n; k++) {
			g.count++;
			g.cpu_ns += s[k].cpu_ns;
			g.gpu_ns += s[k].gpu_ns;
		}
		/* s[i] is the group's first step by start */
		if (g.count > out->count || (g.count == out->count && s[i].ord < best_ord)) {
			*out = g;
			best_ord = s[i].ord;
		}
	}
	return 0;
}

int hta_stepseq(const struct trace *t, const struct hta_events *h, const struct hta_launches *l,
		size_t min_len, struct hta_stepseq *out, struct err *e)
{
	*out = (struct hta_stepseq){0};
	struct ss_step *s = NULL;
	struct ss_launch *v = NULL;
	size_t ns = 0;
	int rc = collect_steps(t, h, &s, &ns);
	if (!rc && ns)
		rc = collect_launches(t, h, l, &v);
	if (!rc && ns) {
		fold(s, ns, v, l->n);
		rc = top(s, ns, min_len, out);
	}
	free(s);
	free(v);
	return rc ? err_set(e, ERR_NOMEM, t->path, -1, "out of memory") : 0;
}
