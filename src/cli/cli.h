/* cli: the command-line front end; the only place that parses argv, prints
 * to stdout/stderr, or decides exit codes.
 *
 * The commands of the views (info, steps, summary, ops, kernels, memory,
 * top) come from the registry of views (views/view.h) and run through
 * cmd_view.c: adding a view adds no file here, only its row in main.c's
 * table (which orders `gpuprof --help`). Another subcommand: write
 * src/cli/cmd_<name>.c with a `int cmd_<name>(struct app *app, int argc,
 * char **argv)` and its help text, declare it below and add one row to the
 * table in main.c; its options go through args.h.
 *
 * Global options are parsed by main.c before the subcommand sees argv, so
 * every command accepts them in any position: --format, -o/--output,
 * -q/--quiet, --strict, --step, --range, --max-memory (each also as --opt=value, and the
 * short ones as -oFILE, -q bundled before a command's short options).
 */
#ifndef GP_CLI_H
#define GP_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/args.h"
#include "core/err.h"
#include "io/outfile.h"
#include "report/report.h"
#include "views/view.h"
#include "views/view_opt.h"

struct app {
	const char *argv0;
	enum rep_format format; /* --format, default table */
	bool format_set;	/* --format given explicitly */
	const char *output;	/* -o FILE, NULL or "-" = stdout */
	bool quiet;		/* -q: no progress, no anomaly notes */
	bool strict;		/* --strict: anomalies are errors */
	bool progress;		/* stderr is a terminal and not quiet */
	bool anomaly_notes;	/* print a note when a load finds anomalies */
	const char *step;	/* --step N or A-B: analyse only those steps */
	const char *range;	/* --range NAME: only that user annotation's time */
	uint64_t max_memory;	/* --max-memory: what one loaded trace may hold; 0 = default */
	FILE *out;		/* set by app_out_open */
	struct outfile of;	/* the file behind -o until committed */
};

struct cmd {
	const char *name;
	const char *summary; /* one line for `gpuprof --help` */
	const char *help;    /* `gpuprof NAME --help`: the text, or its head with opts */
	int (*run)(struct app *app, int argc, char **argv);
	const char *help_tail; /* with opts: help, the options listed, help_tail */
	const struct vo *opts;
	const size_t *nopts;
	const char *man_pre, *man_post; /* with opts: the operands of the man line */
	bool is_view;			/* a view of the registry: the rest comes from it */
	enum view_kind view;
};

/* The global options' spellings, NULL-terminated (for suggestions). */
extern const char *const cli_global_options[];

/* Opens the output (stdout, or a temp file beside -o FILE). */
int app_out_open(struct app *app, struct err *e);
/* Flushes and, for -o, renames the temp file into place. On failure (or when
 * ok is false) the temp file is removed and the target left untouched. */
int app_out_close(struct app *app, bool ok, struct err *e);
/* Prints "gpuprof: error: ..." for e and returns its exit code. */
int app_fail(struct app *app, const struct err *e);
/* Prints "gpuprof: NAME: MSG" usage error plus a hint, returns 2. */
int app_usage(struct app *app, const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The command of view d (cmd_view.c): parses argv[1..argc) from d's
 * option declarations, loads the trace(s), computes d and writes it to the
 * output. Returns the exit code; errors are printed (a request the trace
 * cannot answer, such as an unknown device, as a usage error of d). */
int app_cmd_view(struct app *app, const struct view_decl *d, int argc, char **argv);
/* `gpuprof NAME --help` of view d: its text with the options listed from
 * their declarations. */
void app_print_view_help(FILE *f, const struct view_decl *d);
/* The "Options:" lines of v[0..n): "  --name META  help", aligned. */
void app_print_options(FILE *f, const struct vo *v, size_t n);
/* A man page line `.SS NAME PRE [options] POST` (PRE and POST in troff,
 * each with its leading space) of the options v[0..n); the man page's
 * option lists are these lines (hidden `gpuprof --man-options` prints them
 * all; tests/cli compares them with man/gpuprof.1). */
void app_print_man_line(FILE *f, const char *name, const char *pre, const struct vo *v, size_t n,
			const char *post);
void app_print_view_man_line(FILE *f, const struct view_decl *d);
/* True when argv[i] is -h/--help. */
bool cli_is_help(const char *arg);

int cmd_synth(struct app *app, int argc, char **argv);

int cmd_dist(struct app *app, int argc, char **argv);
int cmd_ncu(struct app *app, int argc, char **argv);
int cmd_nsys(struct app *app, int argc, char **argv);
int cmd_export(struct app *app, int argc, char **argv);
int cmd_serve(struct app *app, int argc, char **argv);
int cmd_trace(struct app *app, int argc, char **argv);

/* A command's help (its head, then its options listed from their
 * declarations, then its tail). */
#define CLI_CMD_TEXTS(nm)                                                                          \
	extern const char cmd_##nm##_help[], cmd_##nm##_help_tail[];                               \
	extern const struct vo cmd_##nm##_opts[];                                                  \
	extern const size_t cmd_##nm##_nopts
CLI_CMD_TEXTS(synth);
CLI_CMD_TEXTS(dist);
extern const char cmd_ncu_help[], cmd_ncu_help_tail[]; /* options: views/view_ncu.h */
extern const char cmd_nsys_help[]; /* lists its options; man line: views/view_nsys.h */
CLI_CMD_TEXTS(export);
CLI_CMD_TEXTS(serve);
CLI_CMD_TEXTS(trace);

#endif
