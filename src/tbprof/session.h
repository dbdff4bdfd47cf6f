/* session: the analyses every view of one trace shares, each built once,
 * on first use, and kept for the life of the session: the launch links
 * (trace/link.h, both variants), the training steps (steps.h) and the
 * operator tree (optree.h), each as plain and as --tb-compat.
 *
 * A front end opens one session per loaded trace (and one per --step /
 * --range window, whose trace is another trace) and computes every view
 * through it: `gpuprof summary` builds the links, the steps and the tree
 * once, where each analysis used to build its own; the server's views of a
 * file share them across requests. A window's session (ses_new_window)
 * starts with the file's links carried over, and the file's session finds
 * the window with the steps' ranges alone (ses_step_bounds), so
 * `summary --step N` builds the links, the steps and the tree once each.
 *
 * The results are read-only once built, so threads may use one session at
 * once: each slot has its own lock, held while it is built (a second caller
 * waits for the answer in progress instead of computing it again). A build
 * that fails is not kept; the next caller tries again.
 *
 * The links of driver=false and driver=true differ only through
 * cuda_driver events: a trace without any gets one build for both.
 *
 * Owns its results; reads the trace, which must outlive it. Depends on
 * trace/ and tbprof/ (steps, optree).
 */
#ifndef GP_TBPROF_SESSION_H
#define GP_TBPROF_SESSION_H

#include <stdbool.h>

#include "core/err.h"
#include "tbprof/optree.h"
#include "tbprof/steps.h"
#include "trace/link.h"
#include "trace/trace.h"

struct ses;

/* How often each analysis was built (for tests and benchmarks). */
struct ses_stats {
	unsigned links;		/* link builds (a trace without driver events: one for both) */
	unsigned steps;		/* st_compute runs */
	unsigned trees;		/* optree builds */
	unsigned bounds;	/* st_bounds runs (ses_step_bounds without steps) */
	unsigned links_derived; /* window links taken from the parent's */
};

int ses_new(const struct trace *t, struct ses **out, struct err *e);
/* A session on window w (trace/window.h) of parent's trace: the link
 * variants parent has built are carried over to w's rows
 * (tr_links_derive) instead of being built again; the rest as ses_new.
 * A w that is not a window of parent's trace gets a plain session. parent
 * may be freed afterwards. */
int ses_new_window(struct ses *parent, const struct trace *w, struct ses **out, struct err *e);
void ses_free(struct ses *s);
const struct trace *ses_trace(const struct ses *s);

/* The links with driver = false (torch-tb-profiler's runtime categories)
 * or true (cuda_driver calls launch too). */
int ses_links(struct ses *s, bool driver, const struct tr_links **out, struct err *e);
/* The steps of the whole trace (st_compute with links(false)). */
int ses_steps(struct ses *s, bool tb_compat, const struct st_result **out, struct err *e);
/* Where the steps are (st_bounds with links(false), plain mode): the
 * steps themselves when built, else their ranges without the breakdown. */
int ses_step_bounds(struct ses *s, const struct st_result **out, struct err *e);
/* The operator tree (optree_build with links(!tb_compat)). */
int ses_tree(struct ses *s, bool tb_compat, const struct optree **out, struct err *e);
/* Starts building the operator tree on the side thread (ses_side_run), for
 * a view that asks for it after other work (summary: the steps and the GPU
 * metrics first); its ses_tree then waits for that build. Nothing happens
 * when the session may use one thread only or when the tree is built or
 * was asked for already; when no thread can start, it is built in place. */
void ses_tree_ahead(struct ses *s, bool tb_compat);

/* A job for the session's side thread: fn(arg). The caller owns it and
 * keeps it alive until ses_side_wait returns (or the session is freed). */
struct ses_side {
	void (*fn)(void *arg);
	void *arg;
	bool done;	       /* (set by the session) */
	struct ses_side *next; /* (the session's queue) */
};
/* Runs j on the side thread, after the jobs queued before it: the thread
 * runs while jobs are queued and ends when none is left, so the process
 * uses two threads at most (the caller and it). With one thread allowed
 * (ses_set_threads, the WebAssembly build) or when no thread can start, j
 * runs here before this returns. fn must touch nothing the caller uses
 * meanwhile except read-only results (the trace, the session's). */
void ses_side_run(struct ses *s, struct ses_side *j);
/* Returns once j (given to ses_side_run) has run. */
void ses_side_wait(struct ses *s, struct ses_side *j);
/* At most n threads at once (gp_threads(n): 1, or 2); the default is
 * gp_threads(0), two when the machine has more than one CPU. */
void ses_set_threads(struct ses *s, int n);

void ses_stats(struct ses *s, struct ses_stats *out);

#endif
