/* flops: TraceLens' GEMM and SDPA-forward models, GPU peaks; see flops.h. */
#include "hta/flops.h"

#include "trace/argtext.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXIN 8	 /* inputs read of a call */
#define MAXDIM 8 /* dimensions read of an input */

/* The shapes of "Input Dims": [[8944, 1024], [1024, 2816], [], ...]. */
struct shapes {
	int n;		 /* inputs */
	int rank[MAXIN]; /* -1: not a list of integers */
	int64_t d[MAXIN][MAXDIM];
};

/* Skips one JSON value that is not a list of integers (a nested list, a
 * string, a number with a fraction): to the next ',' or ']' at its depth. */
static void skip(struct tr_cur *c)
{
	int depth = 0;
	bool str = false;
	for (; c->p < c->end; c->p++) {
		char ch = *c->p;
		if (str) {
			if (ch == '\\' && c->p + 1 < c->end)
				c->p++;
			else if (ch == '"')
				str = false;
		} else if (ch == '"') {
			str = true;
		} else if (ch == '[') {
			depth++;
		} else if (ch == ']') {
			if (!depth)
				return;
			depth--;
		} else if (ch == ',' && !depth) {
			return;
		}
	}
}

static bool parse_shapes(const char *s, size_t len, struct shapes *out)
{
	struct tr_cur c = {s, s + len};
	memset(out, 0, sizeof *out);
	if (!tr_cur_eat(&c, '['))
		return false;
	if (tr_cur_eat(&c, ']'))
		return true;
	do {
		int i = out->n < MAXIN ? out->n : -1;
		if (i >= 0)
			out->n++;
		if (!tr_cur_eat(&c, '[')) {
			skip(&c);
			if (i >= 0)
				out->rank[i] = -1;
			continue;
		}
		int r = 0;
		if (!tr_cur_eat(&c, ']')) {
			do {
				tr_cur_ws(&c);
				char *e;
				long long v = c.p < c.end ? strtoll(c.p, &e, 10) : 0;
				if (c.p >= c.end || e == c.p || e > c.end || v < 0) {
					r = -1;
					skip(&c);
					break;
				}
				c.p = e;
				if (i >= 0 && r < MAXDIM)
					out->d[i][r] = v;
				r++;
			} while (tr_cur_eat(&c, ','));
			if (r >= 0 && !tr_cur_eat(&c, ']'))
				return false;
			if (r < 0)
				tr_cur_eat(&c, ']');
		}
		if (i >= 0)
			out->rank[i] = r > MAXDIM ? -1 : r;
	} while (tr_cur_eat(&c, ','));
	return tr_cur_eat(&c, ']');
}

/* The k-th string of a JSON list of strings (no escapes expected: type
 * names and concrete values), into buf; false when absent. */
static bool nth_string(const char *s, size_t len, int k, char *buf, size_t cap)
{
	struct tr_cur c = {s, s + len};
	if (!tr_cur_eat(&c, '['))
		return false;
	for (int i = 0;; i++) {
		tr_cur_ws(&c);
		if (c.p >= c.end || *c.p != '"')
			return false;
		const char *a = ++c.p;
		while (c.p < c.end && *c.p != '"')
			c.p += *c.p == '\\' && c.p + 1 < c.end ? 2 : 1;
		if (c.p >= c.end)
			return false;
		if (i == k) {
			size_t n = (size_t)(c.p - a) < cap - 1 ? (size_t)(c.p - a) : cap - 1;
			memcpy(buf, a, n);
			buf[n] = 0;
			return true;
		}
		c.p++;
		if (!tr_cur_eat(&c, ','))
			return false;
	}
}

