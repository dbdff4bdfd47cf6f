/* trace: the in-memory model of one loaded trace (a PyTorch profiler /
 * Kineto trace today; any reader may fill it).
 *
 * Columnar tables, one row per kept record, in input order; strings are
 * interned into the trace's strpool (ids, 0 = ""). Nothing of the JSON text
 * is kept. Times are int64 nanoseconds on the trace's own clock (its µs
 * values * 1000, exact). Owns: the arena and pool, the column arrays.
 * Filled by a reader (kineto/kineto.h for Kineto JSON); analyses read it
 * and never change it. Depends on core only: no reader, no analysis.
 */
#ifndef GP_TRACE_H
#define GP_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/err.h"
#include "core/strpool.h"
#include "trace/anomaly.h"
#include "trace/classify.h"

#define TR_NONE UINT32_MAX

/* pid/tid as written: a number or a string. */
struct tr_id {
	int64_t num;
	uint32_t str; /* string id when is_str */
	bool is_str;
};

static inline bool tr_id_eq(const struct tr_id *a, const struct tr_id *b)
{
	return a->is_str == b->is_str && (a->is_str ? a->str == b->str : a->num == b->num);
}

/* Narrow columns hold an int64 in 32 bits: values 0..TR_NARROW_MAX as they
 * are, -1 ("absent") as TR_NARROW_ABSENT, anything else as TR_NARROW_WIDE
 * with the value in the trace's wide table. Read them with tr_dur,
 * tr_ext_id, tr_corr. Durations over 4.29 s and odd ids are rare, so this
 * saves 12 bytes per event at the cost of a branch. */
#define TR_NARROW_ABSENT UINT32_MAX
#define TR_NARROW_WIDE (UINT32_MAX - 1)
#define TR_NARROW_MAX (UINT32_MAX - 2)

enum tr_wide_field { TRW_DUR, TRW_EXT_ID, TRW_CORR };

struct tr_wides {
	size_t n, cap;
	struct tr_wide {
		uint32_t row;
		uint32_t field; /* enum tr_wide_field */
		int64_t value;
	} * v; /* sorted by (row, field) once the trace is loaded */
};

/* The columns of the events table, declared once: X(type, name) for each,
 * in this order. The struct below, its growth (trace/build.c), the merge of
 * a parallel import, the window copy and tr_free all iterate this list, so
 * a new column is one line here. */
#define TR_EVENT_COLUMNS(X)                                                                        \
	X(int64_t, ts)	    /* ns */                                                               \
	X(uint32_t, dur)    /* narrow: ns (0 for instants) */                                      \
	X(uint32_t, name)   /* string id */                                                        \
	X(uint32_t, track)  /* row in tr_tracks */                                                 \
	X(uint32_t, aux)    /* row in the kind's argument table (tr_aux_table), or TR_NONE */      \
	X(uint32_t, ext_id) /* narrow: "External id" (or "external id"), -1 if absent */           \
	X(uint32_t, corr)   /* narrow: "correlation", -1 if absent */                              \
	X(int64_t, offset)  /* byte offset of the event in the (decompressed) input */             \
	X(uint8_t, kind)    /* enum tr_kind */                                                     \
	X(uint8_t, ph)	    /* 'X', 'B' (paired), 'i', 'I' */                                      \
	X(uint8_t, flags)   /* TRF_* */

/* Duration events (X, and B/E pairs) and instants, in input order: one
 * array per column of TR_EVENT_COLUMNS. */
struct tr_events {
	size_t n, cap;
#define TR_EVENT_FIELD_(type, col) type *col;
	TR_EVENT_COLUMNS(TR_EVENT_FIELD_)
#undef TR_EVENT_FIELD_
};

