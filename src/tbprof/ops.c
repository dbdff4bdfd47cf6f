/* ops: the Operator view's groups; see ops.h. One pass over the tree's
 * post-order with hash lookups per operator, then a sort of the groups. */
#include "core/sort.h"
#include "tbprof/ops.h"
#include "tbprof/tbtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/jscan.h"
#include "core/hmap.h"

static int text_put(struct ops_view *v, const char *s, size_t n)
{
	if (v->text_len + n + 1 > v->text_cap) {
		size_t cap = v->text_cap ? v->text_cap : 256;
		while (cap < v->text_len + n + 1)
			cap *= 2;
		if (cap > UINT32_MAX)
			return -1;
		char *nt = realloc(v->text, cap);
		if (!nt)
			return -1;
		v->text = nt;
		v->text_cap = cap;
	}
	memcpy(v->text + v->text_len, s, n);
	v->text_len += n;
	v->text[v->text_len] = 0;
	return 0;
}

static int text_str(struct ops_view *v, const char *s)
{
	return text_put(v, s, strlen(s));
}

/* ---- Python repr of a JSON value (the input shapes) */

struct pyr {
	struct ops_view *v;
	const char *p, *end;
	int depth;
};

static void skip_ws(struct pyr *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

/* A JSON string at r->p (after the quote) as Python's repr: single quotes
 * unless the text holds ' and no ", escapes for \\, the quote, \n \r \t and
 * other control bytes (\xNN). The JSON escapes are decoded by the scanner
 * (the text was read by it at import, so the string is complete). */
static int py_string(struct pyr *r)
{
	struct jscan j = {.base = r->p - 1, .p = r->p - 1, .end = r->end};
	struct jstr js;
	if (jscan_string(&j, &js)) { /* cannot happen for imported text: take the rest */
		js = (struct jstr){r->p, (size_t)(r->end - r->p), false};
		j.p = r->end;
	}
	r->p = j.p;
	size_t cap = js.len * 4 + 8;
	char *buf = malloc(cap);
	if (!buf)
		return -1;
	long dec = js.escaped ? jscan_unescape(&js, buf, cap) : -1;
	size_t n = dec >= 0 ? (size_t)dec : js.len;
	if (dec < 0)
		memcpy(buf, js.s, js.len);
	bool sq = false, dq = false;
	for (size_t i = 0; i < n; i++) {
		sq |= buf[i] == '\'';
		dq |= buf[i] == '"';
	}
	char q = sq && !dq ? '"' : '\'';
	int rc = text_put(r->v, &q, 1);
	for (size_t i = 0; i < n && !rc; i++) {
		unsigned char c = (unsigned char)buf[i];
		char esc[8];
		if (c == '\\' || c == (unsigned char)q) {
			esc[0] = '\\';
			esc[1] = (char)c;
			rc = text_put(r->v, esc, 2);
		} else if (c == '\n' || c == '\r' || c == '\t') {
			esc[0] = '\\';
			esc[1] = c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
			rc = text_put(r->v, esc, 2);
		} else if (c < 0x20 || c == 0x7F) {
			snprintf(esc, sizeof esc, "\\x%02x", c);
			rc = text_put(r->v, esc, 4);
		} else {
			rc = text_put(r->v, (const char *)&buf[i], 1);
		}
	}
	free(buf);
	return rc ? rc : text_put(r->v, &q, 1);
}

/* Python's repr of a float: the shortest digits that read back, fixed
 * notation for exponents -4..15 (always with a fraction), else d.ddde+XX. */
static int py_float(struct pyr *r, double x)
{
	char out[64];
	if (isinf(x) || isnan(x)) {
		snprintf(out, sizeof out, "%s", isnan(x) ? "nan" : x > 0 ? "inf" : "-inf");
		return text_str(r->v, out);
	}
	char e[40];
	for (int p = 0; p < 17; p++) {
		snprintf(e, sizeof e, "%.*e", p, x);
		if (strtod(e, NULL) == x)
			break;
	}
	/* e = [-]d[.ddd]e[+-]XX */
	char digits[24] = {0};
	size_t nd = 0;
	const char *s = e;
	bool neg = *s == '-';
	if (neg)
		s++;
	for (; *s && *s != 'e'; s++)
		if (*s != '.')
			digits[nd++] = *s;
	int exp = atoi(s + 1);
	size_t o = 0;
	if (neg)
		out[o++] = '-';
	if (exp >= -4 && exp < 16) {
		if (exp < 0) {
			out[o++] = '0';
			out[o++] = '.';
			for (int i = -1; i > exp; i--)
				out[o++] = '0';
			for (size_t i = 0; i < nd; i++)
				out[o++] = digits[i];
		} else {
			for (int i = 0; i <= exp; i++)
				out[o++] = (size_t)i < nd ? digits[i] : '0';
			out[o++] = '.';
			if ((size_t)exp + 1 < nd)
				for (size_t i = (size_t)exp + 1; i < nd; i++)
					out[o++] = digits[i];
			else
				out[o++] = '0';
		}
		out[o] = 0;
	} else {
		out[o++] = digits[0];
		if (nd > 1) {
			out[o++] = '.';
			for (size_t i = 1; i < nd; i++)
				out[o++] = digits[i];
		}
		snprintf(out + o, sizeof out - o, "e%c%02d", exp < 0 ? '-' : '+', abs(exp));
	}
	return text_str(r->v, out);
}

static int py_value(struct pyr *r)
{
	skip_ws(r);
	if (r->p >= r->end)
		return 0;
	char c = *r->p;
	if ((c == '[' || c == '{') && r->depth < 64) {
		char close = c == '[' ? ']' : '}';
		r->p++;
		r->depth++;
		int rc = text_put(r->v, &c, 1);
		bool first = true;
		for (;;) {
			skip_ws(r);
			if (rc || r->p >= r->end || *r->p == close)
				break;
			if (*r->p == ',') {
				r->p++;
				continue;
			}
			if (!first)
				rc = text_str(r->v, ", ");
			first = false;
			if (!rc)
				rc = py_value(r);
			skip_ws(r);
			if (!rc && c == '{' && r->p < r->end && *r->p == ':') {
				r->p++;
				rc = text_str(r->v, ": ");
				if (!rc)
					rc = py_value(r);
			}
		}
		if (r->p < r->end)
			r->p++;
		r->depth--;
		return rc ? rc : text_put(r->v, &close, 1);
	}
	if (c == '"') {
		r->p++;
		return py_string(r);
	}
	const char *start = r->p;
	bool is_float = false;
	while (r->p < r->end && !strchr(",]}: \t\r\n", *r->p)) {
		is_float |= *r->p == '.' || *r->p == 'e' || *r->p == 'E';
		r->p++;
	}
	size_t n = (size_t)(r->p - start);
	if (n == 4 && !memcmp(start, "true", 4))
		return text_str(r->v, "True");
	if (n == 5 && !memcmp(start, "false", 5))
		return text_str(r->v, "False");
	if (n == 4 && !memcmp(start, "null", 4))
		return text_str(r->v, "None");
	if (is_float && n < 64) {
		char num[64];
		memcpy(num, start, n);
		num[n] = 0;
		return py_float(r, strtod(num, NULL));
	}
	return text_put(r->v, start, n);
}

long ops_pyrepr(struct ops_view *v, const char *json, size_t len)
{
	size_t at = v->text_len;
	struct pyr r = {.v = v, .p = json, .end = json + len};
	if (py_value(&r) || text_put(v, "", 1)) /* keep the NUL */
		return -1;
	return (long)at;
}

/* ---- grouping */

struct grouper {
	const struct optree *o;
	struct ops_view *v;
	const struct ops_opts *opts;
	struct hmap groups; /* key -> row */
	struct hmap dims;   /* input-dims string id -> dims[] index */
	struct hmap texts;  /* shape text -> offset (dedup) */
	struct dim_text {
		uint32_t id, off;
	} * dims_v;
	size_t ndims, cap_dims;
	size_t cap_rows;
	/* under tb_compat: nodes' device times and the rows' sums in tb's
	 * float64 µs (optree_tb_times), which become the rows' ns at the end */
	const struct optree_tbd *tb_dev;
	struct optree_tbf *tb_sum;
	/* key sought */
	uint32_t name, shape, stack;
	const char *text; /* shape text sought in texts */
};

static bool dims_eq(const void *ctx, uint32_t v)
{
	const struct grouper *g = ctx;
	return g->dims_v[v].id == g->shape;
}

static bool text_eq(const void *ctx, uint32_t v)
{
	const struct grouper *g = ctx;
	return !strcmp(g->v->text + v, g->text);
}

static bool group_eq(const void *ctx, uint32_t v)
{
	const struct grouper *g = ctx;
	const struct ops_row *r = &g->v->rows[v];
	return r->name == g->name && r->shape == g->shape && r->call_stack == g->stack;
}

/* Offset of the shape text of op row `row` (its input dims as Python
 * shows them), one copy per distinct text. */
static long shape_of(struct grouper *g, uint32_t row)
{
	const struct trace *t = g->o->t;
	uint32_t aux = t->ev.aux[row], id = 0;
	if (aux != TR_NONE && aux < t->op.n)
		id = t->op.v[aux].input_dims;
	g->shape = id;
	uint64_t h = hmap_hash(id);
	uint32_t k = hmap_get(&g->dims, h, dims_eq, g);
	if (k != UINT32_MAX)
		return g->dims_v[k].off;
	size_t at = g->v->text_len;
	long off = id ? ops_pyrepr(g->v, tr_str(t, id), strpool_len(&t->pool, id))
		      : (text_str(g->v, "[]") || text_put(g->v, "", 1) ? -1 : (long)at);
	if (off < 0)
		return -1;
	g->text = g->v->text + off;
	uint64_t th = hmap_hash(strpool_hash(g->text, strlen(g->text)));
	uint32_t same = hmap_get(&g->texts, th, text_eq, g);
	if (same != UINT32_MAX) {
		g->v->text_len = at; /* drop the duplicate */
		off = same;
	} else if (hmap_put(&g->texts, th, (uint32_t)off)) {
		return -1;
	}
	if (g->ndims == g->cap_dims) {
		size_t cap = g->cap_dims ? g->cap_dims * 2 : 64;
		struct dim_text *nd = realloc(g->dims_v, cap * sizeof *nd);
		if (!nd)
			return -1;
		g->dims_v = nd;
		g->cap_dims = cap;
	}
	g->dims_v[g->ndims] = (struct dim_text){id, (uint32_t)off};
	if (hmap_put(&g->dims, h, (uint32_t)g->ndims++))
		return -1;
	return off;
}

static int add_op(struct grouper *g, uint32_t id)
{
	const struct optree *o = g->o;
	const struct trace *t = o->t;
	const struct optree_node *nd = &o->nodes[id];
	uint32_t stack = 0;
	uint32_t aux = t->ev.aux[nd->row];
	if (aux != TR_NONE && aux < t->op.n)
		stack = t->op.v[aux].call_stack;
	g->name = nd->name;
	g->shape = 0;
	if (g->opts->group == OPS_BY_NAME_SHAPE) {
		long off = shape_of(g, nd->row);
		if (off < 0)
			return -1;
		g->shape = (uint32_t)off;
	}
	g->stack = g->opts->stack ? stack : 0;
	uint64_t h = hmap_hash(g->name) ^ hmap_hash((uint64_t)g->shape << 20 ^ 0x51) ^
		     hmap_hash((uint64_t)g->stack << 40 ^ 0x7f);
	uint32_t k = hmap_get(&g->groups, h | 1, group_eq, g);
	struct ops_view *v = g->v;
	if (k == UINT32_MAX) {
		if (v->n == g->cap_rows) {
			size_t cap = g->cap_rows ? g->cap_rows * 2 : 64;
			struct ops_row *nr = realloc(v->rows, cap * sizeof *nr);
			if (!nr)
				return -1;
			v->rows = nr;
			if (g->tb_dev) {
				struct optree_tbf *ns = realloc(g->tb_sum, cap * sizeof *ns);
				if (!ns)
					return -1;
				g->tb_sum = ns;
			}
			g->cap_rows = cap;
		}
		k = (uint32_t)v->n++;
		if (g->tb_dev)
			g->tb_sum[k] = (struct optree_tbf){0};
		v->rows[k] = (struct ops_row){.name = g->name,
					      .shape = g->shape,
					      .call_stack = g->stack,
					      .order = k,
					      .tc_eligible = nd->tc_eligible};
		if (hmap_put(&g->groups, h | 1, k))
			return -1;
	}
	struct ops_row *r = &v->rows[k];
	if (v->node_group)
		v->node_group[id] = k;
	r->calls++;
	r->host += nd->end - nd->start;
	r->self_host += nd->self_host;
	r->device += nd->device;
	r->self_device += nd->self_device;
	r->tc_self += nd->tc_self;
	r->tc_total += nd->tc_total;
	if (g->tb_dev) {
		struct optree_tbf f = optree_tb_times(o, g->tb_dev, id), *sum = &g->tb_sum[k];
		sum->host += f.host;
		sum->self_host += f.self_host;
		sum->device += f.device;
		sum->self_device += f.self_device;
	}
	r->has_call_stack |= stack != 0 && strpool_len(&t->pool, stack) > 0;
	return 0;
}

int ops_build(const struct optree *o, const struct ops_opts *opts, struct ops_view *out,
	      struct err *e)
{
	memset(out, 0, sizeof *out);
	struct ops_opts def = {0};
	struct grouper g = {.o = o, .v = out, .opts = opts ? opts : &def};
	int rc = 0;
	if (hmap_init(&g.groups, 256) || hmap_init(&g.dims, 64) || hmap_init(&g.texts, 64) ||
	    text_put(out, "", 1)) {
		rc = -1;
	}
	if (!rc && g.opts->node_groups) {
		out->node_group = malloc((o->nnodes ? o->nnodes : 1) * sizeof *out->node_group);
		if (!out->node_group)
			rc = -1;
		for (size_t i = 0; !rc && i < o->nnodes; i++)
			out->node_group[i] = OPT_NIL;
	}
	struct optree_tbd *tb_dev = NULL;
	if (!rc && o->opts.tb_compat && !(g.tb_dev = tb_dev = optree_tb_device(o)))
		rc = -1;
	for (size_t i = 0; i < o->nagg && !rc; i++)
		if (o->nodes[o->agg[i]].is_op)
			rc = add_op(&g, o->agg[i]);
	/* tb's float sums as ns (tbprof/tbtime.h): its floats where they hold
	 * whole ns, its residue below 2^49 µs */
	for (size_t k = 0; !rc && tb_dev && k < out->n; k++) {
		struct ops_row *r = &out->rows[k];
		r->host = tb_ns_shown(g.tb_sum[k].host);
		r->self_host = tb_ns_shown(g.tb_sum[k].self_host);
		r->device = tb_ns_shown(g.tb_sum[k].device);
		r->self_device = tb_ns_shown(g.tb_sum[k].self_device);
	}
	free(tb_dev);
	free(g.tb_sum);
	hmap_free(&g.groups);
	hmap_free(&g.dims);
	hmap_free(&g.texts);
	free(g.dims_v);
	if (rc) {
		ops_free(out);
		return err_set(e, ERR_NOMEM, o->t->path, -1, "out of memory grouping operators");
	}
	return 0;
}

void ops_free(struct ops_view *v)
{
	free(v->rows);
	free(v->text);
	free(v->node_group);
	memset(v, 0, sizeof *v);
}

/* ---- sorting */

static const char *const sort_names[] = {
    [OPS_SORT_TB] = "tb",
    [OPS_SORT_DEVICE_SELF] = "device_self",
    [OPS_SORT_DEVICE_TOTAL] = "device_total",
    [OPS_SORT_HOST_SELF] = "host_self",
    [OPS_SORT_HOST_TOTAL] = "host_total",
    [OPS_SORT_CALLS] = "calls",
    [OPS_SORT_NAME] = "name",
    [OPS_SORT_TC_SELF] = "tc_self",
    [OPS_SORT_TC_TOTAL] = "tc_total",
};

int ops_sort_parse(const char *s)
{
	for (size_t i = 0; i < sizeof sort_names / sizeof sort_names[0]; i++)
		if (!strcmp(s, sort_names[i]))
			return (int)i;
	return -1;
}

const char *ops_sort_name(enum ops_sort s)
{
	return (unsigned)s < sizeof sort_names / sizeof sort_names[0] ? sort_names[s] : "?";
}

struct sort_item {
	double key; /* descending */
	const char *name;
	uint32_t order, idx;
};

static int cmp_item(const void *a, const void *b)
{
	const struct sort_item *x = a, *y = b;
	if (x->name || y->name) {
		int c = strcmp(x->name, y->name);
		if (c)
			return c;
	} else if (x->key != y->key) {
		return x->key > y->key ? -1 : 1;
	}
	return x->order < y->order ? -1 : x->order > y->order;
}

static double sort_key(const struct ops_row *r, enum ops_sort by)
{
	switch (by) {
	case OPS_SORT_DEVICE_SELF:
		return (double)r->self_device;
	case OPS_SORT_DEVICE_TOTAL:
		return (double)r->device;
	case OPS_SORT_HOST_SELF:
		return (double)r->self_host;
	case OPS_SORT_HOST_TOTAL:
		return (double)r->host;
	case OPS_SORT_CALLS:
		return (double)r->calls;
	case OPS_SORT_TC_SELF:
		return ops_tc_self_pct(r);
	case OPS_SORT_TC_TOTAL:
		return ops_tc_total_pct(r);
	default:
		return 0;
	}
}

enum ops_sort ops_sort(struct ops_view *v, const struct optree *o, enum ops_sort by)
{
	if (by == OPS_SORT_TB)
		by = o->has_kernel || o->has_memcpy_or_memset ? OPS_SORT_DEVICE_SELF
							      : OPS_SORT_HOST_SELF;
	if (v->n < 2)
		return by;
	struct sort_item *it = malloc((v->n ? v->n : 1) * sizeof *it);
	struct ops_row *tmp = malloc((v->n ? v->n : 1) * sizeof *tmp);
	if (!it || !tmp) {
		/* fall back to insertion order: never lose rows */
		free(it);
		free(tmp);
		return by;
	}
	for (size_t i = 0; i < v->n; i++)
		it[i] = (struct sort_item){
		    .key = sort_key(&v->rows[i], by),
		    .name = by == OPS_SORT_NAME ? tr_str(o->t, v->rows[i].name) : NULL,
		    .order = v->rows[i].order,
		    .idx = (uint32_t)i};
	gp_qsort(it, v->n, sizeof *it, cmp_item);
	for (size_t i = 0; i < v->n; i++)
		tmp[i] = v->rows[it[i].idx];
	memcpy(v->rows, tmp, v->n * sizeof *tmp);
	free(it);
	free(tmp);
	return by;
}
