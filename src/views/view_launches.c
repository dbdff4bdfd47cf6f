/* view_launches: `gpuprof launches`, every runtime launch joined to its GPU
 * work (CPU and GPU durations, launch delay, HTA's short kernels and
 * outliers) and the ATen op -> kernel sequences with their delays
 * (hta/launches.h). */
#include <math.h>
#include <stdlib.h>

#include "core/cmp.h"
#include "core/radix.h"
#include "core/stats.h"
#include "hta/launches.h"
#include "views/view_int.h"

/* launches' own options (struct view_opts' own area) */
struct launches_opts {
	int64_t runtime_cutoff_ns; /* --runtime-cutoff */
	int64_t delay_cutoff_ns;   /* --delay-cutoff */
	bool no_memory;		   /* --no-memory */
	bool all;		   /* --all-launches */
};
_Static_assert(sizeof(struct launches_opts) <= VIEW_OWN_BYTES,
	       "launches' options fit the own area");

static const char launches_head[] =
    "Usage: gpuprof launches [options] TRACE\n"
    "\n"
    "Every runtime launch (cudaLaunchKernel, cudaMemcpyAsync, ...) joined to the GPU\n"
    "work of its correlation, with Holistic Trace Analysis' definitions: CPU\n"
    "duration, GPU duration, launch delay (GPU start - call end, at least 0);\n"
    "short kernels (GPU shorter than the call, the call at most --runtime-cutoff),\n"
    "runtime outliers (calls over it) and delay outliers (over --delay-cutoff).\n"
    "Then, per ATen operator and the kernel sequence its instances launch, how\n"
    "often, the mean delay from the op's start to its first launch and from that\n"
    "launch to its GPU start. Events are read as `gpuprof idle` reads them\n"
    "(docs/views.md, launches).\n"
    "\n"
    "Options:\n";

static const char launches_tail[] =
    "\n"
    "Examples:\n"
    "  gpuprof launches trace.json.gz\n"
    "  gpuprof launches --top 0 --table aten_ops --format csv trace.json\n"
    "  gpuprof launches --all-launches --table launches -o l.csv trace.json\n";

struct launches_res {
	struct hta_events ev;
	struct hta_launches l;
	uint32_t *by_delay; /* indexes of l.v by delay, largest first */
};

struct delay_key {
	int64_t delay;
	uint32_t i;
};

static int launches_compute(struct view *v, const struct view_source *src, struct err *e)
{
	(void)src;
	const struct launches_opts *o = view_own(&v->o);
	struct launches_res *r = view_results_new(v, sizeof *r, e);
	if (!r)
		return ERR_NOMEM;
	int rc = hta_events(v->t, &r->ev, e);
	if (rc)
		return rc;
	struct hta_launch_opts lo = {.runtime_cutoff_ns = o->runtime_cutoff_ns,
				     .delay_cutoff_ns = o->delay_cutoff_ns,
				     .memory = !o->no_memory};
	if ((rc = hta_launches(v->t, &r->ev, &lo, &r->l, e)))
		return rc;
	size_t n = r->l.n;
	struct delay_key *k = malloc((n ? n : 1) * sizeof *k);
	r->by_delay = malloc((n ? n : 1) * sizeof *r->by_delay);
	if (!k || !r->by_delay) {
		free(k);
		return err_set(e, ERR_NOMEM, "", -1, "out of memory");
	}
	for (size_t i = 0; i < n; i++)
		k[i] = (struct delay_key){r->l.v[i].delay_ns, (uint32_t)i};
	const struct rx_key key[] = {RX_KEY_DESC(struct delay_key, delay, RX_I64)};
	rc = rx_sort(k, n, sizeof *k, key, 1);
	for (size_t i = 0; i < n; i++)
		r->by_delay[i] = k[i].i;
	free(k);
	return rc ? err_set(e, ERR_NOMEM, "", -1, "out of memory") : 0;
}

