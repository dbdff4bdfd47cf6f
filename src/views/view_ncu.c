/* view_ncu: the Nsight Compute tables written into a report sink (see
 * view_ncu.h); moved here from cli/cmd_ncu.c unchanged. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/sort.h"
#include "ncu/ncu.h"
#include "views/view_ncu.h"

bool ncu_view_selected(const struct ncu_view_opts *o, const struct ncu_report *r, size_t i)
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

/* --- list --- */

static struct rep_val num_or_null(const struct ncu_metric *m)
{
	if (!m || ncu_value_is_na(&m->value) || m->value.type == NCU_V_STR)
		return rep_null();
	return rep_f(ncu_value_num(&m->value));
}

/* An integer column: null unless the value is a number an int64 holds
 * (text, NaN or a value past 2^62 in a hostile report is no count). */
static struct rep_val int_or_null(const struct ncu_metric *m)
{
	double d = m && !ncu_value_is_na(&m->value) ? ncu_value_num(&m->value) : NAN;
	return d >= -4611686018427387904.0 && d <= 4611686018427387904.0
		   ? rep_i((int64_t)llround(d))
		   : rep_null();
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

void ncu_view_list(struct ncu_report *r, const struct ncu_view_opts *o, struct report *rp)
{
	rep_table_begin(rp, "kernels", "Profiled kernels", list_cols,
			(int)(sizeof list_cols / sizeof list_cols[0]));
	for (size_t i = 0; i < r->nresults; i++) {
		if (!ncu_view_selected(o, r, i))
			continue;
		const struct ncu_result *res = &r->results[i];
		struct ncu_ident id;
		ncu_result_ident(r, i, &id);
		const struct ncu_metric *dur = ncu_lookup_column(r, i, "gpu__time_duration.sum");
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
		    int_or_null(dur),
		    num_or_null(ncu_lookup_column(
			r, i, "sm__throughput.avg.pct_of_peak_sustained_elapsed")),
		    num_or_null(ncu_lookup_column(
			r, i, "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed")),
		    num_or_null(ncu_lookup_column(
			r, i, "sm__warps_active.avg.pct_of_peak_sustained_active")),
		    int_or_null(regs),
		    rep_i(hints),
		};
		rep_row(rp, v);
	}
	rep_table_end(rp);
}

static const struct rep_col raw_cols[] = {
    {"id", "ID", REP_INT},     {"kernel", "Kernel", REP_STR}, {"metric", "Metric", REP_STR},
    {"unit", "Unit", REP_STR}, {"value", "Value", REP_STR},   {"instances", "Instances", REP_INT},
};

static const struct rep_col launch_cols[] = {
    {"id", "ID", REP_INT},
    {"kernel", "Kernel", REP_STR},
};

static const struct rep_col raw_json_cols[] = {
    {"id", "Launch", REP_INT},
    {"metric", "Metric", REP_STR},
    {"unit", "Unit", REP_STR},
    {"value", "Value", REP_FLOAT},
    {"text", "As ncu prints it", REP_STR},
    {"instances", "Instances", REP_INT},
};

