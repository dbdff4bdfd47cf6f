/* sequences: HTA's frequent kernel sequences; see sequences.h. */
#include "hta/sequences.h"

#include <stdlib.h>
#include <string.h>

#include "core/hmap.h"
#include "core/radix.h"
#include "core/vec.h"

enum { SQ_DF = 1, SQ_NODE = 2, SQ_GPU = 4 };

#define SQ_STEP_NAME "ProfilerStep"
#define SQ_STEP_OP "ProfilerStep#"
#define SQ_MAX ((size_t)UINT32_MAX) /* elements of a working array (32-bit rows) */

/* One event of a thread's sweep: its start (opens, zero-length events) or
 * end (closes), the key that orders equal times, the thread, the row. */
struct sq_pt {
	int64_t at, dur;
	uint32_t track, row;
};

struct sq {
	const struct trace *t;
	const struct hta_events *h;
	size_t n;
	uint32_t *par;	/* parent row, TR_NONE: a thread's top level (or no node) */
	uint8_t *flag;	/* SQ_* */
	int32_t *depth; /* -1 outside the graph */
	uint32_t *coff; /* children of row r: kid[coff[r] .. coff[r + 1]) */
	uint32_t *kid;
	uint8_t *trk_ok; /* per track: a CPU thread HTA builds a call stack for */
};

static bool numeric_zero(const struct tr_id *id)
{
	return !id->is_str && id->num == 0;
}

static void sq_times(const struct sq *s, uint32_t r, int64_t *ts, int64_t *end)
{
	hta_row_times(s->t, s->h, r, ts, end);
}

/* Which rows HTA's events table holds, and which of them nest on a
 * thread (no stream, on a track HTA does not take for a device's). */
static int sq_mark(struct sq *s)
{
	const struct trace *t = s->t;
	s->trk_ok = malloc(t->tracks.n ? t->tracks.n : 1);
	if (!s->trk_ok)
		return -1;
	for (size_t k = 0; k < t->tracks.n; k++)
		s->trk_ok[k] =
		    !numeric_zero(&t->tracks.v[k].pid) && !numeric_zero(&t->tracks.v[k].tid);
	for (size_t r = 0; r < s->n; r++)
		if (hta_cpu_kept(t, s->h, r)) {
			s->flag[r] = SQ_DF;
			if (hta_row_stream(t, r) == -1 && s->trk_ok[t->ev.track[r]])
				s->flag[r] |= SQ_NODE;
		}
	for (size_t i = 0; i < s->h->n; i++)
		s->flag[s->h->v[i].row] |= SQ_DF;
	return 0;
}

static uint32_t *sq_top(uint32_t *stk, size_t ns)
{
	return ns ? &stk[ns - 1] : NULL;
}

/* The sweep of one thread's points: o (starts of events of nonzero
 * length), c (their ends), z (zero-length events), each sorted. */
static int sq_sweep(struct sq *s, const struct sq_pt *o, size_t no, const struct sq_pt *c,
		    size_t nc, const struct sq_pt *z, size_t nz)
{
	size_t io = 0, ic = 0, iz = 0, ns = 0, cap = 0;
	uint32_t *stk = NULL;
	while (io < no || ic < nc || iz < nz) {
		int64_t at = INT64_MAX;
		at = io < no && o[io].at < at ? o[io].at : at;
		at = ic < nc && c[ic].at < at ? c[ic].at : at;
		at = iz < nz && z[iz].at < at ? z[iz].at : at;
		bool opens = io < no && o[io].at == at;
		for (int pass = 0; pass < 2; pass++) {
			/* without a start at this time, zero-length events come
			 * before the ends; with one, after the starts */
			if (pass == (opens ? 1 : 0)) {
				uint32_t up = ns ? stk[ns - 1] : TR_NONE;
				for (; iz < nz && z[iz].at == at; iz++) {
					s->par[z[iz].row] = up;
					up = z[iz].row;
				}
			} else {
				for (; ic < nc && c[ic].at == at; ic++)
					ns -= ns > 0;
				for (; io < no && o[io].at == at; io++) {
					uint32_t *top = sq_top(stk, ns);
					s->par[o[io].row] = top ? *top : TR_NONE;
					if (vec_reserve_((void **)&stk, &cap, ns + 1, sizeof *stk,
							 SQ_MAX)) {
						free(stk);
						return -1;
					}
					stk[ns++] = o[io].row;
				}
			}
		}
	}
	free(stk);
	return 0;
}

