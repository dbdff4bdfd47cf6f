/* test_ncu: the .ncu-rep reader on hand-built containers, value formatting,
 * units, and (with ../shared) the real reports' ground truth. */
#include <math.h>
#include <stdlib.h>

#include "ncu/ncu.h"
#include "test.h"

static size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t k = 0;
	for (; v >= 0x80; v >>= 7)
		p[k++] = (uint8_t)(v | 0x80);
	p[k++] = (uint8_t)v;
	return k;
}

/* The magic, FileHeader {1: 7} and the header of one block: NumResults n,
 * a StringTable of names, PayloadSize payload. Returns the bytes written
 * (the payload follows). */
static size_t put_head(uint8_t *out, uint64_t n, const char *const *names, size_t nnames,
		       uint64_t payload)
{
	uint8_t hdr[256];
	size_t h = 0, k = 10, tab = 0;
	memcpy(out, "NVR\0\2\0\0\0\x08\x07", 10);
	for (size_t i = 0; i < nnames; i++)
		tab += 2 + strlen(names[i]);
	hdr[h++] = 0x10; /* 2: NumResults */
	h += put_varint(hdr + h, n);
	hdr[h++] = 0x22; /* 4: StringTable */
	h += put_varint(hdr + h, tab);
	for (size_t i = 0; i < nnames; i++) {
		hdr[h++] = 0x0a;
		hdr[h++] = (uint8_t)strlen(names[i]);
		memcpy(hdr + h, names[i], strlen(names[i]));
		h += strlen(names[i]);
	}
	hdr[h++] = 0x28; /* 5: PayloadSize */
	h += put_varint(hdr + h, payload);
	out[k++] = (uint8_t)h, out[k++] = 0, out[k++] = 0, out[k++] = 0;
	memcpy(out + k, hdr, h);
	return k + h;
}

/* A minimal container: magic, FileHeader {1: 7}, one block whose header
 * has NumResults=1, a StringTable {"gpu__time_duration.sum"} and
 * PayloadSize, and a payload of one ProfileResult {6: "k", 13: {1: 0,
 * 2: {3: 1536.0}}, 22: 1}. */
static size_t build(uint8_t *out)
{
	static const uint8_t result[] = {
	    0x32, 0x01, 'k',							    /* 6: "k" */
	    0x6a, 0x0d, 0x08, 0x00, 0x12, 0x09, 0x19, 0, 0, 0, 0, 0, 0, 0x98, 0x40, /* 13 */
	    0xb0, 0x01, 0x01,							    /* 22: 1 */
	};
	static const char *const name[] = {"gpu__time_duration.sum"};
	size_t k = put_head(out, 1, name, 1, 4 + sizeof result);
	out[k++] = sizeof result;
	out[k++] = 0;
	out[k++] = 0;
	out[k++] = 0;
	memcpy(out + k, result, sizeof result);
	return k + sizeof result;
}

void test_ncu_minimal(struct t *t)
{
	uint8_t b[256];
	size_t n = build(b);
	struct ncu_report *r;
	struct err e;
	CHECK_INT(t, ncu_parse(&r, b, n, "m", 1, &e), 0);
	if (!r)
		return;
	CHECK_INT(t, r->file_version, 7);
	CHECK_INT(t, r->nresults, 1);
	CHECK_INT(t, r->nblocks, 1);
	CHECK_STR(t, ncu_kernel_name(&r->results[0]), "k");
	CHECK_INT(t, r->results[0].context, 1);
	const struct ncu_metric *m = ncu_lookup(r, 0, "gpu__time_duration.sum");
	CHECK(t, m != NULL);
	if (m)
		CHECK_DBL(t, m->value.d, 1536.0, 0);
	ncu_free(r);
}

/* A report of n results in one block, each {6: "kI" padded with 'x' to
 * 1,100 bytes, 13: {1: 0, 2: {3: I}}, 22: 1}: 4.5 MB at n = 4096, enough
 * for ncu_parse_results to parse the second half on a second thread. *len
 * its size; the offsets of the results' entries in offs (n of them). */
