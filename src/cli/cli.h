/* cli: the command-line front end; the only place that parses argv, prints
 * to stdout/stderr, or decides exit codes.
 *
 * The commands of the views (info, steps, summary, ops, kernels, memory,
 * top) come from the registry of views (views/view.h) and run through
 * cmd_view.c: adding a view adds no file here, only its row in main.c's
 * table (which orders `gpuprof --help`). Another subcommand: write
 * src/cli/cmd_<name>.c with a `int cmd_<name>(struct app *app, int argc,
 * char **argv)` and its help text, declare it below and add one row to the
 * table in main.c; its options go through args.h. The row's verbs,
 * operands and subcommand, with the option declarations, are what shell
 * completion (complete.c) and the man page's generated parts (man.c) read.
 *
 * Global options (cli_globals) are parsed by main.c before the subcommand sees argv, so
 * every command accepts them in any position: --format, -o/--output,
 * -q/--quiet, --strict, --step, --range, --max-memory, --table (each also as
 * --opt=value, and the short ones as -oFILE, -q bundled before a command's
 * short options).
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
	const char *table;	/* --table NAME: that table alone; NULL = every table */
	FILE *out;		/* set by app_out_open */
	struct outfile of;	/* the file behind -o until committed */
};

/* What a command's operands are (after its verb, if it has verbs). */
enum cmd_operands {
	CMD_FILES, /* files (and folders): TRACE..., REPORT, FILE|DIR... */
	CMD_NONE,  /* none: its input comes from options */
};

struct cmd {
	const char *name;
	const char *summary;	     /* one line for `gpuprof --help` */
	const char *help;	     /* `gpuprof NAME --help`: the text, or its head with opts */
	void (*print_help)(FILE *f); /* instead of help (nsys: two forms, two lists) */
	int (*run)(struct app *app, int argc, char **argv);
	const char *help_tail; /* with opts: help, the options listed, help_tail */
	const struct vo *opts;
	const size_t *nopts;
	const char *man_pre, *man_post; /* the operands of the man line (troff) */
	bool is_view;			/* a view of the registry: the rest comes from it */
	enum view_kind view;
	/* The verbs: the word after the name (export's formats), NULL-
	 * terminated; or, with family_verbs, the names of family's views
	 * (man_pre then holds only what comes before them). */
	const char *const *verbs;
	bool family_verbs;
	enum view_family family;
	bool verb_after_operand; /* the verb follows one FILE (nsys FILE.sqlite VIEW) */
	enum cmd_operands operands;
	const struct cmd *sub;	/* a word in the verb's place with options of its own
				   (nsys analyze): a command of its own, named "NAME SUB" */
	const struct cmd *next; /* a subcommand's next sibling (nsys profile), or NULL */
};

/* The commands: the table's rows of main.c, then every view of the registry
 * the table does not place (a new view is a command without a row). */
#define CLI_MAX_COMMANDS (32 + VIEW_COUNT)
struct cmd_list {
	struct cmd v[CLI_MAX_COMMANDS];
	size_t n;
};
void cli_commands(struct cmd_list *l);
/* Called first by main(): for big inputs, executes the binary again with
 * glibc's heap on transparent huge pages (hugepages.c; GPUPROF_HUGEPAGES);
 * returns when it does not, or in the second image. */
void hugepages_start(int argc, char **argv);
/* The options c accepts (a view's from the registry). */
const struct vo *cli_cmd_opts(const struct cmd *c, size_t *n);
/* The verbs of c into words[0..max) (its list, or its family's views);
 * their count. */
size_t cli_cmd_verbs(const struct cmd *c, const char **words, size_t max);
/* The command's one-line summary. */
const char *cli_cmd_summary(const struct cmd *c);

/* The global options, declared once: their parsing (main.c), `gpuprof
 * --help`'s check (tests), suggestions, shell completion and the man page
 * read these. Their values are parsed by main.c (the declaration's type
 * says whether one is taken, vals lists --format's choices). */
extern const struct vo cli_globals[];
extern const size_t cli_nglobals;

/* The environment variables gpuprof reads (getenv), for the man page. */
struct cli_env {
	const char *name;
	const char *help; /* troff text */
};
extern const struct cli_env cli_env[];
extern const size_t cli_nenv;

/* True when the output is standard output (no -o, or -o -) and that is a
 * terminal: commands writing binary refuse it. */
bool app_out_is_terminal(const struct app *app);
/* Opens the output (stdout, or a temp file beside -o FILE). */
int app_out_open(struct app *app, struct err *e);
/* Flushes and, for -o, renames the temp file into place. On failure (or when
 * ok is false) the temp file is removed and the target left untouched. */
int app_out_close(struct app *app, bool ok, struct err *e);
/* A command's tables: emits them into r (out: the stream r writes to, NULL
 * when r only collects the tables' names); 0 or -1 when a write failed. */
typedef int (*app_emit_fn)(void *ctx, struct report *r, FILE *out);
/* app_emit_fn of a computed view (a struct view *). */
int app_emit_view(void *v, struct report *r, FILE *out);
/* Writes view v of decl d as a command does, after view_compute* returned rc
 * (and filled e); frees v. The exit status: 0, 1 a gate tripped, 2. */
