/* view_flops: `gpuprof flops`, the FLOPs and bytes of GEMM and attention
 * calls from their shapes (TraceLens' models, hta/flops.h), their GPU time
 * (the operator tree's device time: the kernels below each call), achieved
 * TFLOP/s and TB/s, arithmetic intensity, and where the GPU is known, the
 * fraction of its peak and the roofline bound. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cmp.h"
#include "core/sort.h"
#include "hta/flops.h"
#include "tbprof/optree.h"
#include "tbprof/session.h"
#include "views/view_int.h"

static const char flops_head[] =
    "Usage: gpuprof flops [options] TRACE\n"
    "\n"
    "The work of each matrix multiply (aten::mm, addmm, bmm, baddbmm) and\n"
    "scaled-dot-product attention call from its recorded shapes and dtype, with\n"
    "AMD TraceLens' models: FLOPs, bytes moved, arithmetic intensity; its GPU\n"
    "time (the kernels it launched, as `gpuprof ops` counts them); achieved\n"
    "TFLOP/s and TB/s; and, for a GPU of the peak table (deviceProperties), the\n"
    "share of its dense peak and whether the call is compute or memory bound on\n"
    "the roofline. Rows group the calls of one operator, shape and dtype.\n"
    "\n"
    "Options:\n";

static const char flops_tail[] = "\n"
				 "Examples:\n"
				 "  gpuprof flops trace.json.gz\n"
				 "  gpuprof flops --top 0 --format csv trace.json.gz\n";

/* One call modelled. */
struct fcall {
	const char *name;
	struct hta_perf p;
	int64_t gpu_ns;
	uint32_t node; /* its tree node */
};

/* One row: calls [first, first + n) of the sorted calls. */
struct frow {
	size_t first, n;
	int64_t gpu_sum;
	double tflops_mean, tflops_med, tflops_min, tflops_max, tbs_mean;
};

struct flops_res {
	struct fcall *calls;
	size_t ncalls;
	struct frow *rows;
	size_t nrows;
	const char *gpu; /* deviceProperties[0].name, or NULL */
	const struct hta_gpu_peak *peak;
	double gflop, tflops; /* all calls: total GFLOP, achieved TFLOP/s over their GPU time */
	int64_t gpu_ns;
};

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
	const struct fcall *a = x, *b = y;
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
	const struct frow *a = x, *b = y;
	if (a->gpu_sum != b->gpu_sum)
		return a->gpu_sum > b->gpu_sum ? -1 : 1;
	const struct fcall *calls = ctx;
	return cmp_call(&calls[a->first], &calls[b->first]);
}

/* The row of calls [i, j): sums, and the per-call TFLOP/s (calls whose
 * GPU time is 0 have none) in scratch v. */
