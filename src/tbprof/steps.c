/* steps: step detection, role ranges and the priority breakdown; see
 * steps.h. Every pass is linear over the events; sorting (steps, runtimes,
 * role ranges, collective ids) makes the whole n log n. */
#include "core/cmp.h"
#include "core/radix.h"
#include "core/sort.h"
#include "tbprof/steps.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tbprof/ranges.h"
#include "tbprof/tbtime.h"

static const char *const part_keys[] = {
#define X(id, key, title) key,
    ST_PARTS(X)
#undef X
};
static const char *const part_titles[] = {
#define X(id, key, title) title,
    ST_PARTS(X)
#undef X
};

const char *st_part_key(enum st_part p)
{
	return (unsigned)p < ST_NPARTS ? part_keys[p] : "?";
}

const char *st_part_title(enum st_part p)
{
	return (unsigned)p < ST_NPARTS ? part_titles[p] : "?";
}

/* Scratch state of one computation. */
struct ctx {
	const struct trace *t;
	const struct tr_links *l;
	bool compat;
	/* under compat on timestamps below 2^49 µs, times count in units of
	 * 2^unit µs (tb's floats exactly, tbtime.h) until to_ns; else 0 (ns) */
	int unit;
	int64_t *coll_ids; /* external ids of collective ops, sorted, unique */
	size_t ncoll;
	uint8_t *matched;	  /* device rows launched inside a step */
	uint32_t *by_role;	  /* the rows of each role, in row order: role k's */
	size_t at[ST_NROLES + 1]; /* are by_role[at[k] .. at[k + 1]) */
};

/* An event's start and end as the mode sees them (tbtime.h). */
static inline __attribute__((always_inline)) int64_t start_of(const struct ctx *c, size_t r)
{
	if (c->unit)
		return tb_unit_start(c->t, r, c->unit);
	return tb_span(c->t, r, c->compat).start;
}

static inline __attribute__((always_inline)) int64_t end_of(const struct ctx *c, size_t r)
{
	if (c->unit)
		return tb_unit_end(c->t, r, c->unit);
	return tb_span_clamped(c->t, r, c->compat).end;
}

/* User annotations of the kinds the mode reads. */
static inline __attribute__((always_inline)) bool is_annotation(const struct ctx *c, enum tr_kind k)
{
	return k == TR_USER_ANNOTATION || (c->compat && k == TR_GPU_USER_ANNOTATION);
}

static inline __attribute__((always_inline)) bool is_step_event(const struct ctx *c, size_t r)
{
	enum tr_kind k = c->t->ev.kind[r];
	return c->t->ev.ph[r] == 'X' && (c->t->ev.flags[r] & TRF_STEP) &&
	       (k == TR_CPU_OP || is_annotation(c, k));
}

static enum tr_coll collective(const struct trace *t, size_t r)
{
	enum tr_kind k = t->ev.kind[r];
	/* TRF_COMM covers every nccl:/gloo: name of host ops; python events
	 * carry no name flags */
	if (k != TR_PYTHON && !(t->ev.flags[r] & TRF_COMM))
		return TR_COLL_NONE;
	uint32_t id = t->ev.name[r];
	return tr_tb_collective(tr_str(t, id), strpool_len(&t->pool, id));
}

static bool is_coll_id(const struct ctx *c, int64_t id)
{
	return c->ncoll && bsearch(&id, c->coll_ids, c->ncoll, sizeof id, cmp_i64);
}

/* The role of event r, or -1 for none (steps, python_function, others). */
static int role_of(const struct ctx *c, size_t r)
{
	const struct trace *t = c->t;
	enum tr_kind k = t->ev.kind[r];
	switch (k) {
	case TR_KERNEL:
		return is_coll_id(c, tr_ext_id(t, r)) ? ST_COMM : ST_KERNEL;
	case TR_MEMCPY:
		return ST_MEMCPY;
	case TR_MEMSET:
		return ST_MEMSET;
	case TR_RUNTIME:
		return ST_RUNTIME;
	case TR_PYTHON:
		return collective(t, r) ? ST_COMM : ST_CPU_EXEC;
	default:
		break;
	}
	if (k != TR_CPU_OP && !is_annotation(c, k))
		return -1;
	if (t->ev.flags[r] & TRF_DATALOADER)
		return ST_DATALOADER;
	if (t->ev.flags[r] & TRF_STEP)
		return -1;
	return collective(t, r) ? ST_COMM : ST_CPU_EXEC;
}

