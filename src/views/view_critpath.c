/* view_critpath: `gpuprof critical-path`, HTA's critical path of one
 * annotation instance: the time of the path by bound type, the path's
 * edges in order, the graph's counts (hta/critpath.h). */
#include <stdlib.h>

#include "core/sort.h"

#include "hta/critpath.h"
#include "views/view_int.h"

/* critical-path's own options (struct view_opts' own area) */
struct cpv_opts {
	const char *annotation; /* --annotation */
	int64_t instance;	/* --instance */
	bool zero_launch;	/* --zero-weight-launch-edges */
	struct vo_list data_load;
	bool all_edges; /* --all-edges */
};
_Static_assert(sizeof(struct cpv_opts) <= VIEW_OWN_BYTES, "critical-path's options fit");

static const char cpv_head[] =
    "Usage: gpuprof critical-path [options] TRACE\n"
    "\n"
    "Holistic Trace Analysis' critical path of one annotation instance (by\n"
    "default the first ProfilerStep): a graph with a start and an end node per\n"
    "CPU operator, runtime call and GPU kernel, memcpy or memset, edges for their\n"
    "spans, nesting and order on a thread, the CUDA runtime lock, kernel launches,\n"
    "consecutive kernels on a stream and synchronizations (these need the\n"
    "cuda_sync events of PyTorch 2.1 or later); its longest path as networkx\n"
    "picks it, and the path's time by bound type: cpu_bound, gpu_compute_bound,\n"
    "gpu_communication_bound, gpu_kernel_launch_overhead,\n"
    "gpu_kernel_kernel_overhead, data_loading (docs/views.md, critical-path).\n"
    "\n"
    "Options:\n";

static const char cpv_tail[] =
    "\n"
    "Examples:\n"
    "  gpuprof critical-path trace.json.gz\n"
    "  gpuprof critical-path --instance 1 --table summary trace.json.gz\n"
    "  gpuprof critical-path --annotation '' --format csv --table path trace.json.gz\n";

struct cpv_res {
	struct cp cp;
	const struct trace *t;
	int64_t t0;
};

static int cpv_compute(struct view *v, const struct view_source *src, struct err *e)
{
	(void)src;
	const struct cpv_opts *o = view_own(&v->o);
	struct cpv_res *r = view_results_new(v, sizeof *r, e);
	if (!r)
		return ERR_NOMEM;
	r->t = v->t;
	r->t0 = view_trace_start(v->t);
	struct cp_opts co = {.annotation = o->annotation ? o->annotation : "ProfilerStep",
			     .instance = o->instance,
			     .zero_launch = o->zero_launch,
			     .data_load = o->data_load.v,
			     .ndata_load = o->data_load.n};
	return cp_compute(v->t, &co, &r->cp, e);
}

static const struct rep_col summary_cols[] = {
    {"bound_by", "Bound by", REP_STR},
    {"time_ns", "Time on the path", REP_DUR_NS},
    {"share_pct", "Share", REP_PCT},
    {"edges", "Edges", REP_INT},
};

static const struct rep_col path_cols[] = {
    {"edge", "#", REP_INT},
    {"from", "From", REP_NAME},
    {"from_node", "At", REP_STR},
    {"from_ns", "From time", REP_DUR_NS},
    {"to", "To", REP_NAME},
    {"to_node", "At", REP_STR},
    {"to_ns", "To time", REP_DUR_NS},
    {"type", "Edge type", REP_STR},
    {"weight_ns", "Weight", REP_DUR_NS},
    {"bound_by", "Bound by", REP_STR},
    {"event", "Attributed to", REP_NAME},
    {"from_row", "From row", REP_INT},
    {"to_row", "To row", REP_INT},
};

static const struct rep_col edge_cols[] = {
    {"u", "From node", REP_INT},
    {"v", "To node", REP_INT},
    {"from", "From", REP_NAME},
    {"from_node", "At", REP_STR},
    {"from_ns", "From time", REP_DUR_NS},
    {"to", "To", REP_NAME},
    {"to_node", "At", REP_STR},
    {"to_ns", "To time", REP_DUR_NS},
    {"type", "Edge type", REP_STR},
    {"weight_ns", "Weight", REP_DUR_NS},
    {"event", "Attributed to", REP_NAME},
    {"event_ns", "Its start", REP_DUR_NS},
    {"critical", "On the path", REP_BOOL},
};

static const struct rep_col graph_cols[] = {
    {"type", "Edge type", REP_STR},
    {"edges", "Edges", REP_INT},
    {"on_path", "On the path", REP_INT},
    {"path_ns", "Path time", REP_DUR_NS},
};

