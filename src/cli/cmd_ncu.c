/* ncu: Nsight Compute reports (.ncu-rep) read natively: list, raw, session,
 * details and hints, with values as `ncu --import` prints them. */
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "ncu/ncu.h"

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
	"\n"
	"Options:\n"
	"  --id N          only the result with ID N (0-based, file order)\n"
	"  --kernel REGEX  only results whose kernel name (function, demangled or\n"
	"                  mangled) matches the POSIX extended REGEX\n"
	"  --section NAME  details, hints: only the section with this identifier or\n"
	"                  display name\n"
	"  --print-units U raw, details: `auto` (default, as ncu: us, Mbyte/s, Ghz,\n"
	"                  sector/ms ...) or `base` (ns, byte/s, hz, sector/s ...)\n"
	"  --print-details P  details: `all` (default: header, labelled rule and\n"
	"                  source metrics, body items; 21 CSV columns), `header`\n"
	"                  (header tables only; 20 columns, ncu's default) or\n"
	"                  `body` (body items only)\n"
	"  --sort KEY      hints: order by `type` (ERR, WRN, OPT, INF), `section`\n"
	"                  (ncu's section order) or `speedup` (estimated speedup,\n"
	"                  highest first, none last); ties keep file order\n"
	"\n"
	"Units are not stored in reports: they come from a built-in table (the\n"
	"metric naming of NCU); unknown metrics print an empty unit.\n"
	"\n"
	"Examples:\n"
	"  gpuprof ncu list profile.ncu-rep\n"
	"  gpuprof ncu raw --format csv profile.ncu-rep > raw.csv\n"
	"  gpuprof ncu details --id 0 --section SpeedOfLight profile.ncu-rep\n"
	"  gpuprof ncu hints --kernel 'gemm' profile.ncu-rep\n";

struct ncu_opts {
	const char *verb, *path, *kernel, *section;
	long id; /* -1 = all */
	int sort; /* hints: enum hint_sort (0 = file order) */
	bool base_units;   /* --print-units base (default auto, as ncu) */
	unsigned parts;	   /* --print-details: NCU_DETAILS_HEADER | _BODY */
	regex_t re;
	bool has_re;
};

static bool selected(const struct ncu_opts *o, const struct ncu_report *r, size_t i)
{
	if (o->id >= 0 && (size_t)o->id != i)
		return false;
	if (!o->has_re)
		return true;
	const struct ncu_result *res = &r->results[i];
	return !regexec(&o->re, res->function, 0, NULL, 0) ||
	       !regexec(&o->re, res->demangled, 0, NULL, 0) ||
	       !regexec(&o->re, res->mangled, 0, NULL, 0);
}

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

/* --- list --- */

static struct rep_val num_or_null(const struct ncu_metric *m)
{
	if (!m || ncu_value_is_na(&m->value) || m->value.type == NCU_V_STR)
		return rep_null();
	return rep_f(ncu_value_num(&m->value));
}

static const struct rep_col list_cols[] = {
	{"id", "ID", REP_INT},
	{"kernel", "Kernel", REP_STR},
	{"type", "Type", REP_STR},
	{"grid", "Grid", REP_STR},
	{"block", "Block", REP_STR},
	{"dur_ns", "Duration", REP_DUR_NS},
	{"sm_throughput_pct", "SM %", REP_PCT},
	{"memory_throughput_pct", "Memory %", REP_PCT},
	{"achieved_occupancy_pct", "Occupancy %", REP_PCT},
	{"registers_per_thread", "Regs", REP_INT},
	{"hints", "Hints", REP_INT},
};

