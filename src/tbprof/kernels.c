/* kernels: the Kernel view's groups; see kernels.h. One pass over the
 * kernel events (by name) or over the tree's runtimes (by kernel + op),
 * a hash lookup per kernel, then one sort. */
#include "core/radix.h"
#include "core/sort.h"
#include "tbprof/kernels.h"
#include "tbprof/tbtime.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/hmap.h"

/* The operator-name part of the kernel + op key: the name's string id, a
 * mark for the roots ("CallTreeRoot"), or none ("N/A"). */
#define OP_ROOT (UINT32_MAX - 1)
#define OP_NONE UINT32_MAX

struct kgroup {
	const struct trace *t;
	bool tb_compat;
	const struct optree *o; /* NULL: by name without a tree (no Tensor Core marks) */
	struct kern_view *v;
	struct hmap map;
	size_t cap;
	double *acc; /* by kernel + op: per row, running sums of bps x dur, occ x dur, dur */
	enum kern_group group;
	bool means; /* by name: the weighted means (in time order) wanted */
	/* the key sought */
	const struct tr_gpu_arg *g;
	uint32_t name, op;
};

static uint32_t op_key(const struct optree *o, uint32_t node)
{
	if (node == OPT_NIL)
		return OP_NONE;
	return o->nodes[node].cls == OPC_ROOT ? OP_ROOT : o->nodes[node].name;
}

/* tb keys registers and shared memory as str(x or '0'): absent = 0. */
static int32_t zero_absent(int32_t x)
{
	return x < 0 ? 0 : x;
}

static bool key_eq(const void *ctx, uint32_t i)
{
	const struct kgroup *k = ctx;
	const struct kern_row *r = &k->v->rows[i];
	if (r->name != k->name)
		return false;
	if (k->group == KERN_BY_NAME)
		return true;
	return op_key(k->o, r->op) == k->op && !memcmp(r->grid, k->g->grid, sizeof r->grid) &&
	       !memcmp(r->block, k->g->block, sizeof r->block) &&
	       zero_absent(r->regs) == zero_absent(k->g->regs) &&
	       zero_absent(r->shared_mem) == zero_absent(k->g->shared_mem);
}

static const struct tr_gpu_arg no_args = {.device = -1,
					  .stream = -1,
					  .grid = {-1, -1, -1},
					  .block = {-1, -1, -1},
					  .regs = -1,
					  .shared_mem = -1,
					  .wait_stream = -1,
					  .bytes = -1,
					  .wait_corr = TR_NO_WAIT,
					  .blocks_per_sm = NAN,
					  .occupancy = NAN,
					  .mem_bw_gbps = NAN};

static const struct tr_gpu_arg *gpu_args(const struct trace *t, uint32_t row)
{
	uint32_t aux = t->ev.aux[row];
	return aux != TR_NONE && aux < t->gpu.n ? &t->gpu.v[aux] : &no_args;
}

/* numpy's sum of a float64 array (pairwise_sum in its add reduction), so
 * the weighted means round as tb's np.average results do. */
static double np_sum(const double *a, size_t n)
{
	if (n < 8) {
		double r = 0.;
		for (size_t i = 0; i < n; i++)
			r += a[i];
		return r;
	}
	if (n <= 128) {
		double r[8];
		size_t i;
		for (i = 0; i < 8; i++)
			r[i] = a[i];
		for (i = 8; i < n - n % 8; i += 8)
			for (size_t j = 0; j < 8; j++)
				r[j] += a[i + j];
		double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
		for (; i < n; i++)
			res += a[i];
		return res;
	}
	size_t n2 = n / 2;
	n2 -= n2 % 8;
	return np_sum(a, n2) + np_sum(a + n2, n - n2);
}

/* x with tb's "missing counts 0" (float(x or 0), fillna(0)). */
static double or0(double x)
{
	return isnan(x) ? 0.0 : x;
}

