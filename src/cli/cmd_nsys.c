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
#include "cli/load.h"
#include "io/source.h"
#include "nsys/nsys.h"
#include "views/view.h"
#include "views/view_nsys.h"
#include "views/view_nsys_iter.h"

static const char help_head[] =
    "Usage: gpuprof nsys analyze --run-dir DIR [--from-csv] [--nsys-version TEXT]\n"
    "       gpuprof nsys profile --run-dir DIR [options] [--nsys-args NSYS-OPTION...]\n"
    "                            -- PROGRAM [ARG...]\n"
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
    "Host and GPU numbers use different clocks: never add or compare them.\n";

/* after analyze's options, before profile's */
static const char help_profile[] =
    "\n"
    "nsys profile: makes the run directory `nsys analyze` reads. Creates DIR (and\n"
    "its parents), runs, with an argument vector (never a shell),\n"
    "  nsys profile -o DIR/trace --trace=cuda,osrt,nvtx --sample=cpu\n"
    "    --cpuctxsw=process-tree --capture-range=nvtx --capture-range-end=stop\n"
    "    --nvtx-capture=NAME@* -e NSYS_NVTX_PROFILER_REGISTER_ONLY=0\n"
    "    --trace-fork-before-exec=true [NSYS-OPTION...] PROGRAM [ARG...]\n"
    "(the options after --nsys-args, up to --, are passed to nsys as they are),\n"
    "writes DIR/manifest.yaml (profile_name, run_id, capture_range, workload,\n"
    "device, git_commit of the working directory, command_line, nsys_command,\n"
    "expected_trace_path, gpuprof_version and the outcome: exit status, and the\n"
    "end of stderr when the program failed), then analyses the run as\n"
    "`nsys analyze` does and prints the per-iteration summary. The program must\n"
    "push the NVTX range NAME around its measured iterations, each an\n"
    "'iteration N' range inside it (examples/capture/nvtx_capture.py).\n";

/* after profile's options, before the views' */
static const char help_mid[] =
    "\n"
    "nsys FILE.sqlite VIEW: reads an `nsys export --type sqlite` file (read-only)\n"
    "with libsqlite3. Any export with the StringIds table and META_DATA_EXPORT\n"
    "(2023.3 on) or EXPORT_META_DATA (up to 2023.2) loads: the columns read are\n"
    "those of Nsight Systems 2022.2 and later (tested on 2023.4 to 2026.2). A\n"
    "table nsys did not create (nothing of its kind captured) gives an empty\n"
    "table, a note on stderr, and exit 0.\n"
    "  info     product and schema version, which tables hold data (default)\n"
    "  kernels  GPU kernel summary like `nsys stats -r cuda_gpu_kern_sum`\n"
    "  memcpy   memory copies and sets by kind: count, bytes, time\n"
    "  api      CUDA runtime/driver API summary like cuda_api_sum\n"
    "  nvtx     NVTX range summary with GPU projection: kernels, copies and sets\n"
    "           launched by CUDA calls inside each range (span and summed time)\n"
    "  gpus     kernel and memory time per GPU and per stream\n"
    "  steps    the same analysis as `nsys analyze`, on the export's NVTX ranges\n"
    "           (needs the harness structure: capture range + 'iteration N')\n";

static const char help_tail[] =
    "A .nsys-rep cannot be read directly; make the export with\n"
    "  nsys export --type sqlite -o FILE.sqlite FILE.nsys-rep\n"
    "\n"
    "Examples:\n"
    "  gpuprof nsys analyze --run-dir snippets/smoke/runs/20260101T000000Z\n"
    "  gpuprof nsys profile --run-dir runs/$(date -u +%Y%m%dT%H%M%SZ) --iterations 5 \\\n"
    "      -- python train.py\n"
    "  gpuprof nsys trace.sqlite kernels --format csv\n";

void cmd_nsys_print_help(FILE *f)
{
	fputs(help_head, f);
	app_print_options(f, cmd_nsys_analyze_opts, cmd_nsys_analyze_nopts);
	fputs(help_profile, f);
	app_print_options(f, cmd_nsys_profile_opts, cmd_nsys_profile_nopts);
	fputs(help_mid, f);
	app_print_options(f, view_nsys_opts, view_nsys_nopts);
	fputs(help_tail, f);
}

