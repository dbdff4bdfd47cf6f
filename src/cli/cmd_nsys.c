/* nsys: Nsight Systems commands: the per-iteration NVTX analysis of a
 * profiling run directory (`nsys analyze`) and summaries read straight from
 * an `nsys export --type sqlite` file. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "io/source.h"
#include "nsys/nsys.h"
#include "views/view_nsys.h"
#include "views/view_nsys_iter.h"

const char cmd_nsys_help[] =
    "Usage: gpuprof nsys analyze --run-dir DIR [--from-csv] [--nsys-version TEXT]\n"
    "       gpuprof nsys FILE.sqlite [info|kernels|memcpy|api|nvtx|gpus|steps]\n"
    "                    [--manifest FILE] [--capture-range NAME] [--iterations N]\n"
    "\n"
    "nsys analyze: per-iteration NVTX analysis of a profiling run directory\n"
    "(the roboflow harness layout: DIR/manifest.yaml, DIR/trace.nsys-rep).\n"
    "Runs, with an argument vector (never a shell),\n"
    "  nsys stats --report nvtx_pushpop_trace --report nvtx_gpu_proj_trace\n"
    "    --format csv --output DIR/stats/nsys --force-overwrite=true DIR/trace.nsys-rep\n"
    "then `nsys --version`, reads the two CSVs by header name, finds the capture\n"
    "range named by the manifest's capture_range and its direct 'iteration N'\n"
    "children, joins host ranges with their GPU projections on (PID, TID,\n"
    "RangeId), scopes repeated names by their NVTX ancestry below the iteration\n"
    "(preprocessing.resize), and writes DIR/analysis.json (schema_version 1,\n"
    "sorted keys, written to a temp file and renamed): host inclusive,\n"
    "exclusive and child time, GPU-projected time, each as total, mean, median,\n"
    "min, max and sample standard deviation in ns, plus provenance and warnings.\n"
    "Host and GPU numbers use different clocks: never add or compare them.\n"
    "  --run-dir DIR        the run directory (required)\n"
    "  --from-csv           do not run nsys; use DIR/stats/nsys_nvtx_pushpop_trace.csv\n"
    "                       and DIR/stats/nsys_nvtx_gpu_proj_trace.csv as they are\n"
    "  --nsys-version TEXT  the Nsight version to record with --from-csv (default:\n"
    "                       'unknown', which adds a warning)\n"
    "\n"
    "nsys FILE.sqlite VIEW: reads an `nsys export --type sqlite` file (read-only)\n"
    "with libsqlite3; exports from Nsight 2023.4 to 2026.2 are understood.\n"
    "  info     product and schema version, which tables hold data (default)\n"
    "  kernels  GPU kernel summary like `nsys stats -r cuda_gpu_kern_sum`\n"
    "  memcpy   memory copies and sets by kind: count, bytes, time\n"
    "  api      CUDA runtime/driver API summary like cuda_api_sum\n"
    "  nvtx     NVTX range summary with GPU projection: kernels, copies and sets\n"
    "           launched by CUDA calls inside each range (span and summed time)\n"
    "  gpus     kernel and memory time per GPU and per stream\n"
    "  steps    the same analysis as `nsys analyze`, on the export's NVTX ranges\n"
    "           (needs the harness structure: capture range + 'iteration N')\n"
    "  --manifest FILE       steps: the run's manifest.yaml\n"
    "  --capture-range NAME  steps without a manifest (default: profile-target)\n"
    "  --iterations N        steps without a manifest: expected iteration count\n"
    "A .nsys-rep cannot be read directly; make the export with\n"
    "  nsys export --type sqlite -o FILE.sqlite FILE.nsys-rep\n"
    "\n"
    "Examples:\n"
    "  gpuprof nsys analyze --run-dir snippets/smoke/runs/20260101T000000Z\n"
    "  gpuprof nsys trace.sqlite kernels --format csv\n";

static int usage(struct app *app, const char *msg)
{
	return app_usage(app, "nsys", "%s", msg);
}

/* Writes v to path through app's atomic output (temp file + rename). */
static int write_json(struct app *app, const char *path, const struct nsys_jv *v, struct err *e)
{
	const char *saved = app->output;
	app->output = path;
	int rc = app_out_open(app, e);
	if (!rc) {
		nsys_jv_write(app->out, v);
		rc = app_out_close(app, true, e);
	}
	app->output = saved;
	return rc;
}

