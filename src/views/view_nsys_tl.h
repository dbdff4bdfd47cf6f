/* view_nsys_tl: the timeline of an Nsight Systems SQLite export (GET
 * /api/file/ID/nsys/timeline), in the JSON shape of the trace timeline
 * (view.h, view_timeline.c) so the page draws both alike: lanes of items
 * at a level of detail (views/timeline_lod.h, the same rule), flows
 * (launch -> GPU activity by correlationId) and an event's links. */
#ifndef GP_VIEWS_VIEW_NSYS_TL_H
#define GP_VIEWS_VIEW_NSYS_TL_H

#include <stdio.h>

#include "core/err.h"
#include "nsys/nsys_tl.h"
#include "views/view.h"

struct nsys_tl_index; /* the rows, nesting depths, running max ends, launchers */

/* Takes m (freed with the index, or on failure). O(n log n), once. */
int nsys_tl_index_build(struct nsys_tl *m, struct nsys_tl_index **out, struct err *e);
void nsys_tl_index_free(struct nsys_tl_index *ix);
/* The window's lanes (and flows when o->flows) as JSON; ERR_USAGE for an
 * empty or out-of-range window. */
int nsys_tl_write_json(const struct nsys_tl_index *ix, const struct tl_opts *o, FILE *f,
		       struct err *e);
/* {"row", "links": [...]}: the GPU activities a CUDA API call launched, or
 * the call that launched a GPU activity; ERR_USAGE for no such row. */
int nsys_tl_write_links(const struct nsys_tl_index *ix, int64_t row, FILE *f, struct err *e);

#endif
