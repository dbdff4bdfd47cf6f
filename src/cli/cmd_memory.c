/* memory: `gpuprof memory`, torch-tb-profiler's Memory view of a trace
 * (src/tbprof/memory.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/load.h"

const char cmd_memory_help[] =
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
    "Options:\n"
    "  --device DEV     cpu or cuda:N (also tb's CPU, GPUN); default: the first\n"
    "                   GPU with records, else cpu\n"
    "  --curve          instead: the memory curve of the device, one point per\n"
    "                   record with totals (time since the profiler start,\n"
    "                   allocated bytes, reserved bytes)\n"
    "  --step-plot      with --curve: before each point, one at its time holding\n"
    "                   the previous values (the plugin's step-plot form)\n"
    "  --curve-points N with --curve: at most N points (N >= 6): the span is cut\n"
    "                   into N/6 columns, each keeping its first, last, lowest\n"
    "                   and highest points (allocated and reserved); the peaks\n"
    "                   remain (what the viewer asks for on big traces)\n"
    "  --events         instead: the allocation events of the device: allocation\n"
    "                   and free paired by address, with size, allocation and\n"
    "                   release times since the profiler start, and lifetime;\n"
    "                   empty times when the other end is not in the trace\n"
    "                   (--curve and --events may be given together)\n"
    "  --top N          with --events: the first N events only (the memory\n"
    "                   section says how many there are: events_all)\n"
    "  --start TIME     only records at or after TIME since the profiler start\n"
    "  --end TIME       only records at or before TIME (TIME: a number with ns,\n"
    "                   us, ms or s; bare numbers are ns)\n"
    "  --tb-compat      reproduce torch-tb-profiler exactly, its quirks included\n"
    "                   (docs/tb-compat.md): Calls miss the operators below a\n"
    "                   node no record reached; an allocation re-allocated at\n"
    "                   its address before a free vanishes from --events\n"
    "\n"
    "A last section, \"memory\", tells what was read: the device, the profiler\n"
    "start, records in all, in an operator, outside every operator, without an\n"
    "address, of other device types.\n"
    "\n"
    "Examples:\n"
    "  gpuprof memory run/worker0.pt.trace.json.gz\n"
    "  gpuprof memory --device cpu --events --start 10ms --end 20ms trace.json.gz\n"
    "  gpuprof memory --curve --format csv -o curve.csv trace.json.gz\n";

/* TIME: digits with an optional fraction and unit ns/us/ms/s (ns when
 * bare), exact in ns. -1 when malformed or out of range. */
static int parse_time(const char *s, int64_t *out)
{
	uint64_t whole = 0, frac = 0, fdiv = 1;
	const char *p = s;
	bool digits = false;
	for (; *p >= '0' && *p <= '9'; p++, digits = true) {
		if (whole > (UINT64_MAX - 9) / 10)
			return -1;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, digits = true) {
			if (fdiv > UINT64_MAX / 100)
				return -1;
			frac = frac * 10 + (uint64_t)(*p - '0');
			fdiv *= 10;
		}
	}
	uint64_t unit;
	if (!*p || !strcmp(p, "ns"))
		unit = 1;
	else if (!strcmp(p, "us"))
		unit = 1000;
	else if (!strcmp(p, "ms"))
		unit = 1000000;
	else if (!strcmp(p, "s"))
		unit = 1000000000;
	else
		return -1;
	if (!digits || whole > (uint64_t)INT64_MAX / unit || frac * unit % fdiv)
		return -1;
	uint64_t v = whole * unit + frac * unit / fdiv;
	if (v > (uint64_t)INT64_MAX)
		return -1;
	*out = (int64_t)v;
	return 0;
}

struct mem_args {
	const char *path, *device;
	bool curve, events, step_plot, tb_compat, windowed;
	struct mem_window w;
	size_t curve_points, top;
};

/* --device, --start, --end, --curve-points */
static int set_value(void *ctx, const char *name, const char *v, char *msg, size_t n)
{
	struct mem_args *a = ctx;
	int64_t ns;
	if (!strcmp(name, "--device")) {
		a->device = v;
	} else if (!strcmp(name, "--top")) {
		if (app_parse_count(v, &a->top) || !a->top)
			return snprintf(msg, n, "--top needs a count of at least 1, not '%s'", v),
			       -1;
	} else if (!strcmp(name, "--curve-points")) {
		if (app_parse_count(v, &a->curve_points) || a->curve_points < MEM_CURVE_KEEP)
			return snprintf(msg, n,
					"--curve-points needs a count of at least %d, not '%s'",
					MEM_CURVE_KEEP, v),
			       -1;
	} else if (parse_time(v, &ns)) {
		return snprintf(msg, n, "%s needs a time such as 1500, 2.5us or 10ms, not '%s'",
				name, v),
		       -1;
	} else {
		*(!strcmp(name, "--start") ? &a->w.start : &a->w.end) = ns;
		a->windowed = true;
	}
	return 0;
}

static int parse_args(struct app *app, int argc, char **argv, struct mem_args *a)
{
	a->w = (struct mem_window){INT64_MIN, INT64_MAX};
	const struct arg_spec spec[] = {
	    {"--device", NULL, set_value},	  {"--start", NULL, set_value},
	    {"--end", NULL, set_value},		  {"--curve-points", NULL, set_value},
	    {"--top", NULL, set_value},		  {"--curve", &a->curve, NULL},
	    {"--events", &a->events, NULL},	  {"--step-plot", &a->step_plot, NULL},
	    {"--tb-compat", &a->tb_compat, NULL},
	};
	int rc = app_args(app, "memory", "TRACE", argc, argv, spec, sizeof spec / sizeof spec[0], a,
			  &a->path);
	if (rc)
		return rc;
	if (a->step_plot && !a->curve)
		return app_usage(app, "memory", "--step-plot goes with --curve");
	if (a->top && !a->events)
		return app_usage(app, "memory", "--top goes with --events");
	if (a->curve_points && (!a->curve || a->step_plot))
		return app_usage(app, "memory",
				 "--curve-points goes with --curve, without --step-plot");
	if (a->w.start != INT64_MIN && a->w.end != INT64_MAX && a->w.end < a->w.start)
		return app_usage(app, "memory", "--end is before --start");
	return 0;
}

int cmd_memory(struct app *app, int argc, char **argv)
{
	struct mem_args a = {0};
	int rc = parse_args(app, argc, argv, &a);
	if (rc)
		return rc;
	struct view_opts o;
	view_opts_init(&o);
	o.tb_compat = a.tb_compat;
	o.device = a.device;
	o.curve = a.curve;
	o.events = a.events;
	o.step_plot = a.step_plot;
	o.curve_points = a.curve_points;
	if (a.top)
		o.top = a.top;
	o.windowed = a.windowed;
	o.window = a.w;
	return app_run_view(app, "memory", VIEW_MEMORY, a.path, &o);
}
