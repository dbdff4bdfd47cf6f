/* modules: the module hierarchy from python_function events (modules.h;
 * the statistics are modules_stats.c's). */
#include <stdlib.h>
#include <string.h>

#include "core/hmap.h"
#include "core/radix.h"
#include "tbprof/modules_int.h"

/* An ordered map from Python id to a dense index (the plugin's dicts keep
 * insertion order, and so does this: index = order of first insertion). */
struct idmap {
	struct hmap h;
	int64_t *id;
	size_t n, cap;
};

static uint64_t id_key(int64_t id)
{
	return hmap_int(id == INT64_MIN ? INT64_MIN + 1 : id);
}

static uint32_t idmap_get(const struct idmap *m, int64_t id)
{
	return hmap_get(&m->h, id_key(id), NULL, NULL);
}

/* Index of id, inserted at the end when new; HMAP_NONE out of memory. */
static uint32_t idmap_add(struct idmap *m, int64_t id, bool *added)
{
	uint32_t v;
	size_t slot = hmap_slot(&m->h, id_key(id), NULL, NULL, &v);
	*added = false;
	if (slot == SIZE_MAX)
		return HMAP_NONE;
	if (v != HMAP_NONE)
		return v;
	if (m->n == m->cap) {
		size_t c = m->cap ? m->cap * 2 : 64;
		int64_t *q = realloc(m->id, c * sizeof *q);
		if (!q)
			return HMAP_NONE;
		m->id = q;
		m->cap = c;
	}
	m->id[m->n] = id;
	hmap_set(&m->h, slot, id_key(id), (uint32_t)m->n);
	*added = true;
	return (uint32_t)m->n++;
}

static void idmap_free(struct idmap *m)
{
	hmap_free(&m->h);
	free(m->id);
}

int64_t tbmod_module_id(const struct trace *t, size_t row)
{
	const struct tr_op_arg *a = tr_op_arg(t, row);
	return a && a->extra != TR_NONE && a->extra < t->opx.n ? t->opx.v[a->extra].module_id : -1;
}

static void py_ids(const struct trace *t, size_t row, int64_t *id, int64_t *parent)
{
	const struct tr_op_arg *a = tr_op_arg(t, row);
	*id = a ? a->python_id : -1;
	*parent = a ? a->python_parent : -1;
}

struct py_ev {
	int64_t ts;
	uint32_t row;
};

static const struct rx_key by_ts_row[] = {RX_KEY(struct py_ev, ts, RX_I64),
					  RX_KEY(struct py_ev, row, RX_U32)};

/* The state of one hierarchy build. */
struct hier {
	const struct optree *o;
	const struct trace *t;
	struct py_ev *ev; /* python_function events by (ts, row) */
	size_t nev;
	struct idmap ev_of; /* Python id -> its index in last[] */
	uint32_t *last;	    /* the last event (index in ev) with that id */
	struct idmap kids;  /* the plugin's `children` dict: every id, parents too */
	uint32_t *nkids;
	struct idmap pm;    /* module_parent_map: module call id -> parent */
	int64_t *pm_parent; /* parent's Python id */
	bool *pm_has;	    /* a parent was set (else None) */
	struct hmap seen;   /* (event index, current module) pairs walked */
	uint64_t *seen_key;
	size_t nseen, seen_cap;
};

static int grow(void *pp, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap : 64;
	while (c < need)
		c *= 2;
	void *q = realloc(*(void **)pp, c * size);
	if (!q)
		return -1;
	*(void **)pp = q;
	*cap = c;
	return 0;
}

