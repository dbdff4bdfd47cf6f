/* Unit test of the trace builder (trace/build.h): a trace filled without
 * any reader, then read by the model's links and the steps analysis, whose
 * answers are computed here by hand. Includes nothing of src/kineto. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tbprof/steps.h"
#include "test.h"
#include "trace/build.h"
#include "trace/link.h"

struct fill {
	struct tr_build b;
	struct err e;
	uint32_t cpu, second, gpu; /* tracks */
};

static uint32_t str(struct fill *f, const char *s)
{
	return tr_build_str(&f->b, s, strlen(s));
}

/* An X event of category cat on track; its kind classified from the
 * category text, its flags from the name, as a reader does. */
static size_t add(struct fill *f, const char *cat, const char *name, uint32_t track, int64_t ts,
		  int64_t dur, int64_t ext_id, int64_t corr, uint32_t aux)
{
	uint32_t c = str(f, cat), n = str(f, name), slot;
	enum tr_kind k;
	if (tr_build_cat(&f->b, c, &k, &slot))
		return SIZE_MAX;
	struct tr_build_event ev = {.ts = ts,
				    .dur = dur,
				    .ext_id = ext_id,
				    .corr = corr,
				    .offset = ts / 1000,
				    .name = n,
				    .cat = c,
				    .track = track,
				    .aux = aux,
				    .kind = k,
				    .ph = 'X',
				    .flags = tr_name_flags(k, name, strlen(name))};
	size_t row;
	return tr_build_event(&f->b, &ev, &row, &f->e) ? SIZE_MAX : row;
}

static struct tr_gpu_arg gpu_arg(int32_t stream, int64_t bytes)
{
	return (struct tr_gpu_arg){.device = 0,
				   .stream = stream,
				   .grid = {4, 1, 1},
				   .block = {128, 1, 1},
				   .regs = 32,
				   .shared_mem = 0,
				   .bytes = bytes,
				   .blocks_per_sm = NAN,
				   .warps_per_sm = NAN,
				   .occupancy = NAN};
}

/* Thread 10: ProfilerStep#1 [0, 100 µs) holding aten::mm [10, 60) which
 * calls cudaLaunchKernel [20, 30) (correlation 42); thread 20:
 * cudaMemcpyAsync [70, 78) (correlation 43); stream 7: the kernel [40, 70)
 * and the memcpy [75, 80). Times in ns. */
static struct trace *build_small(struct t *t)
{
	struct fill f = {0};
	CHECK_INT(t, tr_build_begin(&f.b, "built.json"), 0);
	struct tr_id p1 = {.num = 1}, p0 = {.num = 0}, t10 = {.num = 10}, t20 = {.num = 20},
		     s7 = {.num = 7};
	f.cpu = tr_build_track(&f.b, &p1, &t10);
	f.second = tr_build_track(&f.b, &p1, &t20);
	f.gpu = tr_build_track(&f.b, &p0, &s7);
	CHECK_INT(t, tr_build_track(&f.b, &p1, &t10), f.cpu); /* found, not added */
	CHECK_INT(t, tr_build_track(&f.b, &p1, &t20), f.second);
	CHECK_INT(t, f.b.t->tracks.n, 3);
	CHECK_INT(t, f.b.t->procs.n, 2);
	CHECK_INT(t, tr_build_proc(&f.b, &p0), f.b.t->tracks.v[f.gpu].process);
	f.b.t->procs.v[tr_build_proc(&f.b, &p1)].name = str(&f, "python3");
	f.b.t->tracks.v[f.cpu].thread_name = str(&f, "main");

	uint32_t op_row = TR_NONE, kern_row = TR_NONE, copy_row = TR_NONE, mem_row = TR_NONE;
	struct tr_op_arg op = {.input_dims = str(&f, "[[2, 3], [3, 4]]"), .seq = 9, .fwd_tid = -1};
	struct tr_op_extra x = {.collective = 0,
				.in_nelems = -1,
				.out_nelems = -1,
				.group_size = -1,
				.coll_seq = -1,
				.module_id = -1};
	CHECK_INT(t, tr_build_op(&f.b, &op, &x, &op_row), 0);
	struct tr_gpu_arg kg = gpu_arg(7, -1), cg = gpu_arg(7, 1024);
	CHECK_INT(t, tr_build_gpu(&f.b, &kg, &kern_row), 0);
	CHECK_INT(t, tr_build_gpu(&f.b, &cg, &copy_row), 0);

