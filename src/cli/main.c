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
static const struct cmd commands[] = {
    VIEW_CMD("info", VIEW_INFO),
    VIEW_CMD("steps", VIEW_STEPS),
    VIEW_CMD("summary", VIEW_SUMMARY),
    VIEW_CMD("ops", VIEW_OPS),
    VIEW_CMD("kernels", VIEW_KERNELS),
    VIEW_CMD("memory", VIEW_MEMORY),
    CMD(dist, "distributed view: overlap, wait time, collectives per worker (tb)", "",
	" \\fITRACE\\fP..."),
    VIEW_CMD("top", VIEW_TOP),
    CMD(export, "call stacks for other tools: pprof, folded stacks, speedscope",
	" pprof\\fR|\\fPfolded\\fR|\\fPspeedscope", " \\fITRACE\\fP \\-o \\fIFILE\\fP"),
    CMD(trace, "Kineto traces from their own bytes: a window (slice), ranks as one (merge)",
	" slice\\fR|\\fPmerge", " \\fITRACE\\fP... \\-o \\fIFILE\\fP"),
    {.name = "ncu", /* its verbs are the registry's ncu views */
     .summary = "Nsight Compute reports: list, raw, session, details, hints",
     .help = cmd_ncu_help,
     .run = cmd_ncu,
     .help_tail = cmd_ncu_help_tail,
     .opts = view_ncu_opts,
     .nopts = &view_ncu_nopts,
     .man_pre = " list\\fR|\\fPraw\\fR|\\fPsession\\fR|\\fPdetails\\fR|\\fPhints\\fR|\\fPbody",
     .man_post = " \\fIREPORT\\fP"},
    {.name = "nsys", /* its export views are the registry's nsys views */
     .summary = "Nsight Systems: per-iteration NVTX analysis, SQLite export summaries",
     .help = cmd_nsys_help,
     .run = cmd_nsys,
     .opts = view_nsys_opts,
     .nopts = &view_nsys_nopts,
     .man_pre = " \\fIFILE\\fP.sqlite \\fR[\\fPinfo\\fR|\\fPkernels\\fR|\\fPmemcpy\\fR|"
		"\\fPapi\\fR|\\fPnvtx\\fR|\\fPgpus\\fR|\\fPsteps\\fR]\\fP",
     .man_post = ""},
    CMD(serve, "local web viewer of traces (prints the URL)", "",
	" \\fR[\\fP\\fIFILE\\fP|\\fIDIR\\fP...\\fR]\\fP"),
    CMD(synth, "write a synthetic Kineto trace (examples, benchmarks)", "", " \\-o \\fIFILE\\fP"),
};
#undef CMD
#undef VIEW_CMD
#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* The commands: the table's rows, then every view of the registry the
 * table does not place (a new view is a command without a row here). */
struct cmd_list {
	struct cmd v[NCOMMANDS + VIEW_COUNT];
	size_t n;
};

static void cmd_list_init(struct cmd_list *l)
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

const char *const cli_global_options[] = {
    "--format", "--output",	"-o",	  "--quiet", "-q",	  "--strict", "--step",
    "--range",	"--max-memory", "--help", "-h",	     "--version", NULL,
};

static const char *cmd_summary_of(const struct cmd *c)
{
	return c->is_view ? view_get(c->view)->summary : c->summary;
}

static void print_cmd_help(const struct cmd *c)
{
	if (c->is_view) {
		app_print_view_help(stdout, view_get(c->view));
		return;
	}
	fputs(c->help, stdout);
	/* without a tail the help text lists its options itself (nsys: two
	 * forms, each with its own list); the declarations give its man line */
	if (c->opts && c->help_tail) {
		app_print_options(stdout, c->opts, *c->nopts);
		fputs(c->help_tail, stdout);
	}
}

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
    "      --max-memory SIZE    the most one loaded trace may hold (its tables and\n"
    "                           strings), bytes or with K, M, G (default: half of\n"
    "                           the physical memory); a larger trace fails (exit 2)\n"
    "  -h, --help               help for the tool or a command\n"
    "      --version            version and build details\n"
    "\n"
    "Exit status: 0 ok, 1 an analysis gate tripped, 2 usage or input error.\n"
    "Environment: GPUPROF_THREADS=1 imports traces on one thread (default: two\n"
    "when the machine has more than one CPU).\n";

static void print_help(FILE *f, const struct cmd_list *l)
{
	fprintf(f,
		"gpuprof %s: answers from GPU profiles (PyTorch profiler traces, Nsight\n"
		"Compute reports, Nsight Systems runs and exports)\n\n"
		"Usage: gpuprof [global options] COMMAND [options] FILE...\n\nCommands:\n",
		GP_VERSION);
	for (size_t i = 0; i < l->n; i++)
		fprintf(f, "  %-10s %s\n", l->v[i].name, cmd_summary_of(&l->v[i]));
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
		if (c->is_view)
			app_print_view_man_line(stdout, view_get(c->view));
		else if (c->opts)
			app_print_man_line(stdout, c->name, c->man_pre, c->opts, *c->nopts,
					   c->man_post);
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
	const char *names[NCOMMANDS + VIEW_COUNT];
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

/* A global option with a value: its value into app (0), or -1 after
 * printing the error. */
static int set_global(struct app *app, char which, const char *val)
{
	if (which == 's') {
		app->step = val;
	} else if (which == 'r') {
		app->range = val;
	} else if (which == 'o') {
		app->output = val;
	} else if (which == 'm') {
		if (app_parse_size(val, &app->max_memory) || !app->max_memory) {
			fprintf(stderr,
				"gpuprof: --max-memory needs a size such as 512M or 4G, not '%s'\n",
				val);
			return -1;
		}
	} else if (parse_format(val, &app->format)) {
		fprintf(stderr, "gpuprof: --format must be table, csv or json, not '%s'\n", val);
		return -1;
	} else {
		app->format_set = true;
	}
	return 0;
}

/* Which global option with a value a is ('f'ormat, 'o'utput, 's'tep,
 * 'r'ange, 'm'ax-memory; 0: none) and, for --name=value, its value. */
static char global_with_value(const char *a, const char **val)
{
	static const struct {
		const char *name;
		char which;
	} g[] = {{"--format", 'f'}, {"--output", 'o'}, {"-o", 'o'},
		 {"--step", 's'},   {"--range", 'r'},  {"--max-memory", 'm'}};
	*val = NULL;
	for (size_t k = 0; k < sizeof g / sizeof g[0]; k++) {
		size_t n = strlen(g[k].name);
		if (strncmp(a, g[k].name, n))
			continue;
		if (!a[n])
			return g[k].which;
		if (a[n] == '=' && a[1] == '-') {
			*val = a + n + 1;
			return g[k].which;
		}
	}
	return 0;
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
		char which;
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
			which = 'o';
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
	struct app app = {.argv0 = argv[0], .format = REP_TABLE};
	struct cmd_list cmds;
	cmd_list_init(&cmds);
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
			print_cmd_help(c);
			fputs("\n", stdout);
			fputs(global_help, stdout);
			return 0;
		}
	}
	if (c->is_view)
		return app_cmd_view(&app, view_get(c->view), argc - 1, argv + 1);
	return c->run(&app, argc - 1, argv + 1);
}
