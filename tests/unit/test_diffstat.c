/* The statistics and name rules of `gpuprof diff` (tbprof/diffstat.h) and
 * the markdown sink it writes with; every expected value is worked out by
 * hand in the comment beside it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "tbprof/diffstat.h"
#include "test.h"

void test_diffstat_quantile(struct t *t)
{
	int64_t v[] = {4, 1, 3, 2};
	ds_sort(v, 4);
	CHECK_INT(t, v[0], 1);
	CHECK_INT(t, v[3], 4);
	/* h = 3q: median h = 1.5 -> 2 + 0.5 = 2.5; q1 h = 0.75 -> 1.75;
	 * q3 h = 2.25 -> 3.25 */
	CHECK_DBL(t, stats_quantile(v, 4, 0.5), 2.5, 1e-12);
	CHECK_DBL(t, stats_quantile(v, 4, 0.25), 1.75, 1e-12);
	CHECK_DBL(t, stats_quantile(v, 4, 0.75), 3.25, 1e-12);
	CHECK_DBL(t, stats_quantile(v, 4, 1), 4, 1e-12);
	int64_t one[] = {7};
	CHECK_DBL(t, stats_quantile(one, 1, 0.25), 7, 1e-12);
	/* (1 + 2 + 3 + 4) / 4 = 2.5; no values: 0 */
	CHECK_DBL(t, stats_mean(v, 4), 2.5, 1e-12);
	CHECK_DBL(t, stats_mean(v, 0), 0, 1e-12);
}

void test_diffstat_mwu_exact(struct t *t)
{
	struct ds_mwu m;
	/* 3 vs 3, fully separated: U = 0; of C(6,3) = 20 arrangements one has
	 * U = 9 (and one U = 0): p = 2 * 1/20 = 0.1 */
	int64_t a[] = {1, 2, 3}, b[] = {4, 5, 6};
	CHECK_INT(t, ds_mannwhitney(a, 3, b, 3, &m), 0);
	CHECK_DBL(t, m.u, 0, 1e-12);
	CHECK_DBL(t, m.p, 0.1, 1e-12);
	CHECK(t, m.exact);
	/* 5 vs 5 separated: p = 2 / C(10,5) = 2/252 */
	int64_t c[] = {10, 9, 8, 7, 6}, d[] = {1, 2, 3, 4, 5};
	CHECK_INT(t, ds_mannwhitney(c, 5, d, 5, &m), 0);
	CHECK_DBL(t, m.u, 25, 1e-12);
	CHECK_DBL(t, m.p, 2.0 / 252, 1e-12);
	/* 1 vs 2: a = {1}, b = {2, 3}: U = 0; arrangements 3, P(U >= 2) = 1/3 */
	int64_t e[] = {1}, f[] = {2, 3};
	CHECK_INT(t, ds_mannwhitney(e, 1, f, 2, &m), 0);
	CHECK_DBL(t, m.p, 2.0 / 3, 1e-12);
	/* interleaved 3 vs 3: a = {1, 3, 5}, b = {2, 4, 6}: pairs a > b:
	 * 3>2, 5>2, 5>4 = 3; U_b = 6; P(U >= 6) for 3,3: counts of U = 0..9
	 * are 1 1 2 3 3 3 3 2 1 1 -> (3 + 2 + 1 + 1) / 20 = 0.35; p = 0.7 */
	int64_t g[] = {1, 3, 5}, h[] = {2, 4, 6};
	CHECK_INT(t, ds_mannwhitney(g, 3, h, 3, &m), 0);
	CHECK_DBL(t, m.u, 3, 1e-12);
	CHECK_DBL(t, m.p, 0.7, 1e-12);
	/* the same values on both sides: U = n1 n2 / 2 is the middle, p = 1 */
	int64_t same[] = {5, 6, 7};
	CHECK_INT(t, ds_mannwhitney(same, 3, same, 3, &m), 0);
	CHECK(t, !m.exact);
	CHECK_DBL(t, m.p, 1, 1e-12);
}