/* Arguments of GPU activities (kernel, memcpy, memset, cuda_sync). */
#define TR_NO_WAIT INT64_MIN
struct tr_gpu_args {
	size_t n, cap;
	struct tr_gpu_arg {
		int64_t stream; /* as written (4294967295 stays), -1 absent */
		int32_t device;
		int32_t grid[3], block[3];
		int32_t regs;	      /* registers per thread */
		int32_t shared_mem;   /* shared memory (bytes) */
		int32_t wait_stream;  /* cuda_sync: "wait_on_stream", -1 absent (or too large) */
		int64_t bytes;	      /* memcpy/memset bytes */
		double blocks_per_sm; /* NaN when absent */
		double warps_per_sm;
		double occupancy;   /* est. achieved occupancy % */
		double mem_bw_gbps; /* "memory bandwidth (GB/s)", NaN when absent */
		/* cuda_sync: "wait_on_cuda_event_record_corr_id" (the
		 * cudaEventRecord waited on), TR_NO_WAIT when the event has no
		 * such argument */
		int64_t wait_corr;
	} * v;
};

/* Arguments of host ops (cpu_op, annotations, python functions). The
 * frequent ones are here; the rare ones (communication, module id) in a
 * row of tr_op_extras, so a typical op costs 32 bytes. */
struct tr_op_args {
	size_t n, cap;
	struct tr_op_arg {
		uint32_t input_dims; /* raw JSON text of "Input Dims" (ids) */
		uint32_t input_type; /* raw JSON text of "Input type" */
		uint32_t call_stack; /* "Call stack" */
		uint32_t extra;	     /* row in tr_op_extras, or TR_NONE */
		union {		     /* -1 when absent */
			struct {     /* host ops: "Sequence number", "Fwd thread id" */
				int64_t seq, fwd_tid;
			};
			struct { /* python_function: "Python id", "Python parent id" */
				int64_t python_id, python_parent;
			};
		};
	} * v;
};

struct tr_op_extras {
	size_t n, cap;
	struct tr_op_extra {
		uint32_t collective; /* "Collective name" */
		uint32_t dtype;	     /* "dtype" */
		uint32_t pg_name;    /* "Process Group Name" */
		uint32_t pg_ranks;   /* raw JSON text of "Process Group Ranks" */
		int64_t in_nelems;   /* "In msg nelems", -1 */
		int64_t out_nelems;  /* "Out msg nelems", -1 */
		int64_t group_size;  /* "Group size", -1 */
		int64_t coll_seq;    /* a collective's sequence number in its process
				      * group ("Seq" or "seq"), -1 */
		int64_t module_id;   /* "Python module id", -1 */
		int64_t stream;	     /* "stream" of a host op (Triton's cpu_op), -1 */
		uint32_t concrete;   /* raw JSON text of "Concrete Inputs" of the ops whose
				      * model needs it (scaled_dot_product_*), 0 */
	} * v;
};

/* [memory] instant events. */
struct tr_mem_args {
	size_t n, cap;
	struct tr_mem_arg {
		int64_t bytes;				 /* >0 allocation, <=0 free */
		int64_t total_allocated, total_reserved; /* INT64_MIN when absent */
		uint64_t addr;
		int32_t device_type; /* 0 CPU, 1 CUDA, -1 absent */
		int32_t device_id;
	} * v;
};

/* Flow events s/t/f. */
struct tr_flows {
	size_t n, cap;
	struct tr_flow {
		int64_t ts;
		int64_t id;	/* "id" or "bind_id" */
		int64_t offset; /* byte offset of the event in the input */
		uint32_t cat, name, track;
		uint8_t ph;   /* 's', 't', 'f' */
		uint8_t bp_e; /* "bp":"e" (binds to the enclosing slice) */
	} * v;
};

/* Counter events C: one row per series in args. */
struct tr_counters {
	size_t n, cap;
	struct tr_counter {
		int64_t ts;
		uint32_t name, series, track;
		double value;
	} * v;
};

/* (pid, tid) pairs seen; metadata names attached. */
struct tr_tracks {
	size_t n, cap;
	struct tr_track {
		struct tr_id pid, tid;
		uint32_t thread_name; /* from M thread_name, 0 if none */
		int64_t thread_sort;  /* INT64_MIN if none */
		uint32_t process;     /* row in tr_procs */
		uint64_t events;      /* events on this track */
	} * v;
};

struct tr_procs {
	size_t n, cap;
	struct tr_proc {
		struct tr_id pid;
		uint32_t name;	 /* M process_name */
		uint32_t labels; /* M process_labels */
		int64_t sort;	 /* INT64_MIN if none */
	} * v;
};

