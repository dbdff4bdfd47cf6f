/* advice: summary's rules over the GPU waits analyses; see advice.h. */
#include "views/advice.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hta/counters.h"
#include "hta/critpath.h"
#include "hta/flops.h"
#include "hta/idle.h"
#include "hta/launches.h"
#include "hta/select.h"
#include "hta/stepseq.h"
#include "hta/sync.h"
#include "report/report.h"
#include "views/flops_calls.h"

/* The thresholds (docs/views.md defines each number). */
#define ADV_IDLE_RATIO 0.20	 /* a stream's idle time over its span */
#define ADV_SHORT_SHARE 0.50	 /* short kernels over launches */
#define ADV_DELAY_SHARE 0.05	 /* delay outliers over launches */
#define ADV_MIN_LAUNCHES 10	 /* the launch rules need this many launches */
#define ADV_SYNC_SHARE 0.05	 /* host time blocked over the trace's span */
#define ADV_GEMM_PEAK_SHARE 0.30 /* the top GEMM's TFLOP/s over the GPU's peak */
#define ADV_QUEUE_SHARE 0.05	 /* a stream's time at a full launch queue over the trace */
#define ADV_CP_CPU_SHARE 0.50	 /* the first step's critical path on the CPU */
#define ADV_SEQ_STEP_SHARE 0.50	 /* steps launching the most frequent sequence */
#define ADV_SEQ_MIN_STEPS 3	 /* ... at least this many */
#define ADV_SEQ_MIN_LEN 3	 /* launches a step needs to count (HTA's min_pattern_len) */

/* The defaults of `gpuprof idle` and `gpuprof launches` (HTA's). */
#define ADV_KERNEL_WAIT_NS 30000
#define ADV_RUNTIME_CUTOFF_NS 50000
#define ADV_DELAY_CUTOFF_NS 100000

/* The analyses the rules read, computed once. A new analysis adds its
 * result here, computes it in adv_start or adv_finish, and its rules to
 * the table below. */
struct adv_in {
	const struct trace *t;
	struct hta_events ev;
	struct hta_idle idle;
	struct hta_launches launches;
	struct hta_sync sync;
	struct fc_table flops;
	struct hta_counters counters;
	struct hta_stepseq seq; /* the steps' launch sequences */
	struct cp cp;		/* the first step's critical path */
	bool has_cp;		/* (a trace without steps, or a graph HTA refuses: none) */
	int64_t span_ns;	/* the trace's first start .. last end */
};

typedef int (*adv_rule_fn)(const struct adv_in *in, const char *id, struct ov_result *out);

static void dur(char *buf, size_t n, int64_t ns)
{
	rep_fmt_dur(buf, n, ns);
}

/* The stream whose idle time over its span is largest above the threshold,
 * with host wait the largest category: the CPU did not enqueue work in
 * time. */
static int rule_idle_host_wait(const struct adv_in *in, const char *id, struct ov_result *out)
{
	const struct hta_idle *d = &in->idle;
	int64_t best_stream = 0, best_idle = 0, best_host = 0, best_span = 0;
	double best = 0;
	for (size_t i = 0; i < d->nrows;) {
		int64_t stream = d->rows[i].stream, sum = 0, cat[HTA_IDLE_NCAT] = {0};
		for (; i < d->nrows && d->rows[i].stream == stream; i++) {
			sum += d->rows[i].idle_ns;
			cat[d->rows[i].cat] = d->rows[i].idle_ns;
		}
		int64_t lo = INT64_MAX, hi = INT64_MIN;
		for (size_t k = 0; k < in->ev.n; k++)
			if (in->ev.v[k].stream == stream && in->ev.v[k].kernel_cat) {
				lo = in->ev.v[k].ts < lo ? in->ev.v[k].ts : lo;
				hi = in->ev.v[k].end > hi ? in->ev.v[k].end : hi;
			}
		if (hi <= lo || sum <= 0)
			continue;
		double ratio = (double)sum / (double)(hi - lo);
		bool host = cat[HTA_HOST_WAIT] > cat[HTA_KERNEL_WAIT] &&
			    cat[HTA_HOST_WAIT] > cat[HTA_IDLE_OTHER];
		if (host && ratio > ADV_IDLE_RATIO && ratio > best) {
			best = ratio;
			best_stream = stream;
			best_idle = sum;
			best_host = cat[HTA_HOST_WAIT];
			best_span = hi - lo;
		}
	}
	if (best == 0)
		return 0;
	char idle[32], span[32], host[32];
	dur(idle, sizeof idle, best_idle);
	dur(span, sizeof span, best_span);
	dur(host, sizeof host, best_host);
	return ov_add_rec(out, id,
			  "GPU stream %lld is idle %.1f%% of its span (%s of %s), mostly host "
			  "wait (%s, %.1f%% of the idle time: the next kernel's launch began "
			  "after the previous work had ended): the CPU thread is launch-bound. "
			  "Fewer, larger kernels (fusion, torch.compile) or CUDA graphs would "
			  "keep the GPU fed; 'gpuprof idle' and 'gpuprof launches' show where.",
			  (long long)best_stream, 100 * best, idle, span, host,
			  100.0 * (double)best_host / (double)best_idle);
}

