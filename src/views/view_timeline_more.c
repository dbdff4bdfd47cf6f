/* view_timeline_more: the timeline's counters, flow arrows and an event's
 * links (see view_timeline.c for the lanes and view.h for the contract).
 *
 * Counters (ph C, one row per series) become one lane per (process, name,
 * series), in the lane order of their process, then by first appearance of
 * the name and series. A window's points: the sample in effect at its start
 * (the last one before it, if any) as {ts, value}, then per pixel column
 * either the one sample {col, ts, value} or, for several, {col, ts, end,
 * count, min, max, last}: at most px + 1 points per counter.
 *
 * Flows: the launch -> GPU activity links of trace/link.c (the
 * "correlation" argument; Kineto's "ac2g" s/f events say the same and are
 * not drawn twice) and the chains of other s/t/f events: consecutive events
 * of one (cat, id) by time. An end binds as chrome://tracing binds it: s
 * and t (and f with "bp": "e") to the deepest slice enclosing it on its
 * track, f to the next slice that starts at or after it. The index lists
 * the arrows once in the order they are written, with their ids by each
 * end's time, so a window finds its arrows by binary search (O(log n + its
 * arrows)); at most TL_MAX_FLOWS arrows with an end in the window are
 * written, picked evenly. */
#include <stdlib.h>
#include <string.h>

#include "core/radix.h"
#include "core/sort.h"
#include "views/timeline_int.h"

static const char *ph_rank = "stf";

static int flow_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct trace *t = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const struct tr_flow *x = &t->flows.v[a], *y = &t->flows.v[b];
	if (x->cat != y->cat)
		return x->cat < y->cat ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	long rx = strchr(ph_rank, x->ph) - ph_rank, ry = strchr(ph_rank, y->ph) - ph_rank;
	if (rx != ry)
		return rx < ry ? -1 : 1;
	return a < b ? -1 : a > b;
}

static int counter_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct tl_index *ix = ctx;
	const struct trace *t = ix->t;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const struct tr_counter *x = &t->counters.v[a], *y = &t->counters.v[b];
	uint32_t px = t->tracks.v[x->track].process, py = t->tracks.v[y->track].process;
	uint32_t rx = ix->proc_rank[px], ry = ix->proc_rank[py];
	if (rx != ry)
		return rx < ry ? -1 : 1;
	if (px != py)
		return px < py ? -1 : 1;
	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	if (x->series != y->series)
		return x->series < y->series ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return a < b ? -1 : a > b;
}

static bool same_group(const struct trace *t, uint32_t a, uint32_t b)
{
	const struct tr_counter *x = &t->counters.v[a], *y = &t->counters.v[b];
	return t->tracks.v[x->track].process == t->tracks.v[y->track].process &&
	       x->name == y->name && x->series == y->series;
}

static bool is_ac2g(const struct trace *t, const struct tr_flow *fl)
{
	return !strcmp(tr_str(t, fl->cat), "ac2g");
}

/* The time of an arrow's first end, or of its second. */
static int64_t arrow_t(const struct tl_index *ix, const struct tl_arrow *r, bool second)
{
	const struct trace *t = ix->t;
	if (r->b != TR_NONE)
		return t->ev.ts[second ? r->b : r->a];
	return t->flows.v[ix->flows[r->a + second]].ts;
}

/* ix->arrows in their order (launches, then the pairs of consecutive
 * events of a chain; Kineto's ac2g chains repeat the launches), and the
 * ids by each end's time. */
