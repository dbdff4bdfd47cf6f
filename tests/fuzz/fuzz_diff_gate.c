/* fuzz_diff_gate: libFuzzer target for what `gpuprof diff` reads of its
 * options and then computes from them (src/views/view_diff*.c), without
 * traces. The input is lines: "min:AMOUNT" is a --min-abs, "row:TEXT" a row
 * of every compared table (key TEXT, values from its bytes), any other
 * line a --fail-if expression. The view's check parses them as the CLI
 * does; when they read, the gates are evaluated over the rows and every
 * table is written in each format. A bad expression must give a message,
 * never a crash, a leak or undefined behaviour. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views/view.h"
#include "views/view_diff.h"

#define FUZZ_MAX_LINES 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A row's side values from the bytes of its key (deterministic). */
static void values(const char *key, int side, double *v)
{
	uint64_t h = 1469598103934665603ull + (uint64_t)side;
	for (const char *p = key; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	for (int m = 0; m < DF_MAXM; m++, h >>= 13)
		v[m] = (double)(h & 0xfffff) - (side ? 0 : 1000);
}

static void write_all(const struct df_all *a)
{
	static const enum rep_format fmts[] = {REP_TABLE, REP_CSV, REP_JSON, REP_MARKDOWN};
	for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		struct report *r = f ? rep_open(f, fmts[i]) : NULL;
		if (r) {
			df_emit(a, r, i == 3 ? SIZE_MAX : 3);
			rep_close(r);
		}
		if (f)
			fclose(f);
		free(buf);
	}
}

static void run(char **lines, size_t n)
{
	struct view_opts o;
	const struct view_decl *d = view_get(VIEW_DIFF);
	view_opts_defaults(d, &o);
	struct df_all *a = calloc(1, sizeof *a);
	if (!a)
		return;
	size_t nt;
	const struct df_def *defs = df_defs(&nt);
	a->ntabs = nt;
	for (size_t i = 0; i < nt; i++)
		a->tabs[i].def = &defs[i];
	char msg[512];
	for (size_t i = 0; i < n; i++) {
		if (!strncmp(lines[i], "row:", 4)) {
			double v[DF_MAXM];
			for (size_t t = 0; t < nt; t++)
				for (int s = 0; s < 2; s++)
					if ((lines[i][4] + s) % 3) {
						values(lines[i] + 4, s, v);
						(void)df_add(&a->tabs[t], s, lines[i] + 4, v);
					}
		} else if (!strncmp(lines[i], "min:", 4)) {
			(void)vo_parse(&d->opts[1], VO_CLI, &o, lines[i] + 4, msg, sizeof msg);
		} else {
			(void)vo_parse(&d->opts[0], VO_CLI, &o, lines[i], msg, sizeof msg);
		}
	}
	if (d->check(d, &o, VO_CLI, msg, sizeof msg) == 0 &&
	    df_opts_apply(a, &o, msg, sizeof msg) == 0) {
		a->nparts = 1;
		a->parts[0] = (struct df_part){.part = ST_TOTAL,
					       .n = {3, 3},
					       .mean = {100, n % 2 ? 90 : 130},
					       .median = {100, 120},
					       .tested = true,
					       .p = 0.01,
					       .verdict = n % 3 ? "regression" : "noise"};
		for (size_t t = 0; t < nt; t++)
			(void)df_finish(&a->tabs[t]);
		df_gates_eval(a);
		(void)df_gates_tripped(a);
		write_all(a);
	}
	for (size_t t = 0; t < nt; t++)
		df_table_free(&a->tabs[t]);
	free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	char *lines[FUZZ_MAX_LINES];
	size_t n = 0;
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	for (char *p = text; n < FUZZ_MAX_LINES && p <= text + size;) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		lines[n++] = p;
		if (!nl)
			break;
		p = nl + 1;
	}
	run(lines, n);
	free(text);
	return 0;
}
