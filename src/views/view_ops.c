/* view_ops: the operator table of torch-tb-profiler's Operator view
 * (src/tbprof/ops.h), as `gpuprof ops` and GET /api/file/ID/ops show it. */
#include <stdio.h>
#include <stdlib.h>

#include "tbprof/optree.h"
#include "views/view_int.h"

_Static_assert(sizeof(enum ops_group) == sizeof(int) && sizeof(enum ops_sort) == sizeof(int),
	       "VO_ENUM options store an int");

/* The view's results (its priv). */
struct ops_res {
	const struct optree *tree; /* the session's */
	struct ops_view ops;
	enum ops_sort sorted; /* the order of ops' rows */
};

static int ops_compute(struct view *v, const struct view_source *src, struct err *e)
{
	(void)src;
	struct ops_res *res = view_results_new(v, sizeof *res, e);
	if (!res)
		return ERR_NOMEM;
	int rc = ses_tree(v->ses, v->o.tb_compat, &res->tree, e);
	if (rc)
		return rc;
	struct ops_opts oo = {.group = v->o.ops_group, .stack = v->o.ops_stack};
	if ((rc = ops_build(res->tree, &oo, &res->ops, e)))
		return rc;
	res->sorted = ops_sort(&res->ops, res->tree, v->o.ops_sort);
	return 0;
}

static void ops_res_free(struct view *v)
{
	struct ops_res *res = v->priv;
	if (!res)
		return;
	ops_free(&res->ops);
	free(res);
}

enum { OCOL_ALWAYS, OCOL_SHAPE, OCOL_STACK, OCOL_NOSTACK };

/* What a column's getter reads a row with. */
struct ops_ctx {
	const struct trace *t;
	const struct ops_view *v;
};
typedef struct rep_val (*ops_get_fn)(const struct ops_ctx *c, const struct ops_row *row);

static struct rep_val op_name(const struct ops_ctx *c, const struct ops_row *row)
{
	return rep_s(tr_str(c->t, row->name));
}
static struct rep_val op_shape(const struct ops_ctx *c, const struct ops_row *row)
{
	return rep_s(ops_shape(c->v, row));
}
static struct rep_val op_stack(const struct ops_ctx *c, const struct ops_row *row)
{
	return row->call_stack ? rep_s(tr_str(c->t, row->call_stack)) : rep_null();
}
static struct rep_val op_calls(const struct ops_ctx *c, const struct ops_row *row)
{
	return rep_i((int64_t)row->calls);
}
static struct rep_val op_self_device(const struct ops_ctx *c, const struct ops_row *row)
{
	return rep_i(row->self_device);
}
static struct rep_val op_device(const struct ops_ctx *c, const struct ops_row *row)
{
	return rep_i(row->device);
}
static struct rep_val op_self_host(const struct ops_ctx *c, const struct ops_row *row)
{
	return rep_i(row->self_host);
}
static struct rep_val op_host(const struct ops_ctx *c, const struct ops_row *row)
{
	return rep_i(row->host);
}
static struct rep_val op_tc_eligible(const struct ops_ctx *c, const struct ops_row *row)
{
	return rep_b(row->tc_eligible);
}
static struct rep_val op_tc_self(const struct ops_ctx *c, const struct ops_row *row)
{
	return rep_f(ops_tc_self_pct(row));
}
static struct rep_val op_tc_total(const struct ops_ctx *c, const struct ops_row *row)
{
	return rep_f(ops_tc_total_pct(row));
}
static struct rep_val op_has_stack(const struct ops_ctx *c, const struct ops_row *row)
{
	return rep_b(row->has_call_stack);
}

/* Every column of the table, declared once with the getter of its value;
 * `when` says which option shows it. */