#define PAR_NAME 1100
static uint8_t *build_many(size_t n, size_t *len, size_t *offs)
{
	static const char *const name[] = {"gpu__time_duration.sum"};
	static const uint8_t metric[] = {0x6a, 0x0d, 0x08, 0x00,
					 0x12, 0x09, 0x19}; /* 13: {1: 0, 2: {3: */
	size_t rlen = 3 + PAR_NAME + sizeof metric + 8 + 3;
	uint8_t *b = malloc(64 + n * (4 + rlen));
	if (!b)
		return NULL;
	size_t k = put_head(b, n, name, 1, n * (4 + rlen));
	for (size_t i = 0; i < n; i++) {
		offs[i] = k;
		b[k++] = (uint8_t)rlen, b[k++] = (uint8_t)(rlen >> 8), b[k++] = 0, b[k++] = 0;
		b[k++] = 0x32; /* 6: the name, its length in two bytes */
		k += put_varint(b + k, PAR_NAME);
		char id[16];
		int l = snprintf(id, sizeof id, "k%zu", i);
		memset(b + k, 'x', PAR_NAME);
		memcpy(b + k, id, (size_t)l);
		k += PAR_NAME;
		double v = (double)i; /* (little-endian, as the format) */
		memcpy(b + k, metric, sizeof metric);
		memcpy(b + k + sizeof metric, &v, 8);
		k += sizeof metric + 8;
		b[k++] = 0xb0, b[k++] = 0x01, b[k++] = 0x01; /* 22: 1 */
	}
	*len = k;
	return b;
}

/* Two threads parse the same results as one, and report the same first
 * error in file order whichever half holds it. */
void test_ncu_parallel(struct t *t)
{
	enum { N = 4096 };
	static size_t offs[N];
	size_t len;
	uint8_t *b = build_many(N, &len, offs);
	CHECK(t, b != NULL && len > ((size_t)4 << 20));
	if (!b)
		return;
	struct ncu_report *r;
	struct err e;
	for (int threads = 1; threads <= 2; threads++) {
		CHECK_INT(t, ncu_parse(&r, b, len, "m", threads, &e), 0);
		if (!r)
			continue;
		CHECK_INT(t, r->nresults, N);
		size_t bad = 0;
		for (size_t i = 0; i < r->nresults && i < N; i++) {
			char want[16];
			snprintf(want, sizeof want, "k%zu", i);
			const char *got = ncu_kernel_name(&r->results[i]);
			const struct ncu_metric *m = ncu_lookup(r, i, "gpu__time_duration.sum");
			if (strlen(got) != PAR_NAME || strncmp(got, want, strlen(want)) ||
			    got[strlen(want)] != 'x' || !m || m->value.d != (double)i ||
			    r->results[i].offset != (int64_t)offs[i])
				bad++;
		}
		CHECK_INT(t, bad, 0);
		ncu_free(r);
	}
	/* a bad metric (its field 13 becomes a varint, wire type 0) in the
	 * worker's half, then also one in the caller's half */
	size_t late = offs[N - 10] + 4 + 3 + PAR_NAME, early = offs[100] + 4 + 3 + PAR_NAME;
	b[late] = 0x68;
	for (int threads = 1; threads <= 2; threads++) {
		CHECK_INT(t, ncu_parse(&r, b, len, "m", threads, &e), ERR_FORMAT);
		CHECK_INT(t, e.offset, (int64_t)late);
	}
	b[early] = 0x68;
	for (int threads = 1; threads <= 2; threads++) {
		CHECK_INT(t, ncu_parse(&r, b, len, "m", threads, &e), ERR_FORMAT);
		CHECK_INT(t, e.offset, (int64_t)early);
	}
	/* what stops the walk after the block (two bytes of a next block's
	 * length): a bad result before it is the error, as in a serial parse */
	b[len] = 1, b[len + 1] = 0;
	for (int threads = 1; threads <= 2; threads++) {
		CHECK_INT(t, ncu_parse(&r, b, len + 2, "m", threads, &e), ERR_FORMAT);
		CHECK_INT(t, e.offset, (int64_t)early);
	}
	b[early] = b[late] = 0x6a;
	for (int threads = 1; threads <= 2; threads++) {
		CHECK_INT(t, ncu_parse(&r, b, len + 2, "m", threads, &e), ERR_FORMAT);
		CHECK_INT(t, e.offset, (int64_t)len);
		CHECK_STR(t, e.msg, "block header length runs past the end of the file");
	}
	free(b);
}

/* Results whose metric names come in the same order share one lookup
 * table (pages.c: shared_pos); one in another order gets its own: four
 * results, names a.sum and b.sum as [a, b], [b, a], [a, b], [a, b], each
 * metric's value its own. */