void test_diffstat_mwu_normal(struct t *t)
{
	struct ds_mwu m;
	/* ties, so the normal approximation: ranks of the 12 values
	 * 2 2 3 4 5 5 6 6 7 8 9 10 are 1.5 1.5 3 4 5.5 5.5 7.5 7.5 9 10 11 12;
	 * a's rank sum 3 + 4 + 1.5 + 7.5 + 1.5 + 5.5 = 23, U_a = 23 - 21 = 2,
	 * U_b = 34; mu = 18; three pairs of ties: Σ t³ - t = 18; var = 36/12
	 * (13 - 18 / 132) = 38.590909; z = (34 - 18 - 0.5) / 6.2121582 =
	 * 2.4951071; p = erfc(z / √2) = 0.0125919 */
	int64_t a[] = {3, 4, 2, 6, 2, 5}, b[] = {9, 7, 5, 10, 6, 8};
	CHECK_INT(t, ds_mannwhitney(a, 6, b, 6, &m), 0);
	CHECK(t, !m.exact);
	CHECK_DBL(t, m.u, 2, 1e-12);
	CHECK_DBL(t, m.p, 0.0125919, 1e-7);
	/* 8 vs 8 without ties is past the exact range (min size < 8): normal;
	 * separated: U = 64, mu = 32, var = 64 * 17 / 12 = 90.666667,
	 * z = 31.5 / 9.5219046 = 3.3081586, p = erfc(z / √2) = 0.000939 */
	int64_t c[8], d[8];
	for (int i = 0; i < 8; i++) {
		c[i] = 100 + i;
		d[i] = i;
	}
	CHECK_INT(t, ds_mannwhitney(c, 8, d, 8, &m), 0);
	CHECK(t, !m.exact);
	CHECK_DBL(t, m.u, 64, 1e-12);
	CHECK_DBL(t, m.p, 0.000939, 1e-6);
}

static void check_name(struct t *t, const char *in, const char *want, int line)
{
	char buf[256];
	size_t n = ds_kernel_name(in, buf, sizeof buf);
	if (strcmp(buf, want) || n != strlen(want))
		t_fail(t, __FILE__, line, "'%s' -> '%s', want '%s'", in, buf, want);
}
#define NAME(in, want) check_name(t, in, want, __LINE__)

void test_diffstat_kernel_names(struct t *t)
{
	/* 1-3: return type, template arguments, parameters */
	NAME("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
	     "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
	     "at::detail::Array<char*, 1>)",
	     "at::native::vectorized_elementwise_kernel");
	NAME("void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float>(float*, int)",
	     "at::native::(anonymous namespace)::cunn_SoftMaxForward");
	/* 4: tiles, configurations, alignment, stages */
	NAME("cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align8",
	     "cutlass_80_tensorop_s1688gemm_nn");
	NAME("ampere_sgemm_128x64_nn", "ampere_sgemm_nn");
	NAME("sm80_xmma_gemm_f16f16_f16f32_f32_nn_n_tilesize128x128x32_stage3_warpsize2x2x1_"
	     "tensor16x8x16_kernel",
	     "sm80_xmma_gemm_f16f16_f16f32_f32_nn_n_kernel");
	NAME("gemm_splitk4_kernel", "gemm_kernel");
	/* hashes: 8+ hex digits with a digit; not a word of hex letters */
	NAME("fmha_kernel_3a9f0c1d2e", "fmha_kernel");
	NAME("kernel_deadbeef", "kernel_deadbeef");
	/* kept: short numbers, words, unbalanced '<', empty parts */
	NAME("triton_poi_fused_add_0", "triton_poi_fused_add_0");
	NAME("volta_scudnn_stridedB_splitK_medium_nn_v1",
	     "volta_scudnn_stridedB_splitK_medium_nn_v1");
	NAME("a<b", "a<b");
	NAME("__nv_kernel", "__nv_kernel");
	/* a name that would become empty stays whole */
	NAME("128x128", "128x128");
	/* a cut result stays NUL-terminated */
	char small[6];
	CHECK_INT(t, (int64_t)ds_kernel_name("ampere_sgemm_128x64_nn", small, sizeof small), 5);
	CHECK_STR(t, small, "amper");
}

void test_report_markdown(struct t *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct report *r = rep_open(f, REP_MARKDOWN);
	CHECK(t, r && rep_format_of(r) == REP_MARKDOWN);
	static const struct rep_col cols[] = {{"name", "Name", REP_STR},
					      {"dur_ns", "Time", REP_DUR_NS},
					      {"bytes", "Size", REP_BYTES}};
	rep_table_begin(r, "t", "Top", cols, 3);
	rep_row(r, (struct rep_val[]){rep_s("a|b\\c\nd"), rep_i(1500000), rep_i(2048)});
	rep_row(r, (struct rep_val[]){rep_null(), rep_i(5), rep_null()});
	rep_table_end(r);
	rep_kv_begin(r, "s", "Summary");
	rep_kv(r, "k", "Key", REP_STR, rep_s("v"));
	rep_kv_end(r);
	CHECK_INT(t, rep_close(r), 0);
	fclose(f);
	CHECK_STR(t, buf,
		  "### Top\n\n"
		  "| Name | Time | Size |\n"
		  "|---|---:|---:|\n"
		  "| a\\|b\\\\c d | 1.500 ms | 2.00 KiB |\n"
		  "| - | 5 ns | - |\n"
		  "\n### Summary\n\n"
		  "- **Key:** v\n");
	free(buf);
}
