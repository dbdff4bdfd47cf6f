/* ncu_result: one ProfileResult (a profiled kernel launch): identification,
 * launch geometry, metric values with their instance lists, the embedded
 * section definitions and the rule results. Repeated fields are counted
 * first so each array is allocated once, at its exact size, in the arena. */
#include <stdbool.h>
#include <string.h>

#include "ncu/ncu_int.h"

#define ARENA_ARRAY(c, n, p) arena_array(&(c)->r->arena, (n) ? (n) : 1, sizeof *(p))

static int want_str(struct ncu_ctx *c, const struct pb_reader *r, const struct pb_field *f,
		    const char **dst)
{
	int rc = ncu_want(r, f, PB_LEN, c->e);
	if (rc)
		return rc;
	return (*dst = ncu_str(c, f)) ? 0 : ncu_nomem(c, f->off);
}

static int want_u64(struct ncu_ctx *c, const struct pb_reader *r, const struct pb_field *f,
		    uint64_t *dst)
{
	int rc = ncu_want(r, f, PB_VARINT, c->e);
	if (!rc)
		*dst = f->u;
	return rc;
}

static int want_u32(struct ncu_ctx *c, const struct pb_reader *r, const struct pb_field *f,
		    uint32_t *dst)
{
	uint64_t v = 0;
	int rc = want_u64(c, r, f, &v);
	*dst = (uint32_t)v;
	return rc;
}

static int parse_xyz(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f,
		     uint64_t xyz[3])
{
	struct pb_reader s;
	struct pb_field g;
	int rc = pb_sub(r, f, &s, c->e);
	if (rc)
		return rc;
	while ((rc = pb_next(&s, &g, c->e)) > 0)
		if (g.num >= NCU_XYZ_X && g.num <= NCU_XYZ_Z &&
		    (rc = want_u64(c, &s, &g, &xyz[g.num - NCU_XYZ_X])))
			return rc;
	return rc;
}

/* SourceData reference: only field 1 is filled in results. */
static int parse_ref(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f,
		     uint64_t *ref)
{
	struct pb_reader s;
	struct pb_field g;
	int rc = pb_sub(r, f, &s, c->e);
	if (rc)
		return rc;
	while ((rc = pb_next(&s, &g, c->e)) > 0)
		if (g.num == NCU_SOURCE_REF_REF && (rc = want_u64(c, &s, &g, ref)))
			return rc;
	return rc;
}

static int parse_metric(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f,
			struct ncu_metric *m)
{
	struct pb_reader s, a;
	struct pb_field g, h;
	memset(m, 0, sizeof *m);
	m->name = "";
	int rc = pb_sub(r, f, &s, c->e);
	if (rc || (rc = ncu_count(&s, NCU_METRIC_INSTANCE, &m->ninst, c->e)))
		return rc;
	if (m->ninst && !(m->inst = ARENA_ARRAY(c, m->ninst, m->inst)))
		return ncu_nomem(c, f->off);
	size_t k = 0;
	while ((rc = pb_next(&s, &g, c->e)) > 0) {
		rc = 0;
		switch (g.num) {
		case NCU_METRIC_NAME_ID:
			rc = want_u32(c, &s, &g, &m->name_id);
			break;
		case NCU_METRIC_VALUE:
			rc = ncu_parse_value(c, &s, &g, &m->value);
			break;
		case NCU_METRIC_INSTANCE: {
			struct ncu_instance *in = &m->inst[k++];
			memset(in, 0, sizeof *in);
			if ((rc = pb_sub(&s, &g, &a, c->e)))
				return rc;
			while ((rc = pb_next(&a, &h, c->e)) > 0) {
				rc = 0;
				if (h.num == NCU_INSTANCE_CORR || h.num == NCU_INSTANCE_VALUE)
					rc = ncu_parse_value(
					    c, &a, &h,
					    h.num == NCU_INSTANCE_CORR ? &in->corr : &in->value);
				if (rc)
					return rc;
			}
			break;
		}
		case NCU_METRIC_KIND:
			rc = want_u32(c, &s, &g, &m->kind);
			break;
		default:
			break;
		}
		if (rc)
			return rc;
	}
	return rc;
}

