/* analyze: the per-iteration NVTX analysis (analysis.json schema 1).
 *
 * Implements the roboflow harness contract of nsys.md 2.4 on two range lists
 * (host push/pop ranges and GPU projections, however they were read): find
 * the one top-level capture range, its direct "iteration N" children on the
 * same thread, join GPU rows to host rows on (PID, TID, RangeId), scope
 * repeated names by their ancestry below the harness ranges, and summarize.
 * Groups are ordered the way Python orders tuples of strings (element-wise,
 * a prefix first), not by the joined name: a space sorts before '.'.
 * Lookups go through sorted key arrays, so the cost is O(n log n) in ranges
 * plus the depth of each scope walk.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/cmp.h"
#include "core/sort.h"
#include "nsys/nsys.h"

struct key_ix {
	int64_t pid, tid, id;
	size_t idx;
};

static int key_cmp(const struct key_ix *x, const struct key_ix *y)
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
	size_t i = ((const struct key_ix *)a)->idx, j = ((const struct key_ix *)b)->idx;
	return (i > j) - (i < j);
}

/* A sorted key index over a range list (or a subset: harness keys). */
struct keyset {
	struct key_ix *v;
	size_t n;
};

static int keyset_build(struct arena *a, const struct nsys_ranges *r, const size_t *subset,
			size_t nsub, struct keyset *ks)
{
	size_t n = subset ? nsub : r->n;
	ks->n = n;
	ks->v = arena_array(a, n ? n : 1, sizeof *ks->v);
	if (!ks->v)
		return -1;
	for (size_t k = 0; k < n; k++) {
		size_t i = subset ? subset[k] : k;
		ks->v[k] = (struct key_ix){r->v[i].pid, r->v[i].tid, r->v[i].id, i};
	}
	gp_qsort(ks->v, n, sizeof *ks->v, key_sort_cmp);
	return 0;
}

/* Index of the range with this key (the last one, as a Python dict built
 * over the list keeps), or SIZE_MAX. */
