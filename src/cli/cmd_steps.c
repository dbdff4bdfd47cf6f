/* steps: the training steps of a trace and where each step's time went
 * (torch-tb-profiler's overview step table). */
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/load.h"
#include "tbprof/select.h"

const char cmd_steps_help[] =
    "Usage: gpuprof steps [options] TRACE\n"
    "\n"
    "One row per training step: its name (N of ProfilerStep#N), start and end\n"
    "(ns, on the trace's clock) and the time breakdown of the step, as the\n"
    "PyTorch profiler's TensorBoard plugin (torch-tb-profiler) computes it:\n"
    "Kernel, Memcpy, Memset, Communication, Runtime, DataLoader, CPU Exec and\n"
    "Other, in that priority order (a moment counts for the first part busy at\n"
    "that moment, so the parts add up to the step's Total). A last row\n"
    "'average' holds the mean over the steps.\n"
    "\n"
    "Steps come from ProfilerStep#N events; a step is stretched to the end of\n"
    "the GPU work launched from inside it and starts no earlier than the\n"
    "previous step's end; trailing steps that launched no GPU work (or much\n"
    "less than the step before) are dropped, as the profiler probably missed\n"
    "their kernels. A trace without ProfilerStep events has one step '0' over\n"
    "its CPU operators. Communication is the kernels of the collective ops\n"
    "nccl:/gloo: broadcast, reduce, all_reduce, all_gather, reduce_scatter.\n"
    "A section 'step_detection' says how the steps were found.\n"
    "\n"
    "CSV/JSON columns: step, start_ns, end_ns, kernel_ns, memcpy_ns, memset_ns,\n"
    "communication_ns, runtime_ns, dataloader_ns, cpu_exec_ns, other_ns,\n"
    "total_ns (the average row is rounded to whole ns).\n"
    "\n"
    "Options:\n"
    "  --tb-compat  reproduce torch-tb-profiler exactly, quirks included:\n"
    "               gpu_user_annotation copies of ProfilerStep#N become extra\n"
    "               (duplicate or empty) steps and GPU annotation ranges count\n"
    "               as CPU Exec. By default gpu_user_annotation events are\n"
    "               left out. See docs/tb-compat.md.\n"
    "\n"
    "Examples:\n"
    "  gpuprof steps run/worker0.pt.trace.json.gz\n"
    "  gpuprof steps --tb-compat --format csv trace.json > steps.csv\n";

int cmd_steps(struct app *app, int argc, char **argv)
{
	struct view_opts o;
	view_opts_init(&o);
	const struct arg_spec spec[] = {{"--tb-compat", &o.tb_compat, NULL}};
	const char *path;
	int rc = app_args(app, "steps", "TRACE", argc, argv, spec, sizeof spec / sizeof spec[0], &o,
			  &path);
	if (rc)
		return rc;
	/* --step picks rows of the whole trace's steps (the view does it), so
	 * that each row is the one the full table shows; --range still
	 * restricts the events. */
	const char *only = app->step;
	app->step = NULL;
	if (only && tr_parse_steps(only, &o.step_lo, &o.step_hi))
		return app_usage(app, "steps", "--step takes N or A-B, not '%s'", only);
	o.only_steps = only != NULL;
	o.step_text = only;
	return app_run_view(app, "steps", VIEW_STEPS, path, &o);
}