/* HTA's summary lists the bound types in the order of their names. */
static const enum cp_bound bound_order[CP_NBOUNDS] = {
    CP_B_NONE, CP_B_CPU, CP_B_DATA, CP_B_COMM, CP_B_COMPUTE, CP_B_KERNEL_GAP, CP_B_LAUNCH};

static void emit_facts(struct report *rep, const struct cpv_res *r, const struct cpv_opts *o)
{
	const struct cp *c = &r->cp;
	rep_kv_begin(rep, "critical_path", "Critical path");
	rep_kv(rep, "annotation", "Annotation", REP_STR,
	       rep_s(o->annotation ? o->annotation : "ProfilerStep"));
	rep_kv(rep, "instance", "Instance", REP_INT, rep_i(o->instance));
	rep_kv(rep, "instances", "Instances in the trace", REP_INT, rep_i((int64_t)c->instances));
	char t0s[32];
	rep_kv(rep, "trace_start_ns", "Trace start (ns)", REP_STR,
	       rep_s(view_trace_start_text(r->t, t0s, sizeof t0s)));
	rep_kv(rep, "window_start_ns", "Window start", REP_DUR_NS, rep_i(c->window[0] - r->t0));
	rep_kv(rep, "window_end_ns", "Window end", REP_DUR_NS, rep_i(c->window[1] - r->t0));
	rep_kv(rep, "events", "Events with nodes", REP_INT, rep_i((int64_t)c->nev));
	rep_kv(rep, "nodes", "Nodes", REP_INT, rep_i((int64_t)c->nnode));
	rep_kv(rep, "edges", "Edges", REP_INT, rep_i((int64_t)c->nedge));
	rep_kv(rep, "path_nodes", "Nodes on the path", REP_INT, rep_i((int64_t)c->npath));
	rep_kv(rep, "path_events", "Events on the path", REP_INT,
	       rep_i((int64_t)c->critical_events));
	rep_kv(rep, "path_ns", "Path time", REP_DUR_NS, rep_i(c->path_ns));
	rep_kv(rep, "rounded_to_us", "Times rounded to whole us", REP_BOOL, rep_b(c->rounded));
	rep_kv(rep, "has_cuda_sync", "Trace has cuda_sync events", REP_BOOL, rep_b(c->has_sync));
	rep_kv_end(rep);
}

static const char *node_at(const struct cp *c, uint32_t n)
{
	return c->node[n].is_start ? "start" : "end";
}

static const char *ev_name(const struct trace *t, const struct cp *c, uint32_t n)
{
	return tr_str(t, t->ev.name[c->ev[c->node[n].ev].row]);
}

/* Every edge of the graph, in the order HTA adds them. */
static void emit_edges(struct report *rep, const struct cpv_res *r)
{
	const struct cp *c = &r->cp;
	const struct trace *t = r->t;
	const struct hta_events h = {.rounded = c->rounded};
	rep_table_begin(rep, "edges", "Every edge of the graph", edge_cols, 13);
	for (size_t i = 0; i < c->nedge; i++) {
		const struct cp_edge *x = &c->edge[i];
		int64_t ats = 0, ate;
		if (x->attr != CP_NOEV)
			hta_row_times(t, &h, x->attr, &ats, &ate);
		const struct rep_val row[] = {
		    rep_i(x->u),
		    rep_i(x->v),
		    rep_s(ev_name(t, c, x->u)),
		    rep_s(node_at(c, x->u)),
		    rep_i(c->node[x->u].ts - r->t0),
		    rep_s(ev_name(t, c, x->v)),
		    rep_s(node_at(c, x->v)),
		    rep_i(c->node[x->v].ts - r->t0),
		    rep_s(cp_etype_name((enum cp_etype)x->type)),
		    rep_i(x->w),
		    rep_s(x->attr == CP_NOEV ? "" : tr_str(t, t->ev.name[x->attr])),
		    x->attr == CP_NOEV ? rep_null() : rep_i(ats - r->t0),
		    rep_b(x->critical)};
		rep_row(rep, row);
	}
	rep_table_end(rep);
}

