/* view_ncu_body: what each section of a result declares it shows, with
 * the values, for the charts of the viewer (`gpuprof ncu body`, GET
 * /api/file/ID/ncu/body): one row per (result, section, metric) of the
 * section's header table, its extra metrics (field 6) and its body items
 * (bar charts, line charts, tables...) in definition order, plus one row
 * per instance of a chart metric (x = the instance's correlation value:
 * register count, block size, opcode...). Values are full-precision
 * numbers (`value`, null when absent or not a number) next to the text ncu
 * prints in base units (`text`), so charts plot the report's own numbers.
 *
 * A body item the reader keeps without metrics (the roofline chart, the
 * memory chart and tables) gives one row with a null metric, so the page
 * knows the section declares it; those charts take their metrics from the
 * section's extra metrics. `breakdown:X` table entries give the entry
 * (parent null) then one row per listed sub-metric (parent = the entry,
 * label as ncu's details page writes it). Items filtered out for the
 * result's architecture are left out, as on the details page.
 *
 * With --metric REGEX (API: metric=REGEX) the rows of the sections are
 * followed by one row per metric of the result whose name matches (type
 * "metric", no section): the launch configuration, device attributes and
 * roofline inputs the charts compute with, by name; then its instances (x =
 * the correlation value: the SASS address of a per-instruction source
 * counter such as inst_executed, the viewer's Source tab), at most
 * BODY_MAX_INSTANCES.
 */
#include <math.h>
#include <string.h>

#include "ncu/ncu.h"
#include "views/view_ncu.h"

/* Instances listed per chart metric at most (occupancy curves have ~260). */
#define BODY_MAX_INSTANCES 4096

static const struct rep_col body_cols[] = {
    {"id", "ID", REP_INT},
    {"section_id", "Section ID", REP_STR},
    {"section", "Section", REP_STR},
    {"item", "Item", REP_INT},
    {"kind", "Kind", REP_INT},
    {"type", "Type", REP_STR},
    {"item_label", "Item Label", REP_STR},
    {"metric", "Metric", REP_STR},
    {"label", "Label", REP_STR},
    {"parent", "Parent", REP_STR},
    {"unit", "Unit", REP_STR},
    {"value", "Value", REP_FLOAT},
    {"text", "Text", REP_STR},
    {"instances", "Instances", REP_INT},
    {"instance", "Instance", REP_INT},
    {"x", "X", REP_FLOAT},
    {"x_text", "X Text", REP_STR},
};

/* Body item kinds (field numbers of ProfilerSectionBodyItem, see
 * shared/reference/ncu.md section 2) by name. */
const char *ncu_body_kind_name(uint32_t kind)
{
	switch (kind) {
	case NCU_ITEM_TABLE:
		return "table";
	case NCU_ITEM_BAR_CHART:
		return "bar";
	case NCU_ITEM_HISTOGRAM:
		return "histogram";
	case NCU_ITEM_LINE_CHART:
		return "line";
	case NCU_ITEM_ROOFLINE:
		return "roofline";
	case NCU_ITEM_SOURCE_TABLE:
		return "source_table";
	case NCU_ITEM_INSTANCE_TABLE:
		return "instance_table";
	case NCU_ITEM_MEMORY_SHARED_TABLE:
		return "memory_shared_table";
	case NCU_ITEM_MEMORY_L1_TABLE:
		return "memory_l1_table";
	case NCU_ITEM_MEMORY_L2_TABLE:
		return "memory_l2_table";
	case NCU_ITEM_MEMORY_DRAM_TABLE:
		return "memory_dram_table";
	case NCU_ITEM_MEMORY_CHART:
		return "memory_chart";
	case NCU_ITEM_MEMORY_L1_CACHE_TABLE:
		return "memory_l1_cache_table";
	case NCU_ITEM_MEMORY_L2_CACHE_TABLE:
		return "memory_l2_cache_table";
	case NCU_ITEM_NVLINK_TOPOLOGY:
		return "nvlink_topology";
	case NCU_ITEM_NVLINK_TABLE:
	case NCU_ITEM_NVLINK_TABLE_2:
		return "nvlink_table";
	case NCU_ITEM_MEMORY_L2_EVICT_TABLE:
		return "memory_l2_evict_table";
	case NCU_ITEM_NUMA_TABLE:
		return "numa_table";
	case NCU_ITEM_PM_TIMELINE:
		return "pm_timeline";
	default:
		return "other";
	}
}

