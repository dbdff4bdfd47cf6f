/* main: global options, the subcommand table, dispatch and exit codes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "cli/cli.h"
#include "views/view_nsys.h"

#ifndef GP_VERSION
#define GP_VERSION "0.0.0-dev"
#endif
#ifndef GP_COMMIT
#define GP_COMMIT "unknown"
#endif
#ifndef GP_BUILD
#define GP_BUILD "release"
#endif

const char cli_version[] = GP_VERSION;

/* The commands in the order of `gpuprof --help`; a view's row names its
 * kind, and its summary, help and parsing come from the registry. */
#define VIEW_CMD(nm, k)                                                                            \
	{                                                                                          \
		.name = nm, .is_view = true, .view = k                                             \
	}
#define CMD(nm, text, pre, post)                                                                   \
	{                                                                                          \
		.name = #nm, .summary = text, .help = cmd_##nm##_help, .run = cmd_##nm,            \
		.help_tail = cmd_##nm##_help_tail, .opts = cmd_##nm##_opts,                        \
		.nopts = &cmd_##nm##_nopts, .man_pre = pre, .man_post = post                       \
	}
static const struct cmd nsys_profile_cmd = {
    .name = "nsys profile",
    .opts = cmd_nsys_profile_opts,
    .nopts = &cmd_nsys_profile_nopts,
    .man_pre = "",
    .man_post = " \\fR[\\fP\\-\\-nsys\\-args \\fINSYS-OPTION\\fP...\\fR]\\fP \\-\\- "
		"\\fIPROGRAM\\fP \\fR[\\fP\\fIARG\\fP...\\fR]\\fP",
    .operands = CMD_NONE,
};
static const struct cmd nsys_analyze_cmd = {
    .name = "nsys analyze",
    .opts = cmd_nsys_analyze_opts,
    .nopts = &cmd_nsys_analyze_nopts,
    .man_pre = "",
    .man_post = "",
    .operands = CMD_NONE,
    .next = &nsys_profile_cmd,
};
static const struct cmd commands[] = {
    VIEW_CMD("info", VIEW_INFO),
    VIEW_CMD("steps", VIEW_STEPS),
    VIEW_CMD("summary", VIEW_SUMMARY),
    VIEW_CMD("ops", VIEW_OPS),
    VIEW_CMD("kernels", VIEW_KERNELS),
    VIEW_CMD("memory", VIEW_MEMORY),
    VIEW_CMD("modules", VIEW_MODULES),
    VIEW_CMD("lightning", VIEW_LIGHTNING),
    CMD(dist, "distributed view: overlap, wait time, collectives per worker (tb)", "",
	" \\fITRACE\\fP..."),
    {.name = "rank-summary",
     .summary = "one worker's part of dist as a small file, for dist over many ranks",
     .help = cmd_rank_summary_help,
     .run = cmd_rank_summary,
     .help_tail = cmd_rank_summary_help_tail,
     .opts = cmd_rank_summary_opts,
     .nopts = &cmd_rank_summary_nopts,
     .man_pre = "",
     .man_post = " \\fITRACE\\fP\\fR|\\fP\\fISUMMARY\\fP... \\-o \\fIFILE\\fP"},
    VIEW_CMD("top", VIEW_TOP),
    VIEW_CMD("idle", VIEW_IDLE),
    VIEW_CMD("launches", VIEW_LAUNCHES),
    VIEW_CMD("sync", VIEW_SYNC),
    VIEW_CMD("flops", VIEW_FLOPS),
    VIEW_CMD("critical-path", VIEW_CRITICAL_PATH),
    VIEW_CMD("counters", VIEW_COUNTERS),
    VIEW_CMD("sequences", VIEW_SEQUENCES),
    VIEW_CMD("diff", VIEW_DIFF),
    {.name = "export",
     .summary = "call stacks for other tools: pprof, folded stacks, speedscope",
     .help = cmd_export_help,
     .run = cmd_export,
     .help_tail = cmd_export_help_tail,
     .opts = cmd_export_opts,
     .nopts = &cmd_export_nopts,
     .man_pre = "",
     .man_post = " \\fITRACE\\fP \\-o \\fIFILE\\fP",
     .verbs = cmd_export_formats},
    {.name = "trace",
     .summary = "Kineto traces from their own bytes: a window (slice), ranks as one (merge)",
     .help = cmd_trace_help,
     .run = cmd_trace,
     .help_tail = cmd_trace_help_tail,
     .opts = cmd_trace_opts,
     .nopts = &cmd_trace_nopts,
     .man_pre = "",
     .man_post = " \\fITRACE\\fP... \\-o \\fIFILE\\fP",
     .verbs = cmd_trace_verbs},
    {.name = "ncu", /* its verbs are the registry's ncu views */
     .summary = "Nsight Compute reports: list, raw, session, details, hints",
     .help = cmd_ncu_help,
     .run = cmd_ncu,
     .help_tail = cmd_ncu_help_tail,
     .opts = view_ncu_opts,
     .nopts = &view_ncu_nopts,
     .man_pre = "",
     .man_post = " \\fIREPORT\\fP",
     .family_verbs = true,
     .family = VIEW_FAMILY_NCU},
    {.name = "nsys", /* its export views are the registry's nsys views */
     .summary = "Nsight Systems: per-iteration NVTX analysis, SQLite export summaries",
     .print_help = cmd_nsys_print_help,
     .run = cmd_nsys,
     .opts = view_nsys_opts,
     .nopts = &view_nsys_nopts,
     .man_pre = " \\fIFILE\\fP.sqlite",
     .man_post = "",
     .family_verbs = true,
     .family = VIEW_FAMILY_NSYS,
     .verb_after_operand = true,
     .sub = &nsys_analyze_cmd},
    CMD(serve, "local web viewer of traces (prints the URL)", "",
	" \\fR[\\fP\\fIFILE\\fP|\\fIDIR\\fP...\\fR]\\fP"),
    {.name = "synth",
     .summary = "write a synthetic Kineto trace (examples, benchmarks)",
     .help = cmd_synth_help,
     .run = cmd_synth,
     .help_tail = cmd_synth_help_tail,
     .opts = cmd_synth_opts,
     .nopts = &cmd_synth_nopts,
     .man_pre = "",
     .man_post = " \\-o \\fIFILE\\fP",
     .operands = CMD_NONE},
    {.name = "completion",
     .summary = "shell completion script: bash, zsh or fish",
     .help = cmd_completion_help,
     .run = cmd_completion,
     .man_pre = "",
     .man_post = "",
     .verbs = cmd_completion_shells,
     .operands = CMD_NONE},
};
#undef CMD
#undef VIEW_CMD
#define NCOMMANDS (sizeof commands / sizeof commands[0])
_Static_assert(NCOMMANDS + VIEW_COUNT <= CLI_MAX_COMMANDS, "room for every command");

