/* view_nsys_decl: the Nsight Systems views of the registry (`gpuprof nsys
 * FILE.sqlite info|kernels|memcpy|api|nvtx|gpus|steps`, GET
 * /api/file/ID/nsys/VIEW): the options of steps, the check of its API
 * values, and compute and emit around view_nsys.c's tables and
 * view_nsys_iter.c's analysis. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsys/nsys.h"
#include "views/view_int.h"
#include "views/view_nsys.h"
#include "views/view_nsys_iter.h"

/* Only steps reads them; the command line takes them with every view. */
const struct vo view_nsys_opts[] = {
    {.lname = "manifest",
     .type = VO_STRING,
     .off = offsetof(struct view_opts, nsys_manifest),
     .metavar = "FILE",
     .help = "steps: the run's manifest.yaml"},
    {.lname = "capture-range",
     .api = "capture_range",
     .type = VO_STRING,
     .off = offsetof(struct view_opts, nsys_capture),
     .metavar = "NAME",
     .help = "steps without a manifest (default: profile-target)"},
    {.lname = "iterations",
     .api = "iterations",
     .type = VO_STRING,
     .off = offsetof(struct view_opts, nsys_iterations),
     .metavar = "N",
     .help = "steps without a manifest: expected iteration count"},
};
const size_t view_nsys_nopts = sizeof view_nsys_opts / sizeof view_nsys_opts[0];

/* The results of an nsys view (its priv). */
struct nsys_state {
	struct arena a;
	struct nsys_sql *q; /* the caller's */
	const char *path;
	enum nsys_sql_view view;
	struct nsys_sql_table t;
	struct nsys_jv *json; /* steps */
};

/* The API's check of iterations (the command line's is nsys_steps_manifest's,
 * once the export is open): a plain decimal count. */
static int steps_check(const struct view_decl *d, struct view_opts *o, enum vo_front f, char *msg,
		       size_t n)
{
	(void)d;
	const char *its = o->nsys_iterations;
	if (f != VO_API || !its)
		return 0;
	char *end;
	long long c = strtoll(its, &end, 10);
	if (*end || c < 0 || its[0] == '-' || its[0] == '+' || its[0] == ' ')
		return snprintf(msg, n, "iterations needs a count, not '%.40s'", its), -1;
	return 0;
}

static enum nsys_sql_view sql_view(enum view_kind k)
{
	switch (k) {
	case VIEW_NSYS_KERNELS:
		return NSYS_SQL_KERNELS;
	case VIEW_NSYS_MEMCPY:
		return NSYS_SQL_MEMCPY;
	case VIEW_NSYS_API:
		return NSYS_SQL_API;
	case VIEW_NSYS_NVTX:
		return NSYS_SQL_NVTX;
	case VIEW_NSYS_GPUS:
		return NSYS_SQL_DEVICES;
	case VIEW_NSYS_STEPS:
		return NSYS_SQL_STEPS;
	default:
		return NSYS_SQL_INFO;
	}
}

static int nsys_compute(struct view *v, const struct view_source *src, struct err *e)
{
	struct nsys_state *st = view_results_new(v, sizeof *st, e);
	if (!st)
		return ERR_NOMEM;
	arena_init(&st->a);
	st->q = src->nsys;
	st->path = src->path;
	st->view = sql_view(v->kind);
	const struct view_opts *o = &v->o;
	switch (st->view) {
	case NSYS_SQL_INFO:
		return 0;
	case NSYS_SQL_STEPS: {
		struct nsys_jv *m = NULL;
		int rc = o->nsys_manifest ? nsys_manifest_read(&st->a, o->nsys_manifest, &m, e)
					  : nsys_steps_manifest(&st->a, o->nsys_capture,
								o->nsys_iterations, &m, e);
		return rc ? rc
			  : nsys_view_steps(st->q, &st->a, m, o->nsys_manifest, st->path, &st->json,
					    e);
	}
	default:
		return nsys_view_compute(st->q, &st->a, st->view, &st->t, e);
	}
}

const char *nsys_view_absent(const struct view *v)
{
	const struct nsys_state *st = v->priv;
	return st && st->view != NSYS_SQL_INFO && st->view != NSYS_SQL_STEPS ? st->t.absent : NULL;
}

/* nsys steps' analysis.json (view_json). */
static const struct nsys_jv *steps_json(const struct view *v)
{
	const struct nsys_state *st = v->priv;
	return st->json;
}

static void nsys_emit(struct view *v, struct report *r)
{
	struct nsys_state *st = v->priv;
	if (st->view == NSYS_SQL_STEPS)
		return; /* not a report: view_json */
	int rc = st->view == NSYS_SQL_INFO ? nsys_view_info(r, st->q, &st->a, st->path)
					   : nsys_view_table(r, st->view, &st->t);
	v->emit_failed = rc != 0;
}

static void nsys_free(struct view *v)
{
	struct nsys_state *st = v->priv;
	if (!st)
		return;
	arena_free(&st->a);
	free(st);
}

#define NSYS_DECL(nm, KIND, sum, ...)                                                              \
	const struct view_decl view_nsys_##nm##_decl = {.kind = VIEW_NSYS_##KIND,                  \
							.family = VIEW_FAMILY_NSYS,                \
							.name = #nm,                               \
							.summary = sum,                            \
							.flags = VIEW_WHOLE_FILE,                  \
							.compute = nsys_compute,                   \
							.emit = nsys_emit,                         \
							.free = nsys_free,                         \
							__VA_ARGS__}

/* The registry rows (view.c lists them), in the order of `gpuprof nsys --help`. */
NSYS_DECL(info, INFO, "product and schema version, which tables hold data");
NSYS_DECL(kernels, KERNELS, "GPU kernel summary like `nsys stats -r cuda_gpu_kern_sum`");
NSYS_DECL(memcpy, MEMCPY, "memory copies and sets by kind: count, bytes, time");
NSYS_DECL(api, API, "CUDA runtime/driver API summary like cuda_api_sum");
NSYS_DECL(nvtx, NVTX, "NVTX range summary with GPU projection");
NSYS_DECL(gpus, GPUS, "kernel and memory time per GPU and per stream");
NSYS_DECL(steps, STEPS, "the same analysis as `nsys analyze`, on the export's NVTX ranges",
	  .opts = view_nsys_opts, .nopts = VIEW_NC(view_nsys_opts), .check = steps_check,
	  .json = steps_json);
