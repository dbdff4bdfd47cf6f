/* Steps, breakdown and GPU metrics on small hand-written traces; every
 * expected value is worked out by hand in the comment beside it (µs in
 * the traces, ns in the checks). */
#include <stdlib.h>
#include <unistd.h>

#include "tbprof/gpumetrics.h"
#include "tbprof/steps.h"
#include "test.h"

static int compute(struct t *t, const char *text, bool compat, struct st_result *s)
{
	struct trace *tr = t_load_text(t, text);
	if (!tr)
		return -1;
	struct err e = {0};
	struct tr_links l;
	int rc = tr_links_build(tr, false, &l, &e);
	if (!rc) {
		struct st_opts o = {.tb_compat = compat};
		rc = st_compute(tr, &l, &o, s, &e);
		tr_links_free(&l);
	}
	tr_free(tr);
	CHECK_INT(t, rc, 0);
	return rc;
}

/* Checks one step: number, range and the nine parts (µs). */
#define CHECK_STEP(t, st, num, s0, s1, k, mc, ms, cm, rt, dl, cpu, oth)                            \
	do {                                                                                       \
		const struct st_step *sp_ = (st);                                                  \
		const int64_t sw_[] = {k, mc, ms, cm, rt, dl, cpu, oth, (s1) - (s0)};              \
		CHECK_INT(t, sp_->number, num);                                                    \
		CHECK_INT(t, sp_->start, (s0)*1000);                                               \
		CHECK_INT(t, sp_->end, (s1)*1000);                                                 \
		for (int si_ = 0; si_ < ST_NPARTS; si_++)                                          \
			if (sp_->cost[si_] != sw_[si_] * 1000)                                     \
				t_fail(t, __FILE__, __LINE__, "%s = %lld, want %lld",              \
				       st_part_key((enum st_part)si_), (long long)sp_->cost[si_],  \
				       (long long)sw_[si_] * 1000);                                \
	} while (0)

#define EV(cat, name, pid, tid, ts, dur, args)                                                     \
	"{\"ph\":\"X\",\"cat\":\"" cat "\",\"name\":\"" name "\",\"pid\":" #pid ",\"tid\":" #tid   \
	",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{" args "}}"

/* The upstream test_all_categories trace (tb_profiler.md §5.3). */
void test_steps_all_categories(struct t *t)
{
	const char *text = "[" EV(
	    "Operator", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 1, 123, 100,
	    180, "\"External id\":2") "," EV("Operator", "aten::to", 1, 123, 200, 60,
					     "\"External id\":3") "," EV("Operator",
									 "aten::nll_loss_backward",
									 1, 456, 340, 70,
									 "\"External id\":4") "," EV("Operator",
												     "ProfilerStep#1",
												     1, 123, 50, 400, "\"External id\":1") "," EV("Memcpy", "Memcpy HtoD", 0, 7, 405, 10, "\"correlation\":334,\"external id\":4") "," EV("Runtime", "cudaMemcpyAsync", 1, 456, 360, 20, "\"correlation\":334,\"external id\":4") "," EV("Memset",
																																									 "Memset (Device)", 0, 7, 420, 5, "\"correlation\":40344,\"external id\":4") "," EV("Runtime", "cudaMemsetAsync", 1, 456, 390,
																																																			    10,
																																																			    "\"correlation\":40344,\"external id\":4") "," EV("Kernel",
																																																									      "k", 0, 7, 430, 15, "\"correlation\":40348,\"external id\":4,\"device\":0") "," EV("Runtime", "cudaLaunchKernel", 1, 456,
																																																																				 405,
																																																																				 5,
																																																																				 "\"correlation\":40348,\"external id\":4") "]";
	struct st_result s;
	if (compute(t, text, false, &s))
		return;
	CHECK_INT(t, s.n, 1);
	CHECK(t, s.device_adjusted && !s.fallback);
	CHECK(t, s.has_kernel && s.has_runtime && s.has_memcpy_or_memset && !s.has_communication);
	/* Kernel 15, Memcpy 10, Memset 5, Runtime 30 ([360,380] [390,400]
	 * [405,410]), DataLoader 180 ([100,280], covering aten::to), CPU Exec
	 * 35 (aten::nll_loss_backward [340,410] less the runtimes: [340,360]
	 * [380,390] [400,405]), Other 400 - 275 = 125 */
	CHECK_STEP(t, &s.steps[0], 1, 50, 450, 15, 10, 5, 0, 30, 180, 35, 125);
	CHECK_INT(t, st_avg_ns(&s, ST_TOTAL), 400000);
	CHECK_DBL(t, st_avg_us(&s, ST_DATALOADER), 180.0, 0);
	st_free(&s);
}