/* Launches whose kernel ran shorter than its launch call took. */
static int rule_short_kernels(const struct adv_in *in, const char *id, struct ov_result *out)
{
	const struct hta_launches *l = &in->launches;
	size_t n = l->nflag[0];
	if (l->n < ADV_MIN_LAUNCHES || (double)n <= ADV_SHORT_SHARE * (double)l->n)
		return 0;
	return ov_add_rec(out, id,
			  "%.1f%% of the kernel launches (%zu of %zu) are short kernels: the "
			  "GPU ran each for less time than the CPU took to launch it. CUDA "
			  "graphs (torch.compile mode=\"reduce-overhead\") or kernel fusion would "
			  "cut the launch overhead; 'gpuprof launches' lists them.",
			  100.0 * (double)n / (double)l->n, n, l->n);
}

/* Launches whose kernel started long after the launch call ended. */
static int rule_delay_outliers(const struct adv_in *in, const char *id, struct ov_result *out)
{
	const struct hta_launches *l = &in->launches;
	size_t n = l->nflag[2];
	if (l->n < ADV_MIN_LAUNCHES || !n || (double)n < ADV_DELAY_SHARE * (double)l->n)
		return 0;
	int64_t mx = 0;
	for (size_t i = 0; i < l->n; i++)
		mx = l->v[i].delay_ns > mx ? l->v[i].delay_ns : mx;
	char cut[32], big[32];
	dur(cut, sizeof cut, ADV_DELAY_CUTOFF_NS);
	dur(big, sizeof big, mx);
	return ov_add_rec(out, id,
			  "%.1f%% of the kernel launches (%zu of %zu) started more than %s after "
			  "their launch call ended (at most %s): the GPU's queue is backed up "
			  "behind earlier work or the stream waits on another; 'gpuprof "
			  "launches' sorts them by delay.",
			  100.0 * (double)n / (double)l->n, n, l->n, cut, big);
}

/* Host time blocked on the device, with the site that blocks most. */
static int rule_sync_time(const struct adv_in *in, const char *id, struct ov_result *out)
{
	const struct hta_sync *s = &in->sync;
	if (in->span_ns <= 0 || !s->nsites ||
	    (double)s->blocked_ns <= ADV_SYNC_SHARE * (double)in->span_ns)
		return 0;
	const struct hta_sync_site *top = NULL;
	for (size_t i = 0; i < s->nsites && !top; i++)
		if (s->sites[i].kind != HTA_STREAM_WAIT)
			top = &s->sites[i];
	if (!top)
		return 0;
	const struct trace *t = in->t;
	const char *op = top->op_name != TR_NONE ? tr_str(t, top->op_name) : "no operator";
	const char *pat = hta_sync_patterns[top->pattern];
	char blocked[32], site[32];
	dur(blocked, sizeof blocked, s->blocked_ns);
	dur(site, sizeof site, top->total_ns);
	return ov_add_rec(out, id,
			  "The host blocks on the GPU %.1f%% of the trace's span (%s in %zu "
			  "call%s); most at %s under %s%s%s%s: %s in %zu call%s. Each such call "
			  "stalls the CPU until the GPU catches up: keep the values on the GPU "
			  "or read them less often; 'gpuprof sync' lists the sites.",
			  100.0 * (double)s->blocked_ns / (double)in->span_ns, blocked, s->blocking,
			  s->blocking == 1 ? "" : "s", tr_str(t, top->call_name), op,
			  *pat ? " (" : "", pat, *pat ? ")" : "", site, top->count,
			  top->count == 1 ? "" : "s");
}