/* Collective ops: their external ids make kernels Communication. */
static int collect_coll(struct ctx *c, struct st_result *out)
{
	const struct trace *t = c->t;
	size_t n = 0, cap = 0;
	for (size_t r = 0; r < t->ev.n; r++) {
		enum tr_kind k = t->ev.kind[r];
		if (t->ev.ph[r] != 'X' ||
		    !(k == TR_CPU_OP || k == TR_PYTHON || is_annotation(c, k)))
			continue;
		enum tr_coll lib = collective(t, r);
		if (!lib)
			continue;
		out->has_nccl |= lib == TR_COLL_NCCL;
		out->has_gloo |= lib == TR_COLL_GLOO;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			int64_t *p = realloc(c->coll_ids, cap * sizeof *p);
			if (!p)
				return -1;
			c->coll_ids = p;
		}
		c->coll_ids[n++] = tr_ext_id(t, r); /* -1 (absent) included, as None is */
	}
	if (n > 1)
		gp_qsort(c->coll_ids, n, sizeof *c->coll_ids, cmp_i64);
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		if (!u || c->coll_ids[u - 1] != c->coll_ids[i])
			c->coll_ids[u++] = c->coll_ids[i];
	c->ncoll = u;
	return 0;
}

struct row_ts {
	int64_t ts;
	uint32_t row;
};

static const struct rx_key by_ts_row[] = {RX_KEY(struct row_ts, ts, RX_I64),
					  RX_KEY(struct row_ts, row, RX_U32)};

/* Rows matching keep(), sorted by (ts, row): the reference's stable sort
 * by ts of events in input order. (Inlined, so that keep is too: its two
 * passes run over every row.) */
static inline __attribute__((always_inline)) struct row_ts *
sorted_rows(const struct ctx *c, bool (*keep)(const struct ctx *, size_t), size_t *n)
{
	const struct trace *t = c->t;
	size_t k = 0;
	for (size_t r = 0; r < t->ev.n; r++)
		k += keep(c, r);
	struct row_ts *v = malloc((k ? k : 1) * sizeof *v);
	if (!v)
		return NULL;
	k = 0;
	for (size_t r = 0; r < t->ev.n; r++)
		if (keep(c, r))
			v[k++] = (struct row_ts){start_of(c, r), (uint32_t)r};
	if (rx_sort(v, k, sizeof *v, by_ts_row, 2)) {
		free(v);
		return NULL;
	}
	*n = k;
	return v;
}

static bool is_runtime(const struct ctx *c, size_t r)
{
	return c->t->ev.ph[r] == 'X' && c->t->ev.kind[r] == TR_RUNTIME;
}

static bool is_device_x(const struct trace *t, size_t r)
{
	return t->ev.ph[r] == 'X' && tr_is_device(t->ev.kind[r]);
}

/* §5.1 steps 1 (host ranges, or the CPU-span fallback). */
static int host_steps(struct ctx *c, struct st_result *out)
{
	const struct trace *t = c->t;
	size_t n;
	struct row_ts *v = sorted_rows(c, is_step_event, &n);
	if (!v)
		return -1;
	if (!n) {
		int64_t lo = INT64_MAX, hi = INT64_MIN;
		for (size_t r = 0; r < t->ev.n; r++) {
			enum tr_kind k = t->ev.kind[r];
			if (t->ev.ph[r] != 'X' || (k != TR_CPU_OP && k != TR_PYTHON))
				continue;
			lo = start_of(c, r) < lo ? start_of(c, r) : lo;
			hi = end_of(c, r) > hi ? end_of(c, r) : hi;
		}
		free(v);
		out->fallback = true;
		if (lo == INT64_MAX)
			return 0; /* nothing on the host: no step at all */
		out->steps = calloc(1, sizeof *out->steps);
		if (!out->steps)
			return -1;
		out->steps[0] = (struct st_step){.number = 0, .host_start = lo, .host_end = hi};
		out->n = 1;
		return 0;
	}
	out->steps = calloc(n, sizeof *out->steps);
	if (!out->steps) {
		free(v);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		size_t r = v[i].row;
		uint32_t id = t->ev.name[r];
		out->steps[i].number = tr_step_number(tr_str(t, id), strpool_len(&t->pool, id));
		out->steps[i].host_start = start_of(c, r);
		out->steps[i].host_end = end_of(c, r);
	}
	out->n = n;
	free(v);
	return 0;
}

