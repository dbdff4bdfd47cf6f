/* Memory view (tbprof/memory.h) on small hand-written traces. Every expected
 * number is worked out by hand in the comment above it (times in the traces
 * are µs; results are ns and bytes). */
#include <stdlib.h>
#include <unistd.h>

#include "tbprof/memory.h"
#include "test.h"

struct fixture {
	struct trace *tr;
	struct optree o;
	struct memory m;
	bool ok;
};

static bool setup(struct t *t, struct fixture *f, const char *text, bool tb_compat)
{
	struct err e = {0};
	struct optree_opts oo = {.tb_compat = tb_compat};
	struct mem_opts mo = {.tb_compat = tb_compat};
	memset(f, 0, sizeof *f);
	if (!(f->tr = t_load_text(t, text)))
		return false;
	if (optree_build(f->tr, NULL, &oo, &f->o, &e)) {
		t_fail(t, __FILE__, __LINE__, "optree_build: %s", e.msg);
		tr_free(f->tr);
		return false;
	}
	if (mem_build(&f->o, &mo, &f->m, &e)) {
		t_fail(t, __FILE__, __LINE__, "mem_build: %s", e.msg);
		optree_free(&f->o);
		tr_free(f->tr);
		return false;
	}
	return f->ok = true;
}

static void teardown(struct fixture *f)
{
	if (!f->ok)
		return;
	mem_free(&f->m);
	optree_free(&f->o);
	tr_free(f->tr);
}

#define OP(name, ts, dur, tid)                                                                     \
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" name "\",\"pid\":1,\"tid\":" #tid           \
	",\"ts\":" #ts ",\"dur\":" #dur "}"
/* a [memory] record: device type, id, address, bytes, then the totals */
#define MEM(ts, tid, type, addr, bytes)                                                            \
	"{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":1,\"tid\":" #tid ",\"ts\":" #ts   \
	",\"args\":{\"Device Type\":" #type ",\"Device Id\":0,\"Addr\":" #addr                     \
	",\"Bytes\":" #bytes "}}"
#define MEMT(ts, addr, bytes, alloc, reserved)                                                     \
	"{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":1,\"tid\":1,\"ts\":" #ts          \
	",\"args\":{\"Device Type\":1,\"Device Id\":0,\"Addr\":" #addr ",\"Bytes\":" #bytes        \
	",\"Total Allocated\":" #alloc ",\"Total Reserved\":" #reserved "}}"

/* outer [10,110] holds aten::empty [20,30] and inner [50,80], which holds
 * leaf [60,70]. GPU records (address: bytes @ ts): A: +1000 @5 (before the
 * root: stale), 1: +100 @25 (aten::empty, parent outer), 2: +200 @40
 * (outer), 3: +50 @65 (leaf), 1: -100 @75 (inner; named aten::empty after
 * its allocation), 3: -50 @90 (outer), 2: -200 @200 (after the root:
 * stale). CPU: 100: +8 @55 (inner). */
static const char nested[] =
    "[" OP("outer", 10, 100, 1) "," OP("aten::empty", 20, 10, 1) "," OP("inner", 50, 30, 1) "," OP("leaf", 60, 10, 1) "," MEMT(
	5, 10, 1000, 1000,
	2048) "," MEMT(25, 1, 100, 1100,
		       2048) "," MEMT(40, 2, 200, 1300,
				      2048) "," MEM(55, 1, 0, 100,
						    8) "," MEMT(65, 3, 50, 1350,
								4096) "," MEMT(75, 1, -100, 1250,
									       4096) "," MEMT(90, 3,
											      -50,
											      1200,
											      4096) "," MEMT(200,
													     2,
													     -200,
													     1000,
													     4096) "]";

static const struct mem_stat_row *find(const struct fixture *f, const struct mem_stats *s,
				       const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(tr_str(f->tr, s->rows[i].name), name))
			return &s->rows[i];
	return NULL;
}

