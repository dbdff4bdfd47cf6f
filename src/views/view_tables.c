/* view_tables: the operator and kernel tables (torch-tb-profiler's Operator
 * and Kernel views; src/tbprof/ops.h, src/tbprof/kernels.h), as `gpuprof ops`,
 * `gpuprof kernels` and GET /api/file/ID/{ops,kernels} show them. */
#include <inttypes.h>
#include <stdio.h>

#include "views/view_int.h"

int view_tables_compute(struct view *v, struct err *e)
{
	int rc = ses_tree(v->ses, v->o.tb_compat, &v->tree, e);
	if (rc)
		return rc;
	if (v->kind == VIEW_KERNELS)
		return kern_build(v->tree, v->o.kern_group, &v->kern, e);
	struct ops_opts oo = {.group = v->o.ops_group, .stack = v->o.ops_stack};
	if ((rc = ops_build(v->tree, &oo, &v->ops, e)))
		return rc;
	v->sorted = ops_sort(&v->ops, v->tree, v->o.ops_sort);
	return 0;
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

void view_ops_emit(struct view *vw, struct report *r)
{
	const struct optree *o = vw->tree;
	const struct ops_view *v = &vw->ops;
	const struct ops_opts oo_ = {.group = vw->o.ops_group, .stack = vw->o.ops_stack};
	const struct ops_opts *oo = &oo_;
	size_t top = vw->o.top;
	enum ops_sort sorted = vw->sorted;
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
	for (size_t i = 0; i < o->npost; i++) {
		nodes += o->nodes[o->post[i]].cls != OPC_ROOT;
		ops += o->nodes[o->post[i]].is_op;
	}
	rep_kv_begin(r, "tree", "Call tree");
	rep_kv(r, "threads", "Threads", REP_INT, rep_i((int64_t)o->nthreads));
	rep_kv(r, "host_nodes", "Host nodes", REP_INT, rep_i(nodes));
	rep_kv(r, "operators", "Operator calls", REP_INT, rep_i(ops));
	rep_kv(r, "groups", "Rows", REP_INT, rep_i((int64_t)v->n));
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
static struct rep_val k_bps(const struct kern_ctx *c, const struct kern_row *k, char *buf)
{
	return c->v->has_blocks_per_sm ? rep_f(k->mean_bps) : rep_null();
}
static struct rep_val k_occ(const struct kern_ctx *c, const struct kern_row *k, char *buf)
{
	return c->v->has_occupancy ? rep_f(k->mean_occ) : rep_null();
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

void view_kernels_emit(struct view *vw, struct report *r)
{
	const struct optree *o = vw->tree;
	const struct kern_view *v = &vw->kern;
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
