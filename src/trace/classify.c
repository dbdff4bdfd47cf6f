/* classify: category and name rules; see classify.h. */
#include "trace/classify.h"

#include <string.h>
#include <strings.h>

static const char *const labels[] = {
#define X(id, label) label,
    TR_KINDS(X)
#undef X
};

const char *tr_kind_label(enum tr_kind k)
{
	return (unsigned)k < TR_KIND_COUNT ? labels[k] : "?";
}

static const struct {
	const char *cat;
	enum tr_kind kind;
} cats[] = {
    {"cpu_op", TR_CPU_OP},
    {"operator", TR_CPU_OP},
    {"user_annotation", TR_USER_ANNOTATION},
    {"gpu_user_annotation", TR_GPU_USER_ANNOTATION},
    {"python_function", TR_PYTHON_FUNCTION},
    {"python", TR_PYTHON},
    {"cuda_runtime", TR_RUNTIME},
    {"runtime", TR_RUNTIME},
    {"mtia_runtime", TR_RUNTIME},
    {"glow_runtime", TR_RUNTIME},
    {"xpu_runtime", TR_RUNTIME},
    {"privateuse1_runtime", TR_RUNTIME},
    {"cuda_driver", TR_DRIVER},
    {"kernel", TR_KERNEL},
    {"gpu_memcpy", TR_MEMCPY},
    {"memcpy", TR_MEMCPY},
    {"gpu_memset", TR_MEMSET},
    {"memset", TR_MEMSET},
    {"trace", TR_TRACE_SPAN},
    {"cuda_sync", TR_CUDA_SYNC},
    {"mtia_ccp_events", TR_ACCEL},
    {"overhead", TR_OVERHEAD},
    {"cpu_instant_event", TR_INSTANT},
    {"memory", TR_MEMORY},
};

enum tr_kind tr_classify(const char *cat, size_t cat_len, const char *name, size_t name_len,
			 char ph)
{
	if ((ph == 'i' || ph == 'I') && name_len == 8 && !memcmp(name, "[memory]", 8))
		return TR_MEMORY;
	for (size_t i = 0; i < sizeof cats / sizeof cats[0]; i++)
		if (strlen(cats[i].cat) == cat_len && !strncasecmp(cats[i].cat, cat, cat_len))
			return cats[i].kind == TR_MEMORY && ph != 'i' && ph != 'I' ? TR_OTHER
										   : cats[i].kind;
	return ph == 'i' || ph == 'I' ? TR_INSTANT : TR_OTHER;
}

static bool starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && !memcmp(s, prefix, n);
}

static bool ends(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);
	return len >= n && !memcmp(s + len - n, suffix, n);
}

long tr_step_number(const char *name, size_t len)
{
	if (!starts(name, len, "ProfilerStep#") || len == 13 || len > 13 + 18)
		return -1;
	long v = 0;
	for (size_t i = 13; i < len; i++) {
		if (name[i] < '0' || name[i] > '9')
			return -1;
		v = v * 10 + (name[i] - '0');
	}
	return v;
}

enum tr_coll tr_tb_collective(const char *name, size_t len)
{
	static const char *const ops[] = {"broadcast", "reduce", "all_reduce", "all_gather",
					  "reduce_scatter"};
	enum tr_coll lib;
	if (starts(name, len, "nccl:"))
		lib = TR_COLL_NCCL;
	else if (starts(name, len, "gloo:"))
		lib = TR_COLL_GLOO;
	else
		return TR_COLL_NONE;
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (len - 5 == strlen(ops[i]) && !memcmp(name + 5, ops[i], len - 5))
			return lib;
	return TR_COLL_NONE;
}

bool tr_is_profiler_window(const char *name, size_t len)
{
	return len == 20 && !memcmp(name, "PyTorch Profiler (0)", 20);
}

/* NCCL kernels: ncclKernel_* (NCCL < 2.19) and ncclDevKernel_* (newer),
 * optionally behind "void ". */