/* The GEMM row (operator, shape, dtype) with the most GPU time, when its
 * achieved rate is far under the GPU's dense peak for its dtype. */
static int rule_gemm_efficiency(const struct adv_in *in, const char *id, struct ov_result *out)
{
	const struct trace *t = in->t;
	const char *gpu =
	    t->meta.ndevices && t->meta.devices[0].name ? tr_str(t, t->meta.devices[0].name) : NULL;
	const struct hta_gpu_peak *peak = hta_gpu_peak(gpu);
	const struct fc_row *w = NULL;
	for (size_t i = 0; i < in->flops.nrows && !w; i++)
		if (in->flops.calls[in->flops.rows[i].first].p.cat == HTA_OP_GEMM)
			w = &in->flops.rows[i];
	if (!peak || !w || isnan(w->tflops_mean))
		return 0;
	const struct fc_call *c = &in->flops.calls[w->first];
	double p = peak->tflops[c->p.dtype];
	if (!(p > 0) || w->tflops_mean >= ADV_GEMM_PEAK_SHARE * p)
		return 0;
	char time[32];
	dur(time, sizeof time, w->gpu_sum);
	return ov_add_rec(out, id,
			  "The GEMM with the most GPU time, %s (%s, %s; %zu call%s, %s), reaches "
			  "%.1f TFLOP/s on average, %.1f%% of the %s's dense %s peak (%.1f "
			  "TFLOP/s): check its dtype and shapes (dimensions multiples of 16, "
			  "larger batches, fewer small GEMMs); 'gpuprof flops' has the "
			  "roofline.",
			  c->name, c->p.params, c->p.dtype_name, w->n, w->n == 1 ? "" : "s", time,
			  w->tflops_mean, 100 * w->tflops_mean / p, peak->label, c->p.dtype_name,
			  p);
}

/* Whether rule id has added its recommendation to out. */
static bool fired(const struct ov_result *out, const char *id)
{
	for (size_t i = 0; i < out->nrecs; i++)
		if (out->rules[i] && !strcmp(out->rules[i], id))
			return true;
	return false;
}

/* After a launch rule fired: the steps that launch one same sequence, a
 * CUDA graph candidate, with the launch calls' time it would save. */
static int rule_kernel_sequences(const struct adv_in *in, const char *id, struct ov_result *out)
{
	const struct hta_stepseq *q = &in->seq;
	if ((!fired(out, "idle_host_wait") && !fired(out, "short_kernels")) ||
	    q->count < ADV_SEQ_MIN_STEPS ||
	    (double)q->count < ADV_SEQ_STEP_SHARE * (double)q->steps)
		return 0;
	const struct trace *t = in->t;
	char per[32], all[32], saved[32], gpu[32];
	dur(per, sizeof per, q->cpu_ns / (int64_t)q->count);
	dur(all, sizeof all, q->cpu_ns);
	dur(saved, sizeof saved, q->cpu_ns - q->cpu_ns / (int64_t)q->len);
	dur(gpu, sizeof gpu, q->gpu_ns / (int64_t)q->count);
	return ov_add_rec(out, id,
			  "%zu of the %zu steps with %d launches or more launch the same "
			  "sequence of %zu (%s first, %s last; %s of GPU time a step): their "
			  "launch calls take %s a step on the CPU (%s in all). Captured as one "
			  "CUDA graph (torch.cuda.CUDAGraph, torch.compile "
			  "mode=\"reduce-overhead\") a step would take one launch instead of "
			  "%zu, saving about %s of launch overhead over these steps; 'gpuprof "
			  "sequences' lists the sequences.",
			  q->count, q->steps, ADV_SEQ_MIN_LEN, q->len, tr_str(t, q->first),
			  tr_str(t, q->last), gpu, per, all, q->len, saved);
}