/* The rate class of a dtype name (the element size is argtext's). */
static enum hta_dtype dtype_of(const char *s, int *size)
{
	static const struct {
		const char *name;
		enum hta_dtype dt;
	} t[] = {{"float", HTA_DT_FP32},
		 {"double", HTA_DT_FP64},
		 {"c10::Half", HTA_DT_FP16},
		 {"c10::BFloat16", HTA_DT_BF16},
		 {"c10::Float8_e4m3fn", HTA_DT_FP8},
		 {"c10::Float8_e5m2", HTA_DT_FP8},
		 {"c10::Float8_e4m3fnuz", HTA_DT_FP8},
		 {"c10::Float8_e5m2fnuz", HTA_DT_FP8}};
	*size = tr_dtype_size(s, strlen(s), false);
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (!strcmp(s, t[i].name))
			return t[i].dt;
	return HTA_DT_OTHER;
}

static int64_t numel(const struct shapes *s, int i)
{
	int64_t n = 1;
	for (int k = 0; k < s->rank[i]; k++)
		n *= s->d[i][k];
	return n;
}

/* GEMM operands: a at index ia, b at ia + 1, bias at ib (-1: none). */
static bool gemm(const struct shapes *s, int ia, int ib, bool batched, int esize,
		 struct hta_perf *out)
{
	int want = batched ? 3 : 2, ja = ia + 1;
	if (ja >= s->n || s->rank[ia] != want || s->rank[ja] != want)
		return false;
	int64_t B = batched ? s->d[ia][0] : 1, M = s->d[ia][want - 2], K = s->d[ia][want - 1];
	int64_t K2 = s->d[ja][want - 2], N = s->d[ja][want - 1];
	if (K != K2 || (batched && s->d[ja][0] != B))
		return false;
	bool bias = ib >= 0 && ib < s->n && s->rank[ib] > 0;
	double b = (double)B, m = (double)M, n = (double)N, k = (double)K;
	out->cat = HTA_OP_GEMM;
	out->flops = 2 * b * m * n * k + (bias ? b * m * n : 0);
	out->bytes =
	    esize * (b * m * k + b * k * n + b * m * n + (bias ? (double)numel(s, ib) : 0));
	snprintf(out->params, sizeof out->params, "B=%lld M=%lld N=%lld K=%lld bias=%s",
		 (long long)B, (long long)M, (long long)N, (long long)K, bias ? "true" : "false");
	return true;
}

/* SDPA forward; causal_at: the index of is_causal in Concrete Inputs. */
static bool sdpa(const struct shapes *s, const char *conc, size_t conc_len, int causal_at,
		 int esize, struct hta_perf *out)
{
	if (s->n < 3 || s->rank[0] != 4 || s->rank[1] != 4 || s->rank[2] != 4)
		return false;
	int64_t B = s->d[0][0], Hq = s->d[0][1], Nq = s->d[0][2], d = s->d[0][3];
	int64_t Hkv = s->d[1][1], Nkv = s->d[1][2], dv = s->d[2][3];
	if (s->d[1][3] != d || s->d[2][2] != Nkv || s->d[1][0] != B)
		return false;
	char buf[16];
	bool causal =
	    nth_string(conc, conc_len, causal_at, buf, sizeof buf) && !strcmp(buf, "True");
	double f = 2.0 * (double)B * (double)Hq * (double)Nq * (double)Nkv * (double)(d + dv);
	out->cat = HTA_OP_SDPA_FWD;
	out->flops = causal ? f / 2 : f;
	out->bytes = esize * ((double)numel(s, 0) + (double)numel(s, 1) + (double)numel(s, 2) +
			      (double)B * (double)Hq * (double)Nq * (double)dv);
	snprintf(out->params, sizeof out->params,
		 "B=%lld Hq=%lld Nq=%lld Hkv=%lld Nkv=%lld d=%lld dv=%lld causal=%s", (long long)B,
		 (long long)Hq, (long long)Nq, (long long)Hkv, (long long)Nkv, (long long)d,
		 (long long)dv, causal ? "true" : "false");
	return true;
}

struct perf_op_row {
	const char *name;
	int a, bias, batched, sdpa_causal; /* sdpa_causal >= 0: an SDPA op */
};