void cli_commands(struct cmd_list *l)
{
	l->n = 0;
	for (size_t i = 0; i < NCOMMANDS; i++)
		l->v[l->n++] = commands[i];
	for (size_t k = 0; k < view_count(); k++) {
		const struct view_decl *d = view_at(k);
		if (d->family != VIEW_FAMILY_TRACE)
			continue; /* a verb of its family's command */
		bool listed = false;
		for (size_t i = 0; i < NCOMMANDS && !listed; i++)
			listed = commands[i].is_view && commands[i].view == d->kind;
		if (!listed)
			l->v[l->n++] =
			    (struct cmd){.name = d->name, .is_view = true, .view = d->kind};
	}
}

const struct vo *cli_cmd_opts(const struct cmd *c, size_t *n)
{
	if (c->is_view) {
		*n = view_get(c->view)->nopts;
		return view_get(c->view)->opts;
	}
	*n = c->opts ? *c->nopts : 0;
	return c->opts;
}

size_t cli_cmd_verbs(const struct cmd *c, const char **words, size_t max)
{
	size_t k = 0;
	if (c->family_verbs) {
		for (size_t i = 0; i < view_count() && k < max; i++)
			if (view_at(i)->family == c->family)
				words[k++] = view_at(i)->name;
	} else {
		for (const char *const *v = c->verbs; v && *v && k < max; v++)
			words[k++] = *v;
	}
	return k;
}