static const struct rep_col stat_cols[] = {
    {"metric", "Metric", REP_STR},  {"count", "Count", REP_INT},
    {"sum_ns", "Sum", REP_DUR_NS},  {"mean_ns", "Mean", REP_FDUR_NS},
    {"p50_ns", "P50", REP_FDUR_NS}, {"p90_ns", "P90", REP_FDUR_NS},
    {"p99_ns", "P99", REP_FDUR_NS}, {"max_ns", "Max", REP_DUR_NS},
};

/* One row of the stats table; x is scratch room for n values. */
static void stat_row(struct report *rep, const char *name, const struct hta_launches *l, int which,
		     int64_t *x)
{
	size_t n = l->n;
	int64_t sum = 0;
	for (size_t i = 0; i < n; i++) {
		const struct hta_launch *p = &l->v[i];
		x[i] = which == 0 ? p->cpu_ns : which == 1 ? p->gpu_ns : p->delay_ns;
		sum += x[i];
	}
	qsort(x, n, sizeof *x, cmp_i64);
	struct rep_val row[] = {rep_s(name),
				rep_i((int64_t)n),
				rep_i(sum),
				n ? rep_f((double)sum / (double)n) : rep_null(),
				n ? rep_f(stats_quantile(x, n, 0.5)) : rep_null(),
				n ? rep_f(stats_quantile(x, n, 0.9)) : rep_null(),
				n ? rep_f(stats_quantile(x, n, 0.99)) : rep_null(),
				n ? rep_i(x[n - 1]) : rep_null()};
	rep_row(rep, row);
}

static const struct rep_col launch_cols[] = {
    {"correlation", "Correlation", REP_INT},
    {"launch", "Launch", REP_STR},
    {"kernel", "Kernel", REP_STR},
    {"cpu_duration_ns", "CPU", REP_DUR_NS},
    {"gpu_duration_ns", "GPU", REP_DUR_NS},
    {"launch_delay_ns", "Delay", REP_DUR_NS},
    {"short_kernel", "Short", REP_BOOL},
    {"runtime_outlier", "Runtime outlier", REP_BOOL},
    {"delay_outlier", "Delay outlier", REP_BOOL},
};

static void launch_table(struct report *rep, const struct trace *t, const struct launches_res *r,
			 const char *name, const char *title, bool by_delay, size_t top)
{
	rep_table_begin(rep, name, title, launch_cols, 9);
	for (size_t i = 0; i < r->l.n && (!top || i < top); i++) {
		const struct hta_launch *p = &r->l.v[by_delay ? r->by_delay[i] : i];
		struct rep_val row[] = {rep_i(p->corr),
					rep_s(tr_str(t, t->ev.name[p->cpu_row])),
					rep_s(tr_str(t, t->ev.name[p->gpu_row])),
					rep_i(p->cpu_ns),
					rep_i(p->gpu_ns),
					rep_i(p->delay_ns),
					rep_b(p->flags & HTA_SHORT),
					rep_b(p->flags & HTA_RUNTIME_OUTLIER),
					rep_b(p->flags & HTA_DELAY_OUTLIER)};
		rep_row(rep, row);
	}
	rep_table_end(rep);
}

static const struct rep_col aten_cols[] = {
    {"aten_op_name", "ATen op", REP_STR},
    {"kernel_sequence", "Kernel sequence", REP_STR},
    {"occurrence_count", "Count", REP_INT},
    {"avg_aten_op_launch_delay_ns", "Op -> launch", REP_FDUR_NS},
    {"avg_runtime_delay_ns", "Launch -> GPU", REP_FDUR_NS},
};