/* HTA's nesting of every thread's events. */
static int sq_nest(struct sq *s)
{
	size_t no = 0, nz = 0;
	for (size_t r = 0; r < s->n; r++)
		if (s->flag[r] & SQ_NODE) {
			int64_t a, b;
			sq_times(s, (uint32_t)r, &a, &b);
			no += b != a;
			nz += b == a;
		}
	struct sq_pt *o = malloc((no ? no : 1) * sizeof *o);
	struct sq_pt *c = malloc((no ? no : 1) * sizeof *c);
	struct sq_pt *z = malloc((nz ? nz : 1) * sizeof *z);
	int rc = -1;
	if (!o || !c || !z)
		goto out;
	size_t io = 0, iz = 0;
	for (size_t r = 0; r < s->n; r++) {
		if (!(s->flag[r] & SQ_NODE))
			continue;
		int64_t a, b;
		sq_times(s, (uint32_t)r, &a, &b);
		uint32_t k = s->t->ev.track[r];
		if (a == b) {
			z[iz++] = (struct sq_pt){a, 0, k, (uint32_t)r};
			continue;
		}
		o[io] = (struct sq_pt){a, b - a, k, (uint32_t)r};
		c[io++] = (struct sq_pt){b, b - a, k, (uint32_t)r};
	}
	const struct rx_key ko[] = {
	    RX_KEY(struct sq_pt, track, RX_U32), RX_KEY(struct sq_pt, at, RX_I64),
	    RX_KEY_DESC(struct sq_pt, dur, RX_I64), RX_KEY(struct sq_pt, row, RX_U32)};
	const struct rx_key kc[] = {
	    RX_KEY(struct sq_pt, track, RX_U32), RX_KEY(struct sq_pt, at, RX_I64),
	    RX_KEY(struct sq_pt, dur, RX_I64), RX_KEY_DESC(struct sq_pt, row, RX_U32)};
	const struct rx_key kz[] = {RX_KEY(struct sq_pt, track, RX_U32),
				    RX_KEY(struct sq_pt, at, RX_I64),
				    RX_KEY(struct sq_pt, row, RX_U32)};
	if (rx_sort(o, no, sizeof *o, ko, 4) || rx_sort(c, no, sizeof *c, kc, 4) ||
	    rx_sort(z, nz, sizeof *z, kz, 3))
		goto out;
	size_t a = 0, b = 0, d = 0;
	while (a < no || d < nz) {
		uint32_t k = a < no ? o[a].track : z[d].track;
		if (d < nz && z[d].track < k)
			k = z[d].track;
		size_t ea = a, eb = b, ed = d;
		while (ea < no && o[ea].track == k)
			ea++;
		while (eb < no && c[eb].track == k)
			eb++;
		while (ed < nz && z[ed].track == k)
			ed++;
		if (sq_sweep(s, o + a, ea - a, c + b, eb - b, z + d, ed - d))
			goto out;
		a = ea, b = eb, d = ed;
	}
	rc = 0;
out:
	free(o);
	free(c);
	free(z);
	return rc;
}

/* Device events under their launching CPU event. */
static void sq_link_gpu(struct sq *s)
{
	for (size_t i = 0; i < s->h->n; i++) {
		const struct hta_ev *v = &s->h->v[i];
		if (v->stream > 0 && v->rt_row != TR_NONE && (s->flag[v->rt_row] & SQ_NODE)) {
			s->par[v->row] = v->rt_row;
			s->flag[v->row] |= SQ_NODE | SQ_GPU;
		}
	}
}

