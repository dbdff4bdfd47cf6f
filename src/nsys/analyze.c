/* analyze: the per-iteration NVTX analysis (analysis.json schema 1).
 *
 * Implements the roboflow harness contract of nsys.md 2.4 on two range lists
 * (host push/pop ranges and GPU projections, however they were read): find
 * the one top-level capture range, its direct "iteration N" children on the
 * same thread, join GPU rows to host rows on (PID, TID, RangeId), scope
 * repeated names by their ancestry below the harness ranges, and summarize.
 * Groups are ordered the way Python orders tuples of strings (element-wise,
 * a prefix first), not by the joined name: a space sorts before '.'.
 * Lookups go through sorted key arrays; each range's scope path is one
 * node of an interned path tree (nsys/scope.h), found from its parent's in
 * O(1), so time and memory are O(n log n) in ranges however deep they nest.
 * Scope paths past LIM_NVTX_DEPTH levels are pooled and printed names cut
 * to LIM_NAME_BYTES; a warning counts the ranges concerned. Every sum of
 * input values is checked: an overflow is an error naming the row.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/cmp.h"
#include "core/limits.h"
#include "core/sort.h"
#include "nsys/nsys.h"
#include "nsys/scope.h"

/* One member of a group: range index plus its path. */
struct member {
	size_t idx;
	uint32_t rank; /* of its path, in tuple order */
	uint32_t node; /* its path */
	const char *style;
};

static int member_cmp(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = (x->rank > y->rank) - (x->rank < y->rank);
	if (!c && x->style && y->style)
		c = strcmp(x->style, y->style);
	if (!c)
		c = (x->idx > y->idx) - (x->idx < y->idx);
	return c;
}