static int arrows_build(struct tl_index *ix)
{
	const struct trace *t = ix->t;
	const struct tr_links *lk = &ix->links;
	size_t n = lk->ndev + (t->flows.n ? t->flows.n - 1 : 0), k = 0;
	ix->arrows = malloc((n ? n : 1) * sizeof *ix->arrows);
	ix->by_t0 = malloc((n ? n : 1) * sizeof *ix->by_t0);
	ix->by_t1 = malloc((n ? n : 1) * sizeof *ix->by_t1);
	if (!ix->arrows || !ix->by_t0 || !ix->by_t1 || n > UINT32_MAX)
		return -1;
	for (size_t s = 0; s < lk->nseg; s++) {
		uint32_t rt = lk->seg[s].rt;
		for (uint32_t i = 0; i < lk->seg[s].count; i++) {
			uint32_t d = lk->dev[lk->seg[s].first + i];
			ix->arrows[k++] = (struct tl_arrow){rt, d};
		}
	}
	for (size_t i = 0; i + 1 < t->flows.n; i++) {
		const struct tr_flow *x = &t->flows.v[ix->flows[i]],
				     *y = &t->flows.v[ix->flows[i + 1]];
		if (x->cat == y->cat && x->id == y->id && !is_ac2g(t, x))
			ix->arrows[k++] = (struct tl_arrow){(uint32_t)i, TR_NONE};
	}
	ix->narrows = k;
	struct idt {
		int64_t ts;
		uint32_t id;
	} *v = malloc((k ? k : 1) * sizeof *v);
	static const struct rx_key by_ts[] = {RX_KEY(struct idt, ts, RX_I64)};
	int rc = v ? 0 : -1;
	for (int end = 0; end < 2 && !rc; end++) {
		for (size_t i = 0; i < k; i++)
			v[i] = (struct idt){arrow_t(ix, &ix->arrows[i], end), (uint32_t)i};
		rc = rx_sort(v, k, sizeof *v, by_ts, 1);
		uint32_t *out = end ? ix->by_t1 : ix->by_t0;
		for (size_t i = 0; i < k && !rc; i++)
			out[i] = v[i].id;
	}
	free(v);
	return rc;
}

int tl_more_build(struct tl_index *ix)
{
	const struct trace *t = ix->t;
	size_t nc = t->counters.n, nf = t->flows.n;
	ix->crows = malloc((nc ? nc : 1) * sizeof *ix->crows);
	ix->cfirst = malloc((nc + 1) * sizeof *ix->cfirst);
	ix->flows = malloc((nf ? nf : 1) * sizeof *ix->flows);
	if (!ix->crows || !ix->cfirst || !ix->flows)
		return -1;
	for (size_t i = 0; i < nc; i++)
		ix->crows[i] = (uint32_t)i;
	gp_qsort_r(ix->crows, nc, sizeof *ix->crows, counter_cmp, ix);
	ix->ngroups = 0;
	for (size_t i = 0; i < nc; i++)
		if (!i || !same_group(t, ix->crows[i - 1], ix->crows[i]))
			ix->cfirst[ix->ngroups++] = i;
	ix->cfirst[ix->ngroups] = nc;
	for (size_t i = 0; i < nf; i++)
		ix->flows[i] = (uint32_t)i;
	gp_qsort_r(ix->flows, nf, sizeof *ix->flows, flow_cmp, (void *)t);
	struct err e = {0};
	return tr_links_build(t, true, &ix->links, &e) || arrows_build(ix) ? -1 : 0;
}

void tl_more_free(struct tl_index *ix)
{
	free(ix->crows);
	free(ix->cfirst);
	free(ix->flows);
	free(ix->arrows);
	free(ix->by_t0);
	free(ix->by_t1);
	tr_links_free(&ix->links);
}

static int64_t col_of(int64_t ts, int64_t A, double W, int px)
{
	int64_t c = (int64_t)((double)(ts - A) * px / W);
	return c < 0 ? 0 : c >= px ? px - 1 : c;
}