static bool name_has(const struct trace *t, uint32_t id, const char *p, bool prefix)
{
	size_t n = strlen(p), len = strpool_len(&t->pool, id);
	const char *s = tr_str(t, id);
	if (prefix)
		return len >= n && !memcmp(s, p, n);
	for (size_t i = 0; i + n <= len; i++)
		if (!memcmp(s + i, p, n))
			return true;
	return false;
}

/* The threads' labels, as HTA's call graph infers them: 2 "main" (a
 * ProfilerStep# among its names), 1 "bwd" (an autograd:: name), 0 other;
 * -1 for a track without a call stack. */
static int sq_labels(const struct sq *s, int8_t *lab)
{
	const struct trace *t = s->t;
	uint8_t *memo = calloc(t->pool.n ? t->pool.n : 1, 1); /* 1 + label */
	if (!memo)
		return -1;
	for (size_t k = 0; k < t->tracks.n; k++)
		lab[k] = -1;
	for (size_t r = 0; r < s->n; r++)
		if (s->flag[r] & SQ_NODE && !(s->flag[r] & SQ_GPU))
			lab[t->ev.track[r]] = 0;
	for (size_t r = 0; r < s->n; r++) {
		uint32_t k = t->ev.track[r], nm = t->ev.name[r];
		if (!(s->flag[r] & SQ_DF) || lab[k] < 0)
			continue;
		if (!memo[nm])
			memo[nm] = 1 + (name_has(t, nm, SQ_STEP_OP, true)      ? 2
					: name_has(t, nm, "autograd::", false) ? 1
									       : 0);
		if (memo[nm] - 1 > lab[k])
			lab[k] = (int8_t)(memo[nm] - 1);
	}
	free(memo);
	return 0;
}

static int tid_cmp(const struct tr_id *a, const struct tr_id *b)
{
	if (a->is_str != b->is_str)
		return a->is_str ? 1 : -1;
	int64_t x = a->is_str ? a->str : a->num, y = b->is_str ? b->str : b->num;
	return x < y ? -1 : x > y;
}

/* A top-level event of the backward thread, left to link. */
struct sq_top {
	int64_t a, b;
	uint32_t row;
};

/* The next top at or after i not yet linked (nx: a skip list with its
 * paths shortened as it is walked; nx[n] = n). */
static size_t sq_next(uint32_t *nx, size_t i)
{
	size_t r = i;
	while (nx[r] != r)
		r = nx[r];
	while (nx[i] != r) {
		size_t up = nx[i];
		nx[i] = (uint32_t)r;
		i = up;
	}
	return r;
}

/* Whether row r is a top-level event of thread bwd not linked yet. */
static bool sq_is_top(const struct sq *s, size_t r, uint32_t bwd)
{
	return (s->flag[r] & SQ_NODE) && s->t->ev.track[r] == bwd && s->par[r] == TR_NONE;
}

/* Links each top-level event of thread bwd under the first of the main
 * thread's events named ann (in row order) that holds it. The tops come
 * by start, so an annotation meets only the tops starting inside it: a
 * test of every top against every annotation was quadratic. */
