/* view_summary: the overview of one trace (torch-tb-profiler's Overview
 * page), as `gpuprof summary` and GET /api/file/ID/summary show it:
 * configuration, steps, the average step's breakdown, per-GPU metrics, the
 * recommendations and the input anomalies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tbprof/gpumetrics.h"
#include "tbprof/optree.h"
#include "tbprof/overview.h"
#include "tbprof/steps.h"
#include "views/advice.h"
#include "views/view_int.h"

static struct rep_val pct_or_null(bool has, double v)
{
	return has ? rep_f(v) : rep_null();
}

static const struct tr_device_prop *device_prop(const struct trace *t, int64_t id)
{
	for (size_t i = 0; i < t->meta.ndevices; i++)
		if (t->meta.devices[i].id == id)
			return &t->meta.devices[i];
	/* no "id" fields: the list is indexed by GPU id, as the plugin reads it */
	if (id >= 0 && (size_t)id < t->meta.ndevices && t->meta.devices[id].id == INT64_MIN)
		return &t->meta.devices[id];
	return NULL;
}

static const struct rep_col gpu_cols[] = {
    {"gpu", "GPU", REP_INT},
    {"name", "Name", REP_STR},
    {"memory_bytes", "Memory", REP_BYTES},
    {"compute_capability", "Compute capability", REP_STR},
    {"sms", "SMs", REP_INT},
    {"kernels", "Kernels", REP_INT},
    {"gpu_utilization_pct", "GPU Utilization", REP_PCT},
    {"est_sm_efficiency_pct", "Est. SM Efficiency", REP_PCT},
    {"est_achieved_occupancy_pct", "Est. Achieved Occupancy", REP_PCT},
    {"tensor_cores_pct", "Kernel Time using Tensor Cores", REP_PCT},
};

static void gpu_row(struct report *r, const struct trace *t, int64_t id, const struct gm_gpu *g,
		    const struct ov_result *ov)
{
	double tc = ov_tc_ratio(ov, id);
	const struct tr_device_prop *p = device_prop(t, id);
	char cc[48] = "";
	bool has_cc = p && p->compute_major != INT64_MIN && p->compute_minor != INT64_MIN;
	if (has_cc)
		snprintf(cc, sizeof cc, "%lld.%lld", (long long)p->compute_major,
			 (long long)p->compute_minor);
	struct rep_val v[] = {
	    rep_i(id),
	    p && p->name ? rep_s(tr_str(t, p->name)) : rep_null(),
	    p && p->total_global_mem != INT64_MIN ? rep_i(p->total_global_mem) : rep_null(),
	    has_cc ? rep_s(cc) : rep_null(),
	    p && p->num_sms != INT64_MIN ? rep_i(p->num_sms) : rep_null(),
	    rep_i(g ? (int64_t)g->kernels : 0),
	    /* the plugin shows round(x * 100, 2): the same double product */
	    pct_or_null(g && g->has_utilization, g ? g->utilization * 100 : 0),
	    pct_or_null(g && g->has_sm_efficiency, g ? g->sm_efficiency * 100 : 0),
	    pct_or_null(g && g->has_occupancy, g ? g->occupancy : 0),
	    pct_or_null(tc >= 0, tc * 100),
	};
	rep_row(r, v);
}

/* GPUs with kernels, then those only in deviceProperties, by id. */
static void emit_gpus(struct report *r, const struct trace *t, const struct gm_result *g,
		      const struct ov_result *ov)
{
	rep_table_begin(r, "gpus", "GPUs", gpu_cols, (int)(sizeof gpu_cols / sizeof gpu_cols[0]));
	size_t i = 0;
	int64_t last = INT64_MIN;
	for (;;) {
		/* the next id above last among both lists (both are small) */
		int64_t next = INT64_MAX;
		if (i < g->n)
			next = g->gpus[i].id;
		for (size_t d = 0; d < t->meta.ndevices; d++) {
			int64_t id =
			    t->meta.devices[d].id != INT64_MIN ? t->meta.devices[d].id : (int64_t)d;
			if (id > last && id < next)
				next = id;
		}
		if (next == INT64_MAX)
			break;
		const struct gm_gpu *gg = i < g->n && g->gpus[i].id == next ? &g->gpus[i++] : NULL;
		gpu_row(r, t, next, gg, ov);
		last = next;
	}
	rep_table_end(r);
}

