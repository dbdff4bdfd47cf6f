/* summary: the overview of one trace (torch-tb-profiler's Overview page):
 * configuration, steps, the average step's breakdown, per-GPU metrics and
 * the input anomalies. */
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/load.h"

const char cmd_summary_help[] =
    "Usage: gpuprof summary [options] TRACE\n"
    "\n"
    "The overview of a PyTorch profiler (Kineto) trace, with the numbers of the\n"
    "PyTorch profiler's TensorBoard plugin (torch-tb-profiler) Overview page:\n"
    "\n"
    "  overview   device type, number of steps, average step time\n"
    "  gpus       per GPU used by kernels (args.device): name, memory, compute\n"
    "             capability and SMs from deviceProperties; GPU Utilization\n"
    "             (kernel busy time / steps time), Est. SM Efficiency (blocks\n"
    "             per SM of the running kernels, capped at 1, time-weighted /\n"
    "             steps time) and Est. Achieved Occupancy (occupancy weighted\n"
    "             by kernel time), all over first step start .. last step end;\n"
    "             GPUs of deviceProperties without kernels have no metrics\n"
    "  breakdown  the average step time split into Kernel, Memcpy, Memset,\n"
    "             Communication, Runtime, DataLoader, CPU Exec, Other (with\n"
    "             their percentages; device parts only when the trace has GPU\n"
    "             activity, Communication only when it has some), then Total\n"
    "             Kernel Time using Tensor Cores: the share of Tensor Core kernels\n"
    "             in the kernel time the operators launched\n"
    "  recommendations  the plugin's performance advice (input loading,\n"
    "             DataParallel, NCCL, communication, low utilization, mixed\n"
    "             precision, memory at the limit)\n"
    "  anomalies  what was wrong with the input (see 'gpuprof info')\n"
    "\n"
    "The overview also gives the Tensor-Core-eligible share: kernel time of\n"
    "the operators that could use Tensor Cores over that of all operators.\n"
    "'gpuprof steps' gives the same breakdown per step and explains how steps\n"
    "are found.\n"
    "\n"
    "CSV/JSON columns: gpus: gpu, name, memory_bytes, compute_capability, sms,\n"
    "kernels, gpu_utilization_pct, est_sm_efficiency_pct,\n"
    "est_achieved_occupancy_pct, tensor_cores_pct (null when not defined);\n"
    "breakdown: part, avg_ns, pct; recommendations: text; anomalies: anomaly,\n"
    "count, description. With --tb-compat the recommendations are the\n"
    "plugin's HTML strings, byte for byte.\n"
    "\n"
    "Options:\n"
    "  --tb-compat  reproduce torch-tb-profiler exactly, quirks included\n"
    "               (gpu_user_annotation ProfilerStep copies become steps,\n"
    "               GPU annotations count as CPU Exec); see docs/tb-compat.md\n"
    "  --timeline   add the GPU utilization timeline (the plugin's trace-view\n"
    "               counter: busy fraction per power-of-ten bucket, at most\n"
    "               100, over the profiler's window; tables\n"
    "               gpu_utilization_timeline: gpu, start_ns, utilization) and\n"
    "               the SM efficiency ranges (sm_efficiency_ranges: gpu,\n"
    "               start_ns, end_ns, value)\n"
    "\n"
    "Examples:\n"
    "  gpuprof summary run/worker0.pt.trace.json.gz\n"
    "  gpuprof summary --tb-compat --format json trace.json.gz | jq .breakdown\n";

int cmd_summary(struct app *app, int argc, char **argv)
{
	struct view_opts o;
	view_opts_init(&o);
	const struct arg_spec spec[] = {{"--tb-compat", &o.tb_compat, NULL},
					{"--timeline", &o.timeline, NULL}};
	const char *path;
	int rc = app_args(app, "summary", "TRACE", argc, argv, spec, sizeof spec / sizeof spec[0],
			  &o, &path);
	if (rc)
		return rc;
	app->anomaly_notes = false; /* the summary lists them */
	return app_run_view(app, "summary", VIEW_SUMMARY, path, &o);
}