static size_t keyset_find(const struct keyset *ks, int64_t pid, int64_t tid, int64_t id)
{
	struct key_ix want = {pid, tid, id, 0};
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

struct path {
	const char **names;
	size_t n;
};

/* Scope walk context over one list. */
struct scope {
	const struct nsys_ranges *r;
	struct keyset by_key;
	const struct keyset *harness;
	uint32_t *stamp; /* per range: the walk that last visited it */
	uint32_t walk;
};

/* The scope path of range i (nsys.md 2.4 step 4). */
static int scope_path(struct arena *a, struct scope *s, size_t i, struct path *out, struct err *e)
{
	size_t cap = 8, n = 0;
	const char **rev = arena_array(a, cap, sizeof *rev);
	if (!rev)
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	s->walk++;
	size_t cur = i;
	while (cur != SIZE_MAX) {
		const struct nsys_range *g = &s->r->v[cur];
		if (s->stamp[cur] == s->walk)
			return err_set(e, ERR_FORMAT, NULL, -1,
				       "Cycle in NVTX range hierarchy at (%lld, %lld, %lld).",
				       (long long)g->pid, (long long)g->tid, (long long)g->id);
		s->stamp[cur] = s->walk;
		if (keyset_find(s->harness, g->pid, g->tid, g->id) != SIZE_MAX)
			break;
		if (n == cap) {
			const char **bigger = arena_array(a, cap * 2, sizeof *bigger);
			if (!bigger)
				return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
			memcpy(bigger, rev, n * sizeof *rev);
			rev = bigger;
			cap *= 2;
		}
		rev[n++] = g->name;
		if (!g->has_parent)
			break;
		cur = keyset_find(&s->by_key, g->pid, g->tid, g->parent);
	}
	if (!n) {
		rev[0] = s->r->v[i].name;
		n = 1;
	}
	for (size_t k = 0; k < n / 2; k++) {
		const char *t = rev[k];
		rev[k] = rev[n - 1 - k];
		rev[n - 1 - k] = t;
	}
	out->names = rev;
	out->n = n;
	return 0;
}

static int scope_init(struct arena *a, struct scope *s, const struct nsys_ranges *r,
		      const struct keyset *harness)
{
	memset(s, 0, sizeof *s);
	s->r = r;
	s->harness = harness;
	s->stamp = arena_zalloc(a, (r->n ? r->n : 1) * sizeof *s->stamp);
	return !s->stamp || keyset_build(a, r, NULL, 0, &s->by_key) ? -1 : 0;
}

static int path_cmp(const struct path *x, const struct path *y)
{
	for (size_t k = 0; k < x->n && k < y->n; k++) {
		int c = strcmp(x->names[k], y->names[k]);
		if (c)
			return c;
	}
	return (x->n > y->n) - (x->n < y->n);
}

static const char *path_join(struct arena *a, const struct path *p)
{
	size_t len = 0;
	for (size_t k = 0; k < p->n; k++)
		len += strlen(p->names[k]) + 1;
	char *s = arena_alloc(a, len + 1), *o = s;
	if (!s)
		return NULL;
	for (size_t k = 0; k < p->n; k++) {
		if (k)
			*o++ = '.';
		size_t l = strlen(p->names[k]);
		memcpy(o, p->names[k], l);
		o += l;
	}
	*o = 0;
	return s;
}

/* One member of a group: range index plus its path. */
struct member {
	size_t idx;
	struct path path;
	const char *style;
};

static int member_cmp(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = path_cmp(&x->path, &y->path);
	if (!c && x->style && y->style)
		c = strcmp(x->style, y->style);
	if (!c)
		c = (x->idx > y->idx) - (x->idx < y->idx);
	return c;
}

static bool same_group(const struct member *x, const struct member *y)
{
	return !path_cmp(&x->path, &y->path) &&
	       (!x->style || !y->style || !strcmp(x->style, y->style));
}

/* "iteration N" in full, N decimal digits that fit an int64. */
static bool iteration_index(const char *name, int64_t *idx)
{
	if (strncmp(name, "iteration ", 10))
		return false;
	const char *p = name + 10;
	if (!*p)
		return false;
	int64_t v = 0;
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || v > (INT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (*p - '0');
	}
	*idx = v;
	return true;
}

const char *nsys_version_warning(struct arena *a, const char *version)
{
	const char *tail = "report parsing is validated against Nsight Systems 2025.1.";
	char buf[1200];
	const char *s = version ? version : "unknown";
	size_t n = strlen(s);
#define WORD(ch)                                                                                   \
	((ch) == '_' || ((ch) >= '0' && (ch) <= '9') || ((ch) >= 'a' && (ch) <= 'z') ||            \
	 ((ch) >= 'A' && (ch) <= 'Z'))
#define DIG(ch) ((ch) >= '0' && (ch) <= '9')
	/* first match of \b(\d{4})\.(\d+)\b */
	for (size_t i = 0; i + 6 <= n; i++) {
		if (i > 0 && WORD(s[i - 1]))
			continue;
		if (!DIG(s[i]) || !DIG(s[i + 1]) || !DIG(s[i + 2]) || !DIG(s[i + 3]) ||
		    s[i + 4] != '.' || !DIG(s[i + 5]))
			continue;
		size_t j = i + 5;
		long minor = 0;
		while (j < n && DIG(s[j])) {
			if (minor < 100000000)
				minor = minor * 10 + (s[j] - '0');
			j++;
		}
		if (j < n && WORD(s[j]))
			continue;
		long major = (s[i] - '0') * 1000 + (s[i + 1] - '0') * 100 + (s[i + 2] - '0') * 10 +
			     (s[i + 3] - '0');
		if (major == NSYS_VALIDATED_MAJOR && minor == NSYS_VALIDATED_MINOR)
			return NULL;
		snprintf(buf, sizeof buf, "%s has not been validated; %s", s, tail);
		return arena_strndup(a, buf, strlen(buf));
	}
#undef WORD
#undef DIG
	snprintf(buf, sizeof buf, "Could not determine the Nsight Systems version; %s", tail);
	return arena_strndup(a, buf, strlen(buf));
}

/* Python's repr of a sorted list of ints: "[0, 1]". */
static const char *int_list(struct arena *a, const int64_t *v, size_t n)
{
	size_t cap = 3 + n * 22;
	char *s = arena_alloc(a, cap);
	if (!s)
		return NULL;
	size_t o = (size_t)snprintf(s, cap, "[");
	for (size_t i = 0; i < n; i++)
		o += (size_t)snprintf(s + o, cap - o, "%s%lld", i ? ", " : "", (long long)v[i]);
	snprintf(s + o, cap - o, "]");
	return s;
}

static int add_warning(struct arena *a, struct nsys_jv *w, const char *fmt_a, const char *arg,
		       const char *fmt_b)
{
	size_t len = strlen(fmt_a) + strlen(arg) + strlen(fmt_b) + 1;
	char *s = arena_alloc(a, len);
	if (!s)
		return -1;
	snprintf(s, len, "%s%s%s", fmt_a, arg, fmt_b);
	return nsys_jv_push(a, w, nsys_jv_str(a, s));
}

/* Per-iteration record. */
struct iter {
	int64_t index;
	size_t host, gpu; /* range indexes or SIZE_MAX */
};

static int iter_cmp(const void *x, const void *y)
{
	return cmp_i64(&((const struct iter *)x)->index, &((const struct iter *)y)->index);
}

static struct iter *iter_find(struct iter *it, size_t n, int64_t index)
{
	for (size_t lo = 0, hi = n; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;
		if (it[mid].index == index)
			return &it[mid];
		if (it[mid].index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Copies a manifest field, or null when absent. */
static struct nsys_jv *field_or_null(struct arena *a, const struct nsys_jv *m, const char *k)
{
	struct nsys_jv *v = nsys_jv_get(m, k);
	return v ? v : nsys_jv_null(a);
}

static struct nsys_jv *run_object(struct arena *a, const struct nsys_jv *m)
{
	struct nsys_jv *run = nsys_jv_new(a, NSYS_JOBJ);
	if (!run)
		return NULL;
	static const char *const copied[] = {"profile_name", "run_id", "device", "capture_range",
					     "git_commit"};
	int rc = 0;
	for (size_t i = 0; i < sizeof copied / sizeof copied[0]; i++)
		rc |= nsys_jv_set(a, run, copied[i], field_or_null(a, m, copied[i]));
	const struct nsys_jv *ids = nsys_jv_get(m, "record_ids");
	int64_t count = ids && ids->kind == NSYS_JARR ? (int64_t)ids->n : 0;
	rc |= nsys_jv_set(a, run, "record_count", nsys_jv_int(a, count));
	static const char *const maps[] = {"workload", "cuda"};
	for (size_t i = 0; i < 2; i++) {
		struct nsys_jv *v = nsys_jv_get(m, maps[i]);
		rc |= nsys_jv_set(a, run, maps[i], v ? v : nsys_jv_new(a, NSYS_JOBJ));
	}
	return rc ? NULL : run;
}

static struct nsys_jv *summary_of(struct arena *a, const struct nsys_range *v,
				  const struct member *m, size_t n, size_t off)
{
	int64_t *vals = arena_array(a, n, sizeof *vals);
	if (!vals)
		return NULL;
	for (size_t k = 0; k < n; k++)
		vals[k] = *(const int64_t *)((const char *)&v[m[k].idx] + off);
	return nsys_summary(a, vals, n);
}

static struct nsys_jv *iter_summary(struct arena *a, const struct nsys_range *v,
				    const struct iter *it, size_t n, bool gpu, size_t off)
{
	int64_t *vals = arena_array(a, n ? n : 1, sizeof *vals);
	size_t k = 0;
	if (!vals)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t r = gpu ? it[i].gpu : it[i].host;
		if (r != SIZE_MAX)
			vals[k++] = *(const int64_t *)((const char *)&v[r] + off);
	}
	return k ? nsys_summary(a, vals, k) : nsys_jv_null(a);
}

#define OOM() err_set(e, ERR_NOMEM, NULL, -1, "out of memory")

/* One analysis in progress: the steps below fill it in order. */
struct analysis {
	struct arena *a;
	const struct nsys_ranges *host, *gpu;
	const char *capture;
	struct iter *it; /* measured iterations, by index */
	size_t nit;
	struct keyset harness, iter_keys;
	struct scope hs, gs;
	struct member *hm, *gm; /* host and GPU group members, sorted by group */
	size_t nhm, ngm;
	bool host_has_capture, gpu_has_capture;
	int64_t *missing_gpu; /* indexes of iterations without a GPU projection */
	size_t nmissing_gpu;
};

/* Steps 1-3: the one capture range, its direct "iteration N" children
 * (the measured iterations), the harness keys (capture range and
 * iterations) and the iteration keys alone (for the GPU join). */
static int find_iterations(struct analysis *an, struct err *e)
{
	struct arena *a = an->a;
	const struct nsys_ranges *host = an->host;
	size_t cap_ix = SIZE_MAX, found = 0;
	for (size_t i = 0; i < host->n; i++)
		if (!host->v[i].has_parent && !strcmp(host->v[i].name, an->capture)) {
			found++;
			cap_ix = i;
		}
	if (found != 1)
		return err_set(
		    e, ERR_FORMAT, NULL, -1,
		    "Expected exactly one top-level host capture range named '%s', but found %zu.",
		    an->capture, found);
	const struct nsys_range *cap = &host->v[cap_ix];

	struct iter *it = arena_array(a, host->n + 1, sizeof *it);
	size_t *harness_ix = arena_array(a, host->n + 1, sizeof *harness_ix);
	if (!it || !harness_ix)
		return OOM();
	size_t nit = 0, nharness = 0;
	harness_ix[nharness++] = cap_ix;
	for (size_t i = 0; i < host->n; i++) {
		const struct nsys_range *g = &host->v[i];
		int64_t idx;
		if (g->pid != cap->pid || g->tid != cap->tid || !g->has_parent ||
		    g->parent != cap->id || !iteration_index(g->name, &idx))
			continue;
		it[nit++] = (struct iter){idx, i, SIZE_MAX};
		harness_ix[nharness++] = i;
	}
	gp_qsort(it, nit, sizeof *it, iter_cmp);
	for (size_t i = 1; i < nit; i++)
		if (it[i].index == it[i - 1].index)
			return err_set(e, ERR_FORMAT, NULL, -1,
				       "Duplicate host range for iteration %lld.",
				       (long long)it[i].index);
	an->it = it;
	an->nit = nit;
	if (keyset_build(a, host, harness_ix, nharness, &an->harness) ||
	    keyset_build(a, host, harness_ix + 1, nharness - 1, &an->iter_keys))
		return OOM();
	return 0;
}

/* Step 5: the host ranges but the iterations, with their scope paths,
 * sorted into groups. */
static int host_members(struct analysis *an, struct err *e)
{
	struct arena *a = an->a;
	const struct nsys_ranges *host = an->host;
	if (scope_init(a, &an->hs, host, &an->harness) ||
	    scope_init(a, &an->gs, an->gpu, &an->harness))
		return OOM();
	struct member *hm = arena_array(a, host->n + 1, sizeof *hm);
	if (!hm)
		return OOM();
	size_t nhm = 0;
	for (size_t i = 0; i < host->n; i++) {
		const struct nsys_range *g = &host->v[i];
		if (keyset_find(&an->iter_keys, g->pid, g->tid, g->id) != SIZE_MAX)
			continue;
		hm[nhm] = (struct member){i, {0}, NULL};
		if (scope_path(a, &an->hs, i, &hm[nhm].path, e))
			return e ? e->code : ERR_FORMAT;
		nhm++;
	}
	gp_qsort(hm, nhm, sizeof *hm, member_cmp);
	an->hm = hm;
	an->nhm = nhm;
	return 0;
}

/* Step 6, the GPU join: a projection of an iteration goes to that
 * iteration; the others are members of the GPU groups, scoped by their
 * host range when it exists. */
static int gpu_members(struct analysis *an, struct err *e)
{
	struct arena *a = an->a;
	const struct nsys_ranges *gpu = an->gpu;
	struct member *gm = arena_array(a, gpu->n + 1, sizeof *gm);
	if (!gm)
		return OOM();
	size_t ngm = 0;
	for (size_t i = 0; i < gpu->n; i++) {
		const struct nsys_range *g = &gpu->v[i];
		size_t hi = keyset_find(&an->iter_keys, g->pid, g->tid, g->id);
		if (hi != SIZE_MAX) {
			int64_t idx;
			iteration_index(an->host->v[hi].name, &idx);
			struct iter *t = iter_find(an->it, an->nit, idx);
			if (t->gpu != SIZE_MAX)
				return err_set(e, ERR_FORMAT, NULL, -1,
					       "Duplicate GPU projection for iteration %lld.",
					       (long long)idx);
			t->gpu = i;
			continue;
		}
		gm[ngm] = (struct member){i, {0}, g->style ? g->style : ""};
		size_t hk = keyset_find(&an->hs.by_key, g->pid, g->tid, g->id);
		int rc = hk != SIZE_MAX ? scope_path(a, &an->hs, hk, &gm[ngm].path, e)
					: scope_path(a, &an->gs, i, &gm[ngm].path, e);
		if (rc)
			return rc;
		ngm++;
	}
	gp_qsort(gm, ngm, sizeof *gm, member_cmp);
	an->gm = gm;
	an->ngm = ngm;
	return 0;
}

/* The "host_ranges" entries, one per group, into hr; -1 when out of memory. */
static int host_groups(struct analysis *an, struct nsys_jv *hr)
{
	struct arena *a = an->a;
	const struct nsys_ranges *host = an->host;
	const struct member *hm = an->hm;
	for (size_t s = 0; s < an->nhm;) {
		size_t t = s + 1;
		while (t < an->nhm && same_group(&hm[s], &hm[t]))
			t++;
		struct nsys_jv *o = nsys_jv_new(a, NSYS_JOBJ);
		const char *name = path_join(a, &hm[s].path);
		int64_t child = 0;
		for (size_t k = s; k < t; k++)
			child += host->v[hm[k].idx].dur_child;
		if (!o || !name)
			return -1;
		an->host_has_capture |= !strcmp(name, an->capture);
		int rc = nsys_jv_set(a, o, "name", nsys_jv_str(a, name));
		rc |= nsys_jv_set(a, o, "instances", nsys_jv_int(a, (int64_t)(t - s)));
		rc |= nsys_jv_set(
		    a, o, "inclusive",
		    summary_of(a, host->v, hm + s, t - s, offsetof(struct nsys_range, dur)));
		rc |= nsys_jv_set(a, o, "exclusive",
				  summary_of(a, host->v, hm + s, t - s,
					     offsetof(struct nsys_range, dur_nonchild)));
		rc |= nsys_jv_set(a, o, "child_total_ns", nsys_jv_int(a, child));
		if (rc || nsys_jv_push(a, hr, o))
			return -1;
		s = t;
	}
	return 0;
}

/* The "gpu_projected_ranges" entries, one per group, into gr; -1 when out
 * of memory. */
static int gpu_groups(struct analysis *an, struct nsys_jv *gr)
{
	struct arena *a = an->a;
	const struct nsys_ranges *gpu = an->gpu;
	const struct member *gm = an->gm;
	for (size_t s = 0; s < an->ngm;) {
		size_t t = s + 1;
		while (t < an->ngm && same_group(&gm[s], &gm[t]))
			t++;
		struct nsys_jv *o = nsys_jv_new(a, NSYS_JOBJ);
		const char *name = path_join(a, &gm[s].path);
		int64_t orig = 0, ops = 0;
		for (size_t k = s; k < t; k++) {
			orig += gpu->v[gm[k].idx].orig_dur;
			ops += gpu->v[gm[k].idx].num_ops;
		}
		if (!o || !name)
			return -1;
		an->gpu_has_capture |= !strcmp(name, an->capture);
		int rc = nsys_jv_set(a, o, "name", nsys_jv_str(a, name));
		rc |= nsys_jv_set(a, o, "style", nsys_jv_str(a, gm[s].style));
		rc |= nsys_jv_set(a, o, "instances", nsys_jv_int(a, (int64_t)(t - s)));
		rc |= nsys_jv_set(
		    a, o, "projected",
		    summary_of(a, gpu->v, gm + s, t - s, offsetof(struct nsys_range, proj_dur)));
		rc |= nsys_jv_set(a, o, "host_total_ns", nsys_jv_int(a, orig));
		rc |= nsys_jv_set(a, o, "gpu_operation_count", nsys_jv_int(a, ops));
		if (rc || nsys_jv_push(a, gr, o))
			return -1;
		s = t;
	}
	return 0;
}

/* Step 7: the "iterations" entries into its and the "iteration_summary"
 * object into *sum (host and GPU indexes are the same set: GPU rows are
 * only iterations through a host key); notes the iterations without a GPU
 * projection. -1 when out of memory. */
static int iterations_json(struct analysis *an, struct nsys_jv *its, struct nsys_jv **sum)
{
	struct arena *a = an->a;
	const struct nsys_ranges *host = an->host, *gpu = an->gpu;
	const struct iter *it = an->it;
	size_t nit = an->nit, nhost = 0, ngpu = 0;
	an->missing_gpu = arena_array(a, nit + 1, sizeof *an->missing_gpu);
	if (!an->missing_gpu)
		return -1;
	for (size_t i = 0; i < nit; i++) {
		struct nsys_jv *o = nsys_jv_new(a, NSYS_JOBJ);
		if (!o)
			return -1;
		int rc = nsys_jv_set(a, o, "index", nsys_jv_int(a, it[i].index));
		struct nsys_jv *h = nsys_jv_null(a), *g = nsys_jv_null(a);
		if (it[i].host != SIZE_MAX) {
			const struct nsys_range *r = &host->v[it[i].host];
			h = nsys_jv_new(a, NSYS_JOBJ);
			rc |= nsys_jv_set(a, h, "inclusive_ns", nsys_jv_int(a, r->dur));
			rc |= nsys_jv_set(a, h, "exclusive_ns", nsys_jv_int(a, r->dur_nonchild));
			rc |= nsys_jv_set(a, h, "child_total_ns", nsys_jv_int(a, r->dur_child));
			nhost++;
		}
		if (it[i].gpu != SIZE_MAX) {
			const struct nsys_range *r = &gpu->v[it[i].gpu];
			g = nsys_jv_new(a, NSYS_JOBJ);
			rc |= nsys_jv_set(a, g, "projected_ns", nsys_jv_int(a, r->proj_dur));
			rc |= nsys_jv_set(a, g, "host_range_total_ns", nsys_jv_int(a, r->orig_dur));
			rc |= nsys_jv_set(a, g, "gpu_operation_count", nsys_jv_int(a, r->num_ops));
			ngpu++;
		} else {
			an->missing_gpu[an->nmissing_gpu++] = it[i].index;
		}
		rc |= nsys_jv_set(a, o, "host", h);
		rc |= nsys_jv_set(a, o, "gpu_projection", g);
		if (rc || nsys_jv_push(a, its, o))
			return -1;
	}
	struct nsys_jv *s = nsys_jv_new(a, NSYS_JOBJ);
	if (!s)
		return -1;
	int rc = nsys_jv_set(a, s, "iterations", nsys_jv_int(a, (int64_t)nit));
	rc |= nsys_jv_set(a, s, "host_iterations", nsys_jv_int(a, (int64_t)nhost));
	rc |= nsys_jv_set(a, s, "gpu_projected_iterations", nsys_jv_int(a, (int64_t)ngpu));
	rc |=
	    nsys_jv_set(a, s, "host_inclusive",
			iter_summary(a, host->v, it, nit, false, offsetof(struct nsys_range, dur)));
	rc |= nsys_jv_set(
	    a, s, "host_exclusive",
	    iter_summary(a, host->v, it, nit, false, offsetof(struct nsys_range, dur_nonchild)));
	rc |= nsys_jv_set(
	    a, s, "gpu_projected",
	    iter_summary(a, gpu->v, it, nit, true, offsetof(struct nsys_range, proj_dur)));
	*sum = s;
	return rc ? -1 : 0;
}

/* Step 9: the warnings, in the contract's order; nonzero when out of
 * memory. */
static int warnings_json(struct analysis *an, const struct nsys_jv *manifest,
			 const struct nsys_provenance *prov, struct nsys_jv *w)
{
	struct arena *a = an->a;
	int rc = 0;
	if (prov) {
		const char *vw = nsys_version_warning(a, prov->nsys_version);
		if (vw)
			rc |= nsys_jv_push(a, w, nsys_jv_str(a, vw));
	}
	const struct nsys_jv *wl = nsys_jv_get(manifest, "workload");
	const struct nsys_jv *want = nsys_jv_get(wl, "iterations");
	if (want && want->kind == NSYS_JINT) {
		int64_t n = want->i;
		int64_t *miss = arena_array(a, (size_t)(n > 0 ? n : 1), sizeof *miss);
		int64_t *extra = arena_array(a, an->nit + 1, sizeof *extra);
		size_t nmiss = 0, nextra = 0;
		if (!miss || !extra)
			return -1;
		for (int64_t i = 0; i < n; i++)
			if (!iter_find(an->it, an->nit, i))
				miss[nmiss++] = i;
		for (size_t i = 0; i < an->nit; i++)
			if (an->it[i].index >= n)
				extra[nextra++] = an->it[i].index;
		if (nmiss)
			rc |= add_warning(a, w, "Missing expected iteration indexes: ",
					  int_list(a, miss, nmiss), ".");
		if (nextra)
			rc |= add_warning(a, w, "Unexpected iteration indexes: ",
					  int_list(a, extra, nextra), ".");
	}
	/* every iteration comes from a host range, so none lacks one */
	if (an->nmissing_gpu)
		rc |= add_warning(a, w, "Missing GPU projections for iterations: ",
				  int_list(a, an->missing_gpu, an->nmissing_gpu), ".");
	if (!an->host_has_capture)
		rc |= add_warning(a, w, "Host report does not contain capture range '", an->capture,
				  "'.");
	if (!an->gpu_has_capture)
		rc |= add_warning(a, w, "GPU projection report does not contain capture range '",
				  an->capture, "'.");
	return rc;
}

/* The "provenance" object, or NULL when out of memory. */
static struct nsys_jv *provenance_object(struct arena *a, const struct nsys_provenance *prov)
{
	struct nsys_jv *p = nsys_jv_new(a, NSYS_JOBJ), *reps = nsys_jv_new(a, NSYS_JOBJ);
	int rc = nsys_jv_set(a, p, "nsys_version", nsys_jv_str(a, prov->nsys_version));
	rc |= nsys_jv_set(a, p, "manifest_path", nsys_jv_str(a, prov->manifest_path));
	rc |= nsys_jv_set(a, p, "trace_path", nsys_jv_str(a, prov->trace_path));
	rc |= nsys_jv_set(a, reps, "nvtx_pushpop_trace", nsys_jv_str(a, prov->pushpop_path));
	rc |= nsys_jv_set(a, reps, "nvtx_gpu_proj_trace", nsys_jv_str(a, prov->gpu_proj_path));
	rc |= nsys_jv_set(a, p, "reports", reps);
	return rc ? NULL : p;
}

int nsys_analyze(struct arena *a, const struct nsys_jv *manifest, const struct nsys_ranges *host,
		 const struct nsys_ranges *gpu, const struct nsys_provenance *prov,
		 struct nsys_jv **out, struct err *e)
{
	const struct nsys_jv *cr = nsys_jv_get(manifest, "capture_range");
	if (!cr || cr->kind != NSYS_JSTR)
		return err_set(e, ERR_FORMAT, NULL, -1,
			       "Manifest must define a string capture_range.");
	struct analysis an = {.a = a, .host = host, .gpu = gpu, .capture = cr->s};
	int rc = find_iterations(&an, e);
	if (!rc)
		rc = host_members(&an, e);
	if (!rc)
		rc = gpu_members(&an, e);
	if (rc)
		return rc;

	struct nsys_jv *root = nsys_jv_new(a, NSYS_JOBJ);
	struct nsys_jv *hr = nsys_jv_new(a, NSYS_JARR), *gr = nsys_jv_new(a, NSYS_JARR);
	struct nsys_jv *warns = nsys_jv_new(a, NSYS_JARR);
	if (!root || !hr || !gr || !warns)
		return OOM();
	if (host_groups(&an, hr) || gpu_groups(&an, gr))
		return OOM();
	struct nsys_jv *its = nsys_jv_new(a, NSYS_JARR), *sum = NULL;
	if (!its || iterations_json(&an, its, &sum) || warnings_json(&an, manifest, prov, warns))
		return OOM();

	rc = nsys_jv_set(a, root, "schema_version", nsys_jv_int(a, 1));
	rc |= nsys_jv_set(a, root, "run", run_object(a, manifest));
	if (prov)
		rc |= nsys_jv_set(a, root, "provenance", provenance_object(a, prov));
	rc |= nsys_jv_set(a, root, "host_ranges", hr);
	rc |= nsys_jv_set(a, root, "gpu_projected_ranges", gr);
	rc |= nsys_jv_set(a, root, "iterations", its);
	rc |= nsys_jv_set(a, root, "iteration_summary", sum);
	rc |= nsys_jv_set(a, root, "warnings", warns);
	if (rc)
		return OOM();
	*out = root;
	return 0;
}
