/* dist_fleet: the fleet tables (stragglers, skew, bandwidth, balance) of a
 * finished distributed view. See dist_fleet.h; the definitions are those
 * of docs/dist.md, "Fleet tables". */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/hmap.h"
#include "core/sort.h"
#include "tbprof/dist_fleet.h"

/* a + b, saturated at the int64 range: summaries are untrusted, and a
 * sum that does not fit is shown as the largest value rather than wrap. */
static int64_t sat_add(int64_t a, int64_t b)
{
	int64_t r;
	if (!__builtin_add_overflow(a, b, &r))
		return r;
	return b > 0 ? INT64_MAX : INT64_MIN;
}

static int64_t sat_mul(int64_t a, int64_t b)
{
	int64_t r;
	if (!__builtin_mul_overflow(a, b, &r))
		return r;
	return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
}

/* The running state of one instance while the workers are walked. */
struct acc {
	int64_t waits; /* Σ (last arrival - arrival), filled by the second pass */
	int64_t a_min, a_max, x_min, x_max, d_min, d_max;
	size_t first, last;
	int64_t ranks, step, bytes;
	size_t off, fill; /* its workers' cause values: cv[off .. off + fill) */
};

/* One worker's lead-in values at one instance (the straggler causes). */
struct cval {
	int64_t v[3]; /* compute, input, idle; -1 unknown */
	size_t worker;
};

/* Per distinct (name, process group): its instances, indexed by call
 * number, or by sequence number - base when every call has one. */
struct nacc {
	uint32_t name, pg;
	struct acc *v;
	size_t n, cap;
	int64_t next;  /* call counter of the worker being walked */
	size_t worker; /* the worker `next` counts for */
	int64_t calls; /* over every worker */
	int64_t seq_min, seq_max;
	bool seq_all; /* every call has a sequence number */
	bool by_seq;  /* instances keyed by sequence number */
};

struct walk {
	struct nacc *names;
	size_t n, cap;
	struct hmap map; /* (name, pg) -> index in names */
	struct cval *cv;
};

double dist_fleet_bus_factor(const char *name, int64_t n)
{
	char s[64];
	size_t k = 0;
	for (const char *p = name; *p && k + 1 < sizeof s; p++)
		if (isalnum((unsigned char)*p))
			s[k++] = (char)tolower((unsigned char)*p);
	s[k] = 0;
	const char *t = s;
	if (!strncmp(t, "nccl", 4) || !strncmp(t, "gloo", 4) || !strncmp(t, "c10d", 4))
		t += 4;
	double nn = (double)n;
	if (n < 1)
		return -1;
	if (!strncmp(t, "allreduce", 9))
		return 2 * (nn - 1) / nn;
	if (!strncmp(t, "allgather", 9) || !strncmp(t, "reducescatter", 13) ||
	    !strncmp(t, "alltoall", 8))
		return (nn - 1) / nn;
	if (!strncmp(t, "broadcast", 9) || !strncmp(t, "reduce", 6))
		return 1;
	return -1;
}

static bool is_gather(const char *name)
{
	return strstr(name, "gather") != NULL;
}

static struct nacc *name_of(struct walk *wk, uint32_t name, uint32_t pg)
{
	uint64_t key = hmap_int((int64_t)((uint64_t)name << 32 | pg));
	if (hmap_reserve(&wk->map, wk->n + 1))
		return NULL;
	uint32_t v;
	size_t slot = hmap_find(&wk->map, key, NULL, NULL, &v);
	if (v != HMAP_NONE)
		return &wk->names[v];
	if (wk->n == wk->cap) {
		size_t c = wk->cap ? 2 * wk->cap : 8;
		struct nacc *nv = realloc(wk->names, c * sizeof *nv);
		if (!nv)
			return NULL;
		wk->names = nv;
		wk->cap = c;
	}
	hmap_set(&wk->map, slot, key, (uint32_t)wk->n);
	struct nacc *na = &wk->names[wk->n++];
	memset(na, 0, sizeof *na);
	na->name = name;
	na->pg = pg;
	na->worker = SIZE_MAX;
	na->seq_all = true;
	return na;
}

