/* view_ncu_decl: the Nsight Compute views of the registry (`gpuprof ncu
 * list|raw|session|details|hints|body|source`, GET /api/file/ID/ncu/VERB): their
 * option declarations, the checks that turn the options as given into
 * struct ncu_view_opts, and their compute (which keeps the report in the
 * view's results), emit (view_ncu.c's and view_ncu_body.c's tables) and
 * free. */
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncu/ncu.h"
#include "ncu/ncu_sass.h"
#include "views/view_int.h"

#define NCU_ARG(field) offsetof(struct view_opts, ncu_args.field)

/* Each option once; the verbs' tables below list those their query takes. */
#define OPT_ID                                                                                     \
	{                                                                                          \
		.lname = "id", .api = "id", .type = VO_STRING, .off = NCU_ARG(id), .metavar = "N", \
		.help = "only the result with ID N (0-based, file order)"                          \
	}
#define OPT_KERNEL                                                                                 \
	{                                                                                          \
		.lname = "kernel", .api = "kernel", .type = VO_STRING, .off = NCU_ARG(kernel),     \
		.metavar = "REGEX",                                                                \
		.help = "only results whose kernel name (function, demangled or\n"                 \
			"mangled) matches the POSIX extended REGEX"                                \
	}
#define OPT_SECTION                                                                                \
	{                                                                                          \
		.lname = "section", .api = "section", .type = VO_STRING, .off = NCU_ARG(section),  \
		.metavar = "NAME",                                                                 \
		.help = "details, hints, body: only the section with this\n"                       \
			"identifier or display name"                                               \
	}
#define OPT_UNITS                                                                                  \
	{                                                                                          \
		.lname = "print-units", .api = "print_units", .type = VO_STRING,                   \
		.off = NCU_ARG(units), .metavar = "U",                                             \
		.help = "raw, details: `auto` (default, as ncu: us, Mbyte/s, Ghz,\n"               \
			"sector/ms ...) or `base` (ns, byte/s, hz, sector/s ...)"                  \
	}
#define OPT_DETAILS                                                                                \
	{                                                                                          \
		.lname = "print-details", .api = "print_details", .type = VO_STRING,               \
		.off = NCU_ARG(details), .metavar = "P",                                           \
		.help = "details: `all` (default: header, labelled rule and\n"                     \
			"source metrics, body items; 21 CSV columns), `header`\n"                  \
			"(header tables only; 20 columns, ncu's default) or\n"                     \
			"`body` (body items only)"                                                 \
	}
#define OPT_METRIC                                                                                 \
	{                                                                                          \
		.lname = "metric", .api = "metric", .type = VO_STRING, .off = NCU_ARG(metric),     \
		.metavar = "REGEX",                                                                \
		.help = "body: also every metric of the result whose name matches\n"               \
			"the POSIX extended REGEX (type \"metric\", no section),\n"                \
			"each followed by its instances (x: e.g. a SASS address)"                  \
	}
#define OPT_SORT                                                                                   \
	{                                                                                          \
		.lname = "sort", .api = "sort", .type = VO_STRING, .off = NCU_ARG(sort),           \
		.metavar = "KEY",                                                                  \
		.help = "hints: order by `type` (ERR, WRN, OPT, INF), `section`\n"                 \
			"(ncu's section order) or `speedup` (estimated speedup,\n"                 \
			"highest first, none last); ties keep file order"                          \
	}

/* no API name: no request may name a program to run on the server */
#define OPT_NVDISASM                                                                               \
	{                                                                                          \
		.lname = "nvdisasm", .type = VO_STRING, .off = NCU_ARG(nvdisasm),                  \
		.metavar = "PATH",                                                                 \
		.help = "source: NVIDIA's disassembler (default: $GPUPROF_NVDISASM,\n"             \
			"else nvdisasm on PATH; without one the rows have no SASS text)"           \
	}

const struct vo view_ncu_opts[] = {OPT_ID,	OPT_KERNEL, OPT_SECTION, OPT_UNITS,
				   OPT_DETAILS, OPT_METRIC, OPT_SORT,	 OPT_NVDISASM};
const size_t view_ncu_nopts = sizeof view_ncu_opts / sizeof view_ncu_opts[0];

