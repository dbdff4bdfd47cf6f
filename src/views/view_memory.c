/* view_memory: torch-tb-profiler's Memory view (src/tbprof/memory.h) as
 * `gpuprof memory` and GET /api/file/ID/memory show it: per-operator
 * statistics and peaks, or the memory curve and/or the allocation events of
 * one device, then what was read. */
#include <stdio.h>
#include <stdlib.h>

#include "tbprof/optree.h"
#include "views/view_int.h"

static const struct rep_col stat_cols[] = {
    {"name", "Operator", REP_STR},
    {"calls", "Calls", REP_INT},
    {"size_increase_bytes", "Size Increase", REP_BYTES},
    {"self_size_increase_bytes", "Self Size Increase", REP_BYTES},
    {"allocation_count", "Allocations", REP_INT},
    {"self_allocation_count", "Self Allocations", REP_INT},
    {"allocation_size_bytes", "Allocation Size", REP_BYTES},
    {"self_allocation_size_bytes", "Self Allocation Size", REP_BYTES},
};

static const struct rep_col peak_cols[] = {
    {"device", "Device", REP_STR},
    {"records", "Records", REP_INT},
    {"peak_allocated_bytes", "Peak Allocated", REP_BYTES},
    {"peak_reserved_bytes", "Peak Reserved", REP_BYTES},
};

static const struct rep_col curve_cols[] = {
    {"time_ns", "Time", REP_DUR_NS},
    {"allocated_bytes", "Allocated", REP_BYTES},
    {"reserved_bytes", "Reserved", REP_BYTES},
};

static const struct rep_col event_cols[] = {
    {"operator", "Operator", REP_STR},
    {"size_bytes", "Size", REP_BYTES},
    {"allocation_time_ns", "Allocation Time", REP_DUR_NS},
    {"release_time_ns", "Release Time", REP_DUR_NS},
    {"duration_ns", "Duration", REP_DUR_NS},
};

static struct rep_val bytes_or_null(bool has, int64_t v)
{
	return has ? rep_i(v) : rep_null();
}

static void emit_stats(struct report *r, const struct memory *m, const struct mem_stats *s,
		       const char *dev)
{
	char title[64];
	snprintf(title, sizeof title, "Memory by operator (%s)", dev);
	rep_table_begin(r, "operators", title, stat_cols, VIEW_NC(stat_cols));
	for (size_t i = 0; i < s->n; i++) {
		const struct mem_stat_row *x = &s->rows[i];
		const struct rep_val v[] = {
		    rep_s(tr_str(m->o->t, x->name)),
		    rep_i((int64_t)x->calls),
		    rep_i(x->increase),
		    rep_i(x->self_increase),
		    rep_i(x->alloc_count),
		    rep_i(x->self_alloc_count),
		    rep_i(x->alloc_size),
		    rep_i(x->self_alloc_size),
		};
		rep_row(r, v);
	}
	rep_table_end(r);
	rep_table_begin(r, "peaks", "Peaks", peak_cols, VIEW_NC(peak_cols));
	for (size_t i = 0; i < m->ndevs; i++) {
		const struct mem_device *d = &m->devs[i];
		const struct rep_val v[] = {
		    rep_s(d->name),
		    rep_i((int64_t)d->records),
		    bytes_or_null(d->has_allocated, d->peak_allocated),
		    bytes_or_null(d->has_reserved, d->peak_reserved),
		};
		rep_row(r, v);
	}
	rep_table_end(r);
}

static void emit_curve(struct report *r, const struct mem_curve *c, const char *dev)
{
	char title[64];
	snprintf(title, sizeof title, "Memory curve (%s)", dev);
	rep_table_begin(r, "curve", title, curve_cols, VIEW_NC(curve_cols));
	for (size_t i = 0; i < c->n; i++) {
		const struct rep_val v[] = {rep_i(c->v[i].time), rep_i(c->v[i].allocated),
					    rep_i(c->v[i].reserved)};
		rep_row(r, v);
	}
	rep_table_end(r);
}