static const struct rep_col part_cols[] = {
    {"part", "Part", REP_STR},
    {"avg_ns", "Average", REP_DUR_NS},
    {"pct", "Percentage", REP_PCT},
};

static void emit_breakdown(struct report *r, const struct st_result *s)
{
	rep_table_begin(r, "breakdown", "Average step time breakdown", part_cols, 3);
	double total = st_avg_us(s, ST_TOTAL);
	for (int k = 0; k < ST_NPARTS && s->n; k++) {
		if (!st_part_shown(s, (enum st_part)k))
			continue;
		/* the plugin's round(100 * part / total, 2) divides the same
		 * float averages (µs) */
		double pct = 100 * st_avg_us(s, (enum st_part)k) / total;
		struct rep_val v[] = {rep_s(st_part_title((enum st_part)k)),
				      rep_i(st_avg_ns(s, (enum st_part)k)),
				      total > 0 ? rep_f(k == ST_TOTAL ? 100.0 : pct) : rep_null()};
		rep_row(r, v);
	}
	rep_table_end(r);
}

static const struct rep_col anomaly_cols[] = {
    {"anomaly", "Anomaly", REP_STR},
    {"count", "Count", REP_INT},
    {"description", "What", REP_STR},
};

static void emit_anomalies(struct report *r, const struct trace *t)
{
	rep_table_begin(r, "anomalies", "Input anomalies", anomaly_cols, 3);
	for (int k = 0; k < AN_COUNT; k++) {
		if (!t->anomalies.count[k])
			continue;
		struct rep_val v[] = {rep_s(tr_anomaly_key(k)),
				      rep_i((int64_t)t->anomalies.count[k]),
				      rep_s(tr_anomaly_desc(k))};
		rep_row(r, v);
	}
	rep_table_end(r);
}

static const struct rep_col bucket_cols[] = {
    {"gpu", "GPU", REP_INT},
    {"start_ns", "Start (ns)", REP_INT},
    {"utilization", "Utilization", REP_FLOAT},
};
static const struct rep_col smr_cols[] = {
    {"gpu", "GPU", REP_INT},
    {"start_ns", "Start (ns)", REP_INT},
    {"end_ns", "End (ns)", REP_INT},
    {"value", "SM efficiency", REP_FLOAT},
};

/* t0: the origin of the times (the trace's start; 0 for tb's clock). */
static void emit_timeline(struct report *r, const struct gm_result *g, int64_t t0)
{
	rep_table_begin(r, "gpu_utilization_timeline", "GPU utilization timeline", bucket_cols, 3);
	for (size_t i = 0; i < g->n; i++)
		for (size_t b = 0; b < g->gpus[i].nbuckets; b++) {
			struct rep_val v[] = {rep_i(g->gpus[i].id),
					      rep_i(g->gpus[i].buckets[b].start - t0),
					      rep_f(g->gpus[i].buckets[b].value)};
			rep_row(r, v);
		}
	rep_table_end(r);
	rep_table_begin(r, "sm_efficiency_ranges", "Est. SM efficiency ranges", smr_cols, 4);
	for (size_t i = 0; i < g->n; i++)
		for (size_t k = 0; k < g->gpus[i].sm_ranges.n; k++) {
			const struct rgv *x = &g->gpus[i].sm_ranges.v[k];
			struct rep_val v[] = {rep_i(g->gpus[i].id), rep_i(x->start - t0),
					      rep_i(x->end - t0), rep_f(x->value)};
			rep_row(r, v);
		}
	rep_table_end(r);
}

/* tb-compat has the plugin's one column; otherwise each row names its
 * rule (docs/views.md, summary). */
static const struct rep_col rec_cols[] = {{"rule", "Rule", REP_STR},
					  {"text", "Recommendation", REP_STR}};

static void emit_recommendations(struct report *r, const struct ov_result *ov, bool compat)
{
	const struct rep_col *cols = compat ? rec_cols + 1 : rec_cols;
	rep_table_begin(r, "recommendations", "Recommendations", cols, compat ? 1 : 2);
	for (size_t i = 0; i < ov->nrecs; i++) {
		struct rep_val v[] = {rep_s(ov->rules[i]), rep_s(ov->recs[i])};
		rep_row(r, compat ? v + 1 : v);
	}
	rep_table_end(r);
}

