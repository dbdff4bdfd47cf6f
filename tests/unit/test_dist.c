/* The distributed view on small hand-written worker traces; every expected
 * value is worked out by hand in the comments (µs in the traces, ns in the
 * checks). */
#include <stdlib.h>
#include <unistd.h>

#include "trace/argtext.h"
#include "tbprof/dist.h"
#include "test.h"

/* dist over n traces (workers "w0", "w1", ...). */
static int run(struct t *t, const char *const *texts, size_t n, bool compat, struct dist_result *d)
{
	struct err e = {0};
	struct dist_opts o = {.tb_compat = compat};
	int rc = dist_init(d, &o, &e);
	for (size_t i = 0; !rc && i < n; i++) {
		struct trace *tr = t_load_text(t, texts[i]);
		if (!tr)
			return -1;
		char name[8];
		snprintf(name, sizeof name, "w%zu", i);
		rc = dist_add(d, tr, name, NULL, &e);
		tr_free(tr);
	}
	if (!rc)
		rc = dist_finish(d, &e);
	CHECK_INT(t, rc, 0);
	return rc;
}

#define US(x) ((int64_t)(x)*1000)
#define CHECK_OV(t, o, a, b, c, d_)                                                                \
	do {                                                                                       \
		CHECK_INT(t, (o)[0], US(a));                                                       \
		CHECK_INT(t, (o)[1], US(b));                                                       \
		CHECK_INT(t, (o)[2], US(c));                                                       \
		CHECK_INT(t, (o)[3], US(d_));                                                      \
	} while (0)

static const char *opname(const struct dist_result *d, const struct dist_op *o)
{
	return strpool_get(&d->pool, o->name);
}

void test_dist_rules(struct t *t)
{
	char b[64], node[64], proc[16];
	dist_worker_name("run/node0_1.1700000000.pt.trace.json.gz", b, sizeof b);
	CHECK_STR(t, b, "node0_1");
	dist_worker_name("worker0.pt.trace.json", b, sizeof b);
	CHECK_STR(t, b, "worker0");
	dist_worker_name(".123.pt.trace.json", b, sizeof b); /* group 1 may be empty */
	CHECK_STR(t, b, "");
	dist_worker_name("/x/rank3.json", b, sizeof b);
	CHECK_STR(t, b, "rank3");
	dist_worker_name("r.json.gz", b, sizeof b);
	CHECK_STR(t, b, "r");
	CHECK(t, dist_node_process("node0_12", node, sizeof node, proc, sizeof proc));
	CHECK_STR(t, node, "node0");
	CHECK_STR(t, proc, "12");
	CHECK(t, dist_node_process("a_1b_2x", node, sizeof node, proc, sizeof proc)); /* greedy */
	CHECK_STR(t, node, "a_1b");
	CHECK_STR(t, proc, "2");
	CHECK(t, !dist_node_process("worker0", node, sizeof node, proc, sizeof proc));
	/* 53120 floats */
	CHECK_INT(t, dist_input_bytes("[[53120]]", 9, "[\"float\"]", 9, true), 212480);
	/* 6 floats + 1 long int (a scalar) + 4 halves = 24 + 8 + 8 */
	const char *dims = "[[2, 3], [], [4]]", *types = "[\"float\", \"long int\", \"c10::Half\"]";
	CHECK_INT(t, dist_input_bytes(dims, strlen(dims), types, strlen(types), true), 40);
	/* a TensorList of 6 + 4 floats: 40 by default, 0 for the reference */
	dims = "[[[2,3],[4]]]";
	CHECK_INT(t, dist_input_bytes(dims, strlen(dims), "[\"float\"]", 9, false), 40);
	CHECK_INT(t, dist_input_bytes(dims, strlen(dims), "[\"float\"]", 9, true), 0);
	/* fewer types than inputs: the rest count 0 */
	CHECK_INT(t, dist_input_bytes("[[2],[3]]", 9, "[\"float\"]", 9, true), 8);
	/* "long" is not in the reference's table */
	CHECK_INT(t, dist_input_bytes("[[3]]", 5, "[\"long\"]", 8, true), 0);
	CHECK_INT(t, dist_input_bytes("[[3]]", 5, "[\"long\"]", 8, false), 24);
	CHECK_INT(t, dist_input_bytes("", 0, "", 0, false), 0);
	CHECK_INT(t, tr_dtype_size("BFloat16", 8, false), 2);
	CHECK_INT(t, tr_dtype_size("BFloat16", 8, true), 0);
	/* int(): toward zero, at whole µs in compat */
	CHECK_INT(t, dist_avg_trunc(5000, 2, true), 2000);
	CHECK_INT(t, dist_avg_trunc(5000, 2, false), 2500);
	CHECK_INT(t, dist_avg_trunc(-5000, 2, true), -2000);
	CHECK_INT(t, dist_avg_trunc(7, 0, false), 0);
	/* round(): half to even */
	CHECK_INT(t, dist_avg_round(5, 2, false), 2);
	CHECK_INT(t, dist_avg_round(7, 2, false), 4);
	CHECK_INT(t, dist_avg_round(2500, 1, true), 2000);
	CHECK_INT(t, dist_avg_round(3500, 1, true), 4000);
	CHECK_INT(t, dist_avg_round(3501, 1, true), 4000);
}