static void emit_events(struct report *r, const struct memory *m, const struct mem_events *ev,
			const char *dev, size_t top)
{
	char title[64];
	snprintf(title, sizeof title, "Memory events (%s)", dev);
	rep_table_begin(r, "events", title, event_cols, VIEW_NC(event_cols));
	size_t n = top < ev->n ? top : ev->n; /* top: SIZE_MAX when not asked */
	for (size_t i = 0; i < n; i++) {
		const struct mem_event *x = &ev->v[i];
		bool a = x->alloc != MEM_NIL, f = x->release != MEM_NIL;
		int64_t ta = a ? m->recs[x->alloc].ts : 0, tf = f ? m->recs[x->release].ts : 0;
		const struct rep_val v[] = {
		    rep_s(mem_event_label(ev, x)),	   rep_i(x->bytes),
		    a ? rep_i(ta - m->start) : rep_null(), f ? rep_i(tf - m->start) : rep_null(),
		    a && f ? rep_i(tf - ta) : rep_null(),
		};
		rep_row(r, v);
	}
	rep_table_end(r);
}

/* The view's results (its priv). */
struct mem_res {
	const struct optree *tree; /* the session's */
	struct memory mem;
	uint16_t dev; /* the device shown, or MEM_NO_DEV */
	struct mem_stats stats;
	struct mem_curve curve;
	size_t curve_all; /* the curve's points before --curve-points */
	struct mem_events events;
};

static void emit_info(struct report *r, const struct view *v, const struct mem_res *res,
		      const char *dev)
{
	const struct memory *m = &res->mem;
	rep_kv_begin(r, "memory", "Memory records");
	rep_kv(r, "device", "Device", REP_STR, rep_s(dev));
	char t0s[32];
	if (v->o.tb_compat)
		rep_kv(r, "profiler_start_ns", "Profiler start (ns)", REP_INT, rep_i(m->start));
	else
		rep_kv(r, "trace_start_ns", "Trace start (ns)", REP_STR,
		       rep_s(view_trace_start_text(v->t, t0s, sizeof t0s)));
	rep_kv(r, "records", "Records", REP_INT, rep_i((int64_t)m->n));
	rep_kv(r, "in_operators", "In an operator", REP_INT, rep_i((int64_t)m->assigned));
	rep_kv(r, "outside_operators", "Outside every operator", REP_INT, rep_i((int64_t)m->stale));
	rep_kv(r, "without_addr", "Without an address", REP_INT, rep_i((int64_t)m->no_addr));
	rep_kv(r, "other_device_types", "Of other device types", REP_INT,
	       rep_i((int64_t)m->unknown_device));
	rep_kv(r, "tb_compat", "tb-compat", REP_BOOL, rep_b(m->opts.tb_compat));
	if (v->o.curve && v->o.curve_points) /* how much --curve-points left out */
		rep_kv(r, "curve_points_all", "Curve points before --curve-points", REP_INT,
		       rep_i((int64_t)res->curve_all));
	if (v->o.events && v->o.top != SIZE_MAX) /* how many --top left out */
		rep_kv(r, "events_all", "Events before --top", REP_INT,
		       rep_i((int64_t)res->events.n));
	rep_kv_end(r);
}

