/* dist: torch-tb-profiler's Distributed view over one trace per rank:
 * computation/communication overlap, data transfer vs synchronizing, the
 * collective ops table and the workers' GPUs. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/load.h"
#include "fleet/summary.h"
#include "input/input.h"
#include "tbprof/dist.h"
#include "views/view_dist.h"

const char cmd_dist_help[] =
    "Usage: gpuprof dist [options] TRACE|SUMMARY...\n"
    "\n"
    "The distributed view of a multi-GPU run, one trace per worker (rank), as\n"
    "the PyTorch profiler's TensorBoard plugin (torch-tb-profiler) computes it.\n"
    "Each collective call (e.g. nccl:all_reduce) is a communication node: its\n"
    "CPU op and the NCCL kernels it launched. Nodes are matched across the\n"
    "workers; for each matched range the shortest duration over the workers\n"
    "is data transfer, the rest of the communication time is synchronizing\n"
    "(waiting for the slowest rank). Tables (durations in ns):\n"
    "\n"
    "  overlap   per worker and step: computation only (kernels, or CPU ops\n"
    "            when the worker has no kernel), overlap of computation and\n"
    "            communication, communication only, other (the rest of the\n"
    "            step).\n"
    "  overlap_average  per worker: the mean step of overlap (Σ / steps,\n"
    "            truncated toward zero as the plugin's int()).\n"
    "  waittime  per worker and step holding communication: data transfer\n"
    "            and synchronizing time (step empty: ops in no step).\n"
    "  waittime_average  per worker: the mean of waittime over those steps.\n"
    "  commops   per worker and collective name: calls, bytes (input dims x\n"
    "            element size), avg_bytes, latency (merged time of the CPU op\n"
    "            and its kernels), transfer time, and per-call averages\n"
    "            (rounded half to even).\n"
    "  workers   name, file, rank, world size and backend (distributedInfo),\n"
    "            GPUs used, steps, collective calls, has_communication and\n"
    "            calls left unmatched across the workers.\n"
    "  gpus      per worker and GPU: node and process (the worker name split\n"
    "            as NODE_PROCESS), device name, memory, compute capability.\n"
    "A section 'distributed' says whether the view exists and, if not, why.\n"
    "With --fleet, five more tables (docs/dist.md, \"Fleet tables\"): stragglers\n"
    "(per worker: how often it arrived last at a collective, the time the others\n"
    "waited for it, its own wait, its step-time rank; the culprit first), skew\n"
    "(per collective instance: arrival skew = last - first kernel start, exit\n"
    "skew, duration spread; worst first; --top N), skew_collectives (per name\n"
    "and process group), bandwidth (algorithm and bus bandwidth per name and\n"
    "message size bucket) and balance (per step: min/median/max step time and\n"
    "the fastest and slowest worker).\n"
    "\n"
    "Any operand may be a rank summary of `gpuprof rank-summary` instead of the\n"
    "trace: the tables are the same, to the byte, and no trace is loaded for it.\n"
    "A summary keeps the worker name of its trace (unless --names); --step and\n"
    "--range apply when it is made; --tb-compat must match the summary's mode.\n"
    "\n"
    "Worker names follow the plugin: NAME[.SPAN].pt.trace.json[.gz] gives\n"
    "NAME; other files lose their .json/.gz ending (or use --names).\n"
    "Steps are those of 'gpuprof steps'. The global --step N|A-B cuts each\n"
    "worker's trace to its own window of those steps, as 'gpuprof steps --step'\n"
    "finds them in that trace (workers' clocks and step times differ; the\n"
    "numbers match); --range NAME to its own first user annotation (or CPU\n"
    "op) of that name. A worker without them is an error naming its file.\n"
    "\n"
    "By default collectives are every communication op of modern PyTorch:\n"
    "nested c10d:: ops, record_param_comms and nccl:/gloo: ops on a thread form\n"
    "one call, named after its nccl:/gloo: op (else record_param_comms'\n"
    "Collective name, else its own name); NCCL kernels (ncclKernel_*,\n"
    "ncclDevKernel_*) join the call that launched them; calls are matched\n"
    "per name by call index, and a mismatch leaves only those calls unmatched.\n"
    "\n"
    "Options:\n";

const char cmd_dist_help_tail[] =
    "\n"
    "Examples:\n"
    "  gpuprof dist run/node0_0.pt.trace.json.gz run/node0_1.pt.trace.json.gz\n"
    "  gpuprof dist --tb-compat --format json rank0.json rank1.json\n"
    "  gpuprof dist --step 3 --names r0,r1 rank0.json rank1.json\n"
    "  gpuprof dist --fleet --top 10 --table skew sum/*.json.gz\n";

/* --tb-compat, --names (dist_opts has no field for the names) */
struct dist_args {
	bool tb_compat;
	const char *names;
	bool fleet;
	size_t top;
};

