/* sniff: byte signatures; see sniff.h. */
#include "io/sniff.h"

#include <isa-l/igzip_lib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool has_prefix(const void *p, size_t n, const char *magic, size_t len)
{
	return n >= len && memcmp(p, magic, len) == 0;
}

/* The offset of the first byte after an optional UTF-8 BOM and JSON
 * whitespace from i on (n when there is none). */
static size_t skip_ws(const unsigned char *p, size_t n, size_t i)
{
	if (i == 0 && has_prefix(p, n, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
		i++;
	return i;
}

bool sniff_gzip(const void *p, size_t n)
{
	return has_prefix(p, n, "\x1f\x8b", 2);
}

bool sniff_sqlite(const void *p, size_t n)
{
	return has_prefix(p, n, "SQLite format 3", 16);
}

bool sniff_ncu_rep(const void *p, size_t n)
{
	return has_prefix(p, n, "NVR", 4);
}

bool sniff_nsys_rep(const void *p, size_t n)
{
	return has_prefix(p, n, "NVIDIA Tegra Profiler Report", 28);
}

bool sniff_json(const void *head, size_t n)
{
	const unsigned char *p = head;
	size_t i = skip_ws(p, n, 0);
	return i < n && (p[i] == '{' || p[i] == '[');
}

bool sniff_nsys_analysis(const void *head, size_t n)
{
	static const char *const keys[] = {"gpu_projected_ranges", "host_ranges",
					   "iteration_summary", "iterations", "schema_version"};
	const unsigned char *p = head;
	size_t i = skip_ws(p, n, 0);
	if (i >= n || p[i++] != '{')
		return false;
	i = skip_ws(p, n, i);
	if (i >= n || p[i++] != '"')
		return false;
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		size_t len = strlen(keys[k]);
		if (n - i > len && !memcmp(p + i, keys[k], len) && p[i + len] == '"')
			return true;
	}
	return false;
}

bool sniff_rank_summary(const void *head, size_t n)
{
	static const char key[] = "\"kind\"", val[] = "\"gpuprof-rank-summary\"";
	const unsigned char *p = head;
	size_t i = skip_ws(p, n, 0);
	if (i >= n || p[i++] != '{')
		return false;
	i = skip_ws(p, n, i);
	if (n - i < sizeof key - 1 || memcmp(p + i, key, sizeof key - 1))
		return false;
	i = skip_ws(p, n, i + sizeof key - 1);
	if (i >= n || p[i++] != ':')
		return false;
	i = skip_ws(p, n, i);
	return n - i >= sizeof val - 1 && !memcmp(p + i, val, sizeof val - 1);
}

size_t sniff_gunzip_head(const void *p, size_t n, void *out, size_t cap)
{
	if (!sniff_gzip(p, n) || !cap)
		return 0;
	/* about 85 KiB: not on the stack of a server thread */
	struct inflate_state *st = malloc(sizeof *st);
	if (!st)
		return 0;
	const uint8_t *in = p;
	size_t got = 0;
	cap = cap > UINT32_MAX ? UINT32_MAX : cap;
	/* member after member (as io/gzip.c): a first member can be short */
	while (got < cap && sniff_gzip(in, n)) {
		isal_inflate_init(st);
		st->crc_flag = ISAL_GZIP;
		st->next_in = (uint8_t *)(uintptr_t)in;
		st->avail_in = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
		st->next_out = (uint8_t *)out + got;
		st->avail_out = (uint32_t)(cap - got);
		int ret = isal_inflate(st);
		got = cap - st->avail_out; /* output before an error is still good */
		if (ret != ISAL_DECOMP_OK || st->block_state != ISAL_BLOCK_FINISH)
			break;
		n -= (size_t)(st->next_in - in);
		in = st->next_in;
	}
	free(st);
	return got;
}
