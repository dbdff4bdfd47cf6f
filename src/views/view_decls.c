/* view_decls: the declarations of the torch-tb-profiler views (summary,
 * steps, ops, kernels, memory): their help, their options and the functions
 * of view.c, view_summary.c, view_tables.c and view_memory.c. */
#include <stddef.h>
#include <stdio.h>

#include "views/view_int.h"

_Static_assert(sizeof(enum ops_group) == sizeof(int) && sizeof(enum ops_sort) == sizeof(int) &&
		   sizeof(enum kern_group) == sizeof(int),
	       "VO_ENUM options store an int");

#define NOPTS(a) (sizeof a / sizeof a[0])

static const char summary_head[] =
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
    "Options:\n";

static const char summary_tail[] =
    "\n"
    "Examples:\n"
    "  gpuprof summary run/worker0.pt.trace.json.gz\n"
    "  gpuprof summary --tb-compat --format json trace.json.gz | jq .breakdown\n";

static const struct vo summary_opts[] = {
    {.lname = "tb-compat",
     .api = "tb_compat",
     .type = VO_FLAG,
     .off = offsetof(struct view_opts, tb_compat),
     .help = "reproduce torch-tb-profiler exactly, quirks included\n"
	     "(gpu_user_annotation ProfilerStep copies become steps,\n"
	     "GPU annotations count as CPU Exec); see docs/tb-compat.md"},
    {.lname = "timeline",
     .api = "timeline",
     .type = VO_FLAG,
     .off = offsetof(struct view_opts, timeline),
     .help = "add the GPU utilization timeline (the plugin's trace-view\n"
	     "counter: busy fraction per power-of-ten bucket, at most\n"
	     "100, over the profiler's window; tables\n"
	     "gpu_utilization_timeline: gpu, start_ns, utilization) and\n"
	     "the SM efficiency ranges (sm_efficiency_ranges: gpu,\n"
	     "start_ns, end_ns, value)"},
};

static const char steps_head[] =
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
    "Options:\n";

static const char steps_tail[] =
    "\n"
    "Examples:\n"
    "  gpuprof steps run/worker0.pt.trace.json.gz\n"
    "  gpuprof steps --tb-compat --format csv trace.json > steps.csv\n";

static const struct vo steps_opts[] = {
    {.lname = "tb-compat",
     .api = "tb_compat",
     .type = VO_FLAG,
     .off = offsetof(struct view_opts, tb_compat),
     .help = "reproduce torch-tb-profiler exactly, quirks included:\n"
	     "gpu_user_annotation copies of ProfilerStep#N become extra\n"
	     "(duplicate or empty) steps and GPU annotation ranges count\n"
	     "as CPU Exec. By default gpu_user_annotation events are\n"
	     "left out. See docs/tb-compat.md."},
};

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
    "operator claimed (their GPU time is in no row), kernels no runtime launched.\n"
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
    {.lname = "top",
     .api = "top",
     .type = VO_COUNT,
     .off = offsetof(struct view_opts, top),
     .metavar = "N",
     .help = "only the first N rows"},
    {.lname = "tb-compat",
     .api = "tb_compat",
     .type = VO_FLAG,
     .off = offsetof(struct view_opts, tb_compat),
     .help = "reproduce torch-tb-profiler exactly, its quirks\n"
	     "included (docs/tb-compat.md): gpu_user_annotation\n"
	     "ProfilerStep copies become tree nodes, kernels\n"
	     "launched through cuda_driver stay unattributed,\n"
	     "only the plugin's Tensor Core name lists"},
};

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
    {.lname = "top",
     .api = "top",
     .type = VO_COUNT,
     .off = offsetof(struct view_opts, top),
     .metavar = "N",
     .help = "only the first N rows"},
    {.lname = "tb-compat",
     .api = "tb_compat",
     .type = VO_FLAG,
     .off = offsetof(struct view_opts, tb_compat),
     .help = "reproduce torch-tb-profiler exactly, quirks\n"
	     "included (docs/tb-compat.md): kernels launched\n"
	     "through cuda_driver stay unattributed, only the\n"
	     "plugin's Tensor Core kernel names count"},
};

