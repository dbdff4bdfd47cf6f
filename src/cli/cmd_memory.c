/* memory: `gpuprof memory`, torch-tb-profiler's Memory view of a trace
 * (src/torch/memory.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/load.h"
#include "torch/memory.h"

const char cmd_memory_help[] =
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
	"Options:\n"
	"  --device DEV     cpu or cuda:N (also tb's CPU, GPUN); default: the first\n"
	"                   GPU with records, else cpu\n"
	"  --curve          instead: the memory curve of the device, one point per\n"
	"                   record with totals (time since the profiler start,\n"
	"                   allocated bytes, reserved bytes)\n"
	"  --step-plot      with --curve: before each point, one at its time holding\n"
	"                   the previous values (the plugin's step-plot form)\n"
	"  --events         instead: the allocation events of the device: allocation\n"
	"                   and free paired by address, with size, allocation and\n"
	"                   release times since the profiler start, and lifetime;\n"
	"                   empty times when the other end is not in the trace\n"
	"                   (--curve and --events may be given together)\n"
	"  --start TIME     only records at or after TIME since the profiler start\n"
	"  --end TIME       only records at or before TIME (TIME: a number with ns,\n"
	"                   us, ms or s; bare numbers are ns)\n"
	"  --tb-compat      reproduce torch-tb-profiler exactly, its quirks included\n"
	"                   (docs/tb-compat.md): Calls miss the operators below a\n"
	"                   node no record reached; an allocation re-allocated at\n"
	"                   its address before a free vanishes from --events\n"
	"\n"
	"A last section, \"memory\", tells what was read: the device, the profiler\n"
	"start, records in all, in an operator, outside every operator, without an\n"
	"address, of other device types.\n"
	"\n"
	"Examples:\n"
	"  gpuprof memory run/worker0.pt.trace.json.gz\n"
	"  gpuprof memory --device cpu --events --start 10ms --end 20ms trace.json.gz\n"
	"  gpuprof memory --curve --format csv -o curve.csv trace.json.gz\n";

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

#define NC(a) ((int)(sizeof a / sizeof a[0]))

/* TIME: digits with an optional fraction and unit ns/us/ms/s (ns when
 * bare), exact in ns. -1 when malformed or out of range. */
static int parse_time(const char *s, int64_t *out)
{
	uint64_t whole = 0, frac = 0, fdiv = 1;
	const char *p = s;
	bool digits = false;
	for (; *p >= '0' && *p <= '9'; p++, digits = true) {
		if (whole > (UINT64_MAX - 9) / 10)
			return -1;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, digits = true) {
			if (fdiv > UINT64_MAX / 100)
				return -1;
			frac = frac * 10 + (uint64_t)(*p - '0');
			fdiv *= 10;
		}
	}
	uint64_t unit;
	if (!*p || !strcmp(p, "ns"))
		unit = 1;
	else if (!strcmp(p, "us"))
		unit = 1000;
	else if (!strcmp(p, "ms"))
		unit = 1000000;
	else if (!strcmp(p, "s"))
		unit = 1000000000;
	else
		return -1;
	if (!digits || whole > (uint64_t)INT64_MAX / unit || frac * unit % fdiv)
		return -1;
	uint64_t v = whole * unit + frac * unit / fdiv;
	if (v > (uint64_t)INT64_MAX)
		return -1;
	*out = (int64_t)v;
	return 0;
}

static struct rep_val bytes_or_null(bool has, int64_t v)
{
	return has ? rep_i(v) : rep_null();
}

