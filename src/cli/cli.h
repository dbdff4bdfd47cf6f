/* cli: the command-line front end; the only place that parses argv, prints
 * to stdout/stderr, or decides exit codes.
 *
 * Adding a subcommand: write src/cli/cmd_<name>.c with a
 * `int cmd_<name>(struct app *app, int argc, char **argv)` and its help text,
 * declare it below and add one row to the table in main.c.
 *
 * Global options are parsed by main.c before the subcommand sees argv, so
 * every command accepts them in any position: --format, -o/--output,
 * -q/--quiet, --strict.
 */
#ifndef GP_CLI_H
#define GP_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "core/err.h"
#include "report/report.h"
#include "views/view.h"

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
	FILE *out;		/* set by app_out_open */
	char tmp_path[4096];	/* temp file behind -o until committed */
};

struct cmd {
	const char *name;
	const char *summary; /* one line for `gpuprof --help` */
	const char *help;    /* full text for `gpuprof NAME --help` */
	int (*run)(struct app *app, int argc, char **argv);
};

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
/* Loads the trace at path, computes view k and writes it to the output (the
 * trace commands' common tail). Returns the exit code; errors are printed (a request the
 * trace cannot answer, such as an unknown device, as a usage error of cmd). */
int app_run_view(struct app *app, const char *cmd, enum view_kind k, const char *path,
		 const struct view_opts *o);
/* True when argv[i] is -h/--help. */
bool cli_is_help(const char *arg);

int cmd_info(struct app *app, int argc, char **argv);
int cmd_synth(struct app *app, int argc, char **argv);
int cmd_steps(struct app *app, int argc, char **argv);
int cmd_summary(struct app *app, int argc, char **argv);

int cmd_ops(struct app *app, int argc, char **argv);
int cmd_kernels(struct app *app, int argc, char **argv);
int cmd_memory(struct app *app, int argc, char **argv);
int cmd_dist(struct app *app, int argc, char **argv);
int cmd_ncu(struct app *app, int argc, char **argv);
int cmd_nsys(struct app *app, int argc, char **argv);
int cmd_export(struct app *app, int argc, char **argv);
int cmd_top(struct app *app, int argc, char **argv);
int cmd_serve(struct app *app, int argc, char **argv);

extern const char cmd_info_help[];
extern const char cmd_synth_help[];
extern const char cmd_steps_help[];
extern const char cmd_summary_help[];
extern const char cmd_ops_help[];
extern const char cmd_kernels_help[];
extern const char cmd_memory_help[];
extern const char cmd_dist_help[];
extern const char cmd_ncu_help[];
extern const char cmd_nsys_help[];
extern const char cmd_export_help[];
extern const char cmd_top_help[];
extern const char cmd_serve_help[];

#endif