const struct vo cmd_dist_opts[] = {
    {.lname = "tb-compat",
     .type = VO_FLAG,
     .off = offsetof(struct dist_args, tb_compat),
     .help = "reproduce torch-tb-profiler exactly: only nccl:/gloo:\n"
	     "broadcast, reduce, all_reduce, all_gather and\n"
	     "reduce_scatter are collectives; a worker with both\n"
	     "nccl: and gloo: ops has none; nodes are matched by\n"
	     "index and any mismatch (or a worker without\n"
	     "communication) empties every table but 'workers';\n"
	     "averages are whole µs. See docs/tb-compat.md."},
    {.lname = "names",
     .type = VO_STRING,
     .off = offsetof(struct dist_args, names),
     .metavar = "A,B,..",
     .help = "worker names, one per TRACE, in order"},
    {.lname = "fleet",
     .type = VO_FLAG,
     .off = offsetof(struct dist_args, fleet),
     .help = "add the fleet tables after the others: stragglers, skew,\n"
	     "skew_collectives, bandwidth, balance (docs/dist.md)"},
    {.lname = "top",
     .type = VO_COUNT,
     .off = offsetof(struct dist_args, top),
     .metavar = "N",
     .help = "with --fleet: the N worst collective instances in skew\n"
	     "(default: all)"},
};
const size_t cmd_dist_nopts = sizeof cmd_dist_opts / sizeof cmd_dist_opts[0];

/* What the tables are written from. */
struct dist_emit {
	const struct dist_result *d;
	bool fleet;
	size_t top;
};

/* app_emit_fn of the distributed view. */
static int emit_dist(void *ctx, struct report *r, FILE *out)
{
	(void)out;
	const struct dist_emit *x = ctx;
	if (dist_view_emit(r, x->d))
		return -1;
	return x->fleet ? dist_fleet_view_emit(r, x->d, x->top) : 0;
}

/* Adds the worker of rank summary `path` (the i-th operand): the summary
 * holds what dist_add computed, so a summary and its trace give the same
 * tables; its worker name is the summary's unless --names gives one. */
static int add_summary(struct app *app, struct dist_result *d, const char *path, const char *names,
		       int i, struct err *e)
{
	if (app->step || app->range)
		return app_usage(app, "dist",
				 "%s is a rank summary: --step and --range apply when it is made "
				 "(gpuprof rank-summary --step ...)",
				 path);
	char name[256], *text = NULL;
	size_t len = 0;
	const char *nm = names ? dist_nth_name(names, i, name, sizeof name) : NULL;
	int rc = fleet_summary_read_file(path, &text, &len, e);
	if (!rc)
		rc = fleet_summary_add(d, text, len, path, nm, e);
	free(text);
	return rc ? app_fail(app, e) : 0;
}

int cmd_dist(struct app *app, int argc, char **argv)
{
	struct dist_opts o = {0};
	struct dist_args a = {0};
	const char **paths = calloc((size_t)argc + 1, sizeof *paths);
	int np = 0;
	if (!paths)
		return app_usage(app, "dist", "out of memory");
	int prc = app_parse(app, "dist", cmd_dist_opts, cmd_dist_nopts, &a, argc, argv, paths, &np);
	if (prc) {
		free(paths);
		return prc;
	}
	o.tb_compat = a.tb_compat;
	const char *names = a.names;
	if (!np) {
		free(paths);
		return app_usage(app, "dist", "no TRACE given");
	}
	char name[256];
	if (names && !dist_names_fit(names, np)) {
		free(paths);
		return app_usage(app, "dist", DIST_NAMES_MSG, np);
	}
	struct err e = {0};
	struct dist_result d;
	int rc = dist_init(&d, &o, &e);
	if (rc) {
		free(paths);
		return app_fail(app, &e);
	}
	for (int i = 0; !rc && i < np; i++) {
		if (input_sniff_path(paths[i]).kind == INPUT_RANK_SUMMARY) {
			rc = add_summary(app, &d, paths[i], names, i, &e);
			continue;
		}
		struct trace *t;
		if ((rc = app_load_trace(app, paths[i], &t, NULL)))
			break;
		if (!names || !dist_nth_name(names, i, name, sizeof name))
			dist_worker_name(paths[i], name, sizeof name);
		rc = dist_add(&d, t, name, NULL, &e);
		tr_free(t);
		if (rc)
			rc = app_fail(app, &e);
	}
	free(paths);
	if (!rc && dist_finish(&d, &e))
		rc = app_fail(app, &e);
	struct dist_emit x = {&d, a.fleet, a.top};
	if (!rc && app_tables_wanted(app)) {
		rc = app_write_tables(app, "dist", emit_dist, &x);
	} else if (!rc) {
		if ((rc = app_out_open(app, &e)) == 0) {
			struct report *r = rep_open(app->out, app->format);
			bool ok = r && emit_dist(&x, r, app->out) == 0;
			ok = r && rep_close(r) == 0 && ok;
			rc = app_out_close(app, ok, &e);
			if (!rc && !ok)
				rc = err_set(&e, ERR_IO, app->output ? app->output : "stdout", -1,
					     "could not write the report");
		}
		if (rc)
			rc = app_fail(app, &e);
	}
	dist_free(&d);
	return rc;
}