struct body_ctx {
	struct ncu_report *r;
	struct report *rp;
	size_t idx;
	const struct ncu_section *s;
	int64_t item; /* -1: header or extra metrics */
	const struct ncu_body_item *it;
	const char *type;
};

static struct rep_val num_val(const struct ncu_value *v)
{
	if (ncu_value_is_na(v) || v->type == NCU_V_STR)
		return rep_null();
	return rep_f(ncu_value_num(v));
}

static void row(struct body_ctx *c, const char *metric, const char *label, const char *parent,
		const struct ncu_metric *m, int64_t inst)
{
	char buf[512];
	const struct ncu_value *v = !m ? NULL : inst < 0 ? &m->value : &m->inst[inst].value;
	const struct ncu_value *x = m && inst >= 0 ? &m->inst[inst].corr : NULL;
	struct rep_val vals[] = {
	    rep_i((int64_t)c->idx),
	    rep_s(c->s->id),
	    rep_s(c->s->name),
	    c->item < 0 ? rep_null() : rep_i(c->item),
	    c->it ? rep_i(c->it->kind) : rep_null(),
	    rep_s(c->type),
	    c->it ? rep_s(c->it->label) : rep_null(),
	    rep_s(metric),
	    label && label[0] ? rep_s(label) : rep_null(),
	    rep_s(parent),
	    metric ? rep_s(ncu_metric_unit(metric)) : rep_null(),
	    v ? num_val(v) : rep_null(),
	    v ? rep_s(ncu_fmt_value(v, buf, sizeof buf)) : rep_null(),
	    m ? rep_i((int64_t)m->ninst) : rep_null(),
	    inst < 0 ? rep_null() : rep_i(inst),
	    x && x->type != NCU_V_STR ? num_val(x) : rep_null(),
	    x && x->type == NCU_V_STR ? rep_s(x->s) : rep_null(),
	};
	rep_row(c->rp, vals);
}

/* A metric row, then its instances when it is plotted by a chart. */
static void metric_rows(struct body_ctx *c, const char *name, const char *label, const char *parent,
			bool instances)
{
	const struct ncu_metric *m = ncu_lookup(c->r, c->idx, name);
	row(c, name, label, parent, m, -1);
	if (!m || !instances)
		return;
	for (size_t k = 0; k < m->ninst && k < BODY_MAX_INSTANCES; k++)
		row(c, name, label, parent, m, (int64_t)k);
}

/* The sub-metrics a `breakdown:X` entry lists (comma-separated names). */
static void breakdown_rows(struct body_ctx *c, const char *bname)
{
	const struct ncu_metric *m = ncu_lookup(c->r, c->idx, bname);
	if (!m || m->value.type != NCU_V_STR)
		return;
	char name[512], label[128];
	for (const char *p = m->value.s; *p;) {
		size_t k = strcspn(p, ",");
		if (k && k < sizeof name) {
			memcpy(name, p, k);
			name[k] = 0;
			if (ncu_lookup(c->r, c->idx, name)) {
				ncu_breakdown_label(name, label, sizeof label);
				metric_rows(c, name, label, bname, false);
			}
		}
		p += k + (p[k] == ',');
	}
}

static uint32_t body_arch(struct ncu_report *r, size_t idx)
{
	const struct ncu_metric *ma =
	    ncu_lookup(r, idx, "device__attribute_compute_capability_major");
	const struct ncu_metric *mi =
	    ncu_lookup(r, idx, "device__attribute_compute_capability_minor");
	if (!ma || !mi || ncu_value_is_na(&ma->value) || ncu_value_is_na(&mi->value))
		return 0;
	return (uint32_t)(ncu_value_num(&ma->value) * 10 + ncu_value_num(&mi->value));
}