static bool is_nccl_kernel(const char *s, size_t len)
{
	if (starts(s, len, "void ")) {
		s += 5;
		len -= 5;
	}
	return starts(s, len, "ncclKernel_") || starts(s, len, "ncclDevKernel_");
}

unsigned tr_name_flags(enum tr_kind k, const char *name, size_t len)
{
	unsigned f = 0;
	switch (k) {
	case TR_CPU_OP:
	case TR_USER_ANNOTATION:
	case TR_GPU_USER_ANNOTATION:
		if (tr_step_number(name, len) >= 0)
			f |= TRF_STEP;
		if ((starts(name, len, "enumerate(DataLoader)#") && ends(name, len, ".__next__")) ||
		    starts(name, len, "enumerate(DataPipe)#"))
			f |= TRF_DATALOADER;
		if (starts(name, len, "Optimizer.step"))
			f |= TRF_OPTIMIZER;
		if (starts(name, len, "nccl:") || starts(name, len, "gloo:") ||
		    starts(name, len, "c10d::") ||
		    (len == 18 && !memcmp(name, "record_param_comms", 18)))
			f |= TRF_COMM;
		break;
	case TR_KERNEL:
		if (is_nccl_kernel(name, len))
			f |= TRF_COMM;
		break;
	default:
		break;
	}
	return f;
}

static bool contains(const char *s, size_t len, const char *pat)
{
	return memmem(s, len, pat, strlen(pat)) != NULL;
}

/* A name and its length, known at compile time (L("...")): a lookup
 * compares lengths before bytes and measures nothing. */
struct lit {
	const char *s;
	size_t n;
};
#define L(x)                                                                                       \
	{                                                                                          \
		x, sizeof x - 1                                                                    \
	}

static bool one_of(const char *s, size_t len, const struct lit *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (list[i].n == len && !memcmp(list[i].s, s, len))
			return true;
	return false;
}

#define NELEM(a) (sizeof a / sizeof a[0])

/* torch-tb-profiler's kernel patterns (tensor_core.py, taken there from
 * NVIDIA PyProf's tc.py): a kernel uses Tensor Cores when its name contains
 * one of them. */
static const char *const tc_kernel_tb[] = {
    "h884",
    "s884",
    "h1688",
    "s1688",
    "hmma",
    "i8816",
    "16816",
    "dgrad_1x1_stride_2x2",
    "first_layer_wgrad_kernel",
    "conv1x1",
    "conv2d_c1_k1",
    "direct_group",
    "xmma_implicit_gemm",
    "xmma_sparse_conv",
    "xmma_warp_specialized_implicit_gemm",
    "xmma_gemm",
    "xmma_sparse_gemm",
    "c1688",
};

/* Added outside --tb-compat: name parts of the tensor-core GEMM/conv kernels
 * that cuBLAS, cuBLASLt, cuDNN and CUTLASS ship for Ampere, Hopper and
 * Blackwell, which the list above (written for Volta/Turing) misses.
 * Sources: kernel names in Kineto traces of H100/B200 runs (cuBLAS 12.x
 * `sm90_xmma_gemm_*`, `sm90_gemm_*`, cuBLASLt `nvjet_*`, CUTLASS 3
 * `cutlass3x_sm90_*`/`cutlass3x_sm100_*`, `*_tensorop_*` CUTLASS 2 kernels,
 * Hopper `wgmma` and Blackwell `sm100_*`/`sm120_*` kernels) and the
 * CUTLASS/cuBLAS naming conventions. Every kernel of these families issues
 * mma/wgmma/tcgen05 instructions. */
static const char *const tc_kernel_modern[] = {
    "sm90_xmma",      "sm90_gemm",	 "sm100_",	    "sm120_",	"wgmma",
    "cutlass3x_sm90", "cutlass3x_sm100", "cutlass3x_sm120", "tensorop", "nvjet",
};

