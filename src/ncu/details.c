/* details: the rows of ncu's details page for one result.
 *
 * Reproduced cell for cell (checked against both 2025.x golden exports):
 * section order; per section the header, labelled rule metrics (field 6)
 * and source-view metrics (field 13) sorted by metric name, with `group:X`
 * entries expanded to one "Label (member)" row per listed member; then the
 * body items: tables, bar and line charts (metrics plus line-chart
 * highlight metrics, sorted by name; ShowInstances values followed by
 * "(v1; v2; ...)"), `breakdown:X` tables ("{UNIT}: Title Case" rows ordered
 * by value), instance tables (row base x column suffix .avg/.max/...,
 * sorted by name), source hotspot tables; items filtered by architecture
 * (field 200) are skipped; then the rule-message rows. */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "ncu/ncu.h"

struct mrow {
	const char *name, *label;
	double sortval; /* breakdown rows: displayed value, for ordering */
	size_t seq;	/* definition order, to keep sorting stable */
	bool show_instances;
};

static int cmp_by_name(const void *a, const void *b)
{
	const struct mrow *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->seq < y->seq ? -1 : x->seq > y->seq);
}

static int cmp_by_value(const void *a, const void *b)
{
	const struct mrow *x = a, *y = b;
	if (x->sortval != y->sortval)
		return x->sortval > y->sortval ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_section(const void *a, const void *b)
{
	const struct ncu_section *x = *(const struct ncu_section *const *)a;
	const struct ncu_section *y = *(const struct ncu_section *const *)b;
	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return strcmp(x->name, y->name);
}

struct emit {
	struct ncu_report *r;
	size_t idx;
	ncu_detail_fn fn;
	void *ctx;
	const char *section;
	uint32_t arch; /* CC x 10 of the result's device, 0 when unknown */
	const struct ncu_details_opts *o;
	char unit[64];
	char *value; /* growable value buffer */
	size_t cap;
	int rc;
};

/* Makes room for n bytes in em->value; false (and em->rc set) on OOM. */
static bool reserve(struct emit *em, size_t n)
{
	if (n <= em->cap)
		return true;
	size_t cap = em->cap ? em->cap : 256;
	while (cap < n)
		cap *= 2;
	char *p = realloc(em->value, cap);
	if (!p) {
		em->rc = ERR_NOMEM;
		return false;
	}
	em->value = p;
	em->cap = cap;
	return true;
}

/* The value as ncu prints it; with show_instances the instance values
 * follow in parentheses: "6,665 (33; 33; ...)". */
static const char *fmt_metric(struct emit *em, const struct ncu_metric *m, bool show_instances,
			      double div)
{
	char one[400];
	ncu_fmt_detail_auto(m ? &m->value : NULL, div, one, sizeof one);
	size_t len = strlen(one);
	if (!reserve(em, len + 1))
		return "";
	memcpy(em->value, one, len + 1);
	if (!show_instances || !m || !m->ninst)
		return em->value;
	for (size_t i = 0; i < m->ninst; i++) {
		ncu_fmt_detail_auto(&m->inst[i].value, div, one, sizeof one);
		size_t k = strlen(one);
		if (!reserve(em, len + k + 4))
			return "";
		len += (size_t)sprintf(em->value + len, "%s%s", i ? "; " : " (", one);
	}
	if (!reserve(em, len + 2))
		return "";
	memcpy(em->value + len, ")", 2);
	return em->value;
}

static void metric_row(struct emit *em, const char *body, const char *name, const char *label,
		       bool show_instances)
{
	const struct ncu_metric *m = ncu_lookup(em->r, em->idx, name);
	struct ncu_detail_row row = {.section = em->section,
				     .body_label = body,
				     .metric = label[0] ? label : name,
				     .name = name,
				     .unit = m ? ncu_detail_unit(name) : ""};
	double div = 1;
	if (em->o->auto_units && m && m->value.type != NCU_V_STR)
		row.unit = ncu_auto_unit(row.unit, fabs(ncu_value_num(&m->value)), &div, em->unit,
					 sizeof em->unit);
	row.value = fmt_metric(em, m, show_instances, div);
	if (!em->rc)
		em->fn(em->ctx, &row);
}

/* A `group:NAME` metric's value lists its member metrics, comma separated;
 * each present member gives a row labelled "Label (member)" (or the member
 * name when the group is unlabelled). */
static void group_rows(struct emit *em, const char *body, const struct mrow *g)
{
	const struct ncu_metric *m = ncu_lookup(em->r, em->idx, g->name);
	if (!m || m->value.type != NCU_V_STR)
		return;
	char name[512], label[1024];
	for (const char *p = m->value.s; *p && !em->rc;) {
		size_t k = strcspn(p, ",");
		if (k && k < sizeof name) {
			memcpy(name, p, k);
			name[k] = 0;
			if (ncu_lookup(em->r, em->idx, name)) {
				if (g->label[0])
					snprintf(label, sizeof label, "%s (%s)", g->label, name);
				else
					snprintf(label, sizeof label, "%s", name);
				metric_row(em, body, name, label, g->show_instances);
			}
		}
		p += k + (p[k] == ',');
	}
}

static void emit_rows(struct emit *em, const char *body, const struct mrow *rows, size_t n)
{
	for (size_t k = 0; k < n && !em->rc; k++) {
		if (!strncmp(rows[k].name, "group:", 6))
			group_rows(em, body, &rows[k]);
		else
			metric_row(em, body, rows[k].name, rows[k].label, rows[k].show_instances);
	}
}

/* "lts__t_sectors.avg.pct_of_peak_sustained_elapsed" -> "L2: T Sectors" */
void ncu_breakdown_label(const char *name, char *buf, size_t n)
{
	static const struct {
		const char *unit, *label;
	} units[] = {{"sm", "SM"},     {"smsp", "SM"},	 {"l1tex", "L1"}, {"lts", "L2"},
		     {"dram", "DRAM"}, {"fbpa", "DRAM"}, {"gpu", "GPU"},  {"idc", "IDC"}};
	const char *us = strstr(name, "__");
	size_t k = 0;
	if (us) {
		const char *pre = "";
		for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
			if (strlen(units[i].unit) == (size_t)(us - name) &&
			    !strncmp(name, units[i].unit, (size_t)(us - name)))
				pre = units[i].label;
		if (pre[0]) {
			k = (size_t)snprintf(buf, n, "%s: ", pre);
		} else { /* unknown unit: upper-case it */
			for (const char *p = name; p < us && k + 3 < n; p++)
				buf[k++] = (char)toupper((unsigned char)*p);
			buf[k++] = ':';
			buf[k++] = ' ';
		}
		name = us + 2;
	}
	bool up = true;
	for (const char *p = name; *p && *p != '.' && k + 1 < n; p++) {
		if (*p == '_') {
			buf[k++] = ' ';
			up = true;
			continue;
		}
		buf[k++] = up ? (char)toupper((unsigned char)*p) : *p;
		up = false;
	}
	buf[k] = 0;
}

#define LABEL_BYTES 128

/* How many rows an item can give (breakdowns expand to their list). */
static size_t item_capacity(struct emit *em, const struct ncu_body_item *it)
{
	size_t cap = it->nextra + 1;
	if (it->kind == NCU_ITEM_INSTANCE_TABLE)
		return it->nmetrics * (it->nextra ? it->nextra : 1) + 1;
	for (size_t k = 0; k < it->nmetrics; k++) {
		const struct ncu_metric *m = NULL;
		if (!strncmp(it->metrics[k].name, "breakdown:", 10) &&
		    (m = ncu_lookup(em->r, em->idx, it->metrics[k].name)) &&
		    m->value.type == NCU_V_STR)
			cap += strlen(m->value.s) / 2 + 2;
		else
			cap++;
	}
	return cap;
}

/* Rows of a `breakdown:X` table entry: one per listed sub-metric. */
static bool breakdown_rows(struct emit *em, const char *bname, struct mrow *rows, size_t *n,
			   size_t cap, char *labels)
{
	const struct ncu_metric *m = ncu_lookup(em->r, em->idx, bname);
	if (!m || m->value.type != NCU_V_STR)
		return false;
	char name[512];
	for (const char *p = m->value.s; *p && *n < cap;) {
		size_t k = strcspn(p, ",");
		if (k && k < sizeof name) {
			memcpy(name, p, k);
			name[k] = 0;
			const struct ncu_metric *sub = ncu_lookup(em->r, em->idx, name);
			if (sub) {
				char *lab = labels + *n * LABEL_BYTES;
				ncu_breakdown_label(name, lab, LABEL_BYTES);
				/* order by the displayed (rounded) value */
				double v = ncu_value_num(&sub->value);
				rows[*n] = (struct mrow){
				    .name = sub->name,
				    .label = lab,
				    .seq = *n,
				    .sortval = isnan(v) ? -INFINITY : round(v * 100) / 100};
				(*n)++;
			}
		}
		p += k + (p[k] == ',');
	}
	return true;
}

/* Instance tables (kind 8): rows x columns, each cell the metric
 * row-base + column-suffix, labelled with the row label. */
static size_t instance_rows(struct emit *em, const struct ncu_body_item *it, struct mrow *rows,
			    size_t cap, char *names)
{
	size_t n = 0;
	for (size_t i = 0; i < it->nmetrics; i++)
		for (size_t j = 0; j < it->nextra && n < cap; j++) {
			char *nm = names + n * LABEL_BYTES;
			snprintf(nm, LABEL_BYTES, "%s%s", it->metrics[i].name, it->extra[j].name);
			const struct ncu_metric *m = ncu_lookup(em->r, em->idx, nm);
			if (m)
				rows[n] = (struct mrow){.name = m->name,
							.label = it->metrics[i].label,
							.seq = n},
				n++;
		}
	return n;
}

static int emit_item(struct emit *em, const struct ncu_body_item *it)
{
	if ((it->min_arch && em->arch && em->arch < it->min_arch) ||
	    (it->max_arch && em->arch && em->arch > it->max_arch))
		return 0;
	size_t cap = item_capacity(em, it);
	struct mrow *rows = calloc(cap, sizeof *rows);
	char *labels = calloc(cap, LABEL_BYTES);
	if (!rows || !labels) {
		free(rows);
		free(labels);
		return ERR_NOMEM;
	}
	size_t n = 0;
	bool breakdown = false;
	if (it->kind == NCU_ITEM_INSTANCE_TABLE) {
		n = instance_rows(em, it, rows, cap, labels);
	} else {
		for (size_t k = 0; k < it->nmetrics + it->nextra && n < cap; k++) {
			const struct ncu_sec_metric *sm =
			    k < it->nmetrics ? &it->metrics[k] : &it->extra[k - it->nmetrics];
			if (!strncmp(sm->name, "breakdown:", 10)) {
				breakdown |= breakdown_rows(em, sm->name, rows, &n, cap, labels);
				continue;
			}
			if (!ncu_lookup(em->r, em->idx, sm->name))
				continue;
			rows[n] = (struct mrow){.name = sm->name,
						.label = sm->label,
						.seq = n,
						.show_instances = sm->show_instances};
			n++;
		}
	}
	gp_qsort(rows, n, sizeof *rows, breakdown ? cmp_by_value : cmp_by_name);
	emit_rows(em, it->label, rows, n);
	free(rows);
	free(labels);
	return em->rc;
}

static int emit_section(struct emit *em, const struct ncu_result *res, const struct ncu_section *s)
{
	em->section = s->name;
	size_t cap = s->nheader + s->nextra + s->nsource;
	struct mrow *rows = calloc(cap ? cap : 1, sizeof *rows);
	if (!rows)
		return ERR_NOMEM;
	size_t n = 0;
	if (!(em->o->parts & NCU_DETAILS_HEADER))
		cap = 0;
	else if (!(em->o->parts & NCU_DETAILS_BODY))
		cap = s->nheader; /* header mode: the header table only */
	for (size_t k = 0; k < cap; k++) {
		const struct ncu_sec_metric *sm = k < s->nheader ? &s->header[k]
						  : k < s->nheader + s->nextra
						      ? &s->extra[k - s->nheader]
						      : &s->source[k - s->nheader - s->nextra];
		if (k >= s->nheader && !sm->label[0])
			continue; /* unlabelled extra metrics are for rules only */
		/* source-view metrics (field 13) print even when absent ("n/a",
		 * seen for derived__derivative_avg_thread_executed_true) */
		if (k < s->nheader + s->nextra && !ncu_lookup(em->r, em->idx, sm->name))
			continue;
		bool dup = false;
		for (size_t j = 0; j < n && !dup; j++)
			dup = !strcmp(rows[j].name, sm->name);
		if (!dup)
			rows[n] = (struct mrow){.name = sm->name, .label = sm->label, .seq = n},
			n++;
	}
	gp_qsort(rows, n, sizeof *rows, cmp_by_name);
	emit_rows(em, "", rows, n);
	free(rows);
	if (em->rc)
		return em->rc;
	for (size_t b = 0; b < s->nbody && (em->o->parts & NCU_DETAILS_BODY); b++)
		if (s->body[b].label[0] && (s->body[b].nmetrics || s->body[b].nextra)) {
			int rc = emit_item(em, &s->body[b]);
			if (rc)
				return rc;
		}
	char sp[64];
	for (size_t k = 0; k < res->nrules; k++) {
		const struct ncu_rule *ru = &res->rules[k];
		if (strcmp(ru->section_id, s->id))
			continue;
		for (size_t m = 0; m < ru->nmsgs; m++) {
			const struct ncu_rule_msg *msg = &ru->msgs[m];
			const char *st = msg->speedup_type == 1	  ? "local"
					 : msg->speedup_type == 2 ? "global"
								  : "";
			struct ncu_detail_row row = {
			    .section = s->id,
			    .body_label = "",
			    .rule = ru->id,
			    .rule_type = ncu_msg_type_name(msg->type),
			    .rule_text = ncu_expand_markup(em->r, msg->text),
			    .speedup_type = st,
			    .speedup =
				st[0] ? ncu_fmt_double(msg->speedup_pct, sp, sizeof sp) : ""};
			em->fn(em->ctx, &row);
		}
	}
	return 0;
}

static uint32_t result_arch(struct ncu_report *r, size_t idx)
{
	const struct ncu_metric *ma =
	    ncu_lookup(r, idx, "device__attribute_compute_capability_major");
	const struct ncu_metric *mi =
	    ncu_lookup(r, idx, "device__attribute_compute_capability_minor");
	if (!ma || !mi || ncu_value_is_na(&ma->value) || ncu_value_is_na(&mi->value))
		return 0;
	/* from the file: a NaN, an infinity or a huge number is no architecture */
	double v = ncu_value_num(&ma->value) * 10 + ncu_value_num(&mi->value);
	return v >= 0 && v < 100000 ? (uint32_t)v : 0;
}

int ncu_details(struct ncu_report *r, size_t idx, const struct ncu_details_opts *o,
		ncu_detail_fn fn, void *ctx)
{
	static const struct ncu_details_opts all = {NULL, NCU_DETAILS_HEADER | NCU_DETAILS_BODY,
						    false};
	if (!o)
		o = &all;
	const char *section = o->section;
	if (idx >= r->nresults)
		return 0;
	const struct ncu_result *res = &r->results[idx];
	const struct ncu_section **secs = calloc(res->nsections ? res->nsections : 1, sizeof *secs);
	if (!secs)
		return ERR_NOMEM;
	for (size_t i = 0; i < res->nsections; i++)
		secs[i] = &res->sections[i];
	gp_qsort(secs, res->nsections, sizeof *secs, cmp_section);
	struct emit em = {
	    .r = r, .idx = idx, .fn = fn, .ctx = ctx, .arch = result_arch(r, idx), .o = o};
	int rc = 0;
	for (size_t i = 0; i < res->nsections && !rc; i++)
		if (!section || !strcmp(section, secs[i]->id) || !strcmp(section, secs[i]->name))
			rc = emit_section(&em, res, secs[i]);
	free(em.value);
	free(secs);
	return rc;
}