/* analyze's options */
struct analyze_args {
	const char *run_dir, *version;
	bool from_csv;
};

static const struct vo analyze_opts[] = {
    {.lname = "run-dir", .type = VO_STRING, .off = offsetof(struct analyze_args, run_dir)},
    {.lname = "from-csv", .type = VO_FLAG, .off = offsetof(struct analyze_args, from_csv)},
    {.lname = "nsys-version", .type = VO_STRING, .off = offsetof(struct analyze_args, version)},
};

/* The options of an nsys verb into base, no operand beyond max; 0 or the
 * exit status after the message. */
static int nsys_args(struct app *app, const struct vo *v, size_t n, void *base, int argc,
		     char **argv, const char **ops, int max, int *nops)
{
	const char **all = calloc((size_t)argc + 1, sizeof *all);
	if (!all)
		return usage(app, "out of memory");
	int rc = app_parse(app, "nsys", v, n, base, argc, argv, all, nops);
	if (!rc && *nops > max)
		rc = usage(app, "unexpected argument (see --help)");
	for (int i = 0; !rc && i < *nops; i++)
		ops[i] = all[i];
	free(all);
	return rc;
}

static int analyze(struct app *app, int argc, char **argv)
{
	struct analyze_args aa = {0};
	int nops;
	int prc = nsys_args(app, analyze_opts, sizeof analyze_opts / sizeof analyze_opts[0], &aa,
			    argc, argv, NULL, 0, &nops);
	if (prc)
		return prc;
	const char *run_dir = aa.run_dir, *version = aa.version;
	bool from_csv = aa.from_csv;
	if (!run_dir)
		return usage(app, "analyze: --run-dir DIR is required");
	struct stat st;
	if (stat(run_dir, &st) || !S_ISDIR(st.st_mode))
		return usage(app, "analyze: --run-dir must be an existing directory");
	struct arena a;
	arena_init(&a);
	struct err e = {0};
	int rc = 0;
	struct nsys_jv *manifest = NULL, *out = NULL;
	char *mpath = nsys_dir_file(&a, run_dir, "manifest.yaml");
	char *jpath = nsys_dir_file(&a, run_dir, "analysis.json");
	rc = nsys_manifest_read(&a, mpath, &manifest, &e);
	if (!rc && !from_csv) {
		const char *nsys = nsys_which(&a, "nsys");
		if (!nsys)
			rc = err_set(&e, ERR_USAGE, NULL, -1,
				     "Nsight Systems executable not found: 'nsys'. Install Nsight "
				     "Systems and ensure `nsys` is on PATH.");
		if (!rc)
			rc = nsys_run_stats(&a, nsys, run_dir, &e);
		if (!rc)
			version = nsys_run_version(&a, nsys);
	}
	if (!rc)
		rc = nsys_analyze_csv_dir(&a, run_dir, manifest, version, &out, &e);
	if (!rc)
		rc = write_json(app, jpath, out, &e);
	if (rc) {
		rc = app_fail(app, &e);
	} else {
		if (!app->quiet)
			printf("Wrote analysis: %s\n", jpath);
		rc = 0;
	}
	arena_free(&a);
	return rc;
}

/* ---- SQLite views ---- */

struct sqlite_args {
	const char *manifest, *capture, *iterations;
};