#define CHECK_ROW(t, r, n_calls, inc, s_inc, cnt, s_cnt, size, s_size)                             \
	do {                                                                                       \
		const struct mem_stat_row *r_ = (r);                                               \
		CHECK(t, r_ != NULL);                                                              \
		if (r_) {                                                                          \
			CHECK_INT(t, r_->calls, n_calls);                                          \
			CHECK_INT(t, r_->increase, inc);                                           \
			CHECK_INT(t, r_->self_increase, s_inc);                                    \
			CHECK_INT(t, r_->alloc_count, cnt);                                        \
			CHECK_INT(t, r_->self_alloc_count, s_cnt);                                 \
			CHECK_INT(t, r_->alloc_size, size);                                        \
			CHECK_INT(t, r_->self_alloc_size, s_size);                                 \
		}                                                                                  \
	} while (0)

void test_memory_nested(struct t *t)
{
	struct fixture f;
	if (!setup(t, &f, nested, false))
		return;
	struct memory *m = &f.m;
	struct err e = {0};
	/* 8 records, 2 stale (@5, @200); the profiler starts at the first
	 * record (5 µs), before any op */
	CHECK_INT(t, m->n, 8);
	CHECK_INT(t, m->stale, 2);
	CHECK_INT(t, m->assigned, 6);
	CHECK_INT(t, m->start, 5000);
	CHECK_INT(t, m->ndevs, 2);
	CHECK_STR(t, m->devs[0].name, "cpu");
	CHECK_STR(t, m->devs[1].name, "cuda:0");
	CHECK_INT(t, mem_default_device(m), 1);
	CHECK_INT(t, mem_find_device(m, "GPU0"), 1);
	CHECK_INT(t, mem_find_device(m, "cuda:1"), MEM_NO_DEV);
	/* peaks: GPU totals up to 1350 allocated, 4096 reserved; CPU none */
	CHECK(t, m->devs[1].has_allocated && m->devs[1].has_reserved);
	CHECK_INT(t, m->devs[1].peak_allocated, 1350);
	CHECK_INT(t, m->devs[1].peak_reserved, 4096);
	CHECK(t, !m->devs[0].has_allocated);
	/* the free @75 (record 5 in time order) inherits aten::empty */
	CHECK_INT(t, m->recs[5].ts, 75000);
	CHECK(t, m->recs[5].op != MEM_NIL);
	if (m->recs[5].op != MEM_NIL)
		CHECK_STR(t, optree_name(&f.o, m->recs[5].op), "aten::empty");

	/* GPU: aten::empty 100/100/1; leaf 50/50/1; inner self -100 (the
	 * free), total -100 + 50 = -50, one allocation of 50 below; outer
	 * self +200 -50 = 150 with one allocation of 200, total 150 + 100 -
	 * 50 = 200, 3 allocations, 350 bytes. Rows by name. */
	struct mem_stats s;
	if (!mem_stats(m, 1, NULL, &s, &e)) {
		CHECK_INT(t, s.n, 4);
		if (s.n == 4) {
			CHECK_STR(t, tr_str(f.tr, s.rows[0].name), "aten::empty");
			CHECK_STR(t, tr_str(f.tr, s.rows[3].name), "outer");
		}
		CHECK_ROW(t, find(&f, &s, "aten::empty"), 1, 100, 100, 1, 1, 100, 100);
		CHECK_ROW(t, find(&f, &s, "leaf"), 1, 50, 50, 1, 1, 50, 50);
		CHECK_ROW(t, find(&f, &s, "inner"), 1, -50, -100, 1, 0, 50, 0);
		CHECK_ROW(t, find(&f, &s, "outer"), 1, 200, 150, 3, 1, 350, 200);
		mem_stats_free(&s);
	}
	/* CPU: 8 bytes in inner, carried up to outer */
	if (!mem_stats(m, 0, NULL, &s, &e)) {
		CHECK_INT(t, s.n, 2);
		CHECK_ROW(t, find(&f, &s, "inner"), 1, 8, 8, 1, 1, 8, 8);
		CHECK_ROW(t, find(&f, &s, "outer"), 1, 8, 0, 1, 0, 8, 0);
		mem_stats_free(&s);
	}
	/* window [50, 80] µs: GPU records @65 and @75 only. aten::empty ends
	 * before it (no row); inner self -100, total -50 (50 in 1 below);
	 * outer: nothing of its own, total -50 */
	struct mem_window w = {50000, 80000};
	if (!mem_stats(m, 1, &w, &s, &e)) {
		CHECK_INT(t, s.n, 3);
		CHECK(t, find(&f, &s, "aten::empty") == NULL);
		CHECK_ROW(t, find(&f, &s, "inner"), 1, -50, -100, 1, 0, 50, 0);
		CHECK_ROW(t, find(&f, &s, "leaf"), 1, 50, 50, 1, 1, 50, 50);
		CHECK_ROW(t, find(&f, &s, "outer"), 1, -50, 0, 1, 0, 50, 0);
		mem_stats_free(&s);
	}
	teardown(&f);
}