struct tr_device_prop {
	int64_t id;
	uint32_t name;
	int64_t total_global_mem;
	int64_t compute_major, compute_minor;
	int64_t num_sms;
	int64_t max_threads_per_block, max_threads_per_sm;
	int64_t regs_per_block, regs_per_sm, warp_size;
	int64_t shared_mem_per_block, shared_mem_per_sm, shared_mem_per_block_optin;
};

/* Top-level metadata; ints are INT64_MIN and strings 0 when absent. */
struct tr_meta {
	bool object_form;      /* {"traceEvents": ...} vs bare array */
	bool has_trace_events; /* object form had "traceEvents" */
	int64_t schema_version;
	uint32_t display_time_unit;
	int64_t base_time_ns;
	uint32_t trace_name;
	uint32_t torch_version; /* from "torch_version" or metadata.torch_version */
	uint32_t framework;
	uint32_t cuda_runtime_version, cuda_driver_version, cupti_version, hip_runtime_version,
	    roctracer_version;
	/* distributedInfo */
	bool has_dist;
	uint32_t dist_backend;
	int64_t dist_rank, dist_world_size, dist_pg_count;
	uint32_t dist_nccl_version;
	struct tr_device_prop *devices;
	size_t ndevices;
};

/* Counts of what was read. */
struct tr_counts {
	uint64_t events;		 /* every element of the events array */
	uint64_t by_phase[128];		 /* by ph byte (ASCII) */
	uint64_t other_phase;		 /* ph not one ASCII byte */
	uint64_t by_kind[TR_KIND_COUNT]; /* kept X/B/i events by kind */
	uint64_t metadata, flows, counters, ignored_phase;
	uint64_t bytes;		 /* decompressed input size read */
	uint64_t merged_windows; /* parts imported by the second thread */
	/* events whose ts is absent or not a whole number of microseconds:
	 * where there is one, a reader of the JSON into a table of floats (HTA)
	 * rounds every time to whole microseconds (hta/select.h) */
	uint64_t ts_not_whole;
};

struct trace {
	struct arena arena;
	struct strpool pool;
	struct trace *base;	/* a window (window.h): owns base, whose strings it uses */
	uint32_t *base_row;	/* a window: the base's row of each event row */
	int64_t win_t0, win_t1; /* a window: the [t0, t1) it was cut to */
	char path[512];
	bool gzip;
	int64_t file_bytes; /* on-disk size, -1 unknown */
	struct tr_meta meta;
	struct tr_events ev;
	struct tr_wides wide;
	struct tr_gpu_args gpu;
	struct tr_op_args op;
	struct tr_op_extras opx;
	struct tr_mem_args mem;
	struct tr_flows flows;
	struct tr_counters counters;
	struct tr_tracks tracks;
	struct tr_procs procs;
	struct tr_counts counts;
	/* categories as written, with counts (X/B/i events) */
	struct tr_cat_count {
		uint32_t cat;
		uint64_t n;
	} * cats;
	size_t ncats;
	int64_t min_ts, max_end; /* over kept events; INT64_MAX/INT64_MIN if none */
	struct tr_anomalies anomalies;
};

/* The range of the model's times (ns). A reader keeps an event only when its
 * ts lies in [TR_TS_MIN, TR_TS_MAX] and its duration in [-TR_DUR_MAX,
 * TR_DUR_MAX] (the Kineto reader counts the others as time_out_of_range), so
 * every start and end lies in [-2^61, 2^62 + 2^60) and the difference of any
 * two fits an int64: a span, a gap, end - start need no overflow check.
 * TR_TS_MAX is the year 2116 in Unix-epoch ns; TR_DUR_MAX 36 years.
 * The |durations| of all events together stay under TR_DUR_SUM_MAX (2.3
 * years; trace/check.c refuses a trace past it), so a view's total of
 * durations, even over a call tree's levels 128 deep, fits an int64. */
#define TR_TS_MIN (-(INT64_C(1) << 60))
#define TR_TS_MAX ((INT64_C(1) << 62) - 1)
#define TR_DUR_MAX (INT64_C(1) << 60)
#define TR_DUR_SUM_MAX (UINT64_C(1) << 56)
/* Likewise the byte counts: the |Bytes| of all [memory] events together,
 * those of all memcpy/memset events together, and each allocator total stay
 * within 2^60 (1 EiB), or the trace is refused. */