/* Adds kernel row to its group; *gi = the group's index. */
static int add_kernel(struct kgroup *k, uint32_t row, uint32_t node, uint32_t *gi)
{
	const struct optree *o = k->o;
	const struct trace *t = k->t;
	struct kern_view *v = k->v;
	const struct tr_gpu_arg *g = gpu_args(t, row);
	k->g = g;
	k->name = t->ev.name[row];
	k->op = op_key(o, node);
	uint64_t h = hmap_hash(k->name);
	if (k->group == KERN_BY_NAME_OP) {
		uint64_t x = (uint64_t)k->op << 32 ^ (uint32_t)zero_absent(g->regs);
		for (int i = 0; i < 3; i++)
			x = x * 1000003u ^ (uint32_t)g->grid[i] ^
			    (uint64_t)(uint32_t)g->block[i] << 29;
		h ^= hmap_hash(x ^ (uint64_t)(uint32_t)zero_absent(g->shared_mem) << 40);
		h |= 1;
	}
	uint32_t i = hmap_get(&k->map, h, key_eq, k);
	if (i == UINT32_MAX) {
		if (v->n == k->cap) {
			size_t cap = k->cap ? k->cap * 2 : 64;
			struct kern_row *nr = realloc(v->rows, cap * sizeof *nr);
			if (!nr)
				return -1;
			v->rows = nr;
			k->cap = cap;
		}
		i = (uint32_t)v->n++;
		struct kern_row *r = &v->rows[i];
		*r = (struct kern_row){.name = k->name,
				       .op = node,
				       .regs = g->regs,
				       .shared_mem = g->shared_mem,
				       .min = INT64_MAX,
				       .tc_used = o && optree_tc_kernel(o, k->name)};
		memcpy(r->grid, g->grid, sizeof r->grid);
		memcpy(r->block, g->block, sizeof r->block);
		if (node != OPT_NIL) {
			const struct optree_node *nd = &o->nodes[node];
			r->op_tc_eligible =
			    nd->cls != OPC_ROOT &&
			    tr_op_tc_eligible(tr_str(t, nd->name), strpool_len(&t->pool, nd->name),
					      o->opts.tb_compat);
		}
		if (hmap_put(&k->map, h, i))
			return -1;
		if (k->group == KERN_BY_NAME_OP) {
			double *na = realloc(k->acc, k->cap * 3 * sizeof *na);
			if (!na)
				return -1;
			k->acc = na;
			k->acc[3 * i] = k->acc[3 * i + 1] = k->acc[3 * i + 2] = 0;
		}
	}
	*gi = i;
	struct kern_row *r = &v->rows[i];
	/* by kernel + op tb sums end - start (its floats under tb_compat), by
	 * name the `dur` as written */
	bool by_op = k->group == KERN_BY_NAME_OP;
	double d = by_op ? tb_fdur(t, row) : 0;
	/* under tb_compat its float as tb shows it (tbprof/tbtime.h) */
	int64_t dur = by_op && o->opts.tb_compat ? tb_ns_shown(d) : tr_dur(t, row);
	r->calls++;
	r->total += dur;
	if (dur < r->min)
		r->min = dur;
	if (dur > r->max)
		r->max = dur;
	if (by_op) {
		/* tb: agg += float(x or 0) * (end_time - start_time), in µs */
		k->acc[3 * i] += or0(g->blocks_per_sm) * d;
		k->acc[3 * i + 1] += or0(g->occupancy) * d;
		k->acc[3 * i + 2] += d;
	}
	return 0;
}

struct kern_item {
	double tb_total; /* tb's float order first (0 outside tb_compat) */
	int64_t total;
	const char *name; /* by name: the tie-break */
	uint32_t idx;
};