	CHECK_INT(t, add(&f, "cpu_op", "ProfilerStep#1", f.cpu, 0, 100000, -1, -1, TR_NONE), 0);
	CHECK_INT(t, add(&f, "cpu_op", "aten::mm", f.cpu, 10000, 50000, 5, -1, op_row), 1);
	CHECK_INT(
	    t, add(&f, "cuda_runtime", "cudaLaunchKernel", f.cpu, 20000, 10000, 5, 42, TR_NONE), 2);
	CHECK_INT(t, add(&f, "kernel", "gemm_kernel", f.gpu, 40000, 30000, 5, 42, kern_row), 3);
	CHECK_INT(
	    t, add(&f, "cuda_runtime", "cudaMemcpyAsync", f.second, 70000, 8000, -1, 43, TR_NONE),
	    4);
	CHECK_INT(t, add(&f, "gpu_memcpy", "Memcpy HtoD", f.gpu, 75000, 5000, -1, 43, copy_row), 5);

	/* a [memory] instant whose external id needs the wide table */
	struct tr_mem_arg ma = {.bytes = 4096,
				.total_allocated = 4096,
				.total_reserved = 8192,
				.addr = 0x7f00,
				.device_type = 1,
				.device_id = 0};
	CHECK_INT(t, tr_build_mem(&f.b, &ma, &mem_row), 0);
	uint32_t c = str(&f, "cpu_instant_event"), slot;
	enum tr_kind ck;
	CHECK_INT(t, tr_build_cat(&f.b, c, &ck, &slot), 0);
	struct tr_build_event ev = {.ts = 15000,
				    .dur = 0,
				    .ext_id = 5000000000,
				    .corr = -1,
				    .offset = 15,
				    .name = str(&f, "[memory]"),
				    .cat = c,
				    .track = f.cpu,
				    .aux = mem_row,
				    .kind = TR_MEMORY,
				    .ph = 'i'};
	size_t row;
	CHECK_INT(t, tr_build_event(&f.b, &ev, &row, &f.e), 0);
	CHECK_INT(t, row, 6);

	struct tr_flow fs = {
	    .ts = 20000, .id = 42, .offset = 20, .cat = str(&f, "ac2g"), .track = f.cpu, .ph = 's'};
	struct tr_flow ff = fs;
	ff.ts = 40000, ff.track = f.gpu, ff.ph = 'f', ff.offset = 40;
	CHECK_INT(t, tr_build_flow(&f.b, &fs) || tr_build_flow(&f.b, &ff), 0);
	uint32_t series[] = {str(&f, "a"), str(&f, "b")};
	double vals[] = {1.5, 2.5};
	CHECK_INT(t, tr_build_counter(&f.b, 50000, f.cpu, str(&f, "mem"), 2, series, vals), 0);

	struct trace *tr;
	int rc = tr_build_finish(&f.b, false, &tr, &f.e);
	CHECK_INT(t, rc, 0);
	CHECK(t, f.b.t == NULL); /* the builder let go of it */
	return rc ? NULL : tr;
}

