/* view_idle: `gpuprof idle`, where the GPU streams wait (host wait, kernel
 * wait, other) and the rank's temporal breakdown, with HTA's definitions
 * (hta/idle.h over hta/select.h). */
#include <math.h>
#include <stdlib.h>

#include "hta/idle.h"
#include "views/view_int.h"

/* idle's own options (struct view_opts' own area) */
struct idle_opts {
	int64_t kernel_wait_ns; /* --kernel-wait */
	bool intervals;		/* --show-intervals */
};
_Static_assert(sizeof(struct idle_opts) <= VIEW_OWN_BYTES, "idle's options fit the own area");

static const char idle_head[] =
    "Usage: gpuprof idle [options] TRACE\n"
    "\n"
    "Where the GPU waits, with Holistic Trace Analysis' definitions. Per stream,\n"
    "the gap before each kernel, memcpy or memset (its start minus the end of the\n"
    "one before it on the stream) is host wait when its launch began after that\n"
    "end (the CPU was late), kernel wait when it is under --kernel-wait, else\n"
    "other. The temporal breakdown splits the rank's GPU time (first start to last\n"
    "end of all device work) into idle, compute kernels and the rest. As HTA,\n"
    "times are rounded to whole microseconds when the trace has fractional ones,\n"
    "and with two steps or more the work launched from the last step on is left\n"
    "out (docs/views.md, idle).\n"
    "\n"
    "Options:\n";

static const char idle_tail[] = "\n"
				"Examples:\n"
				"  gpuprof idle trace.json.gz\n"
				"  gpuprof idle --show-intervals --format csv trace.json.gz\n"
				"  gpuprof idle --kernel-wait 10us --table idle trace.json.gz\n";

struct idle_res {
	struct hta_events ev;
	struct hta_idle idle;
	int64_t rank;
};

static int idle_compute(struct view *v, const struct view_source *src, struct err *e)
{
	(void)src;
	const struct idle_opts *o = view_own(&v->o);
	struct idle_res *r = view_results_new(v, sizeof *r, e);
	if (!r)
		return ERR_NOMEM;
	r->rank = v->t->meta.dist_rank >= 0 ? v->t->meta.dist_rank : 0;
	int rc = hta_events(v->t, &r->ev, e);
	if (rc)
		return rc;
	struct hta_idle_opts io = {.kernel_wait_ns = o->kernel_wait_ns, .gaps = o->intervals};
	return hta_idle(&r->ev, &io, &r->idle, e);
}

static double pct(int64_t x, int64_t whole)
{
	return whole ? 100.0 * (double)x / (double)whole : NAN;
}

static const struct rep_col temporal_cols[] = {
    {"rank", "Rank", REP_INT},
    {"idle_time_ns", "Idle", REP_DUR_NS},
    {"compute_time_ns", "Compute", REP_DUR_NS},
    {"non_compute_time_ns", "Non-compute", REP_DUR_NS},
    {"kernel_time_ns", "Kernel time", REP_DUR_NS},
    {"idle_time_pct", "Idle %", REP_PCT},
    {"compute_time_pct", "Compute %", REP_PCT},
    {"non_compute_time_pct", "Non-compute %", REP_PCT},
};

static const struct rep_col idle_cols[] = {
    {"rank", "Rank", REP_INT},
    {"stream", "Stream", REP_INT},
    {"idle_category", "Category", REP_STR},
    {"idle_time_ns", "Idle time", REP_DUR_NS},
    {"idle_time_ratio", "Ratio", REP_FLOAT},
};

static const struct rep_col gap_cols[] = {
    {"rank", "Rank", REP_INT},
    {"stream", "Stream", REP_INT},
    {"idle_category", "Category", REP_STR},
    {"count", "Count", REP_INT},
    {"mean_ns", "Mean", REP_FDUR_NS},
    {"std_ns", "Std", REP_FDUR_NS},
    {"min_ns", "Min", REP_FDUR_NS},
    {"p25_ns", "P25", REP_FDUR_NS},
    {"p50_ns", "P50", REP_FDUR_NS},
    {"p75_ns", "P75", REP_FDUR_NS},
    {"p90_ns", "P90", REP_FDUR_NS},
    {"max_ns", "Max", REP_FDUR_NS},
};