static struct acc *inst_of(struct nacc *na, int64_t k)
{
	if ((size_t)k >= na->cap) {
		size_t c = na->cap ? 2 * na->cap : 64;
		while (c <= (size_t)k)
			c *= 2;
		struct acc *v = realloc(na->v, c * sizeof *v);
		if (!v)
			return NULL;
		na->v = v;
		na->cap = c;
	}
	while (na->n <= (size_t)k)
		memset(&na->v[na->n++], 0, sizeof *na->v);
	return &na->v[k];
}

static void acc_add(struct acc *c, size_t k, const struct dist_node *x, int64_t a, int64_t z)
{
	int64_t d = z - a;
	if (!c->ranks) {
		*c = (struct acc){.a_min = a,
				  .a_max = a,
				  .x_min = z,
				  .x_max = z,
				  .d_min = d,
				  .d_max = d,
				  .first = k,
				  .last = k,
				  .step = x->step,
				  .bytes = x->bytes};
	}
	if (a < c->a_min)
		c->a_min = a, c->first = k;
	if (a > c->a_max)
		c->a_max = a, c->last = k;
	c->x_min = z < c->x_min ? z : c->x_min;
	c->x_max = z > c->x_max ? z : c->x_max;
	c->d_min = d < c->d_min ? d : c->d_min;
	c->d_max = d > c->d_max ? d : c->d_max;
	c->ranks++;
}

/* The instance key of node x of worker k in na: its call number, or its
 * sequence number - seq_min. */
static int64_t call_of(struct nacc *na, size_t k, const struct dist_node *x)
{
	if (na->worker != k) {
		na->worker = k;
		na->next = 0;
	}
	int64_t call = na->next++;
	return na->by_seq ? x->seq - na->seq_min : call;
}

/* Which (name, group)s key their instances by sequence number: those whose
 * every call has one, over a span of numbers at most twice the calls (so
 * that the instances' array stays within the calls' size). */
static int seq_modes(const struct dist_result *d, struct walk *wk)
{
	for (size_t k = 0; k < d->n; k++)
		for (size_t i = 0; i < d->w[k].nnodes; i++) {
			const struct dist_node *x = &d->w[k].nodes[i];
			struct nacc *na = name_of(wk, x->name, x->pg);
			if (!na)
				return -1;
			if (x->seq < 0 || !x->pg)
				na->seq_all = false;
			else if (!na->calls++ || x->seq < na->seq_min)
				na->seq_min = x->seq;
			if (x->seq > na->seq_max)
				na->seq_max = x->seq;
		}
	for (size_t i = 0; i < wk->n; i++) {
		struct nacc *na = &wk->names[i];
		na->by_seq = na->seq_all && na->calls &&
			     (uint64_t)(na->seq_max - na->seq_min) < 2 * (uint64_t)na->calls;
		na->calls = 0;
	}
	return 0;
}

/* Walks every worker's nodes, numbering the calls of each name. pass 0
 * fills the instances; pass 1 adds each worker's wait to f->rank and its
 * cause values to wk->cv. */
static int walk(const struct dist_result *d, struct walk *wk, int pass, struct fleet_result *f)
{
	for (size_t i = 0; i < wk->n; i++)
		wk->names[i].worker = SIZE_MAX; /* every count starts again */
	for (size_t k = 0; k < d->n; k++) {
		const struct dist_worker *w = &d->w[k];
		for (size_t i = 0; i < w->nnodes; i++) {
			const struct dist_node *x = &w->nodes[i];
			struct nacc *na = name_of(wk, x->name, x->pg);
			if (!na)
				return -1;
			int64_t a, z;
			dist_node_times(w, x, &a, &z);
			int64_t call = call_of(na, k, x);
			if (pass == 0) {
				struct acc *c = inst_of(na, call);
				if (!c)
					return -1;
				acc_add(c, k, x, a, z);
				continue;
			}
			struct acc *c = &na->v[call];
			f->rank[k].instances++;
			f->rank[k].causes_unknown |= x->compute < 0;
			f->rank[k].waited = sat_add(f->rank[k].waited, c->a_max - a);
			c->waits = sat_add(c->waits, c->a_max - a);
			wk->cv[c->off + c->fill++] =
			    (struct cval){{x->compute, x->input, x->idle}, k};
		}
	}
	return 0;
}