/* Added outside --tb-compat: the AMD matrix-core (MFMA on CDNA, WMMA on
 * RDNA) kernels. rocBLAS/Tensile and hipBLASLt name their kernels
 * `Cijk_<layouts>_<types>_..._MI<M>x<N>x<K>[x<B>]_...` (the MatrixInstruction
 * token; a Tensile kernel without it runs on the vector ALUs); Composable
 * Kernel's are `..._xdl_...` / `..._xdlops_...` (XDL: its MFMA kernels) or
 * `..._wmma_...`; MIOpen's implicit-GEMM convolutions `igemm_*_gtcx*` (the x
 * of xdlops); and any name that says mfma or wmma. docs/views.md has a real
 * example of each. */
static const char *const tc_kernel_amd[] = {"_xdl", "wmma", "WMMA", "mfma", "MFMA", "_gtcx"};

/* The Tensile MatrixInstruction token "_MI<digits>x<digits>x<digits>". */
static bool tensile_mi(const char *s, size_t len)
{
	for (const char *p = s, *end = s + len; (p = memmem(p, (size_t)(end - p), "_MI", 3));) {
		p += 3;
		const char *q = p;
		int dims = 0;
		for (;;) {
			const char *d = q;
			while (q < end && *q >= '0' && *q <= '9')
				q++;
			if (q == d)
				break;
			if (++dims == 3)
				return true;
			if (q == end || *q != 'x')
				break;
			q++;
		}
	}
	return false;
}

bool tr_kernel_uses_tc(const char *name, size_t len, bool tb_only)
{
	for (size_t i = 0; i < NELEM(tc_kernel_tb); i++)
		if (contains(name, len, tc_kernel_tb[i]))
			return true;
	if (tb_only)
		return false;
	for (size_t i = 0; i < NELEM(tc_kernel_modern); i++)
		if (contains(name, len, tc_kernel_modern[i]))
			return true;
	for (size_t i = 0; i < NELEM(tc_kernel_amd); i++)
		if (contains(name, len, tc_kernel_amd[i]))
			return true;
	return tensile_mi(name, len);
}

/* The type field of a Tensile/hipBLASLt name: the third field after
 * "Cijk_" (after the A and B layouts), e.g. "BBS" (bf16 in and out, fp32
 * compute), "HHS", "SB" (fp32, with beta), "B" in "_B_BS_BH_". */
static enum tr_mx_precision tensile_type(const char *s, size_t len)
{
	if (len < 5 || memcmp(s, "Cijk_", 5))
		return TR_MX_UNKNOWN;
	const char *p = s + 5, *end = s + len;
	for (int field = 0; field < 2; field++) {
		const char *u = memchr(p, '_', (size_t)(end - p));
		if (!u)
			return TR_MX_UNKNOWN;
		p = u + 1;
	}
	if (p == end)
		return TR_MX_UNKNOWN;
	switch (*p) {
	case 'H':
	case 'B':
	case 'F': /* F8, F8B8 */
	case 'I': /* I8, I (int8x4) */
		return TR_MX_LOW;
	case 'S':
	case 'D':
	case 'C':
	case 'Z':
	case 'X': /* xf32 */
		return TR_MX_FULL;
	default:
		return TR_MX_UNKNOWN;
	}
}

/* Name parts that spell the input type of a matrix kernel: 16 bits or
 * fewer first (a bf16 kernel's name often spells its fp32 accumulator
 * too), then 32 or 64 bits (PyProf's s884/s1688: fp32 in and out, TF32 on
 * Ampere). */
static const char *const mx_low[] = {"bf16",  "f16",  "BFloat16", "bfloat16", "half",
				     "Half",  "e4m3", "e5m2",	  "fp8",      "h884",
				     "h1688", "hmma", "i8816",	  "int8",     "_i8"};
static const char *const mx_full[] = {"tf32",  "fp32", "f32", "s884",  "s1688",
				      "sgemm", "fp64", "f64", "dgemm", "float"};

