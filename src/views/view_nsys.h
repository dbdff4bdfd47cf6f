/* view_nsys: the tables of `gpuprof nsys FILE.sqlite info|kernels|memcpy|
 * api|nvtx|gpus` written into any report sink, so that the CLI and the HTTP
 * API of `gpuprof serve` print the same JSON from the same code.
 *
 * Depends on nsys/ (its public API) and report/.
 */
#ifndef GP_VIEWS_VIEW_NSYS_H
#define GP_VIEWS_VIEW_NSYS_H

#include "core/arena.h"
#include "core/err.h"
#include "nsys/nsys.h"
#include "report/report.h"
#include "views/view_opt.h"

/* The options of the nsys views (view_nsys_decl.c: steps reads them, the
 * command line takes them with every view), fields of struct view_opts. */
extern const struct vo view_nsys_opts[];
extern const size_t view_nsys_nopts;

/* The summary table of view (kernels, memcpy, api, nvtx, gpus) of rows t. */
int nsys_view_table(struct report *r, enum nsys_sql_view view, const struct nsys_sql_table *t);
/* The info view of the open export s (path: as given by the user). */
int nsys_view_info(struct report *r, struct nsys_sql *s, struct arena *a, const char *path);
/* Computes the rows of a table view (not info, not steps) into t. */
int nsys_view_compute(struct nsys_sql *s, struct arena *a, enum nsys_sql_view view,
		      struct nsys_sql_table *t, struct err *e);
struct view;
/* Why the table of a computed nsys view is empty when the export lacks its
 * table (struct nsys_sql_table.absent), else NULL: the CLI's note. */
const char *nsys_view_absent(const struct view *v);

#endif