static int memory_compute(struct view *v, const struct view_source *src, struct err *e)
{
	(void)src;
	struct mem_res *res = view_results_new(v, sizeof *res, e);
	if (!res)
		return ERR_NOMEM;
	res->dev = MEM_NO_DEV;
	struct mem_opts mo = {.tb_compat = v->o.tb_compat,
			      .has_origin = !v->o.tb_compat,
			      .origin = view_trace_start(v->t)};
	int rc = ses_tree(v->ses, v->o.tb_compat, &res->tree, e);
	if (rc || (rc = mem_build(res->tree, &mo, &res->mem, e)))
		return rc;
	const struct memory *m = &res->mem;
	res->dev = v->o.device ? mem_find_device(m, v->o.device) : mem_default_device(m);
	if (v->o.device && res->dev == MEM_NO_DEV)
		return err_set(e, ERR_USAGE, NULL, -1,
			       "the trace has no memory records of device '%s'", v->o.device);
	struct mem_window w = v->o.window;
	if (v->o.windowed) { /* relative to the profiler start; open sides stay open */
		if (w.start != INT64_MIN)
			w.start = w.start > INT64_MAX - m->start ? INT64_MAX : m->start + w.start;
		if (w.end != INT64_MAX)
			w.end = w.end > INT64_MAX - m->start ? INT64_MAX : m->start + w.end;
	}
	const struct mem_window *wp = v->o.windowed ? &w : NULL;
	bool stats = !v->o.curve && !v->o.events;
	if ((stats && (rc = mem_stats(m, res->dev, wp, &res->stats, e))) ||
	    (v->o.curve && (rc = mem_curve(m, res->dev, wp, v->o.step_plot, &res->curve, e))) ||
	    (v->o.events && (rc = mem_events(m, res->dev, wp, &res->events, e))))
		return rc;
	res->curve_all = res->curve.n;
	if (v->o.curve && v->o.curve_points)
		mem_curve_reduce(&res->curve, v->o.curve_points);
	return 0;
}

static void memory_emit(struct view *v, struct report *r)
{
	const struct mem_res *res = v->priv;
	const struct memory *m = &res->mem;
	const char *name = res->dev == MEM_NO_DEV ? "none" : m->devs[res->dev].name;
	if (!v->o.curve && !v->o.events)
		emit_stats(r, m, &res->stats, name);
	if (v->o.curve)
		emit_curve(r, &res->curve, name);
	if (v->o.events)
		emit_events(r, m, &res->events, name, v->o.top);
	emit_info(r, v, res, name);
}

static void memory_free(struct view *v)
{
	struct mem_res *res = v->priv;
	if (!res)
		return;
	mem_stats_free(&res->stats);
	mem_curve_free(&res->curve);
	mem_events_free(&res->events);
	mem_free(&res->mem);
	free(res);
}

static const char memory_head[] =
    "Usage: gpuprof memory [options] TRACE\n"
    "\n"
    "torch-tb-profiler's Memory view, from the allocator's [memory] records\n"
    "(recorded with profile_memory=True). Each record joins the innermost\n"
    "operator running on its thread at that moment; frees take the operator of\n"
    "the allocation at the same address.\n"
    "\n"
    "By default, for one device: per operator name, the number of calls, the\n"
    "memory increase (allocated minus freed bytes) of its calls with and\n"
    "without their callees (Size Increase, Self Size Increase), the number and\n"
    "bytes of allocations with and without callees; rows by name, only rows\n"
    "with a non-zero number. Then the peak allocated and reserved bytes of\n"
    "every device (\"Total Allocated\" / \"Total Reserved\" of the records; empty\n"
    "when the trace has none). docs/views.md says how each is computed.\n"
    "\n"
    "Options:\n";

static const char memory_tail[] =
    "\n"
    "A last section, \"memory\", tells what was read: the device, the profiler\n"
    "start, records in all, in an operator, outside every operator, without an\n"
    "address, of other device types.\n"
    "\n"
    "Examples:\n"
    "  gpuprof memory run/worker0.pt.trace.json.gz\n"
    "  gpuprof memory --device cpu --events --start 10ms --end 20ms trace.json.gz\n"
    "  gpuprof memory --curve --format csv -o curve.csv trace.json.gz\n";

