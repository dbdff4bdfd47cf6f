/* view_lightning: `gpuprof lightning`, torch-tb-profiler's Lightning view
 * (src/tbprof/lightning.h): the modules of a PyTorch Lightning trace with
 * their host and device times. */
#include <stdlib.h>

#include "tbprof/lightning.h"
#include "tbprof/session.h"
#include "views/view_int.h"

static const char pl_head[] =
    "Usage: gpuprof lightning [options] TRACE\n"
    "\n"
    "torch-tb-profiler's Lightning view, for traces of PyTorch Lightning's\n"
    "profiler (top-level \"Framework\": \"pytorch-lightning\"): the modules its\n"
    "[pl][module] ops annotate, nested by their dotted names (roots by name,\n"
    "children in order of first appearance), with occurrences, the operators\n"
    "directly inside, host total and self time, device total and self time\n"
    "(self: its own launches and those of the operators directly inside) and\n"
    "the plugin's average (mean device total, or mean host total when no\n"
    "device time). Other traces have no Lightning view: the table is empty.\n"
    "\n"
    "Options:\n";

static const char pl_tail[] =
    "\n"
    "Examples:\n"
    "  gpuprof lightning trace.json.gz\n"
    "  gpuprof lightning --tb-compat --format csv --table modules trace.json\n";

struct pl_res {
	struct pl_view pl;
};

static int pl_compute(struct view *v, const struct view_source *src, struct err *e)
{
	(void)src;
	struct pl_res *r = view_results_new(v, sizeof *r, e);
	if (!r)
		return ERR_NOMEM;
	const struct optree *o;
	int rc = ses_tree(v->ses, v->o.tb_compat, &o, e);
	return rc ? rc : pl_build(o, &r->pl, e);
}

static const struct rep_col pl_cols[] = {
    {"name", "Module", REP_STR},
    {"parent", "Parent", REP_STR},
    {"depth", "Depth", REP_INT},
    {"occurrences", "Occurrences", REP_INT},
    {"operators", "Operators", REP_INT},
    {"host_total_ns", "Host Total", REP_DUR_NS},
    {"host_self_ns", "Host Self", REP_DUR_NS},
    {"device_total_ns", "Device Total", REP_DUR_NS},
    {"device_self_ns", "Device Self", REP_DUR_NS},
    {"avg_ns", "Average", REP_FDUR_NS},
};

static void pl_emit(struct view *v, struct report *rep)
{
	const struct pl_view *pl = &((const struct pl_res *)v->priv)->pl;
	rep_table_begin(rep, "modules", "Lightning modules", pl_cols, VIEW_NC(pl_cols));
	for (size_t i = 0; i < pl->n; i++) {
		const struct pl_module *m = &pl->rows[i];
		const struct rep_val row[] = {
		    rep_s(m->txt),
		    m->parent == PL_NO_PARENT ? rep_null() : rep_s(pl->rows[m->parent].txt),
		    rep_i(m->depth),
		    rep_i((int64_t)m->occurrences),
		    rep_i((int64_t)m->operators),
		    rep_i(m->host),
		    rep_i(m->self_host),
		    rep_i(m->device),
		    rep_i(m->self_device),
		    rep_f(m->avg_ns)};
		rep_row(rep, row);
	}
	rep_table_end(rep);
	rep_kv_begin(rep, "lightning", "Lightning");
	rep_kv(rep, "lightning_trace", "Framework is pytorch-lightning", REP_BOOL,
	       rep_b(pl->lightning));
	rep_kv(rep, "modules", "Modules", REP_INT, rep_i((int64_t)pl->n));
	rep_kv(rep, "tb_compat", "tb-compat", REP_BOOL, rep_b(v->o.tb_compat));
	rep_kv_end(rep);
}

static void pl_res_free(struct view *v)
{
	struct pl_res *r = v->priv;
	if (!r)
		return;
	pl_free(&r->pl);
	free(r);
}

static const struct vo pl_opts_decl[] = {
    VIEW_OPT_TB_COMPAT("torch-tb-profiler's numbers, quirks included (docs/tb-compat.md)"),
};

const struct view_decl view_lightning_decl = {
    .kind = VIEW_LIGHTNING,
    .name = "lightning",
    .summary = "PyTorch Lightning modules and their times (tb's Lightning view)",
    .help_head = pl_head,
    .help_tail = pl_tail,
    .opts = pl_opts_decl,
    .nopts = VIEW_NC(pl_opts_decl),
    .compute = pl_compute,
    .emit = pl_emit,
    .free = pl_res_free,
};