static void emit_selection(struct report *rep, const struct idle_res *r, const struct idle_opts *o)
{
	static const char *const filters[] = {"none", "cuda", "mtia"};
	rep_kv_begin(rep, "selection", "Device events (as HTA reads them)");
	rep_kv(rep, "device_events", "Device events with a stream", REP_INT,
	       rep_i((int64_t)r->ev.n));
	rep_kv(rep, "streams", "Streams with kernels", REP_INT, rep_i((int64_t)r->idle.nstreams));
	rep_kv(rep, "rounded_to_us", "Times rounded to whole us", REP_BOOL, rep_b(r->ev.rounded));
	rep_kv(rep, "last_step_filter", "Last-step filter", REP_STR, rep_s(filters[r->ev.filter]));
	rep_kv(rep, "dropped", "Device events it dropped", REP_INT, rep_i((int64_t)r->ev.dropped));
	rep_kv(rep, "kernel_wait_ns", "Kernel-wait threshold", REP_DUR_NS,
	       rep_i(o->kernel_wait_ns));
	rep_kv_end(rep);
}

static void idle_emit(struct view *v, struct report *rep)
{
	const struct idle_res *r = v->priv;
	const struct idle_opts *o = view_own(&v->o);
	emit_selection(rep, r, o);
	const struct hta_temporal *tp = &r->idle.temporal;
	rep_table_begin(rep, "temporal", "Temporal breakdown", temporal_cols, 8);
	if (tp->any) {
		const struct rep_val row[] = {
		    rep_i(r->rank),
		    rep_i(tp->idle_ns),
		    rep_i(tp->compute_ns),
		    rep_i(tp->non_compute_ns),
		    rep_i(tp->kernel_ns),
		    rep_f_or_null(pct(tp->idle_ns, tp->kernel_ns)),
		    rep_f_or_null(pct(tp->compute_ns, tp->kernel_ns)),
		    rep_f_or_null(pct(tp->non_compute_ns, tp->kernel_ns))};
		rep_row(rep, row);
	}
	rep_table_end(rep);
	rep_table_begin(rep, "idle", "Idle time per stream", idle_cols, 5);
	for (size_t i = 0; i < r->idle.nrows; i++) {
		const struct hta_idle_row *x = &r->idle.rows[i];
		const struct rep_val row[] = {rep_i(r->rank), rep_i(x->stream),
					      rep_s(hta_idle_cat_name(x->cat)), rep_i(x->idle_ns),
					      rep_f_or_null(x->ratio)};
		rep_row(rep, row);
	}
	rep_table_end(rep);
	if (!o->intervals)
		return;
	rep_table_begin(rep, "intervals", "Idle intervals per stream and category", gap_cols, 12);
	for (size_t i = 0; i < r->idle.ngaps; i++) {
		const struct hta_gap_stats *g = &r->idle.gaps[i];
		const struct rep_val row[] = {rep_i(r->rank),
					      rep_i(g->stream),
					      rep_s(hta_idle_cat_name(g->cat)),
					      rep_i((int64_t)g->count),
					      rep_f_or_null(g->mean),
					      rep_f_or_null(g->std),
					      rep_f_or_null(g->min),
					      rep_f_or_null(g->p25),
					      rep_f_or_null(g->p50),
					      rep_f_or_null(g->p75),
					      rep_f_or_null(g->p90),
					      rep_f_or_null(g->max)};
		rep_row(rep, row);
	}
	rep_table_end(rep);
}

static void idle_free(struct view *v)
{
	struct idle_res *r = v->priv;
	if (!r)
		return;
	hta_idle_free(&r->idle);
	hta_events_free(&r->ev);
	free(r);
}

static const struct vo idle_opts_decl[] = {
    {.lname = "kernel-wait",
     .api = "kernel_wait_ns",
     .type = VO_TIME,
     .off = VIEW_OWN_OFF(struct idle_opts, kernel_wait_ns),
     .metavar = "TIME",
     .def = "30us",
     .help = "a gap under TIME that is not host wait is kernel wait\n"
	     "(default 30us, HTA's consecutive_kernel_delay)"},
    {.lname = "show-intervals",
     .api = "show_intervals",
     .type = VO_FLAG,
     .off = VIEW_OWN_OFF(struct idle_opts, intervals),
     .help = "add the table of the gaps per stream and category: count,\n"
	     "mean, std, min, p25, p50, p75, p90, max"},
};

const struct view_decl view_idle_decl = {
    .kind = VIEW_IDLE,
    .name = "idle",
    .summary = "where the GPU waits: idle per stream (host/kernel wait), temporal breakdown",
    .help_head = idle_head,
    .help_tail = idle_tail,
    .opts = idle_opts_decl,
    .nopts = sizeof idle_opts_decl / sizeof idle_opts_decl[0],
    .compute = idle_compute,
    .emit = idle_emit,
    .free = idle_free,
};