/* ProfilerSectionMetric {1 Name, 2 Label, ...} */
static int parse_sec_metric(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f,
			    struct ncu_sec_metric *sm)
{
	struct pb_reader s;
	struct pb_field g;
	sm->name = sm->label = "";
	sm->show_instances = false;
	int rc = pb_sub(r, f, &s, c->e);
	if (rc)
		return rc;
	while ((rc = pb_next(&s, &g, c->e)) > 0) {
		if ((g.num == NCU_SEC_METRIC_NAME || g.num == NCU_SEC_METRIC_LABEL) &&
		    (rc = want_str(c, &s, &g,
				   g.num == NCU_SEC_METRIC_NAME ? &sm->name : &sm->label)))
			return rc;
		if (g.num == NCU_SEC_METRIC_SHOW_INSTANCES && g.wire == PB_VARINT)
			sm->show_instances = g.u != 0;
	}
	return rc;
}

/* The metrics numbered num inside the message f (e.g. a header's field 2);
 * empty names (layout spacers) are dropped. */
static int parse_metric_list(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f,
			     uint32_t num, struct ncu_sec_metric **out, size_t *nout)
{
	struct pb_reader s;
	struct pb_field g;
	size_t n;
	int rc = pb_sub(r, f, &s, c->e);
	if (rc || (rc = ncu_count(&s, num, &n, c->e)))
		return rc;
	struct ncu_sec_metric *v = ARENA_ARRAY(c, n, v);
	if (!v)
		return ncu_nomem(c, f->off);
	size_t k = 0;
	while ((rc = pb_next(&s, &g, c->e)) > 0) {
		if (g.num != num)
			continue;
		if ((rc = parse_sec_metric(c, &s, &g, &v[k])))
			return rc;
		if (v[k].name[0])
			k++;
	}
	*out = v;
	*nout = k;
	return rc;
}

/* Body items nest (kind 5 = group of items): they are flattened, in order,
 * into the section's list. */
struct items {
	struct ncu_body_item *v;
	size_t n, cap;
};

static int add_item(struct ncu_ctx *c, struct items *it, const struct ncu_body_item *b, int64_t off)
{
	if (vec_push(*it, *b, NCU_MAX_ENTRIES))
		return ncu_nomem(c, off);
	return 0;
}

static int parse_body_item(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f,
			   struct items *it);

/* The metric list numbered num inside the sub-message numbered sub of the
 * item f (line-chart highlights: 5 {1 metric...}; instance tables: 2
 * {1 column...} and 3 {1 row...}). */
static int parse_nested_list(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f,
			     uint32_t sub, struct ncu_sec_metric **out, size_t *nout)
{
	struct pb_reader s;
	struct pb_field g;
	int rc = pb_sub(r, f, &s, c->e);
	if (rc)
		return rc;
	while ((rc = pb_next(&s, &g, c->e)) > 0)
		if (g.num == sub && g.wire == PB_LEN &&
		    (rc = parse_metric_list(c, &s, &g, NCU_LIST_METRIC, out, nout)))
			return rc;
	return rc;
}

/* Item filter {1 MinArch, 2 MaxArch} (arch = CC x 10). */
static int parse_item_filter(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f,
			     uint32_t *min, uint32_t *max)
{
	struct pb_reader s;
	struct pb_field g;
	int rc = pb_sub(r, f, &s, c->e);
	if (rc)
		return rc;
	while ((rc = pb_next(&s, &g, c->e)) > 0)
		if ((g.num == NCU_FILTER_MIN_ARCH || g.num == NCU_FILTER_MAX_ARCH) &&
		    g.wire == PB_VARINT)
			*(g.num == NCU_FILTER_MIN_ARCH ? min : max) = (uint32_t)g.u;
	return rc;
}

