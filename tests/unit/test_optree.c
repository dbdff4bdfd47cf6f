/* Operator tree, Operator view and Kernel view on small hand-written traces.
 * Every expected number is worked out by hand in the comment above it
 * (times in the traces are µs; results are ns). */
#include <stdlib.h>
#include <unistd.h>

#include "tbprof/kernels.h"
#include "tbprof/ops.h"
#include "tbprof/optree.h"
#include "tbprof/tbtime.h"
#include "test.h"

/* The operator view of text, by name, in tb's order. */
struct fixture {
	struct trace *tr;
	struct optree o;
	struct ops_view v;
	bool ok;
};

static bool setup(struct t *t, struct fixture *f, const char *text, bool tb_compat)
{
	struct err e = {0};
	struct optree_opts oo = {.tb_compat = tb_compat};
	memset(f, 0, sizeof *f);
	if (!(f->tr = t_load_text(t, text)))
		return false;
	if (optree_build(f->tr, NULL, &oo, &f->o, &e)) {
		t_fail(t, __FILE__, __LINE__, "optree_build: %s", e.msg);
		tr_free(f->tr);
		return false;
	}
	if (ops_build(&f->o, NULL, &f->v, &e)) {
		t_fail(t, __FILE__, __LINE__, "ops_build: %s", e.msg);
		optree_free(&f->o);
		tr_free(f->tr);
		return false;
	}
	ops_sort(&f->v, &f->o, OPS_SORT_TB);
	return f->ok = true;
}

static void teardown(struct fixture *f)
{
	if (!f->ok)
		return;
	ops_free(&f->v);
	optree_free(&f->o);
	tr_free(f->tr);
}

static const struct ops_row *row(struct fixture *f, const char *name)
{
	for (size_t i = 0; i < f->v.n; i++)
		if (!strcmp(tr_str(f->tr, f->v.rows[i].name), name))
			return &f->v.rows[i];
	return NULL;
}

#define OP(name, ts, dur, ext, tid)                                                                \
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" name "\",\"pid\":1,\"tid\":" #tid           \
	",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"External id\":" #ext "}}"
#define RT(ts, dur, ext, corr, tid)                                                                \
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"          \
	"\"tid\":" #tid ",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"External id\":" #ext         \
	",\"correlation\":" #corr "}}"
#define KERNEL(name, ts, dur, corr)                                                                \
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" name "\",\"pid\":0,\"tid\":7,\"ts\":" #ts   \
	",\"dur\":" #dur ",\"args\":{\"correlation\":" #corr ",\"device\":0}}"

void test_optree_dup_collapse(struct t *t)
{
	/* mm [0,100] > mm [10,90] > mm [20,80]: one node. The outer mm's own
	 * runtime (ext 1, kernel 5 µs) is replaced by the innermost's (ext 3,
	 * runtime [30,40], kernel 8 µs), as autograd does. Host self = 100 -
	 * 10 (the runtime) = 90 µs; device = self device = 8 µs. */
	static const char text[] =
	    "[" OP("aten::mm", 0, 100, 1, 1) "," OP("aten::mm", 10, 80, 2, 1) "," OP(
		"aten::mm", 20, 60, 3,
		1) "," RT(2, 3, 1, 11, 1) "," RT(30, 10, 3, 13,
						 1) "," KERNEL("k_outer", 50, 5,
							       11) "," KERNEL("k_inner", 60, 8,
									      13) "]";
	struct fixture f;
	if (!setup(t, &f, text, true))
		return;
	CHECK_INT(t, f.v.n, 1);
	const struct ops_row *r = row(&f, "aten::mm");
	CHECK(t, r != NULL);
	if (r) {
		CHECK_INT(t, r->calls, 1);
		CHECK_INT(t, r->host, 100000);
		CHECK_INT(t, r->self_host, 90000);
		CHECK_INT(t, r->device, 8000);
		CHECK_INT(t, r->self_device, 8000);
	}
	teardown(&f);
}

void test_optree_runtime_not_self(struct t *t)
{
	/* op [0,50] with runtime [10,20] (ext 4) launching a 5 µs kernel, and a
	 * child op [25,45]: self host = 50 - 20 - 10 = 20 µs; the child has
	 * 20 µs and nothing on the GPU; the parent's device total = 5 µs. */
	static const char text[] = "[" OP("aten::linear", 0, 50, 4, 1) "," OP(
	    "aten::t", 25, 20, 5, 1) "," RT(10, 10, 4, 40, 1) "," KERNEL("gemm", 30, 5, 40) "]";
	struct fixture f;
	if (!setup(t, &f, text, false))
		return;
	const struct ops_row *p = row(&f, "aten::linear"), *c = row(&f, "aten::t");
	CHECK(t, p && c);
	if (p && c) {
		CHECK_INT(t, p->self_host, 20000);
		CHECK_INT(t, p->host, 50000);
		CHECK_INT(t, p->self_device, 5000);
		CHECK_INT(t, c->self_host, 20000);
		CHECK_INT(t, c->device, 0);
		CHECK(t, f.v.rows[0].name == p->name); /* sorted by device self */
	}
	teardown(&f);
}

