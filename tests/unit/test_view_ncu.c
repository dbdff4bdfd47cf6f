/* Unit tests of the ncu views in the registry of views (views/view.h):
 * found by family and verb, their option checks as each front end spells
 * them, the unknown-verb message, and a view computed and emitted from
 * the registry on tests/golden/_inputs/tiny.ncu-rep. */
#include <stdio.h>
#include <stdlib.h>

#include "ncu/ncu.h"
#include "test.h"
#include "views/view.h"

void test_view_ncu_registry(struct t *t)
{
	static const char *const verbs[] = {"list",  "raw",  "session", "details",
					    "hints", "body", "source",	"diff"};
	static const enum view_kind kinds[] = {VIEW_NCU_LIST,	 VIEW_NCU_RAW,	 VIEW_NCU_SESSION,
					       VIEW_NCU_DETAILS, VIEW_NCU_HINTS, VIEW_NCU_BODY,
					       VIEW_NCU_SOURCE,	 VIEW_NCU_DIFF};
	size_t seen = 0;
	for (size_t i = 0; i < view_count(); i++)
		if (view_at(i)->family == VIEW_FAMILY_NCU) {
			CHECK_STR(t, view_at(i)->name, verbs[seen]); /* registry order */
			seen++;
		}
	CHECK_INT(t, seen, 8);
	for (size_t i = 0; i < 8; i++) {
		const struct view_decl *d = view_find_in(VIEW_FAMILY_NCU, verbs[i]);
		CHECK(t, d != NULL && d->kind == kinds[i] && d->family == VIEW_FAMILY_NCU);
		CHECK(t, d != NULL && (d->flags & VIEW_WHOLE_FILE) && d->check);
	}
	CHECK(t, view_find("list") == NULL); /* not a trace command */
	CHECK(t, view_find_in(VIEW_FAMILY_NCU, "summary") == NULL);
	CHECK(t, view_find_in(VIEW_FAMILY_TRACE, "summary") == view_get(VIEW_SUMMARY));
	CHECK_STR(t, view_family_prefix(VIEW_FAMILY_NCU), "ncu");
	CHECK(t, view_family_prefix(VIEW_FAMILY_TRACE) == NULL);
	/* the query parameters each verb declares */
	const struct view_decl *h = view_get(VIEW_NCU_HINTS);
	CHECK_INT(t, h->nopts, 4);
	CHECK(t, vo_find_api(h->opts, h->nopts, "sort") != NULL);
	CHECK(t, vo_find_api(h->opts, h->nopts, "print_units") == NULL);
	CHECK_INT(t, view_get(VIEW_NCU_SESSION)->nopts, 0);
	CHECK_INT(t, view_ncu_nopts, 8); /* the CLI takes every option for every verb */
	/* source: --nvdisasm is the command line's only (no request names a
	 * program to run) */
	const struct view_decl *src = view_get(VIEW_NCU_SOURCE);
	CHECK_INT(t, src->nopts, 3);
	CHECK(t, vo_find_api(src->opts, src->nopts, "nvdisasm") == NULL);
	CHECK(t, vo_find_api(src->opts, src->nopts, "id") != NULL);

	char msg[256];
	view_unknown(VIEW_FAMILY_NCU, "lst", msg, sizeof msg);
	CHECK_STR(t, msg,
		  "unknown verb 'lst'; did you mean 'list'? (list, raw, session, details, hints, "
		  "body, source, diff)");
	view_unknown(VIEW_FAMILY_NCU, "frob", msg, sizeof msg);
	CHECK_STR(t, msg,
		  "unknown verb 'frob' (list, raw, session, details, hints, body, source, diff)");
}

void test_view_ncu_checks(struct t *t)
{
	const struct view_decl *d = view_get(VIEW_NCU_DETAILS);
	struct view_opts o;
	char msg[256];
	view_opts_defaults(d, &o);
	CHECK_INT(t, o.ncu.id, -1);
	CHECK_INT(t, o.ncu.parts, NCU_DETAILS_HEADER | NCU_DETAILS_BODY);
	o.ncu_args.id = "x";
	CHECK_INT(t, d->check(d, &o, VO_CLI, msg, sizeof msg), -1);
	CHECK_STR(t, msg, "--id needs a number >= 0, not 'x'");
	CHECK_INT(t, d->check(d, &o, VO_API, msg, sizeof msg), -1);
	CHECK_STR(t, msg, "id needs a number >= 0, not 'x'");
	o.ncu_args.id = "3";
	o.ncu_args.units = "kilo";
	CHECK_INT(t, d->check(d, &o, VO_CLI, msg, sizeof msg), -1);
	CHECK_STR(t, msg, "--print-units takes base or auto, not 'kilo'");
	CHECK_INT(t, d->check(d, &o, VO_API, msg, sizeof msg), -1);
	CHECK_STR(t, msg, "print_units takes base or auto");
	o.ncu_args.units = "base";
	o.ncu_args.details = "header";
	o.ncu_args.sort = "speedup";
	CHECK_INT(t, d->check(d, &o, VO_CLI, msg, sizeof msg), 0);
	CHECK_INT(t, o.ncu.id, 3);
	CHECK(t, o.ncu.base_units && !o.ncu.has_re);
	CHECK_INT(t, o.ncu.parts, NCU_DETAILS_HEADER);
	CHECK_INT(t, o.ncu.sort, NCU_HINT_SORT_SPEEDUP);
	o.ncu_args.kernel = "(";
	CHECK_INT(t, d->check(d, &o, VO_CLI, msg, sizeof msg), -1);
	CHECK_STR(t, msg, "--kernel: invalid regular expression '('");
	CHECK_INT(t, d->check(d, &o, VO_API, msg, sizeof msg), -1);
	CHECK_STR(t, msg, "kernel: invalid regular expression");
	view_opts_release(&o);
}

