/* view_kernels: the kernel tables of torch-tb-profiler's Kernel view
 * (src/tbprof/kernels.h), as `gpuprof kernels` and GET
 * /api/file/ID/kernels show them. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "tbprof/optree.h"
#include "views/view_int.h"

_Static_assert(sizeof(enum kern_group) == sizeof(int), "VO_ENUM options store an int");

/* The view's results (its priv). */
struct kern_res {
	const struct optree *tree; /* the session's */
	struct kern_view kern;
};

static int kernels_compute(struct view *v, const struct view_source *src, struct err *e)
{
	(void)src;
	struct kern_res *res = view_results_new(v, sizeof *res, e);
	if (!res)
		return ERR_NOMEM;
	int rc = ses_tree(v->ses, v->o.tb_compat, &res->tree, e);
	return rc ? rc : kern_build(res->tree, v->o.kern_group, &res->kern, e);
}

static void kernels_free(struct view *v)
{
	struct kern_res *res = v->priv;
	if (!res)
		return;
	kern_free(&res->kern);
	free(res);
}

enum { KCOL_ALWAYS, KCOL_OP };

/* What a column's getter reads a row with; buf is the column's own
 * scratch for text made for the row. */
struct kern_ctx {
	const struct optree *o;
	const struct kern_view *v;
};
enum { KERN_CELL_BYTES = 48 };
typedef struct rep_val (*kern_get_fn)(const struct kern_ctx *c, const struct kern_row *k,
				      char *buf);

/* Python's str() of a dim3 list: "[128, 2, 1]". */
static struct rep_val dim3(char *buf, const int32_t *d)
{
	if (d[0] < 0 && d[1] < 0 && d[2] < 0)
		return rep_null();
	snprintf(buf, KERN_CELL_BYTES, "[%" PRId32 ", %" PRId32 ", %" PRId32 "]", d[0], d[1], d[2]);
	return rep_s(buf);
}

static struct rep_val k_name(const struct kern_ctx *c, const struct kern_row *k, char *buf)
{
	return rep_s(tr_str(c->o->t, k->name));
}
static struct rep_val k_op(const struct kern_ctx *c, const struct kern_row *k, char *buf)
{
	return k->op == OPT_NIL ? rep_s("N/A") : rep_s(optree_name(c->o, k->op));
}
static struct rep_val k_grid(const struct kern_ctx *c, const struct kern_row *k, char *buf)
{
	return dim3(buf, k->grid);
}
static struct rep_val k_block(const struct kern_ctx *c, const struct kern_row *k, char *buf)
{
	return dim3(buf, k->block);
}
static struct rep_val k_regs(const struct kern_ctx *c, const struct kern_row *k, char *buf)
{
	return k->regs < 0 ? rep_null() : rep_i(k->regs);
}
static struct rep_val k_shared(const struct kern_ctx *c, const struct kern_row *k, char *buf)
{
	return k->shared_mem < 0 ? rep_null() : rep_i(k->shared_mem);
}
static struct rep_val k_tc_used(const struct kern_ctx *c, const struct kern_row *k, char *buf)
{
	return rep_b(k->tc_used);
}
static struct rep_val k_op_tc(const struct kern_ctx *c, const struct kern_row *k, char *buf)
{
	return rep_b(k->op_tc_eligible);
}
static struct rep_val k_calls(const struct kern_ctx *c, const struct kern_row *k, char *buf)
{
	return rep_i((int64_t)k->calls);
}
static struct rep_val k_total(const struct kern_ctx *c, const struct kern_row *k, char *buf)
{
	return rep_i(k->total);
}
static struct rep_val k_mean(const struct kern_ctx *c, const struct kern_row *k, char *buf)
{
	return rep_i(kern_mean(k));
}
static struct rep_val k_max(const struct kern_ctx *c, const struct kern_row *k, char *buf)
{
	return rep_i(k->max);
}
static struct rep_val k_min(const struct kern_ctx *c, const struct kern_row *k, char *buf)
{
	return rep_i(k->min);
}
/* Where no kernel of the trace has the value (AMD, older traces) the mean
 * is null; the plugin computes it anyway, missing values as 0 (and hides
 * the column): --tb-compat gives its 0.0. */