/* A GPU-side ProfilerStep copy and a GPU annotation: by default they are
 * ignored; with tb_compat the copy is an extra, empty step and the
 * annotation is CPU Exec. */
void test_steps_gpu_annotation(struct t *t)
{
	const char *text =
	    "[" EV("cpu_op", "ProfilerStep#1", 1, 1, 100,
		   100, "") "," EV("cpu_op", "ProfilerStep#2", 1, 1, 300, 100,
				   "") "," EV("cpu_op", "aten::mm", 1, 1, 110, 40, "\"External id\":5") "," EV("cuda_runtime", "cudaLaunchKernel", 1, 1, 120, 10, "\"External id\":5,\"correlation\":1") "," EV("kernel", "k1", 0, 7, 160, 80, "\"External id\":5,\"correlation\":1,\"device\":0") "," EV("gpu_user_annotation", "ProfilerStep#1", 0, 7, 160, 80, "") "," EV("cpu_op",
																																													     "aten::add",
																																													     1,
																																													     1, 310, 40, "\"External id\":6") "," EV("cuda_runtime",
																																																		     "cudaLaunchKernel", 1, 1, 320, 10, "\"External id\":6,\"correlation\":2") "," EV("kernel",
																																																												      "k2",
																																																												      0,
																																																												      7,
																																																												      360,
																																																												      20,
																																																												      "\"External id\":6,\"correlation\":2,\"device\":0") "," EV("gpu_user_annotation", "fwd", 0, 7, 360,
																																																																				 30,
																																																																				 "") "]";
	struct st_result s;
	if (compute(t, text, false, &s))
		return;
	/* step 1 ends with its kernel (240); step 2 [300,400]: kernel 20,
	 * runtime 10, aten::add 40 - 10 = 30, other 100 - 60 = 40 */
	CHECK_INT(t, s.n, 2);
	if (s.n == 2) {
		CHECK_STEP(t, &s.steps[0], 1, 100, 240, 80, 0, 0, 0, 10, 0, 30, 20);
		CHECK_STEP(t, &s.steps[1], 2, 300, 400, 20, 0, 0, 0, 10, 0, 30, 40);
	}
	st_free(&s);
	if (compute(t, text, true, &s))
		return;
	/* host steps [100,200] [160,240] (the copy) [300,400]: the copy
	 * launched nothing, starts at the previous end (240) and ends there;
	 * the last step keeps (0.8 x 0 is not more than 1). In step 2 the GPU
	 * annotation [360,390] adds 10 to CPU Exec ([380,390]). */
	CHECK_INT(t, s.n, 3);
	if (s.n == 3) {
		CHECK_STEP(t, &s.steps[0], 1, 100, 240, 80, 0, 0, 0, 10, 0, 30, 20);
		CHECK_STEP(t, &s.steps[1], 1, 240, 240, 0, 0, 0, 0, 0, 0, 0, 0);
		CHECK_STEP(t, &s.steps[2], 2, 300, 400, 20, 0, 0, 0, 10, 0, 40, 30);
		CHECK_INT(t, st_avg_ns(&s, ST_TOTAL), 80000); /* (140 + 0 + 100) / 3 */
	}
	st_free(&s);
}

/* Step 0 delayed by a kernel from before the window; the last step
 * dropped by the 0.8 rule (5, 5, then 3 activities). */
