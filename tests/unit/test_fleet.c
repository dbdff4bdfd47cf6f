/* The fleet tables' inputs that a worker computes alone (tbprof/dist:
 * each call's lead-in values, its sequence number and the numbering rule;
 * tbprof/gpumetrics' busy time per window) and the straggler causes of
 * dist_fleet, on small hand-written traces; every expected value is worked
 * out by hand in the comments (µs in the traces, ns in the checks). */
#include <stdlib.h>

#include "tbprof/dist.h"
#include "tbprof/dist_fleet.h"
#include "tbprof/gpumetrics.h"
#include "test.h"

#define US(x) ((int64_t)(x)*1000)

/* One step [0, 200]: a data loader op 0-20, a gemm kernel 30-70 (launched
 * at 22), the first all-reduce (Seq 4 in group "g") at 75 whose kernel
 * runs 90-120, a second kernel 125-135, a second all-reduce (Seq 5) at
 * 140 with its kernel 150-170. */
static const char lead_in[] =
    "{\"traceEvents\":["
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,\"ts\":0,"
    "\"dur\":200},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"enumerate(DataLoader)#_"
    "SingleProcessDataLoaderIter."
    "__next__\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":20},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":22,\"dur\":2,\"args\":{\"correlation\":1}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":30,\"dur\":40,"
    "\"args\":{\"correlation\":1,\"device\":0,\"stream\":7}},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"record_param_comms\",\"pid\":1,\"tid\":1,\"ts\":"
    "75,"
    "\"dur\":10,\"args\":{\"External id\":8,\"Collective name\":\"allreduce\",\"Process Group "
    "Name\":\"g\",\"Seq\":4}},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":78,\"dur\":2,\"args\":{\"correlation\":2,\"External id\":8}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclDevKernel_AllReduce_Sum_f32_RING_LL\","
    "\"pid\":0,\"tid\":8,\"ts\":90,\"dur\":30,\"args\":{\"correlation\":2,\"External id\":8,"
    "\"device\":0,\"stream\":8}},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":100,\"dur\":2,\"args\":{\"correlation\":3}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"add\",\"pid\":0,\"tid\":7,\"ts\":125,\"dur\":10,"
    "\"args\":{\"correlation\":3,\"device\":0,\"stream\":7}},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"record_param_comms\",\"pid\":1,\"tid\":1,\"ts\":"
    "140,"
    "\"dur\":10,\"args\":{\"External id\":9,\"Collective name\":\"allreduce\",\"Process Group "
    "Name\":\"g\",\"Seq\":SEQ2}},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":142,\"dur\":2,\"args\":{\"correlation\":4,\"External id\":9}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclDevKernel_AllReduce_Sum_f32_RING_LL\","
    "\"pid\":0,\"tid\":8,\"ts\":150,\"dur\":20,\"args\":{\"correlation\":4,\"External id\":9,"
    "\"device\":0,\"stream\":8}}]}";

/* lead_in with the second call's Seq as given. */
static int add_lead_in(struct t *t, struct dist_result *d, const char *seq2, const char *name)
{
	char *text = malloc(sizeof lead_in + 8);
	if (!text)
		return -1;
	const char *at = strstr(lead_in, "SEQ2");
	snprintf(text, sizeof lead_in + 8, "%.*s%s%s", (int)(at - lead_in), lead_in, seq2, at + 4);
	struct trace *tr = t_load_text(t, text);
	free(text);
	if (!tr)
		return -1;
	struct err e = {0};
	int rc = dist_add(d, tr, name, NULL, &e);
	tr_free(tr);
	CHECK_INT(t, rc, 0);
	return rc;
}

/* Call 1: window [0 (the step), 90 (its kernel)): computation gemm 40,
 * data loading 20, idle 90 - 40 - 20 = 30. Call 2: the window starts at
 * call 1's exit, 120, and ends at 150: computation 10 (add), no data
 * loading, idle 20. Seq 4 and 5 in "g" are kept. */
void test_dist_lead_in(struct t *t)
{
	struct dist_result d;
	struct err e = {0};
	struct dist_opts o = {0};
	if (dist_init(&d, &o, &e) || add_lead_in(t, &d, "5", "w0"))
		return;
	const struct dist_worker *w = &d.w[0];
	CHECK_INT(t, w->nnodes, 2);
	CHECK_INT(t, w->nodes[0].compute, US(40));
	CHECK_INT(t, w->nodes[0].input, US(20));
	CHECK_INT(t, w->nodes[0].idle, US(30));
	CHECK_INT(t, w->nodes[1].compute, US(10));
	CHECK_INT(t, w->nodes[1].input, 0);
	CHECK_INT(t, w->nodes[1].idle, US(20));
	CHECK_INT(t, w->nodes[0].seq, 4);
	CHECK_INT(t, w->nodes[1].seq, 5);
	/* Seq 4 then 7 in "g": the group breaks the rule, both dropped */
	if (add_lead_in(t, &d, "7", "w1"))
		return;
	CHECK_INT(t, d.w[1].nodes[0].seq, -1);
	CHECK_INT(t, d.w[1].nodes[1].seq, -1);
	dist_free(&d);
}

/* dist_seq_check on hand-made nodes: group 1 numbered 3, 4; group 2
 * numbered 9, then group 1's 5: kept; group 1's next numbered 7 (6 due)
 * breaks it at node 4; a number without a group breaks it too. */
