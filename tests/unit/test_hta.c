/* hta: HTA's kernel types, and its rounding of times to whole us as a
 * reader of floats does it (hta/select.h). */
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