void test_memory_curve_events(struct t *t)
{
	struct fixture f;
	if (!setup(t, &f, nested, false))
		return;
	struct memory *m = &f.m;
	struct err e = {0};
	/* the 7 GPU records, times since 5 µs */
	struct mem_curve c;
	if (!mem_curve(m, 1, NULL, false, &c, &e)) {
		CHECK_INT(t, c.n, 7);
		if (c.n == 7) {
			CHECK_INT(t, c.v[0].time, 0);
			CHECK_INT(t, c.v[0].allocated, 1000);
			CHECK_INT(t, c.v[3].time, 60000);
			CHECK_INT(t, c.v[3].allocated, 1350);
			CHECK_INT(t, c.v[3].reserved, 4096);
			CHECK_INT(t, c.v[6].time, 195000);
			CHECK_INT(t, c.v[6].allocated, 1000);
		}
		mem_curve_free(&c);
	}
	/* step plot: 2*7-1 points; point 1 = (20 µs, the first values) */
	if (!mem_curve(m, 1, NULL, true, &c, &e)) {
		CHECK_INT(t, c.n, 13);
		if (c.n == 13) {
			CHECK_INT(t, c.v[1].time, 20000);
			CHECK_INT(t, c.v[1].allocated, 1000);
			CHECK_INT(t, c.v[1].reserved, 2048);
			CHECK_INT(t, c.v[2].allocated, 1100);
		}
		mem_curve_free(&c);
	}
	/* the CPU record has no totals: no curve */
	if (!mem_curve(m, 0, NULL, false, &c, &e)) {
		CHECK_INT(t, c.n, 0);
		mem_curve_free(&c);
	}
	/* GPU events: pairs in order of their free (@75 addr 1, @90 addr 3,
	 * @200 addr 2), then the unpaired allocation @5 */
	struct mem_events ev;
	if (!mem_events(m, 1, NULL, &ev, &e)) {
		CHECK_INT(t, ev.n, 4);
		if (ev.n == 4) {
			CHECK_STR(t, mem_event_label(&ev, &ev.v[0]), "outer (aten::empty)");
			CHECK_INT(t, ev.v[0].bytes, 100);
			CHECK_INT(t, m->recs[ev.v[0].alloc].ts - m->start, 20000);
			CHECK_INT(t, m->recs[ev.v[0].release].ts - m->start, 70000);
			CHECK_STR(t, mem_event_label(&ev, &ev.v[1]), "leaf");
			CHECK_INT(t, ev.v[1].bytes, 50);
			CHECK_STR(t, mem_event_label(&ev, &ev.v[2]), "outer");
			CHECK_INT(t, ev.v[2].bytes, 200);
			CHECK_INT(t, m->recs[ev.v[2].release].ts, 200000);
			CHECK_STR(t, mem_event_label(&ev, &ev.v[3]), "<unknown>");
			CHECK_INT(t, ev.v[3].bytes, 1000);
			CHECK_INT(t, ev.v[3].release, MEM_NIL);
		}
		mem_events_free(&ev);
	}
	/* window [20, 80] µs: addr 1 pairs; the allocations @40 and @65 lose
	 * their frees (outside): listed by allocation */
	struct mem_window w = {20000, 80000};
	if (!mem_events(m, 1, &w, &ev, &e)) {
		CHECK_INT(t, ev.n, 3);
		if (ev.n == 3) {
			CHECK_INT(t, ev.v[0].bytes, 100);
			CHECK_STR(t, mem_event_label(&ev, &ev.v[1]), "outer");
			CHECK_INT(t, ev.v[1].release, MEM_NIL);
			CHECK_STR(t, mem_event_label(&ev, &ev.v[2]), "leaf");
		}
		mem_events_free(&ev);
	}
	teardown(&f);
}