void test_ncu_lookup_layouts(struct t *t)
{
	static const char *const names[] = {"a.sum", "b.sum"};
	static const int order[4][2] = {{0, 1}, {1, 0}, {0, 1}, {0, 1}};
	uint8_t b[512];
	size_t rlen = 2 * 15 + 3; /* two metrics, 22: 1 */
	size_t k = put_head(b, 4, names, 2, 4 * (4 + rlen));
	for (int r = 0; r < 4; r++) {
		b[k++] = (uint8_t)rlen, b[k++] = 0, b[k++] = 0, b[k++] = 0;
		for (int m = 0; m < 2; m++) {
			static const uint8_t head[] = {0x6a, 0x0d, 0x08, 0x00, 0x12, 0x09, 0x19};
			memcpy(b + k, head, sizeof head);
			b[k + 3] = (uint8_t)order[r][m]; /* 1: the name's string id */
			double v = 10.0 * r + order[r][m];
			memcpy(b + k + sizeof head, &v, 8);
			k += sizeof head + 8;
		}
		b[k++] = 0xb0, b[k++] = 0x01, b[k++] = 0x01;
	}
	struct ncu_report *rep;
	struct err e;
	CHECK_INT(t, ncu_parse(&rep, b, k, "m", 1, &e), 0);
	if (!rep)
		return;
	CHECK_INT(t, rep->nresults, 4);
	/* asked in an order that builds, shares and builds again */
	static const int ask[][2] = {{0, 0}, {1, 0}, {2, 1}, {3, 1},
				     {1, 1}, {0, 1}, {3, 0}, {2, 0}};
	for (size_t i = 0; i < sizeof ask / sizeof ask[0]; i++) {
		const struct ncu_metric *m = ncu_lookup(rep, (size_t)ask[i][0], names[ask[i][1]]);
		CHECK(t, m != NULL);
		if (m)
			CHECK_DBL(t, m->value.d, 10.0 * ask[i][0] + ask[i][1], 0);
	}
	CHECK(t, ncu_lookup(rep, 2, "c.sum") == NULL);
	ncu_free(rep);
}

void test_ncu_truncations(struct t *t)
{
	uint8_t b[256];
	size_t n = build(b);
	struct err e;
	struct ncu_report *r;
	/* every cut except "just the file header" (a valid empty report) fails
	 * with an offset inside the file */
	for (size_t cut = 0; cut < n; cut++) {
		int rc = ncu_parse(&r, b, cut, "m", 1, &e);
		if (cut == 10) {
			CHECK_INT(t, rc, 0);
			ncu_free(r);
			continue;
		}
		CHECK(t, rc < 0);
		CHECK(t, e.offset >= 0 && e.offset <= (int64_t)cut);
	}
	/* every flipped byte: an error or a report, never a crash */
	for (size_t i = 0; i < n; i++) {
		uint8_t c[256];
		memcpy(c, b, n);
		c[i] ^= 0xff;
		if (ncu_parse(&r, c, n, "m", 1, &e) == 0)
			ncu_free(r);
	}
	b[0] = 'X';
	CHECK_INT(t, ncu_parse(&r, b, n, "m", 1, &e), ERR_FORMAT);
	CHECK_INT(t, e.offset, 0);
}

/* A result with two faults: the error is the first in the file (its
 * metric turned into a varint, before its last field's invalid wire
 * type), with one thread or two. */
void test_ncu_first_error(struct t *t)
{
	uint8_t b[256];
	size_t n = build(b);
	size_t metric = n - 21 + 3, last = n - 3; /* the result is the last 21 bytes */
	b[metric] = 0x68;			  /* 13: varint */
	b[last] = 0xb7;				  /* 22: wire type 7 */
	struct ncu_report *r;
	struct err e;
	for (int threads = 1; threads <= 2; threads++) {
		CHECK_INT(t, ncu_parse(&r, b, n, "m", threads, &e), ERR_FORMAT);
		CHECK_INT(t, e.offset, (int64_t)metric);
		CHECK_STR(t, e.msg, "field 13 has wire type varint, expected length-delimited");
	}
	b[metric] = 0x6a; /* only the last fault left */
	CHECK_INT(t, ncu_parse(&r, b, n, "m", 1, &e), ERR_FORMAT);
	CHECK_INT(t, e.offset, (int64_t)last);
}