void test_dist_seq_rule(struct t *t)
{
	struct dist_node n[5] = {{.pg = 1, .seq = 3},
				 {.pg = 1, .seq = 4},
				 {.pg = 2, .seq = 9},
				 {.pg = 1, .seq = 5},
				 {.pg = 1, .seq = 7}};
	struct dist_worker w = {.nodes = n, .nnodes = 4};
	size_t at = 99;
	int64_t want = 99;
	CHECK_INT(t, dist_seq_check(&w, &at, &want), 0);
	w.nnodes = 5;
	CHECK_INT(t, dist_seq_check(&w, &at, &want), 1);
	CHECK_INT(t, at, 4);
	CHECK_INT(t, want, 6);
	n[4] = (struct dist_node){.pg = 0, .seq = 6};
	CHECK_INT(t, dist_seq_check(&w, &at, &want), 1);
	CHECK_INT(t, at, 4);
	CHECK_INT(t, want, -1);
	/* normalising drops the number without a group only */
	CHECK_INT(t, dist_seq_normalize(&w), 0);
	CHECK_INT(t, n[4].seq, -1);
	CHECK_INT(t, n[3].seq, 5);
	n[4] = (struct dist_node){.pg = 2, .seq = 11};
	CHECK_INT(t, dist_seq_normalize(&w), 0); /* group 2 loses its numbers */
	CHECK_INT(t, n[2].seq, -1);
	CHECK_INT(t, n[4].seq, -1);
	CHECK_INT(t, n[0].seq, 3);
}

/* gm_busy: lead_in's kernels on GPU 0 merge into [30,70] [90,120]
 * [125,135] [150,170]; windows [0,100] (40 + 10), [100,200] (20 + 10 +
 * 20) and [60,60] (0); the same as gm_compute's busy_ns per window. */
void test_gm_busy(struct t *t)
{
	char *text = strdup(lead_in);
	if (!text)
		return;
	memcpy(strstr(text, "SEQ2"), "5   ", 4);
	struct trace *tr = t_load_text(t, text);
	free(text);
	if (!tr)
		return;
	struct rg win[3] = {{0, US(100)}, {US(100), US(200)}, {US(60), US(60)}};
	struct gm_busy b;
	struct err e = {0};
	CHECK_INT(t, gm_busy(tr, win, 3, &b, &e), 0);
	CHECK_INT(t, b.n, 1);
	CHECK_INT(t, b.gpus[0], 0);
	CHECK_INT(t, b.busy[0], US(50));
	CHECK_INT(t, b.busy[1], US(50));
	CHECK_INT(t, b.busy[2], 0);
	for (int i = 0; i < 2; i++) {
		struct gm_result g;
		CHECK_INT(t, gm_compute(tr, false, true, win[i].start, win[i].end, false, &g, &e),
			  0);
		CHECK_INT(t, g.gpus[0].busy_ns, b.busy[i]);
		gm_free(&g);
	}
	gm_busy_free(&b);
	tr_free(tr);
}

/* The causes over three workers of one instance each, their lead-in
 * values set by hand: arrivals 100, 100, 130 (w2 last, skew 30); compute
 * 40, 50, 90 (median 50: w2 late by 40), input 10, 10, 10 (0), idle 20,
 * 5, 30 (median 20: 10). Cause compute; the others never last: null. */
void test_fleet_causes(struct t *t)
{
	struct dist_result d;
	struct err e = {0};
	struct dist_opts o = {0};
	if (dist_init(&d, &o, &e))
		return;
	static const int64_t arrive[3] = {100, 100, 130}, comp[3] = {40, 50, 90},
			     idle[3] = {20, 5, 30};
	d.w = calloc(3, sizeof *d.w);
	struct dist_node *nodes = calloc(3, sizeof *nodes);
	struct rg *kr = calloc(3, sizeof *kr);
	if (!d.w || !nodes || !kr) {
		free(nodes);
		free(kr);
		dist_free(&d);
		return;
	}
	d.n = d.cap = 3;
	uint32_t name = strpool_intern(&d.pool, "nccl:all_reduce", 15);
	for (int i = 0; i < 3; i++) {
		/* one range: the CPU range itself, so the arrival is its start */
		kr[i] = (struct rg){US(arrive[i]), US(arrive[i] + 10)};
		nodes[i] = (struct dist_node){.name = name,
					      .start = kr[i].start,
					      .end = kr[i].end,
					      .step = 1,
					      .first = (size_t)i,
					      .n = 1,
					      .seq = -1,
					      .compute = US(comp[i]),
					      .input = US(10),
					      .idle = US(idle[i])};
		d.w[i] = (struct dist_worker){.nodes = &nodes[i], .nnodes = 1, .kr = kr, .rank = i};
	}
	struct fleet_result f;
	CHECK_INT(t, dist_fleet(&d, &f, &e), 0);
	CHECK_INT(t, f.rank[0].worker, 2);
	CHECK_INT(t, f.rank[0].late[FLEET_LATE_COMPUTE], US(40));
	CHECK_INT(t, f.rank[0].late[FLEET_LATE_INPUT], 0);
	CHECK_INT(t, f.rank[0].late[FLEET_LATE_LAUNCH], US(10));
	CHECK_STR(t, dist_fleet_cause(&f.rank[0]), "compute");
	CHECK(t, dist_fleet_cause(&f.rank[1]) == NULL);
	dist_fleet_free(&f);
	for (size_t i = 0; i < 3; i++) /* owned here, not by d */
		d.w[i] = (struct dist_worker){0};
	free(nodes);
	free(kr);
	dist_free(&d);
}