static const struct ops_col {
	struct rep_col col;
	int when;
	ops_get_fn get;
} ops_cols[] = {
    {{"name", "Name", REP_STR}, OCOL_ALWAYS, op_name},
    {{"input_shape", "Input Shape", REP_STR}, OCOL_SHAPE, op_shape},
    {{"call_stack", "Call Stack", REP_STR}, OCOL_STACK, op_stack},
    {{"calls", "Calls", REP_INT}, OCOL_ALWAYS, op_calls},
    {{"device_self_ns", "Device Self", REP_DUR_NS}, OCOL_ALWAYS, op_self_device},
    {{"device_total_ns", "Device Total", REP_DUR_NS}, OCOL_ALWAYS, op_device},
    {{"host_self_ns", "Host Self", REP_DUR_NS}, OCOL_ALWAYS, op_self_host},
    {{"host_total_ns", "Host Total", REP_DUR_NS}, OCOL_ALWAYS, op_host},
    {{"tc_eligible", "TC Eligible", REP_BOOL}, OCOL_ALWAYS, op_tc_eligible},
    {{"tc_self_pct", "TC Self", REP_PCT}, OCOL_ALWAYS, op_tc_self},
    {{"tc_total_pct", "TC Total", REP_PCT}, OCOL_ALWAYS, op_tc_total},
    {{"has_call_stack", "Has Stack", REP_BOOL}, OCOL_NOSTACK, op_has_stack},
};
#define OPS_NCOLS (sizeof ops_cols / sizeof ops_cols[0])
static bool col_on(int when, const struct ops_opts *oo)
{
	return when == OCOL_ALWAYS || (when == OCOL_SHAPE && oo->group == OPS_BY_NAME_SHAPE) ||
	       (when == OCOL_STACK && oo->stack) || (when == OCOL_NOSTACK && !oo->stack);
}

static void ops_emit(struct view *vw, struct report *r)
{
	const struct ops_res *res = vw->priv;
	const struct optree *o = res->tree;
	const struct ops_view *v = &res->ops;
	const struct ops_opts oo_ = {.group = vw->o.ops_group, .stack = vw->o.ops_stack};
	const struct ops_opts *oo = &oo_;
	size_t top = vw->o.top;
	enum ops_sort sorted = res->sorted;
	const struct ops_ctx ctx = {o->t, v};
	struct rep_col cols[OPS_NCOLS];
	int nc = 0;
	for (size_t i = 0; i < OPS_NCOLS; i++)
		if (col_on(ops_cols[i].when, oo))
			cols[nc++] = ops_cols[i].col;
	rep_table_begin(r, "operators", "Operators", cols, nc);
	for (size_t i = 0; i < v->n && i < top; i++) {
		const struct ops_row *row = &v->rows[i];
		struct rep_val out[OPS_NCOLS];
		int k = 0;
		for (size_t c = 0; c < OPS_NCOLS; c++)
			if (col_on(ops_cols[c].when, oo))
				out[k++] = ops_cols[c].get(&ctx, row);
		rep_row(r, out);
	}
	rep_table_end(r);
	int64_t nodes = 0, ops = 0;
	for (size_t i = 0; i < o->nagg; i++) {
		nodes += o->nodes[o->agg[i]].cls != OPC_ROOT;
		ops += o->nodes[o->agg[i]].is_op;
	}
	rep_kv_begin(r, "tree", "Call tree");
	rep_kv(r, "threads", "Threads", REP_INT,
	       rep_i((int64_t)o->nthreads - o->bwd.dropped_threads));
	rep_kv(r, "host_nodes", "Host nodes", REP_INT, rep_i(nodes));
	rep_kv(r, "operators", "Operator calls", REP_INT, rep_i(ops));
	rep_kv(r, "groups", "Rows", REP_INT, rep_i((int64_t)v->n));
	rep_kv(r, "backward_roots_out", "Backward roots out (tb-compat)", REP_INT,
	       rep_i((int64_t)o->bwd.roots));
	rep_kv(r, "dropped_overlaps", "Dropped (partial overlap)", REP_INT,
	       rep_i((int64_t)o->dropped));
	rep_kv(r, "unclaimed_runtimes", "Runtime calls no operator claimed", REP_INT,
	       rep_i((int64_t)o->orphan_runtimes));
	rep_kv(r, "stale_kernels", "Kernels no runtime launched", REP_INT,
	       rep_i((int64_t)o->nstale));
	rep_kv(r, "sorted_by", "Sorted by", REP_STR, rep_s(ops_sort_name(sorted)));
	rep_kv(r, "tb_compat", "tb-compat", REP_BOOL, rep_b(o->opts.tb_compat));
	rep_kv_end(r);
}

