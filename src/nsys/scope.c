/* scope: the tree of interned NVTX scope paths (see scope.h). */
#include "nsys/scope.h"

#include <stdlib.h>
#include <string.h>

#include "core/limits.h"
#include "core/sort.h"

#define SCOPE_MAX_NODES (1u << 30)

int nsys_scopes_init(struct nsys_scopes *t, struct arena *a)
{
	memset(t, 0, sizeof *t);
	if (strpool_init(&t->pool, a))
		return -1;
	t->cap = 64;
	t->v = malloc(t->cap * sizeof *t->v);
	if (!t->v || hmap_init(&t->child, 64)) {
		nsys_scopes_free(t);
		return -1;
	}
	t->v[0] = (struct nsys_scope_node){NSYS_SCOPE_ROOT, 0, 0, 0, false};
	t->n = 1;
	return 0;
}

void nsys_scopes_free(struct nsys_scopes *t)
{
	strpool_free(&t->pool);
	hmap_free(&t->child);
	free(t->v);
	memset(t, 0, sizeof *t);
}

static uint64_t child_key(uint32_t parent, uint32_t name)
{
	/* exact and never 0: parent ids stay below SCOPE_MAX_NODES */
	return (((uint64_t)parent << 32) | name) ^ (1ull << 63);
}

uint32_t nsys_scopes_child(struct nsys_scopes *t, uint32_t parent, const char *name)
{
	const struct nsys_scope_node *p = &t->v[parent];
	if (p->pooled)
		return parent;
	bool pool = p->depth >= LIM_NVTX_DEPTH;
	if (pool)
		name = LIM_NAME_ELLIPSIS;
	uint32_t id = strpool_intern(&t->pool, name, strlen(name));
	if (id == UINT32_MAX)
		return NSYS_SCOPE_NONE;
	uint64_t key = child_key(parent, id);
	uint32_t v;
	size_t slot = hmap_slot(&t->child, key, NULL, NULL, &v);
	if (slot == SIZE_MAX)
		return NSYS_SCOPE_NONE;
	if (v != HMAP_NONE)
		return v;
	if (t->n >= SCOPE_MAX_NODES)
		return NSYS_SCOPE_NONE;
	if (t->n == t->cap) {
		struct nsys_scope_node *bigger = realloc(t->v, 2 * t->cap * sizeof *bigger);
		if (!bigger)
			return NSYS_SCOPE_NONE;
		t->v = bigger;
		t->cap *= 2;
	}
	uint32_t node = (uint32_t)t->n++;
	t->v[node] = (struct nsys_scope_node){parent, id, t->v[parent].depth + 1, 0, pool};
	hmap_set(&t->child, slot, key, node);
	return node;
}

struct rank_ent {
	uint32_t parent, node;
	const char *name;
};