void test_optree_partial_overlap(struct t *t)
{
	/* a [0,50] and b [40,80] overlap partially on one thread: b is dropped
	 * (1 dropped); c [60,70] then nests under the root, not under b, and
	 * a's self host stays 50 µs. */
	static const char text[] =
	    "[" OP("a", 0, 50, 1, 1) "," OP("b", 40, 40, 2, 1) "," OP("c", 60, 10, 3, 1) "]";
	struct fixture f;
	if (!setup(t, &f, text, true))
		return;
	CHECK_INT(t, f.o.dropped, 1);
	CHECK_INT(t, f.v.n, 2);
	CHECK(t, row(&f, "b") == NULL);
	const struct ops_row *a = row(&f, "a");
	CHECK(t, a && a->self_host == 50000);
	uint32_t root = f.o.threads[0].root;
	for (uint32_t c = f.o.nodes[root].first_child; c != OPT_NIL; c = f.o.nodes[c].next_sibling)
		CHECK(t, !strcmp(optree_name(&f.o, c), "a") || !strcmp(optree_name(&f.o, c), "c"));
	teardown(&f);
}

void test_optree_ext_id_threads(struct t *t)
{
	/* The runtime (ext 7) runs on thread 2; thread 3's op (ext 7) starts
	 * first, so thread 3 comes first in tb's thread order and its op takes
	 * the runtime, not thread 1's later op with the same external id. */
	static const char text[] = "[" OP("late", 10, 30, 7, 1) "," OP("early", 5, 40, 7, 3) "," RT(
	    20, 2, 7, 70, 2) "," KERNEL("k", 25, 6, 70) "]";
	struct fixture f;
	if (!setup(t, &f, text, true))
		return;
	CHECK_INT(t, f.o.nthreads, 2);
	CHECK_INT(t, f.o.threads[0].tid.num, 3);
	const struct ops_row *e = row(&f, "early"), *l = row(&f, "late");
	CHECK(t, e && l);
	if (e && l) {
		CHECK_INT(t, e->self_device, 6000);
		CHECK_INT(t, e->self_host, 38000); /* 40 - the 2 µs runtime */
		CHECK_INT(t, l->device, 0);
		CHECK_INT(t, l->self_host, 30000);
	}
	teardown(&f);
}

/* The same attachment whatever the external ids look like: counted up
 * from 0 (an array indexes them), far apart or negative (a hash map does);
 * a runtime whose id no op has (past the largest, below -1) is an orphan. */
void test_optree_ext_id_kinds(struct t *t)
{
#define EXT_CASE(x)                                                                                \
	"[" OP("late", 10, 30, x, 1) "," OP("early", 5, 40, x, 3) "," RT(                          \
	    20, 2, x, 70, 2) "," KERNEL("k", 25, 6, 70) "]"
	static const char *const texts[] = {EXT_CASE(7), EXT_CASE(1000000000000000), EXT_CASE(-5)};
#undef EXT_CASE
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		struct fixture f;
		if (!setup(t, &f, texts[i], true))
			return;
		const struct ops_row *e = row(&f, "early"), *l = row(&f, "late");
		CHECK(t, e && l);
		if (e && l) { /* as test_optree_ext_id_threads */
			CHECK_INT(t, e->self_device, 6000);
			CHECK_INT(t, e->self_host, 38000);
			CHECK_INT(t, l->device, 0);
		}
		CHECK_INT(t, f.o.orphan_runtimes, 0);
		teardown(&f);
	}
	static const char *const orphans[] = {
	    "[" OP("a", 5, 40, 7, 1) "," RT(20, 2, 99, 70, 1) "," KERNEL("k", 25, 6, 70) "]",
	    "[" OP("a", 5, 40, 7, 1) "," RT(20, 2, -3, 70, 1) "," KERNEL("k", 25, 6, 70) "]"};
	for (size_t i = 0; i < sizeof orphans / sizeof orphans[0]; i++) {
		struct fixture f;
		if (!setup(t, &f, orphans[i], true))
			return;
		const struct ops_row *a = row(&f, "a");
		CHECK(t, a != NULL);
		if (a) {
			CHECK_INT(t, a->device, 0);
			CHECK_INT(t, a->self_host, 40000); /* nor its host time */
		}
		CHECK_INT(t, f.o.orphan_runtimes, 1);
		teardown(&f);
	}
}

