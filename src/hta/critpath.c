/* critpath: HTA's critical path; see critpath.h. This file: the rows and
 * the clip of the instance, the nodes, the edge set, the longest path and
 * the bound types. */
#include "hta/critpath.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "hta/critpath_int.h"

const char *cp_etype_name(enum cp_etype t)
{
	static const char *const n[CP_NETYPES] = {
	    "critical_path_operator", "critical_path_dependency",
	    "critical_path_kernel_launch_delay", "critical_path_kernel_kernel_delay",
	    "critical_path_sync_dependency"};
	return (unsigned)t < CP_NETYPES ? n[t] : "";
}

const char *cp_bound_name(enum cp_bound b)
{
	static const char *const n[CP_NBOUNDS] = {"",
						  "cpu_bound",
						  "gpu_compute_bound",
						  "gpu_communication_bound",
						  "gpu_kernel_launch_overhead",
						  "gpu_kernel_kernel_overhead",
						  "data_loading"};
	return (unsigned)b < CP_NBOUNDS ? n[b] : "";
}

void cpb_times(const struct cpb *b, size_t r, int64_t *ts, int64_t *te)
{
	hta_row_times(b->t, b->h, r, ts, te);
}

int64_t cpb_stream(const struct cpb *b, size_t r)
{
	return hta_row_stream(b->t, r);
}

bool cpb_name_is(const struct cpb *b, size_t r, enum cp_name n)
{
	return b->names[n] != TR_NONE && b->t->ev.name[r] == b->names[n];
}

bool cpb_gpu_side(const struct cpb *b, size_t r)
{
	return (cpb_stream(b, r) >= 0 && tr_corr(b->t, r) >= 0) ||
	       cpb_name_is(b, r, CPN_EVENT_SYNC) || cpb_name_is(b, r, CPN_CONTEXT_SYNC);
}

uint32_t cpb_ic(const struct cpb *b, size_t r)
{
	int64_t c = tr_corr(b->t, r);
	if (c < 0)
		return CP_IC_NONE;
	uint32_t p = hmap_get(&b->corr_map, hmap_int(c), NULL, NULL);
	if (p == HMAP_NONE)
		return CP_IC_ZERO;
	uint32_t o = cpb_gpu_side(b, r) ? b->pair[p].cpu : b->pair[p].gpu;
	return o == TR_NONE ? CP_IC_ZERO : o;
}

bool cpb_is_launch(const struct cpb *b, size_t r)
{
	return hta_is_launch(b->t, b->launch_ids, r);
}

const struct cp_ev *cpb_ev(const struct cpb *b, uint32_t row)
{
	uint32_t i = hmap_get(&b->ev_of, hmap_int(row), NULL, NULL);
	return i == HMAP_NONE ? NULL : &b->c->ev[i];
}

static uint32_t find(const struct trace *t, const char *s)
{
	uint32_t id = strpool_find(&t->pool, s, strlen(s));
	return id ? id : TR_NONE;
}

static int names_init(struct cpb *b)
{
	static const char *const n[CPN_COUNT] = {"Event Sync",	    "Context Sync",
						 "Stream Sync",	    "Stream Wait Event",
						 "cudaEventRecord", "cudaStreamWaitEvent"};
	for (int i = 0; i < CPN_COUNT; i++)
		b->names[i] = find(b->t, n[i]);
	hta_launch_ids(b->t, b->launch_ids);
	return 0;
}

/* The rows of HTA's data frame (the loader's, its last-step filter) and
 * the correlation pairs (over every kept row, as the loader links them
 * before it filters). */