static void section_rows(struct body_ctx *c)
{
	const struct ncu_section *s = c->s;
	uint32_t arch = body_arch(c->r, c->idx);
	c->item = -1;
	c->it = NULL;
	c->type = "header";
	for (size_t k = 0; k < s->nheader; k++)
		metric_rows(c, s->header[k].name, s->header[k].label, NULL, false);
	c->type = "metrics";
	for (size_t k = 0; k < s->nextra; k++)
		metric_rows(c, s->extra[k].name, s->extra[k].label, NULL, false);
	for (size_t b = 0; b < s->nbody; b++) {
		const struct ncu_body_item *it = &s->body[b];
		if ((it->min_arch && arch && arch < it->min_arch) ||
		    (it->max_arch && arch && arch > it->max_arch))
			continue;
		c->item = (int64_t)b;
		c->it = it;
		c->type = ncu_body_kind_name(it->kind);
		/* the source and instance tables list per-PC / per-unit
		 * metrics: no instances (thousands of rows, no chart) */
		bool inst = it->kind == NCU_ITEM_BAR_CHART || it->kind == NCU_ITEM_HISTOGRAM ||
			    it->kind == NCU_ITEM_LINE_CHART;
		if (!it->nmetrics && !it->nextra)
			row(c, NULL, NULL, NULL, NULL, -1);
		for (size_t k = 0; k < it->nmetrics; k++) {
			const struct ncu_sec_metric *sm = &it->metrics[k];
			if (it->kind ==
			    NCU_ITEM_INSTANCE_TABLE) { /* rows: base names; columns: suffixes */
				for (size_t j = 0; j < it->nextra; j++) {
					char name[512];
					snprintf(name, sizeof name, "%s%s", sm->name,
						 it->extra[j].name);
					metric_rows(c, name, sm->label, NULL, false);
				}
				continue;
			}
			metric_rows(c, sm->name, sm->label, NULL, inst);
			if (!strncmp(sm->name, "breakdown:", 10))
				breakdown_rows(c, sm->name);
		}
		if (it->kind == NCU_ITEM_LINE_CHART) /* highlights: the current x */
			for (size_t k = 0; k < it->nextra; k++)
				metric_rows(c, it->extra[k].name, it->extra[k].label, NULL, false);
	}
}

/* The metrics of result i whose name matches o->mre, by name. */
static void named_rows(struct ncu_report *r, const struct ncu_view_opts *o, struct report *rp,
		       size_t i)
{
	static const struct ncu_section none = {.id = NULL, .name = NULL};
	const char **cols;
	size_t n;
	if (ncu_raw_columns(r, i, &cols, &n))
		return;
	struct body_ctx c = {.r = r, .rp = rp, .idx = i, .s = &none, .item = -1, .type = "metric"};
	for (size_t k = 0; k < n; k++)
		if (!regexec(&o->mre, cols[k], 0, NULL, 0))
			metric_rows(&c, cols[k], NULL, NULL, true);
}

void ncu_view_body(struct ncu_report *r, const struct ncu_view_opts *o, struct report *rp)
{
	rep_table_begin(rp, "body", "Section bodies", body_cols,
			(int)(sizeof body_cols / sizeof body_cols[0]));
	for (size_t i = 0; i < r->nresults; i++) {
		if (!ncu_view_selected(o, r, i))
			continue;
		const struct ncu_result *res = &r->results[i];
		for (size_t k = 0; k < res->nsections; k++) {
			const struct ncu_section *s = &res->sections[k];
			if (o->section && strcmp(o->section, s->id) && strcmp(o->section, s->name))
				continue;
			struct body_ctx c = {.r = r, .rp = rp, .idx = i, .s = s};
			section_rows(&c);
		}
		if (o->has_mre)
			named_rows(r, o, rp, i);
	}
	rep_table_end(rp);
}
