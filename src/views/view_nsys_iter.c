/* view_nsys_iter: see view_nsys_iter.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views/view_nsys_iter.h"

int nsys_steps_manifest(struct arena *a, const char *capture, const char *iterations,
			struct nsys_jv **out, struct err *e)
{
	struct nsys_jv *m = nsys_jv_new(a, NSYS_JOBJ);
	if (!m || nsys_jv_set(a, m, "capture_range", nsys_jv_str(a, capture)))
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	if (iterations) {
		char *end;
		long long n = strtoll(iterations, &end, 10);
		if (*end || end == iterations || n < 0)
			return err_set(e, ERR_USAGE, NULL, -1,
				       "--iterations needs a count, not '%s'", iterations);
		struct nsys_jv *w = nsys_jv_new(a, NSYS_JOBJ);
		if (!w || nsys_jv_set(a, w, "iterations", nsys_jv_int(a, n)) ||
		    nsys_jv_set(a, m, "workload", w))
			return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	}
	*out = m;
	return 0;
}

int nsys_view_steps(struct nsys_sql *s, struct arena *a, const struct nsys_jv *manifest,
		    const char *manifest_path, const char *path, struct nsys_jv **out,
		    struct err *e)
{
	struct nsys_ranges host, gpu;
	int rc = nsys_sql_ranges(s, a, &host, &gpu, e);
	if (rc)
		return rc;
	const char *v = nsys_sql_version(s, a);
	struct nsys_provenance prov = {v ? v : "unknown", manifest_path, path, NULL, NULL};
	return nsys_analyze(a, manifest, &host, &gpu, &prov, out, e);
}
