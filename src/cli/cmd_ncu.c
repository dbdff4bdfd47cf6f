/* ncu: Nsight Compute reports (.ncu-rep) read natively: list, raw, session,
 * details and hints, with values as `ncu --import` prints them. */
#include <math.h>
#include <regex.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/load.h"
#include "ncu/ncu.h"
#include "views/view_ncu.h"

const char cmd_ncu_help[] =
    "Usage: gpuprof ncu VERB [options] REPORT\n"
    "\n"
    "Read an Nsight Compute report (.ncu-rep, also the old .nsight-cuprof-report)\n"
    "without NVIDIA software. Values equal what `ncu --import REPORT --csv`\n"
    "prints (auto-scaled units by default, as ncu). Verbs:\n"
    "\n"
    "  list      one row per profiled launch: ID, kernel, kernel type (GEMM,\n"
    "            Conv, Attention, Reduce, Softmax, Elementwise, Memory,\n"
    "            Communication or Other, guessed from the name), grid, block,\n"
    "            duration, SM and memory throughput, achieved occupancy,\n"
    "            registers/thread, number of rule messages (hints)\n"
    "  raw       every metric of every result. --format csv writes exactly the\n"
    "            table of `ncu --import R --page raw --csv [--print-units U]`\n"
    "            (11 identification columns, one column per metric sorted by\n"
    "            name, a units row, one row per result); table/json give one row\n"
    "            per (result, metric) with its unit\n"
    "  session   session page: command line, creation time, host and target\n"
    "            systems, versions, processes, device attributes\n"
    "  details   sections with their metrics and the rule results under them\n"
    "            (`ncu --page details --print-details all`); --format csv writes\n"
    "            ncu's 21-column details CSV\n"
    "  hints     every rule result message (INF/WRN/ERR/OPT) with its estimated\n"
    "            speedup\n"
    "  body      what each section declares it shows: its header, extra and\n"
    "            body-item (chart, table) metrics with full-precision values and\n"
    "            the instances of chart metrics (the viewer's charts)\n"
    "  source    the SASS of each kernel (its cubin, stored in the report,\n"
    "            disassembled by NVIDIA's nvdisasm: --nvdisasm PATH, else\n"
    "            $GPUPROF_NVDISASM, else PATH) beside its per-instruction\n"
    "            counters, one row per address, as `ncu --page source\n"
    "            --print-source sass` shows them; without nvdisasm the rows\n"
    "            are the counters' addresses and a note says how to get it;\n"
    "            each row's CUDA file and line (the cubin's line table), and\n"
    "            table cuda: one row per CUDA line with SASS (its text when\n"
    "            the report imported the source, its addresses, the sums of\n"
    "            their counters), as `--print-source cuda,sass`\n"
    "\n"
    "Options:\n";

const char cmd_ncu_help_tail[] =
    "\n"
    "Units are not stored in reports: they come from a built-in table (the\n"
    "metric naming of NCU); unknown metrics print an empty unit.\n"
    "\n"
    "Examples:\n"
    "  gpuprof ncu list profile.ncu-rep\n"
    "  gpuprof ncu raw --format csv profile.ncu-rep > raw.csv\n"
    "  gpuprof ncu details --id 0 --section SpeedOfLight profile.ncu-rep\n"
    "  gpuprof ncu hints --kernel 'gemm' profile.ncu-rep\n"
    "  gpuprof ncu source --id 0 --nvdisasm /usr/bin/nvdisasm profile.ncu-rep\n";

/* --- CSV in ncu's style: every field quoted, "" doubles a quote --- */

