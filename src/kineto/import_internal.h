/* import_internal: private to src/kineto/import*.c. The importer's state and
 * the split between the driver (import.c: buffers, top-level structure),
 * the metadata reader (import_meta.c) and the event reader (import_event.c:
 * one trace event -> rows). */
#ifndef GP_IMPORT_INTERNAL_H
#define GP_IMPORT_INTERNAL_H

#include <stdbool.h>
#include <string.h>

#include "json/jscan.h"
#include "trace/build.h"
#include "trace/trace.h"

enum { IMP_MAX_SERIES = 16 };

/* Known "args" of one event, before it is known which table wants them. */
struct imp_args {
	int64_t ext_id, corr, device, stream, regs, shared_mem, bytes;
	int64_t seq, fwd_tid, in_nelems, out_nelems, group_size, coll_seq, module_id, python_id,
	    python_parent;
	int64_t mem_bytes, total_alloc, total_reserved, addr, dev_type, dev_id;
	int64_t sort_index;
	int64_t wait_stream,
	    wait_corr; /* cuda_sync: wait_on_stream, wait_on_cuda_event_record_corr_id */
	double blocks_per_sm, warps_per_sm, occupancy;
	double mem_bw_gbps; /* "memory bandwidth (GB/s)" of a memcpy/memset */
	int32_t grid[3], block[3];
	struct jstr input_dims, input_type, call_stack, collective, dtype, pg_name, pg_ranks;
	struct jstr concrete;	    /* "Concrete Inputs", kept for the ops hta/flops models */
	struct jstr m_name, labels; /* M events: args.name, args.labels */
	int nseries;		    /* C events: numeric args */
	struct jstr series_key[IMP_MAX_SERIES];
	double series_val[IMP_MAX_SERIES];
};

struct imp_event {
	int64_t off;
	int64_t ts, dur, id;
	struct tr_id pid, tid;
	struct jstr cat, name;
	struct jstr ph;
	bool has_ph, has_ts, has_dur, has_id, has_pid, has_tid, has_cat, has_name, bp_e;
	struct imp_args a;
};

struct imp {
	struct tr_build b; /* fills the trace: tracks, processes, categories */
	struct trace *t;   /* b.t */
	struct err *e;
	struct jscan j;
	char *scratch; /* unescaped strings */
	size_t scratch_cap;
	/* The text of the last numeric pid and tid read, and their values:
	 * consecutive events mostly share them, and comparing 8 bytes is cheaper
	 * than converting the digits again. */
	struct imp_idcache {
		char text[8];
		uint8_t len;
		int64_t value;
	} idc[2];
	struct jstr last_cat; /* the previous event's category and its id */
	uint32_t last_cat_id;
	uint8_t *name_flags; /* per name id: bit7 valid, bit6 kernel rules, low bits TRF_* */
	size_t name_cache_n;
	uint32_t *open_b;  /* per track: newest open B event row, TR_NONE */
	size_t open_b_n;   /* tracks it covers */
	size_t open_b_cap; /* its allocated length, grown with the track table's */
	uint32_t *b_prev;  /* per B event being open: the one below it */
	size_t b_prev_cap;
	/* A worker importing the second part of a window defers E events that
	 * find no open B: the B may be in the part before it (import_par.c). */
	bool defer_e;
	struct imp_pending_e {
		int64_t ts, off;
		uint32_t track;
	} * pend;
	size_t npend, pend_cap;
};

/* Interns s (unescaping when needed): string id or TR_NONE on failure. */
uint32_t imp_intern(struct imp *m, const struct jstr *s);
/* Whether key k is the n bytes at lit; IMP_KEY(k, "literal"). */
static inline bool imp_key_is(const struct jstr *k, const char *lit, size_t n)
{
	return k->len == n && !memcmp(k->s, lit, n);
}
#define IMP_KEY(k, lit) imp_key_is((k), "" lit, sizeof lit - 1)

/* Reads one member of the top-level object other than traceEvents, key k,
 * its value at j->p (import_meta.c). */
int imp_meta_member(struct imp *m, const struct jstr *k);
/* Reads one element of the traceEvents array at j->p and stores it. */
int imp_event(struct imp *m);
/* Stores a fully read event (import_commit.c). prob: EVP_* bits. */
int imp_commit(struct imp *m, struct imp_event *ev, unsigned prob);
enum { EVP_BAD_NUMBER = 1, EVP_BAD_FIELD = 2 };
/* Finishes B/E pairing and fills derived counts after the last event. */
int imp_finish_events(struct imp *m);
/* Closes the newest open B of track with an E at ts (or counts an
 * unmatched E at offset off). */
int imp_end_b(struct imp *m, int64_t ts, uint32_t track, int64_t off);
/* Room for b_prev[row] up to row. */
int imp_b_prev_reserve(struct imp *m, size_t row);
/* Frees the import state; the trace stays (m->b.t), released by the
 * caller with tr_build_finish or tr_build_abort. */
void imp_free(struct imp *m);

/* The parallel worker (import_par.c): parses the events of the second part
 * of a window while the loader parses the first part, then its rows are
 * appended (merged) if the loader confirms the split point was an event
 * boundary. */
struct imp_worker;
int imp_worker_start(struct imp_worker **out, const char *path, bool uncompressed);
void imp_worker_begin(struct imp_worker *w, const char *base, const char *at, const char *end,
		      int64_t base_off);
/* Waits for the job. True when it parsed events up to *stop (after its last
 * complete event; after the closing ']' when *closed). */
bool imp_worker_wait(struct imp_worker *w, const char **stop, bool *closed);
int imp_worker_merge(struct imp_worker *w, struct imp *m);
void imp_worker_discard(struct imp_worker *w);
void imp_worker_stop(struct imp_worker *w);
/* First plausible event start ('{' after "}," and before '"') in [from, end). */
const char *imp_find_boundary(const char *from, const char *end);

/* Bytes the import state holds: its trace (tr_mem_bytes) and its own
 * arrays. */
uint64_t imp_mem_bytes(const struct imp *m);
/* The most the worker held after any of its jobs (read while it is idle). */
uint64_t imp_worker_bytes(const struct imp_worker *w);

/* Starts the import state over a new trace for path; -1 out of memory. */
int imp_init(struct imp *m, const char *path, struct err *e);
/* Track row for (pid, tid) (tr_build_track), with its B stack; TR_NONE on
 * failure. */
uint32_t imp_track(struct imp *m, const struct tr_id *pid, const struct tr_id *tid);

#endif
