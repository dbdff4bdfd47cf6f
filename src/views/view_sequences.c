/* view_sequences: `gpuprof sequences`, the frequent kernel sequences under
 * each instance of an operator (or each step), counted with their CPU and
 * GPU time (hta/sequences.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hta/sequences.h"
#include "views/view_int.h"

/* sequences' own options (struct view_opts' own area) */
struct sequences_opts {
	const char *op;	     /* --operator */
	size_t min_len;	     /* --min-length */
	bool show_instances; /* --show-instances */
};
_Static_assert(sizeof(struct sequences_opts) <= VIEW_OWN_BYTES,
	       "sequences' options fit the own area");

static const char sequences_head[] =
    "Usage: gpuprof sequences [options] TRACE\n"
    "\n"
    "Frequent kernel sequences, with Holistic Trace Analysis' definitions\n"
    "(get_frequent_cuda_kernel_sequences): under each instance of an operator\n"
    "(the shallowest events whose name contains --operator; without it the\n"
    "ProfilerStep#N steps), the sequence of the kernels, memcpys, memsets and\n"
    "syncs it launches, by start. Instances with the same operator name and\n"
    "sequence form a pattern, written as HTA writes it (the names joined with\n"
    "'|'), counted with the instances' CPU time and their device events' GPU\n"
    "time; the most frequent first: candidates for CUDA graphs and fusion.\n"
    "Events are read as `gpuprof idle` reads them (docs/views.md, sequences).\n"
    "\n"
    "Options:\n";

static const char sequences_tail[] =
    "\n"
    "Examples:\n"
    "  gpuprof sequences --operator aten::linear trace.json.gz\n"
    "  gpuprof sequences --top 0 --format csv --table sequences trace.json\n"
    "  gpuprof trace overlay sequences --operator aten::linear trace.json -o out.json\n";

struct sequences_res {
	struct hta_events ev;
	struct hta_seqs s;
};

static int sequences_compute(struct view *v, const struct view_source *src, struct err *e)
{
	(void)src;
	const struct sequences_opts *o = view_own(&v->o);
	struct sequences_res *r = view_results_new(v, sizeof *r, e);
	if (!r)
		return ERR_NOMEM;
	int rc = hta_events(v->t, &r->ev, e);
	if (rc)
		return rc;
	struct hta_seq_opts so = {.op = o->op, .min_len = o->min_len};
	return hta_sequences(v->t, &r->ev, &so, &r->s, e);
}

static const struct rep_col seq_cols[] = {
    {"id", "Id", REP_INT},
    {"pattern", "Pattern", REP_STR},
    {"length", "Kernels", REP_INT},
    {"count", "Count", REP_INT},
    {"gpu_kernel_time_ns", "GPU kernel time", REP_DUR_NS},
    {"cpu_op_time_ns", "CPU op time", REP_DUR_NS},
    {"mean_gpu_ns", "GPU per instance", REP_FDUR_NS},
    {"mean_cpu_ns", "CPU per instance", REP_FDUR_NS},
    {"first_ts_ns", "First instance", REP_DUR_NS},
};

static const struct rep_col inst_cols[] = {
    {"ts_ns", "Start", REP_DUR_NS},	{"operator", "Operator", REP_STR},
    {"duration_ns", "CPU", REP_DUR_NS}, {"kernels", "Kernels", REP_INT},
    {"gpu_time_ns", "GPU", REP_DUR_NS}, {"pattern_id", "Pattern", REP_INT},
};

static void sequences_emit(struct view *v, struct report *rep)
{
	const struct sequences_res *r = v->priv;
	const struct sequences_opts *o = view_own(&v->o);
	const struct hta_seqs *s = &r->s;
	const struct trace *t = v->t;
	int64_t t0 = view_trace_start(t);
	size_t top = v->o.top && v->o.top < s->npat ? v->o.top : s->npat;
	char t0s[32];
	rep_kv_begin(rep, "summary", "Kernel sequences");
	rep_kv(rep, "operator", "Operator", REP_STR, rep_s(o->op ? o->op : "ProfilerStep#"));
	rep_kv(rep, "min_length", "Least kernels", REP_INT, rep_i((int64_t)o->min_len));
	rep_kv(rep, "candidates", "Events of that name", REP_INT, rep_i((int64_t)s->candidates));
	rep_kv(rep, "depth", "Their least depth", REP_INT,
	       s->candidates ? rep_i(s->depth) : rep_null());
	rep_kv(rep, "instances", "Instances", REP_INT, rep_i((int64_t)s->ninst));
	rep_kv(rep, "patterns", "Patterns", REP_INT, rep_i((int64_t)s->npat));
	rep_kv(rep, "rounded_to_us", "Times rounded to us (as HTA)", REP_BOOL,
	       rep_b(r->ev.rounded));
	rep_kv(rep, "trace_start_ns", "Trace start (ns)", REP_STR,
	       rep_s(view_trace_start_text(t, t0s, sizeof t0s)));
	rep_kv_end(rep);
	rep_table_begin(rep, "sequences", "Kernel sequences (most frequent first)", seq_cols,
			VIEW_NC(seq_cols));
	for (size_t i = 0; i < top; i++) {
		const struct hta_seq_pattern *p = &s->pat[i];
		const struct rep_val row[] = {rep_i((int64_t)i),
					      rep_s(p->text),
					      rep_i((int64_t)p->kernels),
					      rep_i((int64_t)p->count),
					      rep_i(p->gpu_ns),
					      rep_i(p->cpu_ns),
					      rep_f((double)p->gpu_ns / (double)p->count),
					      rep_f((double)p->cpu_ns / (double)p->count),
					      rep_i(s->inst[p->first].ts - t0)};
		rep_row(rep, row);
	}
	rep_table_end(rep);
	if (!o->show_instances)
		return;
	rep_table_begin(rep, "instances", "Instances of the patterns listed", inst_cols,
			VIEW_NC(inst_cols));
	for (size_t i = 0; i < s->ninst; i++) {
		const struct hta_seq_inst *x = &s->inst[i];
		if (x->pattern >= top)
			continue;
		const struct rep_val row[] = {
		    rep_i(x->ts - t0), rep_s(tr_str(t, t->ev.name[x->row])),
		    rep_i(x->dur_ns),  rep_i((int64_t)x->kernels),
		    rep_i(x->gpu_ns),  rep_i((int64_t)x->pattern)};
		rep_row(rep, row);
	}
	rep_table_end(rep);
}