const char *cli_cmd_summary(const struct cmd *c)
{
	return c->is_view ? view_get(c->view)->summary : c->summary;
}

static const struct vo_value formats[] = {{"table", REP_TABLE, false},
					  {"csv", REP_CSV, false},
					  {"json", REP_JSON, false},
					  {"markdown", REP_MARKDOWN, false},
					  {"schema", REP_SCHEMA, true}, /* tools/gen-schemas.py */
					  {NULL, 0, false}};

/* (the text of `gpuprof --help` is global_help below: tests/pkg checks
 * that it lists exactly these) */
const struct vo cli_globals[] = {
    {.lname = "format", .type = VO_ENUM, .vals = formats, .help = "output format (default: table)"},
    {.lname = "output",
     .sname = 'o',
     .type = VO_STRING,
     .metavar = "FILE",
     .help = "write to FILE atomically (temp file + rename); '-' = stdout;\n"
	     "a folder (DIR/) with --format csv: DIR/NAME.csv per table"},
    {.lname = "quiet",
     .sname = 'q',
     .type = VO_FLAG,
     .help = "no progress indicator, no anomaly notes on stderr"},
    {.lname = "strict", .type = VO_FLAG, .help = "treat input anomalies as errors (exit 2)"},
    {.lname = "step",
     .type = VO_STRING,
     .metavar = "N|A-B",
     .help = "trace commands: analyse only step N (ProfilerStep#N,\n"
	     "with the GPU work it launched) or steps A to B"},
    {.lname = "range",
     .type = VO_STRING,
     .metavar = "NAME",
     .help = "trace commands: analyse only the time of the first\n"
	     "user annotation (record_function) named NAME"},
    {.lname = "max-memory",
     .type = VO_STRING,
     .metavar = "SIZE",
     .help = "the most one loaded trace may hold (its tables and\n"
	     "strings), bytes or with K, M, G (default: half of\n"
	     "the physical memory); a larger trace fails (exit 2)"},
    {.lname = "table",
     .type = VO_STRING,
     .metavar = "NAME",
     .help = "only the table (or section) NAME of the command:\n"
	     "plain CSV, its rows as JSON, or the table alone"},
    {.lname = "help", .sname = 'h', .type = VO_FLAG, .help = "help for the tool or a command"},
    {.lname = "version", .type = VO_FLAG, .help = "version and build details"},
};
const size_t cli_nglobals = sizeof cli_globals / sizeof cli_globals[0];