static struct kern_row *kernel_rows(struct t *t, struct optree *o, enum kern_group g,
				    struct kern_view *v)
{
	struct err e = {0};
	if (kern_build(o, g, v, &e)) {
		t_fail(t, __FILE__, __LINE__, "kern_build: %s", e.msg);
		return NULL;
	}
	return v->rows;
}

void test_optree_stale_dummy(struct t *t)
{
	/* A kernel whose correlation (99) no runtime has hangs under the dummy
	 * runtime of every thread holding a ProfilerStep (threads 1 and 2 here,
	 * not 3): by kernel + op it is one row, op CallTreeRoot, counted twice
	 * (tb's quirk 6). By name it counts once. No operator gets its time. */
	static const char text[] =
	    "[" OP("ProfilerStep#1", 0, 100, 1, 1) "," OP("ProfilerStep#2", 0, 100, 2, 2) "," OP(
		"aten::add", 10, 10, 3, 3) "," KERNEL("stale", 50, 4, 99) "]";
	struct fixture f;
	if (!setup(t, &f, text, true))
		return;
	CHECK_INT(t, f.o.nstale, 1);
	CHECK_INT(t, f.v.n, 1);
	CHECK_INT(t, f.v.rows[0].device, 0);
	struct kern_view v;
	const struct kern_row *k = kernel_rows(t, &f.o, KERN_BY_NAME_OP, &v);
	if (k) {
		CHECK_INT(t, v.n, 1);
		CHECK_STR(t, optree_name(&f.o, k[0].op), "CallTreeRoot");
		CHECK_INT(t, k[0].calls, 2);
		CHECK_INT(t, k[0].total, 8000);
		CHECK(t, !k[0].op_tc_eligible);
		kern_free(&v);
	}
	if ((k = kernel_rows(t, &f.o, KERN_BY_NAME, &v))) {
		CHECK_INT(t, v.n, 1);
		CHECK_INT(t, k[0].calls, 1);
		kern_free(&v);
	}
	teardown(&f);
}

void test_optree_tc(struct t *t)
{
	/* conv2d [0,100] > op_no_tc [5,15] (plain kernel 10 µs) and
	 * cudnn_convolution [15,25] (s884 kernel 15 µs): conv2d is eligible,
	 * TC self 0 %, TC total 15/25 = 60 %; cudnn_convolution 100/100 %.
	 * my_op launches an nvjet kernel (6 µs): a Tensor Core kernel only
	 * outside --tb-compat, which then also makes my_op eligible. */
	static const char text[] = "[" OP("aten::conv2d", 0, 100, 1, 1) "," OP("op_no_tc", 5, 10, 2, 1) "," OP(
	    "aten::cudnn_convolution",
	    15,
	    10,
	    3,
	    1) "," OP("my_op", 200, 10, 4,
		      1) "," RT(6, 2, 2, 20,
				1) "," RT(16, 2, 3, 30,
					  1) "," RT(201, 2, 4, 40,
						    1) "," KERNEL("plain", 30, 10,
								  20) "," KERNEL("volta_fp16_"
										 "s884cudnn_fp16_"
										 "128x128",
										 40,
										 15,
										 30) "," KERNEL("nv"
												"je"
												"t_"
												"ts"
												"t_"
												"12"
												"8x"
												"64"
												"_6"
												"4x"
												"4_"
												"1x"
												"2_"
												"h_"
												"bz"
												"_T"
												"N"
												"T",
												210,
												6,
												40) "]";
	for (int compat = 0; compat < 2; compat++) {
		struct fixture f;
		if (!setup(t, &f, text, compat))
			return;
		const struct ops_row *conv = row(&f, "aten::conv2d"),
				     *cud = row(&f, "aten::cudnn_convolution"),
				     *no = row(&f, "op_no_tc"), *my = row(&f, "my_op");
		CHECK(t, conv && cud && no && my);
		if (conv && cud && no && my) {
			CHECK(t, conv->tc_eligible && cud->tc_eligible && !no->tc_eligible);
			CHECK_DBL(t, ops_tc_self_pct(conv), 0, 0);
			CHECK_DBL(t, ops_tc_total_pct(conv), 60, 1e-12);
			CHECK_DBL(t, ops_tc_total_pct(cud), 100, 0);
			CHECK_INT(t, my->tc_eligible, !compat);
			CHECK_DBL(t, ops_tc_self_pct(my), compat ? 0 : 100, 0);
		}
		/* bottom eligible nodes: cudnn_convolution (15 µs), and my_op
		 * (6 µs) unless compat; all operator kernel time: 31 µs */
		CHECK_DBL(t, optree_tc_eligible_ratio(&f.o), compat ? 15.0 / 31 : 21.0 / 31, 1e-12);
		struct kern_view v;
		if (kernel_rows(t, &f.o, KERN_BY_NAME, &v)) {
			CHECK_INT(t, v.kernel_time, 31000);
			CHECK_INT(t, v.tc_time, compat ? 15000 : 21000);
			kern_free(&v);
		}
		teardown(&f);
	}
}

