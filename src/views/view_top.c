/* view_top: `gpuprof top`, where a trace's time goes, from the same stacks
 * as the exports (src/trace/stacks.h): pprof's flat is our self, its cum
 * our total. */
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "trace/stacks.h"
#include "views/view_int.h"

static const char top_head[] =
    "Usage: gpuprof top [options] TRACE\n"
    "\n"
    "Where the time goes: event counts, time by category, and the top operations\n"
    "by total and by self time. The numbers are those of `gpuprof export`: stacks\n"
    "from how events nest in time per thread and GPU stream, partial overlaps\n"
    "clipped to their parent; self = duration minus callees (pprof's flat),\n"
    "total = inclusive time with nested calls of the same operation counted\n"
    "once (pprof's cum). An operation is a (name, category) pair.\n"
    "\n"
    "Options:\n";

static const char top_tail[] = "\n"
			       "Examples:\n"
			       "  gpuprof top trace.json.gz\n"
			       "  gpuprof top -n 50 --format csv trace.json.gz\n";

/* A row to sort: the value sorted by beside its frame, since qsort passes
 * no context. Ties: name bytes, then category, so the order is total. */
struct top_row {
	int64_t v;
	const struct stk_frame *f;
};

static int by_value(const void *x, const void *y)
{
	const struct top_row *ra = x, *rb = y;
	const struct stk_frame *a = ra->f, *b = rb->f;
	if (ra->v != rb->v)
		return ra->v > rb->v ? -1 : 1;
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->name, b->name, n);
	if (c)
		return c;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return (int)a->kind - (int)b->kind;
}

static const struct rep_col op_cols[] = {
    {"name", "Name", REP_STR},	     {"category", "Category", REP_STR},
    {"calls", "Calls", REP_INT},     {"total_ns", "Total", REP_DUR_NS},
    {"self_ns", "Self", REP_DUR_NS},
};

static void op_table(struct report *r, const char *name, const char *title,
		     const struct top_row *rows, size_t n, size_t top)
{
	rep_table_begin(r, name, title, op_cols, 5);
	for (size_t i = 0; i < n && (!top || i < top); i++) {
		const struct stk_frame *f = rows[i].f;
		const struct rep_val v[] = {
		    rep_s(f->len ? f->name : "[unnamed]"), rep_s(stk_kind_label(f->kind)),
		    rep_i((int64_t)f->calls), rep_i(f->total_ns), rep_i(f->self_ns)};
		rep_row(r, v);
	}
	rep_table_end(r);
}

static const struct rep_col cat_cols[] = {
    {"category", "Category", REP_STR},
    {"events", "Events", REP_INT},
    {"self_ns", "Self", REP_DUR_NS},
    {"self_pct", "Self %", REP_PCT},
};