void tl_write_points(const struct tl_points *pt, FILE *f, int64_t A, int64_t B, int px, int64_t lo,
		     size_t *items, bool *truncated)
{
	double W = (double)B - (double)A;
	size_t b = pt->b, en = pt->en, l = b, r = en;
	int64_t ts;
	double v;
	while (l < r) { /* the first sample at or after A */
		size_t m = l + (r - l) / 2;
		pt->get(pt->ctx, m, &ts, &v);
		if (ts >= A)
			r = m;
		else
			l = m + 1;
	}
	fputs(", \"points\": [", f);
	bool first = true;
	if (l > b && *items < TL_MAX_ITEMS) { /* the value in effect at A */
		pt->get(pt->ctx, l - 1, &ts, &v);
		fprintf(f, "\n    {\"ts\": %lld, \"value\": ", (long long)(ts - lo));
		rep_json_num(f, v);
		fputc('}', f);
		first = false;
		(*items)++;
	}
	size_t n = 0;
	double mn = 0, mx = 0;
	for (size_t i = l; i < en;) {
		double cv;
		pt->get(pt->ctx, i, &ts, &cv);
		if (ts >= B)
			break;
		int64_t col = col_of(ts, A, W, px), tj, tlast = ts;
		double cmin = cv, cmax = cv, last = cv;
		size_t j = i + 1;
		for (; j < en; j++) {
			pt->get(pt->ctx, j, &tj, &v);
			if (tj >= B || col_of(tj, A, W, px) != col)
				break;
			cmin = v < cmin ? v : cmin;
			cmax = v > cmax ? v : cmax;
			last = v;
			tlast = tj;
		}
		mn = n == 0 || cmin < mn ? cmin : mn;
		mx = n == 0 || cmax > mx ? cmax : mx;
		n += j - i;
		if (*items >= TL_MAX_ITEMS) {
			*truncated = true;
			i = j;
			continue;
		}
		fprintf(f, "%s\n    {\"col\": %lld, \"ts\": %lld, ", first ? "" : ",",
			(long long)col, (long long)(ts - lo));
		if (j - i == 1) {
			fputs("\"value\": ", f);
			rep_json_num(f, cv);
		} else {
			fprintf(f,
				"\"end\": %lld, \"count\": %zu, \"min\": ", (long long)(tlast - lo),
				j - i);
			rep_json_num(f, cmin);
			fputs(", \"max\": ", f);
			rep_json_num(f, cmax);
			fputs(", \"last\": ", f);
			rep_json_num(f, last);
		}
		fputc('}', f);
		first = false;
		(*items)++;
		i = j;
	}
	fprintf(f, "%s], \"samples\": %zu, \"min\": ", first ? "" : "\n   ", n);
	if (n)
		rep_json_num(f, mn);
	else
		fputs("null", f);
	fputs(", \"max\": ", f);
	if (n)
		rep_json_num(f, mx);
	else
		fputs("null", f);
}

static void counter_at(const void *ctx, size_t pos, int64_t *ts, double *value)
{
	const struct tl_index *ix = ctx;
	const struct tr_counter *c = &ix->t->counters.v[ix->crows[pos]];
	*ts = c->ts;
	*value = c->value;
}

void tl_write_counters(const struct tl_index *ix, FILE *f, int64_t A, int64_t B, int px, int64_t lo,
		       size_t *items, bool *truncated)
{
	const struct trace *t = ix->t;
	const struct tr_counter *cv = t->counters.v;
	for (size_t g = 0; g < ix->ngroups; g++) {
		size_t b = ix->cfirst[g], en = ix->cfirst[g + 1];
		const struct tr_counter *c0 = &cv[ix->crows[b]];
		const struct tr_track *tk = &t->tracks.v[c0->track];
		const struct tr_proc *p = &t->procs.v[tk->process];
		char pb[64];
		const char *pid = tr_id_text(t, &p->pid, pb, sizeof pb);
		fprintf(f, "%s\n   {\"counter\": %zu, \"pid\": ", g ? "," : "", g);
		rep_json_str(f, pid);
		fputs(", \"process\": ", f);
		rep_json_str(f, tr_str(t, p->name));
		fputs(", \"name\": ", f);
		rep_json_str(f, tr_str(t, c0->name));
		fputs(", \"series\": ", f);
		rep_json_str(f, tr_str(t, c0->series));
		const struct tl_points pt = {.ctx = ix, .b = b, .en = en, .get = counter_at};
		tl_write_points(&pt, f, A, B, px, lo, items, truncated);
		fputc('}', f);
	}
	if (ix->ngroups)
		fputs("\n  ", f);
}

/* The position (in ix->rows) of the slice a flow event binds to, or
 * SIZE_MAX: the deepest enclosing one (enclosing), else the next one
 * starting at or after ts. The backward walk stops where no earlier slice
 * of the track reaches ts (the running max end), and after 4096 steps. */
