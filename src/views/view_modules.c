/* view_modules: `gpuprof modules`, torch-tb-profiler's Module view: the
 * nn.Module hierarchy with calls, operators and host and device times per
 * module (src/tbprof/modules.h). */
#include <stdlib.h>

#include "tbprof/modules.h"
#include "tbprof/session.h"
#include "views/view_int.h"

static const char modules_head[] =
    "Usage: gpuprof modules [options] TRACE\n"
    "\n"
    "The nn.Module hierarchy of a trace recorded with with_stack=True (the\n"
    "python_function events named `nn.Module: NAME_N`), as torch-tb-profiler's\n"
    "Module view shows it: one row per module of the hierarchy, its children\n"
    "below it, with the calls of that module (by name and module id), the\n"
    "operators called directly in it, its host time (total and self: less its\n"
    "children and its own runtime calls), its device time (total, and self: the\n"
    "GPU time of its own launches and of the operators called directly in it)\n"
    "and the mean time per call (device, or host where it has no device time).\n"
    "Times are exact nanoseconds; --tb-compat gives the plugin's numbers, in its\n"
    "float64 microseconds, with its backward-module rewrite (docs/tb-compat.md).\n"
    "\n"
    "Options:\n";

static const char modules_tail[] = "\n"
				   "Examples:\n"
				   "  gpuprof modules trace.json.gz\n"
				   "  gpuprof modules --tb-compat --format json trace.json.gz\n";

struct modules_res {
	struct tbmodules m;
};

static int modules_compute(struct view *v, const struct view_source *src, struct err *e)
{
	(void)src;
	struct modules_res *r = view_results_new(v, sizeof *r, e);
	if (!r)
		return ERR_NOMEM;
	const struct optree *tree;
	int rc = ses_tree(v->ses, v->o.tb_compat, &tree, e);
	if (rc)
		return rc;
	return tbmod_build(tree, v->o.tb_compat, &r->m, e);
}

/* The columns of both modes: the times are exact ns by default, the
 * plugin's µs floats with --tb-compat. */
#define MOD_COLS(unit, title, T, MEAN)                                                             \
	{"row", "Row", REP_INT}, {"parent", "Parent", REP_INT}, {"depth", "Depth", REP_INT},       \
	    {"name", "Module", REP_STR}, {"module_id", "Id", REP_INT},                             \
	    {"occurrences", "Calls", REP_INT}, {"operators", "Operators", REP_INT},                \
	    {"host_" unit, "Host total" title, T}, {"self_host_" unit, "Host self" title, T},      \
	    {"device_" unit, "Device total" title, T},                                             \
	    {"self_device_" unit, "Device self" title, T},                                         \
	    {"avg_" unit, "Mean per call" title, MEAN},                                            \
	{                                                                                          \
		"children", "Children", REP_INT                                                    \
	}

static const struct rep_col ns_cols[] = {MOD_COLS("ns", "", REP_DUR_NS, REP_FDUR_NS)};
static const struct rep_col us_cols[] = {MOD_COLS("us", " (us)", REP_FLOAT, REP_FLOAT)};

/* The mean per call: device time where it is positive, else host time
 * (tb's avg_duration); null for a module without calls. */
static struct rep_val mean(uint64_t calls, double device, double host)
{
	if (!calls)
		return rep_null();
	double d = device / (double)calls;
	return rep_f(d > 0 ? d : host / (double)calls);
}

static void modules_emit(struct view *v, struct report *rep)
{
	const struct modules_res *res = v->priv;
	const struct tbmodules *m = &res->m;
	const struct trace *t = v->t;
	rep_kv_begin(rep, "summary", "Modules");
	rep_kv(rep, "modules", "Modules in the hierarchy", REP_INT, rep_i((int64_t)m->n));
	rep_kv(rep, "module_calls", "Module calls in the operator tree", REP_INT,
	       rep_i((int64_t)m->module_nodes));
	rep_kv(rep, "python_functions", "python_function events", REP_INT,
	       rep_i((int64_t)m->python_events));
	rep_kv(rep, "backward_rewrite", "Backward-module rewrite (tb-compat)", REP_BOOL,
	       rep_b(m->rewrite));
	rep_kv(rep, "dropped_calls", "Module calls the rewrite drops", REP_INT,
	       rep_i((int64_t)m->dropped_calls));
	rep_kv_end(rep);
	bool us = m->tb_compat;
	rep_table_begin(rep, "modules", "Modules (children below their parent)",
			us ? us_cols : ns_cols, VIEW_NC(ns_cols));
	for (size_t i = 0; i < m->n; i++) {
		const struct tbmod_row *r = &m->rows[i];
		const struct rep_val row[] = {
		    rep_i((int64_t)i),
		    rep_i(r->parent == TBMOD_NIL ? -1 : (int64_t)r->parent),
		    rep_i(r->depth),
		    rep_s(tbmod_display_name(t, r)),
		    rep_i(r->module_id),
		    rep_i((int64_t)r->calls),
		    rep_i((int64_t)r->operators),
		    us ? rep_f(r->host_us) : rep_i(r->host),
		    us ? rep_f(r->self_host_us) : rep_i(r->self_host),
		    us ? rep_f(r->device_us) : rep_i(r->device),
		    us ? rep_f(r->self_device_us) : rep_i(r->self_device),
		    us ? mean(r->calls, r->device_us, r->host_us)
		       : mean(r->calls, (double)r->device, (double)r->host),
		    rep_i(r->children)};
		rep_row(rep, row);
	}
	rep_table_end(rep);
}

static void modules_free(struct view *v)
{
	struct modules_res *r = v->priv;
	if (!r)
		return;
	tbmod_free(&r->m);
	free(r);
}

static const struct vo modules_opts_decl[] = {
    VIEW_OPT_TB_COMPAT("torch-tb-profiler's numbers: float64 us, its backward-module rewrite"),
};

const struct view_decl view_modules_decl = {
    .kind = VIEW_MODULES,
    .name = "modules",
    .summary = "nn.Module hierarchy with host and device time per module (tb's Module view)",
    .help_head = modules_head,
    .help_tail = modules_tail,
    .opts = modules_opts_decl,
    .nopts = sizeof modules_opts_decl / sizeof modules_opts_decl[0],
    .compute = modules_compute,
    .emit = modules_emit,
    .free = modules_free,
};