static struct rep_val k_bps(const struct kern_ctx *c, const struct kern_row *k, char *buf)
{
	return c->v->has_blocks_per_sm || c->o->opts.tb_compat ? rep_f(k->mean_bps) : rep_null();
}
static struct rep_val k_occ(const struct kern_ctx *c, const struct kern_row *k, char *buf)
{
	return c->v->has_occupancy || c->o->opts.tb_compat ? rep_f(k->mean_occ) : rep_null();
}

/* Every column, declared once with the getter of its value; KCOL_OP ones
 * only by kernel + op. */
static const struct kern_col {
	struct rep_col col;
	int when;
	kern_get_fn get;
} kern_cols[] = {
    {{"name", "Name", REP_STR}, KCOL_ALWAYS, k_name},
    {{"op", "Operator", REP_STR}, KCOL_OP, k_op},
    {{"grid", "Grid", REP_STR}, KCOL_OP, k_grid},
    {{"block", "Block", REP_STR}, KCOL_OP, k_block},
    {{"registers_per_thread", "Registers", REP_INT}, KCOL_OP, k_regs},
    {{"shared_memory_bytes", "Shared Mem", REP_BYTES}, KCOL_OP, k_shared},
    {{"tc_used", "Uses TC", REP_BOOL}, KCOL_ALWAYS, k_tc_used},
    {{"op_tc_eligible", "Op TC Eligible", REP_BOOL}, KCOL_OP, k_op_tc},
    {{"calls", "Calls", REP_INT}, KCOL_ALWAYS, k_calls},
    {{"total_ns", "Total", REP_DUR_NS}, KCOL_ALWAYS, k_total},
    {{"mean_ns", "Mean", REP_DUR_NS}, KCOL_ALWAYS, k_mean},
    {{"max_ns", "Max", REP_DUR_NS}, KCOL_ALWAYS, k_max},
    {{"min_ns", "Min", REP_DUR_NS}, KCOL_ALWAYS, k_min},
    {{"mean_blocks_per_sm", "Blocks/SM", REP_FLOAT}, KCOL_ALWAYS, k_bps},
    {{"mean_occupancy_pct", "Est. Occupancy", REP_PCT}, KCOL_ALWAYS, k_occ},
};
#define KERN_NCOLS (sizeof kern_cols / sizeof kern_cols[0])

static void kernels_emit(struct view *vw, struct report *r)
{
	const struct kern_res *res = vw->priv;
	const struct optree *o = res->tree;
	const struct kern_view *v = &res->kern;
	enum kern_group group = vw->o.kern_group;
	size_t top = vw->o.top;
	const struct kern_ctx ctx = {o, v};
	struct rep_col cols[KERN_NCOLS];
	int nc = 0;
	for (size_t i = 0; i < KERN_NCOLS; i++)
		if (kern_cols[i].when == KCOL_ALWAYS || group == KERN_BY_NAME_OP)
			cols[nc++] = kern_cols[i].col;
	rep_table_begin(r, "kernels", group == KERN_BY_NAME ? "Kernels" : "Kernels by operator",
			cols, nc);
	for (size_t i = 0; i < v->n && i < top; i++) {
		const struct kern_row *k = &v->rows[i];
		char cell[KERN_NCOLS][KERN_CELL_BYTES];
		struct rep_val out[KERN_NCOLS];
		int n = 0;
		for (size_t c = 0; c < KERN_NCOLS; c++)
			if (kern_cols[c].when == KCOL_ALWAYS || group == KERN_BY_NAME_OP)
				out[n++] = kern_cols[c].get(&ctx, k, cell[c]);
		rep_row(r, out);
	}
	rep_table_end(r);
	rep_kv_begin(r, "tensor_cores", "Tensor Cores");
	rep_kv(r, "kernel_time_ns", "Kernel time", REP_DUR_NS, rep_i(v->kernel_time));
	rep_kv(r, "tc_kernel_time_ns", "In Tensor Core kernels", REP_DUR_NS, rep_i(v->tc_time));
	rep_kv(r, "tc_used_pct", "Share using Tensor Cores", REP_PCT,
	       rep_f(v->kernel_time > 0 ? 100.0 * ((double)v->tc_time / (double)v->kernel_time)
					: 0.0));
	rep_kv(r, "tc_eligible_ops_kernel_pct", "Operator kernel time of TC-eligible ops", REP_PCT,
	       rep_f(100.0 * optree_tc_eligible_ratio(o)));
	rep_kv(r, "tb_compat", "tb-compat", REP_BOOL, rep_b(o->opts.tb_compat));
	rep_kv_end(r);
}

