/* run_dir: the analysis of a run directory's `nsys stats` CSVs, shared by
 * `gpuprof nsys analyze` (which may run nsys first and writes the result)
 * and `gpuprof serve DIR` (which analyses in memory and writes nothing).
 * Paths inside the run directory are recorded relative to it, as the
 * reference analyzer writes them. */
#include <stdio.h>
#include <string.h>

#include "nsys/nsys.h"

char *nsys_dir_file(struct arena *a, const char *dir, const char *name)
{
	size_t len = strlen(dir) + strlen(name) + 2;
	char *s = arena_alloc(a, len);
	if (s)
		snprintf(s, len, "%s/%s", dir, name);
	return s;
}

int nsys_analyze_csv_dir(struct arena *a, const char *run_dir, const struct nsys_jv *manifest,
			 const char *version, struct nsys_jv **out, struct err *e)
{
	char *hpath = nsys_dir_file(a, run_dir, "stats/nsys_nvtx_pushpop_trace.csv");
	char *gpath = nsys_dir_file(a, run_dir, "stats/nsys_nvtx_gpu_proj_trace.csv");
	if (!hpath || !gpath)
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	struct nsys_csv hc, gc;
	struct nsys_ranges host, gpu;
	int rc = nsys_csv_read(a, hpath, &hc, e);
	if (!rc)
		rc = nsys_csv_read(a, gpath, &gc, e);
	if (!rc)
		rc = nsys_host_from_csv(a, &hc, &host, e);
	if (!rc)
		rc = nsys_gpu_from_csv(a, &gc, &gpu, e);
	struct nsys_provenance prov = {version ? version : "unknown", "manifest.yaml",
				       "trace.nsys-rep", "stats/nsys_nvtx_pushpop_trace.csv",
				       "stats/nsys_nvtx_gpu_proj_trace.csv"};
	if (!rc)
		rc = nsys_analyze(a, manifest, &host, &gpu, &prov, out, e);
	return rc;
}