static const struct vo sqlite_opts[] = {
    {.lname = "manifest", .type = VO_STRING, .off = offsetof(struct sqlite_args, manifest)},
    {.lname = "capture-range", .type = VO_STRING, .off = offsetof(struct sqlite_args, capture)},
    {.lname = "iterations", .type = VO_STRING, .off = offsetof(struct sqlite_args, iterations)},
};

static int sqlite_cmd(struct app *app, int argc, char **argv)
{
	const char *path = argv[0], *manifest = NULL, *capture = "profile-target",
		   *iterations = NULL;
	enum nsys_sql_view view = NSYS_SQL_INFO;
	static const char *const names[] = {"info", "kernels", "memcpy", "api",
					    "nvtx", "steps",   "gpus"};
	static const enum nsys_sql_view views[] = {
	    NSYS_SQL_INFO, NSYS_SQL_KERNELS, NSYS_SQL_MEMCPY, NSYS_SQL_API,
	    NSYS_SQL_NVTX, NSYS_SQL_STEPS,   NSYS_SQL_DEVICES};
	struct sqlite_args sa = {.capture = capture};
	const char *verb[1];
	int nops;
	int prc = nsys_args(app, sqlite_opts, sizeof sqlite_opts / sizeof sqlite_opts[0], &sa, argc,
			    argv, verb, 1, &nops);
	if (prc)
		return prc;
	manifest = sa.manifest;
	capture = sa.capture;
	iterations = sa.iterations;
	for (size_t k = 0; nops && k < sizeof names / sizeof names[0]; k++)
		if (!strcmp(verb[0], names[k])) {
			view = views[k];
			nops = 0;
		}
	if (nops)
		return usage(app, "unexpected argument (see --help)");
	struct arena a;
	arena_init(&a);
	struct err e = {0};
	struct nsys_sql *s = NULL;
	struct nsys_sql_table t = {0};
	struct nsys_jv *analysis = NULL;
	int rc = nsys_sql_open(path, &s, &e);
	if (!rc) {
		switch (view) {
		case NSYS_SQL_KERNELS:
		case NSYS_SQL_MEMCPY:
		case NSYS_SQL_API:
		case NSYS_SQL_NVTX:
		case NSYS_SQL_DEVICES:
			rc = nsys_view_compute(s, &a, view, &t, &e);
			break;
		case NSYS_SQL_STEPS: {
			struct nsys_jv *m = NULL;
			rc = manifest ? nsys_manifest_read(&a, manifest, &m, &e)
				      : nsys_steps_manifest(&a, capture, iterations, &m, &e);
			if (!rc)
				rc = nsys_view_steps(s, &a, m, manifest, path, &analysis, &e);
			break;
		}
		case NSYS_SQL_INFO:
			break;
		}
	}
	if (!rc)
		rc = app_out_open(app, &e);
	if (!rc) {
		if (view == NSYS_SQL_STEPS) {
			nsys_jv_write(app->out, analysis);
		} else {
			struct report *r = rep_open(app->out, app->format);
			int wrc = !r			  ? -1
				  : view == NSYS_SQL_INFO ? nsys_view_info(r, s, &a, path)
							  : nsys_view_table(r, view, &t);
			if (r && rep_close(r))
				wrc = -1;
			if (wrc)
				rc = err_set(&e, ERR_IO, app->output, -1, "write failed");
		}
		int crc = app_out_close(app, rc == 0, &e);
		if (!rc)
			rc = crc;
	}
	nsys_sql_close(s);
	arena_free(&a);
	return rc ? app_fail(app, &e) : 0;
}

int cmd_nsys(struct app *app, int argc, char **argv)
{
	if (argc < 2)
		return usage(app, "expected 'analyze' or a .sqlite file");
	if (!strcmp(argv[1], "analyze"))
		return analyze(app, argc - 1, argv + 1);
	if (argv[1][0] == '-')
		return usage(app, "expected 'analyze' or a .sqlite file before options");
	return sqlite_cmd(app, argc - 1, argv + 1);
}
