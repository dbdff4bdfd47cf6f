/* classify: the ONE place that decides what a trace event is.
 *
 * Every analysis asks tr_classify's answer (stored per event at import) and
 * never looks at category or name strings itself. The table of categories
 * follows torch-tb-profiler (shared/reference/tb_profiler.md §2) with the
 * modern Kineto names added; names refine the category (ProfilerStep#N,
 * DataLoader, Optimizer.step, NCCL/Gloo collectives, [memory]).
 * Depends on nothing but libc.
 */
#ifndef GP_CLASSIFY_H
#define GP_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* X(id, label shown to users) */
#define TR_KINDS(X)                                                                                \
	X(TR_OTHER, "other")   /* unknown category: kept, not analysed */                          \
	X(TR_CPU_OP, "cpu_op") /* cpu_op / Operator */                                             \
	X(TR_USER_ANNOTATION, "user_annotation")                                                   \
	X(TR_GPU_USER_ANNOTATION, "gpu_user_annotation")                                           \
	X(TR_PYTHON_FUNCTION, "python_function")                                                   \
	X(TR_PYTHON, "python")	      /* old-style Python op */                                    \
	X(TR_RUNTIME, "cuda_runtime") /* *_runtime / Runtime */                                    \
	X(TR_DRIVER, "cuda_driver")                                                                \
	X(TR_KERNEL, "kernel")                                                                     \
	X(TR_MEMCPY, "gpu_memcpy")                                                                 \
	X(TR_MEMSET, "gpu_memset")                                                                 \
	X(TR_MEMORY, "[memory]")       /* allocator instant events */                              \
	X(TR_TRACE_SPAN, "trace_span") /* "Trace" category: profiler window */                     \
	X(TR_CUDA_SYNC, "cuda_sync")                                                               \
	X(TR_ACCEL, "accelerator") /* another accelerator's device work (mtia_ccp_events) */       \
	X(TR_OVERHEAD, "overhead")                                                                 \
	X(TR_INSTANT, "cpu_instant_event") /* other instant events */

enum tr_kind {
#define X(id, label) id,
	TR_KINDS(X)
#undef X
	    TR_KIND_COUNT
};

/* Flags refining a kind, from the name (and for kernels the comm pattern). */
enum {
	TRF_STEP = 1 << 0,	 /* ProfilerStep#N (cpu_op, user or gpu annotation) */
	TRF_DATALOADER = 1 << 1, /* enumerate(DataLoader)#...__next__ / enumerate(DataPipe)# */
	TRF_OPTIMIZER = 1 << 2,	 /* Optimizer.step... */
	TRF_COMM = 1 << 3,	 /* communication: nccl:* / gloo:* ops, NCCL kernels */
	TRF_MODULE = 1 << 4,	 /* python_function with a "Python module id" */
	TRF_UNMATCHED = 1 << 5,	 /* a B without its E (duration unknown, 0) */
	TRF_FROM_BE = 1 << 6,	 /* built from a B/E pair */
};

const char *tr_kind_label(enum tr_kind k);
/* Kind from the category text (case-insensitive); instant events with name
 * "[memory]" are TR_MEMORY whatever their category. */
enum tr_kind tr_classify(const char *cat, size_t cat_len, const char *name, size_t name_len,
			 char ph);
/* Flags from the name for an event of kind k. */
unsigned tr_name_flags(enum tr_kind k, const char *name, size_t len);
/* ProfilerStep#N -> N (>= 0), or -1 when name is not a step. */
long tr_step_number(const char *name, size_t len);
/* torch-tb-profiler's collectives (tb_profiler.md §11): exactly
 * nccl:{broadcast,reduce,all_reduce,all_gather,reduce_scatter} (returns
 * TR_COLL_NCCL) or the same five with gloo: (TR_COLL_GLOO); anything else,
 * _all_gather_base, all_to_all, send/recv, record_param_comms or c10d::
 * ops included, is TR_COLL_NONE. TRF_COMM is the wider modern notion. */
enum tr_coll { TR_COLL_NONE, TR_COLL_NCCL, TR_COLL_GLOO };
enum tr_coll tr_tb_collective(const char *name, size_t len);
/* The profiler's own window event ("PyTorch Profiler (0)", category
 * Trace): torch-tb-profiler's GPU-utilization timeline spans it. */
bool tr_is_profiler_window(const char *name, size_t len);
/* Tensor Cores (torch-tb-profiler §7).
 * tr_kernel_uses_tc: the kernel name contains one of torch-tb-profiler's
 * patterns (from NVIDIA PyProf); unless tb_only, also one of the names of
 * today's Hopper/Blackwell tensor-core GEMM kernels and AMD's matrix-core
 * (MFMA/WMMA) kernels (see classify.c).
 * tr_op_tc_eligible: the operator name is exactly one of torch-tb-profiler's
 * Tensor-Core-eligible operators; unless tb_only, also one of the modern
 * autograd/aten names of the same operations. */
bool tr_kernel_uses_tc(const char *name, size_t len, bool tb_only);
/* The input precision a (Tensor Core / matrix-core) kernel's name spells:
 * 16 bits or fewer (fp16, bf16, fp8, int8), 32 or 64 bits (fp32, tf32,
 * fp64), or not spelled. From the Tensile/hipBLASLt type field when the
 * name is one of theirs, else from name parts (classify.c). */
enum tr_mx_precision { TR_MX_UNKNOWN, TR_MX_LOW, TR_MX_FULL };
enum tr_mx_precision tr_matrix_precision(const char *name, size_t len);
bool tr_op_tc_eligible(const char *name, size_t len, bool tb_only);
/* Whether an event's "Concrete Inputs" are kept in the model: the
 * scaled_dot_product_* attention cpu_ops, whose is_causal hta/flops reads;
 * no other op pays for the text. */
bool tr_keeps_concrete(enum tr_kind k, const char *name, size_t len);
/* DataParallel.forward (1) / DistributedDataParallel.forward (2): host ops
 * that tell a data-parallel run (torch-tb-profiler's use_dp / use_ddp). */
int tr_data_parallel(const char *name, size_t len);
/* GPU-side work: kernel, memcpy, memset. */
static inline bool tr_is_device(enum tr_kind k)
{
	return k == TR_KERNEL || k == TR_MEMCPY || k == TR_MEMSET;
}

#endif