static const struct rep_col desc_cols[] = {
    {"metric", "Metric", REP_STR},
    {"description", "Description", REP_STR},
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The metric_descriptions table: each metric of the rows once, by name. */
static int raw_descriptions(struct report *rp, const char **names, size_t n)
{
	gp_qsort(names, n, sizeof *names, cmp_name);
	rep_table_begin(rp, "metric_descriptions", "Metric descriptions", desc_cols, 2);
	for (size_t i = 0; i < n; i++) {
		if (i && !strcmp(names[i], names[i - 1]))
			continue;
		char buf[512];
		const char *d = ncu_metric_description(names[i], buf, sizeof buf);
		struct rep_val v[] = {rep_s(names[i]), d && d[0] ? rep_s(d) : rep_null()};
		rep_row(rp, v);
	}
	return rep_table_end(rp);
}

int ncu_view_raw(struct ncu_report *r, const struct ncu_view_opts *o, struct report *rp, bool json)
{
	char buf[512], ubuf[64];
	const char **names = NULL; /* json: the metric of every row */
	size_t nnames = 0, cap = 0;
	if (json) {
		rep_table_begin(rp, "launches", "Launches", launch_cols, 2);
		for (size_t i = 0; i < r->nresults; i++)
			if (ncu_view_selected(o, r, i))
				rep_row(rp,
					(struct rep_val[]){rep_i((int64_t)i),
							   rep_s(ncu_kernel_name(&r->results[i]))});
		rep_table_end(rp);
		rep_table_begin(rp, "metrics", "Metrics", raw_json_cols, 6);
	} else {
		rep_table_begin(rp, "metrics", "Metrics", raw_cols, 6);
	}
	for (size_t i = 0; i < r->nresults; i++) {
		if (!ncu_view_selected(o, r, i))
			continue;
		const struct ncu_result *res = &r->results[i];
		const char **cols;
		size_t n;
		if (ncu_raw_columns(r, i, &cols, &n))
			continue;
		if (json && nnames + n > cap) {
			size_t ncap = (nnames + n) * 2;
			const char **p = realloc(names, ncap * sizeof *names);
			if (!p) {
				free(names);
				return -1;
			}
			names = p;
			cap = ncap;
		}
		for (size_t k = 0; k < n; k++) {
			const struct ncu_metric *m = ncu_lookup(r, i, cols[k]);
			const char *base = ncu_metric_unit(cols[k]);
			const char *unit = base;
			double div = 1;
			bool num = m->value.type != NCU_V_STR && !ncu_value_is_na(&m->value);
			if (!o->base_units && base[0] && m->value.type != NCU_V_STR)
				unit = ncu_auto_unit(base, fabs(ncu_value_num(&m->value)), &div,
						     ubuf, sizeof ubuf);
			const char *text = ncu_fmt_detail_auto(&m->value, div, buf, sizeof buf);
			if (!json) {
				struct rep_val v[] = {
				    rep_i((int64_t)i), rep_s(ncu_kernel_name(res)),
				    rep_s(cols[k]),    rep_s(unit),
				    rep_s(text),       rep_i((int64_t)m->ninst)};
				rep_row(rp, v);
				continue;
			}
			names[nnames++] = cols[k];
			struct rep_val v[] = {
			    rep_i((int64_t)i),
			    rep_s(cols[k]),
			    rep_s(unit),
			    num ? rep_f(ncu_value_num(&m->value) / div) : rep_null(),
			    rep_s(text),
			    rep_i((int64_t)m->ninst)};
			rep_row(rp, v);
		}
	}
	rep_table_end(rp);
	int rc = json ? raw_descriptions(rp, names, nnames) : 0;
	free(names);
	return rc;
}

/* --- session --- */

static void kv_str(struct report *rp, const char *key, const char *title, const char *s)
{
	rep_kv(rp, key, title, REP_STR, s && s[0] ? rep_s(s) : rep_null());
}

static void sysinfo_kv(struct report *rp, const struct ncu_sysinfo *si, const char *who, char *buf,
		       size_t n)
{
	char key[64], title[64];
#define KV(k, t, v)                                                                                \
	do {                                                                                       \
		snprintf(key, sizeof key, "%s_%s", who, k);                                        \
		snprintf(title, sizeof title, "%s %s", who[0] == 'h' ? "Host" : "Target", t);      \
		kv_str(rp, key, title, v);                                                         \
	} while (0)
	KV("name", "Name", si->computer);
	if (who[0] == 't' && si->naddresses) {
		size_t k = 0;
		buf[0] = 0;
		for (size_t i = 0; i < si->naddresses && k < n; i++)
			k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "",
					      si->addresses[i]);
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

void ncu_view_session(struct ncu_report *r, struct report *rp)
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
				   : (*p == ' ')	    ? '_'
							    : *p;
		key[k] = 0;
		kv_str(rp, key, s->versions[i].provider, s->versions[i].version);
	}
	rep_kv(rp, "report_file_version", "Report file version", REP_INT, rep_i(r->file_version));
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
			if (dev->attrs[k].value.type == NCU_V_U64 ||
			    dev->attrs[k].value.type == NCU_V_U32)
				snprintf(buf, sizeof buf, "%llu",
					 (unsigned long long)dev->attrs[k].value.u);
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
	int sort; /* enum ncu_hint_sort */
};