static const struct vo list_opts[] = {OPT_ID, OPT_KERNEL};
static const struct vo raw_opts[] = {OPT_ID, OPT_KERNEL, OPT_UNITS};
static const struct vo details_opts[] = {OPT_ID, OPT_KERNEL, OPT_SECTION, OPT_UNITS, OPT_DETAILS};
static const struct vo hints_opts[] = {OPT_ID, OPT_KERNEL, OPT_SECTION, OPT_SORT};
static const struct vo body_opts[] = {OPT_ID, OPT_KERNEL, OPT_SECTION, OPT_METRIC};
static const struct vo source_opts[] = {OPT_ID, OPT_KERNEL, OPT_NVDISASM};

void view_ncu_defaults(struct ncu_view_opts *o)
{
	memset(o, 0, sizeof *o);
	o->id = -1;
	o->parts = NCU_DETAILS_HEADER | NCU_DETAILS_BODY;
}

/* "NAME takes WHAT", with ", not 'TEXT'" on the command line. */
static int bad_choice(enum vo_front f, const char *lname, const char *what, const char *text,
		      char *msg, size_t n)
{
	char nm[VO_NAME_MAX];
	const char *name = vo_name_of(view_ncu_opts, view_ncu_nopts, lname, f, nm);
	if (f == VO_CLI)
		snprintf(msg, n, "%s takes %s, not '%s'", name, what, text);
	else
		snprintf(msg, n, "%s takes %s", name, what);
	return -1;
}

int view_ncu_values(const struct view_ncu_args *a, struct ncu_view_opts *o, enum vo_front f,
		    char *msg, size_t n)
{
	char nm[VO_NAME_MAX];
	if (a->id) {
		char *end;
		o->id = strtol(a->id, &end, 10);
		if (!*a->id || *end || o->id < 0)
			return snprintf(msg, n, "%s needs a number >= 0, not '%.*s'",
					vo_name_of(view_ncu_opts, view_ncu_nopts, "id", f, nm),
					f == VO_CLI ? INT_MAX : 40, a->id),
			       -1;
	}
	o->kernel = a->kernel;
	o->section = a->section;
	if (a->nvdisasm) { /* given: it must be there (no fallback) */
		char path[4096], why[600];
		if (ncu_nvdisasm_find(a->nvdisasm, path, sizeof path, why, sizeof why) ==
		    NCU_NVD_NONE)
			return snprintf(msg, n, "%s", why), -1;
		o->nvdisasm = a->nvdisasm;
	}
	o->metric = a->metric;
	if (a->units) {
		if (strcmp(a->units, "base") && strcmp(a->units, "auto"))
			return bad_choice(f, "print-units", "base or auto", a->units, msg, n);
		o->base_units = !strcmp(a->units, "base");
	}
	if (a->details) {
		const char *v = a->details;
		if (!strcmp(v, "header"))
			o->parts = NCU_DETAILS_HEADER;
		else if (!strcmp(v, "body"))
			o->parts = NCU_DETAILS_BODY;
		else if (!strcmp(v, "all"))
			o->parts = NCU_DETAILS_HEADER | NCU_DETAILS_BODY;
		else
			return bad_choice(f, "print-details", "header, body or all", v, msg, n);
	}
	if (a->sort) {
		const char *v = a->sort;
		o->sort = !strcmp(v, "type")	  ? NCU_HINT_SORT_TYPE
			  : !strcmp(v, "section") ? NCU_HINT_SORT_SECTION
			  : !strcmp(v, "speedup") ? NCU_HINT_SORT_SPEEDUP
						  : -1;
		if (o->sort < 0)
			return bad_choice(f, "sort", "type, section or speedup", v, msg, n);
	}
	return 0;
}

/* "NAME: invalid regular expression", with " 'TEXT'" on the command line. */
static int bad_regex(enum vo_front f, const char *lname, const char *text, char *msg, size_t n)
{
	char nm[VO_NAME_MAX];
	const char *name = vo_name_of(view_ncu_opts, view_ncu_nopts, lname, f, nm);
	if (f == VO_CLI)
		snprintf(msg, n, "%s: invalid regular expression '%s'", name, text);
	else
		snprintf(msg, n, "%s: invalid regular expression", name);
	return -1;
}