static bool same_group(const struct member *x, const struct member *y)
{
	return x->node == y->node && (!x->style || !y->style || !strcmp(x->style, y->style));
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

/* Per-iteration record. */
struct iter {
	int64_t index;
	size_t host, gpu; /* range indexes or SIZE_MAX */
};

/* Python's repr of a sorted list of ints: "[0, 1]", for the first n of
 * all: a longer list shows NSYS_LIST_MAX of them, then the marker and the
 * count ("[0, 1, ..., 999, \u2026] (5000 in all)"). */
#define NSYS_LIST_MAX 1000
static const char *int_list(struct arena *a, const int64_t *v, size_t n, uint64_t all)
{
	size_t cap = 64 + n * 22;
	char *s = arena_alloc(a, cap);
	if (!s)
		return NULL;
	size_t o = (size_t)snprintf(s, cap, "[");
	for (size_t i = 0; i < n; i++)
		o += (size_t)snprintf(s + o, cap - o, "%s%lld", i ? ", " : "", (long long)v[i]);
	if (all > n)
		snprintf(s + o, cap - o, ", " LIM_NAME_ELLIPSIS "] (%llu in all)",
			 (unsigned long long)all);
	else
		snprintf(s + o, cap - o, "]");
	return s;
}

/* The first NSYS_LIST_MAX indexes of [0, n) no iteration has into miss,
 * their count in *nmiss and the count of all in *all. */
static void missing_indexes(const struct iter *it, size_t nit, int64_t n, int64_t *miss,
			    size_t *nmiss, uint64_t *all)
{
	uint64_t have = 0;
	for (size_t k = 0; k < nit; k++)
		have += it[k].index >= 0 && it[k].index < n;
	*all = n > 0 ? (uint64_t)n - have : 0;
	*nmiss = 0;
	size_t k = 0;
	for (int64_t i = 0; i < n && *nmiss < NSYS_LIST_MAX; i++) {
		while (k < nit && it[k].index < i)
			k++;
		if (k < nit && it[k].index == i)
			continue;
		miss[(*nmiss)++] = i;
	}
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

/* The error for range i of r whose value `what` does not fit the 64-bit
 * total of its group: the file and the row it was read from. */
static int range_overflow(struct err *e, const struct nsys_ranges *r, size_t i, const char *what)
{
	long long row = (long long)r->v[i].row;
	if (r->table)
		return err_set(e, ERR_FORMAT, r->path, -1,
			       "%s row %lld: its %s does not fit the 64-bit total of its group "
			       "(expected values whose sum stays within +-2^63)",
			       r->table, row, what);
	return err_set(e, ERR_FORMAT, r->path, -1,
		       "line %lld: its %s does not fit the 64-bit total of its group (expected "
		       "values whose sum stays within +-2^63)",
		       row, what);
}

/* The value at byte offset off of range i. */
static int64_t field_at(const struct nsys_ranges *r, size_t i, size_t off)
{
	return *(const int64_t *)((const char *)&r->v[i] + off);
}

/* The total of field off over ranges idx[0..n), checked. */
static int checked_total(const struct nsys_ranges *r, const size_t *idx, size_t n, size_t off,
			 const char *what, int64_t *total, struct err *e)
{
	*total = 0;
	for (size_t k = 0; k < n; k++)
		if (!nsys_add(total, field_at(r, idx[k], off)))
			return range_overflow(e, r, idx[k], what);
	return 0;
}

/* S(field off) over ranges idx[0..n) into *out (null when n is 0). */
static int summary_at(struct arena *a, const struct nsys_ranges *r, const size_t *idx, size_t n,
		      size_t off, const char *what, struct nsys_jv **out, struct err *e)
{
	int64_t total;
	if (checked_total(r, idx, n, off, what, &total, e))
		return e ? e->code : ERR_FORMAT;
	int64_t *vals = arena_array(a, n ? n : 1, sizeof *vals);
	if (!vals)
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	for (size_t k = 0; k < n; k++)
		vals[k] = field_at(r, idx[k], off);
	*out = n ? nsys_summary(a, vals, n) : nsys_jv_null(a);
	return *out ? 0 : err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
}

#define OOM() err_set(e, ERR_NOMEM, NULL, -1, "out of memory")

/* One analysis in progress: the steps below fill it in order. */
struct analysis {
	struct arena *a;
	const struct nsys_ranges *host, *gpu;
	const char *capture;
	struct iter *it; /* measured iterations, by index */
	size_t nit;
	struct nsys_keyset harness, iter_keys;
	struct nsys_scopes tree; /* every scope path, host and GPU */
	struct nsys_scope hs, gs;
	struct member *hm, *gm; /* host and GPU group members, sorted by group */
	size_t nhm, ngm;
	size_t *idx;		    /* room for the range indexes of one group */
	size_t pooled, pooled_host; /* members past LIM_NVTX_DEPTH (all, host ones) */
	size_t cut;		    /* names cut to LIM_NAME_BYTES */
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
	if (nsys_keyset_build(a, host, harness_ix, nharness, &an->harness) ||
	    nsys_keyset_build(a, host, harness_ix + 1, nharness - 1, &an->iter_keys))
		return OOM();
	return 0;
}

/* Step 5: the host ranges but the iterations, with their scope paths
 * (sorted into groups once every path is known, by sort_members). */
static int host_members(struct analysis *an, struct err *e)
{
	struct arena *a = an->a;
	const struct nsys_ranges *host = an->host;
	if (nsys_scope_init(a, &an->hs, host, &an->harness, &an->tree) ||
	    nsys_scope_init(a, &an->gs, an->gpu, &an->harness, &an->tree))
		return OOM();
	struct member *hm = arena_array(a, host->n + 1, sizeof *hm);
	if (!hm)
		return OOM();
	size_t nhm = 0;
	for (size_t i = 0; i < host->n; i++) {
		const struct nsys_range *g = &host->v[i];
		if (nsys_keyset_find(&an->iter_keys, g->pid, g->tid, g->id) != SIZE_MAX)
			continue;
		hm[nhm] = (struct member){i, 0, 0, NULL};
		if (nsys_scope_path(&an->hs, i, &hm[nhm].node, e))
			return e ? e->code : ERR_FORMAT;
		nhm++;
	}
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
		size_t hi = nsys_keyset_find(&an->iter_keys, g->pid, g->tid, g->id);
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
		gm[ngm] = (struct member){i, 0, 0, g->style ? g->style : ""};
		size_t hk = nsys_keyset_find(&an->hs.by_key, g->pid, g->tid, g->id);
		int rc = hk != SIZE_MAX ? nsys_scope_path(&an->hs, hk, &gm[ngm].node, e)
					: nsys_scope_path(&an->gs, i, &gm[ngm].node, e);
		if (rc)
			return rc;
		ngm++;
	}
	an->gm = gm;
	an->ngm = ngm;
	return 0;
}

/* Ranks the paths in tuple order and sorts both member lists into groups;
 * counts the members whose path was pooled. */
static int sort_members(struct analysis *an, struct err *e)
{
	an->idx = arena_array(an->a, an->nhm + an->ngm + 1, sizeof *an->idx);
	if (!an->idx || nsys_scopes_rank(&an->tree))
		return OOM();
	struct member *lists[2] = {an->hm, an->gm};
	size_t ns[2] = {an->nhm, an->ngm};
	for (int l = 0; l < 2; l++) {
		for (size_t k = 0; k < ns[l]; k++) {
			const struct nsys_scope_node *nd = &an->tree.v[lists[l][k].node];
			lists[l][k].rank = nd->rank;
			an->pooled += nd->pooled;
		}
		gp_qsort(lists[l], ns[l], sizeof *lists[l], member_cmp);
		if (!l)
			an->pooled_host = an->pooled;
	}
	return 0;
}

/* The end of the group that starts at m[s], and its members' range
 * indexes in an->idx. */
static size_t group_end(struct analysis *an, const struct member *m, size_t n, size_t s)
{
	size_t t = s;
	while (t < n && same_group(&m[s], &m[t])) {
		an->idx[t - s] = m[t].idx;
		t++;
	}
	return t;
}

/* The group's name: its path joined, cut to LIM_NAME_BYTES (counted). */
static const char *group_name(struct analysis *an, uint32_t node)
{
	bool cut = false;
	const char *name = nsys_scopes_join(&an->tree, an->a, node, &cut);
	an->cut += cut;
	return name;
}

#define OFF(f) offsetof(struct nsys_range, f)

/* The "host_ranges" entries, one per group, into hr. */
static int host_groups(struct analysis *an, struct nsys_jv *hr, struct err *e)
{
	struct arena *a = an->a;
	const struct nsys_ranges *host = an->host;
	for (size_t s = 0; s < an->nhm;) {
		size_t t = group_end(an, an->hm, an->nhm, s), n = t - s;
		struct nsys_jv *o = nsys_jv_new(a, NSYS_JOBJ), *inc = NULL, *exc = NULL;
		const char *name = group_name(an, an->hm[s].node);
		int64_t child = 0;
		if (!o || !name)
			return OOM();
		if (checked_total(host, an->idx, n, OFF(dur_child), "DurChild", &child, e) ||
		    summary_at(a, host, an->idx, n, OFF(dur), "Duration", &inc, e) ||
		    summary_at(a, host, an->idx, n, OFF(dur_nonchild), "DurNonChild", &exc, e))
			return e ? e->code : ERR_FORMAT;
		an->host_has_capture |= nsys_scopes_equal(&an->tree, an->hm[s].node, an->capture);
		int rc = nsys_jv_set(a, o, "name", nsys_jv_str(a, name));
		rc |= nsys_jv_set(a, o, "instances", nsys_jv_int(a, (int64_t)n));
		rc |= nsys_jv_set(a, o, "inclusive", inc);
		rc |= nsys_jv_set(a, o, "exclusive", exc);
		rc |= nsys_jv_set(a, o, "child_total_ns", nsys_jv_int(a, child));
		if (rc || nsys_jv_push(a, hr, o))
			return OOM();
		s = t;
	}
	return 0;
}

/* The "gpu_projected_ranges" entries, one per group, into gr. */
static int gpu_groups(struct analysis *an, struct nsys_jv *gr, struct err *e)
{
	struct arena *a = an->a;
	const struct nsys_ranges *gpu = an->gpu;
	for (size_t s = 0; s < an->ngm;) {
		size_t t = group_end(an, an->gm, an->ngm, s), n = t - s;
		struct nsys_jv *o = nsys_jv_new(a, NSYS_JOBJ), *proj = NULL;
		const char *name = group_name(an, an->gm[s].node);
		int64_t orig = 0, ops = 0;
		if (!o || !name)
			return OOM();
		if (checked_total(gpu, an->idx, n, OFF(orig_dur), "Orig Duration", &orig, e) ||
		    checked_total(gpu, an->idx, n, OFF(num_ops), "NumGPUOps", &ops, e) ||
		    summary_at(a, gpu, an->idx, n, OFF(proj_dur), "Projected Duration", &proj, e))
			return e ? e->code : ERR_FORMAT;
		an->gpu_has_capture |= nsys_scopes_equal(&an->tree, an->gm[s].node, an->capture);
		int rc = nsys_jv_set(a, o, "name", nsys_jv_str(a, name));
		rc |= nsys_jv_set(a, o, "style", nsys_jv_str(a, an->gm[s].style));
		rc |= nsys_jv_set(a, o, "instances", nsys_jv_int(a, (int64_t)n));
		rc |= nsys_jv_set(a, o, "projected", proj);
		rc |= nsys_jv_set(a, o, "host_total_ns", nsys_jv_int(a, orig));
		rc |= nsys_jv_set(a, o, "gpu_operation_count", nsys_jv_int(a, ops));
		if (rc || nsys_jv_push(a, gr, o))
			return OOM();
		s = t;
	}
	return 0;
}

/* One iteration's "host" or "gpu_projection" object (null without one). */
static struct nsys_jv *iter_object(struct arena *a, const struct nsys_range *r, bool gpu)
{
	if (!r)
		return nsys_jv_null(a);
	struct nsys_jv *o = nsys_jv_new(a, NSYS_JOBJ);
	static const char *const keys[2][3] = {
	    {"inclusive_ns", "exclusive_ns", "child_total_ns"},
	    {"projected_ns", "host_range_total_ns", "gpu_operation_count"}};
	int64_t v[2][3] = {{r->dur, r->dur_nonchild, r->dur_child},
			   {r->proj_dur, r->orig_dur, r->num_ops}};
	int rc = !o;
	for (int k = 0; !rc && k < 3; k++)
		rc |= nsys_jv_set(a, o, keys[gpu][k], nsys_jv_int(a, v[gpu][k]));
	return rc ? NULL : o;
}

/* The "iteration_summary" object into *sum; an->idx holds the host range
 * indexes of the iterations (nhost of them), then ngpu GPU ones. */
static int iter_summary(struct analysis *an, size_t nhost, size_t ngpu, struct nsys_jv **sum,
			struct err *e)
{
	struct arena *a = an->a;
	struct nsys_jv *s = nsys_jv_new(a, NSYS_JOBJ), *hi = NULL, *he = NULL, *gp = NULL;
	if (!s)
		return OOM();
	const size_t *gidx = an->idx + nhost;
	if (summary_at(a, an->host, an->idx, nhost, OFF(dur), "Duration", &hi, e) ||
	    summary_at(a, an->host, an->idx, nhost, OFF(dur_nonchild), "DurNonChild", &he, e) ||
	    summary_at(a, an->gpu, gidx, ngpu, OFF(proj_dur), "Projected Duration", &gp, e))
		return e ? e->code : ERR_FORMAT;
	int rc = nsys_jv_set(a, s, "iterations", nsys_jv_int(a, (int64_t)an->nit));
	rc |= nsys_jv_set(a, s, "host_iterations", nsys_jv_int(a, (int64_t)nhost));
	rc |= nsys_jv_set(a, s, "gpu_projected_iterations", nsys_jv_int(a, (int64_t)ngpu));
	rc |= nsys_jv_set(a, s, "host_inclusive", hi);
	rc |= nsys_jv_set(a, s, "host_exclusive", he);
	rc |= nsys_jv_set(a, s, "gpu_projected", gp);
	*sum = s;
	return rc ? OOM() : 0;
}

/* Step 7: the "iterations" entries into its and the "iteration_summary"
 * object into *sum (host and GPU indexes are the same set: GPU rows are
 * only iterations through a host key); notes the iterations without a GPU
 * projection. */
static int iterations_json(struct analysis *an, struct nsys_jv *its, struct nsys_jv **sum,
			   struct err *e)
{
	struct arena *a = an->a;
	const struct iter *it = an->it;
	size_t nit = an->nit, nhost = 0, ngpu = 0;
	an->missing_gpu = arena_array(a, nit + 1, sizeof *an->missing_gpu);
	size_t *gidx = arena_array(a, nit + 1, sizeof *gidx);
	an->idx = arena_array(a, 2 * nit + 1, sizeof *an->idx);
	if (!an->missing_gpu || !gidx || !an->idx)
		return OOM();
	for (size_t i = 0; i < nit; i++) {
		struct nsys_jv *o = nsys_jv_new(a, NSYS_JOBJ);
		if (!o)
			return OOM();
		bool h = it[i].host != SIZE_MAX, g = it[i].gpu != SIZE_MAX;
		if (h)
			an->idx[nhost++] = it[i].host;
		if (g)
			gidx[ngpu++] = it[i].gpu;
		else
			an->missing_gpu[an->nmissing_gpu++] = it[i].index;
		int rc = nsys_jv_set(a, o, "index", nsys_jv_int(a, it[i].index));
		rc |= nsys_jv_set(a, o, "host",
				  iter_object(a, h ? &an->host->v[it[i].host] : NULL, false));
		rc |= nsys_jv_set(a, o, "gpu_projection",
				  iter_object(a, g ? &an->gpu->v[it[i].gpu] : NULL, true));
		if (rc || nsys_jv_push(a, its, o))
			return OOM();
	}
	memcpy(an->idx + nhost, gidx, ngpu * sizeof *gidx);
	return iter_summary(an, nhost, ngpu, sum, e);
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
		int64_t *miss = arena_array(a, NSYS_LIST_MAX, sizeof *miss);
		int64_t *extra = arena_array(a, an->nit + 1, sizeof *extra);
		size_t nmiss = 0, nextra = 0;
		uint64_t all_miss;
		if (!miss || !extra)
			return -1;
		missing_indexes(an->it, an->nit, n, miss, &nmiss, &all_miss);
		for (size_t i = 0; i < an->nit; i++)
			if (an->it[i].index >= n)
				extra[nextra++] = an->it[i].index;
		if (nmiss)
			rc |= add_warning(a, w, "Missing expected iteration indexes: ",
					  int_list(a, miss, nmiss, all_miss), ".");
		if (nextra)
			rc |= add_warning(a, w, "Unexpected iteration indexes: ",
					  int_list(a, extra,
						   nextra < NSYS_LIST_MAX ? nextra : NSYS_LIST_MAX,
						   nextra),
					  ".");
	}
	/* every iteration comes from a host range, so none lacks one */
	size_t nmg = an->nmissing_gpu;
	if (nmg)
		rc |= add_warning(
		    a, w, "Missing GPU projections for iterations: ",
		    int_list(a, an->missing_gpu, nmg < NSYS_LIST_MAX ? nmg : NSYS_LIST_MAX, nmg),
		    ".");
	if (!an->host_has_capture)
		rc |= add_warning(a, w, "Host report does not contain capture range '", an->capture,
				  "'.");
	if (!an->gpu_has_capture)
		rc |= add_warning(a, w, "GPU projection report does not contain capture range '",
				  an->capture, "'.");
	char buf[300];
	if (an->pooled) {
		snprintf(buf, sizeof buf,
			 NSYS_WARN_DEPTH " (%d levels); %zu host ranges and %zu GPU projections "
					 "are pooled under '%s'.",
			 LIM_NVTX_DEPTH, an->pooled_host, an->pooled - an->pooled_host,
			 LIM_NAME_ELLIPSIS);
		rc |= nsys_jv_push(a, w, nsys_jv_str(a, arena_strndup(a, buf, strlen(buf))));
	}
	if (an->cut) {
		snprintf(buf, sizeof buf,
			 NSYS_WARN_NAME " (%d bytes); %zu names are cut and end in '%s'.",
			 LIM_NAME_BYTES, an->cut, LIM_NAME_ELLIPSIS);
		rc |= nsys_jv_push(a, w, nsys_jv_str(a, arena_strndup(a, buf, strlen(buf))));
	}
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

/* Steps 5-9 as the analysis.json tree into *out. */
static int analysis_tree(struct analysis *an, const struct nsys_jv *manifest,
			 const struct nsys_provenance *prov, struct nsys_jv **out, struct err *e)
{
	struct arena *a = an->a;
	struct nsys_jv *root = nsys_jv_new(a, NSYS_JOBJ);
	struct nsys_jv *hr = nsys_jv_new(a, NSYS_JARR), *gr = nsys_jv_new(a, NSYS_JARR);
	struct nsys_jv *warns = nsys_jv_new(a, NSYS_JARR), *its = nsys_jv_new(a, NSYS_JARR);
	struct nsys_jv *sum = NULL;
	if (!root || !hr || !gr || !warns || !its)
		return OOM();
	int rc = host_groups(an, hr, e);
	if (!rc)
		rc = gpu_groups(an, gr, e);
	if (!rc)
		rc = iterations_json(an, its, &sum, e);
	if (rc)
		return rc;
	if (warnings_json(an, manifest, prov, warns))
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

int nsys_analyze(struct arena *a, const struct nsys_jv *manifest, const struct nsys_ranges *host,
		 const struct nsys_ranges *gpu, const struct nsys_provenance *prov,
		 struct nsys_jv **out, struct err *e)
{
	const struct nsys_jv *cr = nsys_jv_get(manifest, "capture_range");
	if (!cr || cr->kind != NSYS_JSTR)
		return err_set(e, ERR_FORMAT, NULL, -1,
			       "Manifest must define a string capture_range.");
	struct analysis an = {.a = a, .host = host, .gpu = gpu, .capture = cr->s};
	if (nsys_scopes_init(&an.tree, a))
		return OOM();
	int rc = find_iterations(&an, e);
	if (!rc)
		rc = host_members(&an, e);
	if (!rc)
		rc = gpu_members(&an, e);
	if (!rc)
		rc = sort_members(&an, e);
	if (!rc)
		rc = analysis_tree(&an, manifest, prov, out, e);
	nsys_scopes_free(&an.tree);
	return rc;
}

bool nsys_warning_is_cap(const char *w)
{
	return !strncmp(w, NSYS_WARN_DEPTH, strlen(NSYS_WARN_DEPTH)) ||
	       !strncmp(w, NSYS_WARN_NAME, strlen(NSYS_WARN_NAME));
}