void test_steps_prev_end_and_trim(struct t *t)
{
	const char *text =
	    "[" EV("cpu_op", "ProfilerStep#1",
		   1, 1, 100, 100, "") "," EV("cpu_op", "ProfilerStep#2", 1, 1, 200, 100, "") "," EV("cpu_op", "ProfilerStep#3", 1, 1, 300, 100, "") "," EV("kernel", "stale", 0, 7, 50, 80, "\"correlation\":99,\"device\":0") "," EV("cuda_runtime", "launch", 1, 1, 110, 10, "\"correlation\":1") "," EV("kernel",
																																					    "a", 0, 7, 140, 10, "\"correlation\":1,\"device\":0") "," EV("kernel",
																																													 "a",
																																													 0,
																																													 7,
																																													 140,
																																													 10,
																																													 "\"correlation\":1,\"device\":0") "," EV("kernel",
																																																		  "a",
																																																		  0,
																																																		  7,
																																																		  140, 10, "\"correlation\":1,\"device\":0") "," EV("kernel", "a", 0, 7, 140, 10, "\"correlation\":1,\"device\":0") "," EV("kernel",
																																																																	   "a",
																																																																	   0,
																																																																	   7,
																																																																	   140,
																																																																	   10,
																																																																	   "\"correlation\":1,\"device\":0") "," EV("cuda_runtime", "launch", 1, 1, 210, 10, "\"correlation\":2") "," EV("kernel", "b", 0, 7, 290, 30, "\"correlation\":2,\"device\":0") "," EV("kernel",
																																																																																								"b", 0, 7, 290, 30, "\"correlation\":2,\"device\":0") "," EV("kernel",
																																																																																															     "b",
																																																																																															     0,
																																																																																															     7,
																																																																																															     290,
																																																																																															     30,
																																																																																															     "\"correlation\":2,\"device\":0") "," EV("kernel",
																																																																																																				      "b",
																																																																																																				      0,
																																																																																																				      7, 290, 30, "\"correlation\":2,\"device\":0") "," EV("kernel", "b", 0, 7, 290, 30, "\"correlation\":2,\"device\":0") "," EV("cuda_runtime",
																																																																																																																				  "launch",
																																																																																																																				  1, 1, 310, 10, "\"correlation\":3") "," EV("kernel", "c", 0, 7, 330, 10, "\"correlation\":3,\"device\":0") "," EV("kernel", "c", 0, 7, 330, 10, "\"correlation\":3,\"device\":0") "," EV("kernel", "c", 0, 7, 330, 10,
																																																																																																																																											   "\"correlation\":3,\"device\":0") "]";
	struct st_result s;
	if (compute(t, text, false, &s))
		return;
	/* prev_end = max(100, 130): the stale kernel ends before step 1's
	 * first kernel (140). Step 1 [130,200], step 2 [200,320]. Slots
	 * [130,320] less kernels [50,130] [140,150] [290,320] [330,340]
	 * leave [130,140] [150,290]; runtime there: [210,220]. */
	CHECK_INT(t, s.host_steps, 3);
	CHECK_INT(t, s.n, 2);
	if (s.n == 2) {
		CHECK_INT(t, s.steps[0].devices, 5);
		CHECK_STEP(t, &s.steps[0], 1, 130, 200, 10, 0, 0, 0, 0, 0, 0, 60);
		CHECK_STEP(t, &s.steps[1], 2, 200, 320, 30, 0, 0, 0, 10, 0, 0, 80);
		CHECK_INT(t, st_avg_ns(&s, ST_TOTAL), 95000);
		CHECK_INT(t, st_avg_ns(&s, ST_KERNEL), 20000);
	}
	st_free(&s);
}

/* A step entirely under a kernel: the reference then restarts its
 * "slots" from the steps for the next role, so Runtime counts 10 under
 * the kernel and the parts add up to more than the step (reproduced in
 * both modes). */
void test_steps_slots_restart(struct t *t)
{
	const char *text = "[" EV("cpu_op", "ProfilerStep#4", 1, 1, 100, 100, "") "," EV(
	    "kernel", "stale", 0, 7, 90, 35,
	    "\"correlation\":9,\"device\":0") "," EV("cuda_runtime", "launch", 1, 1, 110, 10,
						     "\"correlation\":1") "," EV("kernel", "k", 0,
										 7, 120, 130,
										 "\"correla"
										 "tion\":1,"
										 "\"device"
										 "\":0") "]";
	struct st_result s;
	if (compute(t, text, false, &s))
		return;
	/* step [100,250] under kernels [90,250]: Kernel 150; slots restart at
	 * Memcpy (empty); Runtime [110,120] = 10; Other [100,110] [120,250] */
	CHECK_INT(t, s.n, 1);
	if (s.n == 1)
		CHECK_STEP(t, &s.steps[0], 4, 100, 250, 150, 0, 0, 0, 10, 0, 0, 140);
	st_free(&s);
}

