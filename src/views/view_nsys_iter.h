/* view_nsys_iter: the per-iteration NVTX analysis (analysis.json schema 1)
 * as the CLI and the server both produce and read it:
 *   - `gpuprof nsys FILE.sqlite steps` and GET /api/file/ID/nsys/steps
 *     compute it from an export with the same code (nsys_view_steps);
 *   - `gpuprof serve` takes an analysis.json that `nsys analyze` wrote,
 *     checked by nsys/ (nsys_analysis_check), and serves its bytes unchanged.
 *
 * Depends on nsys/ (its public API) and core/.
 */
#ifndef GP_VIEWS_VIEW_NSYS_ITER_H
#define GP_VIEWS_VIEW_NSYS_ITER_H

#include <stddef.h>

#include "core/arena.h"
#include "core/err.h"
#include "nsys/nsys.h"

/* The manifest `steps` uses without a manifest file: capture_range =
 * capture, and workload.iterations when iterations (decimal text) is not
 * NULL. A bad count is ERR_USAGE "--iterations needs a count, not 'X'". */
int nsys_steps_manifest(struct arena *a, const char *capture, const char *iterations,
			struct nsys_jv **out, struct err *e);

/* analysis.json of the export s (path: as the user gave it, recorded as
 * trace_path; manifest_path: the manifest file or NULL). */
int nsys_view_steps(struct nsys_sql *s, struct arena *a, const struct nsys_jv *manifest,
		    const char *manifest_path, const char *path, struct nsys_jv **out,
		    struct err *e);

#endif
