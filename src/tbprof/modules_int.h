/* modules_int: what the Module view's two source files share (modules.c
 * builds the hierarchy, modules_stats.c the statistics). Not for other
 * modules. */
#ifndef GP_TBPROF_MODULES_INT_H
#define GP_TBPROF_MODULES_INT_H

#include "tbprof/modules.h"

/* "Python module id" of event row, -1 when absent. */
int64_t tbmod_module_id(const struct trace *t, size_t row);
/* The hierarchy's rows into m (names, ids, parents; no statistics); -1 out
 * of memory. */
int tbmod_hierarchy(const struct optree *o, struct tbmodules *m);

#endif