#define OP(name, tid, ts, dur, ext, extra)                                                         \
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" name "\",\"pid\":1,\"tid\":" #tid           \
	",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"External id\":" #ext extra "}}"
#define KERNEL(name, ts, dur, ext)                                                                 \
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" name "\",\"pid\":0,\"tid\":7,\"ts\":" #ts   \
	",\"dur\":" #dur ",\"args\":{\"device\":0,\"external id\":" #ext "}}"

/* Worker 0: all_reduce op [10,30] + its kernel [15,45]; a gemm [40,60]
 * launched by aten::mm [0,50] (thread 2); broadcast op [60,70] + kernel
 * [62,66]. No ProfilerStep and no runtime: one step "0" over the CPU span
 * [0,70]. */
static const char w0[] =
    "{\"traceEvents\":[" OP("nccl:all_reduce", 1, 10, 20, 5, ",\"Input Dims\":[[100]],\"Input type\":[\"float\"]") "," KERNEL(
	"ncclKernel_AllReduce_RING_LL_Sum_float", 15, 30,
	5) "," OP("aten::mm", 2, 0, 50, 1,
		  "") "," KERNEL("gemm", 40, 20,
				 1) "," OP("nccl:broadcast", 1, 60, 10, 6,
					   ",\"Input Dims\":[[10]],\"Input "
					   "type\":[\"c10::Half\"]") "," KERNEL("ncclKernel_"
										"Broadcast_RING_"
										"LL_Sum_int8_t",
										62, 4, 6) "]}";
/* Worker 1: all_reduce op [10,15] + kernel [12,52]; gemm [0,10]; broadcast
 * op [60,70] + kernel [61,69]; step "0" = [0,70]. */
static const char w1[] =
    "{\"traceEvents\":[" OP("nccl:all_reduce", 1, 10, 5, 7, ",\"Input Dims\":[[100]],\"Input type\":[\"float\"]") "," KERNEL(
	"ncclKernel_AllReduce_RING_LL_Sum_float", 12, 40,
	7) "," OP("aten::mm", 2, 0, 50, 2,
		  "") "," KERNEL("gemm", 0, 10,
				 2) "," OP("nccl:broadcast", 1, 60, 10, 8,
					   ",\"Input Dims\":[[10]],\"Input "
					   "type\":[\"c10::Half\"]") "," KERNEL("ncclKernel_"
										"Broadcast_RING_"
										"LL_Sum_int8_t",
										61, 8, 8) "]}";