static void emit(struct report *r, const struct stk_profile *p, struct top_row *rows, size_t n,
		 size_t top)
{
	const struct trace *t = p->t;
	rep_kv_begin(r, "events", "Events");
	rep_kv(r, "events", "Events read", REP_INT, rep_i((int64_t)t->counts.events));
	rep_kv(r, "in_stacks", "In stacks", REP_INT, rep_i((int64_t)p->events));
	rep_kv(r, "tracks", "Threads and streams", REP_INT, rep_i((int64_t)t->tracks.n));
	rep_kv(r, "operations", "Distinct operations", REP_INT, rep_i((int64_t)n));
	rep_kv(r, "stacks", "Distinct stacks", REP_INT, rep_i((int64_t)p->nnodes));
	rep_kv(r, "clipped", "Clipped (partial overlap)", REP_INT, rep_i((int64_t)p->clipped));
	rep_kv(r, "clipped_ns", "Time clipped", REP_DUR_NS, rep_i(p->clipped_ns));
	rep_kv(r, "self_ns", "Self time, all", REP_DUR_NS, rep_i(p->self_ns));
	rep_kv(r, "span_ns", "Trace span", REP_DUR_NS,
	       rep_i(p->min_ts == INT64_MAX ? 0 : p->max_end - p->min_ts));
	rep_kv_end(r);
	/* time by category: self time summed over the frames of each kind */
	uint64_t ev[256] = {0};
	int64_t self[256] = {0};
	for (size_t f = 0; f < p->nframes; f++) {
		ev[p->frames[f].kind] += p->frames[f].calls;
		self[p->frames[f].kind] += p->frames[f].self_ns;
	}
	rep_table_begin(r, "categories", "Time by category", cat_cols, 4);
	for (;;) {
		int best = -1;
		for (int k = 0; k < 256; k++)
			if ((ev[k] || self[k]) && (best < 0 || self[k] > self[best]))
				best = k;
		if (best < 0)
			break;
		const struct rep_val v[] = {
		    rep_s(stk_kind_label((uint8_t)best)), rep_i((int64_t)ev[best]),
		    rep_i(self[best]),
		    rep_f(p->self_ns ? 100.0 * (double)self[best] / (double)p->self_ns : 0)};
		rep_row(r, v);
		ev[best] = 0;
		self[best] = 0;
	}
	rep_table_end(r);
	for (size_t i = 0; i < n; i++)
		rows[i].v = rows[i].f->total_ns;
	gp_qsort(rows, n, sizeof *rows, by_value);
	op_table(r, "top_total", "Top operations by total time", rows, n, top);
	for (size_t i = 0; i < n; i++)
		rows[i].v = rows[i].f->self_ns;
	gp_qsort(rows, n, sizeof *rows, by_value);
	op_table(r, "top_self", "Top operations by self time", rows, n, top);
}

/* The stacks and the operations (every frame but the thread frames). */
struct top_state {
	struct stk_profile p;
	struct top_row *rows;
	size_t n;
};

static int top_compute(struct view *v, const struct view_source *src, struct err *e)
{
	(void)src;
	struct top_state *s = view_results_new(v, sizeof *s, e);
	if (!s)
		return ERR_NOMEM;
	struct stk_opts so = {
	    .merge_tracks = true, .gpu = v->o.stack_gpu, .profiler_span = v->o.stack_profiler_span};
	int rc = stk_build(v->t, &so, &s->p, e);
	if (rc)
		return rc;
	s->rows = malloc((s->p.nframes ? s->p.nframes : 1) * sizeof *s->rows);
	if (!s->rows)
		return err_set(e, ERR_NOMEM, "", -1, "out of memory");
	for (size_t f = 0; f < s->p.nframes; f++)
		if (s->p.frames[f].kind != STK_THREAD_KIND)
			s->rows[s->n++] = (struct top_row){.f = &s->p.frames[f]};
	return 0;
}

static void top_emit(struct view *v, struct report *r)
{
	struct top_state *s = v->priv;
	emit(r, &s->p, s->rows, s->n, v->o.top);
}

static void top_free(struct view *v)
{
	struct top_state *s = v->priv;
	if (!s)
		return;
	free(s->rows);
	stk_free(&s->p);
	free(s);
}

static const struct vo top_opts[] = {
    VIEW_OPT_TOP_20("rows in each top table (default 20; 0 = all)"),
    {.lname = "gpu",
     .api = "gpu",
     .type = VO_FLAG,
     .off = offsetof(struct view_opts, stack_gpu),
     .help = "count kernels, memcpys and memsets under the runtime call\n"
	     "that launched them (as export --gpu)"},
    {.lname = "keep-profiler-span",
     .api = "keep_profiler_span",
     .type = VO_FLAG,
     .off = offsetof(struct view_opts, stack_profiler_span),
     .help = "count the profiler's own span (\"PyTorch Profiler (0)\",\n"
	     "category Trace), left out by default (as export)"},
};

const struct view_decl view_top_decl = {
    .kind = VIEW_TOP,
    .name = "top",
    .summary = "where the time goes: counts, time by category, top operations (self, total)",
    .help_head = top_head,
    .help_tail = top_tail,
    .opts = top_opts,
    .nopts = sizeof top_opts / sizeof top_opts[0],
    .compute = top_compute,
    .emit = top_emit,
    .free = top_free,
};