void test_ncu_format(struct t *t)
{
	char b[64];
	CHECK_STR(t, ncu_fmt_double(2751.0, b, sizeof b), "2,751");
	CHECK_STR(t, ncu_fmt_double(6853333333.333, b, sizeof b), "6,853,333,333.33");
	CHECK_STR(t, ncu_fmt_double(0.0045, b, sizeof b), "0.00");
	CHECK_STR(t, ncu_fmt_double(0.0, b, sizeof b), "0");
	CHECK_STR(t, ncu_fmt_double(96.875, b, sizeof b), "96.88");
	CHECK_STR(t, ncu_fmt_double(-1234.5, b, sizeof b), "-1,234.50");
	CHECK_STR(t, ncu_fmt_double(NAN, b, sizeof b), "n/a");
	struct ncu_value v = {.type = NCU_V_U64, .u = 17179344896ull};
	CHECK_STR(t, ncu_fmt_value(&v, b, sizeof b), "17,179,344,896");
	CHECK_STR(t, ncu_fmt_value(NULL, b, sizeof b), "n/a");
}

void test_ncu_units(struct t *t)
{
	CHECK_STR(t, ncu_metric_unit("gpu__time_duration.sum"), "ns");
	CHECK_STR(t, ncu_metric_unit("dram__bytes.sum.per_second"), "byte/s");
	CHECK_STR(t, ncu_metric_unit("gpc__cycles_elapsed.avg.per_second"), "hz");
	CHECK_STR(t, ncu_metric_unit("sm__throughput.avg.pct_of_peak_sustained_elapsed"), "%");
	CHECK_STR(t, ncu_metric_unit("launch__registers_per_thread"), "register/thread");
	CHECK_STR(t, ncu_metric_unit("launch__shared_mem_per_block_static"), "byte/block");
	CHECK_STR(t, ncu_metric_unit("smsp__inst_executed.avg.per_cycle_active"), "inst/cycle");
	CHECK_STR(t, ncu_metric_unit("launch__grid_size"), "");
	CHECK_STR(t, ncu_metric_unit("no_such_metric"), "");
}

void test_ncu_markup(struct t *t)
{
	uint8_t b[256];
	size_t n = build(b);
	struct ncu_report *r;
	struct err e;
	if (ncu_parse(&r, b, n, "m", 1, &e))
		return;
	CHECK_STR(t, ncu_expand_markup(r, "see @section:LaunchStats:Launch Statistics@."),
		  "see Launch Statistics.");
	CHECK_STR(t, ncu_expand_markup(r, "@url:Guide:https://x.org/a#b@"),
		  "Guide (https://x.org/a#b)");
	CHECK_STR(t, ncu_expand_markup(r, "a@b"), "a@b");
	ncu_free(r);
}

void test_ncu_shared(struct t *t)
{
	NEED_SHARED(t);
	char path[512];
	snprintf(path, sizeof path, "%s/data/ncu/ncu2023.3_h800_full_nvtx.ncu-rep", t->shared);
	struct ncu_report *r;
	struct err e;
	CHECK_INT(t, ncu_load(&r, path, 0, &e), 0);
	if (!r)
		return;
	CHECK_INT(t, r->nresults, 5);
	CHECK_INT(t, r->nstrings, 970);
	CHECK_INT(t, r->results[0].api_call_id, 1431);
	CHECK_INT(t, r->results[0].grid[0], 1056);
	CHECK_INT(t, r->results[4].grid[0], 0);
	const struct ncu_metric *m = ncu_lookup(r, 0, "gpu__time_duration.sum");
	CHECK(t, m && m->value.d == 16448.0);
	m = ncu_lookup(r, 4, "gpu__time_duration.sum");
	CHECK(t, m && isnan(m->value.d));
	CHECK(t, ncu_lookup(r, 4, "launch__grid_size") == NULL);
	ncu_free(r);
	/* 2019: grid stored as total threads */
	snprintf(path, sizeof path,
		 "%s/data/ncu/ncu2019_rtx2070_metrics_matrixmul.nsight-cuprof-report", t->shared);
	CHECK_INT(t, ncu_load(&r, path, 0, &e), 0);
	if (!r)
		return;
	CHECK_INT(t, r->nresults, 8);
	CHECK_INT(t, r->results[0].grid[0], 20);
	CHECK_INT(t, r->results[0].grid_raw[0], 640);
	CHECK_INT(t, r->nprocesses, 0);
	ncu_free(r);
}