static const struct vo memory_opts[] = {
    {.lname = "device",
     .api = "device",
     .type = VO_STRING,
     .off = offsetof(struct view_opts, device),
     .metavar = "DEV",
     .help = "cpu or cuda:N (also tb's CPU, GPUN); default: the first\n"
	     "GPU with records, else cpu"},
    {.lname = "curve",
     .api = "curve",
     .type = VO_FLAG,
     .off = offsetof(struct view_opts, curve),
     .help = "instead: the memory curve of the device, one point per\n"
	     "record with totals (time since the trace start,\n"
	     "allocated bytes, reserved bytes)"},
    {.lname = "step-plot",
     .api = "step_plot",
     .type = VO_FLAG,
     .off = offsetof(struct view_opts, step_plot),
     .help = "with --curve: before each point, one at its time holding\n"
	     "the previous values (the plugin's step-plot form)"},
    {.lname = "curve-points",
     .api = "points",
     .type = VO_COUNT,
     .off = offsetof(struct view_opts, curve_points),
     .metavar = "N",
     .min = MEM_CURVE_KEEP,
     .help = "with --curve: at most N points (N >= 6): the span is cut\n"
	     "into N/6 columns, each keeping its first, last, lowest\n"
	     "and highest points (allocated and reserved); the peaks\n"
	     "remain (what the viewer asks for on big traces)"},
    {.lname = "events",
     .api = "events",
     .type = VO_FLAG,
     .off = offsetof(struct view_opts, events),
     .help = "instead: the allocation events of the device: allocation\n"
	     "and free paired by address, with size, allocation and\n"
	     "release times since the trace start, and lifetime;\n"
	     "empty times when the other end is not in the trace\n"
	     "(--curve and --events may be given together)"},
    {.lname = "top",
     .api = "top",
     .type = VO_COUNT,
     .off = offsetof(struct view_opts, top),
     .metavar = "N",
     .min = 1,
     .help = "with --events: the first N events only (the memory\n"
	     "section says how many there are: events_all)"},
    {.lname = "start",
     .api = "start_ns",
     .type = VO_TIME,
     .off = offsetof(struct view_opts, window.start),
     .metavar = "TIME",
     .help = "only records at or after TIME since the trace start"},
    {.lname = "end",
     .api = "end_ns",
     .type = VO_TIME,
     .off = offsetof(struct view_opts, window.end),
     .metavar = "TIME",
     .help = "only records at or before TIME (TIME: a number with ns,\n"
	     "us, ms or s; bare numbers are ns)"},
    VIEW_OPT_TB_COMPAT("reproduce torch-tb-profiler exactly, its quirks included\n"
		       "(docs/tb-compat.md): Calls miss the operators below a\n"
		       "node no record reached; an allocation re-allocated at\n"
		       "its address before a free vanishes from --events"),
};

/* memory: which options go together. The API drops step_plot without curve
 * (as its pages ask), where the CLI refuses it. */
static int memory_check(const struct view_decl *d, struct view_opts *o, enum vo_front f, char *msg,
			size_t n)
{
	char a[VO_NAME_MAX], b[VO_NAME_MAX], c[VO_NAME_MAX];
#define NAME(lname, buf) vo_name_of(d->opts, d->nopts, lname, f, buf)
	if (o->step_plot && !o->curve) {
		if (f == VO_API)
			o->step_plot = false;
		else
			return snprintf(msg, n, "%s goes with %s", NAME("step-plot", a),
					NAME("curve", b)),
			       -1;
	}
	if (o->top != SIZE_MAX && !o->events)
		return snprintf(msg, n, "%s goes with %s", NAME("top", a), NAME("events", b)), -1;
	if (o->curve_points && (!o->curve || o->step_plot))
		return snprintf(msg, n, "%s goes with %s, without %s", NAME("curve-points", a),
				NAME("curve", b), NAME("step-plot", c)),
		       -1;
	if (o->window.end < o->window.start)
		return snprintf(msg, n, "%s is before %s", NAME("end", a), NAME("start", b)), -1;
#undef NAME
	o->windowed = o->window.start != INT64_MIN || o->window.end != INT64_MAX;
	return 0;
}

const struct view_decl view_memory_decl = {
    .kind = VIEW_MEMORY,
    .name = "memory",
    .summary = "memory by operator, peaks, curve, allocations (tb's Memory view)",
    .help_head = memory_head,
    .help_tail = memory_tail,
    .opts = memory_opts,
    .nopts = VIEW_NC(memory_opts),
    .check = memory_check,
    .compute = memory_compute,
    .emit = memory_emit,
    .free = memory_free,
};
