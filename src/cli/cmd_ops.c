/* ops: `gpuprof ops`, torch-tb-profiler's Operator view of a trace
 * (src/torch/ops.h). */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/load.h"
#include "torch/ops.h"

const char cmd_ops_help[] =
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
	"Options:\n"
	"  --group-by op|op+shape  group by operator name (default) or by name and\n"
	"                          input shape (Python's form of \"Input Dims\")\n"
	"  --stack                 also group by call stack (\"Call stack\", recorded\n"
	"                          with with_stack=True); adds a Call Stack column\n"
	"  --sort COL              device_self, device_total, host_self, host_total,\n"
	"                          calls, tc_self, tc_total (descending) or name;\n"
	"                          default: device_self when the trace has GPU work,\n"
	"                          else host_self (as the plugin). Ties keep the\n"
	"                          plugin's order.\n"
	"  --top N                 only the first N rows\n"
	"  --tb-compat             reproduce torch-tb-profiler exactly, its quirks\n"
	"                          included (docs/tb-compat.md): gpu_user_annotation\n"
	"                          ProfilerStep copies become tree nodes, kernels\n"
	"                          launched through cuda_driver stay unattributed,\n"
	"                          only the plugin's Tensor Core name lists\n"
	"\n"
	"A second table, \"tree\", tells what was built: threads, nodes, host events\n"
	"dropped because they partially overlap on one thread, runtime calls no\n"
	"operator claimed (their GPU time is in no row), kernels no runtime launched.\n"
	"\n"
	"Examples:\n"
	"  gpuprof ops run/worker0.pt.trace.json.gz --top 20\n"
	"  gpuprof ops --group-by op+shape --sort host_self trace.json.gz\n"
	"  gpuprof ops --tb-compat --format json -o ops.json trace.json.gz\n";

enum { COL_ALWAYS, COL_SHAPE, COL_STACK, COL_NOSTACK };

/* Every column of the table, declared once; `when` says which option
 * shows it. */
static const struct ops_col {
	struct rep_col col;
	int when;
} all_cols[] = {
	{{"name", "Name", REP_STR}, COL_ALWAYS},
	{{"input_shape", "Input Shape", REP_STR}, COL_SHAPE},
	{{"call_stack", "Call Stack", REP_STR}, COL_STACK},
	{{"calls", "Calls", REP_INT}, COL_ALWAYS},
	{{"device_self_ns", "Device Self", REP_DUR_NS}, COL_ALWAYS},
	{{"device_total_ns", "Device Total", REP_DUR_NS}, COL_ALWAYS},
	{{"host_self_ns", "Host Self", REP_DUR_NS}, COL_ALWAYS},
	{{"host_total_ns", "Host Total", REP_DUR_NS}, COL_ALWAYS},
	{{"tc_eligible", "TC Eligible", REP_BOOL}, COL_ALWAYS},
	{{"tc_self_pct", "TC Self", REP_PCT}, COL_ALWAYS},
	{{"tc_total_pct", "TC Total", REP_PCT}, COL_ALWAYS},
	{{"has_call_stack", "Has Stack", REP_BOOL}, COL_NOSTACK},
};
#define NCOLS (sizeof all_cols / sizeof all_cols[0])

static bool col_on(int when, const struct ops_opts *oo)
{
	return when == COL_ALWAYS || (when == COL_SHAPE && oo->group == OPS_BY_NAME_SHAPE) ||
	       (when == COL_STACK && oo->stack) || (when == COL_NOSTACK && !oo->stack);
}

