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
		if (g.num >= 1 && g.num <= 3 && (rc = want_u64(c, &s, &g, &xyz[g.num - 1])))
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
		if (g.num == 1 && (rc = want_u64(c, &s, &g, ref)))
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
	if (rc || (rc = ncu_count(&s, 3, &m->ninst, c->e)))
		return rc;
	if (m->ninst && !(m->inst = ARENA_ARRAY(c, m->ninst, m->inst)))
		return ncu_nomem(c, f->off);
	size_t k = 0;
	while ((rc = pb_next(&s, &g, c->e)) > 0) {
		rc = 0;
		switch (g.num) {
		case 1:
			rc = want_u32(c, &s, &g, &m->name_id);
			break;
		case 2:
			rc = ncu_parse_value(c, &s, &g, &m->value);
			break;
		case 3: {
			struct ncu_instance *in = &m->inst[k++];
			memset(in, 0, sizeof *in);
			if ((rc = pb_sub(&s, &g, &a, c->e)))
				return rc;
			while ((rc = pb_next(&a, &h, c->e)) > 0) {
				rc = 0;
				if (h.num == 1 || h.num == 2)
					rc = ncu_parse_value(c, &a, &h,
							     h.num == 1 ? &in->corr : &in->value);
				if (rc)
					return rc;
			}
			break;
		}
		case 4:
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
		if ((g.num == 1 || g.num == 2) &&
		    (rc = want_str(c, &s, &g, g.num == 1 ? &sm->name : &sm->label)))
			return rc;
		if (g.num == 4 && g.wire == PB_VARINT)
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
		    (rc = parse_metric_list(c, &s, &g, 1, out, nout)))
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
		if ((g.num == 1 || g.num == 2) && g.wire == PB_VARINT)
			*(g.num == 1 ? min : max) = (uint32_t)g.u;
	return rc;
}