/* The most the Patterns args may add to a trace: HTA writes a pattern's
 * whole text into every event of its instances, which for long sequences
 * (a step's) is the text's size times the step's events. */
#define SEQ_OVERLAY_BYTES (256ull << 20)

/* HTA's overlaid trace: every event of an instance of a listed pattern
 * (the instance, the events below it, its device events) gets "Patterns":
 * {PATTERN: COUNT} (an event is below one instance at most). */
static int sequences_overlay(const struct view *v, struct tr_overlay *o, struct err *e)
{
	const struct sequences_res *r = v->priv;
	const struct hta_seqs *s = &r->s;
	size_t top = v->o.top && v->o.top < s->npat ? v->o.top : s->npat;
	unsigned long long add = 0;
	for (size_t i = 0; i < s->ninst && add <= SEQ_OVERLAY_BYTES; i++)
		if (s->inst[i].pattern < top)
			add += (unsigned long long)s->inst[i].n *
			       (strlen(s->pat[s->inst[i].pattern].text) + 32);
	if (add > SEQ_OVERLAY_BYTES)
		return err_set(e, ERR_LIMIT, v->t->path, -1,
			       "the Patterns args would add over %llu MiB (each pattern's text on "
			       "every event of its instances); list fewer patterns (--top) or "
			       "choose a narrower --operator",
			       SEQ_OVERLAY_BYTES >> 20);
	for (size_t i = 0; i < s->ninst; i++) {
		const struct hta_seq_inst *x = &s->inst[i];
		if (x->pattern >= top)
			continue;
		const struct hta_seq_pattern *p = &s->pat[x->pattern];
		for (size_t k = x->off; k < x->off + x->n; k++) {
			tr_ov_arg(o, v->t, s->rows[k]);
			tr_ov_put(o, "\"Patterns\": {");
			tr_ov_str(o, p->text);
			tr_ov_put(o, ": %zu}", p->count);
		}
	}
	return 0;
}

static void sequences_free(struct view *v)
{
	struct sequences_res *r = v->priv;
	if (!r)
		return;
	hta_sequences_free(&r->s);
	hta_events_free(&r->ev);
	free(r);
}

/* HTA refuses an empty operator_name. */
static int nonempty(const char *name, const void *field, char *msg, size_t n)
{
	const char *const *v = field;
	if (*v && **v)
		return 0;
	snprintf(msg, n, "%s needs an operator name (or none: the steps)", name);
	return -1;
}

static const struct vo sequences_opts_decl[] = {
    {.lname = "operator",
     .api = "operator",
     .type = VO_STRING,
     .off = VIEW_OWN_OFF(struct sequences_opts, op),
     .metavar = "NAME",
     .valid = nonempty,
     .help = "the instances are the shallowest events whose name contains NAME\n"
	     "(HTA's operator_name; default: the ProfilerStep#N steps)"},
    {.lname = "min-length",
     .api = "min_length",
     .type = VO_COUNT,
     .off = VIEW_OWN_OFF(struct sequences_opts, min_len),
     .metavar = "N",
     .min = 1,
     .def = "3",
     .help = "an instance launches at least N kernels (default 3, HTA's\n"
	     "min_pattern_len)"},
    {.lname = "top",
     .sname = 'n',
     .api = "top",
     .type = VO_COUNT,
     .off = offsetof(struct view_opts, top),
     .metavar = "N",
     .def = "5",
     .help = "rows of the sequences table, and the patterns the overlaid trace\n"
	     "marks (default 5, HTA's top_k; 0 = all)"},
    {.lname = "show-instances",
     .api = "show_instances",
     .type = VO_FLAG,
     .off = VIEW_OWN_OFF(struct sequences_opts, show_instances),
     .help = "add the table of the instances of the patterns listed"},
};

const struct view_decl view_sequences_decl = {
    .kind = VIEW_SEQUENCES,
    .name = "sequences",
    .summary = "frequent kernel sequences under an operator or step, with CPU and GPU time",
    .help_head = sequences_head,
    .help_tail = sequences_tail,
    .opts = sequences_opts_decl,
    .nopts = sizeof sequences_opts_decl / sizeof sequences_opts_decl[0],
    .compute = sequences_compute,
    .emit = sequences_emit,
    .free = sequences_free,
    .overlay = sequences_overlay,
};