static int collect_events(struct hier *h)
{
	const struct trace *t = h->t;
	size_t cap = 0;
	for (size_t r = 0; r < t->ev.n; r++) {
		if (t->ev.kind[r] != TR_PYTHON_FUNCTION || !optree_uses_row(h->o, r))
			continue;
		if (grow(&h->ev, &cap, h->nev + 1, sizeof *h->ev))
			return -1;
		h->ev[h->nev++] = (struct py_ev){t->ev.ts[r], (uint32_t)r};
	}
	if (h->nev > 1 && rx_sort(h->ev, h->nev, sizeof *h->ev, by_ts_row, 2))
		return -1;
	size_t lcap = 0, kcap = 0;
	for (size_t i = 0; i < h->nev; i++) {
		int64_t id, par;
		py_ids(t, h->ev[i].row, &id, &par);
		bool added;
		uint32_t k = idmap_add(&h->ev_of, id, &added);
		if (k == HMAP_NONE || grow(&h->last, &lcap, h->ev_of.n, sizeof *h->last))
			return -1;
		h->last[k] = (uint32_t)i;
		uint32_t a = idmap_add(&h->kids, id, &added);
		if (a == HMAP_NONE || grow(&h->nkids, &kcap, h->kids.n, sizeof *h->nkids))
			return -1;
		if (added)
			h->nkids[a] = 0;
		uint32_t p = idmap_add(&h->kids, par, &added);
		if (p == HMAP_NONE || grow(&h->nkids, &kcap, h->kids.n, sizeof *h->nkids))
			return -1;
		if (added)
			h->nkids[p] = 0;
		h->nkids[p]++;
	}
	return 0;
}

/* The event index with Python id `id`, or UINT32_MAX. */
static uint32_t event_of(const struct hier *h, int64_t id)
{
	uint32_t k = idmap_get(&h->ev_of, id);
	return k == HMAP_NONE ? UINT32_MAX : h->last[k];
}

static bool is_module(const struct hier *h, uint32_t ev)
{
	return (h->t->ev.flags[h->ev[ev].row] & TRF_MODULE) != 0;
}

static int64_t ev_id(const struct hier *h, uint32_t ev)
{
	int64_t id, par;
	py_ids(h->t, h->ev[ev].row, &id, &par);
	return id;
}

static int64_t ev_parent(const struct hier *h, uint32_t ev)
{
	int64_t id, par;
	py_ids(h->t, h->ev[ev].row, &id, &par);
	return par;
}

struct seen_ctx {
	const struct hier *h;
	uint64_t key;
};

static bool seen_eq(const void *ctx, uint32_t v)
{
	const struct seen_ctx *c = ctx;
	return c->h->seen_key[v] == c->key;
}

/* Marks (event, current module) walked; 1 when it was already, -1 OOM. */
static int seen_add(struct hier *h, uint32_t ev, uint32_t cur)
{
	struct seen_ctx c = {h, ((uint64_t)ev << 32) | cur};
	uint32_t v;
	size_t slot = hmap_slot(&h->seen, hmap_hash(c.key), seen_eq, &c, &v);
	if (slot == SIZE_MAX)
		return -1;
	if (v != HMAP_NONE)
		return 1;
	if (grow(&h->seen_key, &h->seen_cap, h->nseen + 1, sizeof *h->seen_key))
		return -1;
	h->seen_key[h->nseen] = c.key;
	hmap_set(&h->seen, slot, hmap_hash(c.key), (uint32_t)h->nseen++);
	return 0;
}

static int pm_setdefault(struct hier *h, int64_t id, size_t *cap)
{
	bool added;
	uint32_t k = idmap_add(&h->pm, id, &added);
	if (k == HMAP_NONE || grow(&h->pm_parent, cap, h->pm.n, sizeof *h->pm_parent))
		return -1;
	size_t bcap = *cap;
	bool *q = realloc(h->pm_has, bcap * sizeof *q);
	if (!q)
		return -1;
	h->pm_has = q;
	if (added)
		h->pm_has[k] = false;
	return 0;
}

/* The plugin's walk from each leaf of the Python call tree up to its root,
 * recording each module call's nearest module ancestor. */
static int walk_leaves(struct hier *h)
{
	size_t cap = 0;
	for (size_t k = 0; k < h->kids.n; k++) {
		if (h->nkids[k])
			continue;
		uint32_t e = event_of(h, h->kids.id[k]);
		uint32_t cur = UINT32_MAX;
		while (e != UINT32_MAX) {
			int64_t id = ev_id(h, e);
			if (is_module(h, e)) {
				if (cur != UINT32_MAX) {
					uint32_t c = idmap_get(&h->pm, ev_id(h, cur));
					h->pm_parent[c] = id;
					h->pm_has[c] = true;
				}
				cur = e;
				if (pm_setdefault(h, id, &cap))
					return -1;
			}
			int s = seen_add(h, e, cur);
			if (s < 0)
				return -1;
			if (s)
				break;
			e = event_of(h, ev_parent(h, e));
		}
	}
	return 0;
}