/* No ProfilerStep: step "0" over cpu_op and python events only; user
 * annotations count as CPU Exec, python_function not at all. A trace
 * with no host event at all has no step. */
void test_steps_fallback(struct t *t)
{
	const char *text =
	    "[" EV("cpu_op", "a", 1, 1, 10, 20, "") "," EV("cpu_op", "b", 1, 2, 20, 30, "") "," EV(
		"python", "c", 1, 1, 60, 10, "") "," EV("user_annotation", "x", 1, 3, 5, 75,
							"") "," EV("python_function", "f", 1, 1, 0,
								   100, "") "]";
	struct st_result s;
	if (compute(t, text, false, &s))
		return;
	CHECK(t, s.fallback && !s.device_adjusted);
	CHECK_INT(t, s.n, 1);
	if (s.n == 1) /* [10,70]: the annotation [5,80] covers it all */
		CHECK_STEP(t, &s.steps[0], 0, 10, 70, 0, 0, 0, 0, 0, 0, 60, 0);
	CHECK(t, !st_part_shown(&s, ST_KERNEL) && !st_part_shown(&s, ST_COMM));
	CHECK(t, st_part_shown(&s, ST_CPU_EXEC));
	st_free(&s);
	if (compute(t, "[" EV("kernel", "k", 0, 7, 10, 5, "\"device\":0") "]", false, &s))
		return;
	CHECK(t, s.fallback);
	CHECK_INT(t, s.n, 0);
	CHECK_INT(t, st_avg_ns(&s, ST_TOTAL), 0);
	st_free(&s);
}

/* Communication: the collective op's range and the kernels sharing its
 * external id; c10d:: ops are not collectives for the reference. */
void test_steps_communication(struct t *t)
{
	const char *text = "[" EV("cpu_op", "ProfilerStep#3", 1, 1, 0, 100, "") "," EV(
	    "cpu_op", "nccl:all_reduce", 1, 1, 10, 10,
	    "\"External id\":7") "," EV("cpu_op", "c10d::allreduce_", 1, 1, 15, 10,
					"\"External id\":8") "," EV("kernel",
								    "ncclKernel_"
								    "AllReduce",
								    0, 7, 30, 30,
								    "\"External "
								    "id\":7,\"device\":"
								    "0") "," EV("kerne"
										"l",
										"gemm", 0, 8, 40,
										10,
										"\"Exte"
										"rnal "
										"id\":"
										"8,"
										"\"devi"
										"ce\":"
										"0") "]";
	struct st_result s;
	if (compute(t, text, false, &s))
		return;
	/* Kernel [40,50] 10; Communication [10,20] [30,40] [50,60] 30;
	 * CPU Exec [20,25] 5; Other [0,10] [25,30] [60,100] 55 */
	CHECK(t, s.has_communication && s.has_nccl && !s.has_gloo);
	CHECK_INT(t, s.n, 1);
	if (s.n == 1)
		CHECK_STEP(t, &s.steps[0], 3, 0, 100, 10, 0, 0, 30, 0, 0, 5, 55);
	st_free(&s);
}

