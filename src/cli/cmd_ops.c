/* ops: `gpuprof ops`, torch-tb-profiler's Operator view of a trace
 * (src/tbprof/ops.h). */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/load.h"

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

/* --group-by, --sort, --top */
static int set_ops(void *ctx, const char *name, const char *v, char *msg, size_t n)
{
	struct view_opts *o = ctx;
	if (!strcmp(name, "--group-by")) {
		if (!strcmp(v, "op"))
			o->ops_group = OPS_BY_NAME;
		else if (!strcmp(v, "op+shape"))
			o->ops_group = OPS_BY_NAME_SHAPE;
		else
			return snprintf(msg, n, "--group-by must be op or op+shape, not '%s'", v),
			       -1;
	} else if (!strcmp(name, "--sort")) {
		int s = ops_sort_parse(v);
		if (s < 0 || s == OPS_SORT_TB)
			return snprintf(msg, n, "unknown --sort column '%s'", v), -1;
		o->ops_sort = (enum ops_sort)s;
	} else if (app_parse_count(v, &o->top)) {
		return snprintf(msg, n, "--top needs a count, not '%s'", v), -1;
	}
	return 0;
}

int cmd_ops(struct app *app, int argc, char **argv)
{
	struct view_opts o;
	view_opts_init(&o);
	const struct arg_spec spec[] = {
	    {"--group-by", NULL, set_ops},
	    {"--sort", NULL, set_ops},
	    {"--top", NULL, set_ops},
	    {"--stack", &o.ops_stack, NULL},
	    {"--tb-compat", &o.tb_compat, NULL},
	};
	const char *path;
	int rc = app_args(app, "ops", "TRACE", argc, argv, spec, sizeof spec / sizeof spec[0], &o,
			  &path);
	if (rc)
		return rc;
	return app_run_view(app, "ops", VIEW_OPS, path, &o);
}
