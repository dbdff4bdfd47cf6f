/* optree_int: what the tree's source files share (optree.c builds the
 * nodes and attaches runtimes, optree_stats.c collapses, orders and fills
 * the statistics and the Tensor Core cache). Not for other modules. */
#ifndef GP_OPTREE_INT_H
#define GP_OPTREE_INT_H

#include <string.h>

#include "tbprof/optree.h"
#include "tbprof/tbtime.h"

static inline bool optree_has_prefix(const struct trace *t, uint32_t name, const char *p)
{
	size_t n = strlen(p);
	return strpool_len(&t->pool, name) >= n && !memcmp(tr_str(t, name), p, n);
}

static inline bool optree_name_is(const struct trace *t, uint32_t name, const char *s)
{
	return strpool_len(&t->pool, name) == strlen(s) && !strcmp(tr_str(t, name), s);
}

/* Each node's runtimes (o->rts[rt_first ..], in any order) sorted as tb's
 * fill_stats orders them: by (start, -end), runtimes at time 0 and the
 * dummy last, then by row. -1 out of memory. */
int optree_sort_runtimes(struct optree *o);
/* tb's remove_dup_nodes. */
int optree_collapse_dups(struct optree *o);
/* o->post: every thread's nodes in tb's traversal order. */
int optree_post_order(struct optree *o);
/* Fills the Tensor Core cache of every GPU activity name of the trace, so
 * that the built tree is never written again. */
void optree_tc_fill(struct optree *o);
/* tb's fill_stats on every live node. */
void optree_fill_stats(struct optree *o);
/* o->agg and the backward-module rewrite (optree_bwd.c), after
 * optree_fill_stats; -1 out of memory. */
int optree_bwd_rewrite(struct optree *o);

#endif
