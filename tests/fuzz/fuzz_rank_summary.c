/* fuzz_rank_summary: libFuzzer target for the rank summary reader
 * (fleet/summary_read.c). Any bytes are accepted or refused with an error
 * whose offset lies in the input, never a crash or a hang; an accepted
 * summary, added twice, goes through dist_finish, and written back it reads
 * again into the very same bytes (the writer and the reader agree), and
 * the fleet tables (tbprof/dist_fleet.c) are computed over the two. A text
 * of several worker objects (a merge) gives each one's span: in order,
 * within the input, from its '{' to its '}'. The mode (tb_compat) is the
 * summary's own when the text says true there. Summaries of version 1 and
 * 2 are read; what is accepted keeps the sequence-number rule
 * (dist_seq_check), and is written back as version 2. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/summary.h"
#include "tbprof/dist_fleet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Worker k of r as summary text (malloc'd), or NULL. */
static char *written(const struct dist_result *r, size_t k, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	if (!f)
		return NULL;
	struct err e = {0};
	int rc = fleet_summary_write(r, k, NULL, f, "mem", &e);
	if (fclose(f) || rc) {
		free(buf);
		return NULL;
	}
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct dist_opts o = {.tb_compat = size > 60 && memmem(data, 60, "\"tb_compat\":true", 16)};
	struct dist_result r;
	struct err e = {0};
	if (dist_init(&r, &o, &e))
		return 0;
	struct fleet_span *sp = NULL;
	int rc = fleet_summary_scan(&r, text, size, "rank.json", NULL, &sp, &e);
	if (rc && (e.offset < -1 || e.offset > (int64_t)size))
		__builtin_trap();
	if (!rc) {
		size_t nw = r.n, n1 = 0, n2 = 0;
		for (size_t i = 0; i < nw; i++)
			if (sp[i].end > size || sp[i].start >= sp[i].end ||
			    (i && sp[i].start < sp[i - 1].end) || text[sp[i].start] != '{' ||
			    text[sp[i].end - 1] != '}')
				__builtin_trap();
		for (size_t i = 0; i < nw; i++) {
			size_t at;
			int64_t want;
			if (dist_seq_check(&r.w[i], &at, &want) > 0)
				__builtin_trap(); /* an accepted summary breaks the rule */
		}
		char *a = written(&r, 0, &n1), *b = NULL;
		if (a &&
		    (n1 < 50 ||
		     memcmp(a, "{\"kind\":\"gpuprof-rank-summary\",\"schema_version\":2,", 50)))
			__builtin_trap();
		if (a && !fleet_summary_add(&r, a, n1, "again.json", NULL, &e) && r.n == nw + 1)
			b = written(&r, nw, &n2);
		if (!a || !b || n1 != n2 || memcmp(a, b, n1))
			__builtin_trap(); /* a summary that does not read back as written */
		free(a);
		free(b);
		if (dist_finish(&r, &e))
			__builtin_trap();
		struct fleet_result f;
		if (!dist_fleet(&r, &f, &e))
			dist_fleet_free(&f);
	}
	free(sp);
	dist_free(&r);
	return 0;
}