/* §5.1 steps 2-3: device adjustment and tail trimming. */
static int device_adjust(struct ctx *c, struct st_result *out)
{
	const struct trace *t = c->t;
	const struct tr_links *l = c->l;
	size_t ns = out->n, nrt;
	struct st_step *s = out->steps;
	struct row_ts *rt = sorted_rows(c, is_runtime, &nrt);
	int64_t *dmin = malloc(ns * sizeof *dmin), *dmax = malloc(ns * sizeof *dmax);
	c->matched = calloc(t->ev.n ? t->ev.n : 1, 1);
	if (!rt || !dmin || !dmax || !c->matched) {
		free(rt);
		free(dmin);
		free(dmax);
		return -1;
	}
	bool any = false;
	size_t is = 0, ir = 0;
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	while (is < ns && ir < nrt) {
		size_t r = rt[ir].row;
		int64_t rs = start_of(c, r), re = end_of(c, r);
		if (rs < s[is].host_start) {
			ir++; /* before the step, or crossing its start */
		} else if (re <= s[is].host_end) {
			size_t nd;
			const uint32_t *devs = tr_links_devices(l, r, &nd);
			for (size_t k = 0; k < nd; k++) {
				uint32_t d = devs[k];
				if (!is_device_x(t, d))
					continue;
				lo = start_of(c, d) < lo ? start_of(c, d) : lo;
				hi = end_of(c, d) > hi ? end_of(c, d) : hi;
				c->matched[d] = 1;
				s[is].devices++;
				any = true;
			}
			ir++;
		} else if (rs < s[is].host_end) {
			ir++; /* crosses the step's end */
		} else {
			dmin[is] = lo;
			dmax[is] = hi;
			is++;
			lo = INT64_MAX;
			hi = INT64_MIN;
		}
	}
	for (; is < ns; is++) {
		dmin[is] = lo;
		dmax[is] = hi;
		lo = INT64_MAX;
		hi = INT64_MIN;
	}
	free(rt);
	for (size_t i = 0; i < ns; i++) {
		s[i].start = s[i].host_start;
		s[i].end = s[i].host_end;
	}
	if (any) {
		/* a kernel from before the window still running delays step 0 */
		int64_t prev = s[0].host_start;
		if (dmin[0] != INT64_MAX)
			for (size_t r = 0; r < t->ev.n; r++)
				if (is_device_x(t, r) && !c->matched[r] && end_of(c, r) < dmin[0] &&
				    end_of(c, r) > prev)
					prev = end_of(c, r);
		for (size_t i = 0; i < ns; i++) {
			int64_t start = prev > s[i].host_start ? prev : s[i].host_start;
			int64_t end = s[i].host_end;
			if (dmin[i] == INT64_MAX) {
				end = end > start ? end : start;
			} else {
				end = end > dmax[i] ? end : dmax[i];
				if (end < start)
					end = start;
			}
			s[i].start = start;
			s[i].end = end;
			prev = end;
		}
		out->device_adjusted = true;
	}
	free(dmin);
	free(dmax);
	out->host_steps = ns;
	if (any && ns > 1) {
		size_t i = ns;
		while (i > 0 && !s[i - 1].devices)
			i--;
		if (i > 0) { /* i - 1 is the last step with device work */
			size_t keep = i;
			if (i > 1 && (double)s[i - 2].devices * 0.8 > (double)s[i - 1].devices)
				keep = i - 1;
			out->n = keep;
		}
	}
	return 0;
}

/* §5.2: the role of every event, once, and the rows of each role (a
 * counting sort by role that keeps the row order). */