static int hier_build(struct hier *h)
{
	if (collect_events(h) || walk_leaves(h))
		return -1;
	return 0;
}

static void hier_free(struct hier *h)
{
	free(h->ev);
	idmap_free(&h->ev_of);
	free(h->last);
	idmap_free(&h->kids);
	free(h->nkids);
	idmap_free(&h->pm);
	free(h->pm_parent);
	free(h->pm_has);
	hmap_free(&h->seen);
	free(h->seen_key);
}

/* A module call tree in preorder: per node its event, child count. */
struct ptree {
	uint32_t *ev, *nch;
	size_t n, cap;
};

/* Children of each module call (module_child_map), as linked lists in the
 * parent map's order. */
struct kids_of {
	uint32_t *first, *last, *next;
};

static int kids_build(const struct hier *h, struct kids_of *k)
{
	size_t n = h->pm.n ? h->pm.n : 1;
	k->first = malloc(n * sizeof *k->first);
	k->last = malloc(n * sizeof *k->last);
	k->next = malloc(n * sizeof *k->next);
	if (!k->first || !k->last || !k->next)
		return -1;
	for (size_t i = 0; i < h->pm.n; i++)
		k->first[i] = k->last[i] = k->next[i] = UINT32_MAX;
	for (size_t i = 0; i < h->pm.n; i++) {
		if (!h->pm_has[i])
			continue;
		uint32_t p = idmap_get(&h->pm, h->pm_parent[i]);
		if (p == HMAP_NONE)
			continue;
		if (k->last[p] == UINT32_MAX)
			k->first[p] = (uint32_t)i;
		else
			k->next[k->last[p]] = (uint32_t)i;
		k->last[p] = (uint32_t)i;
	}
	return 0;
}

static void kids_free(struct kids_of *k)
{
	free(k->first);
	free(k->last);
	free(k->next);
}

/* Appends the subtree of module call `root` (a pm index) in preorder. */
static int ptree_add(const struct hier *h, const struct kids_of *k, uint32_t root, struct ptree *p,
		     uint32_t *stack)
{
	size_t depth = 0;
	stack[depth++] = root;
	while (depth) {
		uint32_t m = stack[--depth];
		size_t cap = p->cap;
		if (grow(&p->ev, &cap, p->n + 1, sizeof *p->ev) ||
		    grow(&p->nch, &p->cap, p->n + 1, sizeof *p->nch))
			return -1;
		uint32_t nch = 0, base = (uint32_t)depth;
		for (uint32_t c = k->first[m]; c != UINT32_MAX; c = k->next[c])
			stack[depth++] = c, nch++;
		/* reverse the pushed children so the first pops first */
		for (size_t a = base, b = depth; b > a + 1; a++, b--) {
			uint32_t x = stack[a];
			stack[a] = stack[b - 1];
			stack[b - 1] = x;
		}
		p->ev[p->n] = event_of(h, h->pm.id[m]);
		p->nch[p->n++] = nch;
	}
	return 0;
}

/* Whether the trees at [a, a + n) and [b, b + n) of p are equal modules. */
static bool ptree_eq(const struct hier *h, const struct ptree *p, size_t a, size_t b, size_t n)
{
	const struct trace *t = h->t;
	for (size_t i = 0; i < n; i++) {
		uint32_t ea = p->ev[a + i], eb = p->ev[b + i];
		if (p->nch[a + i] != p->nch[b + i])
			return false;
		uint32_t ra = h->ev[ea].row, rb = h->ev[eb].row;
		if (t->ev.name[ra] != t->ev.name[rb] ||
		    tbmod_module_id(t, ra) != tbmod_module_id(t, rb))
			return false;
	}
	return true;
}

const char *tbmod_display_name(const struct trace *t, const struct tbmod_row *r)
{
	const char *s = tr_str(t, r->name);
	return strncmp(s, "nn.Module: ", 11) ? s : s + 11;
}

struct root_ref {
	const struct trace *t;
	const char *name;
	size_t start, len; /* in the ptree */
	size_t seq;
	uint64_t hash; /* of the tree (ptree_hash): equal trees, equal hashes */
};

