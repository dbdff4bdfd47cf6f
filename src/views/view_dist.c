/* view_dist: the distributed view's tables (see views/view_dist.h), moved
 * from cli/cmd_dist.c unchanged, so `gpuprof dist` and GET /api/dist write
 * the same tables from the same code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "tbprof/dist_fleet.h"
#include "views/view_dist.h"

static const struct rep_col overlap_cols[] = {
    {"worker", "Worker", REP_STR},
    {"step", "Step", REP_STR},
    {"computation_ns", "Computation", REP_DUR_NS},
    {"overlap_ns", "Overlapping", REP_DUR_NS},
    {"communication_ns", "Communication", REP_DUR_NS},
    {"other_ns", "Other", REP_DUR_NS},
};

/* overlap_average: a row per worker, the mean over its steps */
static const struct rep_col overlap_avg_cols[] = {
    {"worker", "Worker", REP_STR},
    {"computation_ns", "Computation", REP_DUR_NS},
    {"overlap_ns", "Overlapping", REP_DUR_NS},
    {"communication_ns", "Communication", REP_DUR_NS},
    {"other_ns", "Other", REP_DUR_NS},
};

/* waittime_average: a row per worker, the mean over its steps with
 * communication */
static const struct rep_col wait_avg_cols[] = {
    {"worker", "Worker", REP_STR},
    {"data_transfer_ns", "Data Transfer", REP_DUR_NS},
    {"synchronizing_ns", "Synchronizing", REP_DUR_NS},
};

static const struct rep_col wait_cols[] = {
    {"worker", "Worker", REP_STR},
    {"step", "Step", REP_STR},
    {"data_transfer_ns", "Data Transfer", REP_DUR_NS},
    {"synchronizing_ns", "Synchronizing", REP_DUR_NS},
};

static const struct rep_col op_cols[] = {
    {"worker", "Worker", REP_STR},
    {"name", "Name", REP_STR},
    {"calls", "Calls", REP_INT},
    {"bytes", "Total Size", REP_BYTES},
    {"avg_bytes", "Avg Size", REP_BYTES},
    {"latency_ns", "Total Latency", REP_DUR_NS},
    {"avg_latency_ns", "Avg Latency", REP_DUR_NS},
    {"transfer_ns", "Data Transfer", REP_DUR_NS},
    {"avg_transfer_ns", "Avg Data Transfer", REP_DUR_NS},
};

static const struct rep_col worker_cols[] = {
    {"worker", "Worker", REP_STR},
    {"file", "File", REP_STR},
    {"rank", "Rank", REP_INT},
    {"world_size", "World Size", REP_INT},
    {"backend", "Backend", REP_STR},
    {"gpus", "GPUs", REP_STR},
    {"steps", "Steps", REP_INT},
    {"comm_ops", "Collective Calls", REP_INT},
    {"has_communication", "Has Communication", REP_BOOL},
    {"unmatched_ops", "Unmatched Calls", REP_INT},
};

static const struct rep_col gpu_cols[] = {
    {"worker", "Worker", REP_STR},
    {"node", "Node", REP_STR},
    {"process", "Process", REP_STR},
    {"gpu", "GPU", REP_STR},
    {"name", "Name", REP_STR},
    {"memory_bytes", "Memory", REP_BYTES},
    {"compute_capability", "Compute Capability", REP_STR},
};

#define NCOLS(c) ((int)(sizeof c / sizeof c[0]))

static const char *str(const struct dist_result *d, uint32_t id)
{
	return strpool_get(&d->pool, id);
}

static struct rep_val int_or_null(int64_t v)
{
	return v < 0 ? rep_null() : rep_i(v);
}

struct stepkey {
	int64_t number;
	size_t idx;
};

static int cmp_stepkey(const void *x, const void *y)
{
	const struct stepkey *a = x, *b = y;
	if (a->number != b->number)
		return a->number < b->number ? -1 : 1;
	return (a->idx > b->idx) - (a->idx < b->idx);
}

/* The overlap rows of worker w: show[i] = the step whose values row i
 * prints, or SIZE_MAX for no row. By default every step. With tb_compat
 * steps sharing a number (the GPU copies of ProfilerStep#N) are one row,
 * as the plugin keys its table by step name: at the first one's place,
 * with the last one's values. */