/* regcomp expands a repetition into copies of what it repeats before any
 * limit of its own applies: X+ holds X twice, X{n,m} m times, so nested or
 * stacked repetitions ("(a+++...)", "((a{99}){99}){99}") grow it
 * exponentially, to gigabytes for a 130-byte pattern; and its automaton
 * then merges state sets of every pair of parts, so 30,000 parts
 * ("g+*+++++++++++++z") already take 2 GB. Patterns whose expanded form
 * would exceed NCU_REGEX_PARTS parts are refused before regcomp. Small ones
 * can still be slow: optional parts nested deep and then repeated
 * ("a???...?+++++", "((((a)?)?)?...)+") take seconds per level of nesting
 * from 10 levels on (14 s for 20), so a repetition may enclose at most
 * NCU_REGEX_NEST others, and a repetition directly after another ("a*?",
 * "a+*", which POSIX leaves undefined) is refused. Back-references ("\1",
 * a GNU extension to extended expressions) make regexec backtrack
 * exponentially on a few hundred characters, a kernel name's length, and
 * are refused too. */
#define NCU_REGEX_PARTS 4096
#define NCU_REGEX_DEPTH 64
#define NCU_REGEX_NEST 4
#define NCU_STR_(x) #x
#define NCU_STR(x) NCU_STR_(x)

/* The end of the bracket expression opening at p ("[...]"), or NULL when
 * it does not close (regcomp then says the pattern is invalid). */
static const char *bracket_end(const char *p)
{
	p++;
	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	for (; *p && *p != ']'; p++)
		if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
			char close[3] = {p[1], ']', 0};
			const char *e = strstr(p + 2, close);
			if (!e)
				return NULL;
			p = e + 1;
		}
	return *p ? p : NULL;
}

/* The factor of the interval at p ("{n}", "{n,}", "{n,m}": the copies
 * regcomp makes, at least 1) with *len its length, or 0 when p does not
 * start one. */
static double interval(const char *p, size_t *len)
{
	const char *q = p + 1;
	double n = 0, m = -1;
	if (*q < '0' || *q > '9')
		return 0;
	for (; *q >= '0' && *q <= '9'; q++)
		n = n * 10 + (*q - '0') > 1e6 ? 1e6 : n * 10 + (*q - '0');
	if (*q == ',') {
		q++;
		m = *q >= '0' && *q <= '9' ? 0 : n + 1;
		for (; *q >= '0' && *q <= '9'; q++)
			m = m * 10 + (*q - '0') > 1e6 ? 1e6 : m * 10 + (*q - '0');
	}
	if (*q != '}')
		return 0;
	*len = (size_t)(q - p) + 1;
	double f = m > n ? m : n;
	return f < 1 ? 1 : f;
}

/* Why the extended regular expression p is refused (the words in the
 * message's parentheses), or NULL when it may be compiled. The parts are an
 * estimate of regcomp's tree: each atom one part, each group and repetition
 * one more, a repetition's operand copied by its factor; the nesting of a
 * part is the number of repetitions enclosing it. */
static const char *regex_refusal(const char *p)
{
	double tot[NCU_REGEX_DEPTH + 1] = {0}, last[NCU_REGEX_DEPTH + 1] = {0};
	int nest[NCU_REGEX_DEPTH + 1] = {0}, lnest[NCU_REGEX_DEPTH + 1] = {0};
	int d = 0;
	bool after_rep = false;
	for (; *p; p++) {
		size_t len = 1;
		double f = *p == '*' || *p == '?' ? 1
			   : *p == '+'		  ? 2
			   : *p == '{'		  ? interval(p, &len)
						  : 0;
		bool rep = f != 0;
		if (rep) { /* a repetition of the last atom or group */
			if (after_rep)
				return "a repetition directly after another";
			if (++lnest[d] > NCU_REGEX_NEST)
				return "repetitions nested more than " NCU_STR(
				    NCU_REGEX_NEST) " deep";
			nest[d] = lnest[d] > nest[d] ? lnest[d] : nest[d];
			tot[d] += last[d] * (f - 1) + 1;
			last[d] = last[d] * f + 1;
			p += len - 1;
		} else if (*p == '(') {
			if (++d > NCU_REGEX_DEPTH)
				return "groups nested more than " NCU_STR(NCU_REGEX_DEPTH) " deep";
			tot[d] = last[d] = 0;
			nest[d] = lnest[d] = 0;
		} else if (*p == ')' && d > 0) {
			double g = tot[d--] + 1;
			tot[d] += g;
			last[d] = g;
			lnest[d] = nest[d + 1];
			nest[d] = lnest[d] > nest[d] ? lnest[d] : nest[d];
		} else if (*p == '|') {
			tot[d] += 1;
			last[d] = 0;
			lnest[d] = 0;
		} else {
			if (*p == '\\' && p[1] >= '1' && p[1] <= '9')
				return "back-references such as \\1 take exponential time";
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '[' && !(p = bracket_end(p)))
				return NULL; /* regcomp says it is invalid */
			tot[d] += 1;
			last[d] = 1;
			lnest[d] = 0;
		}
		after_rep = rep;
		double sum = 0;
		for (int i = 0; i <= d; i++)
			sum += tot[i];
		if (sum > NCU_REGEX_PARTS)
			return "its repetitions expand past " NCU_STR(NCU_REGEX_PARTS) " parts";
	}
	return NULL;
}

