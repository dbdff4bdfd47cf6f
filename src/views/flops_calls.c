/* flops_calls: the modelled calls and their rows; see flops_calls.h. */
#include "views/flops_calls.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cmp.h"
#include "core/sort.h"
#include "core/vec.h"

static const char *str_or(const struct trace *t, uint32_t id, size_t *len)
{
	*len = id ? strpool_len(&t->pool, id) : 0;
	return id ? tr_str(t, id) : "";
}

/* The model of tree node nd, when it is an operator call of a model. */
static bool model_node(const struct trace *t, const struct optree_node *nd, struct hta_perf *p)
{
	if (nd->row == TR_NONE || nd->cls != OPC_OP)
		return false;
	uint32_t a = tr_aux_in(t, nd->row, TR_AUX_OP, t->op.n);
	if (a == TR_NONE)
		return false;
	const struct tr_op_arg *o = &t->op.v[a];
	uint32_t conc =
	    o->extra != TR_NONE && o->extra < t->opx.n ? t->opx.v[o->extra].concrete : 0;
	size_t dl, tl, cl;
	const char *d = str_or(t, o->input_dims, &dl), *ty = str_or(t, o->input_type, &tl);
	const char *c = str_or(t, conc, &cl);
	return hta_perf_model(tr_str(t, nd->name), d, dl, ty, tl, c, cl, p);
}

/* Calls by (operator, shape, dtype), then in tree order (the caller's). */
static int cmp_call(const void *x, const void *y)
{
	const struct fc_call *a = x, *b = y;
	int c = strcmp(a->name, b->name);
	if (!c)
		c = strcmp(a->p.params, b->p.params);
	if (!c)
		c = strcmp(a->p.dtype_name, b->p.dtype_name);
	return c;
}

/* Rows by GPU time, largest first; equal times by key. */
static int cmp_row(const void *x, const void *y, void *ctx)
{
	const struct fc_row *a = x, *b = y;
	if (a->gpu_sum != b->gpu_sum)
		return a->gpu_sum > b->gpu_sum ? -1 : 1;
	const struct fc_call *calls = ctx;
	return cmp_call(&calls[a->first], &calls[b->first]);
}

/* The row of calls [i, j): sums, and the per-call TFLOP/s (calls whose
 * GPU time is 0 have none) in scratch v. */
static struct fc_row make_row(const struct fc_call *c, size_t i, size_t j, double *v)
{
	struct fc_row r = {.first = i, .n = j - i};
	size_t k = 0;
	double tbs = 0;
	for (size_t x = i; x < j; x++) {
		r.gpu_sum += c[x].gpu_ns;
		if (c[x].gpu_ns > 0) {
			v[k++] = c[x].p.flops / (double)c[x].gpu_ns / 1e3; /* FLOP/ns -> TFLOP/s */
			tbs += c[x].p.bytes / (double)c[x].gpu_ns / 1e3;
		}
	}
	r.tflops_mean = r.tflops_med = r.tflops_min = r.tflops_max = r.tbs_mean = NAN;
	if (!k)
		return r;
	qsort(v, k, sizeof *v, cmp_dbl);
	double sum = 0;
	for (size_t x = 0; x < k; x++)
		sum += v[x];
	r.tflops_mean = sum / (double)k;
	r.tflops_med = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	r.tflops_min = v[0];
	r.tflops_max = v[k - 1];
	r.tbs_mean = tbs / (double)k;
	return r;
}

int fc_build(const struct trace *t, const struct optree *o, struct fc_table *r, struct err *e)
{
	memset(r, 0, sizeof *r);
	/* only the modelled calls are kept, and a call is large (its
	 * parameters' text): grown as found, not one per tree node */
	VEC(struct fc_call) calls = {0};
	bool *outer = calloc(o->nnodes ? o->nnodes : 1, sizeof *outer);
	/* whether each operator name has a model: 1 no, 2 yes, 0 not asked */
	uint8_t *known = calloc(t->pool.n ? t->pool.n : 1, 1);
	int rc = outer && known && !vec_reserve(calls, 1, SIZE_MAX / sizeof *calls.v) ? 0 : -1;
	/* each node modelled once; a modelled call above another
	 * (scaled_dot_product_attention over its _flash kernel's op) is the
	 * same work: the innermost one counts */
	for (size_t i = 0; !rc && i < o->nnodes; i++) {
		const struct optree_node *nd = &o->nodes[i];
		struct fc_call c = {.gpu_ns = nd->device, .node = (uint32_t)i};
		if (!known[nd->name])
			known[nd->name] = hta_perf_op(tr_str(t, nd->name)) ? 2 : 1;
		if (nd->dropped || known[nd->name] == 1 || !model_node(t, nd, &c.p))
			continue;
		c.name = tr_str(t, nd->name);
		rc = vec_push(calls, c, SIZE_MAX / sizeof *calls.v);
		for (uint32_t up = nd->parent; !rc && up != OPT_NIL; up = o->nodes[up].parent)
			outer[up] = true;
	}
	r->calls = calls.v;
	for (size_t i = 0; !rc && i < calls.n; i++) {
		if (outer[calls.v[i].node])
			continue;
		r->gflop += calls.v[i].p.flops / 1e9;
		r->gpu_ns += calls.v[i].gpu_ns;
		r->calls[r->ncalls++] = calls.v[i];
	}
	free(outer);
	free(known);
	if (rc)
		return err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
	/* GFLOP per ns is 10^18 FLOP/s: 10^6 TFLOP/s */
	r->tflops = r->gpu_ns ? r->gflop / (double)r->gpu_ns * 1e6 : NAN;
	gp_qsort(r->calls, r->ncalls, sizeof *r->calls, cmp_call);
	double *scratch = malloc((r->ncalls ? r->ncalls : 1) * sizeof *scratch);
	r->rows = malloc((r->ncalls ? r->ncalls : 1) * sizeof *r->rows);
	if (!scratch || !r->rows) {
		free(scratch);
		return err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
	}
	for (size_t i = 0; i < r->ncalls;) {
		size_t j = i + 1;
		while (j < r->ncalls && !cmp_call(&r->calls[i], &r->calls[j]))
			j++;
		r->rows[r->nrows++] = make_row(r->calls, i, j, scratch);
		i = j;
	}
	free(scratch);
	gp_qsort_r(r->rows, r->nrows, sizeof *r->rows, cmp_row, r->calls);
	return 0;
}

void fc_free(struct fc_table *r)
{
	free(r->calls);
	free(r->rows);
	memset(r, 0, sizeof *r);
}