static int rows_init(struct cpb *b)
{
	const struct trace *t = b->t;
	b->rowf = calloc(t->ev.n ? t->ev.n : 1, 1);
	if (!b->rowf)
		return -1;
	for (size_t i = 0; i < b->h->n; i++)
		b->rowf[b->h->v[i].row] = CPR_DF;
	for (size_t r = 0; r < t->ev.n; r++) {
		if (!hta_row_kept(t, r))
			continue;
		bool syncname =
		    cpb_name_is(b, r, CPN_EVENT_SYNC) || cpb_name_is(b, r, CPN_CONTEXT_SYNC);
		if (cpb_stream(b, r) == -1 && !syncname && hta_cpu_kept(t, b->h, r))
			b->rowf[r] = CPR_DF;
		else if (cpb_stream(b, r) == -1 && syncname) {
			int64_t a, e;
			cpb_times(b, r, &a, &e);
			if (b->h->filter != HTA_FILTER_CUDA || a < b->h->lo)
				b->rowf[r] = CPR_DF;
		}
		int64_t c = tr_corr(t, r);
		if (c < 0)
			continue;
		uint32_t v;
		size_t slot = hmap_slot(&b->corr_map, hmap_int(c), NULL, NULL, &v);
		if (slot == SIZE_MAX)
			return -1;
		if (v == HMAP_NONE) {
			if (b->npair == b->pair_cap) {
				size_t nc = b->pair_cap ? b->pair_cap * 2 : 1024;
				struct cp_pair *p = realloc(b->pair, nc * sizeof *p);
				if (!p)
					return -1;
				b->pair = p;
				b->pair_cap = nc;
			}
			v = (uint32_t)b->npair++;
			b->pair[v].cpu = b->pair[v].gpu = TR_NONE;
			hmap_set(&b->corr_map, slot, hmap_int(c), v);
		}
		if (cpb_gpu_side(b, r))
			b->pair[v].gpu = (uint32_t)r;
		else
			b->pair[v].cpu = (uint32_t)r;
	}
	return 0;
}

bool cpb_str_has(const struct trace *t, uint32_t id, const char *sub, uint8_t *memo)
{
	if (memo && memo[id])
		return memo[id] == 2;
	bool has = strstr(tr_str(t, id), sub) != NULL;
	if (memo)
		memo[id] = has ? 2 : 1;
	return has;
}

/* HTA's window of the instance: [start of the first, end of the last] of
 * the instances' slice; the annotation "" takes the whole data frame. */
static int window(struct cpb *b, struct err *e)
{
	const struct trace *t = b->t;
	const char *a = b->o->annotation ? b->o->annotation : "";
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	size_t k = 0;
	uint8_t *memo = *a ? calloc(t->pool.n ? t->pool.n : 1, 1) : NULL;
	for (size_t r = 0; r < t->ev.n; r++) {
		if (!(b->rowf[r] & CPR_DF))
			continue;
		if (*a) {
			if (!cpb_str_has(t, t->ev.name[r], a, memo))
				continue;
			if (k++ != (size_t)b->o->instance)
				continue;
		}
		int64_t ts, te;
		cpb_times(b, r, &ts, &te);
		lo = ts < lo ? ts : lo;
		hi = te > hi ? te : hi;
	}
	free(memo);
	b->c->instances = *a ? k : 1;
	if (*a && !k)
		return err_set(e, ERR_USAGE, t->path, -1,
			       "no event of the annotation \"%s\" (see --annotation)", a);
	if (*a && (size_t)b->o->instance >= k)
		return err_set(e, ERR_USAGE, t->path, -1,
			       "annotation \"%s\" has %zu instance(s); --instance %lld is not one",
			       a, k, (long long)b->o->instance);
	b->c->window[0] = lo;
	b->c->window[1] = hi;
	return 0;
}

/* HTA's clip: the CPU events of positive duration starting in the window,
 * the GPU events whose launching event is one of them, and the Stream Wait
 * Events. */
static void clip(struct cpb *b)
{
	const struct trace *t = b->t;
	int64_t lo = b->c->window[0], hi = b->c->window[1];
	for (size_t r = 0; r < t->ev.n; r++) {
		if (!(b->rowf[r] & CPR_DF))
			continue;
		int64_t ts, te;
		if (cpb_stream(b, r) == -1) {
			cpb_times(b, r, &ts, &te);
			if (ts >= lo && ts <= hi && te > ts)
				b->rowf[r] |= CPR_CLIP;
			continue;
		}
		if (cpb_name_is(b, r, CPN_STREAM_WAIT_EVENT)) {
			b->rowf[r] |= CPR_CLIP;
			continue;
		}
		uint32_t c = cpb_ic(b, r);
		if (c >= CP_IC_ZERO || !(b->rowf[c] & CPR_DF) || cpb_stream(b, c) != -1 ||
		    cpb_ic(b, c) != r)
			continue;
		cpb_times(b, c, &ts, &te);
		if (ts >= lo && ts <= hi && te > ts)
			b->rowf[r] |= CPR_CLIP;
	}
}

