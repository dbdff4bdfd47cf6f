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
/* Starts building the operator tree on a second thread, for a view that
 * asks for it after other work (summary: the steps and the GPU metrics
 * first); its ses_tree then waits for that build. Nothing happens when the
 * session may use one thread only, when the tree is built or being built,
 * or when no thread can start (ses_tree builds it in place then). */
void ses_tree_ahead(struct ses *s, bool tb_compat);
/* At most n threads at once (gp_threads(n): 1, or 2); the default is
 * gp_threads(0), two when the machine has more than one CPU. */
void ses_set_threads(struct ses *s, int n);

void ses_stats(struct ses *s, struct ses_stats *out);

#endif
