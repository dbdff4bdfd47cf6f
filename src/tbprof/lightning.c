/* lightning: the Lightning view's modules and their times; see lightning.h.
 * One pass over the events (the modules, by string id), one over the tree's
 * nodes, one sort of the roots. */
#include "tbprof/lightning.h"

#include <stdlib.h>
#include <string.h>

#include "core/radix.h"
#include "core/vec.h"
#include "tbprof/optree_int.h"

static const char pl_prefix[] = "[pl][module]";
#define PL_PREFIX_LEN (sizeof pl_prefix - 1)

struct ctx {
	const struct optree *o;
	struct pl_view *v;
	uint32_t *of_name; /* string id -> module index + 1, 0 unknown */
	char *text;	   /* the module names, back to back */
	size_t ntext, cap_text;
	size_t *off; /* module -> offset in text */
	size_t cap, cap_off;
};

static bool is_pl_module(const struct optree *o, size_t r)
{
	const struct trace *t = o->t;
	return o->lightning && optree_uses_row(o, r) && t->ev.kind[r] == TR_CPU_OP &&
	       !(t->ev.flags[r] & TRF_STEP) && optree_has_prefix(t, t->ev.name[r], pl_prefix);
}

/* tb's module name of an op name: every "[pl][module]" removed, then the
 * text after the first ": " (without one, from the second character). It
 * is appended to c->text, NUL-terminated; *len is its length. */
static int module_name(struct ctx *c, const char *s, size_t n, size_t *len)
{
	size_t at = c->ntext;
	if (vec_reserve_((void **)&c->text, &c->cap_text, at + n + 1, 1, SIZE_MAX))
		return -1;
	char *d = c->text + at;
	size_t k = 0;
	for (size_t i = 0; i < n;) {
		if (n - i >= PL_PREFIX_LEN && !memcmp(s + i, pl_prefix, PL_PREFIX_LEN)) {
			i += PL_PREFIX_LEN;
			continue;
		}
		d[k++] = s[i++];
	}
	size_t from = 1; /* Python's name[name.find(': ') + 2:] with find -1 */
	for (size_t i = 0; i + 1 < k; i++)
		if (d[i] == ':' && d[i + 1] == ' ') {
			from = i + 2;
			break;
		}
	if (from > k)
		from = k;
	memmove(d, d + from, k - from);
	d[k - from] = '\0';
	*len = k - from;
	return 0;
}

/* The module of an op name's string id, made on first sight. */
static int module_of(struct ctx *c, uint32_t name, uint32_t *idx)
{
	if (c->of_name[name]) {
		*idx = c->of_name[name] - 1;
		return 0;
	}
	const struct trace *t = c->o->t;
	size_t len, at = c->ntext;
	if (module_name(c, tr_str(t, name), strpool_len(&t->pool, name), &len))
		return -1;
	struct pl_view *v = c->v;
	for (size_t i = 0; i < v->n; i++)
		if (v->rows[i].len == len && !memcmp(c->text + c->off[i], c->text + at, len)) {
			c->of_name[name] = (uint32_t)i + 1;
			*idx = (uint32_t)i;
			return 0;
		}
	if (vec_reserve_((void **)&v->rows, &c->cap, v->n + 1, sizeof *v->rows, SIZE_MAX) ||
	    vec_reserve_((void **)&c->off, &c->cap_off, v->n + 1, sizeof *c->off, SIZE_MAX))
		return -1;
	c->ntext += len + 1;
	c->off[v->n] = at;
	v->rows[v->n] = (struct pl_module){.name = name, .len = len, .parent = PL_NO_PARENT};
	c->of_name[name] = (uint32_t)v->n + 1;
	*idx = (uint32_t)v->n++;
	return 0;
}

struct ts_row {
	int64_t ts;
	uint32_t row;
};
static const struct rx_key by_ts_row[] = {RX_KEY(struct ts_row, ts, RX_I64),
					  RX_KEY(struct ts_row, row, RX_U32)};

/* The modules in tb's order: its events sorted by ts (stable). */
static int collect(struct ctx *c)
{
	const struct optree *o = c->o;
	const struct trace *t = o->t;
	size_t n = 0;
	for (size_t r = 0; r < t->ev.n; r++)
		n += is_pl_module(o, r);
	struct ts_row *v = malloc((n ? n : 1) * sizeof *v);
	if (!v)
		return -1;
	n = 0;
	for (size_t r = 0; r < t->ev.n; r++)
		if (is_pl_module(o, r))
			v[n++] =
			    (struct ts_row){tb_span(t, r, o->opts.tb_compat).start, (uint32_t)r};
	int rc = rx_sort(v, n, sizeof *v, by_ts_row, 2);
	uint32_t idx;
	for (size_t i = 0; !rc && i < n; i++)
		rc = module_of(c, t->ev.name[v[i].row], &idx);
	free(v);
	return rc;
}