/* a [0,100]; GPU address 7: +64 @10, +32 @20 (re-allocated before a
 * free), -32 @30; address 9: -16 @40 and -16 @50 (no allocation). */
static const char realloc_text[] =
    "[" OP("a", 0, 100, 1) "," MEM(10, 1, 1, 7, 64) "," MEM(20, 1, 1, 7, 32) "," MEM(
	30, 1, 1, 7, -32) "," MEM(40, 1, 1, 9, -16) "," MEM(50, 1, 1, 9, -16) "]";

void test_memory_realloc(struct t *t)
{
	struct fixture f;
	struct err e = {0};
	struct mem_events ev;
	/* tb: the allocation @10 vanishes; the pair (@20, @30, 32 bytes);
	 * address 9 gives one row, at the first free's place with the last
	 * free's time (50 µs) */
	if (setup(t, &f, realloc_text, true)) {
		if (!mem_events(&f.m, 0, NULL, &ev, &e)) {
			CHECK_INT(t, ev.n, 2);
			if (ev.n == 2) {
				CHECK_STR(t, mem_event_label(&ev, &ev.v[0]), "a");
				CHECK_INT(t, ev.v[0].bytes, 32);
				CHECK_INT(t, f.m.recs[ev.v[0].alloc].ts, 20000);
				CHECK_INT(t, f.m.recs[ev.v[0].release].ts, 30000);
				CHECK_STR(t, mem_event_label(&ev, &ev.v[1]), "<unknown>");
				CHECK_INT(t, ev.v[1].alloc, MEM_NIL);
				CHECK_INT(t, f.m.recs[ev.v[1].release].ts, 50000);
				CHECK_INT(t, ev.v[1].bytes, 16);
			}
			mem_events_free(&ev);
		}
		teardown(&f);
	}
	/* default: the same pair, then the allocation @10 (64 bytes, never
	 * freed as far as the trace tells), then both frees of address 9 */
	if (setup(t, &f, realloc_text, false)) {
		if (!mem_events(&f.m, 0, NULL, &ev, &e)) {
			CHECK_INT(t, ev.n, 4);
			if (ev.n == 4) {
				CHECK_INT(t, ev.v[0].bytes, 32);
				CHECK_INT(t, f.m.recs[ev.v[0].alloc].ts, 20000);
				CHECK_STR(t, mem_event_label(&ev, &ev.v[1]), "a");
				CHECK_INT(t, ev.v[1].bytes, 64);
				CHECK_INT(t, f.m.recs[ev.v[1].alloc].ts, 10000);
				CHECK_INT(t, ev.v[1].release, MEM_NIL);
				CHECK_INT(t, f.m.recs[ev.v[2].release].ts, 40000);
				CHECK_INT(t, f.m.recs[ev.v[3].release].ts, 50000);
			}
			mem_events_free(&ev);
		}
		/* statistics see every record: a self +64 +32 -32 -16 -16 = 32,
		 * 2 allocations of 96 bytes */
		struct mem_stats s;
		if (!mem_stats(&f.m, 0, NULL, &s, &e)) {
			CHECK_INT(t, s.n, 1);
			CHECK_ROW(t, find(&f, &s, "a"), 1, 32, 32, 2, 2, 96, 96);
			mem_stats_free(&s);
		}
		teardown(&f);
	}
}

/* p [0,100] holds q [10,20] (holding r [12,14]) and r [50,60]; one GPU
 * record +40 @55 (in the second r), one on thread 2, which has no
 * operator (stale). The walk never enters q. */
static const char unreached[] = "[" OP("p", 0, 100, 1) "," OP("q", 10, 10, 1) "," OP(
    "r", 12, 2, 1) "," OP("r", 50, 10, 1) "," MEM(55, 1, 1, 5, 40) "," MEM(56, 2, 1, 6, 8) "]";

