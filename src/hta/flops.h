/* flops: the work of an operator call from its recorded shapes, with AMD
 * TraceLens' performance models (shared/reference/hta.md §B.1), and the
 * peak rates of the GPUs a trace names.
 *
 * GEMM (aten::mm, addmm, bmm, baddbmm): A [B,] M x K, B [B,] K x N; FLOPs =
 * 2·B·M·N·K, plus B·M·N with a bias (addmm, baddbmm); bytes = element size
 * x (B·M·K + B·K·N + B·M·N + the bias's elements), the element size A's.
 * SDPA forward (aten::scaled_dot_product_attention and the flash,
 * efficient and cuDNN kernels' ops): Q [B, Hq, Nq, d], K [B, Hkv, Nkv, d],
 * V [B, Hkv, Nkv, dv]; FLOPs = 2·B·Hq·Nq·Nkv·(d + dv), halved when causal;
 * bytes = element size x (|Q| + |K| + |V| + B·Hq·Nq·dv). Other operators
 * (linear and matmul, which reach the GPU through these; convolutions) are
 * not modelled.
 *
 * Peaks: dense (no sparsity) TFLOP/s per data type and memory TB/s of the
 * GPUs by name, from their vendors' data sheets (docs/views.md, flops).
 * Depends on trace/argtext (element sizes).
 */
#ifndef GP_HTA_FLOPS_H
#define GP_HTA_FLOPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum hta_op_cat { HTA_OP_NONE, HTA_OP_GEMM, HTA_OP_SDPA_FWD };

enum hta_dtype {
	HTA_DT_OTHER,
	HTA_DT_FP32,
	HTA_DT_TF32,
	HTA_DT_FP16,
	HTA_DT_BF16,
	HTA_DT_FP8,
	HTA_DT_FP64,
	HTA_DT_N
};

struct hta_perf {
	enum hta_op_cat cat;
	enum hta_dtype dtype;
	char params[160]; /* "B=1 M=8944 N=2816 K=1024 bias=false" */
	char dtype_name[40];
	double flops, bytes;
};

/* The model of one call: name, and the raw JSON text of its "Input Dims",
 * "Input type" and "Concrete Inputs" (len 0 when absent). false when the
 * operator is not modelled or its shapes do not fit the model. */
/* Whether operator name has a model (hta_perf_model may then succeed). */
bool hta_perf_op(const char *name);
bool hta_perf_model(const char *name, const char *dims, size_t dims_len, const char *types,
		    size_t types_len, const char *concrete, size_t concrete_len,
		    struct hta_perf *out);

struct hta_gpu_peak {
	const char *match;	 /* a substring of the device name ("H100", "MI300X") */
	const char *label;	 /* as shown */
	double tflops[HTA_DT_N]; /* 0 when the GPU has no such rate */
	double tb_s;		 /* memory bandwidth */
};

/* The peak entry of a device name, or NULL. */
const struct hta_gpu_peak *hta_gpu_peak(const char *device_name);

#endif