static void do_list(struct ncu_report *r, const struct ncu_opts *o, struct report *rp)
{
	rep_table_begin(rp, "kernels", "Profiled kernels", list_cols,
			(int)(sizeof list_cols / sizeof list_cols[0]));
	for (size_t i = 0; i < r->nresults; i++) {
		if (!selected(o, r, i))
			continue;
		const struct ncu_result *res = &r->results[i];
		struct ncu_ident id;
		ncu_result_ident(r, i, &id);
		const struct ncu_metric *dur = ncu_lookup(r, i, "gpu__time_duration.sum");
		const struct ncu_metric *regs = ncu_lookup(r, i, "launch__registers_per_thread");
		int64_t hints = 0;
		for (size_t k = 0; k < res->nrules; k++)
			hints += (int64_t)res->rules[k].nmsgs;
		struct rep_val v[] = {
			rep_i((int64_t)i),
			rep_s(res->function[0] ? res->function : ncu_kernel_name(res)),
			rep_s(ncu_ktype_name(ncu_kernel_type(res))),
			rep_s(id.grid),
			rep_s(id.block),
			dur && !ncu_value_is_na(&dur->value)
				? rep_i((int64_t)llround(ncu_value_num(&dur->value)))
				: rep_null(),
			num_or_null(ncu_lookup(r, i, "sm__throughput.avg.pct_of_peak_sustained_elapsed")),
			num_or_null(ncu_lookup(r, i, "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed")),
			num_or_null(ncu_lookup(r, i, "sm__warps_active.avg.pct_of_peak_sustained_active")),
			regs && !ncu_value_is_na(&regs->value)
				? rep_i((int64_t)llround(ncu_value_num(&regs->value)))
				: rep_null(),
			rep_i(hints),
		};
		rep_row(rp, v);
	}
	rep_table_end(rp);
}

/* --- raw --- */

/* The unit of raw column `name` and the divisor of its values: the base
 * unit, or (auto) the unit scaled for the largest value of the column over
 * the selected results. */
static const char *raw_unit(struct ncu_report *r, const struct ncu_opts *o, const char *name,
			    double *div, char *buf, size_t n)
{
	const char *base = ncu_metric_unit(name);
	*div = 1;
	if (o->base_units)
		return base;
	double maxabs = 0;
	*div = 0; /* 0 = the column is all zero */
	for (size_t i = 0; i < r->nresults; i++) {
		if (!selected(o, r, i))
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

static int do_raw_csv(struct ncu_report *r, const struct ncu_opts *o, FILE *f)
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
		if (!selected(o, r, i))
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
				csv_field(f, ncu_fmt_value(m ? &m->value : NULL, buf, sizeof buf), false);
			else
				csv_field(f,
					  ncu_fmt_raw_auto(m ? &m->value : NULL, ncu_metric_unit(cols[k]),
							   div[k] ? div[k] : 1, div[k] == 0, buf,
							   sizeof buf),
					  false);
		}
		fputc('\n', f);
	}
	free(div);
	return 0;
}

static const struct rep_col raw_cols[] = {
	{"id", "ID", REP_INT},	      {"kernel", "Kernel", REP_STR},
	{"metric", "Metric", REP_STR}, {"unit", "Unit", REP_STR},
	{"value", "Value", REP_STR},  {"instances", "Instances", REP_INT},
	{"description", "Description", REP_STR},
};

/* json adds the description column (tooltips); table/csv stay compact */
static void do_raw(struct ncu_report *r, const struct ncu_opts *o, struct report *rp, bool json)
{
	char buf[512], ubuf[64];
	rep_table_begin(rp, "metrics", "Metrics", raw_cols, json ? 7 : 6);
	for (size_t i = 0; i < r->nresults; i++) {
		if (!selected(o, r, i))
			continue;
		const struct ncu_result *res = &r->results[i];
		const char **cols;
		size_t n;
		if (ncu_raw_columns(r, i, &cols, &n))
			continue;
		for (size_t k = 0; k < n; k++) {
			const struct ncu_metric *m = ncu_lookup(r, i, cols[k]);
			const char *base = ncu_metric_unit(cols[k]);
			const char *unit = base;
			double div = 1;
			if (!o->base_units && base[0] && m->value.type != NCU_V_STR)
				unit = ncu_auto_unit(base, fabs(ncu_value_num(&m->value)), &div, ubuf,
						     sizeof ubuf);
			struct rep_val v[] = {rep_i((int64_t)i), rep_s(ncu_kernel_name(res)),
					      rep_s(cols[k]), rep_s(unit),
					      rep_s(ncu_fmt_detail_auto(&m->value, div, buf, sizeof buf)),
					      rep_i((int64_t)m->ninst),
					      json ? rep_s(ncu_metric_description(cols[k])) : rep_null()};
			rep_row(rp, v);
		}
	}
	rep_table_end(rp);
}

/* --- session --- */

static void kv_str(struct report *rp, const char *key, const char *title, const char *s)
{
	rep_kv(rp, key, title, REP_STR, s && s[0] ? rep_s(s) : rep_null());
}

