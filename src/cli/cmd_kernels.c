/* kernels: `gpuprof kernels`, torch-tb-profiler's Kernel view of a trace
 * (src/torch/kernels.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/load.h"
#include "torch/kernels.h"

const char cmd_kernels_help[] =
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
	"Options:\n"
	"  --group-by kernel|kernel+op  group by kernel name (default) or by kernel,\n"
	"                               operator and launch configuration\n"
	"  --top N                      only the first N rows\n"
	"  --tb-compat                  reproduce torch-tb-profiler exactly, quirks\n"
	"                               included (docs/tb-compat.md): kernels launched\n"
	"                               through cuda_driver stay unattributed, only the\n"
	"                               plugin's Tensor Core kernel names count\n"
	"\n"
	"Examples:\n"
	"  gpuprof kernels run/worker0.pt.trace.json.gz --top 20\n"
	"  gpuprof kernels --group-by kernel+op --format csv trace.json.gz\n";

enum { COL_ALWAYS, COL_OP };

/* Every column, declared once; COL_OP ones only by kernel + op. */
static const struct kern_col {
	struct rep_col col;
	int when;
} all_cols[] = {
	{{"name", "Name", REP_STR}, COL_ALWAYS},
	{{"op", "Operator", REP_STR}, COL_OP},
	{{"grid", "Grid", REP_STR}, COL_OP},
	{{"block", "Block", REP_STR}, COL_OP},
	{{"registers_per_thread", "Registers", REP_INT}, COL_OP},
	{{"shared_memory_bytes", "Shared Mem", REP_BYTES}, COL_OP},
	{{"tc_used", "Uses TC", REP_BOOL}, COL_ALWAYS},
	{{"op_tc_eligible", "Op TC Eligible", REP_BOOL}, COL_OP},
	{{"calls", "Calls", REP_INT}, COL_ALWAYS},
	{{"total_ns", "Total", REP_DUR_NS}, COL_ALWAYS},
	{{"mean_ns", "Mean", REP_DUR_NS}, COL_ALWAYS},
	{{"max_ns", "Max", REP_DUR_NS}, COL_ALWAYS},
	{{"min_ns", "Min", REP_DUR_NS}, COL_ALWAYS},
	{{"mean_blocks_per_sm", "Blocks/SM", REP_FLOAT}, COL_ALWAYS},
	{{"mean_occupancy_pct", "Est. Occupancy", REP_PCT}, COL_ALWAYS},
};
#define NCOLS (sizeof all_cols / sizeof all_cols[0])

/* Python's str() of a dim3 list: "[128, 2, 1]". */
static struct rep_val dim3(char *buf, size_t n, const int32_t *d)
{
	if (d[0] < 0 && d[1] < 0 && d[2] < 0)
		return rep_null();
	snprintf(buf, n, "[%" PRId32 ", %" PRId32 ", %" PRId32 "]", d[0], d[1], d[2]);
	return rep_s(buf);
}

static void emit(struct report *r, struct optree *o, const struct kern_view *v,
		 enum kern_group group, size_t top)
{
	const struct trace *t = o->t;
	struct rep_col cols[NCOLS];
	int nc = 0;
	for (size_t i = 0; i < NCOLS; i++)
		if (all_cols[i].when == COL_ALWAYS || group == KERN_BY_NAME_OP)
			cols[nc++] = all_cols[i].col;
	rep_table_begin(r, "kernels", group == KERN_BY_NAME ? "Kernels" : "Kernels by operator",
			cols, nc);
	for (size_t i = 0; i < v->n && i < top; i++) {
		const struct kern_row *k = &v->rows[i];
		char gb[48], bb[48];
		const struct rep_val vals[] = {
			rep_s(tr_str(t, k->name)),
			k->op == OPT_NIL ? rep_s("N/A") : rep_s(optree_name(o, k->op)),
			dim3(gb, sizeof gb, k->grid),
			dim3(bb, sizeof bb, k->block),
			k->regs < 0 ? rep_null() : rep_i(k->regs),
			k->shared_mem < 0 ? rep_null() : rep_i(k->shared_mem),
			rep_b(k->tc_used),
			rep_b(k->op_tc_eligible),
			rep_i((int64_t)k->calls),
			rep_i(k->total),
			rep_i(kern_mean(k)),
			rep_i(k->max),
			rep_i(k->min),
			v->has_blocks_per_sm ? rep_f(k->mean_bps) : rep_null(),
			v->has_occupancy ? rep_f(k->mean_occ) : rep_null(),
		};
		struct rep_val out[NCOLS];
		int n = 0;
		for (size_t c = 0; c < NCOLS; c++)
			if (all_cols[c].when == COL_ALWAYS || group == KERN_BY_NAME_OP)
				out[n++] = vals[c];
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

int cmd_kernels(struct app *app, int argc, char **argv)
{
	enum kern_group group = KERN_BY_NAME;
	struct optree_opts to = {0};
	size_t top = SIZE_MAX;
	const char *path = NULL;
	bool dashdash = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (dashdash || a[0] != '-' || !a[1]) {
			if (path)
				return app_usage(app, "kernels", "one TRACE only (got '%s' and '%s')",
						 path, a);
			path = a;
		} else if (!strcmp(a, "--")) {
			dashdash = true;
		} else if (!strcmp(a, "--group-by") || !strcmp(a, "--top")) {
			if (i + 1 >= argc)
				return app_usage(app, "kernels", "option %s needs a value", a);
			const char *v = argv[++i];
			if (!strcmp(a, "--top")) {
				char *end;
				long long n = strtoll(v, &end, 10);
				if (*end || end == v || n < 0)
					return app_usage(app, "kernels", "--top needs a count, not '%s'", v);
				top = (size_t)n;
			} else if (!strcmp(v, "kernel")) {
				group = KERN_BY_NAME;
			} else if (!strcmp(v, "kernel+op")) {
				group = KERN_BY_NAME_OP;
			} else {
				return app_usage(app, "kernels",
						 "--group-by must be kernel or kernel+op, not '%s'", v);
			}
		} else if (!strcmp(a, "--tb-compat")) {
			to.tb_compat = true;
		} else {
			return app_usage(app, "kernels", "unknown option '%s'", a);
		}
	}
	if (!path)
		return app_usage(app, "kernels", "no TRACE given");
	struct trace *t;
	int rc = app_load_trace(app, path, &t);
	if (rc)
		return rc;
	struct err e = {0};
	struct optree o;
	struct kern_view v;
	if (optree_build(t, &to, &o, &e)) {
		rc = app_fail(app, &e);
	} else {
		if (kern_build(&o, group, &v, &e)) {
			rc = app_fail(app, &e);
		} else {
			if ((rc = app_out_open(app, &e))) {
				rc = app_fail(app, &e);
			} else {
				struct report *r = rep_open(app->out, app->format);
				if (r)
					emit(r, &o, &v, group, top);
				bool ok = r && rep_close(r) == 0;
				if ((rc = app_out_close(app, ok, &e)))
					rc = app_fail(app, &e);
				else if (!ok)
					rc = 2;
			}
			kern_free(&v);
		}
		optree_free(&o);
	}
	tr_free(t);
	return rc;
}