static int overlap_rows(const struct dist_worker *w, bool compat, size_t *show)
{
	for (size_t i = 0; i < w->nsteps; i++)
		show[i] = i;
	if (!compat || w->nsteps < 2)
		return 0;
	struct stepkey *v = malloc(w->nsteps * sizeof *v);
	if (!v)
		return -1;
	for (size_t i = 0; i < w->nsteps; i++)
		v[i] = (struct stepkey){w->overlap[i].step, i};
	gp_qsort(v, w->nsteps, sizeof *v, cmp_stepkey);
	for (size_t i = 0, j; i < w->nsteps; i = j) {
		for (j = i + 1; j < w->nsteps && v[j].number == v[i].number; j++)
			show[v[j].idx] = SIZE_MAX;
		show[v[i].idx] = v[j - 1].idx;
	}
	free(v);
	return 0;
}

static int emit_overlap(struct report *r, const struct dist_result *d)
{
	rep_table_begin(r, "overlap", "Computation/Communication Overview", overlap_cols,
			NCOLS(overlap_cols));
	struct rep_val v[NCOLS(overlap_cols)];
	char step[32];
	for (size_t k = 0; d->view && k < d->n; k++) {
		const struct dist_worker *w = &d->w[k];
		size_t *show = malloc((w->nsteps ? w->nsteps : 1) * sizeof *show);
		if (!show || overlap_rows(w, d->compat, show)) {
			free(show);
			return -1;
		}
		v[0] = rep_s(str(d, w->name));
		for (size_t i = 0; i < w->nsteps; i++) {
			if (show[i] == SIZE_MAX)
				continue;
			snprintf(step, sizeof step, "%lld", (long long)w->overlap[i].step);
			v[1] = rep_s(step);
			for (int j = 0; j < 4; j++)
				v[2 + j] = rep_i(w->overlap[show[i]].v[j]);
			rep_row(r, v);
		}
		free(show);
	}
	rep_table_end(r);
	rep_table_begin(r, "overlap_average", "Computation/Communication Overview: average step",
			overlap_avg_cols, NCOLS(overlap_avg_cols));
	for (size_t k = 0; d->view && k < d->n; k++) {
		const struct dist_worker *w = &d->w[k];
		if (!w->nsteps)
			continue;
		v[0] = rep_s(str(d, w->name));
		for (int j = 0; j < 4; j++)
			v[1 + j] = rep_i(w->overlap_avg[j]);
		rep_row(r, v);
	}
	rep_table_end(r);
	return 0;
}

static void emit_wait(struct report *r, const struct dist_result *d)
{
	rep_table_begin(r, "waittime", "Synchronizing/Communication Overview", wait_cols,
			NCOLS(wait_cols));
	struct rep_val v[NCOLS(wait_cols)];
	char step[32];
	for (size_t k = 0; d->view && k < d->n; k++) {
		const struct dist_worker *w = &d->w[k];
		v[0] = rep_s(str(d, w->name));
		for (size_t i = 0; i < w->nwait; i++) {
			const struct dist_wait *x = &w->wait[i];
			snprintf(step, sizeof step, "%lld", (long long)x->step);
			v[1] = x->step == DIST_NO_STEP ? rep_null() : rep_s(step);
			v[2] = rep_i(x->transfer);
			v[3] = rep_i(x->comm - x->transfer);
			rep_row(r, v);
		}
	}
	rep_table_end(r);
	rep_table_begin(r, "waittime_average", "Synchronizing/Communication Overview: average step",
			wait_avg_cols, NCOLS(wait_avg_cols));
	for (size_t k = 0; d->view && k < d->n; k++) {
		const struct dist_worker *w = &d->w[k];
		if (!w->nwait)
			continue;
		v[0] = rep_s(str(d, w->name));
		v[1] = rep_i(w->wait_avg[0]);
		v[2] = rep_i(w->wait_avg[1]);
		rep_row(r, v);
	}
	rep_table_end(r);
}

static void emit_ops(struct report *r, const struct dist_result *d)
{
	rep_table_begin(r, "commops", "Communication Operations Stats", op_cols, NCOLS(op_cols));
	struct rep_val v[NCOLS(op_cols)];
	for (size_t k = 0; d->view && k < d->n; k++) {
		const struct dist_worker *w = &d->w[k];
		v[0] = rep_s(str(d, w->name));
		for (size_t i = 0; i < w->nops; i++) {
			const struct dist_op *o = &w->ops[i];
			v[1] = rep_s(str(d, o->name));
			v[2] = rep_i(o->calls);
			v[3] = rep_i(o->bytes);
			v[4] = rep_i(dist_avg_round(o->bytes, o->calls, false));
			v[5] = rep_i(o->latency);
			v[6] = rep_i(dist_avg_round(o->latency, o->calls, d->compat));
			v[7] = rep_i(o->transfer);
			v[8] = rep_i(dist_avg_round(o->transfer, o->calls, d->compat));
			rep_row(r, v);
		}
	}
	rep_table_end(r);
}