static bool data_load(const struct cpb *b, size_t r)
{
	const regex_t *re = b->re;
	for (size_t i = 0; i < b->o->ndata_load; i++)
		if (!regexec(&re[i], tr_str(b->t, b->t->ev.name[r]), 0, NULL, 0))
			return true;
	return false;
}

static bool node_event(const struct cpb *b, size_t r)
{
	enum tr_kind k = (enum tr_kind)b->t->ev.kind[r];
	if (k == TR_CPU_OP || k == TR_RUNTIME || k == TR_DRIVER)
		return true;
	if (cpb_stream(b, r) != -1 && cpb_ic(b, r) != CP_IC_NONE)
		return true;
	return b->o->ndata_load && data_load(b, r);
}

static int node_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct cp_node *a = pa, *x = pb;
	const struct cp_ev *ev = ctx;
	if (a->ts != x->ts)
		return a->ts < x->ts ? -1 : 1;
	if (ev[a->ev].row != ev[x->ev].row)
		return ev[a->ev].row < ev[x->ev].row ? -1 : 1;
	return (int)x->is_start - (int)a->is_start;
}

static uint8_t ev_flags(const struct cpb *b, size_t r, const uint32_t *blocking, size_t nb,
			const uint32_t *lock, size_t nl)
{
	uint8_t f = cpb_stream(b, r) != -1 ? CP_F_GPU : 0;
	uint32_t n = b->t->ev.name[r];
	for (size_t i = 0; i < nb; i++)
		f |= blocking[i] == n ? CP_F_BLOCKING : 0;
	for (size_t i = 0; i < nl; i++)
		f |= lock[i] == n ? CP_F_LOCK : 0;
	return f;
}

static int nodes(struct cpb *b)
{
	static const char *const blocking_names[] = {"cudaDeviceSynchronize",
						     "cudaStreamSynchronize",
						     "cudaEventQuery",
						     "cudaEventSynchronize",
						     "cudaMemcpy",
						     "cudaMemcpyAsync"};
	static const char *const lock_names[] = {"cudaHostAlloc", "cudaLaunchKernel",
						 "cudaMemcpyAsync"};
	uint32_t blocking[6], lock[3];
	size_t nb = 0, nl = 0;
	for (size_t i = 0; i < 6; i++)
		if ((blocking[nb] = find(b->t, blocking_names[i])) != TR_NONE)
			nb++;
	for (size_t i = 0; i < 3; i++)
		if ((lock[nl] = find(b->t, lock_names[i])) != TR_NONE)
			nl++;
	struct cp *c = b->c;
	size_t n = 0;
	for (size_t r = 0; r < b->t->ev.n; r++)
		n += (b->rowf[r] & CPR_CLIP) && node_event(b, r);
	c->ev = malloc((n ? n : 1) * sizeof *c->ev);
	c->node = malloc((n ? 2 * n : 1) * sizeof *c->node);
	if (!c->ev || !c->node || hmap_init(&b->ev_of, n))
		return -1;
	for (size_t r = 0; r < b->t->ev.n; r++) {
		if (!(b->rowf[r] & CPR_CLIP) || !node_event(b, r))
			continue;
		struct cp_ev *x = &c->ev[c->nev];
		x->row = (uint32_t)r;
		cpb_times(b, r, &x->ts, &x->te);
		x->stream = cpb_stream(b, r);
		x->flags = ev_flags(b, r, blocking, nb, lock, nl);
		c->node[2 * c->nev] = (struct cp_node){x->ts, (uint32_t)c->nev, true};
		c->node[2 * c->nev + 1] = (struct cp_node){x->te, (uint32_t)c->nev, false};
		if (hmap_put(&b->ev_of, hmap_int((int64_t)r), (uint32_t)c->nev))
			return -1;
		c->nev++;
	}
	c->nnode = 2 * c->nev;
	gp_qsort_r(c->node, c->nnode, sizeof *c->node, node_cmp, c->ev);
	for (size_t i = 0; i < c->nnode; i++) {
		struct cp_ev *x = &c->ev[c->node[i].ev];
		if (c->node[i].is_start)
			x->start = (uint32_t)i;
		else
			x->end = (uint32_t)i;
	}
	return 0;
}

