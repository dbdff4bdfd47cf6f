/* classify: category and name rules; see classify.h. */
#include "torch/classify.h"

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
		    starts(name, len, "c10d::") || (len == 18 && !memcmp(name, "record_param_comms", 18)))
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
