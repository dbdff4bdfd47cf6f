/* synth_int: what the synth files share and nobody else sees: the output
 * writer (buffer + optional deflate), the event record of one step, the
 * generator state and the kernel catalogue. See synth.h for the module.
 */
#ifndef GP_SYNTH_INT_H
#define GP_SYNTH_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <zlib.h>

#include "core/err.h"
#include "synth/synth.h"

/* ---- output writer (out.c) ---- */

#define WOUT_CAP (1u << 20)	   /* buffer size */
#define WOUT_FLUSH_AT (768u << 10) /* flushed at event boundaries past this */

struct wout {
	FILE *f;
	char *buf;
	size_t n;
	bool gzip;
	bool z_live;
	bool overflow; /* an append did not fit (a bug: events are < 256 KB) */
	z_stream z;
	unsigned char *zbuf;
	uint64_t raw;	 /* bytes flushed so far (uncompressed) */
	uint64_t packed; /* bytes written to f */
};

int wout_init(struct wout *w, FILE *f, bool gzip, int level, struct err *e);
/* Flushes when the buffer is past WOUT_FLUSH_AT; call between events only. */
int wout_maybe_flush(struct wout *w, struct err *e);
int wout_finish(struct wout *w, struct err *e);
void wout_free(struct wout *w);
static inline uint64_t wout_size(const struct wout *w)
{
	return w->raw + w->n;
}
void wout_mem(struct wout *w, const char *s, size_t n);
void wout_str(struct wout *w, const char *s);
/* Appends a string literal (length known at compile time). */
#define WLIT(w, lit) wout_mem((w), (lit), sizeof(lit) - 1)
void wout_u64(struct wout *w, uint64_t v);
void wout_i64(struct wout *w, int64_t v);
void wout_ts(struct wout *w, uint64_t ns); /* microseconds, 3 decimals */
void wout_dbl(struct wout *w, double v, int prec);
void wout_jstr(struct wout *w, const char *s); /* "s" (s needs no escaping) */

/* ---- kernels ---- */

struct kdesc {
	const char *name;
	uint32_t regs, smem;
	uint32_t grid[3], block[3];
	uint32_t dur_ns; /* typical duration at work scale 1000 */
};

enum kid {
	KD_CONV_FWD,
	KD_CONV_DGRAD,
	KD_CONV_WGRAD,
	KD_BN_FWD,
	KD_BN_BWD,
	KD_RELU,
	KD_RELU_BWD,
	KD_ADD,
	KD_MAXPOOL,
	KD_MAXPOOL_BWD,
	KD_MEAN,
	KD_SGEMM,
	KD_GEMM_BF16,
	KD_CUTLASS,
	KD_FLASH_FWD,
	KD_FLASH_BWD,
	KD_SOFTMAX,
	KD_SOFTMAX_BWD,
	KD_NLL,
	KD_NLL_BWD,
	KD_FILL,
	KD_REDUCE,
	KD_FOREACH,
	KD_NCCL,
	KD_NCCL_OLD, /* the name NCCL before 2.19 gives the same kernel */
	KD_COUNT
};

extern const struct kdesc synth_kernels[KD_COUNT];

/* ---- events of one step ---- */

enum sev_kind {
	SK_OP,	      /* cpu_op X */
	SK_ANNOT,     /* user_annotation X */
	SK_RUNTIME,   /* cuda_runtime X */
	SK_KERNEL,    /* kernel X */
	SK_MEMCPY,    /* gpu_memcpy X */
	SK_MEMSET,    /* gpu_memset X */
	SK_GPU_ANNOT, /* gpu_user_annotation X */
	SK_MEM,	      /* [memory] instant */
	SK_FLOW_S,
	SK_FLOW_F,
	SK_B,
	SK_E,
};