static int assign_roles(struct ctx *c)
{
	const struct trace *t = c->t;
	uint8_t *role = malloc(t->ev.n ? t->ev.n : 1);
	c->by_role = malloc((t->ev.n ? t->ev.n : 1) * sizeof *c->by_role);
	if (!role || !c->by_role) {
		free(role);
		return -1;
	}
	size_t count[ST_NROLES + 1] = {0};
	for (size_t r = 0; r < t->ev.n; r++) {
		int k = t->ev.ph[r] == 'X' ? role_of(c, r) : -1;
		role[r] = k < 0 ? ST_NROLES : (uint8_t)k; /* ST_NROLES: none */
		count[role[r]]++;
	}
	c->at[0] = 0;
	for (int k = 0; k < ST_NROLES; k++)
		c->at[k + 1] = c->at[k] + count[k];
	size_t fill[ST_NROLES + 1];
	memcpy(fill, c->at, sizeof fill);
	for (size_t r = 0; r < t->ev.n; r++)
		if (role[r] < ST_NROLES)
			c->by_role[fill[role[r]]++] = (uint32_t)r;
	free(role);
	return 0;
}

/* The merged list of one role. */
static int role_list(const struct ctx *c, int k, struct rg_vec *out)
{
	out->n = 0;
	if (rg_reserve(out, c->at[k + 1] - c->at[k]))
		return -1;
	for (size_t i = c->at[k]; i < c->at[k + 1]; i++) {
		size_t r = c->by_role[i];
		out->v[out->n++] = (struct rg){start_of(c, r), end_of(c, r)};
	}
	rg_sort(out->v, out->n);
	out->n = rg_merge(out->v, out->n);
	return 0;
}

/* Adds |cost ∩ step| to every step's part k. */
static int add_part(struct st_result *out, int k, const struct rg_vec *cost)
{
	struct rg_index ix;
	if (rg_index_build(&ix, cost->v, cost->n))
		return -1;
	for (size_t i = 0; i < out->n; i++) {
		struct st_step *s = &out->steps[i];
		s->cost[k] = rg_measure(&ix, s->start, s->end);
		out->sum[k] += s->cost[k];
	}
	rg_index_free(&ix);
	return 0;
}

/* §5.2-§5.3, one role at a time in priority order (so only one role list
 * is held at once): each role takes what the higher ones left of the
 * union of the steps ("slots"). As in the reference, when nothing is left
 * the next role takes its whole list and the slots restart from the
 * union. The role lists are built even without steps, for the has_*
 * flags. */
static int breakdown(struct ctx *c, struct st_result *out)
{
	struct rg_vec role = {0}, cost = {0}, slots = {0}, tmp = {0};
	int rc = -1;
	for (int k = 0; k < ST_NROLES; k++) {
		if (role_list(c, k, &role))
			goto done;
		bool any = role.n > 0;
		out->has_kernel |= k == ST_KERNEL && any;
		out->has_runtime |= k == ST_RUNTIME && any;
		out->has_memcpy_or_memset |= (k == ST_MEMCPY || k == ST_MEMSET) && any;
		out->has_communication |= k == ST_COMM && any;
		if (!out->n)
			continue;
		if (slots.n) {
			if (rg_intersect(slots.v, slots.n, role.v, role.n, &cost))
				goto done;
		} else {
			struct rg_vec sw = cost; /* the whole role list */
			cost = role;
			role = sw;
			if (rg_reserve(&slots, out->n))
				goto done;
			for (size_t i = 0; i < out->n; i++)
				slots.v[slots.n++] =
				    (struct rg){out->steps[i].start, out->steps[i].end};
			rg_sort(slots.v, slots.n);
			slots.n = rg_merge(slots.v, slots.n);
		}
		if (rg_subtract(slots.v, slots.n, cost.v, cost.n, &tmp) || add_part(out, k, &cost))
			goto done;
		struct rg_vec sw = slots;
		slots = tmp;
		tmp = sw;
	}
	if (out->n && add_part(out, ST_OTHER, &slots))
		goto done;
	for (size_t i = 0; i < out->n; i++) {
		out->steps[i].cost[ST_TOTAL] = out->steps[i].end - out->steps[i].start;
		out->sum[ST_TOTAL] += out->steps[i].cost[ST_TOTAL];
	}
	rc = 0;
done:
	rg_vec_free(&role);
	rg_vec_free(&cost);
	rg_vec_free(&slots);
	rg_vec_free(&tmp);
	return rc;
}

