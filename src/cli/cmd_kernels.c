/* kernels: `gpuprof kernels`, torch-tb-profiler's Kernel view of a trace
 * (src/tbprof/kernels.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/load.h"

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

/* --group-by, --top */
static int set_kernels(void *ctx, const char *name, const char *v, char *msg, size_t n)
{
	struct view_opts *o = ctx;
	if (!strcmp(name, "--top")) {
		if (app_parse_count(v, &o->top))
			return snprintf(msg, n, "--top needs a count, not '%s'", v), -1;
	} else if (!strcmp(v, "kernel")) {
		o->kern_group = KERN_BY_NAME;
	} else if (!strcmp(v, "kernel+op")) {
		o->kern_group = KERN_BY_NAME_OP;
	} else {
		return snprintf(msg, n, "--group-by must be kernel or kernel+op, not '%s'", v), -1;
	}
	return 0;
}

int cmd_kernels(struct app *app, int argc, char **argv)
{
	struct view_opts o;
	view_opts_init(&o);
	const struct arg_spec spec[] = {{"--group-by", NULL, set_kernels},
					{"--top", NULL, set_kernels},
					{"--tb-compat", &o.tb_compat, NULL}};
	const char *path;
	int rc = app_args(app, "kernels", "TRACE", argc, argv, spec, sizeof spec / sizeof spec[0],
			  &o, &path);
	if (rc)
		return rc;
	return app_run_view(app, "kernels", VIEW_KERNELS, path, &o);
}