int app_write_computed(struct app *app, const struct view_decl *d, int rc, struct view *v,
		       struct err *e);
/* diff (cmd_diff.c): *d becomes the diff of the kind of paths[0] and
 * paths[1] (the trace diff, ncu diff, nsys diff); two kinds: a usage error.
 * app_diff_run loads both files of a report or analysis diff d and writes
 * it. 0 or the exit status. */
int app_diff_kind(struct app *app, const char **paths, const struct view_decl **d);
int app_diff_run(struct app *app, const struct view_decl *d, const char **paths,
		 const struct view_opts *o);
int app_diff_run_nsys(struct app *app, const struct view_decl *d, const char **paths,
		      const struct view_opts *o);
/* Whether --table or -o DIR/ asks for tables one by one (tables.c). */
bool app_tables_wanted(const struct app *app);
/* Whether -o names a folder: it ends in '/' or is an existing directory. */
bool app_out_is_dir(const struct app *app);
/* Writes the tables of cmd that --table and -o DIR/ pick (--table: that one
 * to the output, or to DIR/NAME.csv; -o DIR/ alone: every table to
 * DIR/NAME.csv). Prints any error; returns the exit status. */
int app_write_tables(struct app *app, const char *cmd, app_emit_fn emit, void *ctx);
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
/* Parses argv[1..argc) as `gpuprof NAME` of the one-trace view d does,
 * loads its TRACE (*path, an element of argv) and computes d: *t, *ses and
 * *v for the caller to free (view_free, ses_free, tr_free: a window frees
 * the trace it cuts). Returns 0, or the exit status with the error printed
 * (then all three are NULL). */
int app_view_one(struct app *app, const struct view_decl *d, int argc, char **argv,
		 const char **path, struct trace **t, struct ses **ses, struct view **v);
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
int cmd_rank_summary(struct app *app, int argc, char **argv);
int cmd_ncu(struct app *app, int argc, char **argv);
int cmd_nsys(struct app *app, int argc, char **argv);
int cmd_export(struct app *app, int argc, char **argv);
int cmd_serve(struct app *app, int argc, char **argv);
int cmd_completion(struct app *app, int argc, char **argv);
int cmd_trace(struct app *app, int argc, char **argv);

/* A command's help (its head, then its options listed from their
 * declarations, then its tail). */
#define CLI_CMD_TEXTS(nm)                                                                          \
	extern const char cmd_##nm##_help[], cmd_##nm##_help_tail[];                               \
	extern const struct vo cmd_##nm##_opts[];                                                  \
	extern const size_t cmd_##nm##_nopts
CLI_CMD_TEXTS(synth);
CLI_CMD_TEXTS(dist);
CLI_CMD_TEXTS(rank_summary);
extern const char cmd_ncu_help[], cmd_ncu_help_tail[]; /* options: views/view_ncu.h */
extern const struct vo cmd_nsys_analyze_opts[];	       /* `nsys analyze` */
extern const size_t cmd_nsys_analyze_nopts;
extern const struct vo cmd_nsys_profile_opts[]; /* `nsys profile` */
extern const size_t cmd_nsys_profile_nopts;
void cmd_nsys_print_help(FILE *f);
int cmd_nsys_profile(struct app *app, int argc, char **argv);
/* `nsys analyze` on run_dir (cmd_nsys.c): DIR/manifest.yaml read, `nsys
 * stats` run unless from_csv, DIR/analysis.json written atomically and
 * "Wrote analysis: PATH" printed; *analysis is the tree (in a). */
struct nsys_jv;
struct arena;
int cmd_nsys_analyze_dir(struct app *app, struct arena *a, const char *run_dir, bool from_csv,
			 const char *version, const struct nsys_jv **analysis, struct err *e);
/* Writes v with w into path through the atomic output (temp file, rename). */
int cmd_nsys_write(struct app *app, const char *path, void (*w)(FILE *, const struct nsys_jv *),
		   const struct nsys_jv *v, struct err *e);
/* The message when no `nsys` is on PATH. */
extern const char cmd_nsys_missing[];
/* gpuprof's version (main.c, from the build) */
extern const char cli_version[];
CLI_CMD_TEXTS(export);
CLI_CMD_TEXTS(serve);
extern const char cmd_completion_help[];
extern const char *const cmd_export_formats[]; /* NULL-terminated */
extern const char *const cmd_completion_shells[];

/* `gpuprof help --man`: the parts of man/gpuprof.1 generated from the
 * declarations, each between the lines `.\" {{ KEY` and `.\" }}`
 * (tools/man.sh puts them in place; man.c). */
void cli_print_man_parts(FILE *f, const struct cmd_list *l);
/* The `.SS` line of c: its name, verbs, options and operands. */
void cli_print_cmd_man_line(FILE *f, const struct cmd *c);
CLI_CMD_TEXTS(trace);
extern const char *const cmd_trace_verbs[]; /* NULL-terminated */

#endif
