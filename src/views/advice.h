/* advice: the recommendations that the analyses of hta/ (idle, launches,
 * sync, flops, counters, the critical path, the steps' launch sequences) add to summary's, outside
 * --tb-compat. One table of rules
 * (advice.c): each rule has an id (the `rule` column of summary's
 * recommendations), a threshold, and a function over the analyses computed
 * once on the summary's session; the rules run in the table's order and
 * each adds at most one recommendation whose text carries its evidence.
 * docs/views.md (summary, "Rules of the GPU waits analyses") defines the
 * number each rule tests.
 *
 * Owns nothing past the call. Depends on tbprof/session, tbprof/overview,
 * hta/, report/ (number formats); never on another view.
 */
#ifndef GP_VIEWS_ADVICE_H
#define GP_VIEWS_ADVICE_H

#include "core/err.h"
#include "tbprof/overview.h"
#include "tbprof/session.h"

struct adv;

/* The analyses of trace t (of session s) that need no operator tree:
 * summary computes them while the tree is built on another thread; the
 * critical path and the counters go to the session's side thread after
 * it, and are waited for by adv_finish (or adv_free), so the caller may do
 * other work between. *out is set even on failure (adv_free it). 0, or an
 * error code with e set. */
int adv_start(struct ses *s, const struct trace *t, struct adv **out, struct err *e);
/* The analyses on the tree, then the rules, appending their
 * recommendations to ov. 0, or an error code with e set. */
int adv_finish(struct adv *a, struct ov_result *ov, struct err *e);
void adv_free(struct adv *a);

#endif