static const char ops_head[] =
    "Usage: gpuprof ops [options] TRACE\n"
    "\n"
    "The operator table of torch-tb-profiler's Operator view: every operator\n"
    "(cpu_op event) of every thread's call tree, grouped, with the number of\n"
    "calls, the GPU time of the kernels, memcpys and memsets it launched\n"
    "(Device Self) and that its callees launched too (Device Total), its host\n"
    "time without callees and runtime calls (Host Self) and in all (Host Total),\n"
    "whether it may use Tensor Cores, and the share of its GPU time spent in\n"
    "Tensor Core kernels. The numbers equal the plugin's (its µs = our ns / 1000);\n"
    "docs/views.md says how each is computed.\n"
    "\n"
    "Options:\n";

static const char ops_tail[] =
    "\n"
    "A second table, \"tree\", tells what was built: threads, nodes, host events\n"
    "dropped because they partially overlap on one thread, runtime calls no\n"
    "operator claimed (their GPU time is in no row), kernels no runtime launched,\n"
    "and with --tb-compat the backward roots the plugin's backward-module\n"
    "rewrite took out.\n"
    "\n"
    "Examples:\n"
    "  gpuprof ops run/worker0.pt.trace.json.gz --top 20\n"
    "  gpuprof ops --group-by op+shape --sort host_self trace.json.gz\n"
    "  gpuprof ops --tb-compat --format json -o ops.json trace.json.gz\n";

static const struct vo_value ops_groups[] = {
    {"op", OPS_BY_NAME, false},
    {"op+shape", OPS_BY_NAME_SHAPE, false},
    {"op shape", OPS_BY_NAME_SHAPE, true}, /* a query's '+' decoded as a space */
    {NULL, 0, false},
};

static const struct vo_value ops_sorts[] = {
    {"device_self", OPS_SORT_DEVICE_SELF, false},
    {"device_total", OPS_SORT_DEVICE_TOTAL, false},
    {"host_self", OPS_SORT_HOST_SELF, false},
    {"host_total", OPS_SORT_HOST_TOTAL, false},
    {"calls", OPS_SORT_CALLS, false},
    {"tc_self", OPS_SORT_TC_SELF, false},
    {"tc_total", OPS_SORT_TC_TOTAL, false},
    {"name", OPS_SORT_NAME, false},
    {NULL, 0, false},
};

static const struct vo ops_opts[] = {
    {.lname = "group-by",
     .api = "group_by",
     .type = VO_ENUM,
     .off = offsetof(struct view_opts, ops_group),
     .vals = ops_groups,
     .def = "op",
     .help = "group by operator name (default) or by name and\n"
	     "input shape (Python's form of \"Input Dims\")"},
    {.lname = "stack",
     .api = "stack",
     .type = VO_FLAG,
     .off = offsetof(struct view_opts, ops_stack),
     .help = "also group by call stack (\"Call stack\", recorded\n"
	     "with with_stack=True); adds a Call Stack column"},
    {.lname = "sort",
     .api = "sort",
     .type = VO_ENUM,
     .off = offsetof(struct view_opts, ops_sort),
     .metavar = "COL",
     .vals = ops_sorts,
     .help = "device_self, device_total, host_self, host_total,\n"
	     "calls, tc_self, tc_total (descending) or name;\n"
	     "default: device_self when the trace has GPU work,\n"
	     "else host_self (as the plugin). Ties keep the\n"
	     "plugin's order."},
    VIEW_OPT_TOP_ROWS,
    VIEW_OPT_TB_COMPAT("reproduce torch-tb-profiler exactly, its quirks\n"
		       "included (docs/tb-compat.md): gpu_user_annotation\n"
		       "ProfilerStep copies become tree nodes, kernels\n"
		       "launched through cuda_driver stay unattributed,\n"
		       "only the plugin's Tensor Core name lists, and its\n"
		       "backward-module rewrite (backward subtrees moved\n"
		       "under <module>.backward nodes, some listed twice,\n"
		       "unmapped ones dropped)"),
};

const struct view_decl view_ops_decl = {
    .kind = VIEW_OPS,
    .name = "ops",
    .summary = "operator table (torch-tb-profiler's Operator view)",
    .help_head = ops_head,
    .help_tail = ops_tail,
    .opts = ops_opts,
    .nopts = VIEW_NC(ops_opts),
    .compute = ops_compute,
    .emit = ops_emit,
    .free = ops_res_free,
};