static int cmp_item(const void *a, const void *b)
{
	const struct kern_item *x = a, *y = b;
	if (x->tb_total != y->tb_total)
		return x->tb_total > y->tb_total ? -1 : 1;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	if (x->name) {
		int c = strcmp(x->name, y->name);
		if (c)
			return c;
	}
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int sort_rows(struct kern_view *v, const struct trace *t, bool by_name)
{
	if (v->n < 2)
		return 0;
	struct kern_item *it = malloc((v->n ? v->n : 1) * sizeof *it);
	struct kern_row *tmp = malloc((v->n ? v->n : 1) * sizeof *tmp);
	if (!it || !tmp) {
		free(it);
		free(tmp);
		return -1;
	}
	for (size_t i = 0; i < v->n; i++)
		it[i] =
		    (struct kern_item){v->rows[i].tb_total, v->rows[i].total,
				       by_name ? tr_str(t, v->rows[i].name) : NULL, (uint32_t)i};
	gp_qsort(it, v->n, sizeof *it, cmp_item);
	for (size_t i = 0; i < v->n; i++)
		tmp[i] = v->rows[it[i].idx];
	memcpy(v->rows, tmp, v->n * sizeof *tmp);
	free(it);
	free(tmp);
	return 0;
}

struct ts_row {
	int64_t ts;
	uint32_t row, group;
};

static int cmp_ts_row(const void *a, const void *b)
{
	const struct ts_row *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* By name: tb's pandas groupby over the kernels in time order, with
 * np.average(x.fillna(0), weights=duration) per group. */
static int by_name(struct kgroup *k, struct ts_row *kr, size_t nk)
{
	const struct trace *t = k->t;
	struct kern_view *v = k->v;
	if (!k->means) { /* calls, total, min and max: sums, in any order */
		for (size_t i = 0; i < nk; i++)
			if (add_kernel(k, kr[i].row, OPT_NIL, &kr[i].group))
				return -1;
		return 0;
	}
	/* the rows' order is unique, so the radix sort and the comparator one
	 * (when its scratch copy is refused) give the same order */
	static const struct rx_key by_ts_row[] = {RX_KEY(struct ts_row, ts, RX_I64),
						  RX_KEY(struct ts_row, row, RX_U32)};
	if (rx_sort(kr, nk, sizeof *kr, by_ts_row, 2))
		gp_qsort(kr, nk, sizeof *kr, cmp_ts_row);
	for (size_t i = 0; i < nk; i++)
		if (add_kernel(k, kr[i].row, OPT_NIL, &kr[i].group))
			return -1;
	size_t *at = calloc(v->n + 1, sizeof *at);
	uint32_t *by = malloc((nk ? nk : 1) * sizeof *by);
	double *x = malloc((nk ? nk : 1) * 3 * sizeof *x);
	if (!at || !by || !x) {
		free(at);
		free(by);
		free(x);
		return -1;
	}
	for (size_t i = 0; i < nk; i++)
		at[kr[i].group + 1]++;
	for (size_t g = 0; g < v->n; g++)
		at[g + 1] += at[g];
	for (size_t i = 0; i < nk; i++)
		by[at[kr[i].group]++] = (uint32_t)i; /* stable: time order kept */
	size_t from = 0;
	for (size_t g = 0; g < v->n; g++) {
		size_t m = at[g] - from;
		double *xb = x, *xo = x + m, *w = x + 2 * m;
		for (size_t j = 0; j < m; j++) {
			uint32_t row = kr[by[from + j]].row;
			const struct tr_gpu_arg *ga = gpu_args(t, row);
			w[j] = tb_us(tr_dur(t, row));
			xb[j] = or0(ga->blocks_per_sm) * w[j];
			xo[j] = or0(ga->occupancy) * w[j];
		}
		double scl = np_sum(w, m);
		/* np.average raises ZeroDivisionError on zero weights; tb: 0 */
		v->rows[g].mean_bps = scl != 0 ? np_sum(xb, m) / scl : 0.0;
		v->rows[g].mean_occ = scl != 0 ? np_sum(xo, m) / scl : 0.0;
		from = at[g];
	}
	free(at);
	free(by);
	free(x);
	return 0;
}

/* By kernel + op: tb's get_operator_and_kernels order, each node's kernels
 * after its children's; the op is the last node whose runtime credited the
 * kernel (tb's op_name). */
static int by_name_op(struct kgroup *k)
{
	const struct optree *o = k->o;
	const struct trace *t = o->t;
	uint32_t gi;
	for (size_t i = 0; i < o->nagg; i++) {
		const struct optree_node *nd = &o->nodes[o->agg[i]];
		for (uint32_t j = 0; j < nd->rt_count; j++) {
			size_t n;
			const uint32_t *dev = optree_rt_devices(o, &o->rts[nd->rt_first + j], &n);
			for (size_t d = 0; d < n; d++)
				if (t->ev.kind[dev[d]] == TR_KERNEL &&
				    add_kernel(k, dev[d], o->dev_node[dev[d]], &gi))
					return -1;
		}
	}
	for (size_t g = 0; g < k->v->n; g++) {
		double tot = k->acc[3 * g + 2];
		k->v->rows[g].mean_bps = tot > 0 ? k->acc[3 * g] / tot : 0.0;
		k->v->rows[g].mean_occ = tot > 0 ? k->acc[3 * g + 1] / tot : 0.0;
		if (o->opts.tb_compat) { /* tb's float sum, as it shows it */
			k->v->rows[g].total = tb_ns_shown(tot);
			k->v->rows[g].tb_total = tot;
		}
	}
	return 0;
}

/* The groups of the kernels of t; o is NULL only by name. */
static int build(const struct trace *t, bool tb_compat, const struct optree *o,
		 enum kern_group group, bool means, struct kern_view *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	struct kgroup k = {
	    .t = t, .tb_compat = tb_compat, .o = o, .v = out, .group = group, .means = means};
	size_t nk = 0;
	for (size_t r = 0; r < t->ev.n; r++)
		nk += kern_counted_row(t, tb_compat, r);
	struct ts_row *kr = malloc((nk ? nk : 1) * sizeof *kr);
	int rc = !kr || hmap_init(&k.map, 256) ? -1 : 0;
	nk = 0;
	for (size_t r = 0; r < t->ev.n && !rc; r++) {
		if (!kern_counted_row(t, tb_compat, r))
			continue;
		const struct tr_gpu_arg *g = gpu_args(t, (uint32_t)r);
		int64_t dur = tr_dur(t, r);
		out->kernel_time += dur;
		if (o && optree_tc_kernel(o, t->ev.name[r]))
			out->tc_time += dur;
		if (g->device >= 0 && g->blocks_per_sm > 0)
			out->has_blocks_per_sm = true;
		if (g->device >= 0 && g->occupancy >= 0)
			out->has_occupancy = true;
		kr[nk++] = (struct ts_row){t->ev.ts[r], (uint32_t)r, 0};
	}
	if (!rc)
		rc = group == KERN_BY_NAME ? by_name(&k, kr, nk) : by_name_op(&k);
	hmap_free(&k.map);
	free(kr);
	free(k.acc);
	if (!rc)
		rc = sort_rows(out, t, group == KERN_BY_NAME);
	if (rc) {
		kern_free(out);
		return err_set(e, ERR_NOMEM, t->path, -1, "out of memory grouping kernels");
	}
	return 0;
}

int kern_build(const struct optree *o, enum kern_group group, struct kern_view *out, struct err *e)
{
	return build(o->t, o->opts.tb_compat, o, group, true, out, e);
}

int kern_build_names(const struct trace *t, bool tb_compat, struct kern_view *out, struct err *e)
{
	return build(t, tb_compat, NULL, KERN_BY_NAME, false, out, e);
}

void kern_free(struct kern_view *v)
{
	free(v->rows);
	memset(v, 0, sizeof *v);
}

int64_t kern_mean(const struct kern_row *r)
{
	if (!r->calls)
		return 0;
	if (r->tb_total != 0) /* tb's float mean, as it shows it */
		return tb_ns_shown(r->tb_total / (double)r->calls);
	int64_t c = (int64_t)r->calls, q = r->total / c, rem = r->total % c;
	if (rem < 0) {
		q--;
		rem += c;
	}
	if (2 * rem > c || (2 * rem == c && (q & 1)))
		q++;
	return q;
}