const struct cli_env cli_env[] = {
    {"GLIBC_TUNABLES",
     "Read and kept: gpuprof adds glibc's malloc tunables to it when it executes\n"
     "itself again for big inputs (see \\fBGPUPROF_HUGEPAGES\\fP), but those it already\n"
     "names; the programs gpuprof starts get it as it was."},
    {"GPUPROF_HUGEPAGES",
     "\\fB0\\fP leaves glibc's heap as it is; \\fB1\\fP tunes it for big inputs by\n"
     "executing gpuprof again: on transparent huge pages (\\fIglibc.malloc.hugetlb=1\\fP,\n"
     "when the kernel's mode is \\fImadvise\\fP) and, but for \\fBserve\\fP, keeping the\n"
     "memory it frees for reuse (\\fImmap_threshold\\fP, \\fItrim_threshold\\fP,\n"
     "\\fIarena_max=1\\fP); unset: so when the input files add up to 32 MiB or more (a\n"
     "gzip file counted inflated), or for \\fBserve\\fP. The outputs are the same."},
    {"GPUPROF_NVDISASM",
     "The NVIDIA disassembler (\\fBnvdisasm\\fP) \\fBgpuprof ncu source\\fP runs to show SASS\n"
     "text, when \\fB\\-\\-nvdisasm\\fP is not given; else \\fBnvdisasm\\fP on \\fBPATH\\fP."},
    {"GPUPROF_THREADS",
     "The threads a trace or an Nsight Compute report is read with: \\fB1\\fP reads\n"
     "on one thread, any larger number on two (the default when the machine has\n"
     "more than one CPU)."},
    {"LD_PRELOAD", "When it names valgrind's preload library, gpuprof does not execute itself\n"
		   "again to tune its heap (valgrind would lose the process)."},
    {"PATH",
     "Where \\fBgpuprof nsys analyze\\fP and \\fBnsys profile\\fP look for the \\fBnsys\\fP\n"
     "executable, and \\fBgpuprof ncu source\\fP for \\fBnvdisasm\\fP."},
    {"TMPDIR", "Where \\fBgpuprof serve\\fP keeps uploads too large for memory (in files\n"
	       "without a name, which vanish with the server); \\fI/tmp\\fP when unset."},
};
const size_t cli_nenv = sizeof cli_env / sizeof cli_env[0];

static void print_cmd_help(const struct cmd *c)
{
	if (c->is_view) {
		app_print_view_help(stdout, view_get(c->view));
		return;
	}
	if (c->print_help) {
		c->print_help(stdout);
		return;
	}
	fputs(c->help, stdout);
	if (c->opts && c->help_tail) {
		app_print_options(stdout, c->opts, *c->nopts);
		fputs(c->help_tail, stdout);
	}
}

static const char global_help[] =
    "Global options (accepted before or after the command):\n"
    "  --format table|csv|json|markdown\n"
    "                           output format (default: table)\n"
    "  -o, --output FILE        write to FILE atomically (temp file + rename); '-' = stdout;\n"
    "                           a folder (DIR/) with --format csv: DIR/NAME.csv per table\n"
    "  -q, --quiet              no progress indicator, no anomaly notes on stderr\n"
    "      --strict             treat input anomalies as errors (exit 2)\n"
    "      --step N|A-B         trace commands: analyse only step N (ProfilerStep#N,\n"
    "                           with the GPU work it launched) or steps A to B\n"
    "      --range NAME         trace commands: analyse only the time of the first\n"
    "                           user annotation (record_function) named NAME\n"
    "      --max-memory SIZE    the most one loaded trace may hold (its tables and\n"
    "                           strings), bytes or with K, M, G (default: half of\n"
    "                           the physical memory); a larger trace fails (exit 2)\n"
    "      --table NAME         only the table NAME of the command's tables (CSV: plain,\n"
    "                           no '# name' lines; JSON: the bare array of its rows)\n"
    "  -h, --help               help for the tool or a command\n"
    "      --version            version and build details\n"
    "\n"
    "Exit status: 0 ok, 1 an analysis gate tripped, 2 usage or input error.\n"
    "Environment: GPUPROF_THREADS=1 reads and analyses traces and reports on one\n"
    "thread (default: two when the machine has more than one CPU);\n"
    "GPUPROF_HUGEPAGES=0 leaves glibc's heap as it is (default: tuned for inputs\n"
    "of 32 MiB on: huge pages, freed memory reused).\n";

static void print_help(FILE *f, const struct cmd_list *l)
{
	fprintf(f,
		"gpuprof %s: answers from GPU profiles (PyTorch profiler traces, Nsight\n"
		"Compute reports, Nsight Systems runs and exports)\n\n"
		"Usage: gpuprof [global options] COMMAND [options] FILE...\n\nCommands:\n",
		GP_VERSION);
	for (size_t i = 0; i < l->n; i++)
		fprintf(f, "  %-12s %s\n", l->v[i].name, cli_cmd_summary(&l->v[i]));
	fprintf(f,
		"\n%s\nRun 'gpuprof COMMAND --help' for a command's options. "
		"'-' as FILE reads standard input.\n",
		global_help);
}

