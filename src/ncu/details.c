/* details: the rows of ncu's details page for one result.
 *
 * What is reproduced (checked against the 2025.x golden exports): section
 * order, the header + labelled metric rows sorted by metric name, bar-chart
 * and table items (plain metrics sorted by name; `breakdown:X` tables
 * expanded to "{UNIT}: Title Case" rows ordered by value), line-chart and
 * histogram metrics in definition order, and the rule-message rows. Not
 * reproduced yet: instance-value lists appended to chart values, `group:`
 * expansions, the per-instance rows of instance tables. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncu/ncu.h"

struct mrow {
	const char *name, *label;
	double sortval; /* breakdown rows: displayed value, for ordering */
};

static int cmp_by_name(const void *a, const void *b)
{
	const struct mrow *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x < y ? -1 : x > y);
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
	char value[512];
};

static void metric_row(struct emit *em, const char *body, const char *name, const char *label)
{
	const struct ncu_metric *m = ncu_lookup(em->r, em->idx, name);
	struct ncu_detail_row row = {.section = em->section, .body_label = body,
				     .metric = label[0] ? label : name,
				     .unit = ncu_metric_unit(name)};
	row.value = ncu_fmt_value(m ? &m->value : NULL, em->value, sizeof em->value);
	em->fn(em->ctx, &row);
}

/* "lts__t_sectors.avg.pct_of_peak_sustained_elapsed" -> "L2: T Sectors" */
static void breakdown_label(const char *name, char *buf, size_t n)
{
	static const struct {
		const char *unit, *label;
	} units[] = {{"sm", "SM"},     {"smsp", "SM"},	 {"l1tex", "L1"}, {"lts", "L2"},
		     {"dram", "DRAM"}, {"fbpa", "DRAM"}, {"gpu", "GPU"},  {"idc", "IDC"}};
	const char *us = strstr(name, "__");
	const char *pre = "";
	size_t k = 0;
	if (us) {
		for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
			if (strlen(units[i].unit) == (size_t)(us - name) &&
			    !strncmp(name, units[i].unit, (size_t)(us - name)))
				pre = units[i].label;
		if (!pre[0])
			pre = "";
		k = (size_t)snprintf(buf, n, "%s: ", pre[0] ? pre : "");
		if (!pre[0]) {
			/* unknown unit: upper-case it */
			k = 0;
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

static int emit_item(struct emit *em, const struct ncu_body_item *it)
{
	size_t cap = 0;
	for (size_t k = 0; k < it->nmetrics; k++) {
		const struct ncu_metric *m = NULL;
		if (!strncmp(it->metrics[k].name, "breakdown:", 10) &&
		    (m = ncu_lookup(em->r, em->idx, it->metrics[k].name)) && m->value.type == NCU_V_STR)
			cap += strlen(m->value.s) / 2 + 2;
		else
			cap++;
	}
	struct mrow *rows = calloc(cap ? cap : 1, sizeof *rows);
	char *labels = calloc(cap ? cap : 1, 128);
	if (!rows || !labels) {
		free(rows);
		free(labels);
		return ERR_NOMEM;
	}
	size_t n = 0;
	bool breakdown = false;
	char *list = NULL;
	for (size_t k = 0; k < it->nmetrics; k++) {
		const struct ncu_sec_metric *sm = &it->metrics[k];
		if (!strncmp(sm->name, "breakdown:", 10)) {
			const struct ncu_metric *m = ncu_lookup(em->r, em->idx, sm->name);
			if (!m || m->value.type != NCU_V_STR)
				continue;
			breakdown = true;
			free(list);
			list = strdup(m->value.s);
			for (char *save = NULL, *t = list ? strtok_r(list, ",", &save) : NULL;
			     t && n < cap; t = strtok_r(NULL, ",", &save)) {
				const struct ncu_metric *sub = ncu_lookup(em->r, em->idx, t);
				if (!sub)
					continue;
				char *lab = labels + n * 128;
				breakdown_label(t, lab, 128);
				/* order by the displayed (rounded) value */
				double v = ncu_value_num(&sub->value);
				rows[n++] = (struct mrow){
					.name = sub->name, .label = lab,
					.sortval = isnan(v) ? -INFINITY : round(v * 100) / 100};
			}
			continue;
		}
		if (!ncu_lookup(em->r, em->idx, sm->name) || n >= cap)
			continue;
		rows[n++] = (struct mrow){.name = sm->name, .label = sm->label};
	}
	if (breakdown)
		qsort(rows, n, sizeof *rows, cmp_by_value);
	else if (it->kind == 1 || it->kind == 2)
		qsort(rows, n, sizeof *rows, cmp_by_name);
	for (size_t k = 0; k < n; k++)
		metric_row(em, it->label, rows[k].name, rows[k].label);
	free(list);
	free(rows);
	free(labels);
	return 0;
}

static int emit_section(struct emit *em, const struct ncu_result *res, const struct ncu_section *s)
{
	em->section = s->name;
	size_t cap = s->nheader + s->nextra;
	struct mrow *rows = calloc(cap ? cap : 1, sizeof *rows);
	if (!rows)
		return ERR_NOMEM;
	size_t n = 0;
	for (size_t k = 0; k < cap; k++) {
		const struct ncu_sec_metric *sm =
			k < s->nheader ? &s->header[k] : &s->extra[k - s->nheader];
		if (k >= s->nheader && !sm->label[0])
			continue; /* unlabelled extra metrics are for rules only */
		if (!ncu_lookup(em->r, em->idx, sm->name))
			continue;
		bool dup = false;
		for (size_t j = 0; j < n && !dup; j++)
			dup = !strcmp(rows[j].name, sm->name);
		if (!dup)
			rows[n++] = (struct mrow){.name = sm->name, .label = sm->label};
	}
	qsort(rows, n, sizeof *rows, cmp_by_name);
	for (size_t k = 0; k < n; k++)
		metric_row(em, "", rows[k].name, rows[k].label);
	free(rows);
	for (size_t b = 0; b < s->nbody; b++)
		if (s->body[b].label[0] && s->body[b].nmetrics) {
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
				.section = s->id, .body_label = "", .rule = ru->id,
				.rule_type = ncu_msg_type_name(msg->type),
				.rule_text = ncu_expand_markup(em->r, msg->text), .speedup_type = st,
				.speedup = st[0] ? ncu_fmt_double(msg->speedup_pct, sp, sizeof sp) : ""};
			em->fn(em->ctx, &row);
		}
	}
	return 0;
}

int ncu_details(struct ncu_report *r, size_t idx, const char *section, ncu_detail_fn fn,
		void *ctx)
{
	if (idx >= r->nresults)
		return 0;
	const struct ncu_result *res = &r->results[idx];
	const struct ncu_section **secs = calloc(res->nsections ? res->nsections : 1, sizeof *secs);
	if (!secs)
		return ERR_NOMEM;
	for (size_t i = 0; i < res->nsections; i++)
		secs[i] = &res->sections[i];
	qsort(secs, res->nsections, sizeof *secs, cmp_section);
	struct emit em = {.r = r, .idx = idx, .fn = fn, .ctx = ctx};
	int rc = 0;
	for (size_t i = 0; i < res->nsections && !rc; i++)
		if (!section || !strcmp(section, secs[i]->id) || !strcmp(section, secs[i]->name))
			rc = emit_section(&em, res, secs[i]);
	free(secs);
	return rc;
}