/* Severity rank of a message type: ERR, WRN, OPT, INF, then the rest. */
static int type_rank(uint32_t type)
{
	switch (type) {
	case NCU_MSG_ERR:
		return 0;
	case NCU_MSG_WRN:
		return 1;
	case NCU_MSG_OPT:
		return 2;
	case NCU_MSG_INF:
		return 3;
	default:
		return 4;
	}
}

static int cmp_hint(const void *a, const void *b)
{
	const struct hint_ref *x = a, *y = b;
	if (x->sort == NCU_HINT_SORT_TYPE && type_rank(x->msg->type) != type_rank(y->msg->type))
		return type_rank(x->msg->type) - type_rank(y->msg->type);
	if (x->sort == NCU_HINT_SORT_SECTION) {
		if (x->sec_order != y->sec_order)
			return x->sec_order < y->sec_order ? -1 : 1;
		int c = strcmp(x->sec_name, y->sec_name);
		if (c)
			return c;
	}
	if (x->sort == NCU_HINT_SORT_SPEEDUP) {
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

int ncu_view_hints(struct ncu_report *r, const struct ncu_view_opts *o, struct report *rp)
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
		if (!ncu_view_selected(o, r, i))
			continue;
		const struct ncu_result *res = &r->results[i];
		for (size_t k = 0; k < res->nrules; k++) {
			const struct ncu_rule *ru = &res->rules[k];
			if (!section_match(res, o->section, ru->section_id))
				continue;
			for (size_t j = 0; j < ru->nmsgs; j++) {
				struct hint_ref *h = &v[m];
				*h = (struct hint_ref){.res = i,
						       .seq = m,
						       .rule = ru,
						       .msg = &ru->msgs[j],
						       .sort = o->sort};
				section_key(res, ru->section_id, h);
				m++;
			}
		}
	}
	gp_qsort(v, m, sizeof *v, cmp_hint);
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

static const struct rep_col det_cols[] = {
    {"id", "ID", REP_INT},
    {"section", "Section", REP_STR},
    {"item", "Item", REP_STR},
    {"metric", "Metric", REP_STR},
    {"unit", "Unit", REP_STR},
    {"value", "Value", REP_STR},
    {"rule", "Rule", REP_STR},
    {"type", "Type", REP_STR},
    {"speedup_type", "Speedup", REP_STR},
    {"speedup_pct", "Est. %", REP_STR},
    {"message", "Message", REP_STR},
    /* json only: what the row shows, for the viewer's titles */
    {"metric_name", "Metric name", REP_STR},
    {"description", "Description", REP_STR},
};
enum { DET_COLS_TEXT = 11 };

static struct rep_val s_or_null(const char *s)
{
	return s && s[0] ? rep_s(s) : rep_null();
}

struct det_ctx {
	struct report *rp;
	size_t idx;
};

static void det_rep_row(void *ctx, const struct ncu_detail_row *row)
{
	struct det_ctx *c = ctx;
	char buf[512];
	const char *d = row->name ? ncu_metric_description(row->name, buf, sizeof buf) : NULL;
	struct rep_val v[] = {rep_i((int64_t)c->idx),
			      s_or_null(row->section),
			      s_or_null(row->body_label),
			      s_or_null(row->metric),
			      s_or_null(row->unit),
			      s_or_null(row->value),
			      s_or_null(row->rule),
			      s_or_null(row->rule_type),
			      s_or_null(row->speedup_type),
			      s_or_null(row->speedup),
			      s_or_null(row->rule_text),
			      s_or_null(row->name),
			      s_or_null(d)};
	rep_row(c->rp, v);
}

void ncu_view_details(struct ncu_report *r, const struct ncu_view_opts *o, struct report *rp)
{
	struct ncu_details_opts dopts = {o->section, o->parts, !o->base_units};
	rep_table_begin(rp, "details", "Details", det_cols,
			o->json ? (int)(sizeof det_cols / sizeof det_cols[0]) : DET_COLS_TEXT);
	for (size_t i = 0; i < r->nresults; i++) {
		if (!ncu_view_selected(o, r, i))
			continue;
		struct det_ctx c = {.rp = rp, .idx = i};
		ncu_details(r, i, &dopts, det_rep_row, &c);
	}
	rep_table_end(rp);
}