/* The man page's option lists: a line per command with declared options. */
static void print_man_options(const struct cmd_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct cmd *c = &l->v[i];
		if (c->is_view || c->opts)
			cli_print_cmd_man_line(stdout, c);
	}
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

static const struct cmd *find_cmd(const struct cmd_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name))
			return &l->v[i];
	return NULL;
}

/* "unknown command 'X'", the closest command when one is close, and the
 * commands. */
static void unknown_command(const struct cmd_list *l, const char *name)
{
	const char *names[CLI_MAX_COMMANDS];
	char list[512];
	size_t len = 0;
	for (size_t i = 0; i < l->n; i++) {
		names[i] = l->v[i].name;
		int w = snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", names[i]);
		if (w > 0 && (size_t)w < sizeof list - len)
			len += (size_t)w;
	}
	char mean[96];
	fprintf(stderr, "gpuprof: unknown command '%s'%s (commands: %s)\n", name,
		app_did_you_mean(name, names, l->n, mean, sizeof mean), list);
	fputs("Try 'gpuprof --help'.\n", stderr);
}

/* A global option with a value (o): its value into app (0), or -1 after
 * printing the error. */
static int set_global(struct app *app, const struct vo *o, const char *val)
{
	if (!strcmp(o->lname, "step")) {
		app->step = val;
	} else if (!strcmp(o->lname, "range")) {
		app->range = val;
	} else if (!strcmp(o->lname, "output")) {
		app->output = val;
	} else if (!strcmp(o->lname, "table")) {
		app->table = val;
	} else if (!strcmp(o->lname, "max-memory")) {
		if (app_parse_size(val, &app->max_memory) || !app->max_memory) {
			fprintf(stderr,
				"gpuprof: --max-memory needs a size such as 512M or 4G, not '%s'\n",
				val);
			return -1;
		}
	} else if (!strcmp(o->lname, "format")) {
		const struct vo_value *f = o->vals;
		while (f->name && strcmp(f->name, val))
			f++;
		if (!f->name) {
			char list[64];
			vo_enum_list(o, list, sizeof list);
			fprintf(stderr, "gpuprof: --%s must be %s, not '%s'\n", o->lname, list,
				val);
			return -1;
		}
		app->format = (enum rep_format)f->value;
		app->format_set = true;
	} else { /* a declaration in cli_globals without its branch here */
		fprintf(stderr, "gpuprof: --%s is declared but not handled\n", o->lname);
		return -1;
	}
	return 0;
}

/* The global option with a value that the long option a is (NULL: none)
 * and, for --name=value, its value. */
static const struct vo *global_with_value(const char *a, const char **val)
{
	*val = NULL;
	for (size_t k = 0; k < cli_nglobals; k++) {
		const struct vo *o = &cli_globals[k];
		if (o->type == VO_FLAG)
			continue;
		size_t n = strlen(o->lname);
		if (strncmp(a + 2, o->lname, n))
			continue;
		if (!a[n + 2])
			return o;
		if (a[n + 2] == '=') {
			*val = a + n + 3;
			return o;
		}
	}
	return NULL;
}

/* The global flag or option with a value whose short name is c. */
static const struct vo *global_short(char c)
{
	for (size_t k = 0; k < cli_nglobals; k++)
		if (cli_globals[k].sname == c)
			return &cli_globals[k];
	return NULL;
}

/* Takes the global options out of argv (they may appear anywhere before
 * "--"): --name value, --name=value, -o FILE, -oFILE, and -q leading a
 * bundle of short options ("-qn5" leaves "-n5" to the command). Returns the
 * new argc or -1 after printing a usage error. */