static void emit_workers(struct report *r, const struct dist_result *d)
{
	rep_table_begin(r, "workers", "Workers", worker_cols, NCOLS(worker_cols));
	struct rep_val v[NCOLS(worker_cols)];
	for (size_t k = 0; k < d->n; k++) {
		const struct dist_worker *w = &d->w[k];
		char gpus[256] = "";
		size_t at = 0;
		for (size_t i = 0; i < w->ngpus && at < sizeof gpus; i++)
			at += (size_t)snprintf(gpus + at, sizeof gpus - at, "%s%lld", i ? "," : "",
					       (long long)w->gpus[i].id);
		v[0] = rep_s(str(d, w->name));
		v[1] = rep_s(str(d, w->path));
		v[2] = int_or_null(w->rank);
		v[3] = int_or_null(w->world_size);
		v[4] = w->backend ? rep_s(str(d, w->backend)) : rep_null();
		v[5] = rep_s(gpus);
		v[6] = rep_i((int64_t)w->nsteps);
		v[7] = rep_i((int64_t)w->nnodes);
		v[8] = rep_b(w->has_communication);
		v[9] = rep_i((int64_t)w->unmatched);
		rep_row(r, v);
	}
	rep_table_end(r);
}

struct wname {
	const char *name;
	size_t idx;
};

