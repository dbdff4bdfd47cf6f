/* view_sync: `gpuprof sync`, where the host blocks on the device: the
 * synchronizing calls by kind and by site (operator, Python frame, the
 * .item()/.cpu() patterns) (hta/sync.h). */
#include <stdlib.h>

#include "hta/sync.h"
#include "tbprof/session.h"
#include "views/view_int.h"

static const char sync_head[] =
    "Usage: gpuprof sync [options] TRACE\n"
    "\n"
    "Where the host waits for the device: cudaDeviceSynchronize,\n"
    "cudaStreamSynchronize, cudaEventSynchronize (and HIP's), synchronous copies\n"
    "and sets (cudaMemcpy, cudaMemset, and a cudaMemcpyAsync to or from pageable\n"
    "memory, which the driver performs synchronously), and the device-side waits\n"
    "of cudaStreamWaitEvent (listed, not counted as host time blocked). Per call\n"
    "site: the innermost operator and Python frame on the calling thread, and the\n"
    "Python-level pattern the operator tells (.item(), .cpu()/.to(), .nonzero()).\n"
    "\n"
    "Options:\n";

static const char sync_tail[] = "\n"
				"Examples:\n"
				"  gpuprof sync trace.json.gz\n"
				"  gpuprof sync --top 0 --table sites --format csv trace.json.gz\n";

struct sync_res {
	struct hta_sync s;
	int64_t span_ns;
};

static int sync_compute(struct view *v, const struct view_source *src, struct err *e)
{
	(void)src;
	struct sync_res *r = view_results_new(v, sizeof *r, e);
	if (!r)
		return ERR_NOMEM;
	const struct tr_links *l;
	int rc = ses_links(v->ses, true, &l, e);
	if (rc)
		return rc;
	const struct trace *t = v->t;
	r->span_ns = t->min_ts <= t->max_end ? t->max_end - t->min_ts : 0;
	return hta_sync(t, l, &r->s, e);
}

static const char *name_or(const struct trace *t, uint32_t id)
{
	return id == TR_NONE ? "" : tr_str(t, id);
}

static const struct rep_col kind_cols[] = {
    {"kind", "Kind", REP_STR},	       {"calls", "Calls", REP_INT},
    {"total_ns", "Total", REP_DUR_NS}, {"mean_ns", "Mean", REP_FDUR_NS},
    {"max_ns", "Max", REP_DUR_NS},     {"host_blocking", "Blocks the host", REP_BOOL},
};

static const struct rep_col site_cols[] = {
    {"call", "Call", REP_STR},	       {"kind", "Kind", REP_STR},
    {"operator", "Operator", REP_STR}, {"python", "Python", REP_STR},
    {"pattern", "Pattern", REP_STR},   {"calls", "Calls", REP_INT},
    {"total_ns", "Total", REP_DUR_NS}, {"max_ns", "Max", REP_DUR_NS},
};

static void sync_emit(struct view *v, struct report *rep)
{
	const struct sync_res *r = v->priv;
	const struct hta_sync *s = &r->s;
	const struct trace *t = v->t;
	rep_kv_begin(rep, "summary", "Host waits");
	rep_kv(rep, "blocking_calls", "Calls that block the host", REP_INT,
	       rep_i((int64_t)s->blocking));
	rep_kv(rep, "blocked_ns", "Host time blocked", REP_DUR_NS, rep_i(s->blocked_ns));
	rep_kv(rep, "blocked_pct", "Of the trace's span", REP_PCT,
	       r->span_ns ? rep_f(100.0 * (double)s->blocked_ns / (double)r->span_ns) : rep_null());
	rep_kv(rep, "stream_waits", "cudaStreamWaitEvent calls", REP_INT,
	       rep_i((int64_t)(s->ncalls - s->blocking)));
	rep_kv_end(rep);
	rep_table_begin(rep, "kinds", "By kind", kind_cols, 6);
	for (int k = 0; k < HTA_SYNC_NKINDS; k++) {
		size_t n = 0;
		int64_t tot = 0, mx = 0;
		for (size_t i = 0; i < s->ncalls; i++)
			if (s->calls[i].kind == k) {
				n++;
				tot += s->calls[i].dur_ns;
				mx = s->calls[i].dur_ns > mx ? s->calls[i].dur_ns : mx;
			}
		if (!n)
			continue;
		const struct rep_val row[] = {rep_s(hta_sync_kind_name((enum hta_sync_kind)k)),
					      rep_i((int64_t)n),
					      rep_i(tot),
					      rep_f((double)tot / (double)n),
					      rep_i(mx),
					      rep_b(k != HTA_STREAM_WAIT)};
		rep_row(rep, row);
	}
	rep_table_end(rep);
	rep_table_begin(rep, "sites", "By call site (largest total first)", site_cols, 8);
	for (size_t i = 0; i < s->nsites && (!v->o.top || i < v->o.top); i++) {
		const struct hta_sync_site *x = &s->sites[i];
		const struct rep_val row[] = {
		    rep_s(name_or(t, x->call_name)),
		    rep_s(hta_sync_kind_name((enum hta_sync_kind)x->kind)),
		    rep_s(name_or(t, x->op_name)),
		    rep_s(name_or(t, x->py_name)),
		    rep_s(hta_sync_patterns[x->pattern]),
		    rep_i((int64_t)x->count),
		    rep_i(x->total_ns),
		    rep_i(x->max_ns)};
		rep_row(rep, row);
	}
	rep_table_end(rep);
}

static void sync_free(struct view *v)
{
	struct sync_res *r = v->priv;
	if (!r)
		return;
	hta_sync_free(&r->s);
	free(r);
}

static const struct vo sync_opts_decl[] = {
    VIEW_OPT_TOP_20("rows of the sites table (default 20; 0 = all)"),
};

const struct view_decl view_sync_decl = {
    .kind = VIEW_SYNC,
    .name = "sync",
    .summary = "where the host waits for the device: sync calls by kind and call site",
    .help_head = sync_head,
    .help_tail = sync_tail,
    .opts = sync_opts_decl,
    .nopts = sizeof sync_opts_decl / sizeof sync_opts_decl[0],
    .compute = sync_compute,
    .emit = sync_emit,
    .free = sync_free,
};