/* Kernel types from real-style kernel names (cuBLAS, cuDNN, CUTLASS,
 * PyTorch, Triton, FlashAttention, NCCL), one group per type. */
void test_ncu_ktype(struct t *t)
{
	static const struct {
		const char *name;
		enum ncu_ktype want;
	} cases[] = {
	    {"ampere_sgemm_128x64_nn", NCU_KT_GEMM},
	    {"sm80_xmma_gemm_f16f16_f16f32_f32_nn_n_tilesize128x128x32_stage4", NCU_KT_GEMM},
	    {"void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_128x128_16x5_nn_align4>("
	     "cutlass_80_tensorop_s1688gemm_128x128_16x5_nn_align4::Params)",
	     NCU_KT_GEMM},
	    {"matrixMulCUDA", NCU_KT_GEMM},
	    {"__cuda_linear_fp32_fp16_kernel", NCU_KT_GEMM},
	    {"gemv2T_kernel_val", NCU_KT_GEMM},
	    {"triton_tem_fused_addmm_0", NCU_KT_GEMM},
	    {"sm86_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw",
	     NCU_KT_CONV},
	    {"void cudnn::winograd_nonfused::winogradForwardData4x4<float, float>(...)",
	     NCU_KT_CONV},
	    {"void implicit_convolve_sgemm<float, float, 1024, 5, 5, 3, 3, 3, 1, false>(...)",
	     NCU_KT_CONV},
	    {"flash_fwd_kernel", NCU_KT_ATTENTION},
	    {"fmha_cutlassF_f16_aligned_64x64_rf_sm80", NCU_KT_ATTENTION},
	    {"void vllm::paged_attention_v2_kernel<unsigned short, 128, 16>(...)",
	     NCU_KT_ATTENTION},
	    {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
	     "at::native::MeanOps<float, float>, unsigned int, float, 4>>(...)",
	     NCU_KT_REDUCE},
	    {"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, "
	     "float>(...)",
	     NCU_KT_REDUCE},
	    {"triton_red_fused_sum_0", NCU_KT_REDUCE},
	    {"void cub::DeviceScanKernel<...>", NCU_KT_REDUCE},
	    {"void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, "
	     "false>(...)",
	     NCU_KT_SOFTMAX},
	    {"cunn_SoftMaxForward", NCU_KT_SOFTMAX},
	    {"void at::native::vectorized_elementwise_kernel<4, "
	     "at::native::CUDAFunctor_add<float>, "
	     "at::detail::Array<char *, 3>>(...)",
	     NCU_KT_ELEMENTWISE},
	    {"distribution_elementwise_grid_stride_kernel", NCU_KT_ELEMENTWISE},
	    {"triton_poi_fused_relu_0", NCU_KT_ELEMENTWISE},
	    {"matrix_addition2D", NCU_KT_ELEMENTWISE},
	    {"transposeMatrixAdvanced", NCU_KT_MEMORY},
	    {"void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 4>",
	     NCU_KT_MEMORY},
	    {"void at::native::index_select_small_index_kernel<float, long>(...)", NCU_KT_MEMORY},
	    {"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm *, unsigned long, ncclWork *)",
	     NCU_KT_COMMUNICATION},
	    {"ncclKernel_AllGather_RING_LL_Sum_int8_t", NCU_KT_COMMUNICATION},
	    {"julia__5_11155", NCU_KT_OTHER},
	    {"probe_timer_only", NCU_KT_OTHER},
	    {"", NCU_KT_OTHER},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		CHECK_STR(t, ncu_ktype_name(ncu_ktype_of(cases[i].name)),
			  ncu_ktype_name(cases[i].want));
	CHECK_STR(t, ncu_ktype_name(NCU_KT_COMMUNICATION), "Communication");
	CHECK_STR(t, ncu_ktype_name((enum ncu_ktype)99), "Other");
	/* the function name decides first; the demangled name only after Other */
	struct ncu_result res = {.function = "Kernel2",
				 .mangled = "",
				 .demangled =
				     "void cutlass::Kernel2<cutlass_80_wmma_tensorop_h161616gemm>"};
	CHECK_STR(t, ncu_ktype_name(ncu_kernel_type(&res)), "GEMM");
	res.function = "softmax_warp_forward";
	CHECK_STR(t, ncu_ktype_name(ncu_kernel_type(&res)), "Softmax");
}

/* ncu's auto units (values of the golden auto-unit raw export). */
void test_ncu_auto_units(struct t *t)
{
	char b[64], v[64];
	double div;
	CHECK_STR(t, ncu_auto_unit("ns", 984832, &div, b, sizeof b), "us");
	CHECK_DBL(t, div, 1e3, 0);
	CHECK_STR(t, ncu_auto_unit("ns", 999, &div, b, sizeof b), "ns");
	CHECK_DBL(t, div, 1, 0);
	CHECK_STR(t, ncu_auto_unit("ns", 2.5e9, &div, b, sizeof b), "s");
	CHECK_STR(t, ncu_auto_unit("byte", 1024, &div, b, sizeof b), "Kbyte");
	CHECK_STR(t, ncu_auto_unit("byte", 16056320, &div, b, sizeof b), "Mbyte");
	CHECK_STR(t, ncu_auto_unit("byte/s", 611111111.11, &div, b, sizeof b), "Mbyte/s");
	CHECK_DBL(t, div, 1e6, 0);
	CHECK_STR(t, ncu_auto_unit("byte/s", 2777777777.78, &div, b, sizeof b), "Gbyte/s");
	CHECK_STR(t, ncu_auto_unit("byte/block", 1024, &div, b, sizeof b), "Kbyte/block");
	CHECK_STR(t, ncu_auto_unit("hz", 3741.62, &div, b, sizeof b), "Khz");
	CHECK_STR(t, ncu_auto_unit("hz", 571578414.35, &div, b, sizeof b), "Mhz");
	CHECK_STR(t, ncu_auto_unit("hz", 6916666666.67, &div, b, sizeof b), "Ghz");
	CHECK_STR(t, ncu_auto_unit("sector/s", 434027.78, &div, b, sizeof b), "sector/ms");
	CHECK_STR(t, ncu_auto_unit("sector/s", 179470486.11, &div, b, sizeof b), "sector/us");
	CHECK_STR(t, ncu_auto_unit("sector", 1968, &div, b, sizeof b), "sector");
	CHECK_STR(t, ncu_auto_unit("inst/cycle", 5000, &div, b, sizeof b), "inst/cycle");
	CHECK_STR(t, ncu_auto_unit("%", 100, &div, b, sizeof b), "%");
	CHECK_STR(t, ncu_auto_unit("", 1e9, &div, b, sizeof b), "");
	struct ncu_value d = {.type = NCU_V_DOUBLE, .d = 611111111.111};
	CHECK_STR(t, ncu_fmt_raw_auto(&d, "byte/s", 1e6, false, v, sizeof v), "611.111111");
	d.d = 0;
	CHECK_STR(t, ncu_fmt_raw_auto(&d, "byte/s", 1e6, false, v, sizeof v), "0.000000");
	CHECK_STR(t, ncu_fmt_raw_auto(&d, "byte/s", 1, true, v, sizeof v), "0");
	d.d = 128;
	CHECK_STR(t, ncu_fmt_raw_auto(&d, "byte", 1, false, v, sizeof v), "128.000000");
	d.d = NAN;
	CHECK_STR(t, ncu_fmt_raw_auto(&d, "", 1, false, v, sizeof v), "nan");
	d.d = 0.0527;
	CHECK_STR(t, ncu_fmt_raw_auto(&d, "", 1, false, v, sizeof v), "0.05");
	struct ncu_value u = {.type = NCU_V_U64, .u = 147475};
	CHECK_STR(t, ncu_fmt_raw_auto(&u, "inst", 1, false, v, sizeof v), "147475");
	struct ncu_value none = {.type = NCU_V_NONE};
	CHECK_STR(t, ncu_fmt_raw_auto(&none, "inst", 1, false, v, sizeof v), "no data");
	d.d = 16384;
	CHECK_STR(t, ncu_fmt_detail_auto(&d, 1e3, v, sizeof v), "16.38");
	d.d = 6853333333.33;
	CHECK_STR(t, ncu_fmt_detail_auto(&d, 1, v, sizeof v), "6,853,333,333.33");
}

/* The default sections whose tables every metric has a description. */
static const char *const described_sections[] = {
    "SpeedOfLight",   "MemoryWorkloadAnalysis",	 "Occupancy",
    "LaunchStats",    "ComputeWorkloadAnalysis", "SchedulerStats",
    "WarpStateStats", "InstructionStats",
};

struct described {
	struct t *t;
	const char *path;
	size_t rows;
};

static void described_row(void *ctx, const struct ncu_detail_row *row)
{
	struct described *c = ctx;
	char b[512];
	if (!row->name)
		return; /* a rule message */
	c->rows++;
	if (!ncu_metric_description(row->name, b, sizeof b))
		t_fail(c->t, __FILE__, __LINE__, "%s: no description for %s (%s: %s)", c->path,
		       row->name, row->section, row->metric);
}

/* The metric rows of the described sections in report path, each checked
 * for a description. */
static size_t described_rows(struct t *t, const char *path)
{
	struct ncu_report *r;
	struct err e;
	CHECK_INT(t, ncu_load(&r, path, 0, &e), 0);
	if (!r)
		return 0;
	struct described c = {t, path, 0};
	for (size_t i = 0; i < r->nresults; i++)
		for (size_t k = 0; k < sizeof described_sections / sizeof described_sections[0];
		     k++) {
			struct ncu_details_opts o = {described_sections[k],
						     NCU_DETAILS_HEADER | NCU_DETAILS_BODY, true};
			ncu_details(r, i, &o, described_row, &c);
		}
	ncu_free(r);
	return c.rows;
}

/* Descriptions: table sorted, concrete texts, and every header or labelled
 * metric of the default sections of a real report has one. */
void test_ncu_descriptions(struct t *t)
{
	CHECK(t, ncu_descriptions_sorted());
	char b[512];
	CHECK_STR(t, ncu_metric_description("gpu__time_duration.sum", b, sizeof b),
		  "Wall time the kernel ran on the GPU.");
	CHECK(t, ncu_metric_description("launch__waves_per_multiprocessor", b, sizeof b) != NULL);
	CHECK(t, ncu_metric_description("no_such_metric", b, sizeof b) == NULL);
	CHECK(t, ncu_metric_description("lts__t_sectors.no_such_rollup", b, sizeof b) == NULL);
	/* a base and a rollup */
	CHECK_STR(
	    t,
	    ncu_metric_description("lts__t_sectors.avg.pct_of_peak_sustained_elapsed", b, sizeof b),
	    "32-byte sectors handled by the L2 cache's tag stage (all accesses), as a "
	    "percentage of the peak sustained rate over the kernel's elapsed cycles (average "
	    "over the units).");
	/* the two families */
	CHECK_STR(t,
		  ncu_metric_description(
		      "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active", b, sizeof b),
		  "Cycles in which the FP64 pipeline (double-precision arithmetic) was busy, as a "
		  "percentage of the peak sustained rate over the cycles the unit was active "
		  "(average over the units).");
	CHECK_STR(
	    t,
	    ncu_metric_description(
		"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", b,
		sizeof b),
	    "Warps waiting for data from L1TEX (global, local, texture or surface memory), on "
	    "average per issued instruction.");
	CHECK(t, ncu_metric_description(
		     "smsp__average_warps_issue_stalled_nope_per_issue_active.ratio", b,
		     sizeof b) == NULL);
	/* every metric row of the default sections' tables (ncu's details
	 * page), in the project's fixture and every real report */
	size_t rows = described_rows(t, "tests/golden/_inputs/full.ncu-rep");
	CHECK(t, rows > 100);
	NEED_SHARED(t);
	static const char *const reports[] = {
	    "ncu2019_rtx2070_metrics_matrixmul.nsight-cuprof-report",
	    "ncu2021.1_gtx1660s_raytracer.ncu-rep",
	    "ncu2022.4_a40_full_indexspaces.ncu-rep",
	    "ncu2023.2_a10_default_105kernels.ncu-rep",
	    "ncu2023.3_h800_full_nvtx.ncu-rep",
	    "ncu2024.2_t4_full_mlp.ncu-rep",
	    "ncu2025.2_rtx5060ti_default_transpose.ncu-rep",
	    "ncu2025.3_rtx3080ti_basic_sassscope.ncu-rep",
	    "ncu2025.3_rtx3080ti_full_probeffma.ncu-rep",
	    "ncu2025.4_rtx3060_basic_srccounters_sassscope.ncu-rep",
	};
	char path[512];
	rows = 0;
	for (size_t i = 0; i < sizeof reports / sizeof reports[0]; i++) {
		snprintf(path, sizeof path, "%s/data/ncu/%s", t->shared, reports[i]);
		rows += described_rows(t, path);
	}
	CHECK(t, rows > 10000);
}