enum tr_mx_precision tr_matrix_precision(const char *name, size_t len)
{
	enum tr_mx_precision p = tensile_type(name, len);
	if (p != TR_MX_UNKNOWN)
		return p;
	for (size_t i = 0; i < NELEM(mx_low); i++)
		if (contains(name, len, mx_low[i]))
			return TR_MX_LOW;
	for (size_t i = 0; i < NELEM(mx_full); i++)
		if (contains(name, len, mx_full[i]))
			return TR_MX_FULL;
	return TR_MX_UNKNOWN;
}

/* torch-tb-profiler's TC_OP_Allowlist (tensor_core.py), exact names. */
static const struct lit tc_op_tb[] = {
    L("aten::_convolution"),
    L("aten::_convolution_nogroup"),
    L("aten::conv1d"),
    L("aten::conv2d"),
    L("aten::conv3d"),
    L("aten::conv_tbc"),
    L("aten::conv_transpose1d"),
    L("aten::conv_transpose2d"),
    L("aten::conv_transpose3d"),
    L("aten::convolution"),
    L("aten::cudnn_convolution"),
    L("aten::cudnn_convolution_transpose"),
    L("aten::prelu"),
    L("aten::addmm"),
    L("aten::addmv"),
    L("aten::addr"),
    L("aten::matmul"),
    L("aten::mm"),
    L("aten::mv"),
    L("aten::linear"),
    L("aten::addbmm"),
    L("aten::baddbmm"),
    L("aten::bmm"),
    L("aten::chain_matmul"),
    L("aten::linalg_multi_dot"),
    L("aten::_thnn_fused_lstm_cell"),
    L("aten::_thnn_fused_gru_cell"),
    L("aten::lstm_cell"),
    L("aten::gru_cell"),
    L("aten::rnn_tanh_cell"),
    L("aten::rnn_relu_cell"),
    L("CudnnConvolutionBackward"),
    L("BmmBackward0"),
    L("aten::cudnn_convolution_transpose_backward"),
    L("CudnnConvolutionTransposeBackward"),
    L("MmBackward"),
    L("aten::cudnn_convolution_backward_weight"),
    L("aten::addmm_"),
    L("AddmvBackward"),
    L("MvBackward"),
    L("aten::cudnn_convolution_transpose_backward_weight"),
    L("aten::cudnn_convolution_transpose_backward_input"),
    L("AddmmBackward"),
    L("aten::cudnn_convolution_backward_input"),
    L("AddbmmBackward"),
    L("aten::cudnn_convolution_backward"),
};

/* Added outside --tb-compat: the names PyTorch >= 1.10 gives the same
 * operations (autograd nodes gained a version suffix, convolution backward
 * became one op, fp8 and fused GEMMs appeared). */
static const struct lit tc_op_modern[] = {
    L("MmBackward0"),
    L("AddmmBackward0"),
    L("AddmvBackward0"),
    L("MvBackward0"),
    L("AddbmmBackward0"),
    L("BaddbmmBackward0"),
    L("ConvolutionBackward0"),
    L("CudnnConvolutionBackward0"),
    L("aten::convolution_backward"),
    L("aten::_scaled_mm"),
    L("aten::_addmm_activation"),
    L("aten::_int_mm"),
    L("aten::baddbmm_"),
    L("aten::addbmm_"),
    L("aten::_convolution_mode"),
};

bool tr_op_tc_eligible(const char *name, size_t len, bool tb_only)
{
	return one_of(name, len, tc_op_tb, NELEM(tc_op_tb)) ||
	       (!tb_only && one_of(name, len, tc_op_modern, NELEM(tc_op_modern)));
}

int tr_data_parallel(const char *name, size_t len)
{
	if (len == 20 && !memcmp(name, "DataParallel.forward", 20))
		return 1;
	if (len == 31 && !memcmp(name, "DistributedDataParallel.forward", 31))
		return 2;
	return 0;
}

bool tr_keeps_concrete(enum tr_kind k, const char *name, size_t len)
{
	return k == TR_CPU_OP && memmem(name, len, "scaled_dot_product", 18);
}