void test_memory_calls(struct t *t)
{
	struct fixture f;
	struct err e = {0};
	struct mem_stats s;
	/* default: r has 2 calls; tb counts only the r it reaches (quirk 12) */
	for (int tb = 0; tb < 2; tb++) {
		if (!setup(t, &f, unreached, tb))
			continue;
		CHECK_INT(t, f.m.stale, 1);
		CHECK_INT(t, f.m.assigned, 1);
		if (!mem_stats(&f.m, 0, NULL, &s, &e)) {
			CHECK_INT(t, s.n, 2);
			CHECK_ROW(t, find(&f, &s, "p"), 1, 40, 0, 1, 0, 40, 0);
			CHECK_ROW(t, find(&f, &s, "r"), tb ? 1 : 2, 40, 40, 1, 1, 40, 40);
			CHECK(t, find(&f, &s, "q") == NULL);
			mem_stats_free(&s);
		}
		teardown(&f);
	}
}

/* a [0,100]; a record of Device Type 2 (+8 @10: no device) and a GPU
 * record without "Addr" (+16 @20, PyTorch < 1.10: statistics only). */
static const char odd[] =
    "[" OP("a", 0, 100,
	   1) ",{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":1,\"tid\":1,\"ts\":10,"
	      "\"args\":{\"Device Type\":2,\"Device Id\":0,\"Addr\":1,\"Bytes\":8}}"
	      ",{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":1,\"tid\":1,\"ts\":20,"
	      "\"args\":{\"Device Type\":1,\"Device Id\":0,\"Bytes\":16,\"Total Allocated\":16,"
	      "\"Total Reserved\":32}}]";

void test_memory_other_records(struct t *t)
{
	struct fixture f;
	struct err e = {0};
	if (!setup(t, &f, odd, false))
		return;
	CHECK_INT(t, f.m.n, 2);
	CHECK_INT(t, f.m.unknown_device, 1);
	CHECK_INT(t, f.m.no_addr, 1);
	CHECK_INT(t, f.m.ndevs, 1);
	CHECK_INT(t, mem_default_device(&f.m), 0);
	/* the peak counts the record without an address */
	CHECK_INT(t, f.m.devs[0].peak_allocated, 16);
	struct mem_stats s;
	if (!mem_stats(&f.m, 0, NULL, &s, &e)) {
		CHECK_INT(t, s.n, 1);
		CHECK_ROW(t, find(&f, &s, "a"), 1, 16, 16, 1, 1, 16, 16);
		mem_stats_free(&s);
	}
	/* no device: nothing, not the Device Type 2 record */
	if (!mem_stats(&f.m, MEM_NO_DEV, NULL, &s, &e)) {
		CHECK_INT(t, s.n, 0);
		mem_stats_free(&s);
	}
	/* without an address: in no curve and no event */
	struct mem_curve c;
	if (!mem_curve(&f.m, 0, NULL, false, &c, &e)) {
		CHECK_INT(t, c.n, 0);
		mem_curve_free(&c);
	}
	struct mem_events ev;
	if (!mem_events(&f.m, 0, NULL, &ev, &e)) {
		CHECK_INT(t, ev.n, 0);
		mem_events_free(&ev);
	}
	teardown(&f);
}

/* 20 points 10 ns apart, reduced to 12 points at most: 2 columns (times
 * below 95 and from 95), each keeping its first and last points and its
 * first lowest/highest allocated and reserved ones. */
