/* hta: HTA's kernel types, and its rounding of times to whole us as a
 * reader of floats does it (hta/select.h). */
#include <math.h>

#include "core/stats.h"
#include "hta/select.h"
#include "test.h"
#include "trace/trace.h"

void test_hta_kernel_type(struct t *t)
{
	static const struct {
		const char *name;
		enum hta_ktype want;
	} cases[] = {
	    {"ncclDevKernel_AllReduce", HTA_COMM}, /* ^nccl */
	    {"void ncclKernel_x(int)", HTA_COMM},  /* .*ncclKernel.* */
	    {"hipMemcpyAsync", HTA_COMM},	   /* ^hip comes first */
	    {"Memcpy HtoD (Pageable -> Device)", HTA_MEMORY},
	    {"Memset (Device)", HTA_MEMORY},
	    {"dma_request", HTA_MEMORY},
	    {"cudaLaunchKernel", HTA_KOTHER},	 /* cuda.*LaunchKernel from the start */
	    {"xcudaLaunchKernel", HTA_COMPUTE},	 /* re.match is anchored */
	    {"Context Sync", HTA_KOTHER},	 /* ^.*Sync */
	    {"void fooMemcpyBar()", HTA_KOTHER}, /* .*Memcpy, not ^Memcpy */
	    {"Stream Wait Event", HTA_KOTHER},
	    {"sm90_xmma_gemm_f16f16", HTA_COMPUTE},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		CHECK_INT(t, hta_kernel_type(cases[i].name, strlen(cases[i].name)), cases[i].want);
}

/* ts 1700000000000000.125 us is a tie between two doubles (their spacing
 * there is 0.25): Python's float() makes it ...000.0, so HTA's ceil gives
 * ...000, not the ...001 of exact decimals; ...000.375 becomes ...000.5,
 * whose end (+ 0.25 = .75) floors to ...000: a negative duration. The
 * wanted values are Python's math.ceil(ts) and math.floor(ts + dur). */
void test_hta_rounding(struct t *t)
{
	struct trace *tr =
	    t_load_text(t, "{\"traceEvents\":["
			   "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k1\",\"pid\":0,\"tid\":7,"
			   "\"ts\":1700000000000000.125,\"dur\":1.5,\"args\":{\"stream\":7}},"
			   "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k2\",\"pid\":0,\"tid\":7,"
			   "\"ts\":1700000000000000.375,\"dur\":0.25,\"args\":{\"stream\":7}},"
			   "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k3\",\"pid\":0,\"tid\":7,"
			   "\"ts\":1700000000000000.126,\"dur\":0.873,\"args\":{\"stream\":7}}]}");
	if (!tr)
		return;
	struct hta_events h;
	struct err e = {0};
	CHECK_INT(t, hta_events(tr, &h, &e), 0);
	CHECK(t, h.rounded);
	CHECK_INT(t, h.n, 3);
	static const int64_t want[3][2] = {{1700000000000000, 1700000000000001},
					   {1700000000000001, 1700000000000000},
					   {1700000000000001, 1700000000000001}};
	for (size_t i = 0; i < h.n && i < 3; i++) {
		CHECK_INT(t, h.v[i].ts, want[i][0] * 1000);
		CHECK_INT(t, h.v[i].end, want[i][1] * 1000);
		CHECK_INT(t, h.v[i].stream, 7);
		CHECK_INT(t, h.v[i].ktype, HTA_COMPUTE);
	}
	hta_events_free(&h);
	tr_free(tr);
}

/* pandas' describe() (core/stats.h stats_describe), the values numpy gives:
 * {1, 2, 3, 4}: mean 2.5, std sqrt(5/3) = 1.2909944487358056, p25 h = 0.75
 * -> 1.75, p50 2.5, p75 3.25; one sample: std NaN; none: all NaN. */
void test_hta_describe(struct t *t)
{
	double v[] = {4, 1, 3, 2};
	struct stats_desc d;
	stats_describe(v, 4, &d);
	CHECK_INT(t, (int64_t)d.count, 4);
	CHECK_DBL(t, d.mean, 2.5, 0);
	CHECK_DBL(t, d.std, 1.2909944487358056, 1e-15);
	CHECK_DBL(t, d.min, 1, 0);
	CHECK_DBL(t, d.p25, 1.75, 0);
	CHECK_DBL(t, d.p50, 2.5, 0);
	CHECK_DBL(t, d.p75, 3.25, 0);
	CHECK_DBL(t, d.max, 4, 0);
	/* numpy interpolates from the nearer sample (np.percentile gives
	 * 1.2386415779566258 here; a + 0.75 (b - a) would be ...256) */
	double w[] = {1.3426865626802122, 0.926506623785866};
	stats_describe(w, 2, &d);
	CHECK(t, d.p75 == 1.2386415779566258);
	/* negative values, a -0 among zeros (kept in its place among the
	 * equal zeros: the min is the first of them), and the same values
	 * without it, by hand: sorted -3.5, -1, 0 (or -0), 0, 2 */
	double z[] = {2, -0.0, -3.5, 0, -1};
	stats_describe(z, 5, &d);
	CHECK(t, d.min == -3.5 && d.max == 2 && d.p50 == 0 && !signbit(d.p50) && d.p25 == -1);
	CHECK(t, z[2] == 0 && signbit(z[2]) && z[3] == 0 && !signbit(z[3]));
	double y[] = {2, 0, -3.5, 0, -1};
	stats_describe(y, 5, &d);
	CHECK(t, d.min == -3.5 && d.max == 2 && d.p50 == 0 && d.p25 == -1 && d.mean == -0.5);
	CHECK(t, y[0] == -3.5 && y[1] == -1 && y[2] == 0 && y[3] == 0 && y[4] == 2);
	double one[] = {7};
	stats_describe(one, 1, &d);
	CHECK(t, d.count == 1 && d.mean == 7 && isnan(d.std) && d.p25 == 7 && d.max == 7);
	stats_describe(NULL, 0, &d);
	CHECK(t, d.count == 0 && isnan(d.mean) && isnan(d.min) && isnan(d.max));
}
