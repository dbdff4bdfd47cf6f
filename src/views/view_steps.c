/* view_steps: `gpuprof steps` and GET /api/file/ID/steps, one row per
 * training step and where its time went (src/tbprof/steps.h), then how the
 * steps were found. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tbprof/steps.h"
#include "views/view_int.h"

static const char steps_head[] =
    "Usage: gpuprof steps [options] TRACE\n"
    "\n"
    "One row per training step: its name (N of ProfilerStep#N), start and end\n"
    "(ns, on the trace's clock) and the time breakdown of the step, as the\n"
    "PyTorch profiler's TensorBoard plugin (torch-tb-profiler) computes it:\n"
    "Kernel, Memcpy, Memset, Communication, Runtime, DataLoader, CPU Exec and\n"
    "Other, in that priority order (a moment counts for the first part busy at\n"
    "that moment, so the parts add up to the step's Total). A table\n"
    "'steps_average' holds the mean of each part over the steps.\n"
    "\n"
    "Steps come from ProfilerStep#N events; a step is stretched to the end of\n"
    "the GPU work launched from inside it and starts no earlier than the\n"
    "previous step's end; trailing steps that launched no GPU work (or much\n"
    "less than the step before) are dropped, as the profiler probably missed\n"
    "their kernels. A trace without ProfilerStep events has one step '0' over\n"
    "its CPU operators. Communication is the kernels of the collective ops\n"
    "nccl:/gloo: broadcast, reduce, all_reduce, all_gather, reduce_scatter.\n"
    "A section 'step_detection' says how the steps were found.\n"
    "\n"
    "CSV/JSON columns: step, start_ns, end_ns, kernel_ns, memcpy_ns, memset_ns,\n"
    "communication_ns, runtime_ns, dataloader_ns, cpu_exec_ns, other_ns,\n"
    "total_ns; steps_average: kernel_ns .. total_ns (rounded to whole ns).\n"
    "start_ns and end_ns count from the trace's start (the first event:\n"
    "first_ts_ns of `gpuprof info`, trace_start_ns in step_detection); with\n"
    "--tb-compat they are on the trace's clock, as torch-tb-profiler's.\n"
    "\n"
    "Options:\n";

static const char steps_tail[] =
    "\n"
    "Examples:\n"
    "  gpuprof steps run/worker0.pt.trace.json.gz\n"
    "  gpuprof steps --tb-compat --format csv trace.json > steps.csv\n";

static const struct vo steps_opts[] = {
    VIEW_OPT_TB_COMPAT("reproduce torch-tb-profiler exactly, quirks included:\n"
		       "gpu_user_annotation copies of ProfilerStep#N become extra\n"
		       "(duplicate or empty) steps and GPU annotation ranges count\n"
		       "as CPU Exec. By default gpu_user_annotation events are\n"
		       "left out. See docs/tb-compat.md."),
};

static const struct rep_col step_cols[] = {{"step", "Step", REP_STR},
					   {"start_ns", "Start (ns)", REP_INT},
					   {"end_ns", "End (ns)", REP_INT},
#define X(id, key, title) {key "_ns", title, REP_DUR_NS},
					   ST_PARTS(X)
#undef X
};
#define NSTEP_COLS ((int)(sizeof step_cols / sizeof step_cols[0]))
#define NSTEP_TIME 3 /* step, start_ns, end_ns: not in steps_average */

