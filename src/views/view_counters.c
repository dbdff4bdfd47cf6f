/* view_counters: `gpuprof counters`, HTA's augmented counters: queue length
 * per stream, time blocked on a full queue, memcpy bandwidth per kind
 * (hta/counters.h over hta/select.h). */
#include <math.h>
#include <stdlib.h>

#include "hta/counters.h"
#include "views/view_int.h"

/* counters' own options (struct view_opts' own area) */
struct counters_opts {
	int64_t max_queue_length; /* --max-queue-length */
	bool series;		  /* --series */
};
_Static_assert(sizeof(struct counters_opts) <= VIEW_OWN_BYTES,
	       "counters' options fit the own area");

static const char counters_head[] =
    "Usage: gpuprof counters [options] TRACE\n"
    "\n"
    "Holistic Trace Analysis' augmented counters. The queue length of a stream\n"
    "is the number of launches outstanding on it: +1 when a launch call\n"
    "(cudaLaunchKernel, cudaMemcpyAsync, ...) starts, -1 when its kernel, memcpy\n"
    "or memset starts. The time blocked on a full queue is the time a stream's\n"
    "queue length stays at --max-queue-length or more. The memcpy bandwidth of a\n"
    "kind (Memcpy HtoD, Memcpy DtoH, Memset, ...) sums the 'memory bandwidth\n"
    "(GB/s)' of the copies running. The summaries are pandas' describe() of the\n"
    "series (bandwidth: of its points above 0); --series lists the points, one\n"
    "per change. As HTA, times are rounded to whole microseconds when the trace\n"
    "has fractional ones, and with two steps or more the work launched from the\n"
    "last step on is left out (docs/views.md, counters).\n"
    "\n"
    "Options:\n";

static const char counters_tail[] =
    "\n"
    "Examples:\n"
    "  gpuprof counters trace.json.gz\n"
    "  gpuprof counters --max-queue-length 100 --table blocked trace.json\n"
    "  gpuprof counters --series --table queue_series --format csv trace.json\n"
    "  gpuprof trace overlay counters trace.json -o with_counters.json.gz\n";

struct counters_res {
	struct hta_events ev;
	struct hta_counters c;
	int64_t rank;
};

static int counters_compute(struct view *v, const struct view_source *src, struct err *e)
{
	(void)src;
	const struct counters_opts *o = view_own(&v->o);
	struct counters_res *r = view_results_new(v, sizeof *r, e);
	if (!r)
		return ERR_NOMEM;
	r->rank = v->t->meta.dist_rank >= 0 ? v->t->meta.dist_rank : 0;
	int rc = hta_events(v->t, &r->ev, e);
	if (rc)
		return rc;
	return hta_counters(v->t, &r->ev, o->max_queue_length, &r->c, e);
}

#define DESC_COLS(unit, kind)                                                                      \
	{"count", "Count", REP_INT}, {"mean" unit, "Mean", kind}, {"std" unit, "Std", kind},       \
	    {"min" unit, "Min", kind}, {"p25" unit, "P25", kind}, {"p50" unit, "P50", kind},       \
	    {"p75" unit, "P75", kind},                                                             \
	{                                                                                          \
		"max" unit, "Max", kind                                                            \
	}

static const struct rep_col ql_cols[] = {
    {"rank", "Rank", REP_INT},
    {"stream", "Stream", REP_INT},
    DESC_COLS("", REP_FLOAT),
};

static const struct rep_col bw_cols[] = {
    {"rank", "Rank", REP_INT},
    {"memcpy_kind", "Kind", REP_STR},
    DESC_COLS("_gbps", REP_FLOAT),
};

static const struct rep_col blocked_cols[] = {
    {"rank", "Rank", REP_INT},
    {"stream", "Stream", REP_INT},
    {"duration_at_max_queue_length_ns", "At max queue length", REP_DUR_NS},
    {"relative_duration_at_max_queue_length", "Of the trace", REP_FLOAT},
};

static const struct rep_col qs_cols[] = {
    {"rank", "Rank", REP_INT},
    {"stream", "Stream", REP_INT},
    {"ts_ns", "Time", REP_INT},
    {"queue_length", "Queue length", REP_INT},
};