static int sq_link_tops(struct sq *s, uint32_t bwd, uint32_t main, const char *ann)
{
	const struct trace *t = s->t;
	size_t n = 0;
	for (size_t r = 0; r < s->n; r++)
		n += sq_is_top(s, r, bwd);
	struct sq_top *top = malloc((n ? n : 1) * sizeof *top);
	uint32_t *nx = malloc((n + 1) * sizeof *nx);
	static const struct rx_key by_start[] = {RX_KEY(struct sq_top, a, RX_I64)};
	if (!top || !nx || n >= SQ_MAX) {
		free(top);
		free(nx);
		return -1;
	}
	n = 0;
	for (size_t r = 0; r < s->n; r++)
		if (sq_is_top(s, r, bwd)) {
			sq_times(s, (uint32_t)r, &top[n].a, &top[n].b);
			top[n++].row = (uint32_t)r;
		}
	int rc = rx_sort(top, n, sizeof *top, by_start, 1);
	for (size_t i = 0; i <= n; i++)
		nx[i] = (uint32_t)i;
	size_t left = n;
	for (size_t p = 0; p < s->n && left && !rc; p++) {
		if (!(s->flag[p] & SQ_NODE) || t->ev.track[p] != main ||
		    !name_has(t, t->ev.name[p], ann, true))
			continue;
		int64_t pa, pb;
		sq_times(s, (uint32_t)p, &pa, &pb);
		size_t lo = 0, hi = n; /* the first top starting at or after pa */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (top[mid].a < pa)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t i = sq_next(nx, lo); i < n && top[i].a <= pb; i = sq_next(nx, i + 1))
			if (top[i].b <= pb) {
				s->par[top[i].row] = (uint32_t)p;
				nx[i] = (uint32_t)(i + 1);
				left--;
			}
	}
	free(top);
	free(nx);
	return rc;
}

/* HTA's link of the backward thread's top level under the main thread's
 * "## backward ##" annotations (else its steps): when exactly two threads
 * are labelled, the first by (label, pid, tid) takes the second's. It
 * stops when that thread's top level is empty (HTA would go on with the
 * other thread's own top level and loop). */
static int sq_link_bwd(struct sq *s)
{
	const struct trace *t = s->t;
	int8_t *lab = malloc(t->tracks.n ? t->tracks.n : 1);
	if (!lab || sq_labels(s, lab)) {
		free(lab);
		return -1;
	}
	uint32_t two[2];
	size_t nl = 0;
	for (size_t k = 0; k < t->tracks.n; k++)
		if (lab[k] >= 1 && nl++ < 2)
			two[nl - 1] = (uint32_t)k;
	if (nl != 2) {
		free(lab);
		return 0;
	}
	const struct tr_track *x = &t->tracks.v[two[0]], *y = &t->tracks.v[two[1]];
	int c = lab[two[0]] != lab[two[1]] ? lab[two[0]] - lab[two[1]] : tid_cmp(&x->pid, &y->pid);
	if (!c)
		c = tid_cmp(&x->tid, &y->tid);
	uint32_t bwd = c <= 0 ? two[0] : two[1], main = c <= 0 ? two[1] : two[0];
	free(lab);
	const char *ann = "## backward ##";
	bool any = false;
	for (size_t r = 0; r < s->n && !any; r++)
		any = (s->flag[r] & SQ_DF) && t->ev.track[r] == main &&
		      name_has(t, t->ev.name[r], ann, true);
	if (!any)
		ann = SQ_STEP_OP;
	return sq_link_tops(s, bwd, main, ann);
}

/* Depths from the parents (a thread's top level is 0; a row outside the
 * graph -1), and the children of every node. */
static int sq_tree(struct sq *s)
{
	uint32_t *path = NULL;
	size_t cap = 0;
	for (size_t r = 0; r < s->n; r++)
		s->depth[r] = -1;
	for (size_t r = 0; r < s->n; r++) {
		if (!(s->flag[r] & SQ_NODE) || s->depth[r] >= 0)
			continue;
		size_t np = 0;
		uint32_t x = (uint32_t)r;
		while (x != TR_NONE && s->depth[x] < 0) {
			if (vec_reserve_((void **)&path, &cap, np + 1, sizeof *path, SQ_MAX)) {
				free(path);
				return -1;
			}
			path[np++] = x;
			x = s->par[x];
		}
		int32_t d = x == TR_NONE ? -1 : s->depth[x];
		while (np)
			s->depth[path[--np]] = ++d;
	}
	free(path);
	s->coff = calloc(s->n + 1, sizeof *s->coff);
	s->kid = malloc((s->n ? s->n : 1) * sizeof *s->kid);
	if (!s->coff || !s->kid)
		return -1;
	for (size_t r = 0; r < s->n; r++)
		if ((s->flag[r] & SQ_NODE) && s->par[r] != TR_NONE)
			s->coff[s->par[r] + 1]++;
	for (size_t r = 0; r < s->n; r++)
		s->coff[r + 1] += s->coff[r];
	uint32_t *fill = malloc((s->n ? s->n : 1) * sizeof *fill);
	if (!fill)
		return -1;
	memcpy(fill, s->coff, s->n * sizeof *fill);
	for (size_t r = 0; r < s->n; r++)
		if ((s->flag[r] & SQ_NODE) && s->par[r] != TR_NONE)
			s->kid[fill[s->par[r]]++] = (uint32_t)r;
	free(fill);
	return 0;
}

