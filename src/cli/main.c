/* main: global options, the subcommand table, dispatch and exit codes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "cli/cli.h"

#ifndef GP_VERSION
#define GP_VERSION "0.0.0-dev"
#endif
#ifndef GP_COMMIT
#define GP_COMMIT "unknown"
#endif
#ifndef GP_BUILD
#define GP_BUILD "release"
#endif

static const struct cmd commands[] = {
    {"info", "what a trace is: format, versions, devices, counts, anomalies", cmd_info_help,
     cmd_info},
    {"steps", "training steps and their time breakdown (Kernel, Memcpy, ..., Other)",
     cmd_steps_help, cmd_steps},
    {"summary", "overview: GPUs, steps, average step breakdown, GPU utilization", cmd_summary_help,
     cmd_summary},
    {"ops", "operator table (torch-tb-profiler's Operator view)", cmd_ops_help, cmd_ops},
    {"kernels", "kernel table (torch-tb-profiler's Kernel view)", cmd_kernels_help, cmd_kernels},
    {"memory", "memory by operator, peaks, curve, allocations (tb's Memory view)", cmd_memory_help,
     cmd_memory},
    {"dist", "distributed view: overlap, wait time, collectives per worker (tb)", cmd_dist_help,
     cmd_dist},
    {"top", "where the time goes: counts, time by category, top operations (self, total)",
     cmd_top_help, cmd_top},
    {"export", "call stacks for other tools: pprof, folded stacks, speedscope", cmd_export_help,
     cmd_export},
    {"ncu", "Nsight Compute reports: list, raw, session, details, hints", cmd_ncu_help, cmd_ncu},
    {"nsys", "Nsight Systems: per-iteration NVTX analysis, SQLite export summaries", cmd_nsys_help,
     cmd_nsys},
    {"serve", "local web viewer of traces (prints the URL)", cmd_serve_help, cmd_serve},
    {"synth", "write a synthetic Kineto trace (examples, benchmarks)", cmd_synth_help, cmd_synth},
};

static const char global_help[] =
    "Global options (accepted before or after the command):\n"
    "  --format table|csv|json  output format (default: table)\n"
    "  -o, --output FILE        write to FILE atomically (temp file + rename); '-' = stdout\n"
    "  -q, --quiet              no progress indicator, no anomaly notes on stderr\n"
    "      --strict             treat input anomalies as errors (exit 2)\n"
    "      --step N|A-B         trace commands: analyse only step N (ProfilerStep#N,\n"
    "                           with the GPU work it launched) or steps A to B\n"
    "      --range NAME         trace commands: analyse only the time of the first\n"
    "                           user annotation (record_function) named NAME\n"
    "  -h, --help               help for the tool or a command\n"
    "      --version            version and build details\n"
    "\n"
    "Exit status: 0 ok, 1 an analysis gate tripped, 2 usage or input error.\n"
    "Environment: GPUPROF_THREADS=1 imports traces on one thread (default: two\n"
    "when the machine has more than one CPU).\n";

static void print_help(FILE *f)
{
	fprintf(f,
		"gpuprof %s: answers from GPU profiles (PyTorch profiler traces, Nsight\n"
		"Compute reports, Nsight Systems runs and exports)\n\n"
		"Usage: gpuprof [global options] COMMAND [options] FILE...\n\nCommands:\n",
		GP_VERSION);
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f,
		"\n%s\nRun 'gpuprof COMMAND --help' for a command's options. "
		"'-' as FILE reads standard input.\n",
		global_help);
}

static void print_version(void)
{
	printf("gpuprof %s\n", GP_VERSION);
	printf("commit: %s\n", GP_COMMIT);
	printf("build: %s\n", GP_BUILD);
#ifdef __clang__
	printf("compiler: clang %s\n", __clang_version__);
#elif defined(__GNUC__)
	printf("compiler: gcc %s\n", __VERSION__);
#endif
	printf("zlib: %s\n", zlibVersion());
}

static const struct cmd *find_cmd(const char *name)
{
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static int parse_format(const char *s, enum rep_format *f)
{
	if (!strcmp(s, "table"))
		*f = REP_TABLE;
	else if (!strcmp(s, "csv"))
		*f = REP_CSV;
	else if (!strcmp(s, "json"))
		*f = REP_JSON;
	else
		return -1;
	return 0;
}

/* Takes the global options out of argv (they may appear anywhere before
 * "--"); returns the new argc or -1 after printing a usage error. */
static int take_globals(struct app *app, int argc, char **argv)
{
	int out = 1;
	bool dashdash = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = NULL;
		if (dashdash) {
			argv[out++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			dashdash = true;
			argv[out++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--step") || !strcmp(a, "--range")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "gpuprof: option %s needs a value\n", a);
				return -1;
			}
			if (a[2] == 's')
				app->step = argv[++i];
			else
				app->range = argv[++i];
			continue;
		}
		if (!strncmp(a, "--step=", 7)) {
			app->step = a + 7;
			continue;
		}
		if (!strncmp(a, "--range=", 8)) {
			app->range = a + 8;
			continue;
		}
		if (!strcmp(a, "--format") || !strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "gpuprof: option %s needs a value\n", a);
				return -1;
			}
			val = argv[++i];
		} else if (!strncmp(a, "--format=", 9)) {
			val = a + 9;
			a = "--format";
		} else if (!strncmp(a, "--output=", 9)) {
			val = a + 9;
			a = "-o";
		}
		if (val && !strcmp(a, "--format")) {
			if (parse_format(val, &app->format)) {
				fprintf(stderr,
					"gpuprof: --format must be table, csv or json, not '%s'\n",
					val);
				return -1;
			}
			app->format_set = true;
		} else if (val) {
			app->output = val;
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			app->quiet = true;
		} else if (!strcmp(a, "--strict")) {
			app->strict = true;
		} else {
			argv[out++] = argv[i];
		}
	}
	argv[out] = NULL;
	return out;
}

int main(int argc, char **argv)
{
	struct app app = {.argv0 = argv[0], .format = REP_TABLE};
	argc = take_globals(&app, argc, argv);
	if (argc < 0)
		return 2;
	app.progress = !app.quiet && isatty(STDERR_FILENO);
	app.anomaly_notes = true;
	if (argc < 2) {
		print_help(stderr);
		return 2;
	}
	const char *name = argv[1];
	if (cli_is_help(name) || !strcmp(name, "help")) {
		if (argc > 2 && find_cmd(argv[2])) {
			fputs(find_cmd(argv[2])->help, stdout);
			fputs("\n", stdout);
			fputs(global_help, stdout);
			return 0;
		}
		print_help(stdout);
		return 0;
	}
	if (!strcmp(name, "--version") || !strcmp(name, "version")) {
		print_version();
		return 0;
	}
	const struct cmd *c = find_cmd(name);
	if (!c) {
		fprintf(stderr, "gpuprof: unknown command '%s'\nTry 'gpuprof --help'.\n", name);
		return 2;
	}
	for (int i = 2; i < argc && strcmp(argv[i], "--"); i++) {
		if (cli_is_help(argv[i])) {
			fputs(c->help, stdout);
			fputs("\n", stdout);
			fputs(global_help, stdout);
			return 0;
		}
	}
	return c->run(&app, argc - 1, argv + 1);
}
