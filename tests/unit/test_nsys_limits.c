/* Unit tests for the bounds of src/nsys: the interned scope-path tree
 * (tuple order, pooling past LIM_NVTX_DEPTH, the name cap), checked sums
 * and the statistics on values near 2^63, the analysis of deeply nested
 * ranges (linear, pooled, warned) and CSV record lines. */
#include <math.h>

#include "core/limits.h"
#include "nsys/nsys.h"
#include "nsys/scope.h"
#include "test.h"

void test_nsys_scope_tree(struct t *t)
{
	struct arena a;
	arena_init(&a);
	struct nsys_scopes s;
	CHECK_INT(t, nsys_scopes_init(&s, &a), 0);
	/* (b), (a), (a, z), (a, b), (a.b): Python orders them (a) < (a, b) <
	 * (a, z) < (a.b) < (b) */
	uint32_t b = nsys_scopes_child(&s, NSYS_SCOPE_ROOT, "b");
	uint32_t x = nsys_scopes_child(&s, NSYS_SCOPE_ROOT, "a");
	uint32_t az = nsys_scopes_child(&s, x, "z");
	uint32_t ab = nsys_scopes_child(&s, x, "b");
	uint32_t adotb = nsys_scopes_child(&s, NSYS_SCOPE_ROOT, "a.b");
	CHECK_INT(t, nsys_scopes_child(&s, x, "b"), ab); /* interned: same path, same node */
	CHECK_INT(t, nsys_scopes_rank(&s), 0);
	CHECK(t, s.v[x].rank < s.v[ab].rank);
	CHECK(t, s.v[ab].rank < s.v[az].rank);
	CHECK(t, s.v[az].rank < s.v[adotb].rank);
	CHECK(t, s.v[adotb].rank < s.v[b].rank);
	bool cut = true;
	CHECK_STR(t, nsys_scopes_join(&s, &a, ab, &cut), "a.b");
	CHECK(t, !cut);
	/* two paths that join to the same text are different groups */
	CHECK(t, ab != adotb);
	CHECK(t, nsys_scopes_equal(&s, ab, "a.b"));
	CHECK(t, nsys_scopes_equal(&s, adotb, "a.b"));
	CHECK(t, !nsys_scopes_equal(&s, ab, "a.bc"));
	CHECK(t, !nsys_scopes_equal(&s, ab, "a."));
	nsys_scopes_free(&s);
	arena_free(&a);
}

void test_nsys_scope_caps(struct t *t)
{
	struct arena a;
	arena_init(&a);
	struct nsys_scopes s;
	CHECK_INT(t, nsys_scopes_init(&s, &a), 0);
	uint32_t n = NSYS_SCOPE_ROOT;
	for (int i = 0; i < LIM_NVTX_DEPTH; i++)
		n = nsys_scopes_child(&s, n, "x");
	CHECK_INT(t, s.v[n].depth, LIM_NVTX_DEPTH);
	CHECK(t, !s.v[n].pooled);
	uint32_t p = nsys_scopes_child(&s, n, "deeper");
	CHECK(t, s.v[p].pooled);
	CHECK_INT(t, s.v[p].depth, LIM_NVTX_DEPTH + 1);
	CHECK_INT(t, nsys_scopes_child(&s, p, "deeper still"), p); /* every level below: one node */
	bool cut;
	const char *j = nsys_scopes_join(&s, &a, p, &cut);
	/* 64 "x" joined by dots, then ".…" */
	CHECK_INT(t, strlen(j), 64 * 2 - 1 + 1 + 3);
	CHECK(t, !strcmp(j + 127, "." LIM_NAME_ELLIPSIS));
	/* a name over the cap: cut at a character boundary, marker at the end */
	size_t big = LIM_NAME_BYTES + 100;
	char *longname = arena_alloc(&a, big + 1);
	for (size_t i = 0; i < big; i += 2)
		memcpy(longname + i, "\xc3\xa9", 2); /* é, two bytes */
	longname[big] = 0;
	uint32_t l = nsys_scopes_child(&s, NSYS_SCOPE_ROOT, longname);
	j = nsys_scopes_join(&s, &a, l, &cut);
	CHECK(t, cut);
	/* LIM_NAME_BYTES - 3 = 4093 bytes of é pairs round down to 4092 */
	CHECK_INT(t, strlen(j), 4092 + 3);
	CHECK(t, !strcmp(j + 4092, LIM_NAME_ELLIPSIS));
	CHECK(t, !memcmp(j, longname, 4092));
	CHECK(t, nsys_scopes_equal(&s, l, longname)); /* the full text still matches */
	nsys_scopes_free(&s);
	arena_free(&a);
}

void test_nsys_checked_stats(struct t *t)
{
	int64_t sum = INT64_MAX - 1;
	CHECK(t, nsys_add(&sum, 1));
	CHECK(t, sum == INT64_MAX);
	CHECK(t, !nsys_add(&sum, 1));
	int64_t d;
	CHECK(t, !nsys_sub(INT64_MAX, INT64_MIN, &d));
	CHECK(t, nsys_sub(5, -3, &d) && d == 8);
	/* S() of values whose total overflows: refused, never wrapped */
	struct arena a;
	arena_init(&a);
	int64_t v[2] = {INT64_MAX, 1};
	CHECK(t, nsys_summary(&a, v, 2) == NULL);
	/* stddev of {-(2^62), 2^62}: mean 0, sample variance 2^125, sd 2^62.5 */
	int64_t w[2] = {-(INT64_C(1) << 62), INT64_C(1) << 62};
	CHECK_DBL(t, nsys_stddev(w, 2), ldexp(sqrt(2.0), 62), 1e-12 * ldexp(1.0, 62));
	/* large values with n * max < 2^63 stay exact: {2^40, 2^40 + 2} -> sd sqrt(2) */
	int64_t x[2] = {INT64_C(1) << 40, (INT64_C(1) << 40) + 2};
	CHECK_DBL(t, nsys_stddev(x, 2), sqrt(2.0), 1e-15);
	arena_free(&a);
}

