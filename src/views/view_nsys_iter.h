/* view_nsys_iter: the per-iteration NVTX analysis (analysis.json schema 1)
 * as the CLI and the server both produce and read it:
 *   - `gpuprof nsys FILE.sqlite steps` and GET /api/file/ID/nsys/steps
 *     compute it from an export with the same code (nsys_view_steps);
 *   - `gpuprof serve` takes an analysis.json that `nsys analyze` wrote and
 *     checks it (nsys_analysis_check) before serving its bytes unchanged.
 *
 * Depends on nsys/ (its public API), json/ and core/.
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

/* Checks that text[0..len) is an analysis.json the viewer can show: strict
 * JSON (no NaN, no trailing comma: the page's JSON.parse refuses them), one
 * object, schema_version 1, and the keys of schema 1 with their types
 * (gpu_projected_ranges, host_ranges, iterations, warnings: arrays;
 * iteration_summary, run: objects; provenance, when present: an object).
 * Errors (ERR_FORMAT, name as the path, the byte offset when there is one)
 * say which rule failed. */
int nsys_analysis_check(const char *text, size_t len, const char *name, struct err *e);

#endif