/* The pattern table while counting: tuples of string ids (the first a
 * name id, or TR_NONE for "ProfilerStep"), found by hash. */
struct sq_pats {
	struct hmap map;
	uint32_t *tup;
	size_t ntup, captup;
	struct sq_pat {
		size_t off, len;
		size_t count;
		int64_t gpu, cpu;
		uint32_t first;
	} * v;
	size_t n, cap;
	const uint32_t *q; /* the tuple looked up */
	size_t nq;
};

static bool sq_pat_eq(const void *ctx, uint32_t i)
{
	const struct sq_pats *p = ctx;
	const struct sq_pat *x = &p->v[i];
	return x->len == p->nq && !memcmp(p->tup + x->off, p->q, p->nq * sizeof *p->q);
}

/* The pattern of tuple q (new or seen); its index, or UINT32_MAX when out
 * of memory. */
static uint32_t sq_pat_find(struct sq_pats *p, const uint32_t *q, size_t nq, uint32_t inst)
{
	p->q = q;
	p->nq = nq;
	uint64_t key = strpool_hash(q, nq * sizeof *q) | 1;
	uint32_t v;
	size_t slot = hmap_slot(&p->map, key, sq_pat_eq, p, &v);
	if (slot == SIZE_MAX)
		return UINT32_MAX;
	if (v != HMAP_NONE)
		return v;
	if (vec_reserve_((void **)&p->v, &p->cap, p->n + 1, sizeof *p->v, SQ_MAX) ||
	    vec_reserve_((void **)&p->tup, &p->captup, p->ntup + nq, sizeof *p->tup, SQ_MAX))
		return UINT32_MAX;
	memcpy(p->tup + p->ntup, q, nq * sizeof *q);
	p->v[p->n] = (struct sq_pat){.off = p->ntup, .len = nq, .first = inst};
	p->ntup += nq;
	hmap_set(&p->map, slot, key, (uint32_t)p->n);
	return (uint32_t)p->n++;
}

struct sq_k {
	int64_t ts;
	uint32_t row;
};