/* Both modes give the same numbers on these (reference-style) traces. */
static void check_two_workers(struct t *t, bool compat)
{
	const char *texts[] = {w0, w1};
	struct dist_result d;
	if (run(t, texts, 2, compat, &d))
		return;
	CHECK(t, d.view);
	CHECK_INT(t, d.n, 2);
	const struct dist_worker *a = &d.w[0], *b = &d.w[1];
	CHECK_INT(t, a->nnodes, 2);
	CHECK_INT(t, b->nnodes, 2);
	CHECK(t, a->has_nccl && !a->has_gloo && a->has_communication);
	CHECK_INT(t, a->nsteps, 1);
	/* w0: computation = gemm [40,60] = 20; communication = [10,45] +
	 * [60,70] = 45; overlap [40,45] = 5; other = 70 + 5 - 20 - 45 = 10 */
	CHECK_OV(t, a->overlap[0].v, 15, 5, 40, 10);
	CHECK_OV(t, a->overlap_avg, 15, 5, 40, 10);
	/* w1: computation [0,10] = 10; communication [10,52] + [60,70] = 52;
	 * overlap: the lists only touch at 10, 0; other = 70 - 10 - 52 = 8 */
	CHECK_OV(t, b->overlap[0].v, 10, 0, 52, 8);
	/* all_reduce ranges: w0 [10,30] [15,45], w1 [10,15] [12,52]. Range 0:
	 * min(20, 5) = 5 -> w0 [25,30], w1 [10,15]; range 1: min(30, 40) = 30
	 * -> w0 [15,45], w1 [22,52]. broadcast: w0 [60,70] [62,66], w1
	 * [60,70] [61,69]: min 10 -> both [60,70]; min 4 -> w0 [62,66], w1
	 * [65,69]. */
	CHECK_INT(t, a->real[a->nodes[0].first + 0].start, US(25));
	CHECK_INT(t, b->real[b->nodes[0].first + 1].start, US(22));
	CHECK_INT(t, a->nops, 2);
	CHECK_STR(t, opname(&d, &a->ops[0]), "nccl:all_reduce");
	CHECK_STR(t, opname(&d, &a->ops[1]), "nccl:broadcast");
	/* w0 all_reduce: 100 floats; latency |[10,45]| = 35; transfer
	 * |[15,45] ∪ [25,30]| = 30. broadcast: 10 halves; latency 10;
	 * transfer 10 */
	CHECK_INT(t, a->ops[0].calls, 1);
	CHECK_INT(t, a->ops[0].bytes, 400);
	CHECK_INT(t, a->ops[0].latency, US(35));
	CHECK_INT(t, a->ops[0].transfer, US(30));
	CHECK_INT(t, a->ops[1].bytes, 20);
	CHECK_INT(t, a->ops[1].latency, US(10));
	CHECK_INT(t, a->ops[1].transfer, US(10));
	/* w1 all_reduce: latency |[10,52]| = 42; transfer [10,15] + [22,52] = 35 */
	CHECK_INT(t, b->ops[0].latency, US(42));
	CHECK_INT(t, b->ops[0].transfer, US(35));
	CHECK_INT(t, b->ops[1].transfer, US(10));
	/* wait, step 0: w0 comm 35 + 10 = 45, real 30 + 10 = 40 -> [40, 5];
	 * w1 comm 42 + 10 = 52, real 35 + 10 = 45 -> [45, 7] */
	CHECK_INT(t, a->nwait, 1);
	CHECK_INT(t, a->wait[0].step, 0);
	CHECK_INT(t, a->wait[0].transfer, US(40));
	CHECK_INT(t, a->wait[0].comm, US(45));
	CHECK_INT(t, a->wait_avg[0], US(40));
	CHECK_INT(t, a->wait_avg[1], US(5));
	CHECK_INT(t, b->wait_avg[0], US(45));
	CHECK_INT(t, b->wait_avg[1], US(7));
	CHECK_INT(t, a->unmatched + b->unmatched, 0);
	dist_free(&d);
}

void test_dist_two_workers(struct t *t)
{
	check_two_workers(t, true);
	check_two_workers(t, false);
}

/* w1 without its broadcast: tb_compat has no view at all; the default
 * still matches the all_reduce calls and leaves w0's broadcast unmatched. */