/* The view's results (its priv). */
struct summary_res {
	const struct st_result *steps; /* the session's */
	const struct optree *tree;     /* the session's */
	struct gm_result gm;
	struct ov_result ov;
	struct adv *adv; /* outside --tb-compat */
};

static void summary_emit(struct view *v, struct report *r)
{
	const struct summary_res *res = v->priv;
	const struct trace *t = v->t;
	const struct st_result *s = res->steps;
	const struct gm_result *g = &res->gm;
	const struct ov_result *ov = &res->ov;
	bool compat = v->o.tb_compat, timeline = v->o.timeline;
	bool gpu = t->counts.by_kind[TR_KERNEL] || t->counts.by_kind[TR_MEMCPY] ||
		   t->counts.by_kind[TR_MEMSET];
	rep_kv_begin(r, "overview", "Overview");
	rep_kv(r, "mode", "Mode", REP_STR, rep_s(compat ? "tb-compat" : "default"));
	rep_kv(r, "device_type", "Device type", REP_STR, rep_s(gpu ? "GPU" : "CPU"));
	rep_kv(r, "steps", "Steps", REP_INT, rep_i((int64_t)s->n));
	rep_kv(r, "avg_step_ns", "Average step time", REP_DUR_NS,
	       s->n ? rep_i(st_avg_ns(s, ST_TOTAL)) : rep_null());
	rep_kv(r, "window_ns", "Steps time (first start .. last end)", REP_DUR_NS,
	       g->has_window ? rep_i(g->win_end - g->win_start) : rep_null());
	rep_kv(r, "tc_eligible_pct", "Kernel time of Tensor-Core-eligible ops", REP_PCT,
	       ov->has_kernels ? rep_f(ov->tc_eligible_ratio * 100) : rep_null());
	if (timeline)
		rep_kv(r, "timeline_bucket_ns", "Timeline bucket", REP_DUR_NS,
		       g->bucket_ns ? rep_i(g->bucket_ns) : rep_null());
	char t0s[32];
	if (timeline)
		rep_kv(r, "trace_start_ns", "Trace start (ns)", REP_STR,
		       rep_s(view_trace_start_text(t, t0s, sizeof t0s)));
	rep_kv_end(r);
	emit_gpus(r, t, g, ov);
	emit_breakdown(r, s);
	emit_recommendations(r, ov, compat);
	if (timeline)
		emit_timeline(r, g, compat ? 0 : view_trace_start(t));
	emit_anomalies(r, t);
}

static int summary_compute(struct view *v, const struct view_source *src, struct err *e)
{
	(void)src;
	const struct trace *t = v->t;
	struct summary_res *res = view_results_new(v, sizeof *res, e);
	if (!res)
		return ERR_NOMEM;
	/* the tree does not depend on the steps: on a second core meanwhile */
	if (!v->o.quick)
		ses_tree_ahead(v->ses, v->o.tb_compat);
	int rc = ses_steps(v->ses, v->o.tb_compat, &res->steps, e);
	const struct st_result *s = res->steps;
	if (!rc)
		rc = gm_compute(t, v->o.tb_compat, s->n > 0, s->n ? s->steps[0].start : 0,
				s->n ? s->steps[s->n - 1].end : 0, v->o.timeline, &res->gm, e);
	if (v->o.quick) /* no tree, no GPU waits: their values null, no rules */
		return rc;
	/* the GPU waits analyses that need no tree, while it is built */
	if (!rc && !v->o.tb_compat)
		rc = adv_start(v->ses, t, &res->adv, e);
	if (!rc && (rc = ses_tree(v->ses, v->o.tb_compat, &res->tree, e)) == 0)
		rc = ov_compute(t, res->tree, s, &res->gm, v->o.tb_compat, &res->ov, e);
	/* their rules come after tb's own */
	if (!rc && res->adv)
		rc = adv_finish(res->adv, &res->ov, e);
	return rc;
}

static void summary_free(struct view *v)
{
	struct summary_res *res = v->priv;
	if (!res)
		return;
	ov_free(&res->ov);
	gm_free(&res->gm);
	adv_free(res->adv);
	free(res);
}