struct edge_key {
	const struct cp_edge *edge;
	uint32_t u, v;
};

static bool edge_eq(const void *ctx, uint32_t i)
{
	const struct edge_key *k = ctx;
	return k->edge[i].u == k->u && k->edge[i].v == k->v;
}

size_t cpb_edge(struct cpb *b, uint32_t u, uint32_t v, enum cp_etype type, bool zero)
{
	struct cp *c = b->c;
	int64_t w =
	    type == CP_DEPENDENCY || type == CP_SYNC || zero ? 0 : c->node[v].ts - c->node[u].ts;
	struct edge_key k = {c->edge, u, v};
	uint64_t key = hmap_hash(((uint64_t)u << 32) | v);
	uint32_t at;
	size_t slot = hmap_slot(&b->edge_of, key, edge_eq, &k, &at);
	if (slot == SIZE_MAX)
		return SIZE_MAX;
	if (at != HMAP_NONE) {
		c->edge[at].type = (uint8_t)type;
		c->edge[at].w = w;
		return at;
	}
	if (c->nedge == b->edge_cap) {
		size_t nc = b->edge_cap ? b->edge_cap * 2 : 1024;
		struct cp_edge *ne = realloc(c->edge, nc * sizeof *ne);
		if (!ne)
			return SIZE_MAX;
		c->edge = ne;
		b->edge_cap = nc;
	}
	c->edge[c->nedge] =
	    (struct cp_edge){.u = u, .v = v, .w = w, .attr = CP_NOEV, .type = (uint8_t)type};
	hmap_set(&b->edge_of, slot, key, (uint32_t)c->nedge);
	return c->nedge++;
}

void cpb_attribute(struct cpb *b, size_t i, uint32_t parent)
{
	struct cp *c = b->c;
	struct cp_edge *x = &c->edge[i];
	if (x->type != CP_OPERATOR && x->type != CP_KERNEL_GAP)
		return;
	const struct cp_node *s = &c->node[x->u], *d = &c->node[x->v];
	if (x->type == CP_KERNEL_GAP || s->is_start)
		x->attr = c->ev[s->ev].row;
	else if (!d->is_start)
		x->attr = c->ev[d->ev].row;
	else
		x->attr = parent;
}

/* HTA's checks before the path: no sync edge between kernels of one
 * stream, no cycle (found by the topological order). */
static int validate(const struct cpb *b, struct err *e)
{
	const struct cp *c = b->c;
	for (size_t i = 0; i < c->nedge; i++) {
		const struct cp_edge *x = &c->edge[i];
		if (x->type != CP_SYNC)
			continue;
		int64_t s = c->ev[c->node[x->u].ev].stream, d = c->ev[c->node[x->v].ev].stream;
		if (s != -1 && s == d)
			return err_set(e, ERR_FORMAT, b->t->path, -1,
				       "a synchronization edge between kernels of stream %lld: "
				       "HTA refuses such a graph",
				       (long long)s);
	}
	return 0;
}

/* The weight the path sees: HTA sets a negative weight of a microsecond
 * or more to 0 before the search. */
static int64_t path_w(const struct cp_edge *x)
{
	return x->w <= -1000 ? 0 : x->w;
}

/* networkx's dag_longest_path: the topological order of
 * topological_generations (nodes of in-degree 0 in id order, then each
 * generation's successors in edge order), each node's best predecessor
 * the first of maximal distance in edge order (none when that distance is
 * negative), the end the first node of maximal distance in that order. */