/* A hash of the tree at [a, a + n) of p, over what ptree_eq compares. */
static uint64_t ptree_hash(const struct hier *h, const struct ptree *p, size_t a, size_t n)
{
	uint64_t x = 1469598103934665603ull;
	for (size_t i = a; i < a + n; i++) {
		uint32_t row = h->ev[p->ev[i]].row;
		uint64_t v[3] = {h->t->ev.name[row], (uint64_t)tbmod_module_id(h->t, row),
				 p->nch[i]};
		for (int k = 0; k < 3; k++)
			x = hmap_mix(x ^ v[k]) + 0x9E3779B97F4A7C15ull;
	}
	return x;
}

static int by_root_name(const void *a, const void *b)
{
	const struct root_ref *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* The unique roots' trees, top rows by name, into m->rows. */
static int emit_rows(const struct hier *h, const struct ptree *p, struct root_ref *roots,
		     size_t nroots, struct tbmodules *m)
{
	const struct trace *t = h->t;
	size_t total = 0;
	for (size_t i = 0; i < nroots; i++)
		total += roots[i].len;
	m->rows = calloc(total ? total : 1, sizeof *m->rows);
	uint32_t *stack = malloc((total ? total : 1) * sizeof *stack);
	uint32_t *left = malloc((total ? total : 1) * sizeof *left);
	if (!m->rows || !stack || !left) {
		free(stack);
		free(left);
		return -1;
	}
	qsort(roots, nroots, sizeof *roots, by_root_name);
	for (size_t i = 0; i < nroots; i++) {
		size_t depth = 0;
		for (size_t j = roots[i].start; j < roots[i].start + roots[i].len; j++) {
			while (depth && !left[depth - 1])
				depth--;
			struct tbmod_row *r = &m->rows[m->n];
			uint32_t row = h->ev[p->ev[j]].row;
			r->name = t->ev.name[row];
			r->module_id = tbmod_module_id(t, row);
			r->parent = depth ? stack[depth - 1] : TBMOD_NIL;
			r->depth = (uint32_t)depth;
			r->children = p->nch[j];
			if (depth)
				left[depth - 1]--;
			stack[depth] = (uint32_t)m->n;
			left[depth++] = p->nch[j];
			m->n++;
		}
	}
	free(stack);
	free(left);
	return 0;
}

int tbmod_hierarchy(const struct optree *o, struct tbmodules *m)
{
	struct hier h = {.o = o, .t = o->t};
	struct kids_of k = {0};
	struct ptree p = {0};
	struct root_ref *roots = NULL;
	uint32_t *stack = NULL;
	int rc = -1;
	if (hier_build(&h) || kids_build(&h, &k))
		goto out;
	m->python_events = h.nev;
	stack = malloc((h.pm.n ? h.pm.n : 1) * sizeof *stack);
	roots = malloc((h.pm.n ? h.pm.n : 1) * sizeof *roots);
	if (!stack || !roots)
		goto out;
	size_t nroots = 0;
	for (size_t i = 0; i < h.pm.n; i++) {
		if (h.pm_has[i] || event_of(&h, h.pm.id[i]) == UINT32_MAX)
			continue;
		size_t start = p.n;
		if (ptree_add(&h, &k, (uint32_t)i, &p, stack))
			goto out;
		size_t len = p.n - start;
		uint64_t hash = ptree_hash(&h, &p, start, len);
		bool dup = false;
		for (size_t j = 0; j < nroots && !dup; j++)
			dup = roots[j].hash == hash && roots[j].len == len &&
			      ptree_eq(&h, &p, roots[j].start, start, len);
		if (dup) {
			p.n = start;
			continue;
		}
		struct tbmod_row tmp = {.name = o->t->ev.name[h.ev[p.ev[start]].row]};
		roots[nroots] = (struct root_ref){
		    o->t, tbmod_display_name(o->t, &tmp), start, len, nroots, hash};
		nroots++;
	}
	rc = emit_rows(&h, &p, roots, nroots, m);
out:
	free(stack);
	free(roots);
	free(p.ev);
	free(p.nch);
	kids_free(&k);
	hier_free(&h);
	return rc;
}