static const char memory_head[] =
    "Usage: gpuprof memory [options] TRACE\n"
    "\n"
    "torch-tb-profiler's Memory view, from the allocator's [memory] records\n"
    "(recorded with profile_memory=True). Each record joins the innermost\n"
    "operator running on its thread at that moment; frees take the operator of\n"
    "the allocation at the same address.\n"
    "\n"
    "By default, for one device: per operator name, the number of calls, the\n"
    "memory increase (allocated minus freed bytes) of its calls with and\n"
    "without their callees (Size Increase, Self Size Increase), the number and\n"
    "bytes of allocations with and without callees; rows by name, only rows\n"
    "with a non-zero number. Then the peak allocated and reserved bytes of\n"
    "every device (\"Total Allocated\" / \"Total Reserved\" of the records; empty\n"
    "when the trace has none). docs/views.md says how each is computed.\n"
    "\n"
    "Options:\n";

static const char memory_tail[] =
    "\n"
    "A last section, \"memory\", tells what was read: the device, the profiler\n"
    "start, records in all, in an operator, outside every operator, without an\n"
    "address, of other device types.\n"
    "\n"
    "Examples:\n"
    "  gpuprof memory run/worker0.pt.trace.json.gz\n"
    "  gpuprof memory --device cpu --events --start 10ms --end 20ms trace.json.gz\n"
    "  gpuprof memory --curve --format csv -o curve.csv trace.json.gz\n";

static const struct vo memory_opts[] = {
    {.lname = "device",
     .api = "device",
     .type = VO_STRING,
     .off = offsetof(struct view_opts, device),
     .metavar = "DEV",
     .help = "cpu or cuda:N (also tb's CPU, GPUN); default: the first\n"
	     "GPU with records, else cpu"},
    {.lname = "curve",
     .api = "curve",
     .type = VO_FLAG,
     .off = offsetof(struct view_opts, curve),
     .help = "instead: the memory curve of the device, one point per\n"
	     "record with totals (time since the profiler start,\n"
	     "allocated bytes, reserved bytes)"},
    {.lname = "step-plot",
     .api = "step_plot",
     .type = VO_FLAG,
     .off = offsetof(struct view_opts, step_plot),
     .help = "with --curve: before each point, one at its time holding\n"
	     "the previous values (the plugin's step-plot form)"},
    {.lname = "curve-points",
     .api = "points",
     .type = VO_COUNT,
     .off = offsetof(struct view_opts, curve_points),
     .metavar = "N",
     .min = MEM_CURVE_KEEP,
     .help = "with --curve: at most N points (N >= 6): the span is cut\n"
	     "into N/6 columns, each keeping its first, last, lowest\n"
	     "and highest points (allocated and reserved); the peaks\n"
	     "remain (what the viewer asks for on big traces)"},
    {.lname = "events",
     .api = "events",
     .type = VO_FLAG,
     .off = offsetof(struct view_opts, events),
     .help = "instead: the allocation events of the device: allocation\n"
	     "and free paired by address, with size, allocation and\n"
	     "release times since the profiler start, and lifetime;\n"
	     "empty times when the other end is not in the trace\n"
	     "(--curve and --events may be given together)"},
    {.lname = "top",
     .api = "top",
     .type = VO_COUNT,
     .off = offsetof(struct view_opts, top),
     .metavar = "N",
     .min = 1,
     .help = "with --events: the first N events only (the memory\n"
	     "section says how many there are: events_all)"},
    {.lname = "start",
     .api = "start_ns",
     .type = VO_TIME,
     .off = offsetof(struct view_opts, window.start),
     .metavar = "TIME",
     .help = "only records at or after TIME since the profiler start"},
    {.lname = "end",
     .api = "end_ns",
     .type = VO_TIME,
     .off = offsetof(struct view_opts, window.end),
     .metavar = "TIME",
     .help = "only records at or before TIME (TIME: a number with ns,\n"
	     "us, ms or s; bare numbers are ns)"},
    {.lname = "tb-compat",
     .api = "tb_compat",
     .type = VO_FLAG,
     .off = offsetof(struct view_opts, tb_compat),
     .help = "reproduce torch-tb-profiler exactly, its quirks included\n"
	     "(docs/tb-compat.md): Calls miss the operators below a\n"
	     "node no record reached; an allocation re-allocated at\n"
	     "its address before a free vanishes from --events"},
};