static int parse_item_kind(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f,
			   struct items *it)
{
	struct pb_reader s;
	struct pb_field g;
	struct ncu_body_item b = {.kind = f->num, .label = ""};
	if (f->wire != PB_LEN || f->num == NCU_ITEM_FILTER)
		return 0; /* a flag-like item or the filter: nothing to list */
	int rc = pb_sub(r, f, &s, c->e);
	if (rc)
		return rc;
	if (f->num == NCU_ITEM_GROUP) { /* nested body items */
		while ((rc = pb_next(&s, &g, c->e)) > 0)
			if (g.num == NCU_GROUP_ITEM && (rc = parse_body_item(c, &s, &g, it)))
				return rc;
		return rc;
	}
	/* where the kind keeps its metric list */
	uint32_t mnum = f->num == NCU_ITEM_TABLE || f->num == NCU_ITEM_BAR_CHART ? NCU_TABLE_METRIC
			: f->num == NCU_ITEM_HISTOGRAM || f->num == NCU_ITEM_LINE_CHART
			    ? NCU_LINE_CHART_METRIC
			: f->num == NCU_ITEM_SOURCE_TABLE ? NCU_SOURCE_TABLE_METRIC
							  : 0;
	if (f->num <= NCU_ITEM_LINE_CHART || f->num == NCU_ITEM_SOURCE_TABLE ||
	    f->num == NCU_ITEM_INSTANCE_TABLE) {
		while ((rc = pb_next(&s, &g, c->e)) > 0)
			if (g.num == NCU_CHART_LABEL && g.wire == PB_LEN &&
			    (rc = want_str(c, &s, &g, &b.label)))
				return rc;
		if (rc)
			return rc;
	}
	if (mnum && (rc = parse_metric_list(c, r, f, mnum, &b.metrics, &b.nmetrics)))
		return rc;
	if (f->num == NCU_ITEM_LINE_CHART &&
	    (rc = parse_nested_list(c, r, f, NCU_LINE_CHART_HIGHLIGHT, &b.extra, &b.nextra)))
		return rc;
	if (f->num == NCU_ITEM_INSTANCE_TABLE &&
	    ((rc = parse_nested_list(c, r, f, NCU_INSTANCE_TABLE_ROWS, &b.metrics, &b.nmetrics)) ||
	     (rc = parse_nested_list(c, r, f, NCU_INSTANCE_TABLE_COLUMNS, &b.extra, &b.nextra))))
		return rc;
	return add_item(c, it, &b, f->off);
}

static int parse_body_item(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f,
			   struct items *it)
{
	struct pb_reader s;
	struct pb_field g;
	uint32_t min = 0, max = 0;
	size_t first = it->n;
	int rc = pb_sub(r, f, &s, c->e);
	if (rc)
		return rc;
	while ((rc = pb_next(&s, &g, c->e)) > 0) {
		if (g.num == NCU_ITEM_FILTER && g.wire == PB_LEN)
			rc = parse_item_filter(c, &s, &g, &min, &max);
		else
			rc = parse_item_kind(c, &s, &g, it);
		if (rc)
			return rc;
	}
	for (size_t k = first; k < it->n; k++) {
		if (min)
			it->v[k].min_arch = min;
		if (max)
			it->v[k].max_arch = max;
	}
	return rc;
}

static int parse_source_metric(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f,
			       struct ncu_section *sec)
{
	struct ncu_sec_metric *v = NULL;
	size_t n = 0;
	int rc = parse_metric_list(c, r, f, NCU_LIST_METRIC, &v, &n);
	if (rc || !n)
		return rc;
	struct ncu_sec_metric *all = ARENA_ARRAY(c, sec->nsource + n, all);
	if (!all)
		return ncu_nomem(c, f->off);
	if (sec->nsource)
		memcpy(all, sec->source, sec->nsource * sizeof *all);
	memcpy(all + sec->nsource, v, n * sizeof *all);
	sec->source = all;
	sec->nsource += n;
	return 0;
}