/* Sums the PL module nodes of the tree into their modules. */
static void sum_nodes(struct ctx *c)
{
	const struct optree *o = c->o;
	for (size_t i = 0; i < o->nnodes; i++) {
		const struct optree_node *nd = &o->nodes[i];
		if (nd->cls != OPC_PL_MODULE || nd->dropped || nd->collapsed ||
		    !c->of_name[nd->name])
			continue;
		struct pl_module *m = &c->v->rows[c->of_name[nd->name] - 1];
		m->occurrences++;
		for (uint32_t k = nd->first_child; k != OPT_NIL; k = o->nodes[k].next_sibling)
			m->operators += o->nodes[k].is_op;
		m->host += nd->end - nd->start;
		m->self_host += nd->self_host;
		m->device += nd->device;
		m->self_device += nd->self_device;
	}
}

/* Name order of two modules (Python's str order is the UTF-8 bytes'). */
static int name_cmp(const struct pl_module *a, const struct pl_module *b)
{
	size_t n = a->len < b->len ? a->len : b->len;
	int d = memcmp(a->txt, b->txt, n);
	return d ? d : (a->len > b->len) - (a->len < b->len);
}

/* Rows in preorder: roots by name (stable), children in module order. */
static int order(struct ctx *c)
{
	struct pl_view *v = c->v;
	size_t n = v->n;
	uint32_t *out = malloc((n ? n : 1) * sizeof *out),
		 *stack = malloc((n ? n : 1) * sizeof *stack);
	struct pl_module *rows = malloc((n ? n : 1) * sizeof *rows);
	if (!out || !stack || !rows) {
		free(out);
		free(stack);
		free(rows);
		return -1;
	}
	size_t nroots = 0;
	for (size_t i = 0; i < n; i++)
		if (v->rows[i].parent == PL_NO_PARENT)
			out[nroots++] = (uint32_t)i;
	for (size_t i = 1; i < nroots; i++) /* insertion sort: stable */
		for (size_t j = i; j > 0 && name_cmp(&v->rows[out[j - 1]], &v->rows[out[j]]) > 0;
		     j--) {
			uint32_t x = out[j];
			out[j] = out[j - 1];
			out[j - 1] = x;
		}
	size_t sp = 0, k = 0;
	for (size_t i = nroots; i-- > 0;)
		stack[sp++] = out[i];
	uint32_t *pos = out; /* reused: module -> new index */
	while (sp) {
		uint32_t m = stack[--sp];
		pos[m] = (uint32_t)k;
		rows[k] = v->rows[m];
		rows[k].depth =
		    rows[k].parent == PL_NO_PARENT ? 0 : rows[pos[rows[k].parent]].depth + 1;
		k++;
		for (size_t j = n; j-- > 0;)
			if (v->rows[j].parent == m)
				stack[sp++] = (uint32_t)j;
	}
	for (size_t i = 0; i < n; i++)
		if (rows[i].parent != PL_NO_PARENT)
			rows[i].parent = pos[rows[i].parent];
	free(out);
	free(stack);
	free(v->rows);
	v->rows = rows;
	return 0;
}

int pl_build(const struct optree *o, struct pl_view *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	out->lightning = o->lightning;
	const struct trace *t = o->t;
	struct ctx c = {.o = o, .v = out};
	c.of_name = calloc(t->pool.n ? t->pool.n : 1, sizeof *c.of_name);
	int rc = !c.of_name || collect(&c) ? -1 : 0;
	if (!rc) {
		sum_nodes(&c);
		struct pl_view *v = out;
		for (size_t i = 0; i < v->n; i++) {
			struct pl_module *m = &v->rows[i];
			m->txt = c.text + c.off[i];
			uint64_t q = m->occurrences;
			m->avg_ns = !q		    ? 0.0
				    : m->device > 0 ? (double)m->device / (double)q
						    : (double)m->host / (double)q;
		}
		/* the parent: the module named by the name up to its last '.' */
		for (size_t i = 0; i < v->n; i++) {
			struct pl_module *m = &v->rows[i];
			const char *dot = NULL;
			for (size_t k = m->len; k-- > 0;)
				if (m->txt[k] == '.') {
					dot = m->txt + k;
					break;
				}
			for (size_t j = 0; dot && j < v->n; j++)
				if (v->rows[j].len == (size_t)(dot - m->txt) &&
				    !memcmp(v->rows[j].txt, m->txt, v->rows[j].len)) {
					m->parent = (uint32_t)j;
					break;
				}
		}
		rc = order(&c);
	}
	free(c.of_name);
	free(c.off);
	if (rc) {
		free(c.text);
		pl_free(out);
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory building the Lightning view");
	}
	out->text = c.text;
	return 0;
}

void pl_free(struct pl_view *v)
{
	free(v->rows);
	free(v->text);
	memset(v, 0, sizeof *v);
}
