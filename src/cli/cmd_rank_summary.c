/* rank-summary: one worker's part of the distributed view as a rank
 * summary (fleet/summary.h), for `gpuprof dist` to read instead of the
 * trace. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/load.h"
#include "fleet/summary.h"
#include "io/gzout.h"

const char cmd_rank_summary_help[] =
    "Usage: gpuprof rank-summary [options] TRACE -o RANK.json[.gz]\n"
    "       gpuprof rank-summary --merge [options] SUMMARY... -o MERGED.json[.gz]\n"
    "\n"
    "The rank summary of one worker's trace: what `gpuprof dist` needs of that\n"
    "worker (its collective calls with their CPU ranges, NCCL kernel ranges,\n"
    "bytes, steps, process groups (listed once), sequence numbers and what ran\n"
    "before each; per step the computation/communication overlap, bounds, time\n"
    "breakdown and GPU busy time; the GPUs used; distributedInfo), its kernel\n"
    "summary and memory peaks, as a small JSON file (schema version 2, docs/\n"
    "schemas/rank-summary.schema.json). `gpuprof dist` reads summaries (of\n"
    "version 1 too) and traces in any mix and gives the same tables, to the\n"
    "byte, as over the traces, so the summaries of thousands of ranks can be\n"
    "made where the traces are (one command per rank) and reduced in one small\n"
    "process.\n"
    "\n"
    "-o FILE is required (-o - writes to standard output); a name ending in .gz\n"
    "is gzip-compressed. The summary keeps the worker name `gpuprof dist` would\n"
    "give TRACE (or --name) and TRACE as its file. The global --step and\n"
    "--range cut the trace before it is summarised, as they do for `gpuprof\n"
    "dist`; `gpuprof dist` over summaries takes neither.\n"
    "\n"
    "--merge writes the summaries of several workers (each SUMMARY itself of one\n"
    "worker or merged) as one: every worker's object as its input holds it,\n"
    "ordered by rank (unknown ranks last), then name, so that merging in any\n"
    "grouping and order gives the same bytes, and `gpuprof dist` over the merge\n"
    "prints what it prints over the parts given in that order. A worker name or\n"
    "rank that appears twice is refused. Summaries made with --tb-compat merge\n"
    "with --tb-compat.\n"
    "\n"
    "Options:\n";

const char cmd_rank_summary_help_tail[] =
    "\n"
    "Examples:\n"
    "  gpuprof rank-summary run/node0_0.pt.trace.json.gz -o s/node0_0.json.gz\n"
    "  gpuprof rank-summary --merge s/node0_*.json.gz -o node0.json.gz\n"
    "  gpuprof dist s/*.json.gz\n";

struct rank_summary_args {
	bool tb_compat, merge;
	const char *name;
};

const struct vo cmd_rank_summary_opts[] = {
    {.lname = "tb-compat",
     .type = VO_FLAG,
     .off = offsetof(struct rank_summary_args, tb_compat),
     .help = "summarise as `gpuprof dist --tb-compat` reads\n"
	     "(that mode's collectives); dist refuses to mix modes"},
    {.lname = "name",
     .type = VO_STRING,
     .off = offsetof(struct rank_summary_args, name),
     .metavar = "NAME",
     .help = "the worker's name (default: from TRACE's file name)"},
    {.lname = "merge",
     .type = VO_FLAG,
     .off = offsetof(struct rank_summary_args, merge),
     .help = "merge the summaries given into one (of all their\n"
	     "workers, ordered by rank, then name)"},
};
const size_t cmd_rank_summary_nopts =
    sizeof cmd_rank_summary_opts / sizeof cmd_rank_summary_opts[0];

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);
	return n >= k && !strcmp(s + n - k, tail);
}

/* What write_summary writes: worker 0 of d, or the merge of paths. */
struct rs_job {
	const struct dist_result *d;
	struct ses *ses;
	const char *const *paths;
	size_t npaths;
	bool compat;
};