void test_optree_driver_launch(struct t *t)
{
	/* A Triton kernel launched through cuLaunchKernel (cuda_driver): by
	 * default the driver call is a runtime and the op gets 7 µs of device
	 * time (and loses the 3 µs call from its self time); with --tb-compat
	 * the kernel is stale and the op has none. */
	static const char text[] =
	    "[" OP("triton_op", 0, 20, 5,
		   1) ",{\"ph\":\"X\",\"cat\":\"cuda_driver\","
		      "\"name\":\"cuLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":3,"
		      "\"args\":{\"External id\":5,\"correlation\":50}}," KERNEL("triton_k", 10, 7,
										 50) "]";
	for (int compat = 0; compat < 2; compat++) {
		struct fixture f;
		if (!setup(t, &f, text, compat))
			return;
		const struct ops_row *r = row(&f, "triton_op");
		CHECK(t, r != NULL);
		if (r) {
			CHECK_INT(t, r->self_device, compat ? 0 : 7000);
			CHECK_INT(t, r->self_host, compat ? 20000 : 17000);
		}
		CHECK_INT(t, f.o.nstale, compat ? 1 : 0);
		teardown(&f);
	}
}

void test_optree_gpu_step(struct t *t)
{
	/* A gpu_user_annotation ProfilerStep#3 copy on GPU stream 7: with
	 * --tb-compat it becomes a step node of a thread "7", which then also
	 * gets the dummy runtime (so the stale kernel counts on two roots); by
	 * default it is no host node. */
	static const char text[] = "[" OP(
	    "ProfilerStep#3", 0, 100, 1,
	    1) ","
	       "{\"ph\":\"X\",\"cat\":\"gpu_user_annotation\",\"name\":\"ProfilerStep#3\","
	       "\"pid\":0,\"tid\":7,\"ts\":20,\"dur\":90,\"args\":{\"External id\":1}}," KERNEL(
		   "stale", 30, 5, 77) "]";
	for (int compat = 0; compat < 2; compat++) {
		struct fixture f;
		if (!setup(t, &f, text, compat))
			return;
		CHECK_INT(t, f.o.nthreads, compat ? 2 : 1);
		struct kern_view v;
		const struct kern_row *k = kernel_rows(t, &f.o, KERN_BY_NAME_OP, &v);
		if (k) {
			CHECK_INT(t, v.n, 1);
			CHECK_INT(t, k[0].calls, compat ? 2 : 1);
			kern_free(&v);
		}
		teardown(&f);
	}
}

void test_optree_shapes(struct t *t)
{
	/* Python's str() of the input dims, grouping by name + shape. */
	struct ops_view v = {0};
	const char *ja = "[[2,8, 5],[],[]]";
	const char *jb = "[\"it's\", 1.5, 100.0, 1e-05, true, null, {\"k\": 2}]";
	long a = ops_pyrepr(&v, ja, strlen(ja));
	long b = ops_pyrepr(&v, jb, strlen(jb));
	CHECK(t, a >= 0 && b >= 0);
	if (a >= 0 && b >= 0) {
		CHECK_STR(t, v.text + a, "[[2, 8, 5], [], []]");
		CHECK_STR(t, v.text + b, "[\"it's\", 1.5, 100.0, 1e-05, True, None, {'k': 2}]");
	}
	ops_free(&v);
}

void test_optree_tb_ns_shown(struct t *t)
{
	/* tb's float µs as ns: the nearest ns, moved by one where rounding the
	 * ns to whole µs (half to even) would not give Python's round() of the
	 * float. Each expected value by hand: round(788.50048828125) = 789 but
	 * 788500 ns rounds to 788 (even), so 788501; round(788.5) = 788 and
	 * round(789.5) = 790 keep 788500 and 789500; round(1.4998779296875)
	 * = 1 but 1500 ns rounds to 2, so 1499; round(-0.50048828125) = -1
	 * but -500 ns rounds to 0, so -501; 901.46484375 -> 901465 (no move). */
	CHECK_INT(t, tb_ns_shown(788.50048828125), 788501);
	CHECK_INT(t, tb_ns_shown(788.5), 788500);
	CHECK_INT(t, tb_ns_shown(789.5), 789500);
	CHECK_INT(t, tb_ns_shown(1.4998779296875), 1499);
	CHECK_INT(t, tb_ns_shown(-0.50048828125), -501);
	CHECK_INT(t, tb_ns_shown(901.46484375), 901465);
	CHECK_INT(t, tb_ns_shown(0.0), 0);
}