static int parse_section(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f,
			 struct ncu_section *sec)
{
	struct pb_reader s, b;
	struct pb_field g, h;
	struct items it = {0};
	memset(sec, 0, sizeof *sec);
	sec->id = sec->name = sec->description = "";
	int rc = pb_sub(r, f, &s, c->e);
	if (rc)
		return rc;
	while (!rc && (rc = pb_next(&s, &g, c->e)) > 0) {
		rc = 0;
		switch (g.num) {
		case NCU_SECTION_ID:
			rc = want_str(c, &s, &g, &sec->id);
			break;
		case NCU_SECTION_NAME:
			rc = want_str(c, &s, &g, &sec->name);
			break;
		case NCU_SECTION_ORDER:
			rc = want_u32(c, &s, &g, &sec->order);
			break;
		case NCU_SECTION_HEADER:
			rc = parse_metric_list(c, &s, &g, NCU_HEADER_METRIC, &sec->header,
					       &sec->nheader);
			break;
		case NCU_SECTION_METRICS:
			rc = parse_metric_list(c, &s, &g, NCU_METRICS_METRIC, &sec->extra,
					       &sec->nextra);
			break;
		case NCU_SECTION_DESCRIPTION:
			rc = want_str(c, &s, &g, &sec->description);
			break;
		case NCU_SECTION_SOURCE_METRICS:
			/* repeated: one metric per field, appended */
			rc = parse_source_metric(c, &s, &g, sec);
			break;
		case NCU_SECTION_BODY:
			if ((rc = pb_sub(&s, &g, &b, c->e)))
				break;
			while ((rc = pb_next(&b, &h, c->e)) > 0)
				if (h.num == NCU_BODY_ITEM &&
				    (rc = parse_body_item(c, &b, &h, &it)))
					break;
			break;
		default:
			break;
		}
	}
	if (!rc && it.n) {
		sec->body = ARENA_ARRAY(c, it.n, sec->body);
		if (!sec->body)
			rc = ncu_nomem(c, f->off);
		else
			memcpy(sec->body, it.v, it.n * sizeof *it.v);
		sec->nbody = it.n;
	}
	vec_free(it);
	return rc;
}

/* RuleResultMessage {1 text, 2 type, 3 id, 4 title} */
static int parse_rule_msg(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f,
			  struct ncu_rule_msg *m)
{
	struct pb_reader s;
	struct pb_field g;
	memset(m, 0, sizeof *m);
	m->text = m->title = "";
	int rc = pb_sub(r, f, &s, c->e);
	if (rc)
		return rc;
	while ((rc = pb_next(&s, &g, c->e)) > 0) {
		rc = 0;
		if (g.num == NCU_MESSAGE_TEXT || g.num == NCU_MESSAGE_TITLE)
			rc = want_str(c, &s, &g, g.num == NCU_MESSAGE_TEXT ? &m->text : &m->title);
		else if (g.num == NCU_MESSAGE_TYPE || g.num == NCU_MESSAGE_ID)
			rc = want_u32(c, &s, &g, g.num == NCU_MESSAGE_TYPE ? &m->type : &m->id);
		if (rc)
			return rc;
	}
	return rc;
}

static int parse_speedup(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f,
			 struct ncu_rule_msg *m)
{
	struct pb_reader s;
	struct pb_field g;
	int rc = pb_sub(r, f, &s, c->e);
	if (rc)
		return rc;
	while ((rc = pb_next(&s, &g, c->e)) > 0) {
		if (g.num == NCU_SPEEDUP_TYPE) {
			if ((rc = want_u32(c, &s, &g, &m->speedup_type)))
				return rc;
		} else if (g.num == NCU_SPEEDUP_VALUE) {
			if ((rc = ncu_want(&s, &g, PB_I64, c->e)))
				return rc;
			m->speedup_pct = pb_double(&g);
		}
	}
	return rc;
}

static int parse_rule_body(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f,
			   struct ncu_rule *ru)
{
	struct pb_reader s, it;
	struct pb_field g, h;
	int rc = pb_sub(r, f, &s, c->e);
	if (rc)
		return rc;
	/* count messages: items (field 1) holding a Message (item field 1) */
	size_t n = 0;
	struct pb_reader q = s;
	while ((rc = pb_next(&q, &g, c->e)) > 0) {
		if (g.num != NCU_RULE_BODY_ITEM)
			continue;
		size_t k;
		if ((rc = pb_sub(&q, &g, &it, c->e)) ||
		    (rc = ncu_count(&it, NCU_RULE_ITEM_MESSAGE, &k, c->e)))
			return rc;
		n += k;
	}
	if (rc)
		return rc;
	ru->msgs = ARENA_ARRAY(c, n, ru->msgs);
	if (!ru->msgs)
		return ncu_nomem(c, f->off);
	while ((rc = pb_next(&s, &g, c->e)) > 0) {
		if (g.num != NCU_RULE_BODY_ITEM)
			continue;
		if ((rc = pb_sub(&s, &g, &it, c->e)))
			return rc;
		while ((rc = pb_next(&it, &h, c->e)) > 0) {
			rc = 0;
			if (h.num == NCU_RULE_ITEM_MESSAGE)
				rc = parse_rule_msg(c, &it, &h, &ru->msgs[ru->nmsgs++]);
			else if (h.num == NCU_RULE_ITEM_SPEEDUP && ru->nmsgs)
				rc = parse_speedup(c, &it, &h, &ru->msgs[ru->nmsgs - 1]);
			if (rc)
				return rc;
		}
		if (rc)
			return rc;
	}
	return rc;
}