/* "NAME: regular expression too complex (WHY)", with " 'TEXT'" on the
 * command line. */
static int complex_regex(enum vo_front f, const char *lname, const char *text, const char *why,
			 char *msg, size_t n)
{
	char nm[VO_NAME_MAX];
	const char *name = vo_name_of(view_ncu_opts, view_ncu_nopts, lname, f, nm);
	if (f == VO_CLI)
		snprintf(msg, n, "%s: regular expression too complex (%s) '%s'", name, why, text);
	else
		snprintf(msg, n, "%s: regular expression too complex (%s)", name, why);
	return -1;
}

/* The check of every ncu view: the values, then the regexes compiled
 * (view_opts_release frees them, also after a failure). */
static int ncu_check(const struct view_decl *d, struct view_opts *o, enum vo_front f, char *msg,
		     size_t n)
{
	(void)d;
	struct ncu_view_opts *no = &o->ncu;
	if (view_ncu_values(&o->ncu_args, no, f, msg, n))
		return -1;
	const char *why;
	if (no->kernel && (why = regex_refusal(no->kernel)))
		return complex_regex(f, "kernel", no->kernel, why, msg, n);
	if (no->metric && (why = regex_refusal(no->metric)))
		return complex_regex(f, "metric", no->metric, why, msg, n);
	if (no->kernel) {
		if (regcomp(&no->re, no->kernel, REG_EXTENDED | REG_NOSUB))
			return bad_regex(f, "kernel", no->kernel, msg, n);
		no->has_re = true;
	}
	if (no->metric) {
		if (regcomp(&no->mre, no->metric, REG_EXTENDED | REG_NOSUB))
			return bad_regex(f, "metric", no->metric, msg, n);
		no->has_mre = true;
	}
	return 0;
}

void view_opts_release(struct view_opts *o)
{
	if (o->ncu.has_re)
		regfree(&o->ncu.re);
	if (o->ncu.has_mre)
		regfree(&o->ncu.mre);
	o->ncu.has_re = o->ncu.has_mre = false;
}

/* The view's results (its priv): the report it reads, whose tables its
 * emit writes (they come from the report, nothing is computed before). */
struct ncu_res {
	struct ncu_report *r; /* the caller's */
};

static int ncu_compute(struct view *v, const struct view_source *src, struct err *e)
{
	struct ncu_res *res = view_results_new(v, sizeof *res, e);
	if (!res)
		return ERR_NOMEM;
	res->r = src->ncu;
	return 0;
}

static void ncu_res_free(struct view *v)
{
	free(v->priv);
}

static struct ncu_report *report_of(const struct view *v)
{
	const struct ncu_res *res = v->priv;
	return res->r;
}

static void emit_list(struct view *v, struct report *r)
{
	ncu_view_list(report_of(v), &v->o.ncu, r);
}

static void emit_raw(struct view *v, struct report *r)
{
	v->emit_failed = ncu_view_raw(report_of(v), &v->o.ncu, r, v->o.ncu.json) != 0;
}

static void emit_session(struct view *v, struct report *r)
{
	ncu_view_session(report_of(v), r);
}