static int longest(struct cpb *b, struct err *e)
{
	struct cp *c = b->c;
	size_t n = c->nnode, m = c->nedge;
	uint32_t *off_s = calloc(n + 1, sizeof *off_s), *off_p = calloc(n + 1, sizeof *off_p);
	uint32_t *succ = malloc((m ? m : 1) * sizeof *succ),
		 *pred = malloc((m ? m : 1) * sizeof *pred);
	uint32_t *indeg = calloc(n ? n : 1, sizeof *indeg),
		 *topo = malloc((n ? n : 1) * sizeof *topo);
	int64_t *dist = malloc((n ? n : 1) * sizeof *dist);
	uint32_t *from = malloc((n ? n : 1) * sizeof *from);
	int rc = -1;
	if (!off_s || !off_p || !succ || !pred || !indeg || !topo || !dist || !from)
		goto out;
	for (size_t i = 0; i < m; i++) {
		off_s[c->edge[i].u + 1]++;
		off_p[c->edge[i].v + 1]++;
	}
	for (size_t i = 0; i < n; i++) {
		indeg[i] = off_p[i + 1];
		off_s[i + 1] += off_s[i];
		off_p[i + 1] += off_p[i];
	}
	for (size_t i = 0; i < m; i++) {
		succ[off_s[c->edge[i].u]++] = (uint32_t)i;
		pred[off_p[c->edge[i].v]++] = (uint32_t)i;
	}
	for (size_t i = n; i > 0; i--) {
		off_s[i] = off_s[i - 1];
		off_p[i] = off_p[i - 1];
	}
	off_s[0] = off_p[0] = 0;
	size_t nt = 0;
	for (size_t i = 0; i < n; i++)
		if (!indeg[i])
			topo[nt++] = (uint32_t)i;
	for (size_t g0 = 0; g0 < nt;) {
		size_t g1 = nt;
		for (size_t k = g0; k < g1; k++)
			for (uint32_t j = off_s[topo[k]]; j < off_s[topo[k] + 1]; j++) {
				uint32_t v = c->edge[succ[j]].v;
				if (!--indeg[v])
					topo[nt++] = v;
			}
		g0 = g1;
	}
	if (nt != n) {
		rc = err_set(e, ERR_FORMAT, b->t->path, -1,
			     "the critical path graph has a cycle (%zu of %zu nodes ordered)", nt,
			     n);
		goto out;
	}
	size_t end = 0;
	for (size_t k = 0; k < n; k++) {
		uint32_t v = topo[k];
		int64_t best = 0;
		uint32_t bu = v;
		bool any = false;
		for (uint32_t j = off_p[v]; j < off_p[v + 1]; j++) {
			const struct cp_edge *x = &c->edge[pred[j]];
			int64_t d = dist[x->u] + path_w(x);
			if (!any || d > best) {
				best = d;
				bu = x->u;
				any = true;
			}
		}
		if (!any || best < 0) {
			best = 0;
			bu = v;
		}
		dist[v] = best;
		from[v] = bu;
		if (k == 0 || best > dist[topo[end]])
			end = k;
	}
	size_t np = 0;
	if (n) {
		for (uint32_t v = topo[end];; v = from[v]) {
			topo[np++] = v; /* topo is free now: the path, reversed */
			if (from[v] == v)
				break;
		}
	}
	c->path = malloc((np ? np : 1) * sizeof *c->path);
	c->path_edge = malloc((np ? np : 1) * sizeof *c->path_edge);
	if (!c->path || !c->path_edge)
		goto out;
	for (size_t i = 0; i < np; i++)
		c->path[i] = topo[np - 1 - i];
	c->npath = np;
	for (size_t i = 0; i + 1 < np; i++) {
		struct edge_key k = {c->edge, c->path[i], c->path[i + 1]};
		uint64_t key = hmap_hash(((uint64_t)k.u << 32) | k.v);
		c->path_edge[i] = hmap_get(&b->edge_of, key, edge_eq, &k);
		c->edge[c->path_edge[i]].critical = true;
	}
	rc = 0;
out:
	free(off_s);
	free(off_p);
	free(succ);
	free(pred);
	free(indeg);
	free(topo);
	free(dist);
	free(from);
	if (rc == -1)
		return err_set(e, ERR_NOMEM, b->t->path, -1, "out of memory");
	return rc;
}