/* Writes the job to the output (gzip when its name ends in .gz). */
static int write_summary(struct app *app, const struct rs_job *j, struct err *e)
{
	int rc = app_out_open(app, e);
	if (rc)
		return rc;
	bool gz = app->output && ends_with(app->output, ".gz");
	const char *out = app->output && strcmp(app->output, "-") ? app->output : "stdout";
	FILE *f = gz ? gzout_open(app->out, e) : app->out;
	if (!f)
		rc = ERR_NOMEM;
	else if (j->paths)
		rc = fleet_summary_merge(j->paths, j->npaths, j->compat, f, out, e);
	else
		rc = fleet_summary_write(j->d, 0, j->ses, f, out, e);
	if (gz && f && fclose(f) && !rc)
		rc = err_set(e, ERR_IO, out, -1, "write failed");
	if (rc) {
		app_out_close(app, false, e);
		return rc;
	}
	return app_out_close(app, true, e);
}

/* Checks the options both forms share. */
static int check_output(struct app *app)
{
	if (!app->output)
		return app_usage(app, "rank-summary", "-o FILE is required (-o - for stdout)");
	if (app_tables_wanted(app))
		return app_usage(app, "rank-summary",
				 "writes one file: --table and -o DIR/ do not apply");
	return 0;
}

/* --merge SUMMARY...: the global --step and --range were applied when
 * the summaries were made. */
static int merge(struct app *app, const struct rank_summary_args *a, const char *const *paths,
		 int np)
{
	if (!np)
		return app_usage(app, "rank-summary", "--merge: no SUMMARY given");
	int rc = check_output(app);
	if (rc)
		return rc;
	if (a->name)
		return app_usage(app, "rank-summary",
				 "--merge keeps each worker's name: --name does not apply");
	if (app->step || app->range)
		return app_usage(app, "rank-summary",
				 "--merge: --step and --range apply when a summary is made");
	struct err e = {0};
	struct rs_job j = {.paths = paths, .npaths = (size_t)np, .compat = a->tb_compat};
	rc = write_summary(app, &j, &e);
	return rc ? app_fail(app, &e) : 0;
}

/* TRACE -o RANK.json: the summary of one trace. */
static int summarise(struct app *app, const struct rank_summary_args *a, const char **ops, int np)
{
	if (np > 1)
		return app_usage(app, "rank-summary", "one TRACE only (got '%s' and '%s')", ops[0],
				 ops[1]);
	if (!np)
		return app_usage(app, "rank-summary", "no TRACE given");
	int rc = check_output(app);
	if (rc)
		return rc;
	const char *path = ops[0];
	struct err e = {0};
	struct dist_opts o = {.tb_compat = a->tb_compat};
	struct dist_result d;
	if (dist_init(&d, &o, &e))
		return app_fail(app, &e);
	struct trace *t;
	struct ses *ses;
	rc = app_load_trace(app, path, &t, &ses);
	if (!rc) {
		char name[256];
		if (a->name)
			snprintf(name, sizeof name, "%s", a->name);
		else
			dist_worker_name(path, name, sizeof name);
		rc = dist_add_ses(&d, ses, name, NULL, &e);
		if (!rc)
			rc = write_summary(app, &(struct rs_job){.d = &d, .ses = ses}, &e);
		ses_free(ses);
		tr_free(t);
		if (rc)
			rc = app_fail(app, &e);
	}
	dist_free(&d);
	return rc;
}

int cmd_rank_summary(struct app *app, int argc, char **argv)
{
	struct rank_summary_args a = {0};
	const char **ops = calloc((size_t)argc + 1, sizeof *ops);
	int np = 0;
	if (!ops)
		return app_usage(app, "rank-summary", "out of memory");
	int rc = app_parse(app, "rank-summary", cmd_rank_summary_opts, cmd_rank_summary_nopts, &a,
			   argc, argv, ops, &np);
	if (!rc && a.merge)
		rc = merge(app, &a, ops, np);
	else if (!rc)
		rc = summarise(app, &a, ops, np);
	free(ops);
	return rc;
}