static void cpv_emit(struct view *v, struct report *rep)
{
	const struct cpv_res *r = v->priv;
	const struct cpv_opts *o = view_own(&v->o);
	const struct cp *c = &r->cp;
	const struct trace *t = v->t;
	emit_facts(rep, r, o);
	rep_table_begin(rep, "summary", "Path time by bound type", summary_cols, 4);
	for (int i = 0; i < CP_NBOUNDS; i++) {
		enum cp_bound b = bound_order[i];
		if (!c->bound_edges[b])
			continue;
		double share = c->path_ns ? 100.0 * (double)c->bound_ns[b] / (double)c->path_ns : 0;
		const struct rep_val row[] = {rep_s(cp_bound_name(b)), rep_i(c->bound_ns[b]),
					      c->path_ns ? rep_f(share) : rep_null(),
					      rep_i((int64_t)c->bound_edges[b])};
		rep_row(rep, row);
	}
	rep_table_end(rep);
	rep_table_begin(rep, "path", "The path's edges in order", path_cols, 13);
	for (size_t i = 0; i + 1 < c->npath; i++) {
		const struct cp_edge *x = &c->edge[c->path_edge[i]];
		const struct rep_val row[] = {
		    rep_i((int64_t)i),
		    rep_s(ev_name(t, c, x->u)),
		    rep_s(node_at(c, x->u)),
		    rep_i(c->node[x->u].ts - r->t0),
		    rep_s(ev_name(t, c, x->v)),
		    rep_s(node_at(c, x->v)),
		    rep_i(c->node[x->v].ts - r->t0),
		    rep_s(cp_etype_name((enum cp_etype)x->type)),
		    rep_i(x->w),
		    rep_s(cp_bound_name((enum cp_bound)x->bound)),
		    rep_s(x->attr == CP_NOEV ? "" : tr_str(t, t->ev.name[x->attr])),
		    rep_i(c->ev[c->node[x->u].ev].row),
		    rep_i(c->ev[c->node[x->v].ev].row)};
		rep_row(rep, row);
	}
	rep_table_end(rep);
	size_t on[CP_NETYPES] = {0};
	int64_t ns[CP_NETYPES] = {0};
	for (size_t i = 0; i + 1 < c->npath; i++) {
		const struct cp_edge *x = &c->edge[c->path_edge[i]];
		on[x->type]++;
		ns[x->type] += x->w;
	}
	rep_table_begin(rep, "graph", "Edges by type", graph_cols, 4);
	for (int k = 0; k < CP_NETYPES; k++) {
		const struct rep_val row[] = {rep_s(cp_etype_name((enum cp_etype)k)),
					      rep_i((int64_t)c->by_type[k]), rep_i((int64_t)on[k]),
					      rep_i(ns[k])};
		rep_row(rep, row);
	}
	rep_table_end(rep);
	if (o->all_edges)
		emit_edges(rep, r);
}

/* Edges by source node, then by index (their insertion order). */
static int edge_src_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct cp_edge *ed = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	if (ed[a].u != ed[b].u)
		return ed[a].u < ed[b].u ? -1 : 1;
	return a < b ? -1 : a > b;
}

static void put_id(struct tr_overlay *o, const struct trace *t, const struct tr_id *id)
{
	if (id->is_str)
		tr_ov_str(o, tr_str(t, id->str));
	else
		tr_ov_put(o, "%lld", (long long)id->num);
}

/* One end of HTA's flow arrow for edge x: at the start of the node's event,
 * or at its end (a microsecond earlier on a device, so that the arrow
 * lands inside the slice), truncated to whole microseconds as HTA's int(). */