static void sysinfo_kv(struct report *rp, const struct ncu_sysinfo *si, const char *who,
		       char *buf, size_t n)
{
	char key[64], title[64];
#define KV(k, t, v)                                                  \
	do {                                                         \
		snprintf(key, sizeof key, "%s_%s", who, k);          \
		snprintf(title, sizeof title, "%s %s", who[0] == 'h' ? "Host" : "Target", t); \
		kv_str(rp, key, title, v);                           \
	} while (0)
	KV("name", "Name", si->computer);
	if (who[0] == 't' && si->naddresses) {
		size_t k = 0;
		buf[0] = 0;
		for (size_t i = 0; i < si->naddresses && k < n; i++)
			k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", si->addresses[i]);
		KV("ip_addresses", "IP Addresses", buf);
	}
	char os[512];
	snprintf(os, sizeof os, "%s%s%s", si->os ? si->os : "", si->build ? " - " : "",
		 si->build ? si->build : "");
	KV("os", "OS", os);
	KV("architecture", "Architecture", si->arch);
	KV("processor", "Processor", si->processor);
#undef KV
}

static const struct rep_col proc_cols[] = {
	{"pid", "Process Id", REP_INT},
	{"name", "Process Name", REP_STR},
	{"host", "Host Name", REP_STR},
};

static const struct rep_col attr_cols[] = {
	{"device", "Device", REP_INT},
	{"attribute", "Device Attribute", REP_STR},
	{"value", "Value", REP_STR},
};

static void do_session(struct ncu_report *r, struct report *rp)
{
	const struct ncu_session *s = &r->session;
	char buf[4096];
	rep_kv_begin(rp, "launch_settings", "Launch Settings");
	kv_str(rp, "command_line", "Profiler Command Line", s->command_line);
	rep_kv_end(rp);
	rep_kv_begin(rp, "session_info", "Session Info");
	time_t t = (time_t)s->creation_time;
	struct tm tm;
	if (s->creation_time && gmtime_r(&t, &tm)) {
		strftime(buf, sizeof buf, "%Y-%b-%d %H:%M:%S", &tm);
		kv_str(rp, "created_utc", "Created (UTC)", buf);
	} else {
		kv_str(rp, "created_utc", "Created (UTC)", NULL);
	}
	rep_kv(rp, "created_unix_s", "Created (Unix seconds)", REP_INT,
	       s->creation_time ? rep_i((int64_t)s->creation_time) : rep_null());
	if (s->has_host)
		sysinfo_kv(rp, &s->host, "host", buf, sizeof buf);
	if (s->has_target)
		sysinfo_kv(rp, &s->target, "target", buf, sizeof buf);
	for (size_t i = 0; i < s->nversions; i++) {
		char key[128];
		size_t k = 0;
		for (const char *p = s->versions[i].provider; *p && k + 1 < sizeof key; p++)
			key[k++] = (*p >= 'A' && *p <= 'Z') ? (char)(*p - 'A' + 'a')
				   : (*p == ' ')		? '_'
							: *p;
		key[k] = 0;
		kv_str(rp, key, s->versions[i].provider, s->versions[i].version);
	}
	rep_kv(rp, "report_file_version", "Report file version", REP_INT,
	       rep_i(r->file_version));
	rep_kv(rp, "results", "Results", REP_INT, rep_i((int64_t)r->nresults));
	rep_kv_end(rp);
	rep_table_begin(rp, "processes", "Processes", proc_cols, 3);
	for (size_t i = 0; i < r->nprocesses; i++) {
		struct rep_val v[] = {rep_i(r->processes[i].pid), rep_s(r->processes[i].name),
				      rep_s(r->processes[i].host)};
		rep_row(rp, v);
	}
	rep_table_end(rp);
	rep_table_begin(rp, "device_attributes", "Device Attributes", attr_cols, 3);
	for (size_t d = 0; d < s->ndevices; d++) {
		const struct ncu_device *dev = &s->devices[d];
		for (size_t k = 0; k < dev->nattrs; k++) {
			const char *nm = dev->attrs[k].name;
			if (!strncmp(nm, "device__attribute_", 18))
				nm += 18;
			char *val = ncu_fmt_value(&dev->attrs[k].value, buf, sizeof buf);
			/* the session page prints integers without separators */
			if (dev->attrs[k].value.type == NCU_V_U64 || dev->attrs[k].value.type == NCU_V_U32)
				snprintf(buf, sizeof buf, "%llu", (unsigned long long)dev->attrs[k].value.u);
			struct rep_val v[] = {rep_i(dev->id), rep_s(nm), rep_s(val)};
			rep_row(rp, v);
		}
	}
	rep_table_end(rp);
}