static size_t flow_bind(const struct tl_index *ix, uint32_t track, int64_t ts, bool enclosing)
{
	const struct trace *t = ix->t;
	size_t b = ix->first[track], en = ix->first[track + 1], l = b, r = en;
	bool after = !enclosing;
	while (l < r) { /* first position starting after ts (at or after: !enclosing) */
		size_t m = l + (r - l) / 2;
		int64_t s = t->ev.ts[ix->rows[m]];
		if (after ? s >= ts : s > ts)
			r = m;
		else
			l = m + 1;
	}
	if (!enclosing)
		return l < en ? l : SIZE_MAX;
	for (size_t q = l, steps = 0; q > b && steps < 4096; steps++) {
		q--;
		if (ix->maxend[q] < ts)
			break;
		uint32_t row = ix->rows[q];
		int64_t end = tl_ev_end(t, row);
		if (end > ts || (end == ts && t->ev.ts[row] == ts))
			return q;
	}
	return SIZE_MAX;
}

/* The end of an arrow: the flow event's track and time, the slice it binds
 * to (row, depth) when there is one. */
static struct tl_flow_end end_of(const struct tl_index *ix, uint32_t track, int64_t ts, size_t pos,
				 int64_t lo)
{
	if (pos == SIZE_MAX)
		return (struct tl_flow_end){track, 0, ts - lo, -1};
	return (struct tl_flow_end){track, ix->depth[pos], ts - lo, ix->rows[pos]};
}

static size_t bind_of(const struct tl_index *ix, const struct tr_flow *fl)
{
	return flow_bind(ix, fl->track, fl->ts, fl->ph != 'f' || fl->bp_e);
}

/* The arrows with an end in [A, B), in one order: launches (by launcher),
 * then s/t/f chains; visit gets a launch's rows (x = launcher, y = GPU
 * activity, fx = fy = NULL) or a chain's two flow events. */
struct flow_walk {
	void (*visit)(struct flow_walk *w, uint32_t x, uint32_t y, const struct tr_flow *fx,
		      const struct tr_flow *fy);
	const struct tl_index *ix;
	struct tl_flow_out *out; /* TL_MAX_FLOWS of them */
	int64_t lo;
	size_t seen, total, shown; /* arrows visited; in the window; kept */
};

/* The first place in by (ids by the end's time, t1 when second) whose
 * arrow's end is at or after ts. */