void test_dist_mismatch(struct t *t)
{
	static const char w1_short[] = "{\"traceEvents\":[" OP(
	    "nccl:all_reduce", 1, 10, 5, 7,
	    ",\"Input Dims\":[[100]],\"Input type\":[\"float\"]") "," KERNEL("ncclKernel_AllReduce_"
									     "RING_LL_Sum_float",
									     12, 40, 7) "]}";
	const char *texts[] = {w0, w1_short};
	struct dist_result d;
	if (run(t, texts, 2, true, &d))
		return;
	CHECK(t, !d.view);
	CHECK_STR(t, d.why_not, "the workers' numbers of collective ops differ");
	CHECK_INT(t, d.w[0].nops, 0);
	dist_free(&d);
	if (run(t, texts, 2, false, &d))
		return;
	CHECK(t, d.view);
	CHECK_INT(t, d.w[0].unmatched, 1);
	CHECK_INT(t, d.w[1].unmatched, 0);
	/* the unmatched broadcast keeps its latency, has no transfer */
	CHECK_INT(t, d.w[0].ops[1].latency, US(10));
	CHECK_INT(t, d.w[0].ops[1].transfer, 0);
	CHECK_INT(t, d.w[0].ops[0].transfer, US(30));
	dist_free(&d);
}

/* nccl: and gloo: ops in one trace: the reference drops the nodes (its
 * Communication role stays); the default keeps both. */
void test_dist_both_libraries(struct t *t)
{
	static const char both[] = "{\"traceEvents\":[" OP(
	    "nccl:all_reduce", 1, 10, 20, 5, "") "," OP("gloo:broadcast", 1, 40, 10, 6, "") "]}";
	const char *texts[] = {both};
	struct dist_result d;
	if (run(t, texts, 1, true, &d))
		return;
	CHECK(t, d.w[0].cleared && d.w[0].has_communication);
	CHECK_INT(t, d.w[0].nnodes, 0);
	CHECK(t, !d.view);
	CHECK_STR(t, d.why_not, "a worker has both nccl: and gloo: collectives");
	dist_free(&d);
	if (run(t, texts, 1, false, &d))
		return;
	CHECK_INT(t, d.w[0].nnodes, 2);
	CHECK(t, d.view);
	dist_free(&d);
}

/* A modern call: c10d::allreduce_ [0,100] holds record_param_comms [5,95]
 * (Collective name allreduce, 1000 Float) holding the nccl:all_reduce
 * annotation [10,90]; its runtime [20,30] (external id 0) launches an
 * ncclDevKernel [50,150]. Then c10d::_allgather_base_ [200,220] holds
 * record_param_comms [202,218] (64 BFloat16), whose external id the
 * kernel [210,260] carries. The CPU span is [0,220]. */
static const char modern[] = "{\"traceEvents\":[" OP("c10d::allreduce_", 1, 0, 100, 10, "") "," OP(
    "record_param_comms", 1, 5, 90, 11,
    ",\"Collective name\":\"allreduce\",\"dtype\":\"Float\",\"In msg "
    "nelems\":1000") ","
		     "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":"
		     "\"nccl:all_reduce\",\"pid\":1,"
		     "\"tid\":1,\"ts\":10,\"dur\":80,\"args\":{"
		     "\"External id\":12}},"
		     "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":"
		     "\"cudaLaunchKernel\",\"pid\":1,"
		     "\"tid\":1,\"ts\":20,\"dur\":10,\"args\":{"
		     "\"External id\":0,\"correlation\":77}},"
		     "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":"
		     "\"ncclDevKernel_AllReduce_Sum_f32_RING_LL\","
		     "\"pid\":0,\"tid\":7,\"ts\":50,\"dur\":100,\"args\":"
		     "{\"device\":0,\"correlation\":77,"
		     "\"External id\":0}}," OP("c10d::_allgather_base_", 1, 200, 20, 20, "") "," OP(
			 "record_param_comms", 1, 202, 16, 21,
			 ",\"Collective "
			 "name\":\"_allgather_base\","
			 "\"dtype\":\"BFloat16\",\"In msg "
			 "nelems\":64") "," KERNEL("ncclDevKer"
						   "nel_"
						   "AllGather_"
						   "RING_LL",
						   210, 50, 21) "]}";