/* The upstream test_gpu_utilization trace (values in its expected.json). */
void test_gpumetrics_upstream(struct t *t)
{
	const char
	    *text =
		"[" EV("Operator", "aten::mat_mul", 1, 1, 100, 100, "\"External id\":2") "," EV(
		    "Operator", "aten::mm", 1, 1, 120,
		    70, "\"External id\":4") "," EV("Kernel", "k", 0, 7, 130, 10,
						    "\"correlation\":334,\"external "
						    "id\":4,\"device\":1,"
						    "\"blocks per SM\":0.5,\"est. achieved "
						    "occupancy %\":0.6") "," EV("Runtime",
										"cudaLaunchKernel",
										1, 1, 120, 0,
										"\"correlation\":"
										"334,\"external "
										"id\":4") "," EV("K"
												 "e"
												 "r"
												 "n"
												 "e"
												 "l",
												 "g",
												 0,
												 7,
												 135,
												 15,
												 "\"correlation\":335,\"external id\":2,\"device\":1,"
												 "\"blocks per SM\":0.6,\"est. achieved occupancy %\":0.1") "," EV("Kernel",
																				   "g",
																				   0,
																				   7,
																				   150,
																				   0,
																				   "\"correlation\":335,\"external id\":2,\"device\":1,"
																				   "\"blocks per SM\":0.3,\"est. achieved occupancy %\":0.2") "," EV("Runtime",
																												     "cudaLaunchKernel", 1, 1, 120, 0, "\"correlation\":335,\"external id\":2") "," EV("Kernel",
																																						       "k",
																																						       0,
																																						       7,
																																						       145,
																																						       25,
																																						       "\"correlation\":336,\"external id\":4,\"device\":1,"
																																						       "\"blocks per SM\":0.3,\"est. achieved occupancy %\":1.0") "," EV("Runtime",
																																															 "cudaLaunchKernel",
																																															 1,
																																															 1,
																																															 125,
																																															 3, "\"correlation\":336,\"external id\":4") "," EV("Kernel",
																																																					    "k",
																																																					    0, 7, 200,
																																																					    20,
																																																					    "\"correlation\":337,\"external id\":2,\"device\":1,"
																																																					    "\"blocks per SM\":10.5,\"est. achieved occupancy %\":0.3") "," EV("Runtime", "cudaLaunchKernel", 1, 1, 195, 1,
																																																													       "\"correlation\":337,\"external id\":2") "]";
	struct trace *tr = t_load_text(t, text);
	if (!tr)
		return;
	struct err e = {0};
	struct gm_result g;
	/* window [100,220] (the fallback step); busy [130,170] [200,220] */
	CHECK_INT(t, gm_compute(tr, false, true, 100000, 220000, true, &g, &e), 0);
	CHECK_INT(t, g.n, 1);
	if (g.n == 1) {
		const struct gm_gpu *p = &g.gpus[0];
		CHECK_INT(t, p->id, 1);
		CHECK_INT(t, p->busy_ns, 60000);
		CHECK_DBL(t, p->utilization, 0.5, 0);
		/* (0.5*5 + 1*5 + 0.6*5 + 0.9*5 + 0.3*20 + residue*30 + 1*20) / 120
		 * = 41 / 120, with the reference's float residue */
		CHECK(t, p->has_sm_efficiency);
		CHECK_DBL(t, p->sm_efficiency, 0.3416666666666668, 0);
		/* (0.6*10 + 0.1*15 + 1.0*25 + 0.3*20) / 70 = 38.5 / 70 */
		CHECK_DBL(t, p->occupancy, 0.55, 1e-15);
		CHECK_INT(t, p->blocks_per_sm_count, 5);
		CHECK_INT(t, p->occupancy_count, 5);
		CHECK_INT(t, g.bucket_ns, 10000);
		/* 12 buckets of 10 µs over [100,220] and the closing point */
		CHECK_INT(t, p->nbuckets, 13);
		if (p->nbuckets == 13) {
			CHECK_INT(t, p->buckets[3].start, 130000);
			CHECK_DBL(t, p->buckets[3].value, 1.0, 0);
			CHECK_DBL(t, p->buckets[7].value, 0.0, 0);
			CHECK_INT(t, p->buckets[12].start, 220000);
		}
		CHECK_INT(t, p->sm_ranges.n, 7);
	}
	gm_free(&g);
	/* a window with no kernel: utilization 0, the others absent */
	CHECK_INT(t, gm_compute(tr, false, true, 0, 100000, false, &g, &e), 0);
	if (g.n == 1) {
		CHECK(t, g.gpus[0].has_utilization && !g.gpus[0].has_sm_efficiency &&
			     !g.gpus[0].has_occupancy);
		CHECK_DBL(t, g.gpus[0].utilization, 0.0, 0);
		CHECK_INT(t, g.gpus[0].nbuckets, 0);
	}
	gm_free(&g);
	tr_free(tr);
}
