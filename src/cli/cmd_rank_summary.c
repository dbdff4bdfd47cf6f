/* rank-summary: one worker's part of the distributed view as a rank
 * summary (fleet/summary.h), for `gpuprof dist` to read instead of the
 * trace. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/load.h"
#include "fleet/summary.h"
#include "io/gzout.h"

const char cmd_rank_summary_help[] =
    "Usage: gpuprof rank-summary [options] TRACE -o RANK.json[.gz]\n"
    "\n"
    "The rank summary of one worker's trace: what `gpuprof dist` needs of that\n"
    "worker (its collective calls with their CPU ranges, NCCL kernel ranges,\n"
    "bytes and steps; per step the computation/communication overlap; the GPUs\n"
    "used; distributedInfo), as a small JSON file (docs/schemas/\n"
    "rank-summary.schema.json). `gpuprof dist` reads summaries and traces in\n"
    "any mix and gives the same tables, to the byte, as over the traces, so\n"
    "the summaries of thousands of ranks can be made where the traces are (one\n"
    "command per rank) and reduced in one small process.\n"
    "\n"
    "-o FILE is required (-o - writes to standard output); a name ending in .gz\n"
    "is gzip-compressed. The summary keeps the worker name `gpuprof dist` would\n"
    "give TRACE (or --name) and TRACE as its file. The global --step and\n"
    "--range cut the trace before it is summarised, as they do for `gpuprof\n"
    "dist`; `gpuprof dist` over summaries takes neither.\n"
    "\n"
    "Options:\n";

const char cmd_rank_summary_help_tail[] =
    "\n"
    "Examples:\n"
    "  gpuprof rank-summary run/node0_0.pt.trace.json.gz -o s/node0_0.json.gz\n"
    "  gpuprof dist s/*.json.gz\n";

struct rank_summary_args {
	bool tb_compat;
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
};
const size_t cmd_rank_summary_nopts =
    sizeof cmd_rank_summary_opts / sizeof cmd_rank_summary_opts[0];

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);
	return n >= k && !strcmp(s + n - k, tail);
}

/* Writes worker 0 of d to the output (gzip when its name ends in .gz). */
static int write_summary(struct app *app, const struct dist_result *d, const struct trace *t,
			 struct err *e)
{
	int rc = app_out_open(app, e);
	if (rc)
		return rc;
	bool gz = app->output && ends_with(app->output, ".gz");
	const char *out = app->output && strcmp(app->output, "-") ? app->output : "stdout";
	FILE *f = gz ? gzout_open(app->out, e) : app->out;
	rc = f ? fleet_summary_write(d, 0, t, f, out, e) : ERR_NOMEM;
	if (gz && f && fclose(f) && !rc)
		rc = err_set(e, ERR_IO, out, -1, "write failed");
	if (rc) {
		app_out_close(app, false, e);
		return rc;
	}
	return app_out_close(app, true, e);
}

int cmd_rank_summary(struct app *app, int argc, char **argv)
{
	struct rank_summary_args a = {0};
	const char *path = NULL;
	int rc = app_args(app, "rank-summary", "TRACE", argc, argv, cmd_rank_summary_opts,
			  cmd_rank_summary_nopts, &a, &path);
	if (rc)
		return rc;
	if (!app->output)
		return app_usage(app, "rank-summary", "-o FILE is required (-o - for stdout)");
	if (app_tables_wanted(app))
		return app_usage(app, "rank-summary",
				 "writes one file: --table and -o DIR/ do not apply");
	struct err e = {0};
	struct dist_opts o = {.tb_compat = a.tb_compat};
	struct dist_result d;
	if (dist_init(&d, &o, &e))
		return app_fail(app, &e);
	struct trace *t;
	rc = app_load_trace(app, path, &t, NULL);
	if (!rc) {
		char name[256];
		if (a.name)
			snprintf(name, sizeof name, "%s", a.name);
		else
			dist_worker_name(path, name, sizeof name);
		rc = dist_add(&d, t, name, NULL, &e);
		if (!rc)
			rc = write_summary(app, &d, t, &e);
		tr_free(t);
		if (rc)
			rc = app_fail(app, &e);
	}
	dist_free(&d);
	return rc;
}
