/* view_flops: `gpuprof flops`, the FLOPs and bytes of GEMM and attention
 * calls from their shapes (TraceLens' models, hta/flops.h), their GPU time
 * (the operator tree's device time: the kernels below each call), achieved
 * TFLOP/s and TB/s, arithmetic intensity, and where the GPU is known, the
 * fraction of its peak and the roofline bound. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/flops.h"
#include "tbprof/optree.h"
#include "tbprof/session.h"
#include "views/flops_calls.h"
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

struct flops_res {
	struct fc_table tab;
	const char *gpu; /* deviceProperties[0].name, or NULL */
	const struct hta_gpu_peak *peak;
};

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
	return fc_build(t, o, &r->tab, e);
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

static void emit_row(struct report *rep, const struct flops_res *r, const struct fc_row *w)
{
	const struct fc_call *c = &r->tab.calls[w->first];
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
	rep_kv(rep, "calls", "Calls modelled", REP_INT, rep_i((int64_t)r->tab.ncalls));
	rep_kv(rep, "gflop", "GFLOP in all", REP_FLOAT, rep_f(r->tab.gflop));
	rep_kv(rep, "gpu_time_ns", "Their GPU time", REP_DUR_NS, rep_i(r->tab.gpu_ns));
	rep_kv(rep, "tflops_s", "Achieved TFLOP/s over it", REP_FLOAT,
	       rep_f_or_null(r->tab.tflops));
	rep_kv_end(rep);
	rep_table_begin(rep, "ops", "By operator, shape and dtype (most GPU time first)", row_cols,
			sizeof row_cols / sizeof row_cols[0]);
	for (size_t i = 0; i < r->tab.nrows && (!v->o.top || i < v->o.top); i++)
		emit_row(rep, r, &r->tab.rows[i]);
	rep_table_end(rep);
}

static void flops_free(struct view *v)
{
	struct flops_res *r = v->priv;
	if (!r)
		return;
	fc_free(&r->tab);
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