#define TR_BYTES_SUM_MAX (UINT64_C(1) << 60)
static inline int tr_time_ok(int64_t ts, int64_t dur)
{
	return ts >= TR_TS_MIN && ts <= TR_TS_MAX && dur >= -TR_DUR_MAX && dur <= TR_DUR_MAX;
}

/* An empty trace for path ("-" shows as <stdin>): no rows, times and
 * metadata "absent"; NULL when out of memory. Readers fill it (the Kineto
 * reader, kineto/kineto.h; or any reader through trace/build.h). */
struct trace *tr_new(const char *path);
void tr_free(struct trace *t);
/* Bytes the trace holds: its arena, string pool and the rows of its tables
 * (what a reader counts against its memory limit; capacity reserved ahead
 * of the rows is not counted, since its pages are not touched yet). */
uint64_t tr_mem_bytes(const struct trace *t);

/* The value of a narrow column entry v of event row r. */
int64_t tr_wide_get(const struct trace *t, size_t r, enum tr_wide_field f);
static inline int64_t tr_narrow(const struct trace *t, uint32_t v, size_t r, enum tr_wide_field f)
{
	if (v <= TR_NARROW_MAX)
		return v;
	return v == TR_NARROW_ABSENT ? -1 : tr_wide_get(t, r, f);
}
static inline int64_t tr_dur(const struct trace *t, size_t r)
{
	return tr_narrow(t, t->ev.dur[r], r, TRW_DUR);
}
static inline int64_t tr_ext_id(const struct trace *t, size_t r)
{
	return tr_narrow(t, t->ev.ext_id[r], r, TRW_EXT_ID);
}
static inline int64_t tr_corr(const struct trace *t, size_t r)
{
	return tr_narrow(t, t->ev.corr[r], r, TRW_CORR);
}

/* Which argument table an event's aux row indexes, decided by its kind
 * alone: work on a device (kernel, memcpy, memset, cuda_sync, another
 * accelerator's) the gpu table, [memory] instants the mem table, every
 * other kind the op table. */
enum tr_aux_table { TR_AUX_GPU, TR_AUX_MEM, TR_AUX_OP };
static inline enum tr_aux_table tr_aux_table(enum tr_kind k)
{
	return tr_is_device(k) || k == TR_CUDA_SYNC || k == TR_ACCEL ? TR_AUX_GPU
	       : k == TR_MEMORY					     ? TR_AUX_MEM
								     : TR_AUX_OP;
}
/* Event row r's arguments in each table; NULL when it has none there. */
static inline uint32_t tr_aux_in(const struct trace *t, size_t r, enum tr_aux_table tab, size_t n)
{
	uint32_t a = t->ev.aux[r];
	return a != TR_NONE && tr_aux_table((enum tr_kind)t->ev.kind[r]) == tab && a < n ? a
											 : TR_NONE;
}
static inline const struct tr_gpu_arg *tr_gpu_arg(const struct trace *t, size_t r)
{
	uint32_t a = tr_aux_in(t, r, TR_AUX_GPU, t->gpu.n);
	return a != TR_NONE ? &t->gpu.v[a] : NULL;
}
static inline const struct tr_mem_arg *tr_mem_arg(const struct trace *t, size_t r)
{
	uint32_t a = tr_aux_in(t, r, TR_AUX_MEM, t->mem.n);
	return a != TR_NONE ? &t->mem.v[a] : NULL;
}
static inline const struct tr_op_arg *tr_op_arg(const struct trace *t, size_t r)
{
	uint32_t a = tr_aux_in(t, r, TR_AUX_OP, t->op.n);
	return a != TR_NONE ? &t->op.v[a] : NULL;
}

static inline const char *tr_str(const struct trace *t, uint32_t id)
{
	return strpool_get(&t->pool, id);
}
/* "1234" or "Spans": the id as text, a string id's own text or a number
 * written into buf; use the returned pointer (buf is untouched for a
 * string id). */
const char *tr_id_text(const struct trace *t, const struct tr_id *id, char *buf, size_t n)
    __attribute__((warn_unused_result));

#endif
