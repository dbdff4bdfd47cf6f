/* fuzz_nsys_analyze: libFuzzer target for the NVTX iteration analysis of a
 * run directory: the input is manifest.yaml, the pushpop CSV and the GPU
 * projection CSV, split at the first two lines that are exactly "%%"
 * (missing parts are empty). What `nsys analyze --from-csv` would write is
 * built and written to /dev/null; any input must give it or an error,
 * never a crash, a hang or unbounded memory. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "nsys/nsys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The part of [*p, end) up to the next "\n%%\n" line (or the end). */
static void next_part(const char **p, const char *end, const char **s, size_t *n)
{
	*s = *p;
	const char *q = *p;
	while (q + 4 <= end && memcmp(q, "\n%%\n", 4))
		q++;
	if (q + 4 > end) {
		*n = (size_t)(end - *s);
		*p = end;
		return;
	}
	*n = (size_t)(q - *s) + 1; /* keep the part's last newline */
	*p = q + 4;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size, *part[3];
	size_t len[3];
	for (int i = 0; i < 3; i++)
		next_part(&p, end, &part[i], &len[i]);
	struct arena a;
	arena_init(&a);
	struct err e = {0};
	struct nsys_jv *m = NULL, *out = NULL;
	struct nsys_csv hc, gc;
	struct nsys_ranges host, gpu;
	struct nsys_provenance prov = {"NVIDIA Nsight Systems version 2025.1.3", "manifest.yaml",
				       "trace.nsys-rep", "stats/nsys_nvtx_pushpop_trace.csv",
				       "stats/nsys_nvtx_gpu_proj_trace.csv"};
	int rc =
	    nsys_yaml_parse(&a, "manifest.yaml", (const unsigned char *)part[0], len[0], &m, &e);
	if (!rc)
		rc = nsys_csv_parse(&a, prov.pushpop_path, part[1], len[1], &hc, &e);
	if (!rc)
		rc = nsys_csv_parse(&a, prov.gpu_proj_path, part[2], len[2], &gc, &e);
	if (!rc)
		rc = nsys_host_from_csv(&a, &hc, &host, &e);
	if (!rc)
		rc = nsys_gpu_from_csv(&a, &gc, &gpu, &e);
	if (!rc)
		rc = nsys_analyze(&a, m, &host, &gpu, &prov, &out, &e);
	if (!rc) {
		FILE *f = fopen("/dev/null", "w");
		if (f) {
			nsys_jv_write(f, out);
			fclose(f);
		}
	}
	arena_free(&a);
	return 0;
}