/* The stream that spends most time with its launch queue full (HTA's
 * max_queue_length launches outstanding): the CPU waits for the GPU. */
static int rule_queue_full(const struct adv_in *in, const char *id, struct ov_result *out)
{
	const struct hta_counters *c = &in->counters;
	const struct hta_ql_stream *best = NULL;
	for (size_t i = 0; i < c->nstreams; i++)
		if (c->streams[i].full && (!best || c->streams[i].blocked_ns > best->blocked_ns))
			best = &c->streams[i];
	if (!best || c->trace_ns <= 0 ||
	    (double)best->blocked_ns <= ADV_QUEUE_SHARE * (double)c->trace_ns)
		return 0;
	char blocked[32];
	dur(blocked, sizeof blocked, best->blocked_ns);
	return ov_add_rec(out, id,
			  "GPU stream %lld's launch queue is full (%d launches outstanding) "
			  "%.1f%% of the trace (%s): the CPU waits for the GPU to drain it, so "
			  "the GPU's own work is the bottleneck, not the launches; 'gpuprof "
			  "counters' has the queue lengths.",
			  (long long)best->stream, HTA_MAX_QUEUE_LENGTH,
			  100.0 * (double)best->blocked_ns / (double)c->trace_ns, blocked);
}

/* The first step's critical path, when most of it is CPU-bound operators
 * and launch overhead: faster kernels would not shorten the step. */
static int rule_critical_path_cpu(const struct adv_in *in, const char *id, struct ov_result *out)
{
	const struct cp *c = &in->cp;
	/* without cuda_sync events (PyTorch < 2.1) the graph has no GPU -> CPU
	 * edge, and a path that never waits for the GPU says nothing */
	if (!in->has_cp || !c->has_sync || c->path_ns <= 0)
		return 0;
	int64_t cpu = c->bound_ns[CP_B_CPU], launch = c->bound_ns[CP_B_LAUNCH];
	double share = (double)(cpu + launch) / (double)c->path_ns;
	if (share <= ADV_CP_CPU_SHARE)
		return 0;
	char path[32];
	dur(path, sizeof path, c->path_ns);
	return ov_add_rec(
	    out, id,
	    "The critical path of the first profiled step (%s) is %.1f%% on the CPU: %.1f%% "
	    "CPU-bound operators and %.1f%% kernel launch overhead, against %.1f%% GPU "
	    "compute. Faster kernels would not shorten this step: cut the CPU's work "
	    "(Python overhead, data preparation) or its launches (CUDA graphs, "
	    "torch.compile); 'gpuprof critical-path' lists the path.",
	    path, 100 * share, 100.0 * (double)cpu / (double)c->path_ns,
	    100.0 * (double)launch / (double)c->path_ns,
	    100.0 * (double)c->bound_ns[CP_B_COMPUTE] / (double)c->path_ns);
}

/* The rules, in the order their recommendations come (after tb's). */
static const struct {
	const char *id;
	adv_rule_fn fn;
} adv_rules[] = {
    {"idle_host_wait", rule_idle_host_wait},
    {"short_kernels", rule_short_kernels},
    {"kernel_sequences", rule_kernel_sequences},
    {"launch_delay_outliers", rule_delay_outliers},
    {"sync_time", rule_sync_time},
    {"gemm_efficiency", rule_gemm_efficiency},
    {"queue_full", rule_queue_full},
    {"critical_path_cpu", rule_critical_path_cpu},
};

struct adv {
	struct ses *ses;
	struct adv_in in;
	struct ses_side job; /* the critical path, on the side thread */
	bool queued, joined; /* job given to ses_side_run; waited for */
	struct cp_opts cp_opts;
	int cp_rc;
};