static int parse_rule(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f,
		      struct ncu_rule *ru)
{
	struct pb_reader s;
	struct pb_field g;
	memset(ru, 0, sizeof *ru);
	ru->id = ru->name = ru->section_id = "";
	int rc = pb_sub(r, f, &s, c->e);
	if (rc)
		return rc;
	while ((rc = pb_next(&s, &g, c->e)) > 0) {
		rc = 0;
		switch (g.num) {
		case NCU_RULE_ID:
			rc = want_str(c, &s, &g, &ru->id);
			break;
		case NCU_RULE_NAME:
			rc = want_str(c, &s, &g, &ru->name);
			break;
		case NCU_RULE_BODY:
			rc = parse_rule_body(c, &s, &g, ru);
			break;
		case NCU_RULE_SECTION_ID:
			rc = want_str(c, &s, &g, &ru->section_id);
			break;
		default:
			break;
		}
		if (rc)
			return rc;
	}
	return rc;
}

/* Metric checking without decoding: a bounds-checked walk of the usual
 * layout (one-byte keys of the known fields, well-formed varints and
 * lengths). It accepts only what parse_metric accepts; anything else
 * (unknown fields, other wire types, bad bytes) goes through parse_metric,
 * which gives the same result or error as ever. */
static bool fast_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	const uint8_t *q = *p;
	if (q < end && !(*q & 0x80)) {
		*v = *q;
		*p = q + 1;
		return true;
	}
	if (end - q >= 2 && !(q[1] & 0x80)) { /* string ids past 127 */
		*v = (uint64_t)(q[0] & 0x7f) | (uint64_t)q[1] << 7;
		*p = q + 2;
		return true;
	}
	return pb_varint(p, end, v) == 0;
}

static bool fast_len(const uint8_t **p, const uint8_t *end, const uint8_t **body)
{
	uint64_t n;
	if (!fast_varint(p, end, &n) || n > (uint64_t)(end - *p))
		return false;
	*body = *p;
	*p += n;
	return true;
}

/* A MetricValueMessage {1 string, 2 float, 3 double, 4 uint32, 5 uint64}. */
static bool fast_value(const uint8_t *q, const uint8_t *end)
{
	const uint8_t *b;
	uint64_t v;
	while (q < end) {
		switch (*q++) {
		case NCU_KEY(NCU_VALUE_STRING, PB_LEN):
			if (!fast_len(&q, end, &b))
				return false;
			break;
		case NCU_KEY(NCU_VALUE_FLOAT, PB_I32):
			if (end - q < 4)
				return false;
			q += 4;
			break;
		case NCU_KEY(NCU_VALUE_DOUBLE, PB_I64):
			if (end - q < 8)
				return false;
			q += 8;
			break;
		case NCU_KEY(NCU_VALUE_U32, PB_VARINT):
		case NCU_KEY(NCU_VALUE_U64, PB_VARINT):
			if (!fast_varint(&q, end, &v))
				return false;
			break;
		default:
			return false;
		}
	}
	return true;
}

