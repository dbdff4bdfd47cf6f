/* view_ncu: the Nsight Compute tables of `gpuprof ncu list|raw|session|
 * details|hints` written into any report sink, so that the CLI and the HTTP
 * API of `gpuprof serve` print the same JSON from the same code (the ncu
 * CSV exports, which imitate ncu's own files, stay in cli/cmd_ncu.c).
 *
 * Depends on ncu/ (its public API) and report/. The report is not changed
 * in its contents, but ncu_lookup and ncu_expand_markup allocate lazily in
 * its arena: calls on one report must not run concurrently (the server
 * serializes them per file).
 */
#ifndef GP_VIEWS_VIEW_NCU_H
#define GP_VIEWS_VIEW_NCU_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/report.h"
#include "views/view_opt.h"

/* ncu/ncu.h is not included here: its second half has no include guard. */
struct ncu_report;

enum ncu_hint_sort {
	NCU_HINT_SORT_NONE,
	NCU_HINT_SORT_TYPE,
	NCU_HINT_SORT_SECTION,
	NCU_HINT_SORT_SPEEDUP
};

/* The options of the ncu views as given, before their checks (the option
 * declarations of view_ncu_decl.c store them here). */
struct view_ncu_args {
	const char *id, *kernel, *section, *units, *details, *metric, *sort, *nvdisasm;
};

/* The options of the ncu views (view_ncu_decl.c's check fills them). */
struct ncu_view_opts {
	const char *kernel, *section;
	long id;	 /* -1 = all */
	int sort;	 /* hints: enum ncu_hint_sort (0 = file order) */
	bool base_units; /* --print-units base (default auto, as ncu) */
	unsigned parts;	 /* --print-details: NCU_DETAILS_HEADER | _BODY (ncu.h) */
	regex_t re;
	bool has_re;
	/* body: also the result's metrics whose name matches this POSIX
	 * extended regex (--metric) */
	const char *metric;
	regex_t mre;
	bool has_mre;
	bool json; /* raw: the description column (the JSON sink's) */
	/* source: the nvdisasm to run (--nvdisasm, CLI only; NULL: the
	 * environment's GPUPROF_NVDISASM, else $PATH's) */
	const char *nvdisasm;
};

/* The options every `gpuprof ncu` verb takes (the CLI's walk, --help and
 * the man page; each view declares those its API query takes). */
extern const struct vo view_ncu_opts[];
extern const size_t view_ncu_nopts;
/* ncu's defaults: every result, every details part. */
void view_ncu_defaults(struct ncu_view_opts *o);
/* The values of the options as given in a (not the regexes), messages as
 * front f spells the options; 0 or -1 with msg. */
int view_ncu_values(const struct view_ncu_args *a, struct ncu_view_opts *o, enum vo_front f,
		    char *msg, size_t n);

/* Whether result i passes --id and --kernel. */
bool ncu_view_selected(const struct ncu_view_opts *o, const struct ncu_report *r, size_t i);

void ncu_view_list(struct ncu_report *r, const struct ncu_view_opts *o, struct report *rp);
/* Text: a row per metric of each launch (id, kernel, metric, unit, value as
 * ncu prints it, instances). json: tables that name each thing once:
 * launches (id, kernel), metrics (id of the launch, metric, unit, value as
 * a number in that unit or null, text as ncu prints it, instances) and
 * metric_descriptions (metric, description; by metric name). -1 when out
 * of memory. */
int ncu_view_raw(struct ncu_report *r, const struct ncu_view_opts *o, struct report *rp, bool json);
void ncu_view_session(struct ncu_report *r, struct report *rp);
/* -1 when out of memory */
int ncu_view_hints(struct ncu_report *r, const struct ncu_view_opts *o, struct report *rp);
void ncu_view_details(struct ncu_report *r, const struct ncu_view_opts *o, struct report *rp);
/* `ncu body`: the metrics each section's header, extra metrics and body
 * items declare, with full-precision values and chart instances
 * (view_ncu_body.c). */
void ncu_view_body(struct ncu_report *r, const struct ncu_view_opts *o, struct report *rp);
/* A body item kind (field number) by name: "bar", "line", "roofline"... */
const char *ncu_body_kind_name(uint32_t kind);
/* `ncu source` (view_ncu_source.c): the SASS of each selected kernel (run
 * through nvdisasm) beside its per-instruction counters. compute fills *res
 * (free it with ncu_view_source_free, also after a failure): ERR_FORMAT for
 * a malformed cubin; emit writes tables "kernels" and "source". */
struct err;
int ncu_view_source_compute(struct ncu_report *r, const struct ncu_view_opts *o, void **res,
			    struct err *e);
void ncu_view_source(const void *res, struct report *rp);
void ncu_view_source_free(void *res);

#endif