static const struct rep_col bs_cols[] = {
    {"rank", "Rank", REP_INT},
    {"memcpy_kind", "Kind", REP_STR},
    {"ts_ns", "Time", REP_INT},
    {"memory_bw_gbps", "GB/s", REP_FLOAT},
};

/* The row of a describe() after its two key columns. */
static void desc_vals(const struct stats_desc *d, struct rep_val *v)
{
	v[0] = rep_i((int64_t)d->count);
	v[1] = rep_f_or_null(d->mean);
	v[2] = rep_f_or_null(d->std);
	v[3] = rep_f_or_null(d->min);
	v[4] = rep_f_or_null(d->p25);
	v[5] = rep_f_or_null(d->p50);
	v[6] = rep_f_or_null(d->p75);
	v[7] = rep_f_or_null(d->max);
}

static void emit_selection(struct report *rep, const struct counters_res *r,
			   const struct counters_opts *o)
{
	static const char *const filters[] = {"none", "cuda", "mtia"};
	rep_kv_begin(rep, "selection", "Device events (as HTA reads them)");
	rep_kv(rep, "device_events", "Device events with a stream", REP_INT,
	       rep_i((int64_t)r->ev.n));
	rep_kv(rep, "rounded_to_us", "Times rounded to whole us", REP_BOOL, rep_b(r->ev.rounded));
	rep_kv(rep, "last_step_filter", "Last-step filter", REP_STR, rep_s(filters[r->ev.filter]));
	rep_kv(rep, "trace_duration_ns", "Trace duration (HTA's)", REP_DUR_NS,
	       rep_i(r->c.trace_ns));
	rep_kv(rep, "max_queue_length", "Full queue at", REP_INT, rep_i(o->max_queue_length));
	rep_kv_end(rep);
}

static void emit_series(struct report *rep, const struct counters_res *r)
{
	const struct hta_counters *c = &r->c;
	rep_table_begin(rep, "queue_series", "Queue length series", qs_cols, 4);
	for (size_t s = 0; s < c->nstreams; s++)
		for (size_t i = 0; i < c->streams[s].n; i++) {
			const struct hta_ql_point *p = &c->ql[c->streams[s].first + i];
			const struct rep_val row[] = {rep_i(r->rank), rep_i(c->streams[s].stream),
						      rep_i(p->ts), rep_i(p->len)};
			rep_row(rep, row);
		}
	rep_table_end(rep);
	rep_table_begin(rep, "bw_series", "Memcpy bandwidth series", bs_cols, 4);
	for (size_t k = 0; k < c->nkinds; k++)
		for (size_t i = 0; i < c->kinds[k].n; i++) {
			const struct hta_bw_point *p = &c->bw[c->kinds[k].first + i];
			const struct rep_val row[] = {rep_i(r->rank), rep_s(c->kinds[k].name),
						      rep_i(p->ts), rep_f_or_null(p->gbps)};
			rep_row(rep, row);
		}
	rep_table_end(rep);
}

static void counters_emit(struct view *v, struct report *rep)
{
	const struct counters_res *r = v->priv;
	const struct counters_opts *o = view_own(&v->o);
	const struct hta_counters *c = &r->c;
	emit_selection(rep, r, o);
	rep_table_begin(rep, "queue_length", "Queue length per stream", ql_cols, 10);
	for (size_t s = 0; s < c->nstreams; s++) {
		struct rep_val row[10] = {rep_i(r->rank), rep_i(c->streams[s].stream)};
		desc_vals(&c->streams[s].desc, row + 2);
		rep_row(rep, row);
	}
	rep_table_end(rep);
	rep_table_begin(rep, "blocked", "Time blocked on a full queue", blocked_cols, 4);
	for (size_t s = 0; s < c->nstreams; s++) {
		const struct hta_ql_stream *x = &c->streams[s];
		if (!x->full)
			continue;
		const struct rep_val row[] = {rep_i(r->rank), rep_i(x->stream),
					      rep_i(x->blocked_ns),
					      rep_f_or_null(x->blocked_ratio)};
		rep_row(rep, row);
	}
	rep_table_end(rep);
	rep_table_begin(rep, "memcpy_bw", "Memcpy bandwidth per kind", bw_cols, 10);
	for (size_t k = 0; k < c->nkinds; k++) {
		if (!c->kinds[k].desc.count)
			continue;
		struct rep_val row[10] = {rep_i(r->rank), rep_s(c->kinds[k].name)};
		desc_vals(&c->kinds[k].desc, row + 2);
		rep_row(rep, row);
	}
	rep_table_end(rep);
	if (o->series)
		emit_series(rep, r);
}