static int usage(struct app *app, const char *msg)
{
	return app_usage(app, "nsys", "%s", msg);
}

int cmd_nsys_write(struct app *app, const char *path, void (*w)(FILE *, const struct nsys_jv *),
		   const struct nsys_jv *v, struct err *e)
{
	const char *saved = app->output;
	app->output = path;
	int rc = app_out_open(app, e);
	if (!rc) {
		w(app->out, v);
		rc = app_out_close(app, true, e);
	}
	app->output = saved;
	return rc;
}

const char cmd_nsys_missing[] = "Nsight Systems executable not found: 'nsys'. Install Nsight "
				"Systems and ensure `nsys` is on PATH.";

/* analyze's options */
struct analyze_args {
	const char *run_dir, *version;
	bool from_csv;
};

const struct vo cmd_nsys_analyze_opts[] = {
    {.lname = "run-dir",
     .type = VO_STRING,
     .off = offsetof(struct analyze_args, run_dir),
     .metavar = "DIR",
     .required = true,
     .help = "the run directory (required)"},
    {.lname = "from-csv",
     .type = VO_FLAG,
     .off = offsetof(struct analyze_args, from_csv),
     .help = "do not run nsys; use DIR/stats/nsys_nvtx_pushpop_trace.csv\n"
	     "and DIR/stats/nsys_nvtx_gpu_proj_trace.csv as they are"},
    {.lname = "nsys-version",
     .type = VO_STRING,
     .off = offsetof(struct analyze_args, version),
     .metavar = "TEXT",
     .help = "the Nsight version to record with --from-csv (default:\n"
	     "'unknown', which adds a warning)"},
};
const size_t cmd_nsys_analyze_nopts =
    sizeof cmd_nsys_analyze_opts / sizeof cmd_nsys_analyze_opts[0];

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

/* The analysis warnings about a cap (nesting depth, name length), each
 * also one line on stderr: the analysis is complete but shortened. */
static void cap_warnings(const struct nsys_jv *analysis)
{
	const struct nsys_jv *w = nsys_jv_get(analysis, "warnings");
	for (size_t i = 0; w && w->kind == NSYS_JARR && i < w->n; i++)
		if (w->items[i]->kind == NSYS_JSTR && nsys_warning_is_cap(w->items[i]->s))
			fprintf(stderr, "gpuprof: warning: %s\n", w->items[i]->s);
}

int cmd_nsys_analyze_dir(struct app *app, struct arena *a, const char *run_dir, bool from_csv,
			 const char *version, const struct nsys_jv **analysis, struct err *e)
{
	struct nsys_jv *manifest = NULL, *out = NULL;
	char *mpath = nsys_dir_file(a, run_dir, "manifest.yaml");
	char *jpath = nsys_dir_file(a, run_dir, "analysis.json");
	int rc = nsys_manifest_read(a, mpath, &manifest, e);
	if (!rc && !from_csv) {
		const char *nsys = nsys_which(a, "nsys");
		if (!nsys)
			rc = err_set(e, ERR_USAGE, NULL, -1, "%s", cmd_nsys_missing);
		if (!rc)
			rc = nsys_run_stats(a, nsys, run_dir, e);
		if (!rc)
			version = nsys_run_version(a, nsys);
	}
	if (!rc)
		rc = nsys_analyze_csv_dir(a, run_dir, manifest, version, &out, e);
	if (!rc)
		rc = cmd_nsys_write(app, jpath, nsys_jv_write, out, e);
	if (!rc) {
		cap_warnings(out);
		if (!app->quiet)
			printf("Wrote analysis: %s\n", jpath);
		*analysis = out;
	}
	return rc;
}