static int cmp_wname(const void *x, const void *y)
{
	const struct wname *a = x, *b = y;
	int c = strcmp(a->name, b->name);
	return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

/* Worker indices in name order (the reference's sorted(..., key=worker)). */
static int sort_workers(const struct dist_result *d, size_t *idx)
{
	struct wname *v = malloc((d->n ? d->n : 1) * sizeof *v);
	if (!v)
		return -1;
	for (size_t i = 0; i < d->n; i++)
		v[i] = (struct wname){str(d, d->w[i].name), i};
	if (d->n > 1)
		gp_qsort(v, d->n, sizeof *v, cmp_wname);
	for (size_t i = 0; i < d->n; i++)
		idx[i] = v[i].idx;
	free(v);
	return 0;
}

/* The reference's gpu_info: workers by name, those with deviceProperties;
 * a name that does not split into NODE_PROCESS is its own node with the
 * next number of a counter as process. */
static int emit_gpus(struct report *r, const struct dist_result *d)
{
	size_t *idx = malloc((d->n ? d->n : 1) * sizeof *idx);
	if (!idx || sort_workers(d, idx)) {
		free(idx);
		return -1;
	}
	rep_table_begin(r, "gpus", "Device Information", gpu_cols, NCOLS(gpu_cols));
	struct rep_val v[NCOLS(gpu_cols)];
	long counter = 0;
	for (size_t k = 0; d->view && k < d->n; k++) {
		const struct dist_worker *w = &d->w[idx[k]];
		if (!w->has_device_props)
			continue;
		char node[256], proc[64], gpu[32], cc[48];
		const char *name = str(d, w->name);
		if (!dist_node_process(name, node, sizeof node, proc, sizeof proc)) {
			snprintf(node, sizeof node, "%s", name);
			snprintf(proc, sizeof proc, "%ld", counter++);
		}
		for (size_t i = 0; i < w->ngpus; i++) {
			const struct dist_gpu *g = &w->gpus[i];
			if (!g->known)
				continue;
			snprintf(gpu, sizeof gpu, "GPU%lld", (long long)g->id);
			snprintf(cc, sizeof cc, "%lld.%lld", (long long)g->cc_major,
				 (long long)g->cc_minor);
			v[0] = rep_s(name);
			v[1] = rep_s(node);
			v[2] = rep_s(proc);
			v[3] = rep_s(gpu);
			v[4] = g->name ? rep_s(str(d, g->name)) : rep_null();
			v[5] = int_or_null(g->memory);
			v[6] = g->cc_major >= 0 ? rep_s(cc) : rep_null();
			rep_row(r, v);
		}
	}
	rep_table_end(r);
	free(idx);
	return 0;
}

int dist_view_emit(struct report *r, const struct dist_result *d)
{
	if (emit_overlap(r, d))
		return -1;
	emit_wait(r, d);
	emit_ops(r, d);
	emit_workers(r, d);
	if (emit_gpus(r, d))
		return -1;
	rep_kv_begin(r, "distributed", "Distributed view");
	rep_kv(r, "mode", "Mode", REP_STR, rep_s(d->compat ? "tb-compat" : "default"));
	rep_kv(r, "workers", "Workers", REP_INT, rep_i((int64_t)d->n));
	rep_kv(r, "view", "View shown", REP_BOOL, rep_b(d->view));
	rep_kv(r, "reason", "Why not", REP_STR, d->view ? rep_null() : rep_s(d->why_not));
	rep_kv_end(r);
	return 0;
}

/* ---- the fleet tables (gpuprof dist --fleet; docs/dist.md) ---- */

static const struct rep_col straggler_cols[] = {
    {"worker", "Worker", REP_STR},
    {"rank", "Rank", REP_INT},
    {"instances", "Instances", REP_INT},
    {"arrived_last", "Arrived Last", REP_INT},
    {"others_waited_ns", "Others Waited", REP_DUR_NS},
    {"avg_others_waited_ns", "Avg Others Waited", REP_DUR_NS},
    {"waited_ns", "Waited", REP_DUR_NS},
    {"step_mean_ns", "Mean Step", REP_DUR_NS},
    {"step_time_rank", "Step Time Rank", REP_INT},
    {"late_compute_ns", "Late: Compute", REP_DUR_NS},
    {"late_input_ns", "Late: Input", REP_DUR_NS},
    {"late_launch_ns", "Late: Launch", REP_DUR_NS},
    {"cause", "Cause", REP_STR},
};

static const struct rep_col skew_cols[] = {
    {"name", "Name", REP_STR},
    {"pg", "Group", REP_STR},
    {"call", "Call", REP_INT},
    {"step", "Step", REP_STR},
    {"ranks", "Ranks", REP_INT},
    {"arrival_skew_ns", "Arrival Skew", REP_DUR_NS},
    {"exit_skew_ns", "Exit Skew", REP_DUR_NS},
    {"duration_spread_ns", "Duration Spread", REP_DUR_NS},
    {"first", "First", REP_STR},
    {"last", "Last", REP_STR},
};

static const struct rep_col skew_coll_cols[] = {
    {"name", "Name", REP_STR},
    {"pg", "Group", REP_STR},
    {"instances", "Instances", REP_INT},
    {"arrival_skew_ns", "Total Arrival Skew", REP_DUR_NS},
    {"avg_arrival_skew_ns", "Avg Arrival Skew", REP_DUR_NS},
    {"max_arrival_skew_ns", "Max Arrival Skew", REP_DUR_NS},
    {"avg_exit_skew_ns", "Avg Exit Skew", REP_DUR_NS},
    {"max_exit_skew_ns", "Max Exit Skew", REP_DUR_NS},
    {"max_duration_spread_ns", "Max Duration Spread", REP_DUR_NS},
};

static const struct rep_col bw_cols[] = {
    {"name", "Name", REP_STR},
    {"bucket_bytes", "Size Bucket", REP_BYTES},
    {"ranks", "Ranks", REP_INT},
    {"instances", "Instances", REP_INT},
    {"bytes", "Total Size", REP_BYTES},
    {"time_ns", "Transfer Time", REP_DUR_NS},
    {"algbw_gbps", "Algorithm GB/s", REP_FLOAT},
    {"bus_factor", "Bus Factor", REP_FLOAT},
    {"busbw_gbps", "Bus GB/s", REP_FLOAT},
};

static const struct rep_col balance_cols[] = {
    {"step", "Step", REP_STR},		{"ranks", "Ranks", REP_INT},
    {"min_ns", "Min", REP_DUR_NS},	{"median_ns", "Median", REP_DUR_NS},
    {"max_ns", "Max", REP_DUR_NS},	{"min_worker", "Fastest", REP_STR},
    {"max_worker", "Slowest", REP_STR},
};

static struct rep_val step_val(int64_t step, char *buf, size_t n)
{
	snprintf(buf, n, "%lld", (long long)step);
	return step == DIST_NO_STEP ? rep_null() : rep_s(buf);
}

static void emit_stragglers(struct report *r, const struct dist_result *d,
			    const struct fleet_result *f)
{
	rep_table_begin(r, "stragglers", "Stragglers", straggler_cols, NCOLS(straggler_cols));
	struct rep_val v[NCOLS(straggler_cols)];
	for (size_t i = 0; i < f->nrank; i++) {
		const struct fleet_rank *x = &f->rank[i];
		const struct dist_worker *w = &d->w[x->worker];
		v[0] = rep_s(str(d, w->name));
		v[1] = int_or_null(w->rank);
		v[2] = rep_i(x->instances);
		v[3] = rep_i(x->last);
		v[4] = rep_i(x->caused);
		v[5] = rep_i(x->last ? x->caused / x->last : 0);
		v[6] = rep_i(x->waited);
		v[7] = int_or_null(x->step_mean);
		v[8] = x->step_rank ? rep_i(x->step_rank) : rep_null();
		const char *cause = dist_fleet_cause(x);
		for (int q = 0; q < 3; q++)
			v[9 + q] = x->causes_unknown ? rep_null() : rep_i(x->late[q]);
		v[12] = cause ? rep_s(cause) : rep_null();
		rep_row(r, v);
	}
	rep_table_end(r);
}

static void emit_skew(struct report *r, const struct dist_result *d, const struct fleet_result *f,
		      size_t top)
{
	rep_table_begin(r, "skew", "Collective Skew", skew_cols, NCOLS(skew_cols));
	struct rep_val v[NCOLS(skew_cols)];
	char step[32];
	for (size_t i = 0; i < f->ninst && (!top || i < top); i++) {
		const struct fleet_inst *x = &f->inst[i];
		v[0] = rep_s(str(d, x->name));
		v[1] = x->pg ? rep_s(str(d, x->pg)) : rep_null();
		v[2] = rep_i(x->call);
		v[3] = step_val(x->step, step, sizeof step);
		v[4] = rep_i(x->ranks);
		v[5] = rep_i(x->arrival_skew);
		v[6] = rep_i(x->exit_skew);
		v[7] = rep_i(x->spread);
		v[8] = rep_s(str(d, d->w[x->first].name));
		v[9] = rep_s(str(d, d->w[x->last].name));
		rep_row(r, v);
	}
	rep_table_end(r);
	rep_table_begin(r, "skew_collectives", "Collective Skew per Collective and Process Group",
			skew_coll_cols, NCOLS(skew_coll_cols));
	for (size_t i = 0; i < f->ncoll; i++) {
		const struct fleet_coll *x = &f->coll[i];
		v[0] = rep_s(str(d, x->name));
		v[1] = x->pg ? rep_s(str(d, x->pg)) : rep_null();
		v[2] = rep_i(x->instances);
		v[3] = rep_i(x->arrival_sum);
		v[4] = rep_i(x->arrival_sum / x->instances);
		v[5] = rep_i(x->arrival_max);
		v[6] = rep_i(x->exit_sum / x->instances);
		v[7] = rep_i(x->exit_max);
		v[8] = rep_i(x->spread_max);
		rep_row(r, v);
	}
	rep_table_end(r);
}

static void emit_bandwidth(struct report *r, const struct dist_result *d,
			   const struct fleet_result *f)
{
	rep_table_begin(r, "bandwidth", "Collective Bandwidth", bw_cols, NCOLS(bw_cols));
	struct rep_val v[NCOLS(bw_cols)];
	for (size_t i = 0; i < f->nbw; i++) {
		const struct fleet_bw *x = &f->bw[i];
		double alg = (double)x->bytes / (double)x->time; /* bytes/ns = GB/s */
		v[0] = rep_s(str(d, x->name));
		v[1] = rep_i(x->bucket);
		v[2] = rep_i(x->ranks);
		v[3] = rep_i(x->instances);
		v[4] = rep_i(x->bytes);
		v[5] = rep_i(x->time);
		v[6] = rep_f(alg);
		v[7] = x->factor < 0 ? rep_null() : rep_f(x->factor);
		v[8] = x->factor < 0 ? rep_null() : rep_f(alg * x->factor);
		rep_row(r, v);
	}
	rep_table_end(r);
}

static void emit_balance(struct report *r, const struct dist_result *d,
			 const struct fleet_result *f)
{
	rep_table_begin(r, "balance", "Step Time Balance", balance_cols, NCOLS(balance_cols));
	struct rep_val v[NCOLS(balance_cols)];
	char step[32];
	for (size_t i = 0; i < f->nstep; i++) {
		const struct fleet_step *x = &f->step[i];
		v[0] = step_val(x->step, step, sizeof step);
		v[1] = rep_i(x->ranks);
		v[2] = rep_i(x->min);
		v[3] = rep_i(x->median);
		v[4] = rep_i(x->max);
		v[5] = rep_s(str(d, d->w[x->min_worker].name));
		v[6] = rep_s(str(d, d->w[x->max_worker].name));
		rep_row(r, v);
	}
	rep_table_end(r);
}

int dist_fleet_view_emit(struct report *r, const struct dist_result *d, size_t top)
{
	struct fleet_result f;
	struct err e = {0};
	if (dist_fleet(d, &f, &e))
		return -1;
	emit_stragglers(r, d, &f);
	emit_skew(r, d, &f, top);
	emit_bandwidth(r, d, &f);
	emit_balance(r, d, &f);
	dist_fleet_free(&f);
	return 0;
}