static size_t first_at(const struct tl_index *ix, const uint32_t *by, bool second, int64_t ts)
{
	size_t lo = 0, hi = ix->narrows;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (arrow_t(ix, &ix->arrows[by[mid]], second) < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool arrow_in(const struct tl_index *ix, const struct tl_arrow *r, int64_t A, int64_t B)
{
	int64_t t0 = arrow_t(ix, r, false), t1 = arrow_t(ix, r, true);
	return (t0 >= A && t0 < B) || (t1 >= A && t1 < B);
}

/* The ids of the arrows marked in bits (a bit per arrow), ascending; k
 * of them. */
static void bits_ids(const uint64_t *bits, size_t nwords, uint32_t *v)
{
	size_t k = 0;
	for (size_t w = 0; w < nwords; w++)
		for (uint64_t b = bits[w]; b; b &= b - 1)
			v[k++] = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(b));
}

/* The ids of the arrows with an end in [A, B), ascending (*n of them);
 * NULL when memory is out. Few of them: those whose first end is there,
 * then those whose second end alone is, sorted. Many (a wide window: up to
 * every arrow, twice): both ends' ids marked in a bit per arrow, which
 * removes the doubles and gives the order without a sort. */
static uint32_t *window_arrows(const struct tl_index *ix, int64_t A, int64_t B, size_t *n)
{
	size_t a0 = first_at(ix, ix->by_t0, false, A), a1 = first_at(ix, ix->by_t0, false, B);
	size_t b0 = first_at(ix, ix->by_t1, true, A), b1 = first_at(ix, ix->by_t1, true, B);
	size_t k = 0;
	if ((a1 - a0 + b1 - b0) * 8 > ix->narrows) {
		size_t nwords = (ix->narrows + 63) / 64;
		uint64_t *bits = calloc(nwords ? nwords : 1, sizeof *bits);
		if (!bits)
			return NULL;
		for (size_t i = a0; i < a1; i++)
			bits[ix->by_t0[i] / 64] |= 1ull << (ix->by_t0[i] % 64);
		for (size_t i = b0; i < b1; i++)
			bits[ix->by_t1[i] / 64] |= 1ull << (ix->by_t1[i] % 64);
		for (size_t w = 0; w < nwords; w++)
			k += (size_t)__builtin_popcountll(bits[w]);
		uint32_t *v = malloc((k + 1) * sizeof *v);
		if (v)
			bits_ids(bits, nwords, v);
		free(bits);
		*n = k;
		return v;
	}
	uint32_t *v = malloc((a1 - a0 + b1 - b0 + 1) * sizeof *v);
	if (!v)
		return NULL;
	for (size_t i = a0; i < a1; i++)
		v[k++] = ix->by_t0[i];
	for (size_t i = b0; i < b1; i++) {
		int64_t t0 = arrow_t(ix, &ix->arrows[ix->by_t1[i]], false);
		if (t0 < A || t0 >= B)
			v[k++] = ix->by_t1[i];
	}
	static const struct rx_key asc = {0, RX_U32, false};
	if (rx_sort(v, k, sizeof *v, &asc, 1)) {
		free(v);
		return NULL;
	}
	*n = k;
	return v;
}

static void visit_arrow(const struct tl_index *ix, uint32_t id, struct flow_walk *w)
{
	const struct trace *t = ix->t;
	const struct tl_arrow *r = &ix->arrows[id];
	if (r->b != TR_NONE)
		w->visit(w, r->a, r->b, NULL, NULL);
	else
		w->visit(w, 0, 0, &t->flows.v[ix->flows[r->a]], &t->flows.v[ix->flows[r->a + 1]]);
}

/* Visits the arrows with an end in [A, B) in id order: with ids (n of
 * them, w->total = n), only those write_flow would write, picked evenly
 * (the j-th of m picked is the first k with (k + 1) * m >= (j + 1) * n);
 * without ids (memory out), every arrow tested in turn. */
static void walk_flows(const struct tl_index *ix, int64_t A, int64_t B, const uint32_t *ids,
		       size_t n, struct flow_walk *w)
{
	if (ids) {
		uint64_t m = n > TL_MAX_FLOWS ? TL_MAX_FLOWS : n;
		for (uint64_t j = 0; j < m; j++) {
			uint64_t k = ((j + 1) * n + m - 1) / m - 1;
			w->seen = (size_t)k;
			visit_arrow(ix, ids[k], w);
		}
		return;
	}
	for (size_t i = 0; i < ix->narrows; i++)
		if (arrow_in(ix, &ix->arrows[i], A, B))
			visit_arrow(ix, (uint32_t)i, w);
}

static void count_flow(struct flow_walk *w, uint32_t x, uint32_t y, const struct tr_flow *fx,
		       const struct tr_flow *fy)
{
	w->total++;
}

/* Keeps the k-th arrow of the window when it is one of TL_MAX_FLOWS picked
 * evenly among total: where floor(k * max / total) steps up. */
static void keep_flow(struct flow_walk *w, uint32_t x, uint32_t y, const struct tr_flow *fx,
		      const struct tr_flow *fy)
{
	const struct tl_index *ix = w->ix;
	const struct trace *t = ix->t;
	uint64_t k = w->seen++, m = w->total > TL_MAX_FLOWS ? TL_MAX_FLOWS : w->total;
	if ((k + 1) * m / w->total == k * m / w->total || w->shown >= TL_MAX_FLOWS)
		return;
	struct tl_flow_out *o = &w->out[w->shown++];
	if (!fx) {
		*o = (struct tl_flow_out){
		    .launch = true,
		    .id = tr_corr(t, y),
		    .from = end_of(ix, t->ev.track[x], t->ev.ts[x],
				   ix->pos[x] == TR_NONE ? SIZE_MAX : ix->pos[x], w->lo),
		    .to = end_of(ix, t->ev.track[y], t->ev.ts[y],
				 ix->pos[y] == TR_NONE ? SIZE_MAX : ix->pos[y], w->lo)};
		return;
	}
	*o = (struct tl_flow_out){.id = fx->id,
				  .cat = tr_str(t, fx->cat),
				  .name = tr_str(t, fx->name),
				  .from = end_of(ix, fx->track, fx->ts, bind_of(ix, fx), w->lo),
				  .to = end_of(ix, fy->track, fy->ts, bind_of(ix, fy), w->lo)};
}

void tl_write_flows(const struct tl_index *ix, FILE *f, int64_t A, int64_t B, int64_t lo)
{
	struct flow_walk w = {.visit = count_flow, .ix = ix, .lo = lo};
	size_t n = 0;
	uint32_t *ids = window_arrows(ix, A, B, &n);
	if (ids)
		w.total = n;
	else
		walk_flows(ix, A, B, NULL, 0, &w);
	/* (no memory for the arrows: none written, all counted) */
	w.out = malloc(TL_MAX_FLOWS * sizeof *w.out);
	if (w.out) {
		w.visit = keep_flow;
		walk_flows(ix, A, B, ids, n, &w);
	}
	tl_write_flow_cols(f, w.out, w.shown, w.total);
	free(w.out);
	free(ids);
}

static void put_link(const struct tl_index *ix, FILE *f, const char *rel, uint32_t row, int64_t lo,
		     bool *first)
{
	const struct trace *t = ix->t;
	fprintf(f,
		"%s\n   {\"rel\": \"%s\", \"row\": %u, \"track\": %u, \"ts\": %lld, \"dur\": %lld, "
		"\"depth\": %u, \"kind\": ",
		*first ? "" : ",", rel, row, t->ev.track[row], (long long)(t->ev.ts[row] - lo),
		(long long)tr_dur(t, row),
		ix->pos[row] == TR_NONE ? 0u : (unsigned)ix->depth[ix->pos[row]]);
	rep_json_str(f, tr_kind_label((enum tr_kind)t->ev.kind[row]));
	fputs(", \"name\": ", f);
	rep_json_str(f, tr_str(t, t->ev.name[row]));
	fputc('}', f);
	*first = false;
}

int tl_write_links(const struct tl_index *ix, int64_t row, FILE *f, struct err *e)
{
	const struct trace *t = ix->t;
	if (row < 0 || (uint64_t)row >= t->ev.n)
		return err_set(e, ERR_USAGE, NULL, -1, "no event row %lld (0 to %zu)",
			       (long long)row, t->ev.n ? t->ev.n - 1 : 0);
	int64_t lo = t->min_ts <= t->max_end ? t->min_ts : 0;
	uint32_t r = (uint32_t)row;
	bool first = true;
	fprintf(f, "{\n  \"row\": %u, \"dur\": %lld, \"self_ns\": %lld, \"links\": [", r,
		(long long)tr_dur(t, r), (long long)tl_self_ns(ix, r));
	if (r < ix->links.n && ix->links.launcher[r] != TR_NONE)
		put_link(ix, f, "launcher", ix->links.launcher[r], lo, &first);
	size_t nd = 0;
	const uint32_t *dev = tr_links_devices(&ix->links, r, &nd);
	for (size_t i = 0; i < nd; i++)
		put_link(ix, f, "launched", dev[i], lo, &first);
	/* s/t/f chains (not ac2g) with one end bound to this event */
	uint32_t pos = ix->pos[r];
	size_t nflow = 0;
	for (size_t i = 0; pos != TR_NONE && i + 1 < t->flows.n && nflow < TL_MAX_FLOWS; i++) {
		const struct tr_flow *x = &t->flows.v[ix->flows[i]],
				     *y = &t->flows.v[ix->flows[i + 1]];
		if (x->cat != y->cat || x->id != y->id || is_ac2g(t, x))
			continue;
		if (x->track != t->ev.track[r] && y->track != t->ev.track[r])
			continue;
		size_t bx = bind_of(ix, x), by = bind_of(ix, y);
		size_t other = bx == pos ? by : by == pos ? bx : SIZE_MAX;
		if (other == SIZE_MAX || other == pos)
			continue;
		put_link(ix, f, bx == pos ? "flow_to" : "flow_from", ix->rows[other], lo, &first);
		nflow++;
	}
	fprintf(f, "%s]\n}\n", first ? "" : "\n  ");
	return 0;
}