/* Room for every instance's cause values: each instance's slice of cv. */
static int cause_slices(struct walk *wk)
{
	size_t at = 0;
	for (size_t i = 0; i < wk->n; i++)
		for (size_t k = 0; k < wk->names[i].n; k++) {
			struct acc *c = &wk->names[i].v[k];
			c->off = at;
			c->fill = 0;
			at += (size_t)c->ranks;
		}
	wk->cv = malloc((at ? at : 1) * sizeof *wk->cv);
	return wk->cv ? 0 : -1;
}

static int cmp_i64v(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return (a > b) - (a < b);
}

/* The causes of the last arrival at instance c (skew > 0): how much more
 * than the median of the instance's workers the last one computed, loaded
 * data and idled, added to its row. tmp: room for c->ranks values. */
static void add_causes(const struct walk *wk, const struct acc *c, struct fleet_rank *r,
		       int64_t *tmp)
{
	const struct cval *v = wk->cv + c->off, *me = NULL;
	for (size_t i = 0; i < c->fill; i++)
		if (v[i].worker == c->last)
			me = &v[i];
	if (!me || me->v[0] < 0) {
		r->causes_unknown = true;
		return;
	}
	for (int q = 0; q < 3; q++) {
		size_t n = 0;
		for (size_t i = 0; i < c->fill; i++)
			if (v[i].v[q] >= 0)
				tmp[n++] = v[i].v[q];
		if (n > 1)
			gp_qsort(tmp, n, sizeof *tmp, cmp_i64v);
		int64_t late = me->v[q] - tmp[(n - 1) / 2];
		if (late > 0)
			r->late[q] = sat_add(r->late[q], late);
	}
}

static int cmp_rank(const void *x, const void *y)
{
	const struct fleet_rank *a = x, *b = y;
	if (a->caused != b->caused)
		return a->caused > b->caused ? -1 : 1;
	if (a->last != b->last)
		return a->last > b->last ? -1 : 1;
	if (a->waited != b->waited)
		return a->waited < b->waited ? -1 : 1;
	return (a->worker > b->worker) - (a->worker < b->worker);
}

/* Instances keep their name's order of first appearance in `call`'s high
 * bits while sorting: order = name index << 32 | call. */
struct isort {
	struct fleet_inst v;
	uint64_t order;
};

static int cmp_inst(const void *x, const void *y)
{
	const struct isort *a = x, *b = y;
	if (a->v.arrival_skew != b->v.arrival_skew)
		return a->v.arrival_skew > b->v.arrival_skew ? -1 : 1;
	return (a->order > b->order) - (a->order < b->order);
}

static int cmp_coll(const void *x, const void *y)
{
	const struct fleet_coll *a = x, *b = y;
	if (a->arrival_sum != b->arrival_sum)
		return a->arrival_sum > b->arrival_sum ? -1 : 1;
	return (a->order > b->order) - (a->order < b->order);
}

static int64_t bucket_of(int64_t s)
{
	int64_t b = 1;
	if (s <= 0)
		return 0;
	while (b <= s / 2)
		b *= 2;
	return b;
}

static int add_bw(struct fleet_result *f, size_t *cap, const struct fleet_inst *in,
		  const char *name)
{
	int64_t s = sat_mul(in->bytes, is_gather(name) ? in->ranks : 1);
	int64_t b = bucket_of(s);
	size_t i = 0;
	for (; i < f->nbw; i++)
		if (f->bw[i].name == in->name && f->bw[i].bucket == b &&
		    f->bw[i].ranks == in->ranks)
			break;
	if (i == f->nbw) {
		if (f->nbw == *cap) {
			size_t c = *cap ? 2 * *cap : 16;
			struct fleet_bw *v = realloc(f->bw, c * sizeof *v);
			if (!v)
				return -1;
			f->bw = v;
			*cap = c;
		}
		f->bw[f->nbw++] =
		    (struct fleet_bw){.name = in->name,
				      .bucket = b,
				      .ranks = in->ranks,
				      .factor = dist_fleet_bus_factor(name, in->ranks)};
	}
	f->bw[i].instances++;
	f->bw[i].bytes = sat_add(f->bw[i].bytes, s);
	f->bw[i].time = sat_add(f->bw[i].time, in->transfer);
	return 0;
}