static int rank_cmp(const void *a, const void *b)
{
	const struct rank_ent *x = a, *y = b;
	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Children sorted by (parent, name); a pre-order walk then visits paths in
 * tuple order: a path before its extensions, siblings by name. */
int nsys_scopes_rank(struct nsys_scopes *t)
{
	size_t n = t->n;
	struct rank_ent *e = malloc(n * sizeof *e);
	size_t *first = calloc(n + 1, sizeof *first);
	uint32_t *stack = malloc(n * sizeof *stack);
	size_t *next = malloc(n * sizeof *next);
	int rc = -1;
	if (!e || !first || !stack || !next)
		goto out;
	for (size_t i = 1; i < n; i++)
		e[i - 1] = (struct rank_ent){t->v[i].parent, (uint32_t)i,
					     strpool_get(&t->pool, t->v[i].name)};
	gp_qsort(e, n - 1, sizeof *e, rank_cmp);
	for (size_t i = 0; i + 1 < n; i++)
		first[e[i].parent + 1]++;
	for (size_t p = 0; p < n; p++)
		first[p + 1] += first[p]; /* children of p: e[first[p] .. first[p + 1]) */
	size_t sp = 0;
	uint32_t rank = 0;
	stack[sp++] = NSYS_SCOPE_ROOT;
	next[NSYS_SCOPE_ROOT] = first[NSYS_SCOPE_ROOT];
	t->v[NSYS_SCOPE_ROOT].rank = rank++;
	while (sp) {
		uint32_t p = stack[sp - 1];
		if (next[p] == first[p + 1]) {
			sp--;
			continue;
		}
		uint32_t c = e[next[p]++].node;
		t->v[c].rank = rank++;
		next[c] = first[c];
		stack[sp++] = c;
	}
	rc = 0;
out:
	free(e);
	free(first);
	free(stack);
	free(next);
	return rc;
}

/* The names of node's path, root first, into names (room for depth). */
static size_t path_names(const struct nsys_scopes *t, uint32_t node, const char **names,
			 uint32_t *lens)
{
	size_t depth = t->v[node].depth;
	for (size_t k = depth; k > 0; k--) {
		names[k - 1] = strpool_get(&t->pool, t->v[node].name);
		lens[k - 1] = strpool_len(&t->pool, t->v[node].name);
		node = t->v[node].parent;
	}
	return depth;
}

const char *nsys_scopes_join(struct nsys_scopes *t, struct arena *a, uint32_t node, bool *cut)
{
	const char *names[LIM_NVTX_DEPTH + 1];
	uint32_t lens[LIM_NVTX_DEPTH + 1];
	size_t n = path_names(t, node, names, lens), len = 0;
	for (size_t k = 0; k < n; k++)
		len += lens[k] + (k > 0);
	/* build at most what is kept, plus one byte to show it is longer */
	size_t keep = len < LIM_NAME_BYTES ? len : LIM_NAME_BYTES + 1;
	char *s = arena_alloc(a, keep + 1), *o = s;
	if (!s)
		return NULL;
	for (size_t k = 0; k < n && (size_t)(o - s) < keep; k++) {
		if (k)
			*o++ = '.';
		size_t room = keep - (size_t)(o - s);
		size_t l = lens[k] < room ? lens[k] : room;
		memcpy(o, names[k], l);
		o += l;
	}
	*o = 0;
	return nsys_name_cap(a, s, len, cut);
}

bool nsys_scopes_equal(const struct nsys_scopes *t, uint32_t node, const char *s)
{
	const char *names[LIM_NVTX_DEPTH + 1];
	uint32_t lens[LIM_NVTX_DEPTH + 1];
	size_t n = path_names(t, node, names, lens);
	for (size_t k = 0; k < n; k++) {
		if (k && *s++ != '.')
			return false;
		if (strncmp(s, names[k], lens[k]) || strlen(s) < lens[k])
			return false;
		s += lens[k];
	}
	return !*s;
}

const char *nsys_name_cap(struct arena *a, const char *s, size_t len, bool *cut)
{
	*cut = len > LIM_NAME_BYTES;
	if (!*cut)
		return s;
	size_t mark = sizeof LIM_NAME_ELLIPSIS - 1, keep = LIM_NAME_BYTES - mark;
	while (keep && ((unsigned char)s[keep] & 0xC0) == 0x80)
		keep--; /* s[keep] starts a character: cut before it */
	char *o = arena_alloc(a, keep + mark + 1);
	if (!o)
		return NULL;
	memcpy(o, s, keep);
	memcpy(o + keep, LIM_NAME_ELLIPSIS, mark + 1);
	return o;
}

/* ---- scope walks ---- */

#define MEMO_UNSET (UINT32_MAX - 1)
#define MEMO_WALK (UINT32_MAX - 2) /* on the walk in progress */

static int key_cmp(const struct nsys_key_ix *x, const struct nsys_key_ix *y)
{
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return 0;
}

static int key_sort_cmp(const void *a, const void *b)
{
	int c = key_cmp(a, b);
	if (c)
		return c;
	size_t i = ((const struct nsys_key_ix *)a)->idx, j = ((const struct nsys_key_ix *)b)->idx;
	return (i > j) - (i < j);
}

int nsys_keyset_build(struct arena *a, const struct nsys_ranges *r, const size_t *subset,
		      size_t nsub, struct nsys_keyset *ks)
{
	size_t n = subset ? nsub : r->n;
	ks->n = n;
	ks->v = arena_array(a, n ? n : 1, sizeof *ks->v);
	if (!ks->v)
		return -1;
	for (size_t k = 0; k < n; k++) {
		size_t i = subset ? subset[k] : k;
		ks->v[k] = (struct nsys_key_ix){r->v[i].pid, r->v[i].tid, r->v[i].id, i};
	}
	gp_qsort(ks->v, n, sizeof *ks->v, key_sort_cmp);
	return 0;
}

size_t nsys_keyset_find(const struct nsys_keyset *ks, int64_t pid, int64_t tid, int64_t id)
{
	struct nsys_key_ix want = {pid, tid, id, 0};
	size_t lo = 0, hi = ks->n;
	while (lo < hi) { /* first index with key > want */
		size_t mid = lo + (hi - lo) / 2;
		if (key_cmp(&ks->v[mid], &want) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || key_cmp(&ks->v[lo - 1], &want))
		return SIZE_MAX;
	return ks->v[lo - 1].idx;
}

/* The tail of range i (see struct scope), walking up only until a range
 * whose tail is known. */
static int scope_tail(struct nsys_scope *s, size_t i, uint32_t *out, struct err *e)
{
	size_t n = 0, cur = i;
	uint32_t base = NSYS_SCOPE_ROOT;
	for (;;) {
		const struct nsys_range *g = &s->r->v[cur];
		uint32_t m = s->memo[cur];
		if (m == MEMO_WALK)
			return err_set(e, ERR_FORMAT, NULL, -1,
				       "Cycle in NVTX range hierarchy at (%lld, %lld, %lld).",
				       (long long)g->pid, (long long)g->tid, (long long)g->id);
		if (m != MEMO_UNSET) {
			base = m;
			break;
		}
		if (nsys_keyset_find(s->harness, g->pid, g->tid, g->id) != SIZE_MAX) {
			s->memo[cur] = NSYS_SCOPE_ROOT;
			break;
		}
		s->memo[cur] = MEMO_WALK;
		s->chain[n++] = cur;
		size_t up = g->has_parent ? nsys_keyset_find(&s->by_key, g->pid, g->tid, g->parent)
					  : SIZE_MAX;
		if (up == SIZE_MAX)
			break;
		cur = up;
	}
	while (n) {
		size_t k = s->chain[--n];
		base = nsys_scopes_child(s->tree, base, s->r->v[k].name);
		if (base == NSYS_SCOPE_NONE)
			return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
		s->memo[k] = base;
	}
	*out = s->memo[i];
	return 0;
}

/* The scope path of range i (nsys.md 2.4 step 4): its tail, or (own name)
 * for a harness range. */
int nsys_scope_path(struct nsys_scope *s, size_t i, uint32_t *out, struct err *e)
{
	uint32_t t = NSYS_SCOPE_ROOT;
	int rc = scope_tail(s, i, &t, e);
	if (!rc && t == NSYS_SCOPE_ROOT) {
		t = nsys_scopes_child(s->tree, NSYS_SCOPE_ROOT, s->r->v[i].name);
		if (t == NSYS_SCOPE_NONE)
			rc = err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	}
	*out = t;
	return rc;
}

int nsys_scope_init(struct arena *a, struct nsys_scope *s, const struct nsys_ranges *r,
		    const struct nsys_keyset *harness, struct nsys_scopes *tree)
{
	memset(s, 0, sizeof *s);
	s->r = r;
	s->harness = harness;
	s->tree = tree;
	size_t n = r->n ? r->n : 1;
	s->memo = arena_array(a, n, sizeof *s->memo);
	s->chain = arena_array(a, n, sizeof *s->chain);
	if (!s->memo || !s->chain)
		return -1;
	for (size_t i = 0; i < r->n; i++)
		s->memo[i] = MEMO_UNSET;
	return nsys_keyset_build(a, r, NULL, 0, &s->by_key) ? -1 : 0;
}
