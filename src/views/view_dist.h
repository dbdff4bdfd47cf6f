/* view_dist: the tables of `gpuprof dist` (overlap, waittime, commops,
 * workers, gpus and the 'distributed' section) written into any report
 * sink, so that the CLI and GET /api/dist of `gpuprof serve` print the same
 * JSON from the same code; and the fleet tables (`gpuprof dist --fleet`). The computation is
 * tbprof/dist.h's; worker names come from dist_worker_name of each file's name (its path's base
 * name on the command line, an upload's name in the server).
 *
 * Depends on tbprof/dist.h and report/.
 */
#ifndef GP_VIEWS_VIEW_DIST_H
#define GP_VIEWS_VIEW_DIST_H

#include "report/report.h"
#include "tbprof/dist.h"

/* Writes d's tables and the 'distributed' section into r (which stays
 * open). 0, or -1 when out of memory. */
int dist_view_emit(struct report *r, const struct dist_result *d);
/* Writes the fleet tables of d (tbprof/dist_fleet.h: stragglers, skew,
 * skew_collectives, bandwidth, balance) into r; skew keeps its first `top`
 * rows (0: all). 0, or -1 when out of memory. */
int dist_fleet_view_emit(struct report *r, const struct dist_result *d, size_t top);

#endif
