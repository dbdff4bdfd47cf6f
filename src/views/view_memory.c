/* view_memory: torch-tb-profiler's Memory view (src/tbprof/memory.h) as
 * `gpuprof memory` and GET /api/file/ID/memory show it: per-operator
 * statistics and peaks, or the memory curve and/or the allocation events of
 * one device, then what was read. */
#include <stdio.h>

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

static void emit_info(struct report *r, const struct view *v, const char *dev)
{
	const struct memory *m = &v->mem;
	rep_kv_begin(r, "memory", "Memory records");
	rep_kv(r, "device", "Device", REP_STR, rep_s(dev));
	rep_kv(r, "profiler_start_ns", "Profiler start (ns)", REP_INT, rep_i(m->start));
	rep_kv(r, "records", "Records", REP_INT, rep_i((int64_t)m->n));
	rep_kv(r, "in_operators", "In an operator", REP_INT, rep_i((int64_t)m->assigned));
	rep_kv(r, "outside_operators", "Outside every operator", REP_INT, rep_i((int64_t)m->stale));
	rep_kv(r, "without_addr", "Without an address", REP_INT, rep_i((int64_t)m->no_addr));
	rep_kv(r, "other_device_types", "Of other device types", REP_INT,
	       rep_i((int64_t)m->unknown_device));
	rep_kv(r, "tb_compat", "tb-compat", REP_BOOL, rep_b(m->opts.tb_compat));
	if (v->o.curve && v->o.curve_points) /* how much --curve-points left out */
		rep_kv(r, "curve_points_all", "Curve points before --curve-points", REP_INT,
		       rep_i((int64_t)v->curve_all));
	if (v->o.events && v->o.top != SIZE_MAX) /* how many --top left out */
		rep_kv(r, "events_all", "Events before --top", REP_INT,
		       rep_i((int64_t)v->mevents.n));
	rep_kv_end(r);
}

int view_memory_compute(struct view *v, struct err *e)
{
	struct mem_opts mo = {.tb_compat = v->o.tb_compat};
	int rc = ses_tree(v->ses, v->o.tb_compat, &v->tree, e);
	if (rc || (rc = mem_build(v->tree, &mo, &v->mem, e)))
		return rc;
	const struct memory *m = &v->mem;
	v->dev = v->o.device ? mem_find_device(m, v->o.device) : mem_default_device(m);
	if (v->o.device && v->dev == MEM_NO_DEV)
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
	if ((stats && (rc = mem_stats(m, v->dev, wp, &v->mstats, e))) ||
	    (v->o.curve && (rc = mem_curve(m, v->dev, wp, v->o.step_plot, &v->mcurve, e))) ||
	    (v->o.events && (rc = mem_events(m, v->dev, wp, &v->mevents, e))))
		return rc;
	v->curve_all = v->mcurve.n;
	if (v->o.curve && v->o.curve_points)
		mem_curve_reduce(&v->mcurve, v->o.curve_points);
	return 0;
}

void view_memory_emit(struct view *v, struct report *r)
{
	const struct memory *m = &v->mem;
	const char *name = v->dev == MEM_NO_DEV ? "none" : m->devs[v->dev].name;
	if (!v->o.curve && !v->o.events)
		emit_stats(r, m, &v->mstats, name);
	if (v->o.curve)
		emit_curve(r, &v->mcurve, name);
	if (v->o.events)
		emit_events(r, m, &v->mevents, name, v->o.top);
	emit_info(r, v, name);
}
