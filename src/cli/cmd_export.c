/* export: `gpuprof export pprof|folded|speedscope TRACE`, a trace's call
 * stacks for other tools (src/export). */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/load.h"
#include "export/export.h"

const char cmd_export_help[] =
    "Usage: gpuprof export pprof|folded|speedscope [options] TRACE -o FILE\n"
    "\n"
    "Write the trace's call stacks for other tools. Stacks come from how events\n"
    "nest in time on each thread or GPU stream (pid, tid): an event inside\n"
    "another is its callee. Events are ordered by start, longer first at equal\n"
    "starts, then input order, so the output is the same on every run. An event\n"
    "that starts inside another and ends after it (a partial overlap) is clipped\n"
    "to its parent's end and counted (stderr note); it never cuts the thread\n"
    "off from its ancestors. Times are exact integer nanoseconds. Values are\n"
    "self times (duration minus callees): pprof's flat = self, cum = inclusive.\n"
    "\n"
    "Formats:\n"
    "  pprof       gzip-compressed pprof profile (go tool pprof, speedscope,\n"
    "              Pyroscope): sample types calls/count and time/nanoseconds\n"
    "              (default), one function per (name, category), labels pid,\n"
    "              tid, category, and device/stream for GPU work\n"
    "  folded      Brendan Gregg's collapsed stacks, 'root;...;leaf VALUE', one\n"
    "              line per distinct stack (flamegraph.pl, inferno, speedscope)\n"
    "  speedscope  speedscope's JSON: one evented profile per thread and GPU\n"
    "              stream, open/close events in time order (--gpu not used)\n"
    "\n"
    "Options:\n";

const char cmd_export_help_tail[] =
    "\n"
    "Without -o the output goes to standard output; pprof (binary) is refused when\n"
    "standard output is a terminal (exit 2, nothing written). The profiler's own\n"
    "span (\"PyTorch Profiler (0)\"), which encloses the whole recording, is no\n"
    "call and is left out unless --keep-profiler-span. docs/export.md describes\n"
    "the formats, pprof's names and labels, and how they differ from torch2pprof's.\n"
    "\n"
    "Examples:\n"
    "  gpuprof export pprof trace.json.gz -o trace.pb.gz && go tool pprof -top trace.pb.gz\n"
    "  gpuprof export folded --threads trace.json.gz | flamegraph.pl > flame.svg\n"
    "  gpuprof export speedscope trace.json.gz -o trace.speedscope.json\n";

/* in the order of enum fmt */
enum fmt { FMT_PPROF, FMT_FOLDED, FMT_SPEEDSCOPE };
const char *const cmd_export_formats[] = {"pprof", "folded", "speedscope", NULL};

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* --gpu, --threads, --keep-profiler-span, --unit (-1: not given) */
struct export_args {
	bool gpu, threads, profiler_span;
	int unit;
};

static const struct vo_value units[] = {
    {"ns", FOLD_NS, false}, {"us", FOLD_US, false}, {NULL, 0, false}};

const struct vo cmd_export_opts[] = {
    {.lname = "gpu",
     .type = VO_FLAG,
     .off = offsetof(struct export_args, gpu),
     .help = "kernels, memcpys and memsets as leaves under the CPU stack\n"
	     "of the runtime call that launched them, with their GPU time\n"
	     "(instead of on their stream's own stacks)"},
    {.lname = "threads",
     .type = VO_FLAG,
     .off = offsetof(struct export_args, threads),
     .help = "the thread (process name (pid) / thread name (tid)) as the\n"
	     "root frame of every stack"},
    {.lname = "keep-profiler-span",
     .type = VO_FLAG,
     .off = offsetof(struct export_args, profiler_span),
     .help = "keep the profiler's own span (\"PyTorch Profiler (0)\",\n"
	     "category Trace, around the whole recording) as a stack;\n"
	     "left out by default"},
    {.lname = "unit",
     .type = VO_ENUM,
     .off = offsetof(struct export_args, unit),
     .vals = units,
     .help = "folded: values in integer ns (default) or µs with three\n"
	     "decimals"},
};
const size_t cmd_export_nopts = sizeof cmd_export_opts / sizeof cmd_export_opts[0];

int cmd_export(struct app *app, int argc, char **argv)
{
	if (argc < 2)
		return app_usage(app, "export", "give a format: pprof, folded or speedscope");
	const char *verb = argv[1];
	char mean[96];
	int k = 0;
	while (cmd_export_formats[k] && strcmp(verb, cmd_export_formats[k]))
		k++;
	if (!cmd_export_formats[k])
		return app_usage(app, "export",
				 "unknown format '%s'%s (pprof, folded or speedscope)", verb,
				 app_did_you_mean(verb, cmd_export_formats, 3, mean, sizeof mean));
	enum fmt fmt = (enum fmt)k;
	struct export_args a = {.unit = -1};
	const char *path;
	int prc = app_args(app, "export", "TRACE", argc - 1, argv + 1, cmd_export_opts,
			   cmd_export_nopts, &a, &path);
	if (prc)
		return prc;
	if (a.unit >= 0 && fmt != FMT_FOLDED)
		return app_usage(app, "export", "--unit applies to folded only");
	if (fmt == FMT_PPROF && app_out_is_terminal(app)) {
		/* binary on a terminal garbles it: refuse, as gzip does */
		fprintf(stderr, "gpuprof: export: pprof data not written to a terminal "
				"(give -o FILE or redirect standard output)\n");
		return 2;
	}
	struct stk_opts so = {.gpu = a.gpu, .threads = a.threads, .profiler_span = a.profiler_span};
	enum fold_unit unit = a.unit >= 0 ? (enum fold_unit)a.unit : FOLD_NS;
	if (fmt == FMT_SPEEDSCOPE && so.gpu)
		return app_usage(app, "export",
				 "--gpu does not apply to speedscope (GPU streams are profiles)");
	so.merge_tracks = fmt == FMT_FOLDED;
	struct trace *t;
	int rc = app_load_trace(app, path, &t, NULL);
	if (rc)
		return rc;
	struct err e = {0};
	struct stk_profile p;
	if (stk_build(t, &so, &p, &e)) {
		rc = app_fail(app, &e);
		tr_free(t);
		return rc;
	}
	if (p.clipped && !app->quiet)
		fprintf(stderr,
			"gpuprof: note: %llu partially overlapping events clipped to their parent "
			"(%lld ns cut off)\n",
			(unsigned long long)p.clipped, (long long)p.clipped_ns);
	if (app_out_open(app, &e)) {
		rc = app_fail(app, &e);
	} else {
		int wrc;
		if (fmt == FMT_FOLDED)
			wrc = fold_write(&p, app->out, unit, &e);
		else if (fmt == FMT_PPROF)
			wrc = pprof_write(&p, app->out, &e);
		else
			wrc = ss_write(&p, app->out, base_name(t->path), "gpuprof", &e);
		if (wrc) {
			rc = app_fail(app, &e);
			app_out_close(app, false, &e);
		} else if (app_out_close(app, true, &e)) {
			rc = app_fail(app, &e);
		}
	}
	stk_free(&p);
	tr_free(t);
	return rc;
}