void test_build_trace(struct t *t)
{
	struct trace *tr = build_small(t);
	if (!tr)
		return;
	CHECK_INT(t, tr->ev.n, 7);
	/* the finished tables hold their rows and no room past them */
	CHECK_INT(t, tr->ev.cap, 7);
	CHECK_INT(t, tr->flows.cap, tr->flows.n);
	CHECK_INT(t, tr->counters.cap, 2);
	CHECK_INT(t, tr->min_ts, 0);
	CHECK_INT(t, tr->max_end, 100000);
	CHECK_INT(t, tr->counts.events, 7); /* counted from the rows: nothing else was */
	CHECK_INT(t, tr->counts.by_phase['X'], 6);
	CHECK_INT(t, tr->counts.by_phase['i'], 1);
	CHECK_INT(t, tr->counts.by_kind[TR_CPU_OP], 2);
	CHECK_INT(t, tr->counts.by_kind[TR_RUNTIME], 2);
	CHECK_INT(t, tr->counts.by_kind[TR_KERNEL], 1);
	CHECK_INT(t, tr->counts.by_kind[TR_MEMCPY], 1);
	CHECK_INT(t, tr->counts.by_kind[TR_MEMORY], 1);
	CHECK_INT(t, tr->counts.flows, 2);
	CHECK_INT(t, tr->counts.counters, 1);
	CHECK_INT(t, tr->counters.n, 2);
	CHECK_INT(t, tr->ncats, 5); /* cpu_op, cuda_runtime, kernel, gpu_memcpy, instants */
	CHECK_STR(t, tr_str(tr, tr->cats[0].cat), "cpu_op");
	CHECK_INT(t, tr->cats[0].n, 2);
	CHECK_INT(t, tr->cats[1].n, 2);
	CHECK_INT(t, tr->tracks.v[0].events, 4);
	CHECK_INT(t, tr->tracks.v[1].events, 1);
	CHECK_INT(t, tr->tracks.v[2].events, 2);
	CHECK_STR(t, tr_str(tr, tr->procs.v[tr->tracks.v[0].process].name), "python3");
	/* narrow columns, the wide one included */
	CHECK_INT(t, tr_dur(tr, 0), 100000);
	CHECK_INT(t, tr_corr(tr, 3), 42);
	CHECK_INT(t, tr_ext_id(tr, 6), 5000000000);
	CHECK_INT(t, tr_ext_id(tr, 4), -1);
	CHECK_INT(t, tr->wide.n, 1);
	CHECK(t, (tr->ev.flags[0] & TRF_STEP) && !(tr->ev.flags[1] & TRF_STEP));
	/* argument rows through the kind's table */
	CHECK(t, tr_gpu_arg(tr, 5) && tr_gpu_arg(tr, 5)->bytes == 1024);
	CHECK(t, tr_gpu_arg(tr, 1) == NULL && tr_mem_arg(tr, 3) == NULL);
	CHECK(t, tr_op_arg(tr, 1) && tr_op_arg(tr, 1)->seq == 9 && tr_op_arg(tr, 1)->extra == 0);
	CHECK(t, tr_mem_arg(tr, 6) && tr_mem_arg(tr, 6)->total_reserved == 8192);
	CHECK(t, tr_op_arg(tr, 0) == NULL); /* no argument row */
	/* the whole-trace checks ran: the kernel has its launch, the flow both ends */
	int64_t total = 0;
	for (int k = 0; k < AN_COUNT; k++)
		total += (int64_t)tr->anomalies.count[k];
	CHECK_INT(t, total, 0);

	struct err e = {0};
	struct tr_links l;
	CHECK_INT(t, tr_links_build(tr, false, &l, &e), 0);
	CHECK_INT(t, l.launcher[3], 2); /* the kernel, by cudaLaunchKernel */
	CHECK_INT(t, l.launcher[5], 4); /* the memcpy, from the other thread */
	CHECK_INT(t, l.launcher[1], TR_NONE);
	CHECK_INT(t, l.ndev, 2);
	size_t n;
	const uint32_t *d = tr_links_devices(&l, 2, &n);
	CHECK(t, n == 1 && d && d[0] == 3);

	/* One step [0, 100 µs). Priority breakdown over it: Kernel [40, 70) =
	 * 30 µs; Memcpy [75, 80) = 5; Runtime [20, 30) + [70, 75) (the rest
	 * of [70, 78) is the memcpy's) = 15; CPU Exec: aten::mm [10, 60) less
	 * the above = [10, 20) + [30, 40) = 20 (the step event itself has no
	 * role); Other: [0, 10) + [80, 100) = 30. */
	struct st_opts so = {0};
	struct st_result sr;
	CHECK_INT(t, st_compute(tr, &l, &so, &sr, &e), 0);
	CHECK_INT(t, sr.n, 1);
	if (sr.n == 1) {
		const struct st_step *s = &sr.steps[0];
		CHECK_INT(t, s->number, 1);
		CHECK_INT(t, s->start, 0);
		CHECK_INT(t, s->end, 100000);
		CHECK_INT(t, s->cost[ST_KERNEL], 30000);
		CHECK_INT(t, s->cost[ST_MEMCPY], 5000);
		CHECK_INT(t, s->cost[ST_MEMSET], 0);
		CHECK_INT(t, s->cost[ST_COMM], 0);
		CHECK_INT(t, s->cost[ST_RUNTIME], 15000);
		CHECK_INT(t, s->cost[ST_DATALOADER], 0);
		CHECK_INT(t, s->cost[ST_CPU_EXEC], 20000);
		CHECK_INT(t, s->cost[ST_OTHER], 30000);
		CHECK_INT(t, s->cost[ST_TOTAL], 100000);
	}
	CHECK(t, sr.has_kernel && sr.has_runtime && sr.has_memcpy_or_memset);
	CHECK(t, !sr.fallback);
	st_free(&sr);
	tr_links_free(&l);
	tr_free(tr);
}