/* Argument shapes of cpu_ops (what "Input Dims" etc. look like). */
enum argk {
	AK_NONE,
	AK_BWD,	   /* Sequence number + Fwd thread id only */
	AK_EMPTY,  /* d: sizes */
	AK_TO,	   /* d: n c h w, long when d[5] */
	AK_CONV,   /* d: n c h w k r s */
	AK_BN,	   /* d: n c h w */
	AK_UNARY,  /* d: n c h w */
	AK_BINARY, /* d: n c h w */
	AK_POOL,   /* d: n c h w */
	AK_LINEAR, /* d: n in out */
	AK_ADDMM,  /* d: n in out */
	AK_MM,	   /* d: m k n */
	AK_T,	   /* d: a b */
	AK_SDPA,   /* d: n heads len dim */
	AK_LOSS,   /* d: n classes */
	AK_FOREACH,
	AK_COMMS, /* d[0]: nelems (record_param_comms), d[1]: nelems (kernel), d[2]: Seq */
};

enum { TH_MAIN, TH_BWD, TH_AUX, TH_COUNT };

struct sev {
	uint8_t kind;
	uint8_t th;	  /* CPU thread, or for device events the stream index */
	uint8_t argk;	  /* enum argk, or flow category (0 ac2g, 1 fwdbwd) */
	uint8_t dev_type; /* [memory]: 1 CUDA, 0 CPU */
	bool on_dev;	  /* on the GPU's pid, tid = stream */
	uint32_t cbid;
	const char *name;
	const struct kdesc *k;
	uint64_t ts, dur;
	uint64_t ext, corr, seq, evidx;
	int64_t bytes;
	uint64_t addr, tot_alloc, tot_res;
	uint32_t d[7];
};

struct sevbuf {
	struct sev *v;
	size_t n, cap;
};

/* ---- generator state (synth.c, model.c) ---- */

/* A forward layer, remembered for its backward node. */
struct layer_rec {
	uint8_t kind;
	bool first; /* no gradient flows to its input */
	uint32_t d[7];
	uint64_t seq, flow;
	uint64_t act_addr;
	int64_t act_bytes;
};

#define SYNTH_MAX_LAYERS 256

struct gen {
	const struct synth_opts *o;
	struct synth_stats *st;
	struct wout w;
	uint64_t rng[4];
	uint32_t pid, tid[TH_COUNT], dev, ndev;
	uint32_t stream_id[SYNTH_MAX_STREAMS + 1]; /* last one: NCCL */
	uint64_t sfree[SYNTH_MAX_STREAMS + 1];	   /* ns a stream is busy until */
	uint64_t delay[SYNTH_MAX_STREAMS + 1];	   /* added by scaled kernels (opts.scale) */
	uint64_t late[SYNTH_MAX_STREAMS + 1];	   /* part of delay[] a straggler added */
	bool coll_seen;				   /* the step had its first collective */
	uint64_t link_extra; /* time opts.slow_link added on the NCCL stream this step */
	uint64_t comm_seq;   /* collectives written so far ("Seq" is this + 1) */
	uint32_t nstreams;
	uint64_t t_begin; /* ns of the profiler span start */
	uint64_t cur[TH_COUNT];
	uint32_t stack[TH_COUNT][64];
	uint32_t depth[TH_COUNT];
	uint64_t ext, corr, evidx, seq, flow;
	uint64_t tot_alloc, tot_res, next_addr;
	uint64_t gpu_first, gpu_last; /* device work of the current step */
	struct sevbuf cpu, dev_ev;
	bool first_event;
	bool oom;
	struct sev scratch; /* handed out after an allocation failure */
	char step_name[32];
	size_t nlayers;
	struct layer_rec layers[SYNTH_MAX_LAYERS];
};

/* PRNG: xoshiro256** seeded through splitmix64. */
uint64_t synth_rand(struct gen *g);
/* Uniform in [lo, hi]. */
uint64_t synth_range(struct gen *g, uint64_t lo, uint64_t hi);

/* Appends an event slot (zeroed) to b and returns its index; on allocation
 * failure sets g->oom and returns SEV_NONE (synth_at gives g->scratch). */