static void emit(struct report *r, const struct optree *o, const struct ops_view *v,
		 const struct ops_opts *oo, size_t top, enum ops_sort sorted)
{
	const struct trace *t = o->t;
	struct rep_col cols[NCOLS];
	int nc = 0;
	for (size_t i = 0; i < NCOLS; i++)
		if (col_on(all_cols[i].when, oo))
			cols[nc++] = all_cols[i].col;
	rep_table_begin(r, "operators", "Operators", cols, nc);
	for (size_t i = 0; i < v->n && i < top; i++) {
		const struct ops_row *row = &v->rows[i];
		const struct rep_val vals[] = {
			rep_s(tr_str(t, row->name)),
			rep_s(ops_shape(v, row)),
			row->call_stack ? rep_s(tr_str(t, row->call_stack)) : rep_null(),
			rep_i((int64_t)row->calls),
			rep_i(row->self_device),
			rep_i(row->device),
			rep_i(row->self_host),
			rep_i(row->host),
			rep_b(row->tc_eligible),
			rep_f(ops_tc_self_pct(row)),
			rep_f(ops_tc_total_pct(row)),
			rep_b(row->has_call_stack),
		};
		struct rep_val out[NCOLS];
		int k = 0;
		for (size_t c = 0; c < NCOLS; c++)
			if (col_on(all_cols[c].when, oo))
				out[k++] = vals[c];
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

int cmd_ops(struct app *app, int argc, char **argv)
{
	struct ops_opts oo = {.group = OPS_BY_NAME};
	struct optree_opts to = {0};
	enum ops_sort by = OPS_SORT_TB;
	size_t top = SIZE_MAX;
	const char *path = NULL;
	bool dashdash = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (dashdash || a[0] != '-' || !a[1]) {
			if (path)
				return app_usage(app, "ops", "one TRACE only (got '%s' and '%s')", path, a);
			path = a;
		} else if (!strcmp(a, "--")) {
			dashdash = true;
		} else if (!strcmp(a, "--group-by") || !strcmp(a, "--sort") || !strcmp(a, "--top")) {
			if (i + 1 >= argc)
				return app_usage(app, "ops", "option %s needs a value", a);
			const char *v = argv[++i];
			if (!strcmp(a, "--group-by")) {
				if (!strcmp(v, "op"))
					oo.group = OPS_BY_NAME;
				else if (!strcmp(v, "op+shape"))
					oo.group = OPS_BY_NAME_SHAPE;
				else
					return app_usage(app, "ops", "--group-by must be op or op+shape, not '%s'", v);
			} else if (!strcmp(a, "--sort")) {
				int s = ops_sort_parse(v);
				if (s < 0 || s == OPS_SORT_TB)
					return app_usage(app, "ops", "unknown --sort column '%s'", v);
				by = (enum ops_sort)s;
			} else {
				char *end;
				long long n = strtoll(v, &end, 10);
				if (*end || end == v || n < 0)
					return app_usage(app, "ops", "--top needs a count, not '%s'", v);
				top = (size_t)n;
			}
		} else if (!strcmp(a, "--stack")) {
			oo.stack = true;
		} else if (!strcmp(a, "--tb-compat")) {
			to.tb_compat = true;
		} else {
			return app_usage(app, "ops", "unknown option '%s'", a);
		}
	}
	if (!path)
		return app_usage(app, "ops", "no TRACE given");
	struct trace *t;
	int rc = app_load_trace(app, path, &t);
	if (rc)
		return rc;
	struct err e = {0};
	struct optree o;
	struct ops_view v;
	if (optree_build(t, &to, &o, &e)) {
		rc = app_fail(app, &e);
	} else {
		if (ops_build(&o, &oo, &v, &e)) {
			rc = app_fail(app, &e);
		} else {
			enum ops_sort sorted = ops_sort(&v, &o, by);
			if ((rc = app_out_open(app, &e))) {
				rc = app_fail(app, &e);
			} else {
				struct report *r = rep_open(app->out, app->format);
				if (r)
					emit(r, &o, &v, &oo, top, sorted);
				bool ok = r && rep_close(r) == 0;
				if ((rc = app_out_close(app, ok, &e)))
					rc = app_fail(app, &e);
				else if (!ok)
					rc = 2;
			}
			ops_free(&v);
		}
		optree_free(&o);
	}
	tr_free(t);
	return rc;
}