static const char kernels_head[] =
    "Usage: gpuprof kernels [options] TRACE\n"
    "\n"
    "The kernel tables of torch-tb-profiler's Kernel view. Grouped by kernel\n"
    "name (every kernel in the trace): calls, total, mean, max and min duration,\n"
    "the mean blocks per SM and the mean estimated achieved occupancy (both\n"
    "weighted by duration; a kernel without the value counts as 0, as in the\n"
    "plugin), and whether the kernel uses Tensor Cores. Grouped by kernel and\n"
    "operator (the kernels the operator tree attributes; see 'gpuprof ops'):\n"
    "also the launching operator (CallTreeRoot for kernels no runtime launched\n"
    "on a thread with ProfilerSteps, or launched with external id 0), grid,\n"
    "block, registers per thread, shared memory, and whether the operator is\n"
    "Tensor Core eligible. Rows are sorted by total time. The numbers equal the\n"
    "plugin's (its µs = our ns / 1000); docs/views.md says how each is computed.\n"
    "\n"
    "A second section, \"tensor_cores\", gives the kernel time, the part in\n"
    "Tensor Core kernels (the plugin's Tensor Cores pie) and the share of\n"
    "operator kernel time launched by Tensor-Core-eligible operators.\n"
    "\n"
    "Options:\n";

static const char kernels_tail[] =
    "\n"
    "Examples:\n"
    "  gpuprof kernels run/worker0.pt.trace.json.gz --top 20\n"
    "  gpuprof kernels --group-by kernel+op --format csv trace.json.gz\n";

static const struct vo_value kern_groups[] = {
    {"kernel", KERN_BY_NAME, false},
    {"kernel+op", KERN_BY_NAME_OP, false},
    {"kernel op", KERN_BY_NAME_OP, true}, /* a query's '+' decoded as a space */
    {NULL, 0, false},
};

static const struct vo kernels_opts[] = {
    {.lname = "group-by",
     .api = "group_by",
     .type = VO_ENUM,
     .off = offsetof(struct view_opts, kern_group),
     .vals = kern_groups,
     .def = "kernel",
     .help = "group by kernel name (default) or by kernel,\n"
	     "operator and launch configuration"},
    VIEW_OPT_TOP_ROWS,
    VIEW_OPT_TB_COMPAT("reproduce torch-tb-profiler exactly, quirks\n"
		       "included (docs/tb-compat.md): kernels launched\n"
		       "through cuda_driver stay unattributed, only the\n"
		       "plugin's Tensor Core kernel names count, and the\n"
		       "kernel+op table follows its backward-module rewrite"),
};

const struct view_decl view_kernels_decl = {
    .kind = VIEW_KERNELS,
    .name = "kernels",
    .summary = "kernel table (torch-tb-profiler's Kernel view)",
    .help_head = kernels_head,
    .help_tail = kernels_tail,
    .opts = kernels_opts,
    .nopts = VIEW_NC(kernels_opts),
    .compute = kernels_compute,
    .emit = kernels_emit,
    .free = kernels_free,
};