/* memory: which options go together. The API drops step_plot without curve
 * (as its pages ask), where the CLI refuses it. */
static int memory_check(const struct view_decl *d, struct view_opts *o, enum vo_front f, char *msg,
			size_t n)
{
	char a[VO_NAME_MAX], b[VO_NAME_MAX], c[VO_NAME_MAX];
#define NAME(lname, buf) vo_name_of(d->opts, d->nopts, lname, f, buf)
	if (o->step_plot && !o->curve) {
		if (f == VO_API)
			o->step_plot = false;
		else
			return snprintf(msg, n, "%s goes with %s", NAME("step-plot", a),
					NAME("curve", b)),
			       -1;
	}
	if (o->top != SIZE_MAX && !o->events)
		return snprintf(msg, n, "%s goes with %s", NAME("top", a), NAME("events", b)), -1;
	if (o->curve_points && (!o->curve || o->step_plot))
		return snprintf(msg, n, "%s goes with %s, without %s", NAME("curve-points", a),
				NAME("curve", b), NAME("step-plot", c)),
		       -1;
	if (o->window.end < o->window.start)
		return snprintf(msg, n, "%s is before %s", NAME("end", a), NAME("start", b)), -1;
#undef NAME
	o->windowed = o->window.start != INT64_MIN || o->window.end != INT64_MAX;
	return 0;
}

/* A view of this file: NAME_head, NAME_tail and NAME_opts above, the
 * analyses' results freed by view_tb_free. */
#define TB_VIEW(nm, k, text, fl, chk, comp, em)                                                    \
	const struct view_decl view_##nm##_decl = {                                                \
	    .kind = k,                                                                             \
	    .name = #nm,                                                                           \
	    .summary = text,                                                                       \
	    .help_head = nm##_head,                                                                \
	    .help_tail = nm##_tail,                                                                \
	    .opts = nm##_opts,                                                                     \
	    .nopts = NOPTS(nm##_opts),                                                             \
	    .flags = fl,                                                                           \
	    .check = chk,                                                                          \
	    .compute = comp,                                                                       \
	    .emit = em,                                                                            \
	    .free = view_tb_free,                                                                  \
	}

TB_VIEW(summary, VIEW_SUMMARY, "overview: GPUs, steps, average step breakdown, GPU utilization",
	VIEW_OWN_ANOMALIES, NULL, view_summary_compute, view_summary_emit);
TB_VIEW(steps, VIEW_STEPS, "training steps and their time breakdown (Kernel, Memcpy, ..., Other)",
	VIEW_STEP_ROWS, NULL, view_steps_compute, view_steps_emit);
TB_VIEW(ops, VIEW_OPS, "operator table (torch-tb-profiler's Operator view)", 0, NULL,
	view_tables_compute, view_ops_emit);
TB_VIEW(kernels, VIEW_KERNELS, "kernel table (torch-tb-profiler's Kernel view)", 0, NULL,
	view_tables_compute, view_kernels_emit);
TB_VIEW(memory, VIEW_MEMORY, "memory by operator, peaks, curve, allocations (tb's Memory view)", 0,
	memory_check, view_memory_compute, view_memory_emit);