/* A kernel whose correlation no runtime has: the finish's checks count it. */
void test_build_checks(struct t *t)
{
	struct fill f = {0};
	CHECK_INT(t, tr_build_begin(&f.b, "-"), 0);
	CHECK_STR(t, f.b.t->path, "<stdin>");
	struct tr_id p = {.num = 3}, s = {.is_str = true};
	s.str = str(&f, "stream 7");
	f.gpu = tr_build_track(&f.b, &p, &s);
	CHECK_INT(t, f.gpu, 0);
	CHECK_INT(t, add(&f, "kernel", "lonely", f.gpu, 500, 100, -1, 99, TR_NONE), 0);
	struct trace *tr;
	CHECK_INT(t, tr_build_finish(&f.b, true, &tr, &f.e), 0);
	CHECK_INT(t, tr->anomalies.count[AN_KERNEL_NO_LAUNCH], 1);
	CHECK_INT(t, tr->anomalies.first_offset[AN_KERNEL_NO_LAUNCH], 0); /* offset 500/1000 */
	char buf[32];
	CHECK_STR(t, tr_id_text(tr, &tr->tracks.v[0].tid, buf, sizeof buf), "stream 7");
	tr_free(tr);
	/* abort releases what was filled */
	CHECK_INT(t, tr_build_begin(&f.b, "x.json"), 0);
	CHECK(t, tr_build_track(&f.b, &p, &p) != TR_NONE);
	tr_build_abort(&f.b);
	CHECK(t, f.b.t == NULL);
}

/* tr_build_plan: from 4 MiB and 1/64 of the input on, a full table grows
 * to its rows x 1.1 x total / read (at most x 64), by a quarter at least;
 * before that, or with the size unknown, it doubles. */
void test_build_plan(struct t *t)
{
	struct tr_build b;
	if (tr_build_begin(&b, "plan.json"))
		return;
	tr_build_plan(&b, 8 << 20, 80 << 20);
	CHECK_INT(t, tr_build_want(&b, 100), 1100);
	tr_build_plan(&b, 2 << 20, 80 << 20); /* under 4 MiB */
	CHECK_INT(t, tr_build_want(&b, 100), 0);
	tr_build_plan(&b, 8 << 20, (int64_t)1 << 40); /* under 1/64 */
	CHECK_INT(t, tr_build_want(&b, 100), 0);
	tr_build_plan(&b, 8 << 20, -1); /* size unknown */
	CHECK_INT(t, tr_build_want(&b, 100), 0);
	tr_build_plan(&b, 80 << 20, 80 << 20); /* all read */
	CHECK_INT(t, tr_build_want(&b, 100), 0);
	tr_build_plan(&b, 16 << 20, 1024 << 20); /* 1/64: x 70.4, at most x 64 */
	CHECK_INT(t, tr_build_want(&b, 100), 6400);

	/* rows of an argument table and of the events: doubling, then to plan */
	tr_build_plan(&b, 0, -1);
	struct tr_gpu_arg a = {.stream = 7};
	uint32_t row = 0;
	for (int i = 0; i < 17; i++)
		CHECK_INT(t, tr_build_gpu(&b, &a, &row), 0);
	CHECK_INT(t, b.t->gpu.cap, 32);
	for (int i = 17; i < 32; i++)
		CHECK_INT(t, tr_build_gpu(&b, &a, &row), 0);
	tr_build_plan(&b, 10 << 20, 40 << 20); /* x 4.4 */
	CHECK_INT(t, tr_build_gpu(&b, &a, &row), 0);
	CHECK_INT(t, row, 32);
	CHECK_INT(t, b.t->gpu.cap, 145); /* 33 x 4.4 */
	CHECK_INT(t, b.t->gpu.v[32].stream, 7);
	CHECK_INT(t, tr_build_reserve(&b.t->ev, 1, tr_build_want(&b, 1)), 0);
	CHECK_INT(t, b.t->ev.cap, 4);			   /* 1 x 4.4 */
	CHECK_INT(t, tr_build_reserve(&b.t->ev, 1, 0), 0); /* room for it */
	CHECK_INT(t, tr_build_reserve(&b.t->ev, 5, 0), 0);
	CHECK_INT(t, b.t->ev.cap, 8); /* doubled */
	tr_build_abort(&b);
}