/* Patterns refused before regcomp, each with its reason, and patterns at
 * the limits that compile (the limits: 4096 parts, repetitions nested 4
 * deep, no repetition right after another, no back-reference). */
void test_view_ncu_regex_limits(struct t *t)
{
	static const struct {
		const char *rx, *why; /* why NULL: compiled */
	} cases[] = {
	    {"gemm|conv", NULL},
	    {"^void at::native::.*<float>", NULL},
	    {"((((a?)?)?)?)", NULL},
	    {"(((a*b*)*(c*d*)*)*e*)*", NULL},
	    {"(a{60}){60}", NULL},
	    {"a\\+\\+\\*", NULL},
	    {"[+*?]{2}", NULL},
	    {"[\\1]", NULL},
	    {"a??", "a repetition directly after another"},
	    {".*?", "a repetition directly after another"},
	    {"x{2}+", "a repetition directly after another"},
	    {"a?????????????????????????????????????+++++", "a repetition directly after another"},
	    {"(((((a?)?)?)?)?)", "repetitions nested more than 4 deep"},
	    {"((((((((((((((((a)?)?)?)?)?)?)?)?)?)?)?)?)?)?)?)+",
	     "repetitions nested more than 4 deep"},
	    {"(x(((y|(a*)+)*)*)?)", "repetitions nested more than 4 deep"},
	    {"((a{20}){20}){20}", "its repetitions expand past 4096 parts"},
	    {"(a*)*\\1", "back-references such as \\1 take exponential time"},
	};
	const struct view_decl *d = view_get(VIEW_NCU_LIST);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct view_opts o;
		view_opts_defaults(d, &o);
		o.ncu_args.kernel = cases[i].rx;
		char msg[512] = "", want[512];
		int rc = d->check(d, &o, VO_API, msg, sizeof msg);
		if (cases[i].why) {
			snprintf(want, sizeof want, "kernel: regular expression too complex (%s)",
				 cases[i].why);
			CHECK_INT(t, rc, -1);
			CHECK_STR(t, msg, want);
		} else {
			CHECK_INT(t, rc, 0);
			CHECK(t, o.ncu.has_re);
		}
		view_opts_release(&o);
	}
}

/* The list view of tiny.ncu-rep through the registry: the JSON `gpuprof
 * ncu list --format json` prints (tests/ncu/mkreport.py wrote the report:
 * one launch of kernel "tiny", grid 4x2x1, block 128, 1536 ns). */
void test_view_ncu_list(struct t *t)
{
	struct ncu_report *r;
	struct err e;
	CHECK_INT(t, ncu_load(&r, "tests/golden/_inputs/tiny.ncu-rep", 0, &e), 0);
	if (!r)
		return;
	const struct view_decl *d = view_find_in(VIEW_FAMILY_NCU, "list");
	struct view_opts o;
	view_opts_defaults(d, &o);
	char msg[128];
	CHECK_INT(t, d->check(d, &o, VO_API, msg, sizeof msg), 0);
	struct view *v = NULL;
	CHECK_INT(t, view_compute_ncu(d, r, &o, &v, &e), 0);
	/* a trace view is no ncu view */
	struct view *w = NULL;
	CHECK_INT(t, view_compute_ncu(view_get(VIEW_SUMMARY), r, &o, &w, &e), ERR_USAGE);
	CHECK(t, w == NULL);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct report *rp = f ? rep_open(f, REP_JSON) : NULL;
	if (v && rp) {
		view_emit(v, rp);
		CHECK(t, !view_emit_failed(v));
		CHECK_INT(t, rep_close(rp), 0);
	}
	if (f)
		fclose(f);
	CHECK_STR(t, buf ? buf : "",
		  "{\n  \"kernels\": [\n    {\n      \"id\": 0,\n      \"kernel\": \"tiny\",\n"
		  "      \"type\": \"Other\",\n      \"grid\": \"(4, 2, 1)\",\n"
		  "      \"block\": \"(128, 1, 1)\",\n      \"dur_ns\": 1536,\n"
		  "      \"sm_throughput_pct\": 12.3456,\n"
		  "      \"memory_throughput_pct\": null,\n"
		  "      \"achieved_occupancy_pct\": null,\n"
		  "      \"registers_per_thread\": 32,\n      \"hints\": 1\n    }\n  ],\n"
		  "  \"columns\": {\n    \"kernels\": [\"id\", \"kernel\", \"type\", \"grid\", "
		  "\"block\", "
		  "\"dur_ns\", \"sm_throughput_pct\", \"memory_throughput_pct\", "
		  "\"achieved_occupancy_pct\", \"registers_per_thread\", \"hints\"]\n  }\n}\n");
	free(buf);
	view_free(v);
	view_opts_release(&o);
	ncu_free(r);
}