static int take_globals(struct app *app, int argc, char **argv)
{
	int out = 1;
	bool dashdash = false;
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		const char *val, *label = a; /* label: the option, for messages */
		const struct vo *which;
		if (dashdash || a[0] != '-' || !a[1]) {
			argv[out++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			dashdash = true;
			argv[out++] = a;
			continue;
		}
		if (!strcmp(a, "--quiet")) {
			app->quiet = true;
			continue;
		}
		if (!strcmp(a, "--strict")) {
			app->strict = true;
			continue;
		}
		if (a[1] != '-') { /* a short bundle: leading q's, then o or the rest */
			char *p = a + 1;
			for (; *p == 'q'; p++)
				app->quiet = true;
			if (!*p)
				continue;
			if (*p != 'o') {
				if (p == a + 1) {
					argv[out++] = a;
				} else {
					p[-1] = '-'; /* "-qn5": the command sees "-n5" */
					argv[out++] = p - 1;
				}
				continue;
			}
			label = "-o";
			val = p[1] ? p + 1 : NULL;
			which = global_short('o');
		} else {
			which = global_with_value(a, &val);
			if (!which) {
				argv[out++] = a;
				continue;
			}
		}
		if (!val) {
			if (i + 1 >= argc) {
				fprintf(stderr, "gpuprof: option %s needs a value\n", label);
				return -1;
			}
			val = argv[++i];
		}
		if (set_global(app, which, val))
			return -1;
	}
	argv[out] = NULL;
	return out;
}

int main(int argc, char **argv)
{
	hugepages_start(argc, argv);
	struct app app = {.argv0 = argv[0], .format = REP_TABLE};
	struct cmd_list cmds;
	cli_commands(&cmds);
	argc = take_globals(&app, argc, argv);
	if (argc < 0)
		return 2;
	app.progress = !app.quiet && isatty(STDERR_FILENO);
	app.anomaly_notes = true;
	if (argc < 2) {
		print_help(stderr, &cmds);
		return 2;
	}
	const char *name = argv[1];
	if (!strcmp(name, "help") && argc == 3 && !strcmp(argv[2], "--man")) {
		cli_print_man_parts(stdout, &cmds); /* tools/man.sh writes man/gpuprof.1 */
		return 0;
	}
	if (cli_is_help(name) || !strcmp(name, "help")) {
		if (argc > 2 && find_cmd(&cmds, argv[2])) {
			print_cmd_help(find_cmd(&cmds, argv[2]));
			fputs("\n", stdout);
			fputs(global_help, stdout);
			return 0;
		}
		print_help(stdout, &cmds);
		return 0;
	}
	if (!strcmp(name, "--version") || !strcmp(name, "version")) {
		print_version();
		return 0;
	}
	if (!strcmp(name, "--man-options")) { /* hidden: tests/cli checks the man page */
		print_man_options(&cmds);
		return 0;
	}
	const struct cmd *c = find_cmd(&cmds, name);
	if (!c) {
		unknown_command(&cmds, name);
		return 2;
	}
	for (int i = 2; i < argc && strcmp(argv[i], "--"); i++) {
		if (cli_is_help(argv[i])) {
			/* ncu diff: the options of `gpuprof diff` */
			if (c->run == cmd_ncu && !strcmp(argv[2], "diff"))
				app_print_view_help(stdout, view_find_in(VIEW_FAMILY_NCU, "diff"));
			else
				print_cmd_help(c);
			fputs("\n", stdout);
			fputs(global_help, stdout);
			return 0;
		}
	}
	bool tables = c->is_view || c->run == cmd_dist || c->run == cmd_ncu || c->run == cmd_nsys;
	if (app.table && !tables) {
		fprintf(stderr,
			"gpuprof: %s: --table picks a table of a command that writes tables\n"
			"Try 'gpuprof %s --help'.\n",
			name, name);
		return 2;
	}
	if (c->is_view)
		return app_cmd_view(&app, view_get(c->view), argc - 1, argv + 1);
	return c->run(&app, argc - 1, argv + 1);
}