static int parse_item_kind(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f,
			   struct items *it)
{
	struct pb_reader s;
	struct pb_field g;
	struct ncu_body_item b = {.kind = f->num, .label = ""};
	if (f->wire != PB_LEN || f->num == 200)
		return 0; /* a flag-like item or the filter: nothing to list */
	int rc = pb_sub(r, f, &s, c->e);
	if (rc)
		return rc;
	if (f->num == 5) { /* group: nested body items */
		while ((rc = pb_next(&s, &g, c->e)) > 0)
			if (g.num == 1 && (rc = parse_body_item(c, &s, &g, it)))
				return rc;
		return rc;
	}
	/* metric list field: table/bar chart 5, line chart/histogram 4,
	 * source table 3 */
	uint32_t mnum = f->num == 1 || f->num == 2   ? 5
			: f->num == 3 || f->num == 4 ? 4
			: f->num == 7		     ? 3
						     : 0;
	if (f->num <= 4 || f->num == 7 || f->num == 8) {
		while ((rc = pb_next(&s, &g, c->e)) > 0)
			if (g.num == 1 && g.wire == PB_LEN && (rc = want_str(c, &s, &g, &b.label)))
				return rc;
		if (rc)
			return rc;
	}
	if (mnum && (rc = parse_metric_list(c, r, f, mnum, &b.metrics, &b.nmetrics)))
		return rc;
	if (f->num == 4 && (rc = parse_nested_list(c, r, f, 5, &b.extra, &b.nextra)))
		return rc;
	if (f->num == 8 && ((rc = parse_nested_list(c, r, f, 3, &b.metrics, &b.nmetrics)) ||
			    (rc = parse_nested_list(c, r, f, 2, &b.extra, &b.nextra))))
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
		if (g.num == 200 && g.wire == PB_LEN)
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
	int rc = parse_metric_list(c, r, f, 1, &v, &n);
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
		case 1:
			rc = want_str(c, &s, &g, &sec->id);
			break;
		case 2:
			rc = want_str(c, &s, &g, &sec->name);
			break;
		case 3:
			rc = want_u32(c, &s, &g, &sec->order);
			break;
		case 4:
			rc = parse_metric_list(c, &s, &g, 2, &sec->header, &sec->nheader);
			break;
		case 6:
			rc = parse_metric_list(c, &s, &g, 1, &sec->extra, &sec->nextra);
			break;
		case 7:
			rc = want_str(c, &s, &g, &sec->description);
			break;
		case 13:
			/* repeated: one metric per field, appended */
			rc = parse_source_metric(c, &s, &g, sec);
			break;
		case 5:
			if ((rc = pb_sub(&s, &g, &b, c->e)))
				break;
			while ((rc = pb_next(&b, &h, c->e)) > 0)
				if (h.num == 1 && (rc = parse_body_item(c, &b, &h, &it)))
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
		if (g.num == 1 || g.num == 4)
			rc = want_str(c, &s, &g, g.num == 1 ? &m->text : &m->title);
		else if (g.num == 2 || g.num == 3)
			rc = want_u32(c, &s, &g, g.num == 2 ? &m->type : &m->id);
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
		if (g.num == 1) {
			if ((rc = want_u32(c, &s, &g, &m->speedup_type)))
				return rc;
		} else if (g.num == 2) {
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
		if (g.num != 1)
			continue;
		size_t k;
		if ((rc = pb_sub(&q, &g, &it, c->e)) || (rc = ncu_count(&it, 1, &k, c->e)))
			return rc;
		n += k;
	}
	if (rc)
		return rc;
	ru->msgs = ARENA_ARRAY(c, n, ru->msgs);
	if (!ru->msgs)
		return ncu_nomem(c, f->off);
	while ((rc = pb_next(&s, &g, c->e)) > 0) {
		if (g.num != 1)
			continue;
		if ((rc = pb_sub(&s, &g, &it, c->e)))
			return rc;
		while ((rc = pb_next(&it, &h, c->e)) > 0) {
			rc = 0;
			if (h.num == 1)
				rc = parse_rule_msg(c, &it, &h, &ru->msgs[ru->nmsgs++]);
			else if (h.num == 10 && ru->nmsgs)
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
		case 1:
			rc = want_str(c, &s, &g, &ru->id);
			break;
		case 2:
			rc = want_str(c, &s, &g, &ru->name);
			break;
		case 3:
			rc = parse_rule_body(c, &s, &g, ru);
			break;
		case 4:
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
		case 0x0a:
			if (!fast_len(&q, end, &b))
				return false;
			break;
		case 0x15:
			if (end - q < 4)
				return false;
			q += 4;
			break;
		case 0x19:
			if (end - q < 8)
				return false;
			q += 8;
			break;
		case 0x20:
		case 0x28:
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
		case 0x08:
			if (!fast_varint(&q, end, &v))
				return false;
			*name_id = (uint32_t)v;
			break;
		case 0x20:
			if (!fast_varint(&q, end, &v))
				return false;
			break;
		case 0x12:
			if (!fast_len(&q, end, &b) || !fast_value(b, q))
				return false;
			break;
		case 0x1a:
			if (!fast_len(&q, end, &b))
				return false;
			for (ie = q; b < ie;) {
				if ((*b != 0x0a && *b != 0x12) || (b++, !fast_len(&b, ie, &vb)) ||
				    !fast_value(vb, b))
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

int ncu_parse_result(struct ncu_ctx *c, struct pb_reader *r, struct ncu_result *res)
{
	struct pb_field f;
	int rc;
	{
		struct pb_reader q = *r;
		res->nmetrics = res->nsections = res->nrules = 0;
		while ((rc = pb_next(&q, &f, c->e)) > 0)
			if (f.num == 13)
				res->nmetrics++;
			else if (f.num == 17)
				res->nsections++;
			else if (f.num == 19)
				res->nrules++;
		if (rc)
			return rc;
	}
	res->metrics = ARENA_ARRAY(c, res->nmetrics, res->metrics);
	res->sections = ARENA_ARRAY(c, res->nsections, res->sections);
	res->rules = ARENA_ARRAY(c, res->nrules, res->rules);
	if (!res->metrics || !res->sections || !res->rules)
		return ncu_nomem(c, pb_offset(r));
	res->mangled = res->function = res->demangled = "";
	size_t km = 0, ks = 0, kr = 0;
	while ((rc = pb_next(r, &f, c->e)) > 0) {
		rc = 0;
		switch (f.num) {
		case 1:
			rc = want_u32(c, r, &f, &res->thread_id);
			break;
		case 2:
			rc = want_u64(c, r, &f, &res->api_call_id);
			break;
		case 3:
			rc = want_u64(c, r, &f, &res->program_handle);
			break;
		case 4:
			rc = want_u64(c, r, &f, &res->kernel_id);
			break;
		case 5:
			rc = want_str(c, r, &f, &res->mangled);
			break;
		case 6:
			rc = want_str(c, r, &f, &res->function);
			break;
		case 7:
			rc = want_str(c, r, &f, &res->demangled);
			break;
		case 10:
			rc = parse_xyz(c, r, &f, res->grid_raw);
			break;
		case 11:
			rc = parse_xyz(c, r, &f, res->block);
			break;
		case 13:
			rc = scan_metric(c, r, &f, res, &res->metrics[km++]);
			break;
		case 14:
			rc = want_u64(c, r, &f, &res->creation_time);
			break;
		case 15:
			rc = parse_ref(c, r, &f, &res->source_ref);
			break;
		case 17:
			rc = parse_section(c, r, &f, &res->sections[ks++]);
			break;
		case 19:
			rc = parse_rule(c, r, &f, &res->rules[kr++]);
			break;
		case 22:
			rc = want_u32(c, r, &f, &res->context);
			res->has_context = true;
			break;
		case 23:
			rc = want_u32(c, r, &f, &res->stream);
			res->has_stream = true;
			break;
		default:
			break;
		}
		if (rc)
			return rc;
	}
	return rc;
}