static void csv_field(FILE *f, const char *s, bool first)
{
	if (!first)
		fputc(',', f);
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_ident(FILE *f, const struct ncu_ident *id)
{
	const char *fl[11];
	ncu_ident_fields(id, fl);
	for (int i = 0; i < 11; i++)
		csv_field(f, fl[i], i == 0);
}

/* --- raw --- */

/* The unit of raw column `name` and the divisor of its values: the base
 * unit, or (auto) the unit scaled for the largest value of the column over
 * the selected results. */
static const char *raw_unit(struct ncu_report *r, const struct ncu_view_opts *o, const char *name,
			    double *div, char *buf, size_t n)
{
	const char *base = ncu_metric_unit(name);
	*div = 1;
	if (o->base_units)
		return base;
	double maxabs = 0;
	*div = 0; /* 0 = the column is all zero */
	for (size_t i = 0; i < r->nresults; i++) {
		if (!ncu_view_selected(o, r, i))
			continue;
		const struct ncu_metric *m = ncu_lookup(r, i, name);
		double v = m && m->value.type != NCU_V_STR ? fabs(ncu_value_num(&m->value)) : NAN;
		if (!isnan(v) && v > maxabs)
			maxabs = v;
	}
	const char *u = ncu_auto_unit(base, maxabs, div, buf, n);
	if (maxabs == 0)
		*div = 0;
	return u;
}

static int do_raw_csv(struct ncu_report *r, const struct ncu_view_opts *o, FILE *f)
{
	const char **cols;
	size_t n;
	if (ncu_raw_columns(r, SIZE_MAX, &cols, &n))
		return -1;
	double *div = calloc(n ? n : 1, sizeof *div);
	if (!div)
		return -1;
	char buf[512];
	for (int i = 0; i < 11; i++)
		csv_field(f, ncu_ident_titles[i], i == 0);
	for (size_t k = 0; k < n; k++)
		csv_field(f, cols[k], false);
	fputc('\n', f);
	for (int i = 0; i < 11; i++)
		csv_field(f, "", i == 0);
	for (size_t k = 0; k < n; k++)
		csv_field(f, raw_unit(r, o, cols[k], &div[k], buf, sizeof buf), false);
	fputc('\n', f);
	for (size_t i = 0; i < r->nresults; i++) {
		if (!ncu_view_selected(o, r, i))
			continue;
		struct ncu_ident id;
		ncu_result_ident(r, i, &id);
		csv_ident(f, &id);
		for (size_t k = 0; k < n; k++) {
			const struct ncu_metric *m = ncu_lookup(r, i, cols[k]);
			/* a metric stored with only an instance list: empty, in auto
			 * units "no data" unless it is a sampled time series */
			if (m && m->value.type == NCU_V_NONE && (o->base_units || m->kind == 1))
				csv_field(f, "", false);
			else if (o->base_units)
				csv_field(f, ncu_fmt_value(m ? &m->value : NULL, buf, sizeof buf),
					  false);
			else
				csv_field(f,
					  ncu_fmt_raw_auto(
					      m ? &m->value : NULL, ncu_metric_unit(cols[k]),
					      div[k] ? div[k] : 1, div[k] == 0, buf, sizeof buf),
					  false);
		}
		fputc('\n', f);
	}
	free(div);
	return 0;
}

/* --- details CSV: see the second half (do_details_csv) --- */
static int do_details_csv(struct ncu_report *r, const struct ncu_view_opts *o, FILE *f);

/* --- entry --- */

/* argv into o through the ncu views' declarations: the view named by the
 * verb into *d, the report's path into *path; 0 or app_usage's status. */
static int parse_opts(struct app *app, int argc, char **argv, struct view_opts *o,
		      const struct view_decl **d, const char **path)
{
	view_opts_init(o);
	const char *ops[3];
	int nops = 0;
	const char **all = calloc((size_t)argc + 1, sizeof *all);
	if (!all)
		return app_usage(app, "ncu", "out of memory");
	int rc = app_parse(app, "ncu", view_ncu_opts, view_ncu_nopts, o, argc, argv, all, &nops);
	for (int i = 0; i < nops && i < 3; i++)
		ops[i] = all[i];
	free(all);
	if (rc)
		return rc;
	if (nops > 2)
		return app_usage(app, "ncu", "one REPORT at a time ('%s' is extra)", ops[2]);
	const char *verb = nops > 0 ? ops[0] : NULL;
	*path = nops > 1 ? ops[1] : NULL;
	char msg[1024];
	/* a bad value is named before a missing or unknown verb */
	struct ncu_view_opts values = o->ncu;
	if (view_ncu_values(&o->ncu_args, &values, VO_CLI, msg, sizeof msg))
		return app_usage(app, "ncu", "%s", msg);
	if (!verb)
		return app_usage(
		    app, "ncu", "no VERB given (list, raw, session, details, hints, body, source)");
	if (!(*d = view_find_in(VIEW_FAMILY_NCU, verb))) {
		view_unknown(VIEW_FAMILY_NCU, verb, msg, sizeof msg);
		return app_usage(app, "ncu", "%s", msg);
	}
	if (!*path)
		return app_usage(app, "ncu", "no REPORT given");
	if ((*d)->check(*d, o, VO_CLI, msg, sizeof msg))
		return app_usage(app, "ncu", "%s", msg);
	o->ncu.json = app->format == REP_JSON || app->format == REP_SCHEMA;
	return 0;
}

/* The tables of an ncu verb, for app_write_tables. */
struct ncu_emit {
	struct view *v;
	const struct view_decl *d;
	struct ncu_report *r;
	const struct view_opts *o;
	bool csv; /* raw and details: their CSV is ncu's own */
};

static int emit_ncu(void *ctx, struct report *rp, FILE *out)
{
	struct ncu_emit *x = ctx;
	if (out && x->csv)
		return x->d->kind == VIEW_NCU_RAW ? do_raw_csv(x->r, &x->o->ncu, out)
						  : do_details_csv(x->r, &x->o->ncu, out);
	return app_emit_view(x->v, rp, out);
}

/* --table / -o DIR/ of view d of r: 0, or the exit status (printed). */
static int write_tables(struct app *app, const struct view_decl *d, struct ncu_report *r,
			const struct view_opts *o)
{
	struct err e = {0};
	struct ncu_emit x = {.d = d,
			     .r = r,
			     .o = o,
			     .csv = app->format == REP_CSV &&
				    (d->kind == VIEW_NCU_RAW || d->kind == VIEW_NCU_DETAILS)};
	if (view_compute_ncu(d, r, o, &x.v, &e))
		return app_fail(app, &e);
	int rc = app_write_tables(app, "ncu", emit_ncu, &x);
	view_free(x.v);
	return rc;
}

/* Writes view d of r to the open output; false when a write failed or the
 * view could not be computed (e then says why: a malformed cubin). */
static bool write_view(struct app *app, const struct view_decl *d, struct ncu_report *r,
		       const struct view_opts *o, struct err *e)
{
	bool csv = app->format == REP_CSV;
	if (csv && d->kind == VIEW_NCU_RAW)
		return do_raw_csv(r, &o->ncu, app->out) == 0;
	if (csv && d->kind == VIEW_NCU_DETAILS)
		return do_details_csv(r, &o->ncu, app->out) == 0;
	struct view *v;
	if (view_compute_ncu(d, r, o, &v, e))
		return false;
	struct report *rp = rep_open(app->out, app->format);
	if (rp)
		view_emit(v, rp);
	bool ok = rp && rep_close(rp) == 0 && !view_emit_failed(v);
	view_free(v);
	return ok;
}

int cmd_ncu(struct app *app, int argc, char **argv)
{
	/* diff takes two reports and the options of `gpuprof diff` */
	if (argc > 1 && !strcmp(argv[1], "diff"))
		return app_cmd_view(app, view_find_in(VIEW_FAMILY_NCU, "diff"), argc - 1, argv + 1);
	struct view_opts o;
	const struct view_decl *d = NULL;
	const char *path = NULL;
	int rc = parse_opts(app, argc, argv, &o, &d, &path);
	if (rc) {
		view_opts_release(&o);
		return rc;
	}
	struct err e = {0};
	struct input in = {0};
	struct ncu_report *r = NULL;
	if ((rc = app_load(app, path, INPUT_BIT(INPUT_NCU), &in)))
		goto out;
	r = in.ncu;
	in.ncu = NULL; /* ours now */
	if (app_tables_wanted(app)) {
		rc = write_tables(app, d, r, &o);
		goto out;
	}
	if ((rc = app_out_open(app, &e))) {
		rc = app_fail(app, &e);
		goto out;
	}
	struct err ve = {0};
	bool ok = write_view(app, d, r, &o, &ve);
	if ((rc = app_out_close(app, ok, &e)))
		rc = app_fail(app, &e);
	else if (!ok)
		rc = ve.code ? app_fail(app, &ve) : 2;
out:
	view_opts_release(&o);
	input_free(&in);
	ncu_free(r);
	return rc;
}

/* --- details --- */

static const char *const details_titles[10] = {
    "Section Name",	      "Body Item Label",  "Metric Name", "Metric Unit",
    "Metric Value",	      "Rule Name",	  "Rule Type",	 "Rule Description",
    "Estimated Speedup Type", "Estimated Speedup"};

struct det_ctx {
	FILE *f;
	const struct ncu_ident *id;
	bool label_col;
};

/* ncu's layout: metric rows stop after the value with one empty field;
 * rule rows leave the metric fields empty. */
static void det_csv_row(void *ctx, const struct ncu_detail_row *row)
{
	struct det_ctx *c = ctx;
	csv_ident(c->f, c->id);
	csv_field(c->f, row->section, false);
	if (c->label_col)
		csv_field(c->f, row->body_label, false);
	if (!row->rule) {
		csv_field(c->f, row->metric, false);
		csv_field(c->f, row->unit, false);
		csv_field(c->f, row->value, false);
		fputs(",\n", c->f);
		return;
	}
	for (int i = 0; i < 3; i++)
		csv_field(c->f, "", false);
	csv_field(c->f, row->rule, false);
	csv_field(c->f, row->rule_type, false);
	csv_field(c->f, row->rule_text, false);
	csv_field(c->f, row->speedup_type, false);
	csv_field(c->f, row->speedup, false);
	fputc('\n', c->f);
}

static int do_details_csv(struct ncu_report *r, const struct ncu_view_opts *o, FILE *f)
{
	struct ncu_details_opts dopts = {o->section, o->parts, !o->base_units};
	/* header-only output has no "Body Item Label" column (20 columns) */
	bool label_col = o->parts & NCU_DETAILS_BODY;
	for (int i = 0; i < 11; i++)
		csv_field(f, ncu_ident_titles[i], i == 0);
	for (int i = 0; i < 10; i++)
		if (i != 1 || label_col)
			csv_field(f, details_titles[i], false);
	fputc('\n', f);
	for (size_t i = 0; i < r->nresults; i++) {
		if (!ncu_view_selected(o, r, i))
			continue;
		struct ncu_ident id;
		ncu_result_ident(r, i, &id);
		struct det_ctx c = {.f = f, .id = &id, .label_col = label_col};
		if (ncu_details(r, i, &dopts, det_csv_row, &c))
			return -1;
	}
	return 0;
}