void test_memory_curve_reduce(struct t *t)
{
	static const int64_t alloc[20] = {5, 3, 9, 9, 1,  4,  4, 2, 8, 6,
					  7, 7, 0, 3, 11, 11, 2, 5, 5, 6};
	static const int64_t resv[20] = {10, 10, 10, 12, 12, 12, 11, 11, 11, 10,
					 20, 20, 19, 19, 19, 25, 25, 18, 18, 18};
	struct mem_point pts[20];
	for (int i = 0; i < 20; i++)
		pts[i] = (struct mem_point){10 * i, alloc[i], resv[i]};
	struct mem_curve c = {pts, 20};
	mem_curve_reduce(&c, 20); /* fits: unchanged */
	CHECK_INT(t, c.n, 20);
	mem_curve_reduce(&c, 5); /* below one column's points: unchanged */
	CHECK_INT(t, c.n, 20);
	mem_curve_reduce(&c, 12);
	static const int kept[] = {0, 2, 3, 4, 9, 10, 12, 14, 15, 17, 19};
	CHECK_INT(t, c.n, 11);
	for (size_t i = 0; i < c.n && i < 11; i++) {
		CHECK_INT(t, c.v[i].time, 10 * kept[i]);
		CHECK_INT(t, c.v[i].allocated, alloc[kept[i]]);
		CHECK_INT(t, c.v[i].reserved, resv[kept[i]]);
	}
	/* one column: the whole curve's first, last and extremes */
	for (int i = 0; i < 20; i++)
		pts[i] = (struct mem_point){10 * i, alloc[i], resv[i]};
	c = (struct mem_curve){pts, 20};
	mem_curve_reduce(&c, 6);
	static const int one[] = {0, 12, 14, 15, 19}; /* first+rmin, amin, amax, rmax, last */
	CHECK_INT(t, c.n, 5);
	for (size_t i = 0; i < c.n && i < 5; i++)
		CHECK_INT(t, c.v[i].time, 10 * one[i]);
}

/* A point at a column's fractional bound: 39 points 5 ns apart (span 191,
 * 2 columns of 95.5 ns): the point at 95 belongs to column 0 (95 * 2 / 191
 * = 0), so column 0 is the points 0..95 (20 points), column 1 100..190;
 * allocated = the time, reserved constant: column 0 keeps 0 (first, lowest,
 * reserved's extremes) and 95 (highest, last), column 1 100 and 190. */
void test_memory_curve_reduce_bound(struct t *t)
{
	struct mem_point pts[39];
	for (int i = 0; i < 39; i++)
		pts[i] = (struct mem_point){5 * i, 5 * i, 7};
	struct mem_curve c = {pts, 39};
	mem_curve_reduce(&c, 12);
	static const int kept[] = {0, 95, 100, 190};
	CHECK_INT(t, c.n, 4);
	for (size_t i = 0; i < c.n && i < 4; i++)
		CHECK_INT(t, c.v[i].time, kept[i]);
}

/* Random curves (fixed seed): at most max points, a subsequence of the
 * curve in order, and the first point, last point and the first highest
 * allocated point always kept. */
void test_memory_curve_reduce_random(struct t *t)
{
	static struct mem_point pts[5000], orig[5000];
	uint64_t x = 42;
	for (int round = 0; round < 50; round++) {
		size_t n = 100 + (size_t)(round * 97 % 4900), max = 6 + (size_t)(round * 31 % 300);
		int64_t time = 0;
		for (size_t i = 0; i < n; i++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			time += (int64_t)(x >> 60); /* steps of 0..15 ns, ties included */
			orig[i] = pts[i] = (struct mem_point){time, (int64_t)(x >> 40) % 1000,
							      (int64_t)(x >> 20) % 1000};
		}
		size_t top = 0;
		for (size_t i = 1; i < n; i++)
			top = orig[i].allocated > orig[top].allocated ? i : top;
		struct mem_curve c = {pts, n};
		mem_curve_reduce(&c, max);
		CHECK(t, c.n <= max);
		size_t j = 0; /* c.v must be a subsequence of orig */
		bool sub = true, has_top = false;
		for (size_t i = 0; i < c.n && sub; i++) {
			while (j < n && memcmp(&orig[j], &c.v[i], sizeof orig[j]))
				j++;
			sub = j < n;
			has_top |= j == top;
			j++;
		}
		CHECK(t, sub);
		CHECK(t, has_top);
		CHECK(t, c.n && !memcmp(&c.v[0], &orig[0], sizeof orig[0]) &&
			     !memcmp(&c.v[c.n - 1], &orig[n - 1], sizeof orig[0]));
	}
}