/* --- hints --- */

static const struct rep_col hint_cols[] = {
	{"id", "ID", REP_INT},
	{"kernel", "Kernel", REP_STR},
	{"section", "Section", REP_STR},
	{"rule", "Rule", REP_STR},
	{"type", "Type", REP_STR},
	{"title", "Title", REP_STR},
	{"speedup_type", "Speedup Type", REP_STR},
	{"speedup_pct", "Est. Speedup %", REP_PCT},
	{"message", "Message", REP_STR},
};

static bool section_match(const struct ncu_result *res, const char *want, const char *sec_id)
{
	if (!want)
		return true;
	if (!strcmp(want, sec_id))
		return true;
	for (size_t i = 0; i < res->nsections; i++)
		if (!strcmp(res->sections[i].id, sec_id) && !strcmp(res->sections[i].name, want))
			return true;
	return false;
}

/* One hint row, for sorting (--sort type|section|speedup). */
struct hint_ref {
	size_t res, seq;
	const struct ncu_rule *rule;
	const struct ncu_rule_msg *msg;
	uint32_t sec_order;
	const char *sec_name;
	int sort; /* enum hint_sort */
};

enum hint_sort { HINT_SORT_NONE, HINT_SORT_TYPE, HINT_SORT_SECTION, HINT_SORT_SPEEDUP };

/* Severity rank of a message type: ERR, WRN, OPT, INF, then the rest. */
static int type_rank(uint32_t type)
{
	switch (type) {
	case NCU_MSG_ERR: return 0;
	case NCU_MSG_WRN: return 1;
	case NCU_MSG_OPT: return 2;
	case NCU_MSG_INF: return 3;
	default: return 4;
	}
}

static int cmp_hint(const void *a, const void *b)
{
	const struct hint_ref *x = a, *y = b;
	if (x->sort == HINT_SORT_TYPE && type_rank(x->msg->type) != type_rank(y->msg->type))
		return type_rank(x->msg->type) - type_rank(y->msg->type);
	if (x->sort == HINT_SORT_SECTION) {
		if (x->sec_order != y->sec_order)
			return x->sec_order < y->sec_order ? -1 : 1;
		int c = strcmp(x->sec_name, y->sec_name);
		if (c)
			return c;
	}
	if (x->sort == HINT_SORT_SPEEDUP) {
		/* highest estimated speedup first, messages without one last */
		double sx = x->msg->speedup_type ? x->msg->speedup_pct : -INFINITY;
		double sy = y->msg->speedup_type ? y->msg->speedup_pct : -INFINITY;
		if (sx != sy)
			return sx > sy ? -1 : 1;
	}
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void section_key(const struct ncu_result *res, const char *sec_id, struct hint_ref *h)
{
	h->sec_order = UINT32_MAX;
	h->sec_name = sec_id;
	for (size_t i = 0; i < res->nsections; i++)
		if (!strcmp(res->sections[i].id, sec_id)) {
			h->sec_order = res->sections[i].order;
			h->sec_name = res->sections[i].name;
			return;
		}
}

static int do_hints(struct ncu_report *r, const struct ncu_opts *o, struct report *rp)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nresults; i++)
		for (size_t k = 0; k < r->results[i].nrules; k++)
			n += r->results[i].rules[k].nmsgs;
	struct hint_ref *v = calloc(n ? n : 1, sizeof *v);
	if (!v)
		return -1;
	size_t m = 0;
	for (size_t i = 0; i < r->nresults; i++) {
		if (!selected(o, r, i))
			continue;
		const struct ncu_result *res = &r->results[i];
		for (size_t k = 0; k < res->nrules; k++) {
			const struct ncu_rule *ru = &res->rules[k];
			if (!section_match(res, o->section, ru->section_id))
				continue;
			for (size_t j = 0; j < ru->nmsgs; j++) {
				struct hint_ref *h = &v[m];
				*h = (struct hint_ref){.res = i, .seq = m, .rule = ru,
						       .msg = &ru->msgs[j], .sort = o->sort};
				section_key(res, ru->section_id, h);
				m++;
			}
		}
	}
	qsort(v, m, sizeof *v, cmp_hint);
	rep_table_begin(rp, "hints", "Rule results", hint_cols, 9);
	for (size_t k = 0; k < m; k++) {
		const struct ncu_result *res = &r->results[v[k].res];
		const struct ncu_rule_msg *msg = v[k].msg;
		const char *st = msg->speedup_type == 1	  ? "local"
				 : msg->speedup_type == 2 ? "global"
							  : NULL;
		struct rep_val row[] = {
			rep_i((int64_t)v[k].res),
			rep_s(res->function[0] ? res->function : ncu_kernel_name(res)),
			rep_s(v[k].rule->section_id),
			rep_s(v[k].rule->id),
			rep_s(ncu_msg_type_name(msg->type)),
			msg->title[0] ? rep_s(msg->title) : rep_null(),
			rep_s(st),
			st ? rep_f(msg->speedup_pct) : rep_null(),
			rep_s(ncu_expand_markup(r, msg->text)),
		};
		rep_row(rp, row);
	}
	rep_table_end(rp);
	free(v);
	return 0;
}