static int sq_k_cmp(const void *a, const void *b)
{
	const struct sq_k *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* Growable arrays of the run. */
struct sq_buf {
	uint32_t *rows; /* the instances' events */
	size_t nrows, caprows;
	struct sq_k *k; /* one instance's device events */
	size_t capk;
	uint32_t *q; /* its tuple */
	size_t capq;
	uint32_t *dfs;
	size_t capdfs;
	struct hta_seq_inst *inst;
	size_t ninst, capinst;
};

/* The events at and below root into b->rows (preorder), its device events
 * into b->k; how many device events. -1 when out of memory. */
static long long sq_subtree(const struct sq *s, struct sq_buf *b, uint32_t root, size_t *nk)
{
	size_t nd = 0;
	*nk = 0;
	if (vec_reserve_((void **)&b->dfs, &b->capdfs, 1, sizeof *b->dfs, SQ_MAX))
		return -1;
	b->dfs[nd++] = root;
	while (nd) {
		uint32_t x = b->dfs[--nd];
		if (vec_reserve_((void **)&b->rows, &b->caprows, b->nrows + 1, sizeof *b->rows,
				 SQ_MAX))
			return -1;
		b->rows[b->nrows++] = x;
		if (s->flag[x] & SQ_GPU) {
			int64_t a, e;
			sq_times(s, x, &a, &e);
			if (vec_reserve_((void **)&b->k, &b->capk, *nk + 1, sizeof *b->k, SQ_MAX))
				return -1;
			b->k[(*nk)++] = (struct sq_k){a, x};
		}
		size_t nc = s->coff[x + 1] - s->coff[x];
		if (vec_reserve_((void **)&b->dfs, &b->capdfs, nd + nc, sizeof *b->dfs, SQ_MAX))
			return -1;
		for (size_t i = nc; i-- > 0;)
			b->dfs[nd++] = s->kid[s->coff[x] + i];
	}
	return (long long)*nk;
}

static bool sq_matches(const struct trace *t, uint32_t nm, const struct hta_seq_opts *o,
		       uint8_t *memo)
{
	if (!memo[nm])
		memo[nm] = 1 + name_has(t, nm, o->op ? o->op : SQ_STEP_OP, false);
	return memo[nm] == 2;
}

/* The instances and their patterns, in trace order. */
static int sq_instances(const struct sq *s, const struct hta_seq_opts *o, struct sq_pats *p,
			struct sq_buf *b, struct hta_seqs *out)
{
	const struct trace *t = s->t;
	uint8_t *memo = calloc(t->pool.n ? t->pool.n : 1, 1);
	if (!memo)
		return -1;
	int32_t dmin = INT32_MAX;
	for (size_t r = 0; r < s->n; r++)
		if ((s->flag[r] & SQ_DF) && sq_matches(t, t->ev.name[r], o, memo)) {
			out->candidates++;
			dmin = s->depth[r] < dmin ? s->depth[r] : dmin;
		}
	out->depth = out->candidates ? dmin : -1;
	int rc = 0;
	for (size_t r = 0; r < s->n && out->candidates && dmin >= 0 && !rc; r++) {
		if (!(s->flag[r] & SQ_DF) || s->depth[r] != dmin ||
		    !sq_matches(t, t->ev.name[r], o, memo))
			continue;
		size_t off = b->nrows, nk;
		if (sq_subtree(s, b, (uint32_t)r, &nk) < 0) {
			rc = -1;
			break;
		}
		if (nk < o->min_len) {
			b->nrows = off;
			continue;
		}
		qsort(b->k, nk, sizeof *b->k, sq_k_cmp);
		if (vec_reserve_((void **)&b->q, &b->capq, nk + 1, sizeof *b->q, SQ_MAX) ||
		    vec_reserve_((void **)&b->inst, &b->capinst, b->ninst + 1, sizeof *b->inst,
				 SQ_MAX)) {
			rc = -1;
			break;
		}
		b->q[0] = o->op ? t->ev.name[r] : TR_NONE;
		struct hta_seq_inst *in = &b->inst[b->ninst];
		*in = (struct hta_seq_inst){
		    .row = (uint32_t)r, .kernels = nk, .off = off, .n = b->nrows - off};
		int64_t end;
		sq_times(s, (uint32_t)r, &in->ts, &end);
		in->dur_ns = end - in->ts;
		for (size_t i = 0; i < nk; i++) {
			int64_t a, e;
			sq_times(s, b->k[i].row, &a, &e);
			in->gpu_ns += e - a;
			b->q[i + 1] = t->ev.name[b->k[i].row];
		}
		uint32_t pi = sq_pat_find(p, b->q, nk + 1, (uint32_t)b->ninst);
		if (pi == UINT32_MAX) {
			rc = -1;
			break;
		}
		in->pattern = pi;
		p->v[pi].count++;
		p->v[pi].gpu += in->gpu_ns;
		p->v[pi].cpu += in->dur_ns;
		b->ninst++;
	}
	free(memo);
	return rc;
}

static char *sq_text(const struct trace *t, const uint32_t *q, size_t n)
{
	size_t len = 0;
	for (size_t i = 0; i < n; i++)
		len += (q[i] == TR_NONE ? strlen(SQ_STEP_NAME) : strpool_len(&t->pool, q[i])) + 1;
	char *s = malloc(len ? len : 1), *w = s;
	if (!s)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const char *x = q[i] == TR_NONE ? SQ_STEP_NAME : tr_str(t, q[i]);
		size_t m = q[i] == TR_NONE ? strlen(SQ_STEP_NAME) : strpool_len(&t->pool, q[i]);
		if (i)
			*w++ = '|';
		memcpy(w, x, m);
		w += m;
	}
	*w = 0;
	return s;
}