static void steps_emit(struct view *vw, struct report *r)
{
	const struct st_result *s = vw->priv;
	bool compat = vw->o.tb_compat;
	/* the trace's start is the origin; tb's own numbers are on its clock */
	int64_t t0 = compat ? 0 : view_trace_start(vw->t);
	rep_table_begin(r, "steps", "Steps (time breakdown)", step_cols, NSTEP_COLS);
	struct rep_val v[NSTEP_COLS];
	char name[32];
	for (size_t i = 0; i < s->n; i++) {
		const struct st_step *st = &s->steps[i];
		snprintf(name, sizeof name, "%lld", (long long)st->number);
		v[0] = rep_s(name);
		v[1] = rep_i(st->start - t0);
		v[2] = rep_i(st->end - t0);
		for (int k = 0; k < ST_NPARTS; k++)
			v[3 + k] = rep_i(st->cost[k]);
		rep_row(r, v);
	}
	rep_table_end(r);
	rep_table_begin(r, "steps_average", "Average step", step_cols + NSTEP_TIME,
			NSTEP_COLS - NSTEP_TIME);
	for (int k = 0; s->n && k < ST_NPARTS; k++)
		v[k] = rep_i(st_avg_ns(s, (enum st_part)k));
	if (s->n)
		rep_row(r, v);
	rep_table_end(r);
	rep_kv_begin(r, "step_detection", "Step detection");
	rep_kv(r, "mode", "Mode", REP_STR, rep_s(compat ? "tb-compat" : "default"));
	char t0s[32];
	rep_kv(r, "trace_start_ns", "Trace start (ns)", REP_STR,
	       rep_s(view_trace_start_text(vw->t, t0s, sizeof t0s)));
	rep_kv(r, "source", "Steps from", REP_STR,
	       rep_s(!s->fallback ? "ProfilerStep events"
		     : s->n	  ? "no ProfilerStep: one step over the CPU operators"
				  : "no ProfilerStep and no CPU operators: no step"));
	rep_kv(r, "steps", "Steps", REP_INT, rep_i((int64_t)s->n));
	rep_kv(r, "removed_tail_steps", "Tail steps removed", REP_INT,
	       rep_i((int64_t)(s->host_steps - s->n)));
	rep_kv(r, "device_adjusted", "Stretched to GPU work", REP_BOOL, rep_b(s->device_adjusted));
	rep_kv(r, "has_kernel", "Has kernels", REP_BOOL, rep_b(s->has_kernel));
	rep_kv(r, "has_runtime", "Has runtime calls", REP_BOOL, rep_b(s->has_runtime));
	rep_kv(r, "has_memcpy_or_memset", "Has memcpy/memset", REP_BOOL,
	       rep_b(s->has_memcpy_or_memset));
	rep_kv(r, "has_communication", "Has communication", REP_BOOL, rep_b(s->has_communication));
	rep_kv_end(r);
}

/* The view's results (its priv): a copy of the session's steps, which
 * --step cuts to the rows it names (each the row the full table shows: a
 * step's start depends on the one before). */
static int steps_compute(struct view *v, const struct view_source *src, struct err *e)
{
	(void)src;
	struct st_result *s = view_results_new(v, sizeof *s, e);
	const struct st_result *all;
	if (!s)
		return ERR_NOMEM;
	int rc = ses_steps(v->ses, v->o.tb_compat, &all, e);
	if (rc)
		return rc;
	*s = *all;
	s->steps = malloc((all->n ? all->n : 1) * sizeof *all->steps);
	if (!s->steps)
		return err_set(e, ERR_NOMEM, v->t->path, -1, "out of memory");
	if (all->n)
		memcpy(s->steps, all->steps, all->n * sizeof *all->steps);
	if (!v->o.only_steps)
		return 0;
	size_t k = 0;
	memset(s->sum, 0, sizeof s->sum);
	for (size_t i = 0; i < s->n; i++) {
		if (s->steps[i].number < v->o.step_lo || s->steps[i].number > v->o.step_hi)
			continue;
		s->steps[k] = s->steps[i];
		for (int p = 0; p < ST_NPARTS; p++)
			s->sum[p] += s->steps[k].cost[p];
		k++;
	}
	if (!k)
		rc = err_set(e, ERR_USAGE, v->t->path, -1, "--step: no step %s",
			     v->o.step_text ? v->o.step_text : "in that range");
	s->host_steps -= s->n - k; /* keep "removed tail steps" about the trace */
	s->n = k;
	return rc;
}

static void steps_free(struct view *v)
{
	struct st_result *s = v->priv;
	if (!s)
		return;
	st_free(s);
	free(s);
}

const struct view_decl view_steps_decl = {
    .kind = VIEW_STEPS,
    .name = "steps",
    .summary = "training steps and their time breakdown (Kernel, Memcpy, ..., Other)",
    .help_head = steps_head,
    .help_tail = steps_tail,
    .opts = steps_opts,
    .nopts = VIEW_NC(steps_opts),
    .flags = VIEW_STEP_ROWS,
    .compute = steps_compute,
    .emit = steps_emit,
    .free = steps_free,
};