#define SEV_NONE UINT32_MAX
uint32_t synth_push(struct gen *g, struct sevbuf *b);
static inline struct sev *synth_at(struct gen *g, struct sevbuf *b, uint32_t i)
{
	return i == SEV_NONE ? &g->scratch : &b->v[i];
}
/* Writes one event as one line of traceEvents and counts it in g->st. */
void synth_emit(struct gen *g, const struct sev *s);
/* Emits and empties the step's buffers (CPU events first, then device). */
int synth_flush_step(struct gen *g, struct err *e);

/* ---- building blocks (ops.c) ---- */

#define BATCH 32
#define GPU_BASE 0x7f3a00000000ull
#define CPU_BASE 0x55d2c0000000ull
#define PARAM_BYTES 94371840ull /* weights, grads, momentum: always allocated */
#define MIB2 (2ull << 20)

enum lkind { L_CONV, L_BN, L_RELU, L_ADD, L_MAXPOOL, L_MEAN, L_LINEAR, L_SDPA, L_NLL, L_LSM };

/* Opens a CPU op (or annotation) on thread th; returns its slot. */
uint32_t synth_open(struct gen *g, int th, enum sev_kind kind, const char *name, enum argk ak);
/* Sets d[0..3] of slot i and returns the event. */
struct sev *synth_dims(struct gen *g, uint32_t i, uint32_t a, uint32_t b, uint32_t c, uint32_t d);
/* Closes the innermost open op of thread th. */
void synth_close(struct gen *g, int th);
void synth_leaf(struct gen *g, int th, const char *name, enum argk ak, uint32_t a, uint32_t b,
		uint32_t c, uint32_t d);
void synth_flow(struct gen *g, enum sev_kind k, int cat, int th, bool dev, uint64_t id,
		uint64_t ts);
void synth_cpu_flow(struct gen *g, enum sev_kind k, int th, uint64_t id, uint64_t ts);
/* A cuda_runtime call of dur ns on thread th (no device work); returns its slot. */
uint32_t synth_runtime(struct gen *g, int th, const char *name, uint32_t cbid, uint64_t dur);
/* Runtime call + device activity (kernel, memcpy or memset) + ac2g flow. */
struct sev *synth_launch(struct gen *g, int th, enum sev_kind dk, const struct kdesc *k, int si,
			 uint64_t est_ns, uint64_t bytes);
struct sev *synth_kern(struct gen *g, int th, enum kid k, int si, uint64_t est_ns);
void synth_mem(struct gen *g, int th, uint64_t addr, int64_t bytes, bool gpu);
uint64_t synth_alloc(struct gen *g, int th, uint64_t bytes);
void synth_free(struct gen *g, int th, uint64_t addr, uint64_t bytes);
/* aten::empty with its allocation; returns the address. */
uint64_t synth_empty(struct gen *g, int th, uint32_t a, uint32_t b, uint32_t c, uint32_t d);
/* Opens the top op of a forward layer (sequence number, fwdbwd flow start). */
struct layer_rec *synth_fwd_open(struct gen *g, enum lkind k, const char *name, enum argk ak,
				 const uint32_t *d);
int synth_stream_for(struct gen *g, size_t layer);

static inline uint64_t synth_flops_ns(uint64_t flops)
{
	return flops / 300000; /* ~300 TFLOP/s */
}

static inline uint64_t synth_bytes_ns(uint64_t bytes)
{
	return bytes / 2400; /* ~2.4 TB/s */
}

/* ---- the model (model.c, step.c) ---- */

void synth_forward(struct gen *g);
void synth_backward(struct gen *g);
/* opts.straggler_ns after the backward pass: the late time becomes part
 * of every stream's timeline (all ranks are late from here on). */
void synth_straggler_fold(struct gen *g);
/* One all-reduce of nelems floats launched from CPU thread th. */
void synth_all_reduce(struct gen *g, int th, uint64_t nelems);
/* One training step: ProfilerStep#n on the CPU and its device work. */
void synth_step(struct gen *g, uint64_t n, bool anomalies);

#endif
