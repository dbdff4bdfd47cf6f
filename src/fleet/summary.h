/* fleet/summary: the rank summary, a compact file holding one worker's
 * part of the distributed view (what dist_add computes from its trace),
 * so that `gpuprof dist` can run over summaries made elsewhere, one per
 * rank, without loading any trace.
 *
 * The format (docs/schemas/rank-summary.schema.json, docs/dist.md) is one
 * JSON object whose first key is "kind": "gpuprof-rank-summary" (what
 * io/sniff's sniff_rank_summary recognises), then "schema_version": 2
 * (1 is still read). It holds the worker's name, file and distributedInfo,
 * its process groups (once each), its communication nodes (name, CPU
 * range, bytes, step, ranges: the CPU range and its kernels as dist_add
 * sorted them; group, sequence number, lead-in values), per step the
 * computation/communication overlap (and, not read back, its bounds,
 * breakdown and GPU busy time), the GPUs used, and (not read back) the
 * kernel summary and memory peaks. Times and bytes are int64
 * JSON integers, exact. Reading a summary and then dist_finish gives the
 * same tables, to the byte, as dist_add of the trace: the reader fills the
 * very fields dist_add fills. A summary records the mode it was made in
 * (tb_compat); the reader refuses one of the other mode.
 *
 * Owns nothing between calls: the writer and the merge write to the
 * caller's stream, the reader appends a worker to the caller's
 * dist_result (which owns it, even when the reader fails half way).
 * Depends on tbprof (dist; steps, gpumetrics, kernels, memory and the
 * session for what the writer adds), json (the reader's tokens), report
 * (JSON strings), io (reading a file).
 */
#ifndef GP_FLEET_SUMMARY_H
#define GP_FLEET_SUMMARY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "tbprof/dist.h"
#include "tbprof/gpumetrics.h"

#define FLEET_SUMMARY_KIND "gpuprof-rank-summary"
#define FLEET_SUMMARY_VERSION 2
/* The oldest version read (version 1: no groups, seq, causes, breakdowns,
 * kernels or memory; what dist shows over it is unchanged). */
#define FLEET_SUMMARY_VERSION_MIN 1
/* The kernel summary's cut-off: the first this many names by total time. */
#define FLEET_TOP_KERNELS 20
/* A summary is read whole: larger than this is not one. */
#define FLEET_SUMMARY_MAX ((int64_t)1 << 30)

/* Writes worker k of r (as dist_add left it, before dist_finish) as a
 * summary to f. t: the trace dist_add read for it, still alive, for each
 * call's process group and message (record_param_comms' arguments:
 * "Collective name", "Process Group Name", "Process Group Ranks", "Group
 * size", "In/Out msg nelems", "dtype"); NULL writes only the process group
 * name that dist_node.pg keeps. 0, or ERR_NOMEM
 * / ERR_IO naming `out`. */
struct ses;
int fleet_summary_write(const struct dist_result *r, size_t k, struct ses *ses, FILE *f,
			const char *out, struct err *e);

/* The writer's per-trace analyses (summary_extra.c) on the session of
 * the trace (the caller's, which dist_add_ses read too: links, steps and
 * the tree built once) for the steps' breakdowns, the kernels and the
 * memory peaks. ses NULL (a worker read from a summary): they are written
 * as absent. */
struct st_result;
struct fleet_extra {
	const struct trace *t;
	bool compat;
	struct ses *ses;
	const struct st_result *steps;
	struct gm_busy busy; /* per step (window) and GPU */
};
int fleet_extra_open(struct fleet_extra *x, struct ses *ses, bool compat, struct err *e);
void fleet_extra_close(struct fleet_extra *x);
/* Step i (numbered `number`): its bounds, breakdown and GPUs' busy time as
 * members of the step's object; nothing when there is no trace. */
int fleet_extra_step(const struct fleet_extra *x, size_t i, int64_t number, FILE *f, struct err *e);
/* The summary's "kernels" and "memory" members (null without a trace). */
int fleet_extra_tail(const struct fleet_extra *x, FILE *f, struct err *e);

/* Appends the worker of summary text[0..len) to r. path names the summary
 * in errors (with the byte offset of what is wrong); name: the worker's
 * name (NULL: the one the summary holds). 0, or ERR_FORMAT (not a summary,
 * not valid JSON, a value of the wrong type or out of range, a summary of
 * the other mode), ERR_NOMEM. */
int fleet_summary_add(struct dist_result *r, const char *text, size_t len, const char *path,
		      const char *name, struct err *e);

/* A merged summary (rank-summary --merge) is several worker objects one
 * after another, each a summary as above, in the canonical order of
 * fleet_summary_merge; fleet_summary_add reads them all (name then
 * applies only to a text of one worker). fleet_summary_scan is
 * fleet_summary_add that also gives, when spans is not NULL, each added
 * worker's object as [start, end) of text (malloc'd, one per worker). */
struct fleet_span {
	size_t start, end;
};
int fleet_summary_scan(struct dist_result *r, const char *text, size_t len, const char *path,
		       const char *name, struct fleet_span **spans, struct err *e);

/* Merges the summaries paths[0..n) (each of one or several workers, all
 * of mode compat) into one, written to f (`out` names it in errors): each
 * worker's object exactly as its input holds it, ordered by rank (unknown
 * last), then name, so that any grouping and order of merges gives the
 * same bytes. A worker name or a rank that appears twice is refused
 * (ERR_FORMAT naming both files), as is any input fleet_summary_add
 * refuses. */
int fleet_summary_merge(const char *const *paths, size_t n, bool compat, FILE *f, const char *out,
			struct err *e);

/* The whole (inflated) content of path, at most FLEET_SUMMARY_MAX bytes,
 * NUL-terminated, malloc'd into *out. */
int fleet_summary_read_file(const char *path, char **out, size_t *len, struct err *e);

#endif