/* --- details: see the second half (do_details) --- */
static int do_details_csv(struct ncu_report *r, const struct ncu_opts *o, FILE *f);
static void do_details(struct ncu_report *r, const struct ncu_opts *o, struct report *rp);

/* --- entry --- */

static int parse_opts(struct app *app, int argc, char **argv, struct ncu_opts *o)
{
	memset(o, 0, sizeof *o);
	o->id = -1;
	o->parts = NCU_DETAILS_HEADER | NCU_DETAILS_BODY;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--id") || !strcmp(a, "--kernel") || !strcmp(a, "--section")) {
			if (i + 1 >= argc)
				return app_usage(app, "ncu", "option %s needs a value", a);
			const char *v = argv[++i];
			if (a[2] == 'i') {
				char *end;
				o->id = strtol(v, &end, 10);
				if (!*v || *end || o->id < 0)
					return app_usage(app, "ncu", "--id needs a number >= 0, not '%s'", v);
			} else if (a[2] == 'k') {
				o->kernel = v;
			} else {
				o->section = v;
			}
		} else if (!strcmp(a, "--print-units") || !strcmp(a, "--print-details")) {
			if (i + 1 >= argc)
				return app_usage(app, "ncu", "option %s needs a value", a);
			const char *v = argv[++i];
			if (a[8] == 'u') {
				if (strcmp(v, "base") && strcmp(v, "auto"))
					return app_usage(app, "ncu",
							 "--print-units takes base or auto, not '%s'", v);
				o->base_units = !strcmp(v, "base");
			} else if (!strcmp(v, "header")) {
				o->parts = NCU_DETAILS_HEADER;
			} else if (!strcmp(v, "body")) {
				o->parts = NCU_DETAILS_BODY;
			} else if (!strcmp(v, "all")) {
				o->parts = NCU_DETAILS_HEADER | NCU_DETAILS_BODY;
			} else {
				return app_usage(app, "ncu",
						 "--print-details takes header, body or all, not '%s'", v);
			}
		} else if (!strcmp(a, "--sort")) {
			if (i + 1 >= argc)
				return app_usage(app, "ncu", "option %s needs a value", a);
			const char *v = argv[++i];
			o->sort = !strcmp(v, "type")	    ? 1
				  : !strcmp(v, "section") ? 2
				  : !strcmp(v, "speedup") ? 3
							  : -1;
			if (o->sort < 0)
				return app_usage(app, "ncu",
						 "--sort takes type, section or speedup, not '%s'", v);
		} else if (!strcmp(a, "--")) {
			continue;
		} else if (a[0] == '-' && a[1]) {
			return app_usage(app, "ncu", "unknown option '%s'", a);
		} else if (!o->verb) {
			o->verb = a;
		} else if (!o->path) {
			o->path = a;
		} else {
			return app_usage(app, "ncu", "one REPORT at a time ('%s' is extra)", a);
		}
	}
	if (!o->verb)
		return app_usage(app, "ncu", "no VERB given (list, raw, session, details, hints)");
	static const char *const verbs[] = {"list", "raw", "session", "details", "hints"};
	bool ok = false;
	for (size_t i = 0; i < 5; i++)
		ok |= !strcmp(o->verb, verbs[i]);
	if (!ok)
		return app_usage(app, "ncu", "unknown verb '%s' (list, raw, session, details, hints)",
				 o->verb);
	if (!o->path)
		return app_usage(app, "ncu", "no REPORT given");
	if (o->kernel) {
		if (regcomp(&o->re, o->kernel, REG_EXTENDED | REG_NOSUB))
			return app_usage(app, "ncu", "--kernel: invalid regular expression '%s'",
					 o->kernel);
		o->has_re = true;
	}
	return 0;
}