/* A run's host CSV of n nested ranges r0 > r1 > ... under the iteration. */
static char *nested_csv(struct arena *a, int n)
{
	size_t cap = 200 + (size_t)n * 80, o = 0;
	char *s = arena_alloc(a, cap);
	o += (size_t)snprintf(s + o, cap - o,
			      "Start (ns),End (ns),Duration (ns),DurChild (ns),DurNonChild (ns),"
			      "Name,PID,TID,Lvl,NumChild,RangeId,ParentId\n"
			      "0,100000,100000,0,100000,:cap,1,1,0,1,1,\n"
			      "1,99999,99998,0,99998,:iteration 0,1,1,1,1,2,1\n");
	for (int i = 0; i < n; i++)
		o += (size_t)snprintf(s + o, cap - o, "%d,%d,%d,1,1,:r%d,1,1,%d,1,%d,%d\n", 10 + i,
				      20 + 2 * n - i, 10 + 2 * n - 2 * i, i, i + 2, i + 3, i + 2);
	return s;
}

void test_nsys_nested_analysis(struct t *t)
{
	struct arena a;
	arena_init(&a);
	struct err e = {0};
	struct nsys_jv *m = nsys_jv_new(&a, NSYS_JOBJ), *out = NULL;
	nsys_jv_set(&a, m, "capture_range", nsys_jv_str(&a, "cap"));
	int n = 1000;
	const char *text = nested_csv(&a, n);
	struct nsys_csv c;
	struct nsys_ranges host, gpu = {0};
	CHECK_INT(t, nsys_csv_parse(&a, "h.csv", text, strlen(text), &c, &e), 0);
	CHECK_INT(t, c.lines[0], 2);
	CHECK_INT(t, c.lines[c.nrows - 1], n + 3);
	CHECK_INT(t, nsys_host_from_csv(&a, &c, &host, &e), 0);
	CHECK_INT(t, host.v[5].row, 7);
	CHECK_INT(t, nsys_analyze(&a, m, &host, &gpu, NULL, &out, &e), 0);
	const struct nsys_jv *hr = nsys_jv_get(out, "host_ranges");
	/* cap, r0, r0.r1, ..., 64 levels, then one pooled group of the rest */
	CHECK_INT(t, hr->n, 1 + LIM_NVTX_DEPTH + 1);
	const struct nsys_jv *last = hr->items[hr->n - 1];
	CHECK_INT(t, nsys_jv_get(last, "instances")->i, n - LIM_NVTX_DEPTH);
	const char *nm = nsys_jv_get(last, "name")->s;
	CHECK(t, !strncmp(nm, "r0.r1.r2.r3.", 12)); /* the chain r0.r1.r2... */
	CHECK(t, strstr(nm, ".r62.r63." LIM_NAME_ELLIPSIS) != NULL);
	/* the pooled group's total: durations 2n + 10 - 2i for i = 64..n-1 */
	int64_t want = 0;
	for (int i = LIM_NVTX_DEPTH; i < n; i++)
		want += 10 + 2 * n - 2 * i;
	CHECK_INT(t, nsys_jv_get(nsys_jv_get(last, "inclusive"), "total_ns")->i, want);
	const struct nsys_jv *w = nsys_jv_get(out, "warnings");
	CHECK_INT(t, w->n, 3); /* no GPU projection, no GPU capture, the depth cap */
	CHECK(t, !nsys_warning_is_cap(w->items[1]->s));
	CHECK_STR(t, w->items[2]->s,
		  "NVTX ranges nest deeper than the scope cap (64 levels); 936 host ranges and 0 "
		  "GPU projections are pooled under '" LIM_NAME_ELLIPSIS "'.");
	/* an overflowing sum names the CSV line */
	const char *big = "Start (ns),End (ns),Duration (ns),DurChild (ns),DurNonChild (ns),"
			  "Name,PID,TID,Lvl,NumChild,RangeId,ParentId\n"
			  "0,1,9223372036854775807,0,1,:cap,1,1,0,0,1,\n"
			  "0,1,1,0,1,:x,1,1,0,0,2,\n"
			  "0,1,9223372036854775807,0,1,:x,1,1,0,0,3,\n";
	CHECK_INT(t, nsys_csv_parse(&a, "h.csv", big, strlen(big), &c, &e), 0);
	CHECK_INT(t, nsys_host_from_csv(&a, &c, &host, &e), 0);
	CHECK(t, nsys_analyze(&a, m, &host, &gpu, NULL, &out, &e) != 0);
	CHECK_STR(t, e.path, "h.csv");
	CHECK(t, !strncmp(e.msg, "line 4: its Duration does not fit", 33));
	arena_free(&a);
}