static struct frow make_row(const struct fcall *c, size_t i, size_t j, double *v)
{
	struct frow r = {.first = i, .n = j - i};
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

static int flops_compute(struct view *v, const struct view_source *src, struct err *e)
{
	(void)src;
	struct flops_res *r = view_results_new(v, sizeof *r, e);
	if (!r)
		return ERR_NOMEM;
	const struct optree *o;
	int rc = ses_tree(v->ses, false, &o, e);
	if (rc)
		return rc;
	const struct trace *t = v->t;
	r->gpu =
	    t->meta.ndevices && t->meta.devices[0].name ? tr_str(t, t->meta.devices[0].name) : NULL;
	r->peak = hta_gpu_peak(r->gpu);
	r->calls = malloc((o->nnodes ? o->nnodes : 1) * sizeof *r->calls);
	bool *outer = calloc(o->nnodes ? o->nnodes : 1, sizeof *outer);
	if (!r->calls || !outer) {
		free(outer);
		return err_set(e, ERR_NOMEM, "", -1, "out of memory");
	}
	/* each node modelled once; a modelled call above another
	 * (scaled_dot_product_attention over its _flash kernel's op) is the
	 * same work: the innermost one counts */
	size_t n = 0;
	for (size_t i = 0; i < o->nnodes; i++) {
		const struct optree_node *nd = &o->nodes[i];
		struct fcall c = {.gpu_ns = nd->device, .node = (uint32_t)i};
		if (nd->dropped || !model_node(t, nd, &c.p))
			continue;
		c.name = tr_str(t, nd->name);
		r->calls[n++] = c;
		for (uint32_t up = nd->parent; up != OPT_NIL; up = o->nodes[up].parent)
			outer[up] = true;
	}
	for (size_t i = 0; i < n; i++) {
		if (outer[r->calls[i].node])
			continue;
		r->gflop += r->calls[i].p.flops / 1e9;
		r->gpu_ns += r->calls[i].gpu_ns;
		r->calls[r->ncalls++] = r->calls[i];
	}
	free(outer);
	/* GFLOP per ns is 10^18 FLOP/s: 10^6 TFLOP/s */
	r->tflops = r->gpu_ns ? r->gflop / (double)r->gpu_ns * 1e6 : NAN;
	gp_qsort(r->calls, r->ncalls, sizeof *r->calls, cmp_call);
	double *scratch = malloc((r->ncalls ? r->ncalls : 1) * sizeof *scratch);
	r->rows = malloc((r->ncalls ? r->ncalls : 1) * sizeof *r->rows);
	if (!scratch || !r->rows) {
		free(scratch);
		return err_set(e, ERR_NOMEM, "", -1, "out of memory");
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

static const struct rep_col row_cols[] = {
    {"name", "Operator", REP_STR},
    {"category", "Category", REP_STR},
    {"params", "Shape", REP_STR},
    {"dtype", "Dtype", REP_STR},
    {"calls", "Calls", REP_INT},
    {"gflops", "GFLOP", REP_FLOAT},
    {"data_moved_mb", "Data (MiB)", REP_FLOAT},
    {"flops_per_byte", "FLOP/B", REP_FLOAT},
    {"gpu_time_ns", "GPU time", REP_DUR_NS},
    {"gpu_time_mean_ns", "GPU mean", REP_FDUR_NS},
    {"tflops_s_mean", "TFLOP/s", REP_FLOAT},
    {"tflops_s_median", "TFLOP/s p50", REP_FLOAT},
    {"tflops_s_min", "TFLOP/s min", REP_FLOAT},
    {"tflops_s_max", "TFLOP/s max", REP_FLOAT},
    {"tb_s_mean", "TB/s", REP_FLOAT},
    {"peak_tflops_s", "Peak TFLOP/s", REP_FLOAT},
    {"peak_pct", "Of peak", REP_PCT},
    {"bound", "Bound", REP_STR},
};

static void emit_row(struct report *rep, const struct flops_res *r, const struct frow *w)
{
	const struct fcall *c = &r->calls[w->first];
	double peak = r->peak ? r->peak->tflops[c->p.dtype] : 0;
	double ai = c->p.bytes > 0 ? c->p.flops / c->p.bytes : NAN;
	/* the ridge point: peak FLOP/s over peak bytes/s */
	const char *bound = !peak || isnan(ai)		 ? ""
			    : ai >= peak / r->peak->tb_s ? "compute"
							 : "memory";
	const struct rep_val row[] = {
	    rep_s(c->name),
	    rep_s(c->p.cat == HTA_OP_GEMM ? "GEMM" : "SDPA_fwd"),
	    rep_s(c->p.params),
	    rep_s(c->p.dtype_name),
	    rep_i((int64_t)w->n),
	    rep_f(c->p.flops / 1e9),
	    rep_f(c->p.bytes / 1048576.0),
	    rep_f_or_null(ai),
	    rep_i(w->gpu_sum),
	    rep_f((double)w->gpu_sum / (double)w->n),
	    rep_f_or_null(w->tflops_mean),
	    rep_f_or_null(w->tflops_med),
	    rep_f_or_null(w->tflops_min),
	    rep_f_or_null(w->tflops_max),
	    rep_f_or_null(w->tbs_mean),
	    peak ? rep_f(peak) : rep_null(),
	    peak && !isnan(w->tflops_mean) ? rep_f(100 * w->tflops_mean / peak) : rep_null(),
	    rep_s(bound)};
	rep_row(rep, row);
}

static void flops_emit(struct view *v, struct report *rep)
{
	const struct flops_res *r = v->priv;
	rep_kv_begin(rep, "summary", "Modelled operator calls");
	rep_kv(rep, "gpu", "GPU (deviceProperties)", REP_STR, r->gpu ? rep_s(r->gpu) : rep_null());
	rep_kv(rep, "peak_table", "Peak table entry", REP_STR,
	       r->peak ? rep_s(r->peak->label) : rep_null());
	rep_kv(rep, "peak_tb_s", "Peak memory TB/s", REP_FLOAT,
	       r->peak ? rep_f(r->peak->tb_s) : rep_null());
	rep_kv(rep, "calls", "Calls modelled", REP_INT, rep_i((int64_t)r->ncalls));
	rep_kv(rep, "gflop", "GFLOP in all", REP_FLOAT, rep_f(r->gflop));
	rep_kv(rep, "gpu_time_ns", "Their GPU time", REP_DUR_NS, rep_i(r->gpu_ns));
	rep_kv(rep, "tflops_s", "Achieved TFLOP/s over it", REP_FLOAT, rep_f_or_null(r->tflops));
	rep_kv_end(rep);
	rep_table_begin(rep, "ops", "By operator, shape and dtype (most GPU time first)", row_cols,
			sizeof row_cols / sizeof row_cols[0]);
	for (size_t i = 0; i < r->nrows && (!v->o.top || i < v->o.top); i++)
		emit_row(rep, r, &r->rows[i]);
	rep_table_end(rep);
}

static void flops_free(struct view *v)
{
	struct flops_res *r = v->priv;
	if (!r)
		return;
	free(r->calls);
	free(r->rows);
	free(r);
}

static const struct vo flops_opts_decl[] = {
    VIEW_OPT_TOP_20("rows of the ops table (default 20; 0 = all)"),
};

const struct view_decl view_flops_decl = {
    .kind = VIEW_FLOPS,
    .name = "flops",
    .summary = "FLOPs, bytes, TFLOP/s and roofline of GEMM and attention calls from shapes",
    .help_head = flops_head,
    .help_tail = flops_tail,
    .opts = flops_opts_decl,
    .nopts = sizeof flops_opts_decl / sizeof flops_opts_decl[0],
    .compute = flops_compute,
    .emit = flops_emit,
    .free = flops_free,
};