/* The side job: the critical path of the first step (it reads the events
 * and the trace only). It runs after the operator tree that the summary
 * queued first; the counters are the main thread's (adv_finish), which
 * balances the two threads (on a 1 GB trace the tree and the path took
 * 1.65 s on the side while the main thread's share took 0.72 s). */
static void adv_side(void *arg)
{
	struct adv *a = arg;
	struct err ce = {0};
	a->cp_rc = cp_compute(a->in.t, &a->cp_opts, &a->in.cp, &ce);
}

/* Waits for the side job (once); its error, as the main thread's own. */
static int adv_join(struct adv *a, struct err *e)
{
	if (!a->queued || a->joined)
		return 0;
	ses_side_wait(a->ses, &a->job);
	a->joined = true;
	/* no step, or a graph HTA refuses: no critical path, no rule */
	a->in.has_cp = a->cp_rc == 0;
	if (a->cp_rc == ERR_NOMEM)
		return err_set(e, ERR_NOMEM, a->in.t->path, -1, "out of memory");
	return 0;
}

void adv_free(struct adv *a)
{
	if (!a)
		return;
	struct err e = {0};
	adv_join(a, &e); /* a failure before adv_finish: the job may still run */
	fc_free(&a->in.flops);
	if (a->in.has_cp)
		cp_free(&a->in.cp);
	hta_counters_free(&a->in.counters);
	hta_sync_free(&a->in.sync);
	hta_launches_free(&a->in.launches);
	hta_idle_free(&a->in.idle);
	hta_events_free(&a->in.ev);
	free(a);
}

int adv_start(struct ses *s, const struct trace *t, struct adv **out, struct err *e)
{
	struct adv *a = calloc(1, sizeof *a);
	*out = a;
	if (!a)
		return err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
	a->ses = s;
	struct adv_in *in = &a->in;
	in->t = t;
	in->span_ns = t->min_ts <= t->max_end ? t->max_end - t->min_ts : 0;
	const struct hta_idle_opts io = {.kernel_wait_ns = ADV_KERNEL_WAIT_NS};
	const struct hta_launch_opts lo = {.runtime_cutoff_ns = ADV_RUNTIME_CUTOFF_NS,
					   .delay_cutoff_ns = ADV_DELAY_CUTOFF_NS,
					   .memory = true,
					   .skip_aten = true};
	const struct tr_links *links;
	int rc = hta_events(t, &in->ev, e);
	if (rc)
		return rc;
	/* the critical path needs the events only: beside the
	 * rest, waited for in adv_finish (the summary's tb analyses between) */
	a->cp_opts =
	    (struct cp_opts){.annotation = "ProfilerStep", .instance = 0, .events = &in->ev};
	a->job = (struct ses_side){.fn = adv_side, .arg = a};
	a->queued = true;
	ses_side_run(s, &a->job);
	rc = hta_idle(&in->ev, &io, &in->idle, e);
	if (!rc)
		rc = hta_launches(t, &in->ev, &lo, &in->launches, e);
	if (!rc)
		rc = hta_stepseq(t, &in->ev, &in->launches, ADV_SEQ_MIN_LEN, &in->seq, e);
	if (!rc)
		rc = ses_links(s, true, &links, e);
	if (!rc)
		rc = hta_sync(t, links, &in->sync, e);
	return rc;
}

int adv_finish(struct adv *a, struct ov_result *ov, struct err *e)
{
	const struct trace *t = a->in.t;
	const struct optree *tree;
	int rc = hta_counters(t, &a->in.ev, HTA_MAX_QUEUE_LENGTH, &a->in.counters, e);
	if (!rc)
		rc = adv_join(a, e);
	if (!rc)
		rc = ses_tree(a->ses, false, &tree, e);
	if (!rc)
		rc = fc_build(t, tree, &a->in.flops, e);
	for (size_t i = 0; !rc && i < sizeof adv_rules / sizeof adv_rules[0]; i++)
		if (adv_rules[i].fn(&a->in, adv_rules[i].id, ov))
			rc = err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
	return rc;
}