static const struct perf_op_row perf_ops[] = {
    {"aten::mm", 0, -1, 0, -1},
    {"aten::addmm", 1, 0, 0, -1},
    {"aten::bmm", 0, -1, 1, -1},
    {"aten::baddbmm", 1, 0, 1, -1},
    {"aten::scaled_dot_product_attention", 0, -1, 0, 5},
    {"aten::_scaled_dot_product_flash_attention", 0, -1, 0, 4},
    {"aten::_scaled_dot_product_efficient_attention", 0, -1, 0, 6},
    {"aten::_scaled_dot_product_cudnn_attention", 0, -1, 0, 6},
};
#define NPERF_OPS (sizeof perf_ops / sizeof perf_ops[0])

static size_t perf_op(const char *name)
{
	size_t i = 0;
	while (i < NPERF_OPS && strcmp(perf_ops[i].name, name))
		i++;
	return i;
}

bool hta_perf_op(const char *name)
{
	return perf_op(name) < NPERF_OPS;
}

bool hta_perf_model(const char *name, const char *dims, size_t dims_len, const char *types,
		    size_t types_len, const char *concrete, size_t concrete_len,
		    struct hta_perf *out)
{
	const struct perf_op_row *ops = perf_ops;
	memset(out, 0, sizeof *out);
	size_t i = perf_op(name);
	struct shapes s;
	if (i == NPERF_OPS || !parse_shapes(dims, dims_len, &s) ||
	    !nth_string(types, types_len, ops[i].a, out->dtype_name, sizeof out->dtype_name))
		return false;
	int esize;
	out->dtype = dtype_of(out->dtype_name, &esize);
	if (!esize)
		return false;
	return ops[i].sdpa_causal >= 0
		   ? sdpa(&s, concrete, concrete_len, ops[i].sdpa_causal, esize, out)
		   : gemm(&s, ops[i].a, ops[i].bias, ops[i].batched, esize, out);
}

/* Dense rates (TFLOP/s: other, fp32, tf32, fp16, bf16, fp8, fp64) and
 * memory TB/s, from the vendors' data sheets (SXM / OAM parts unless the
 * name says otherwise; fp32 is the matrix rate where the GPU has one). The
 * first entry whose match is in the device name wins, so the more
 * specific come first. */
static const struct hta_gpu_peak peaks[] = {
    {"B200", "NVIDIA B200", {0, 80, 1100, 2250, 2250, 4500, 40}, 8.0},
    {"H200", "NVIDIA H200", {0, 67, 494.5, 989.5, 989.5, 1979, 67}, 4.8},
    {"H100 PCIe", "NVIDIA H100 PCIe", {0, 51, 378, 756, 756, 1513, 51}, 2.0},
    {"H100 NVL", "NVIDIA H100 NVL", {0, 60, 418, 835, 835, 1670, 60}, 3.9},
    {"H100", "NVIDIA H100 SXM", {0, 67, 494.5, 989.5, 989.5, 1979, 67}, 3.35},
    {"A100", "NVIDIA A100", {0, 19.5, 156, 312, 312, 0, 19.5}, 2.039},
    {"V100", "NVIDIA V100", {0, 15.7, 0, 125, 0, 0, 7.8}, 0.9},
    {"L4", "NVIDIA L4", {0, 30.3, 60, 121, 121, 242.5, 0}, 0.3},
    {"T4", "NVIDIA T4", {0, 8.1, 0, 65, 0, 0, 0}, 0.32},
    {"MI325X", "AMD Instinct MI325X", {0, 163.4, 653.7, 1307.4, 1307.4, 2614.9, 163.4}, 6.0},
    {"MI300X", "AMD Instinct MI300X", {0, 163.4, 653.7, 1307.4, 1307.4, 2614.9, 163.4}, 5.3},
    {"MI250X", "AMD Instinct MI250X", {0, 95.7, 0, 383, 383, 0, 95.7}, 3.2},
};

const struct hta_gpu_peak *hta_gpu_peak(const char *device_name)
{
	for (size_t i = 0; device_name && i < sizeof peaks / sizeof peaks[0]; i++)
		if (strstr(device_name, peaks[i].match))
			return &peaks[i];
	return NULL;
}