static int cmp_bw(const void *x, const void *y)
{
	const struct fleet_bw *a = x, *b = y;
	if (a->bucket != b->bucket)
		return a->bucket < b->bucket ? -1 : 1;
	return (a->ranks > b->ranks) - (a->ranks < b->ranks);
}

/* The instances, per-name and bandwidth rows from the walk's state. */
static int collect(const struct dist_result *d, const struct walk *wk, struct fleet_result *f)
{
	size_t n = 0, bwcap = 0;
	for (size_t i = 0; i < wk->n; i++)
		n += wk->names[i].n;
	struct isort *v = malloc((n ? n : 1) * sizeof *v);
	int64_t *tmp = malloc((d->n ? d->n : 1) * sizeof *tmp);
	f->inst = malloc((n ? n : 1) * sizeof *f->inst);
	f->coll = calloc(wk->n ? wk->n : 1, sizeof *f->coll);
	if (!v || !tmp || !f->inst || !f->coll) {
		free(v);
		free(tmp);
		return -1;
	}
	size_t at = 0;
	for (size_t i = 0; i < wk->n; i++) {
		const struct nacc *na = &wk->names[i];
		struct fleet_coll *fc = &f->coll[f->ncoll++];
		fc->name = na->name;
		fc->pg = na->pg;
		fc->order = i;
		size_t bw0 = f->nbw;
		for (size_t k = 0; k < na->n; k++) {
			const struct acc *c = &na->v[k];
			if (!c->ranks)
				continue; /* a sequence number no worker has */
			struct fleet_inst in = {.name = na->name,
						.pg = na->pg,
						.call = na->by_seq ? na->seq_min + (int64_t)k
								   : (int64_t)k,
						.step = c->step,
						.ranks = c->ranks,
						.arrival_skew = c->a_max - c->a_min,
						.exit_skew = c->x_max - c->x_min,
						.spread = c->d_max - c->d_min,
						.first = c->first,
						.last = c->last,
						.bytes = c->bytes,
						.transfer = c->d_min};
			v[at++] = (struct isort){in, (uint64_t)i << 32 | k};
			fc->instances++;
			fc->arrival_sum = sat_add(fc->arrival_sum, in.arrival_skew);
			fc->exit_sum = sat_add(fc->exit_sum, in.exit_skew);
			fc->arrival_max =
			    in.arrival_skew > fc->arrival_max ? in.arrival_skew : fc->arrival_max;
			fc->exit_max = in.exit_skew > fc->exit_max ? in.exit_skew : fc->exit_max;
			fc->spread_max = in.spread > fc->spread_max ? in.spread : fc->spread_max;
			if (in.arrival_skew > 0) {
				struct fleet_rank *r = &f->rank[c->last];
				r->last++;
				r->caused = sat_add(r->caused, c->waits);
				add_causes(wk, c, r, tmp);
			}
			if (in.transfer > 0 &&
			    add_bw(f, &bwcap, &in, strpool_get(&d->pool, na->name))) {
				free(v);
				free(tmp);
				return -1;
			}
		}
		if (f->nbw - bw0 > 1)
			gp_qsort(f->bw + bw0, f->nbw - bw0, sizeof *f->bw, cmp_bw);
	}
	free(tmp);
	n = at;
	if (n > 1)
		gp_qsort(v, n, sizeof *v, cmp_inst);
	for (size_t i = 0; i < n; i++)
		f->inst[i] = v[i].v;
	f->ninst = n;
	free(v);
	if (f->ncoll > 1)
		gp_qsort(f->coll, f->ncoll, sizeof *f->coll, cmp_coll);
	return 0;
}

struct stime {
	int64_t step, t;
	size_t worker;
};

static int cmp_stime(const void *x, const void *y)
{
	const struct stime *a = x, *b = y;
	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return (a->worker > b->worker) - (a->worker < b->worker);
}

static int cmp_mean(const void *x, const void *y)
{
	const struct stime *a = x, *b = y;
	if (a->t != b->t)
		return a->t > b->t ? -1 : 1;
	return (a->worker > b->worker) - (a->worker < b->worker);
}