static void flow_end(struct tr_overlay *o, const struct trace *t, const struct cp *c,
		     const struct cp_edge *x, uint32_t node, size_t id)
{
	bool start = node == x->u;
	uint32_t row = c->ev[c->node[node].ev].row;
	int64_t ts = t->ev.ts[row], dur = tr_dur(t, row);
	if (!c->node[node].is_start) {
		const struct tr_gpu_arg *g = tr_gpu_arg(t, row);
		ts += dur;
		if (g && g->device >= 0)
			ts -= dur < 1000 ? dur : 1000;
	}
	const struct tr_track *k = &t->tracks.v[t->ev.track[row]];
	tr_ov_event(o);
	tr_ov_put(o, "{\"ph\": \"%s\", \"id\": %zu, \"pid\": ", start ? "s" : "f", id);
	put_id(o, t, &k->pid);
	tr_ov_put(o, ", \"tid\": ");
	put_id(o, t, &k->tid);
	tr_ov_put(o,
		  ", \"ts\": %lld, \"cat\": \"critical_path\", \"name\": \"critical_path\", "
		  "\"args\": {\"weight\": %lld, \"critical\": %s, \"type\": \"%s\"}%s}",
		  (long long)(ts / 1000), (long long)(x->w / 1000), x->critical ? "true" : "false",
		  cp_etype_name((enum cp_etype)x->type), start ? "" : ", \"bp\": \"e\"");
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* HTA's overlay_critical_path_analysis: "critical": 1 in the args of the
 * path's events; flow arrows for the path's dependency, launch and sync
 * edges, or (--all-edges, HTA's show_all_edges) for every edge but the
 * 0-weight launch edges, in networkx's edge order (by source node). */
static int cpv_overlay(const struct view *v, struct tr_overlay *o, struct err *e)
{
	const struct cpv_res *r = v->priv;
	const struct cpv_opts *opt = view_own(&v->o);
	const struct cp *c = &r->cp;
	const struct trace *t = v->t;
	uint32_t *rows = malloc((c->npath ? c->npath : 1) * sizeof *rows);
	uint32_t *order = malloc((c->nedge ? c->nedge : 1) * sizeof *order);
	if (!rows || !order) {
		free(rows);
		free(order);
		return err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
	}
	for (size_t i = 0; i < c->npath; i++)
		rows[i] = c->ev[c->node[c->path[i]].ev].row;
	gp_qsort(rows, c->npath, sizeof *rows, cmp_u32);
	for (size_t i = 0; i < c->npath; i++)
		if (!i || rows[i] != rows[i - 1]) {
			tr_ov_arg(o, t, rows[i]);
			tr_ov_put(o, "\"critical\": 1");
		}
	size_t n = 0;
	if (opt->all_edges) {
		for (size_t i = 0; i < c->nedge; i++)
			if (c->edge[i].type != CP_LAUNCH || c->edge[i].w != 0)
				order[n++] = (uint32_t)i;
		gp_qsort_r(order, n, sizeof *order, edge_src_cmp, c->edge);
	} else {
		for (size_t i = 0; i + 1 < c->npath; i++) {
			uint8_t ty = c->edge[c->path_edge[i]].type;
			if (ty == CP_DEPENDENCY || ty == CP_LAUNCH || ty == CP_SYNC)
				order[n++] = c->path_edge[i];
		}
	}
	for (size_t i = 0; i < n; i++) {
		const struct cp_edge *x = &c->edge[order[i]];
		flow_end(o, t, c, x, x->u, i);
		flow_end(o, t, c, x, x->v, i);
	}
	free(rows);
	free(order);
	return 0;
}

static void cpv_free(struct view *v)
{
	struct cpv_res *r = v->priv;
	if (!r)
		return;
	cp_free(&r->cp);
	free(r);
}

static const struct vo cpv_opts_decl[] = {
    {.lname = "annotation",
     .api = "annotation",
     .type = VO_STRING,
     .off = VIEW_OWN_OFF(struct cpv_opts, annotation),
     .metavar = "NAME",
     .help = "the instances are the events whose name holds NAME, in file\n"
	     "order (default ProfilerStep; '' = the whole trace)"},
    {.lname = "instance",
     .api = "instance",
     .type = VO_INT,
     .off = VIEW_OWN_OFF(struct cpv_opts, instance),
     .metavar = "K",
     .min = 0,
     .def = "0",
     .help = "the K-th instance, from 0 (default 0, HTA's default)"},
    {.lname = "zero-weight-launch-edges",
     .api = "zero_weight_launch_edges",
     .type = VO_FLAG,
     .off = VIEW_OWN_OFF(struct cpv_opts, zero_launch),
     .help = "also link each launch to its kernel by a 0-weight edge when\n"
	     "the launch delay is not an edge (HTA's\n"
	     "CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE=1, its tests' setting)"},
    {.lname = "data-load",
     .api = "data_load",
     .type = VO_LIST,
     .off = VIEW_OWN_OFF(struct cpv_opts, data_load),
     .metavar = "REGEX",
     .help = "events whose name matches REGEX (POSIX extended) are data\n"
	     "loading: nodes of the graph, data_loading on the path\n"
	     "(repeatable)"},
    {.lname = "all-edges",
     .api = "all_edges",
     .type = VO_FLAG,
     .off = VIEW_OWN_OFF(struct cpv_opts, all_edges),
     .help = "add the table of every edge of the graph; in `trace overlay`,\n"
	     "a flow arrow for every edge, not only the path's dependency,\n"
	     "launch and sync edges (HTA's show_all_edges)"},
};

const struct view_decl view_critical_path_decl = {
    .kind = VIEW_CRITICAL_PATH,
    .name = "critical-path",
    .summary = "HTA's critical path of a step: path time by bound type, the path's edges",
    .help_head = cpv_head,
    .help_tail = cpv_tail,
    .opts = cpv_opts_decl,
    .nopts = sizeof cpv_opts_decl / sizeof cpv_opts_decl[0],
    .compute = cpv_compute,
    .emit = cpv_emit,
    .free = cpv_free,
    .overlay = cpv_overlay,
};