/* §5.1: where the steps are; c->matched is gone afterwards. */
static int find_steps(struct ctx *c, struct st_result *out)
{
	int rc = host_steps(c, out);
	if (!rc && out->n)
		rc = device_adjust(c, out);
	free(c->matched);
	c->matched = NULL;
	return rc;
}

/* The result's times from tb's float units to ns: the ranges to the
 * nearest ns, the parts as tb shows them (tb_ns_shown) with their floats
 * kept for the averages. */
static void to_ns(const struct ctx *c, struct st_result *out)
{
	if (!c->unit)
		return;
	out->tb_floats = true;
	memset(out->sum, 0, sizeof out->sum);
	for (size_t i = 0; i < out->n; i++) {
		struct st_step *s = &out->steps[i];
		int64_t *times[] = {&s->start, &s->end, &s->host_start, &s->host_end};
		for (size_t k = 0; k < sizeof times / sizeof *times; k++)
			*times[k] = llround(tb_unit_us(*times[k], c->unit) * 1000.0);
		for (int p = 0; p < ST_NPARTS; p++) {
			s->tb_us[p] = tb_unit_us(s->cost[p], c->unit);
			s->cost[p] = tb_ns_shown(s->tb_us[p]);
			out->sum[p] += s->cost[p];
		}
	}
}

static int steps_failed(const struct trace *t, struct st_result *out, struct err *e)
{
	st_free(out);
	return err_set(e, ERR_NOMEM, t->path, -1, "out of memory computing steps");
}

int st_bounds(const struct trace *t, const struct tr_links *l, const struct st_opts *o,
	      struct st_result *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	struct ctx c = {.t = t, .l = l, .compat = o && o->tb_compat};
	c.unit = c.compat ? tb_unit(t) : 0;
	if (find_steps(&c, out))
		return steps_failed(t, out, e);
	to_ns(&c, out);
	return 0;
}

int st_compute(const struct trace *t, const struct tr_links *l, const struct st_opts *o,
	       struct st_result *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	struct ctx c = {.t = t, .l = l, .compat = o && o->tb_compat};
	c.unit = c.compat ? tb_unit(t) : 0;
	int rc = find_steps(&c, out);
	if (!rc)
		rc = collect_coll(&c, out);
	if (!rc)
		rc = assign_roles(&c);
	if (!rc)
		rc = breakdown(&c, out);
	free(c.coll_ids);
	free(c.by_role);
	if (rc)
		return steps_failed(t, out, e);
	to_ns(&c, out);
	return 0;
}

void st_free(struct st_result *r)
{
	free(r->steps);
	memset(r, 0, sizeof *r);
}

int64_t st_avg_ns(const struct st_result *r, enum st_part p)
{
	if (!r->n)
		return 0;
	if (r->tb_floats)
		return tb_ns_shown(st_avg_us(r, p));
	int64_t n = (int64_t)r->n, q = r->sum[p] / n, rem = r->sum[p] % n;
	if (rem < 0) { /* floor division */
		q--;
		rem += n;
	}
	if (2 * rem > n || (2 * rem == n && (q & 1)))
		q++;
	return q;
}

double st_avg_us(const struct st_result *r, enum st_part p)
{
	if (r->n && r->tb_floats) { /* tb's float sum in step order */
		double s = 0;
		for (size_t i = 0; i < r->n; i++)
			s += r->steps[i].tb_us[p];
		return s / (double)r->n;
	}
	return r->n ? (double)r->sum[p] / 1000.0 / (double)r->n : 0.0;
}

bool st_part_shown(const struct st_result *r, enum st_part p)
{
	bool gpu = r->has_runtime || r->has_kernel || r->has_memcpy_or_memset;
	switch (p) {
	case ST_KERNEL:
	case ST_MEMCPY:
	case ST_MEMSET:
	case ST_RUNTIME:
		return gpu;
	case ST_COMM:
		return r->has_communication;
	default:
		return true;
	}
}