static void emit_details(struct view *v, struct report *r)
{
	ncu_view_details(report_of(v), &v->o.ncu, r);
}

static void emit_hints(struct view *v, struct report *r)
{
	v->emit_failed = ncu_view_hints(report_of(v), &v->o.ncu, r) != 0;
}

static void emit_body(struct view *v, struct report *r)
{
	ncu_view_body(report_of(v), &v->o.ncu, r);
}

/* source: its results are view_ncu_source.c's */
static int source_compute(struct view *v, const struct view_source *src, struct err *e)
{
	return ncu_view_source_compute(src->ncu, &v->o.ncu, &v->priv, e);
}

static void source_free(struct view *v)
{
	ncu_view_source_free(v->priv);
}

static void emit_source(struct view *v, struct report *r)
{
	ncu_view_source(v->priv, r);
}

/* The registry rows (view.c lists them), in the order of `gpuprof ncu --help`. */
const struct view_decl view_ncu_list_decl = {
    .kind = VIEW_NCU_LIST,
    .family = VIEW_FAMILY_NCU,
    .name = "list",
    .summary = "one row per profiled launch: kernel, grid, block, duration, throughput",
    .opts = list_opts,
    .nopts = VIEW_NC(list_opts),
    .flags = VIEW_WHOLE_FILE,
    .check = ncu_check,
    .compute = ncu_compute,
    .emit = emit_list,
    .free = ncu_res_free,
};
const struct view_decl view_ncu_raw_decl = {
    .kind = VIEW_NCU_RAW,
    .family = VIEW_FAMILY_NCU,
    .name = "raw",
    .summary = "every metric of every result",
    .opts = raw_opts,
    .nopts = VIEW_NC(raw_opts),
    .flags = VIEW_WHOLE_FILE,
    .check = ncu_check,
    .compute = ncu_compute,
    .emit = emit_raw,
    .free = ncu_res_free,
};
const struct view_decl view_ncu_session_decl = {
    .kind = VIEW_NCU_SESSION,
    .family = VIEW_FAMILY_NCU,
    .name = "session",
    .summary = "the session page: command line, systems, versions, devices",
    .flags = VIEW_WHOLE_FILE,
    .check = ncu_check,
    .compute = ncu_compute,
    .emit = emit_session,
    .free = ncu_res_free,
};
const struct view_decl view_ncu_details_decl = {
    .kind = VIEW_NCU_DETAILS,
    .family = VIEW_FAMILY_NCU,
    .name = "details",
    .summary = "sections with their metrics and rule results",
    .opts = details_opts,
    .nopts = VIEW_NC(details_opts),
    .flags = VIEW_WHOLE_FILE,
    .check = ncu_check,
    .compute = ncu_compute,
    .emit = emit_details,
    .free = ncu_res_free,
};
const struct view_decl view_ncu_hints_decl = {
    .kind = VIEW_NCU_HINTS,
    .family = VIEW_FAMILY_NCU,
    .name = "hints",
    .summary = "every rule result message with its estimated speedup",
    .opts = hints_opts,
    .nopts = VIEW_NC(hints_opts),
    .flags = VIEW_WHOLE_FILE,
    .check = ncu_check,
    .compute = ncu_compute,
    .emit = emit_hints,
    .free = ncu_res_free,
};
const struct view_decl view_ncu_body_decl = {
    .kind = VIEW_NCU_BODY,
    .family = VIEW_FAMILY_NCU,
    .name = "body",
    .summary = "what each section shows: header, extra and body-item metrics",
    .opts = body_opts,
    .nopts = VIEW_NC(body_opts),
    .flags = VIEW_WHOLE_FILE,
    .check = ncu_check,
    .compute = ncu_compute,
    .emit = emit_body,
    .free = ncu_res_free,
};
const struct view_decl view_ncu_source_decl = {
    .kind = VIEW_NCU_SOURCE,
    .family = VIEW_FAMILY_NCU,
    .name = "source",
    .summary = "SASS (via nvdisasm) beside the per-instruction counters",
    .opts = source_opts,
    .nopts = VIEW_NC(source_opts),
    .flags = VIEW_WHOLE_FILE,
    .check = ncu_check,
    .compute = source_compute,
    .emit = emit_source,
    .free = source_free,
};