static int64_t step_time(const struct dist_overlap *o)
{
	return sat_add(sat_add(o->v[0], o->v[1]), sat_add(o->v[2], o->v[3]));
}

/* balance rows and each worker's mean step and its rank. */
static int balance(const struct dist_result *d, struct fleet_result *f)
{
	size_t n = 0;
	for (size_t k = 0; k < d->n; k++)
		n += d->w[k].nsteps;
	struct stime *v = malloc((n ? n : 1) * sizeof *v);
	struct stime *m = malloc((d->n ? d->n : 1) * sizeof *m);
	f->step = malloc((n ? n : 1) * sizeof *f->step);
	if (!v || !m || !f->step) {
		free(v);
		free(m);
		return -1;
	}
	size_t at = 0, nm = 0;
	for (size_t k = 0; k < d->n; k++) {
		const struct dist_worker *w = &d->w[k];
		int64_t sum = 0;
		for (size_t i = 0; i < w->nsteps; i++) {
			int64_t t = step_time(&w->overlap[i]);
			v[at++] = (struct stime){w->overlap[i].step, t, k};
			sum = sat_add(sum, t);
		}
		f->rank[k].step_mean = w->nsteps ? sum / (int64_t)w->nsteps : -1;
		if (w->nsteps)
			m[nm++] = (struct stime){0, f->rank[k].step_mean, k};
	}
	if (nm > 1)
		gp_qsort(m, nm, sizeof *m, cmp_mean);
	for (size_t i = 0; i < nm; i++) /* equal means share the better rank */
		f->rank[m[i].worker].step_rank =
		    i && m[i].t == m[i - 1].t ? f->rank[m[i - 1].worker].step_rank : (int64_t)i + 1;
	if (n > 1)
		gp_qsort(v, n, sizeof *v, cmp_stime);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && v[j].step == v[i].step; j++)
			;
		size_t hi = j - 1; /* the first worker of those with the longest step */
		while (hi > i && v[hi - 1].t == v[j - 1].t)
			hi--;
		f->step[f->nstep++] = (struct fleet_step){.step = v[i].step,
							  .ranks = (int64_t)(j - i),
							  .min = v[i].t,
							  .median = v[i + (j - i - 1) / 2].t,
							  .max = v[j - 1].t,
							  .min_worker = v[i].worker,
							  .max_worker = v[hi].worker};
	}
	free(v);
	free(m);
	return 0;
}

int dist_fleet(const struct dist_result *d, struct fleet_result *f, struct err *e)
{
	memset(f, 0, sizeof *f);
	struct walk wk = {0};
	f->rank = calloc(d->n ? d->n : 1, sizeof *f->rank);
	int rc = f->rank ? 0 : -1;
	for (size_t k = 0; !rc && k < d->n; k++)
		f->rank[k].worker = k;
	f->nrank = d->n;
	if (!rc)
		rc = seq_modes(d, &wk);
	if (!rc)
		rc = walk(d, &wk, 0, f);
	if (!rc)
		rc = cause_slices(&wk);
	if (!rc)
		rc = walk(d, &wk, 1, f);
	if (!rc)
		rc = collect(d, &wk, f);
	if (!rc)
		rc = balance(d, f);
	for (size_t i = 0; i < wk.n; i++)
		free(wk.names[i].v);
	free(wk.names);
	free(wk.cv);
	hmap_free(&wk.map);
	if (!rc && f->nrank > 1)
		gp_qsort(f->rank, f->nrank, sizeof *f->rank, cmp_rank);
	if (rc) {
		dist_fleet_free(f);
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	}
	return 0;
}

void dist_fleet_free(struct fleet_result *f)
{
	free(f->rank);
	free(f->inst);
	free(f->coll);
	free(f->bw);
	free(f->step);
	memset(f, 0, sizeof *f);
}

const char *dist_fleet_cause(const struct fleet_rank *r)
{
	static const char *const names[] = {"compute", "input", "launch", "other"};
	if (!r->last || r->causes_unknown)
		return NULL;
	int best = FLEET_CAUSE_OTHER;
	for (int q = 0; q < 3; q++)
		if (r->late[q] > 0 && (best == FLEET_CAUSE_OTHER || r->late[q] > r->late[best]))
			best = q;
	return names[best];
}