int cmd_ncu(struct app *app, int argc, char **argv)
{
	struct ncu_opts o;
	int rc = parse_opts(app, argc, argv, &o);
	if (rc)
		return rc;
	struct err e = {0};
	struct ncu_report *r = NULL;
	if ((rc = ncu_load(&r, o.path, &e)) || (rc = app_out_open(app, &e))) {
		rc = app_fail(app, &e);
		goto out;
	}
	bool ok = true;
	bool csv = app->format == REP_CSV;
	if (csv && !strcmp(o.verb, "raw")) {
		ok = do_raw_csv(r, &o, app->out) == 0;
	} else if (csv && !strcmp(o.verb, "details")) {
		ok = do_details_csv(r, &o, app->out) == 0;
	} else {
		struct report *rp = rep_open(app->out, app->format);
		if (!strcmp(o.verb, "list"))
			do_list(r, &o, rp);
		else if (!strcmp(o.verb, "raw"))
			do_raw(r, &o, rp, app->format == REP_JSON);
		else if (!strcmp(o.verb, "session"))
			do_session(r, rp);
		else if (!strcmp(o.verb, "details"))
			do_details(r, &o, rp);
		else
			ok = do_hints(r, &o, rp) == 0;
		ok = rp && rep_close(rp) == 0 && ok;
	}
	if ((rc = app_out_close(app, ok, &e)))
		rc = app_fail(app, &e);
	else if (!ok)
		rc = 2;
out:
	if (o.has_re)
		regfree(&o.re);
	ncu_free(r);
	return rc;
}

/* --- details --- */

static const char *const details_titles[10] = {"Section Name", "Body Item Label", "Metric Name",
					       "Metric Unit", "Metric Value", "Rule Name",
					       "Rule Type", "Rule Description",
					       "Estimated Speedup Type", "Estimated Speedup"};

struct det_ctx {
	FILE *f;
	struct report *rp;
	const struct ncu_ident *id;
	size_t idx;
	const char *kernel;
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

static int do_details_csv(struct ncu_report *r, const struct ncu_opts *o, FILE *f)
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
		if (!selected(o, r, i))
			continue;
		struct ncu_ident id;
		ncu_result_ident(r, i, &id);
		struct det_ctx c = {.f = f, .id = &id, .label_col = label_col};
		if (ncu_details(r, i, &dopts, det_csv_row, &c))
			return -1;
	}
	return 0;
}

static const struct rep_col det_cols[] = {
	{"id", "ID", REP_INT},		    {"section", "Section", REP_STR},
	{"item", "Item", REP_STR},	    {"metric", "Metric", REP_STR},
	{"unit", "Unit", REP_STR},	    {"value", "Value", REP_STR},
	{"rule", "Rule", REP_STR},	    {"type", "Type", REP_STR},
	{"speedup_type", "Speedup", REP_STR}, {"speedup_pct", "Est. %", REP_STR},
	{"message", "Message", REP_STR},
};

static struct rep_val s_or_null(const char *s)
{
	return s && s[0] ? rep_s(s) : rep_null();
}

static void det_rep_row(void *ctx, const struct ncu_detail_row *row)
{
	struct det_ctx *c = ctx;
	struct rep_val v[] = {rep_i((int64_t)c->idx), s_or_null(row->section),
			      s_or_null(row->body_label), s_or_null(row->metric),
			      s_or_null(row->unit), s_or_null(row->value),
			      s_or_null(row->rule), s_or_null(row->rule_type),
			      s_or_null(row->speedup_type), s_or_null(row->speedup),
			      s_or_null(row->rule_text)};
	rep_row(c->rp, v);
}

static void do_details(struct ncu_report *r, const struct ncu_opts *o, struct report *rp)
{
	struct ncu_details_opts dopts = {o->section, o->parts, !o->base_units};
	rep_table_begin(rp, "details", "Details", det_cols,
			(int)(sizeof det_cols / sizeof det_cols[0]));
	for (size_t i = 0; i < r->nresults; i++) {
		if (!selected(o, r, i))
			continue;
		struct det_ctx c = {.rp = rp, .idx = i};
		ncu_details(r, i, &dopts, det_rep_row, &c);
	}
	rep_table_end(rp);
}