static void launches_emit(struct view *v, struct report *rep)
{
	const struct launches_res *r = v->priv;
	const struct launches_opts *o = view_own(&v->o);
	const struct trace *t = v->t;
	rep_kv_begin(rep, "summary", "Launches");
	rep_kv(rep, "pairs", "Launches joined to GPU work", REP_INT, rep_i((int64_t)r->l.n));
	rep_kv(rep, "short_kernels", "Short kernels", REP_INT, rep_i((int64_t)r->l.nflag[0]));
	rep_kv(rep, "runtime_outliers", "Runtime outliers", REP_INT, rep_i((int64_t)r->l.nflag[1]));
	rep_kv(rep, "delay_outliers", "Delay outliers", REP_INT, rep_i((int64_t)r->l.nflag[2]));
	rep_kv(rep, "runtime_cutoff_ns", "Runtime cut-off", REP_DUR_NS,
	       rep_i(o->runtime_cutoff_ns));
	rep_kv(rep, "delay_cutoff_ns", "Delay cut-off", REP_DUR_NS, rep_i(o->delay_cutoff_ns));
	rep_kv(rep, "memory_launches", "Memcpy/memset calls count", REP_BOOL, rep_b(!o->no_memory));
	rep_kv(rep, "launches_without_op", "Launch calls under no aten:: op", REP_INT,
	       rep_i((int64_t)r->l.launches_without_op));
	rep_kv_end(rep);
	int64_t *x = malloc((r->l.n ? r->l.n : 1) * sizeof *x);
	rep_table_begin(rep, "stats", "CPU, GPU and delay per launch", stat_cols, 8);
	if (x) {
		stat_row(rep, "cpu_duration", &r->l, 0, x);
		stat_row(rep, "gpu_duration", &r->l, 1, x);
		stat_row(rep, "launch_delay", &r->l, 2, x);
	}
	rep_table_end(rep);
	free(x);
	launch_table(rep, t, r, "top_delays", "Largest launch delays", true, v->o.top);
	rep_table_begin(rep, "aten_ops", "ATen ops and their kernel sequences", aten_cols, 5);
	for (size_t i = 0; i < r->l.naten && (!v->o.top || i < v->o.top); i++) {
		const struct hta_aten_row *a = &r->l.aten[i];
		struct rep_val row[] = {rep_s(tr_str(t, a->op_name)), rep_s(a->sequence),
					rep_i((int64_t)a->count), rep_f(a->op_delay_ns),
					rep_f(a->rt_delay_ns)};
		rep_row(rep, row);
	}
	rep_table_end(rep);
	if (o->all)
		launch_table(rep, t, r, "launches", "Every launch (HTA's order)", false, 0);
}

static void launches_free(struct view *v)
{
	struct launches_res *r = v->priv;
	if (!r)
		return;
	hta_launches_free(&r->l);
	hta_events_free(&r->ev);
	free(r->by_delay);
	free(r);
}

static const struct vo launches_opts_decl[] = {
    VIEW_OPT_TOP_20("rows of top_delays and aten_ops (default 20; 0 = all)"),
    {.lname = "runtime-cutoff",
     .api = "runtime_cutoff_ns",
     .type = VO_TIME,
     .off = VIEW_OWN_OFF(struct launches_opts, runtime_cutoff_ns),
     .metavar = "TIME",
     .def = "50us",
     .help = "a call longer than TIME is a runtime outlier; a short kernel's\n"
	     "call is at most TIME (default 50us, HTA's runtime_cutoff)"},
    {.lname = "delay-cutoff",
     .api = "delay_cutoff_ns",
     .type = VO_TIME,
     .off = VIEW_OWN_OFF(struct launches_opts, delay_cutoff_ns),
     .metavar = "TIME",
     .def = "100us",
     .help = "a launch delay over TIME is an outlier (default 100us,\n"
	     "HTA's launch_delay_cutoff)"},
    {.lname = "no-memory",
     .api = "no_memory",
     .type = VO_FLAG,
     .off = VIEW_OWN_OFF(struct launches_opts, no_memory),
     .help = "leave cudaMemcpyAsync and cudaMemsetAsync out of the launches\n"
	     "(HTA's include_memory_events=False)"},
    {.lname = "all-launches",
     .api = "all_launches",
     .type = VO_FLAG,
     .off = VIEW_OWN_OFF(struct launches_opts, all),
     .help = "add the table of every launch, in HTA's order"},
};

const struct view_decl view_launches_decl = {
    .kind = VIEW_LAUNCHES,
    .name = "launches",
    .summary = "every launch joined to its GPU work: delays, outliers, aten op -> kernels",
    .help_head = launches_head,
    .help_tail = launches_tail,
    .opts = launches_opts_decl,
    .nopts = sizeof launches_opts_decl / sizeof launches_opts_decl[0],
    .compute = launches_compute,
    .emit = launches_emit,
    .free = launches_free,
};
