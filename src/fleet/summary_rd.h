/* fleet/summary_rd: the rank summary reader's parts shared by its files
 * (summary_read.c: the summary's structure; summary_read2.c: what version
 * 2 adds): the reader's state and its checked readers of JSON values, each
 * naming the byte offset of a value at fault. Internal to fleet/. Depends
 * on json (the tokenizer), tbprof/dist (the model filled), core/hmap. */
#ifndef GP_FLEET_SUMMARY_RD_H
#define GP_FLEET_SUMMARY_RD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/hmap.h"
#include "fleet/summary.h"
#include "json/jscan.h"

/* Times, and the sum of a worker's range lengths, stay within these so
 * that no sum dist_finish or the view computes can overflow. */
#define RD_TIME_MAX ((int64_t)1 << 61)
#define RD_SUM_MAX ((int64_t)1 << 62)

struct rd {
	struct jscan j;
	const char *path;
	size_t len;
	struct err *e;
	struct dist_result *r;
	struct dist_worker *w;
	const char *name; /* the caller's worker name, or NULL */
	uint32_t *names;  /* "names": pool ids */
	size_t nnames, cap_names;
	size_t cap_nodes, cap_kr, cap_steps, cap_gpus;
	int64_t sum_len;    /* Σ range lengths so far */
	int64_t sum_ov;	    /* Σ |overlap values| so far */
	unsigned seen;	    /* top-level keys read: 1 << K_* */
	unsigned node_seen; /* of the collective being read: 1 start, 2 end, 4 bytes,
			       8 compute, 16 input, 32 idle */
	int64_t version;    /* schema_version */
	uint32_t *groups;   /* "groups": each group's name, a pool id */
	size_t ngroups, cap_groups;
	const char **node_at; /* where each collective's object begins */
	size_t cap_at;
};

int fleet_rd_bad(struct rd *d, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A tokenizer answer as this reader's error. */
int fleet_rd_js_fail(struct rd *d, int rc);
/* Room for need elements (core/vec's doubling, capped by memory only). */
int fleet_rd_grow(void **v, size_t *cap, size_t need, size_t size);
int fleet_rd_nomem(struct rd *d);
/* An integer in [lo, hi]; null gives *v = null_v when nullable. */
int fleet_rd_int(struct rd *d, const char *what, int64_t lo, int64_t hi, bool nullable,
		 int64_t null_v, int64_t *v);
int fleet_rd_bool(struct rd *d, const char *what, bool *v);
/* A string interned into r's pool (null: id 0 when nullable). */
int fleet_rd_str(struct rd *d, const char *what, bool nullable, uint32_t *id);
/* Walks an object (obj) or array: each member's value goes to fn with its
 * key (objects) or index. */
typedef int (*fleet_rd_member_fn)(struct rd *d, const struct jstr *key, size_t i);
int fleet_rd_walk(struct rd *d, bool obj, const char *what, fleet_rd_member_fn fn);
/* Inline so that the length of a literal key is known at compile time:
 * the reader compares every member's key with several. */
static inline bool fleet_rd_is_key(const struct jstr *k, const char *s)
{
	return !k->escaped && k->len == strlen(s) && !memcmp(k->s, s, k->len);
}
/* Skips any value. */
int fleet_rd_skip(struct rd *d);

/* Version 2 (summary_read2.c). "groups": each group's name into
 * d->groups. */
int fleet_rd_groups(struct rd *d);
/* A collective's member that version 2 adds (group, seq, compute, input,
 * idle); 1 when key is none of them. */
int fleet_rd_node2(struct rd *d, const struct jstr *key, struct dist_node *n);
/* Checks the collective just read (n, whose object began at `at`). */
int fleet_rd_node2_done(struct rd *d, const struct dist_node *n, const char *at);
/* A step's member that version 2 adds (start, end, breakdown, gpu_busy);
 * 1 when key is none of them. */
int fleet_rd_step2(struct rd *d, const struct jstr *key);
/* "kernels" and "memory" (checked, not kept). */
int fleet_rd_kernels(struct rd *d);
int fleet_rd_memory(struct rd *d);
/* After the worker: its sequence numbers keep dist_seq_check's rule. */
int fleet_rd_seq_done(struct rd *d);

#endif
