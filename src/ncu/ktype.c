/* ktype: a coarse kernel type (GEMM, Conv, Attention, ...) guessed from a
 * kernel's name, for `ncu list`. Rules are case-insensitive substring
 * tests tried in a fixed order (docs/ncu.md lists them); the short function
 * name is tried first, the full demangled name only when that says Other,
 * so template arguments do not outvote the kernel's own name. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ncu/ncu.h"

struct ktype_rule {
	enum ncu_ktype type;
	const char *const *pats; /* NULL-terminated, lower case */
};

static const char *const comm[] = {"nccl",	 "allreduce",	  "all_reduce",	    "allgather",
				   "all_gather", "reducescatter", "reduce_scatter", "alltoall",
				   "all_to_all", "sendrecv",	  "nvshmem",	    "cross_device",
				   NULL};
static const char *const attn[] = {"flash_fwd", "flash_bwd", "flashattn", "flash_attn",
				   "fmha",	"attention", "attn",	  "sdpa",
				   "mha_",	"_mha",	     "xformers",  NULL};
static const char *const conv[] = {"conv",  "implicit_gemm", "winograd", "fprop",     "dgrad",
				   "wgrad", "im2col",	     "col2im",	 "depthwise", NULL};
static const char *const gemm[] = {"gemm",    "gemv",	     "matmul", "matrixmul", "matrix_mul",
				   "mat_mul", "bmm",	     "addmm",  "_mm_",	    "cublas",
				   "cutlass", "tensorop",    "wgmma",  "wmma",	    "splitk",
				   "linear",  "triton_tem_", NULL};
static const char *const smax[] = {"softmax", NULL};
static const char *const red[] = {"reduce",	   "reduction", "triton_red_", "triton_per_",
				  "layer_norm",	   "layernorm", "rms_norm",    "rmsnorm",
				  "batch_norm",	   "batchnorm", "group_norm",  "groupnorm",
				  "instance_norm", "argmax",	"argmin",      "scan",
				  "cumsum",	   "histogram", NULL};
static const char *const mem[] = {"memcpy",   "memset",	 "copy",	 "transpose",	"fill",
				  "gather",   "scatter", "index_select", "indexselect", "index_put",
				  "catarray", "concat",	 "permute",	 "contiguous",	NULL};
static const char *const elem[] = {
    "elementwise", "element_wise", "pointwise", "triton_poi_", "relu",	   "gelu",
    "silu",	   "sigmoid",	   "tanh",	"axpy",	       "addition", "_add",
    "add_",	   "_mul",	   "mul_",	"activation",  "dropout",  NULL};

static const struct ktype_rule rules[] = {
    {NCU_KT_COMMUNICATION, comm}, {NCU_KT_ATTENTION, attn},   {NCU_KT_CONV, conv},
    {NCU_KT_GEMM, gemm},	  {NCU_KT_SOFTMAX, smax},     {NCU_KT_REDUCE, red},
    {NCU_KT_MEMORY, mem},	  {NCU_KT_ELEMENTWISE, elem},
};

static const char *const names[] = {"Other",   "GEMM",	      "Conv",	"Attention",	"Reduce",
				    "Softmax", "Elementwise", "Memory", "Communication"};

const char *ncu_ktype_name(enum ncu_ktype t)
{
	return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "Other";
}

enum ncu_ktype ncu_ktype_of(const char *name)
{
	if (!name || !name[0])
		return NCU_KT_OTHER;
	size_t n = strlen(name);
	char small[256];
	char *low = n < sizeof small ? small : malloc(n + 1);
	if (!low)
		return NCU_KT_OTHER;
	for (size_t i = 0; i <= n; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	enum ncu_ktype t = NCU_KT_OTHER;
	for (size_t r = 0; r < sizeof rules / sizeof rules[0] && t == NCU_KT_OTHER; r++)
		for (const char *const *p = rules[r].pats; *p; p++)
			if (strstr(low, *p)) {
				t = rules[r].type;
				break;
			}
	if (low != small)
		free(low);
	return t;
}

enum ncu_ktype ncu_kernel_type(const struct ncu_result *res)
{
	enum ncu_ktype t = ncu_ktype_of(res->function);
	if (t == NCU_KT_OTHER)
		t = ncu_ktype_of(res->demangled);
	if (t == NCU_KT_OTHER)
		t = ncu_ktype_of(res->mangled);
	return t;
}