static const char summary_head[] =
    "Usage: gpuprof summary [options] TRACE\n"
    "\n"
    "The overview of a PyTorch profiler (Kineto) trace, with the numbers of the\n"
    "PyTorch profiler's TensorBoard plugin (torch-tb-profiler) Overview page:\n"
    "\n"
    "  overview   device type, number of steps, average step time\n"
    "  gpus       per GPU used by kernels (args.device): name, memory, compute\n"
    "             capability and SMs from deviceProperties; GPU Utilization\n"
    "             (kernel busy time / steps time), Est. SM Efficiency (blocks\n"
    "             per SM of the running kernels, capped at 1, time-weighted /\n"
    "             steps time) and Est. Achieved Occupancy (occupancy weighted\n"
    "             by kernel time), all over first step start .. last step end;\n"
    "             GPUs of deviceProperties without kernels have no metrics\n"
    "  breakdown  the average step time split into Kernel, Memcpy, Memset,\n"
    "             Communication, Runtime, DataLoader, CPU Exec, Other (with\n"
    "             their percentages; device parts only when the trace has GPU\n"
    "             activity, Communication only when it has some), then Total\n"
    "             Kernel Time using Tensor Cores: the share of Tensor Core kernels\n"
    "             in the kernel time the operators launched\n"
    "  recommendations  the plugin's performance advice (input loading,\n"
    "             DataParallel, NCCL, communication, low utilization, mixed\n"
    "             precision, memory at the limit), then, outside --tb-compat,\n"
    "             the rules of the GPU waits analyses (idle, launches, sync,\n"
    "             flops) with their evidence; each row names its rule\n"
    "  anomalies  what was wrong with the input (see 'gpuprof info')\n"
    "\n"
    "The overview also gives the Tensor-Core-eligible share: kernel time of\n"
    "the operators that could use Tensor Cores over that of all operators.\n"
    "'gpuprof steps' gives the same breakdown per step and explains how steps\n"
    "are found.\n"
    "\n"
    "CSV/JSON columns: gpus: gpu, name, memory_bytes, compute_capability, sms,\n"
    "kernels, gpu_utilization_pct, est_sm_efficiency_pct,\n"
    "est_achieved_occupancy_pct, tensor_cores_pct (null when not defined);\n"
    "breakdown: part, avg_ns, pct; recommendations: rule, text; anomalies:\n"
    "anomaly, count, description. With --tb-compat the recommendations are\n"
    "the plugin's HTML strings, byte for byte (text only). docs/views.md\n"
    "defines each rule and its threshold.\n"
    "\n"
    "Options:\n";

static const char summary_tail[] =
    "\n"
    "Examples:\n"
    "  gpuprof summary run/worker0.pt.trace.json.gz\n"
    "  gpuprof summary --tb-compat --format json trace.json.gz | jq .breakdown\n";

static const struct vo summary_opts[] = {
    VIEW_OPT_TB_COMPAT("reproduce torch-tb-profiler exactly, quirks included\n"
		       "(gpu_user_annotation ProfilerStep copies become steps,\n"
		       "GPU annotations count as CPU Exec); see docs/tb-compat.md"),
    {.lname = "timeline",
     .api = "timeline",
     .type = VO_FLAG,
     .off = offsetof(struct view_opts, timeline),
     .help = "add the GPU utilization timeline (the plugin's trace-view\n"
	     "counter: busy fraction per power-of-ten bucket, at most\n"
	     "100, over the profiler's window; tables\n"
	     "gpu_utilization_timeline: gpu, start_ns, utilization) and\n"
	     "the SM efficiency ranges (sm_efficiency_ranges: gpu,\n"
	     "start_ns, end_ns, value); times from the trace's start\n"
	     "(trace_start_ns in overview), on the trace's clock\n"
	     "with --tb-compat"},
    {.lname = "quick",
     .api = "quick",
     .type = VO_FLAG,
     .off = offsetof(struct view_opts, quick),
     .help = "only what needs neither the operator tree nor the GPU\n"
	     "waits analyses, in the time of `gpuprof steps`: the\n"
	     "Tensor Core values are null and recommendations is empty\n"
	     "(the viewer shows the Overview from it first)"},
};

const struct view_decl view_summary_decl = {
    .kind = VIEW_SUMMARY,
    .name = "summary",
    .summary = "overview: GPUs, steps, average step breakdown, GPU utilization",
    .help_head = summary_head,
    .help_tail = summary_tail,
    .opts = summary_opts,
    .nopts = VIEW_NC(summary_opts),
    .flags = VIEW_OWN_ANOMALIES,
    .compute = summary_compute,
    .emit = summary_emit,
    .free = summary_free,
};