/* A metric {1 name id, 2 value, 3 instance {1 corr, 2 value}, 4 kind}. */
static bool fast_metric(const uint8_t *q, const uint8_t *end, uint32_t *name_id)
{
	const uint8_t *b, *ie, *vb;
	uint64_t v;
	while (q < end) {
		switch (*q++) {
		case NCU_KEY(NCU_METRIC_NAME_ID, PB_VARINT):
			if (!fast_varint(&q, end, &v))
				return false;
			*name_id = (uint32_t)v;
			break;
		case NCU_KEY(NCU_METRIC_KIND, PB_VARINT):
			if (!fast_varint(&q, end, &v))
				return false;
			break;
		case NCU_KEY(NCU_METRIC_VALUE, PB_LEN):
			/* the usual value, one double: 9 bytes, key and 8 */
			if (end - q >= 10 && q[0] == 9 &&
			    q[1] == NCU_KEY(NCU_VALUE_DOUBLE, PB_I64)) {
				q += 10;
				break;
			}
			if (!fast_len(&q, end, &b) || !fast_value(b, q))
				return false;
			break;
		case NCU_KEY(NCU_METRIC_INSTANCE, PB_LEN):
			if (!fast_len(&q, end, &b))
				return false;
			for (ie = q; b < ie;) {
				if ((*b != NCU_KEY(NCU_INSTANCE_CORR, PB_LEN) &&
				     *b != NCU_KEY(NCU_INSTANCE_VALUE, PB_LEN)) ||
				    (b++, !fast_len(&b, ie, &vb)) || !fast_value(vb, b))
					return false;
			}
			break;
		default:
			return false;
		}
	}
	return true;
}

/* Checks metric field f of result res and records its reference. */
static int scan_metric(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f,
		       struct ncu_result *res, struct ncu_mref *m)
{
	m->name_id = 0;
	m->off = (uint32_t)(f->off - (res->offset + 4));
	if (f->wire == PB_LEN && r->depth < PB_MAX_DEPTH - 2 &&
	    fast_metric(f->data, f->data + f->len, &m->name_id))
		return 0;
	struct ncu_metric tmp;
	int rc = parse_metric(c, r, f, &tmp);
	m->name_id = tmp.name_id;
	return rc;
}

/* Decoded metrics of a result: the first few one by one (`list` asks for
 * ~10), then all at once. */
#define NCU_SMALL_CACHE 16
struct ncu_mcache {
	struct ncu_metric *full; /* all nmetrics, once more were asked for */
	size_t n;
	uint32_t k[NCU_SMALL_CACHE];
	struct ncu_metric *m[NCU_SMALL_CACHE];
};

const char *ncu_metric_name(const struct ncu_report *r, const struct ncu_result *res, size_t k)
{
	uint32_t id = res->metrics[k].name_id;
	return id < r->nstrings ? r->strings[id] : "";
}

static int decode_metric(struct ncu_report *r, const struct ncu_result *res, size_t k,
			 struct ncu_metric *m)
{
	struct err e;
	struct ncu_ctx c = {.r = r, .e = &e, .path = r->path};
	struct pb_reader rd;
	struct pb_field f;
	size_t off = res->metrics[k].off;
	pb_init(&rd, res->data + off, res->data_len - off, res->offset + 4 + (int64_t)off, r->path);
	if (pb_next(&rd, &f, &e) <= 0 || parse_metric(&c, &rd, &f, m))
		return -1;
	m->name = ncu_metric_name(r, res, k);
	return 0;
}

const struct ncu_metric *ncu_metric_at(struct ncu_report *r, size_t idx, size_t k)
{
	if (idx >= r->nresults || k >= r->results[idx].nmetrics)
		return NULL;
	struct ncu_result *res = &r->results[idx];
	struct ncu_mcache *mc = res->cache;
	if (!mc && !(mc = res->cache = arena_zalloc(&r->arena, sizeof *mc)))
		return NULL;
	if (mc->full)
		return &mc->full[k];
	for (size_t i = 0; i < mc->n; i++)
		if (mc->k[i] == k)
			return mc->m[i];
	if (mc->n < NCU_SMALL_CACHE) {
		struct ncu_metric *m = arena_alloc(&r->arena, sizeof *m);
		if (!m || decode_metric(r, res, k, m))
			return NULL;
		mc->k[mc->n] = (uint32_t)k;
		mc->m[mc->n++] = m;
		return m;
	}
	struct ncu_metric *all = arena_array(&r->arena, res->nmetrics, sizeof *all);
	if (!all)
		return NULL;
	for (size_t i = 0; i < res->nmetrics; i++)
		if (decode_metric(r, res, i, &all[i]))
			return NULL;
	mc->full = all;
	return &all[k];
}