static void emit_stats(struct report *r, const struct memory *m, const struct mem_stats *s,
		       const char *dev)
{
	char title[64];
	snprintf(title, sizeof title, "Memory by operator (%s)", dev);
	rep_table_begin(r, "operators", title, stat_cols, NC(stat_cols));
	for (size_t i = 0; i < s->n; i++) {
		const struct mem_stat_row *x = &s->rows[i];
		const struct rep_val v[] = {
			rep_s(tr_str(m->o->t, x->name)), rep_i((int64_t)x->calls),
			rep_i(x->increase),		 rep_i(x->self_increase),
			rep_i(x->alloc_count),		 rep_i(x->self_alloc_count),
			rep_i(x->alloc_size),		 rep_i(x->self_alloc_size),
		};
		rep_row(r, v);
	}
	rep_table_end(r);
	rep_table_begin(r, "peaks", "Peaks", peak_cols, NC(peak_cols));
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
	rep_table_begin(r, "curve", title, curve_cols, NC(curve_cols));
	for (size_t i = 0; i < c->n; i++) {
		const struct rep_val v[] = {rep_i(c->v[i].time), rep_i(c->v[i].allocated),
					    rep_i(c->v[i].reserved)};
		rep_row(r, v);
	}
	rep_table_end(r);
}

static void emit_events(struct report *r, const struct memory *m, const struct mem_events *ev,
			const char *dev)
{
	char title[64];
	snprintf(title, sizeof title, "Memory events (%s)", dev);
	rep_table_begin(r, "events", title, event_cols, NC(event_cols));
	for (size_t i = 0; i < ev->n; i++) {
		const struct mem_event *x = &ev->v[i];
		bool a = x->alloc != MEM_NIL, f = x->release != MEM_NIL;
		int64_t ta = a ? m->recs[x->alloc].ts : 0, tf = f ? m->recs[x->release].ts : 0;
		const struct rep_val v[] = {
			rep_s(mem_event_label(ev, x)),
			rep_i(x->bytes),
			a ? rep_i(ta - m->start) : rep_null(),
			f ? rep_i(tf - m->start) : rep_null(),
			a && f ? rep_i(tf - ta) : rep_null(),
		};
		rep_row(r, v);
	}
	rep_table_end(r);
}

static void emit_info(struct report *r, const struct memory *m, const char *dev)
{
	rep_kv_begin(r, "memory", "Memory records");
	rep_kv(r, "device", "Device", REP_STR, rep_s(dev));
	rep_kv(r, "profiler_start_ns", "Profiler start (ns)", REP_INT, rep_i(m->start));
	rep_kv(r, "records", "Records", REP_INT, rep_i((int64_t)m->n));
	rep_kv(r, "in_operators", "In an operator", REP_INT, rep_i((int64_t)m->assigned));
	rep_kv(r, "outside_operators", "Outside every operator", REP_INT,
	       rep_i((int64_t)m->stale));
	rep_kv(r, "without_addr", "Without an address", REP_INT, rep_i((int64_t)m->no_addr));
	rep_kv(r, "other_device_types", "Of other device types", REP_INT,
	       rep_i((int64_t)m->unknown_device));
	rep_kv(r, "tb_compat", "tb-compat", REP_BOOL, rep_b(m->opts.tb_compat));
	rep_kv_end(r);
}

struct mem_args {
	const char *path, *device;
	bool curve, events, step_plot, tb_compat, windowed;
	struct mem_window w;
};

static int parse_args(struct app *app, int argc, char **argv, struct mem_args *a)
{
	bool dashdash = false;
	a->w = (struct mem_window){INT64_MIN, INT64_MAX};
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		if (dashdash || s[0] != '-' || !s[1]) {
			if (a->path)
				return app_usage(app, "memory", "one TRACE only (got '%s' and '%s')",
						 a->path, s);
			a->path = s;
		} else if (!strcmp(s, "--")) {
			dashdash = true;
		} else if (!strcmp(s, "--device") || !strcmp(s, "--start") || !strcmp(s, "--end")) {
			if (i + 1 >= argc)
				return app_usage(app, "memory", "option %s needs a value", s);
			const char *v = argv[++i];
			int64_t ns;
			if (!strcmp(s, "--device")) {
				a->device = v;
			} else if (parse_time(v, &ns)) {
				return app_usage(app, "memory",
						 "%s needs a time such as 1500, 2.5us or 10ms, not '%s'", s,
						 v);
			} else {
				*(!strcmp(s, "--start") ? &a->w.start : &a->w.end) = ns;
				a->windowed = true;
			}
		} else if (!strcmp(s, "--curve")) {
			a->curve = true;
		} else if (!strcmp(s, "--events")) {
			a->events = true;
		} else if (!strcmp(s, "--step-plot")) {
			a->step_plot = true;
		} else if (!strcmp(s, "--tb-compat")) {
			a->tb_compat = true;
		} else {
			return app_usage(app, "memory", "unknown option '%s'", s);
		}
	}
	if (!a->path)
		return app_usage(app, "memory", "no TRACE given");
	if (a->step_plot && !a->curve)
		return app_usage(app, "memory", "--step-plot goes with --curve");
	if (a->w.start != INT64_MIN && a->w.end != INT64_MAX && a->w.end < a->w.start)
		return app_usage(app, "memory", "--end is before --start");
	return 0;
}