/* HTA's bound_by of a path edge; ktype: hta_name_ktype's memo. */
static enum cp_bound bound(const struct cpb *b, const struct cp_edge *x, uint8_t *ktype)
{
	switch ((enum cp_etype)x->type) {
	case CP_KERNEL_GAP:
		return CP_B_KERNEL_GAP;
	case CP_LAUNCH:
		return CP_B_LAUNCH;
	case CP_DEPENDENCY:
	case CP_SYNC:
	case CP_NETYPES:
		return CP_B_NONE;
	case CP_OPERATOR:
		break;
	}
	if (x->attr == CP_NOEV || cpb_stream(b, x->attr) < 0)
		return x->attr != CP_NOEV && b->o->ndata_load && data_load(b, x->attr) ? CP_B_DATA
										       : CP_B_CPU;
	return hta_name_ktype(b->t, ktype, b->t->ev.name[x->attr]) == HTA_COMM ? CP_B_COMM
									       : CP_B_COMPUTE;
}

static int tally(struct cpb *b)
{
	struct cp *c = b->c;
	for (size_t i = 0; i < c->nedge; i++)
		c->by_type[c->edge[i].type]++;
	uint8_t *ktype = calloc(b->t->pool.n ? b->t->pool.n : 1, 1);
	if (!ktype)
		return -1;
	for (size_t i = 0; i + 1 < c->npath; i++) {
		struct cp_edge *x = &c->edge[c->path_edge[i]];
		x->bound = (uint8_t)bound(b, x, ktype);
		c->bound_ns[x->bound] += x->w;
		c->bound_edges[x->bound]++;
		c->path_ns += x->w;
	}
	free(ktype);
	/* distinct events of the path's nodes */
	uint8_t *seen = calloc(c->nev ? c->nev : 1, 1);
	if (!seen)
		return -1;
	for (size_t i = 0; i < c->npath; i++) {
		uint32_t ev = c->node[c->path[i]].ev;
		c->critical_events += !seen[ev];
		seen[ev] = 1;
	}
	free(seen);
	return 0;
}

static int regexes(struct cpb *b, struct err *e)
{
	size_t n = b->o->ndata_load;
	if (!n)
		return 0;
	regex_t *re = calloc(n, sizeof *re);
	if (!re)
		return err_set(e, ERR_NOMEM, b->t->path, -1, "out of memory");
	b->re = re;
	for (size_t i = 0; i < n; i++)
		if (regcomp(&re[i], b->o->data_load[i], REG_EXTENDED | REG_NOSUB)) {
			for (size_t j = 0; j < i; j++)
				regfree(&re[j]);
			free(re);
			b->re = NULL;
			return err_set(e, ERR_USAGE, NULL, -1,
				       "--data-load: \"%s\" is not a regular expression",
				       b->o->data_load[i]);
		}
	return 0;
}

static void cpb_free(struct cpb *b, size_t nre)
{
	hta_events_free(&b->own);
	free(b->rowf);
	hmap_free(&b->corr_map);
	free(b->pair);
	hmap_free(&b->ev_of);
	hmap_free(&b->edge_of);
	regex_t *re = b->re;
	for (size_t i = 0; re && i < nre; i++)
		regfree(&re[i]);
	free(re);
}

int cp_compute(const struct trace *t, const struct cp_opts *o, struct cp *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	struct cpb b = {.t = t, .o = o, .c = out};
	int rc = o->events ? 0 : hta_events(t, &b.own, e);
	if (rc)
		return rc;
	b.h = o->events ? o->events : &b.own;
	out->rounded = b.h->rounded;
	out->has_sync = t->counts.by_kind[TR_CUDA_SYNC] > 0;
	if (names_init(&b) || rows_init(&b)) {
		rc = err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
		goto out;
	}
	if ((rc = regexes(&b, e)) || (rc = window(&b, e)))
		goto out;
	clip(&b);
	if (nodes(&b) || cpb_runtime_lock(&b) || cpb_call_stacks(&b) || cpb_kernels(&b)) {
		rc = err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
		goto out;
	}
	if ((rc = validate(&b, e)) || (rc = longest(&b, e)))
		goto out;
	if (tally(&b))
		rc = err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
out:
	cpb_free(&b, b.re ? o->ndata_load : 0);
	if (rc)
		cp_free(out);
	return rc;
}

void cp_free(struct cp *c)
{
	free(c->ev);
	free(c->node);
	free(c->edge);
	free(c->path);
	free(c->path_edge);
	memset(c, 0, sizeof *c);
}