/* HTA's order: count, largest first; then the text bytewise (its strings
 * hold the names' bytes: ordering by code point is ordering by UTF-8
 * bytes); then the first instance. */
static int sq_pat_cmp(const void *a, const void *b)
{
	const struct hta_seq_pattern *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	int c = strcmp(x->text, y->text);
	if (c)
		return c;
	return x->first < y->first ? -1 : x->first > y->first;
}

static int sq_finish(const struct trace *t, struct sq_pats *p, struct sq_buf *b,
		     struct hta_seqs *out)
{
	out->inst = b->inst;
	out->ninst = b->ninst;
	out->rows = b->rows;
	b->inst = NULL;
	b->rows = NULL;
	out->pat = calloc(p->n ? p->n : 1, sizeof *out->pat);
	uint32_t *rank = malloc((p->n ? p->n : 1) * sizeof *rank);
	if (!out->pat || !rank) {
		free(rank);
		return -1;
	}
	out->npat = p->n;
	for (size_t i = 0; i < p->n; i++) {
		const struct sq_pat *x = &p->v[i];
		out->pat[i] = (struct hta_seq_pattern){.text = sq_text(t, p->tup + x->off, x->len),
						       .kernels = x->len - 1,
						       .count = x->count,
						       .gpu_ns = x->gpu,
						       .cpu_ns = x->cpu,
						       .first = x->first};
		if (!out->pat[i].text) {
			free(rank);
			return -1;
		}
	}
	qsort(out->pat, out->npat, sizeof *out->pat, sq_pat_cmp);
	/* a pattern's first instance names it: the instances' patterns renumbered */
	for (size_t i = 0; i < out->npat; i++)
		rank[out->inst[out->pat[i].first].pattern] = (uint32_t)i;
	for (size_t i = 0; i < out->ninst; i++)
		out->inst[i].pattern = rank[out->inst[i].pattern];
	free(rank);
	return 0;
}

int hta_sequences(const struct trace *t, const struct hta_events *h, const struct hta_seq_opts *o,
		  struct hta_seqs *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	out->depth = -1;
	struct sq s = {.t = t, .h = h, .n = t->ev.n};
	struct sq_pats p = {0};
	struct sq_buf b = {0};
	size_t n = s.n ? s.n : 1;
	s.par = malloc(n * sizeof *s.par);
	s.flag = calloc(n, 1);
	s.depth = malloc(n * sizeof *s.depth);
	int rc = -1;
	if (!s.par || !s.flag || !s.depth)
		goto out;
	for (size_t r = 0; r < s.n; r++)
		s.par[r] = TR_NONE;
	if (sq_mark(&s) || sq_nest(&s))
		goto out;
	sq_link_gpu(&s);
	if (sq_link_bwd(&s) || sq_tree(&s) || sq_instances(&s, o, &p, &b, out) ||
	    sq_finish(t, &p, &b, out))
		goto out;
	rc = 0;
out:
	free(s.par);
	free(s.flag);
	free(s.depth);
	free(s.coff);
	free(s.kid);
	free(s.trk_ok);
	hmap_free(&p.map);
	free(p.tup);
	free(p.v);
	free(b.rows);
	free(b.k);
	free(b.q);
	free(b.dfs);
	free(b.inst);
	if (rc) {
		hta_sequences_free(out);
		return err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
	}
	return 0;
}

void hta_sequences_free(struct hta_seqs *s)
{
	for (size_t i = 0; i < s->npat; i++)
		free(s->pat[i].text);
	free(s->pat);
	free(s->inst);
	free(s->rows);
	memset(s, 0, sizeof *s);
}