/* The pid of the event of row, as the trace writes it (a number or a
 * string). */
static void put_pid(struct tr_overlay *o, const struct trace *t, uint32_t row)
{
	const struct tr_id *pid = &t->tracks.v[t->ev.track[row]].pid;
	char buf[64];
	const char *s = tr_id_text(t, pid, buf, sizeof buf);
	if (pid->is_str)
		tr_ov_str(o, s);
	else
		tr_ov_put(o, "%s", s);
}

/* HTA's generate_trace_with_counters: one counter event per point, the
 * queue length's first (stream ascending), then the bandwidth's (kind
 * ascending), with the members HTA writes: pid (of the device event), ts,
 * args {"Queue Length": N} or {"Memcpy BW": GB/s}, ph, name ("Queue
 * Length", or the memcpy kind), and for the queue length id = the stream.
 * A bandwidth point without a value (a copy without the arg) is left out. */
static int counters_overlay(const struct view *v, struct tr_overlay *o, struct err *e)
{
	(void)e;
	const struct counters_res *r = v->priv;
	const struct hta_counters *c = &r->c;
	const struct trace *t = v->t;
	for (size_t s = 0; s < c->nstreams; s++)
		for (size_t i = 0; i < c->streams[s].n; i++) {
			const struct hta_ql_point *p = &c->ql[c->streams[s].first + i];
			tr_ov_event(o);
			tr_ov_put(o, "{\"pid\": ");
			put_pid(o, t, p->row);
			tr_ov_put(o, ", \"ts\": ");
			tr_ov_us(o, p->ts);
			tr_ov_put(o,
				  ", \"args\": {\"Queue Length\": %lld}, \"ph\": \"C\", \"name\": "
				  "\"Queue Length\", \"id\": %lld}",
				  (long long)p->len, (long long)c->streams[s].stream);
		}
	for (size_t k = 0; k < c->nkinds; k++)
		for (size_t i = 0; i < c->kinds[k].n; i++) {
			const struct hta_bw_point *p = &c->bw[c->kinds[k].first + i];
			char num[32];
			if (!rep_fmt_double(num, p->gbps))
				continue;
			tr_ov_event(o);
			tr_ov_put(o, "{\"pid\": ");
			put_pid(o, t, p->row);
			tr_ov_put(o, ", \"ts\": ");
			tr_ov_us(o, p->ts);
			tr_ov_put(
			    o, ", \"args\": {\"Memcpy BW\": %s}, \"ph\": \"C\", \"name\": ", num);
			tr_ov_str(o, c->kinds[k].name);
			tr_ov_put(o, "}");
		}
	return 0;
}

static void counters_free(struct view *v)
{
	struct counters_res *r = v->priv;
	if (!r)
		return;
	hta_counters_free(&r->c);
	hta_events_free(&r->ev);
	free(r);
}

static const struct vo counters_opts_decl[] = {
    {.lname = "max-queue-length",
     .api = "max_queue_length",
     .type = VO_INT,
     .off = VIEW_OWN_OFF(struct counters_opts, max_queue_length),
     .metavar = "N",
     .min = 0,
     .def = "1024",
     .help = "a stream is blocked on a full queue while its queue length\n"
	     "is N or more (default 1024, HTA's max_queue_length)"},
    {.lname = "series",
     .api = "series",
     .type = VO_FLAG,
     .off = VIEW_OWN_OFF(struct counters_opts, series),
     .help = "add the tables of the series, one row per change:\n"
	     "queue_series (per stream) and bw_series (per memcpy kind)"},
};

const struct view_decl view_counters_decl = {
    .kind = VIEW_COUNTERS,
    .name = "counters",
    .summary = "queue length per stream, time blocked on a full queue, memcpy bandwidth",
    .help_head = counters_head,
    .help_tail = counters_tail,
    .opts = counters_opts_decl,
    .nopts = sizeof counters_opts_decl / sizeof counters_opts_decl[0],
    .compute = counters_compute,
    .emit = counters_emit,
    .free = counters_free,
    .overlay = counters_overlay,
};