void test_dist_modern(struct t *t)
{
	const char *texts[] = {modern};
	struct dist_result d;
	if (run(t, texts, 1, false, &d))
		return;
	const struct dist_worker *w = &d.w[0];
	CHECK_INT(t, w->nnodes, 2);
	CHECK_INT(t, w->nops, 2);
	/* named by the nccl: annotation; 1000 Float = 4000 bytes (the
	 * annotation has no dims); ranges [0,100] [50,150]: latency 150; one
	 * worker, so the real ranges are the ranges */
	CHECK_STR(t, opname(&d, &w->ops[0]), "nccl:all_reduce");
	CHECK_INT(t, w->ops[0].bytes, 4000);
	CHECK_INT(t, w->ops[0].latency, US(150));
	CHECK_INT(t, w->ops[0].transfer, US(150));
	/* named by record_param_comms; 64 BFloat16; [200,220] [210,260] */
	CHECK_STR(t, opname(&d, &w->ops[1]), "_allgather_base");
	CHECK_INT(t, w->ops[1].bytes, 128);
	CHECK_INT(t, w->ops[1].latency, US(60));
	/* no computation kernel and no non-communication op: computation 0;
	 * communication [0,150] + [200,220] = 170 of the step [0,220] */
	CHECK_OV(t, w->overlap[0].v, 0, 0, 170, 50);
	/* the call [200,220] lies in the step too: wait 150 + 60 = 210 */
	CHECK_INT(t, w->wait[0].transfer, US(210));
	dist_free(&d);
	/* the reference: only the nccl:all_reduce annotation is a node; the
	 * kernels carry other external ids, so both are computation. Node
	 * [10,90], 0 bytes (no dims), latency 80. computation [50,150] +
	 * [210,220] = 110 of [0,220]; communication 80; overlap [50,90] = 40;
	 * other = 220 + 40 - 110 - 80 = 70 */
	if (run(t, texts, 1, true, &d))
		return;
	w = &d.w[0];
	CHECK_INT(t, w->nops, 1);
	CHECK_STR(t, opname(&d, &w->ops[0]), "nccl:all_reduce");
	CHECK_INT(t, w->ops[0].bytes, 0);
	CHECK_INT(t, w->ops[0].latency, US(80));
	CHECK_OV(t, w->overlap[0].v, 70, 40, 40, 70);
	CHECK_INT(t, w->wait_avg[0], US(80));
	CHECK_INT(t, w->wait_avg[1], 0);
	dist_free(&d);
}

/* Step assignment: steps [0,100] and [100,200] (ProfilerStep#1, #2); a
 * node [50,120] crosses the first step's end (no step), the next [150,160]
 * is in step 2, one [250,260] after the last step gets none either. Two
 * wait keys: none (first seen) and 2; the average divides by 2. */
void test_dist_steps(struct t *t)
{
	static const char text[] =
	    "{\"traceEvents\":[" OP("ProfilerStep#1", 1, 0, 100, 1, "") "," OP(
		"ProfilerStep#2", 1, 100, 100, 2,
		"") "," OP("nccl:all_reduce", 3, 50, 70, 3,
			   "") "," OP("nccl:all_reduce", 3, 150, 10, 4,
				      "") "," OP("nccl:all_reduce", 3, 250, 10, 5, "") "]}";
	const char *texts[] = {text};
	struct dist_result d;
	for (int compat = 0; compat < 2; compat++) {
		if (run(t, texts, 1, compat, &d))
			return;
		const struct dist_worker *w = &d.w[0];
		CHECK_INT(t, w->nnodes, 3);
		CHECK_INT(t, w->nodes[0].step, DIST_NO_STEP);
		CHECK_INT(t, w->nodes[1].step, 2);
		CHECK_INT(t, w->nodes[2].step, DIST_NO_STEP);
		CHECK_INT(t, w->nwait, 2);
		CHECK_INT(t, w->wait[0].step, DIST_NO_STEP);
		CHECK_INT(t, w->wait[0].comm, US(80)); /* [50,120] + [250,260] */
		CHECK_INT(t, w->wait[1].step, 2);
		CHECK_INT(t, w->wait[1].comm, US(10));
		CHECK_INT(t, w->wait_avg[0], US(45)); /* (80 + 10) / 2 */
		/* overlap: no kernel, so computation = CPU ops: none here (steps
		 * are no role); step 1 holds [50,100] of communication, step 2
		 * [100,120] + [150,160] */
		CHECK_INT(t, w->nsteps, 2);
		CHECK_OV(t, w->overlap[0].v, 0, 0, 50, 50);
		CHECK_OV(t, w->overlap[1].v, 0, 0, 30, 70);
		CHECK_OV(t, w->overlap_avg, 0, 0, 40, 60);
		dist_free(&d);
	}
}