static int analyze(struct app *app, int argc, char **argv)
{
	struct analyze_args aa = {0};
	int nops;
	int prc = nsys_args(app, cmd_nsys_analyze_opts, cmd_nsys_analyze_nopts, &aa, argc, argv,
			    NULL, 0, &nops);
	if (prc)
		return prc;
	if (!aa.run_dir)
		return usage(app, "analyze: --run-dir DIR is required");
	struct stat st;
	if (stat(aa.run_dir, &st) || !S_ISDIR(st.st_mode))
		return usage(app, "analyze: --run-dir must be an existing directory");
	struct arena a;
	arena_init(&a);
	struct err e = {0};
	const struct nsys_jv *out;
	int rc = cmd_nsys_analyze_dir(app, &a, aa.run_dir, aa.from_csv, aa.version, &out, &e);
	if (rc)
		rc = app_fail(app, &e);
	arena_free(&a);
	return rc;
}

/* ---- SQLite views (the registry's family VIEW_FAMILY_NSYS) ---- */

/* Writes view v: its JSON document (steps) or its report; 0 or -1. */
static int write_view(struct app *app, struct view *v)
{
	const struct nsys_jv *json = view_json(v);
	if (json) {
		nsys_jv_write(app->out, json);
		cap_warnings(json);
		return 0;
	}
	struct report *r = rep_open(app->out, app->format);
	if (!r)
		return -1;
	view_emit(v, r);
	int wrc = view_emit_failed(v) ? -1 : 0;
	if (rep_close(r))
		wrc = -1;
	return wrc;
}

static int sqlite_cmd(struct app *app, int argc, char **argv)
{
	const char *path = argv[0];
	struct view_opts o;
	view_opts_init(&o);
	const char *verb[1];
	int nops;
	int prc = nsys_args(app, view_nsys_opts, view_nsys_nopts, &o, argc, argv, verb, 1, &nops);
	if (prc)
		return prc;
	const struct view_decl *d = view_find_in(VIEW_FAMILY_NSYS, nops ? verb[0] : "info");
	if (!d) {
		char msg[512];
		view_unknown(VIEW_FAMILY_NSYS, verb[0], msg, sizeof msg);
		return usage(app, msg);
	}
	struct err e = {0};
	struct nsys_sql *s = NULL;
	struct view *v = NULL;
	struct input in;
	int rc = app_load(app, path, INPUT_BIT(INPUT_NSYS), &in);
	if (rc)
		return rc; /* its message is out */
	input_free(&in);   /* the kind checked: the export is opened at path */
	rc = nsys_sql_open(path, &s, &e);
	if (!rc)
		rc = view_compute_nsys(d, s, path, &o, &v, &e);
	if (!rc && !app->quiet && nsys_view_absent(v))
		fprintf(stderr, "gpuprof: note: %s: %s; the table is empty\n", path,
			nsys_view_absent(v));
	if (!rc && app_tables_wanted(app)) {
		int trc = view_json(v) ? usage(app, "steps writes one document (analysis.json), "
						    "not tables: --table and -o DIR/ do not apply")
				       : app_write_tables(app, "nsys", app_emit_view, v);
		view_free(v);
		nsys_sql_close(s);
		return trc;
	}
	if (!rc)
		rc = app_out_open(app, &e);
	if (!rc) {
		if (write_view(app, v))
			rc = err_set(&e, ERR_IO, app->output, -1, "write failed");
		int crc = app_out_close(app, rc == 0, &e);
		if (!rc)
			rc = crc;
	}
	view_free(v);
	nsys_sql_close(s);
	return rc ? app_fail(app, &e) : 0;
}

int cmd_nsys(struct app *app, int argc, char **argv)
{
	if (argc < 2)
		return usage(app, "expected 'analyze', 'profile' or a .sqlite file");
	if (!strcmp(argv[1], "profile"))
		return app->table ? usage(app, "profile writes a run directory, not tables: "
					       "--table does not apply")
				  : cmd_nsys_profile(app, argc - 1, argv + 1);
	if (!strcmp(argv[1], "analyze"))
		return app->table ? usage(app, "analyze writes analysis.json files, not tables: "
					       "--table does not apply")
				  : analyze(app, argc - 1, argv + 1);
	if (argv[1][0] == '-')
		return usage(app, "expected 'analyze', 'profile' or a .sqlite file before options");
	return sqlite_cmd(app, argc - 1, argv + 1);
}
