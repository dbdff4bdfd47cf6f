/* sniff: what a file is, from its first bytes (magic numbers, never the
 * name). Callers pass the head of the delivered stream, so gzip input is
 * recognised again after inflation (a .json.gz sniffs as JSON through a
 * source, as gzip on its raw bytes). */
#include <string.h>

#include "io/source.h"

static bool has_prefix(const unsigned char *p, size_t n, const char *magic, size_t len)
{
	return n >= len && memcmp(p, magic, len) == 0;
}

/* JSON: the first byte after an optional UTF-8 BOM and JSON whitespace is
 * '{' or '['. A head of only whitespace is not enough to tell. */
static bool is_json(const unsigned char *p, size_t n)
{
	size_t i = has_prefix(p, n, "\xef\xbb\xbf", 3) ? 3 : 0;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
		i++;
	return i < n && (p[i] == '{' || p[i] == '[');
}

/* analysis.json of `gpuprof nsys analyze` (schema 1): an object whose first
 * key is one of its top-level keys. Python's json.dumps(sort_keys=True), as
 * the reference writes it, puts "gpu_projected_ranges" first; a PyTorch
 * trace's keys are camelCase or others ("schemaVersion", "traceEvents",
 * "deviceProperties"), never these. The schema_version and the other keys
 * are checked when the file is read (views/view_nsys_iter.c), so a broken
 * analysis.json still gets that reader's message rather than a trace
 * reader's. */
static bool is_nsys_analysis(const unsigned char *p, size_t n)
{
	static const char *const keys[] = {"gpu_projected_ranges", "host_ranges",
					   "iteration_summary", "iterations", "schema_version"};
	size_t i = has_prefix(p, n, "\xef\xbb\xbf", 3) ? 3 : 0;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
		i++;
	if (i >= n || p[i++] != '{')
		return false;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
		i++;
	if (i >= n || p[i++] != '"')
		return false;
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		size_t len = strlen(keys[k]);
		if (n - i > len && !memcmp(p + i, keys[k], len) && p[i + len] == '"')
			return true;
	}
	return false;
}

enum sniff_kind sniff_bytes(const void *head, size_t n)
{
	const unsigned char *p = head;
	if (has_prefix(p, n, "\x1f\x8b", 2))
		return SNIFF_GZIP;
	/* "SQLite format 3" and its NUL: the 16-byte header string. */
	if (has_prefix(p, n, "SQLite format 3", 16))
		return SNIFF_SQLITE;
	/* Nsight Compute: "NVR" and a NUL (4E 56 52 00), then the FileHeader
	 * size; see shared/reference/ncu.md section 1. */
	if (has_prefix(p, n, "NVR", 4))
		return SNIFF_NCU_REP;
	/* Nsight Systems: an ASCII first line "NVIDIA Tegra Profiler Report
	 * <version>." (every version seen, 2023.1 to 2026.1). */
	if (has_prefix(p, n, "NVIDIA Tegra Profiler Report", 28))
		return SNIFF_NSYS_REP;
	if (is_nsys_analysis(p, n))
		return SNIFF_NSYS_ANALYSIS;
	if (is_json(p, n))
		return SNIFF_JSON;
	return SNIFF_UNKNOWN;
}

const char *sniff_name(enum sniff_kind k)
{
	switch (k) {
	case SNIFF_GZIP:
		return "gzip";
	case SNIFF_JSON:
		return "json";
	case SNIFF_NCU_REP:
		return "ncu-rep";
	case SNIFF_SQLITE:
		return "sqlite";
	case SNIFF_NSYS_REP:
		return "nsys-rep";
	case SNIFF_NSYS_ANALYSIS:
		return "nsys-analysis";
	case SNIFF_UNKNOWN:
		break;
	}
	return "unknown";
}
