/* sniff: byte signatures, the tests that tell a format from its first
 * bytes (magic numbers, never the name).
 *
 * Each test answers one question ("are these the first bytes of an SQLite
 * file?"); which kind of input a signature means, and in which order the
 * tests are tried, is the registry's (input/input.h). They live here, below
 * the readers, because a reader names other formats in its own messages
 * ("this is an SQLite file, not a PyTorch trace") and readers never include
 * each other. Callers pass the head of the delivered stream, so gzip input
 * is recognised again after inflation; sniff_gunzip_head inflates the head
 * of gzip bytes held in memory. Owns nothing. Depends on ISA-L only.
 */
#ifndef GP_IO_SNIFF_H
#define GP_IO_SNIFF_H

#include <stdbool.h>
#include <stddef.h>

/* gzip: 1f 8b. */
bool sniff_gzip(const void *p, size_t n);
/* SQLite: "SQLite format 3" and its NUL, the 16-byte header string. */
bool sniff_sqlite(const void *p, size_t n);
/* Nsight Compute report: "NVR" and a NUL (4E 56 52 00), then the
 * FileHeader size; see shared/reference/ncu.md section 1. */
bool sniff_ncu_rep(const void *p, size_t n);
/* Nsight Systems report: an ASCII first line "NVIDIA Tegra Profiler Report
 * <version>." (every version seen, 2023.1 to 2026.1). */
bool sniff_nsys_rep(const void *p, size_t n);
/* JSON: the first byte after an optional UTF-8 BOM and JSON whitespace is
 * '{' or '['. A head of only whitespace is not enough to tell. */
bool sniff_json(const void *p, size_t n);
/* analysis.json of `gpuprof nsys analyze` (schema 1): a JSON object whose
 * first key is one of its top-level keys. Python's
 * json.dumps(sort_keys=True), as the reference writes it, puts
 * "gpu_projected_ranges" first; a PyTorch trace's keys are camelCase or
 * others ("schemaVersion", "traceEvents", "deviceProperties"), never these.
 * The schema_version and the other keys are checked when the file is read
 * (nsys_analysis_check), so a broken analysis.json still gets that reader's
 * message rather than a trace reader's. */
bool sniff_nsys_analysis(const void *p, size_t n);
/* A gpuprof rank summary (fleet/summary.h): a JSON object whose first key
 * is "kind" with the value "gpuprof-rank-summary". */
bool sniff_rank_summary(const void *p, size_t n);

/* The first bytes (at most cap) that the gzip bytes p[0..n) inflate to,
 * through as many members as it takes: their count, 0 when p is not gzip
 * or its head does not inflate. Cheap: no thread, no file (a head of a few
 * KiB costs a few KiB of input). */
size_t sniff_gunzip_head(const void *p, size_t n, void *out, size_t cap);

#endif
