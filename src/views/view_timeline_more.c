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
 * track, f to the next slice that starts at or after it. A request scans
 * every link and flow (O(links + flows)); at most TL_MAX_FLOWS arrows with
 * an end in the window are written. */
#include <stdlib.h>
#include <string.h>

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
	return tr_links_build(t, true, &ix->links, &e) ? -1 : 0;
}

void tl_more_free(struct tl_index *ix)
{
	free(ix->crows);
	free(ix->cfirst);
	free(ix->flows);
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

static bool is_ac2g(const struct trace *t, const struct tr_flow *fl)
{
	return !strcmp(tr_str(t, fl->cat), "ac2g");
}

/* The end of an arrow: the flow event's track and time, the slice it binds
 * to (row, depth) when there is one. */
static void put_end(const struct tl_index *ix, FILE *f, uint32_t track, int64_t ts, size_t pos,
		    int64_t lo)
{
	fprintf(f, "{\"track\": %u, \"ts\": %lld, ", track, (long long)(ts - lo));
	if (pos == SIZE_MAX)
		fputs("\"row\": null, \"depth\": 0}", f);
	else
		fprintf(f, "\"row\": %u, \"depth\": %u}", ix->rows[pos], (unsigned)ix->depth[pos]);
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
	FILE *f;
	int64_t lo;
	size_t seen, total, shown; /* arrows visited; in the window; written */
};

static void walk_flows(const struct tl_index *ix, int64_t A, int64_t B, struct flow_walk *w)
{
	const struct trace *t = ix->t;
	const struct tr_links *lk = &ix->links;
	for (size_t s = 0; s < lk->nseg; s++) {
		uint32_t rt = lk->seg[s].rt;
		for (uint32_t i = 0; i < lk->seg[s].count; i++) {
			uint32_t d = lk->dev[lk->seg[s].first + i];
			int64_t t0 = t->ev.ts[rt], t1 = t->ev.ts[d];
			if ((t0 >= A && t0 < B) || (t1 >= A && t1 < B))
				w->visit(w, rt, d, NULL, NULL);
		}
	}
	for (size_t i = 0; i + 1 < t->flows.n; i++) {
		const struct tr_flow *x = &t->flows.v[ix->flows[i]],
				     *y = &t->flows.v[ix->flows[i + 1]];
		if (x->cat != y->cat || x->id != y->id || is_ac2g(t, x))
			continue;
		if ((x->ts >= A && x->ts < B) || (y->ts >= A && y->ts < B))
			w->visit(w, 0, 0, x, y);
	}
}

static void count_flow(struct flow_walk *w, uint32_t x, uint32_t y, const struct tr_flow *fx,
		       const struct tr_flow *fy)
{
	w->total++;
}

/* Writes the k-th arrow of the window when it is one of TL_MAX_FLOWS picked
 * evenly among total: where floor(k * max / total) steps up. */
static void write_flow(struct flow_walk *w, uint32_t x, uint32_t y, const struct tr_flow *fx,
		       const struct tr_flow *fy)
{
	const struct tl_index *ix = w->ix;
	const struct trace *t = ix->t;
	FILE *f = w->f;
	uint64_t k = w->seen++, m = w->total > TL_MAX_FLOWS ? TL_MAX_FLOWS : w->total;
	if ((k + 1) * m / w->total == k * m / w->total)
		return;
	if (!fx) {
		fprintf(f, "%s\n   {\"kind\": \"launch\", \"id\": %lld, \"from\": ",
			w->shown++ ? "," : "", (long long)tr_corr(t, y));
		put_end(ix, f, t->ev.track[x], t->ev.ts[x],
			ix->pos[x] == TR_NONE ? SIZE_MAX : ix->pos[x], w->lo);
		fputs(", \"to\": ", f);
		put_end(ix, f, t->ev.track[y], t->ev.ts[y],
			ix->pos[y] == TR_NONE ? SIZE_MAX : ix->pos[y], w->lo);
		fputc('}', f);
		return;
	}
	fprintf(f, "%s\n   {\"kind\": \"flow\", \"id\": %lld, \"cat\": ", w->shown++ ? "," : "",
		(long long)fx->id);
	rep_json_str(f, tr_str(t, fx->cat));
	fputs(", \"name\": ", f);
	rep_json_str(f, tr_str(t, fx->name));
	fputs(", \"from\": ", f);
	put_end(ix, f, fx->track, fx->ts, bind_of(ix, fx), w->lo);
	fputs(", \"to\": ", f);
	put_end(ix, f, fy->track, fy->ts, bind_of(ix, fy), w->lo);
	fputc('}', f);
}

void tl_write_flows(const struct tl_index *ix, FILE *f, int64_t A, int64_t B, int64_t lo)
{
	struct flow_walk w = {.visit = count_flow, .ix = ix, .f = f, .lo = lo};
	walk_flows(ix, A, B, &w);
	fputs(",\n  \"flows\": [", f);
	w.visit = write_flow;
	walk_flows(ix, A, B, &w);
	fprintf(f, "%s],\n  \"flows_total\": %zu, \"flows_truncated\": %s", w.shown ? "\n  " : "",
		w.total, w.total > TL_MAX_FLOWS ? "true" : "false");
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