/* Builds the asked views of device dev and writes them. */
static int report_views(struct app *app, const struct memory *m, uint16_t dev,
			const struct mem_args *a)
{
	struct err e = {0};
	struct mem_window w = a->w;
	if (a->windowed) { /* relative to the profiler start; open sides stay open */
		if (w.start != INT64_MIN)
			w.start = w.start > INT64_MAX - m->start ? INT64_MAX : m->start + w.start;
		if (w.end != INT64_MAX)
			w.end = w.end > INT64_MAX - m->start ? INT64_MAX : m->start + w.end;
	}
	const struct mem_window *wp = a->windowed ? &w : NULL;
	const char *name = dev == MEM_NO_DEV ? "none" : m->devs[dev].name;
	bool stats = !a->curve && !a->events;
	struct mem_stats s = {0};
	struct mem_curve c = {0};
	struct mem_events ev = {0};
	int rc = 0;
	if ((stats && mem_stats(m, dev, wp, &s, &e)) ||
	    (a->curve && mem_curve(m, dev, wp, a->step_plot, &c, &e)) ||
	    (a->events && mem_events(m, dev, wp, &ev, &e))) {
		rc = app_fail(app, &e);
	} else if (app_out_open(app, &e)) {
		rc = app_fail(app, &e);
	} else {
		struct report *r = rep_open(app->out, app->format);
		if (r) {
			if (stats)
				emit_stats(r, m, &s, name);
			if (a->curve)
				emit_curve(r, &c, name);
			if (a->events)
				emit_events(r, m, &ev, name);
			emit_info(r, m, name);
		}
		bool ok = r && rep_close(r) == 0;
		if (app_out_close(app, ok, &e))
			rc = app_fail(app, &e);
		else if (!ok)
			rc = 2;
	}
	mem_stats_free(&s);
	mem_curve_free(&c);
	mem_events_free(&ev);
	return rc;
}

int cmd_memory(struct app *app, int argc, char **argv)
{
	struct mem_args a = {0};
	int rc = parse_args(app, argc, argv, &a);
	if (rc)
		return rc;
	struct trace *t;
	if ((rc = app_load_trace(app, a.path, &t)))
		return rc;
	struct err e = {0};
	struct optree_opts to = {.tb_compat = a.tb_compat};
	struct mem_opts mo = {.tb_compat = a.tb_compat};
	struct optree o;
	struct memory m;
	if (optree_build(t, &to, &o, &e)) {
		rc = app_fail(app, &e);
	} else {
		if (mem_build(&o, &mo, &m, &e)) {
			rc = app_fail(app, &e);
		} else {
			uint16_t dev = a.device ? mem_find_device(&m, a.device) : mem_default_device(&m);
			if (a.device && dev == MEM_NO_DEV)
				rc = app_usage(app, "memory",
					       "the trace has no memory records of device '%s'",
					       a.device);
			else
				rc = report_views(app, &m, dev, &a);
			mem_free(&m);
		}
		optree_free(&o);
	}
	tr_free(t);
	return rc;
}