/* The arena's copy of the n elements (size bytes each) at scratch, or
 * NULL when out of memory. */
static void *keep(struct ncu_ctx *c, const void *scratch, size_t n, size_t size)
{
	void *p = arena_array(&c->r->arena, n ? n : 1, size);
	if (p && n)
		memcpy(p, scratch, n * size);
	return p;
}

/* One walk of the result's fields: its metrics, sections and rules gather
 * in the context's scratch arrays (reused from result to result), then
 * move into the arena at their count. */
int ncu_parse_result(struct ncu_ctx *c, struct pb_reader *r, struct ncu_result *res)
{
	struct pb_field f;
	int rc;
	c->mscratch.n = c->sscratch.n = c->rscratch.n = 0;
	res->mangled = res->function = res->demangled = "";
	while ((rc = pb_next(r, &f, c->e)) > 0) {
		rc = 0;
		switch (f.num) {
		case NCU_RESULT_THREAD_ID:
			rc = want_u32(c, r, &f, &res->thread_id);
			break;
		case NCU_RESULT_API_CALL_ID:
			rc = want_u64(c, r, &f, &res->api_call_id);
			break;
		case NCU_RESULT_PROGRAM_HANDLE:
			rc = want_u64(c, r, &f, &res->program_handle);
			break;
		case NCU_RESULT_KERNEL_ID:
			rc = want_u64(c, r, &f, &res->kernel_id);
			break;
		case NCU_RESULT_MANGLED:
			rc = want_str(c, r, &f, &res->mangled);
			break;
		case NCU_RESULT_FUNCTION:
			rc = want_str(c, r, &f, &res->function);
			break;
		case NCU_RESULT_DEMANGLED:
			rc = want_str(c, r, &f, &res->demangled);
			break;
		case NCU_RESULT_GRID:
			rc = parse_xyz(c, r, &f, res->grid_raw);
			break;
		case NCU_RESULT_BLOCK:
			rc = parse_xyz(c, r, &f, res->block);
			break;
		case NCU_RESULT_METRIC: {
			struct ncu_mref *m = vec_add(c->mscratch, NCU_MAX_ENTRIES);
			rc = m ? scan_metric(c, r, &f, res, m) : ncu_nomem(c, f.off);
			break;
		}
		case NCU_RESULT_CREATION_TIME:
			rc = want_u64(c, r, &f, &res->creation_time);
			break;
		case NCU_RESULT_SOURCE:
			rc = parse_ref(c, r, &f, &res->source_ref);
			break;
		case NCU_RESULT_SECTION: {
			struct ncu_section *sec = vec_add(c->sscratch, NCU_MAX_ENTRIES);
			rc = sec ? parse_section(c, r, &f, sec) : ncu_nomem(c, f.off);
			break;
		}
		case NCU_RESULT_RULE: {
			struct ncu_rule *ru = vec_add(c->rscratch, NCU_MAX_ENTRIES);
			rc = ru ? parse_rule(c, r, &f, ru) : ncu_nomem(c, f.off);
			break;
		}
		case NCU_RESULT_CONTEXT:
			rc = want_u32(c, r, &f, &res->context);
			res->has_context = true;
			break;
		case NCU_RESULT_STREAM:
			rc = want_u32(c, r, &f, &res->stream);
			res->has_stream = true;
			break;
		default:
			break;
		}
		if (rc)
			return rc;
	}
	if (rc)
		return rc;
	res->nmetrics = c->mscratch.n;
	res->nsections = c->sscratch.n;
	res->nrules = c->rscratch.n;
	res->metrics = keep(c, c->mscratch.v, res->nmetrics, sizeof *res->metrics);
	res->sections = keep(c, c->sscratch.v, res->nsections, sizeof *res->sections);
	res->rules = keep(c, c->rscratch.v, res->nrules, sizeof *res->rules);
	if (!res->metrics || !res->sections || !res->rules)
		return ncu_nomem(c, pb_offset(r));
	return 0;
}
