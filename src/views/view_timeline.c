/* view_timeline: the timeline of GET /api/file/ID/timeline: for a window
 * [start, end) and a width of px pixel columns, every track's events at a
 * level of detail. Events at least one column long come one by one (row,
 * name, kind, ts, dur, depth); shorter ones are merged, per nesting depth
 * and pixel column, into spans (count, busy time). So a lane has at most
 * about 2 * px items per depth, whatever the number of events.
 *
 * The index (built once per trace, cached by the server) holds the rows of
 * each track in tr_track_order's order (ts, longer first), each row's
 * nesting depth (a stack of open events) and the running maximum of the
 * ends: the first position whose running max end reaches the window start
 * is found by binary search, so a request costs O(log n + the events from
 * there to the window end) per track.
 *
 * Times in the answer (the window, items' ts and end) are relative to the
 * trace's start, trace_start_ns (the trace's clock).
 *
 * Lanes come in the order Perfetto and chrome://tracing give them
 * (tl_lane_before): processes by process_sort_index (absent last), then
 * pid; a process's threads by thread_sort_index (absent last), then GPU
 * lanes after CPU ones, then tid. Instants (ph i/I) are not nested: each
 * lane has them apart, one per pixel column or merged per column.
 * Counters and flows: view_timeline_more.c.
 *
 * Output: a small JSON writer of its own (not the report sinks: their
 * tables are flat and a lane holds a list of items). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "trace/check.h"
#include "views/timeline_int.h"

void tl_index_free(struct tl_index *ix)
{
	if (!ix)
		return;
	free(ix->rows);
	free(ix->first);
	free(ix->depth);
	free(ix->maxend);
	free(ix->pos);
	free(ix->order);
	free(ix->gpu);
	free(ix->inst);
	free(ix->ifirst);
	free(ix->proc_rank);
	tl_more_free(ix);
	tl_find_free(ix);
	tl_counters_free(ix);
	free(ix);
}

int64_t tl_ev_end(const struct trace *t, uint32_t r)
{
	int64_t d = tr_dur(t, r);
	return t->ev.ts[r] + (d > 0 ? d : 0);
}
#define ev_end tl_ev_end

/* The lane accessors of timeline_lod.h: position -> event row. */
static void ev_at(const void *ctx, size_t pos, size_t n, struct tl_ev *ev)
{
	const struct tl_index *ix = ctx;
	for (size_t i = 0; i < n; i++) {
		uint32_t r = ix->rows[pos + i];
		ev[i] = (struct tl_ev){ix->t->ev.ts[r], tr_dur(ix->t, r), r};
	}
}

static void ev_label(const void *ctx, uint32_t row, FILE *f)
{
	const struct trace *t = ((const struct tl_index *)ctx)->t;
	fputs("\"kind\": ", f);
	rep_json_str(f, tr_kind_label((enum tr_kind)t->ev.kind[row]));
	fputs(", \"name\": ", f);
	rep_json_str(f, tr_str(t, t->ev.name[row]));
}

/* pid/tid order: numbers by value before strings by text. */
static int id_cmp(const struct trace *t, const struct tr_id *a, const struct tr_id *b)
{
	if (a->is_str != b->is_str)
		return a->is_str ? 1 : -1;
	if (a->is_str)
		return strcmp(tr_str(t, a->str), tr_str(t, b->str));
	return a->num < b->num ? -1 : a->num > b->num;
}

/* Sort indexes: smaller first, absent (INT64_MIN) last. */
static int sort_cmp(int64_t a, int64_t b)
{
	if (a == b)
		return 0;
	if (a == INT64_MIN || b == INT64_MIN)
		return a == INT64_MIN ? 1 : -1;
	return a < b ? -1 : 1;
}

static int lane_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct tl_index *ix = ctx;
	const struct trace *t = ix->t;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const struct tr_track *ta = &t->tracks.v[a], *tb = &t->tracks.v[b];
	int c;
	if (ta->process != tb->process) {
		const struct tr_proc *qa = &t->procs.v[ta->process], *qb = &t->procs.v[tb->process];
		if ((c = sort_cmp(qa->sort, qb->sort)) || (c = id_cmp(t, &qa->pid, &qb->pid)))
			return c;
	} else if ((c = sort_cmp(ta->thread_sort, tb->thread_sort)) ||
		   (c = (int)ix->gpu[a] - (int)ix->gpu[b]) || (c = id_cmp(t, &ta->tid, &tb->tid))) {
		return c;
	}
	return a < b ? -1 : a > b;
}

static int inst_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct trace *t = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	if (t->ev.ts[a] != t->ev.ts[b])
		return t->ev.ts[a] < t->ev.ts[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Per track: its instants (by ts), GPU flag; the lane order and each
 * process's rank in it. */
static int build_lanes(struct tl_index *ix)
{
	const struct trace *t = ix->t;
	size_t ntr = t->tracks.n, n = t->ev.n;
	ix->pos = malloc((n ? n : 1) * sizeof *ix->pos);
	ix->gpu = calloc(ntr ? ntr : 1, 1);
	ix->order = malloc((ntr ? ntr : 1) * sizeof *ix->order);
	ix->ifirst = calloc(ntr + 1, sizeof *ix->ifirst);
	ix->proc_rank = malloc((t->procs.n ? t->procs.n : 1) * sizeof *ix->proc_rank);
	if (!ix->pos || !ix->gpu || !ix->order || !ix->ifirst || !ix->proc_rank)
		return -1;
	for (size_t r = 0; r < n; r++) {
		ix->pos[r] = TR_NONE;
		if (t->ev.ph[r] == 'i')
			ix->ifirst[t->ev.track[r] + 1]++;
	}
	for (size_t k = 0; k < ntr; k++)
		ix->ifirst[k + 1] += ix->ifirst[k];
	ix->inst = malloc((ix->ifirst[ntr] ? ix->ifirst[ntr] : 1) * sizeof *ix->inst);
	size_t *fill = malloc((ntr ? ntr : 1) * sizeof *fill);
	if (!ix->inst || !fill) {
		free(fill);
		return -1;
	}
	memcpy(fill, ix->ifirst, ntr * sizeof *fill);
	for (size_t r = 0; r < n; r++)
		if (t->ev.ph[r] == 'i')
			ix->inst[fill[t->ev.track[r]]++] = (uint32_t)r;
	free(fill);
	for (size_t k = 0; k < ntr; k++)
		gp_qsort_r(ix->inst + ix->ifirst[k], ix->ifirst[k + 1] - ix->ifirst[k],
			   sizeof *ix->inst, inst_cmp, (void *)t);
	for (size_t i = 0; i < ix->first[ntr]; i++) {
		uint32_t r = ix->rows[i];
		ix->pos[r] = (uint32_t)i;
		if (tr_is_device((enum tr_kind)t->ev.kind[r]))
			ix->gpu[t->ev.track[r]] = 1;
	}
	for (size_t k = 0; k < ntr; k++)
		ix->order[k] = (uint32_t)k;
	gp_qsort_r(ix->order, ntr, sizeof *ix->order, lane_cmp, ix);
	for (size_t p = 0; p < t->procs.n; p++)
		ix->proc_rank[p] = TR_NONE;
	for (size_t i = 0; i < ntr; i++) {
		uint32_t p = t->tracks.v[ix->order[i]].process;
		if (p < t->procs.n && ix->proc_rank[p] == TR_NONE)
			ix->proc_rank[p] = (uint32_t)i;
	}
	return 0;
}

int tl_index_build(const struct trace *t, struct tl_index **out, struct err *e)
{
	*out = NULL;
	struct tl_index *ix = calloc(1, sizeof *ix);
	if (!ix || tr_track_order(t, &ix->rows, &ix->first)) {
		free(ix);
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	}
	ix->t = t;
	size_t n = ix->first[t->tracks.n];
	ix->depth = malloc((n ? n : 1) * sizeof *ix->depth);
	ix->maxend = malloc((n ? n : 1) * sizeof *ix->maxend);
	if (!ix->depth || !ix->maxend) {
		tl_index_free(ix);
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	}
	for (size_t k = 0; k < t->tracks.n; k++) {
		struct tl_lane ln = {
		    .ctx = ix, .b = ix->first[k], .en = ix->first[k + 1], .get = ev_at};
		tl_nest(&ln, ix->depth, ix->maxend);
	}
	if (build_lanes(ix) || tl_more_build(ix) || tl_find_build(ix) || tl_counters_build(ix)) {
		tl_index_free(ix);
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	}
	*out = ix;
	return 0;
}

static void lane_names(const struct trace *t, const struct tr_track *tk, FILE *f)
{
	char pbuf[64], tbuf[64]; /* a string id is returned as is, not copied */
	const char *pid = tr_id_text(t, &tk->pid, pbuf, sizeof pbuf);
	const char *tid = tr_id_text(t, &tk->tid, tbuf, sizeof tbuf);
	const char *pname = tk->process < t->procs.n ? tr_str(t, t->procs.v[tk->process].name) : "";
	const char *tname = tr_str(t, tk->thread_name);
	fputs("\"pid\": ", f);
	rep_json_str(f, pid);
	fputs(", \"tid\": ", f);
	rep_json_str(f, tid);
	fputs(", \"process\": ", f);
	rep_json_str(f, pname);
	fputs(", \"thread\": ", f);
	rep_json_str(f, tname);
}

static void put_sort(FILE *f, const char *key, int64_t v)
{
	if (v == INT64_MIN)
		fprintf(f, ", \"%s\": null", key);
	else
		fprintf(f, ", \"%s\": %lld", key, (long long)v);
}

/* The lane's metadata and its instants in [A, B): one per pixel column
 * ({"type": "instant", col, ts, row, kind, name}) or, where a column has
 * several, a run {col, ts, end, count} in the columns of "instant_runs". */
/* Instants are in the window when A <= ts < B, or ts == B when B is the
 * trace's end hi (an instant at the very end, e.g. Kineto's "Record Window
 * End", is in the whole trace). */
static void lane_tail(const struct tl_index *ix, size_t k, FILE *f, int64_t A, int64_t B, int px,
		      int64_t lo, int64_t hi, size_t *items, bool *truncated)
{
	int64_t Bi = B == hi && B < INT64_MAX ? B + 1 : B; /* instants: ts < Bi */
	const struct trace *t = ix->t;
	const struct tr_track *tk = &t->tracks.v[k];
	const struct tr_proc *p = tk->process < t->procs.n ? &t->procs.v[tk->process] : NULL;
	fputs(",\n    \"labels\": ", f);
	/* process_labels as written: its raw JSON text */
	fputs(p && p->labels ? tr_str(t, p->labels) : "null", f);
	put_sort(f, "process_sort", p ? p->sort : INT64_MIN);
	put_sort(f, "thread_sort", tk->thread_sort);
	fprintf(f, ", \"gpu\": %s, \"instants\": [", ix->gpu[k] ? "true" : "false");
	double W = (double)B - (double)A;
	size_t b = ix->ifirst[k], en = ix->ifirst[k + 1], l = b, r = en;
	while (l < r) { /* the first instant at or after A */
		size_t m = l + (r - l) / 2;
		if (t->ev.ts[ix->inst[m]] >= A)
			r = m;
		else
			l = m + 1;
	}
	bool first = true;
	int64_t n = 0;
	struct tl_rows runs = {0};
	for (size_t i = l; i < en;) {
		int64_t ts = t->ev.ts[ix->inst[i]];
		if (ts >= Bi)
			break;
		int64_t col = (int64_t)((double)(ts - A) * px / W);
		col = col >= px ? px - 1 : col;
		size_t j = i + 1;
		while (j < en && t->ev.ts[ix->inst[j]] < Bi &&
		       (int64_t)((double)(t->ev.ts[ix->inst[j]] - A) * px / W) == col)
			j++;
		n += (int64_t)(j - i);
		if (*items >= TL_MAX_ITEMS) {
			*truncated = true;
			i = j;
			continue;
		}
		uint32_t row = ix->inst[i];
		if (j - i == 1) {
			fprintf(f,
				"%s\n     {\"type\": \"instant\", \"col\": %lld, \"ts\": %lld, "
				"\"row\": %u, \"kind\": ",
				first ? "" : ",", (long long)col, (long long)(ts - lo), row);
			rep_json_str(f, tr_kind_label((enum tr_kind)t->ev.kind[row]));
			fputs(", \"name\": ", f);
			rep_json_str(f, tr_str(t, t->ev.name[row]));
			fputc('}', f);
			first = false;
		} else {
			tl_rows_add(&runs, (const int64_t[TL_ROW_MAX]){
					       col, ts - lo, t->ev.ts[ix->inst[j - 1]] - lo,
					       (int64_t)(j - i)});
		}
		(*items)++;
		i = j;
	}
	fputs(first ? "], " : "\n    ], ", f);
	tl_write_instant_runs(f, &runs);
	*truncated |= runs.lost;
	free(runs.v);
	fprintf(f, ", \"instant_events\": %lld}", (long long)n);
}

/* tl_opts.match: the names a search matched (by string id) */
struct match_ctx {
	const struct trace *t;
	const uint8_t *by_name;
};

static bool match_row(const void *mctx, uint32_t row)
{
	const struct match_ctx *m = mctx;
	return m->by_name[m->t->ev.name[row]];
}

int tl_trace_window(const struct trace *t, const struct tl_opts *o, int64_t *lo, int64_t *hi,
		    int64_t *A, int64_t *B, struct err *e)
{
	*lo = t->min_ts <= t->max_end ? t->min_ts : 0;
	*hi = t->min_ts <= t->max_end ? t->max_end : 0;
	return tl_window(*lo, *hi, o, A, B, e);
}

int tl_write_json(const struct tl_index *ix, const struct tl_opts *o, FILE *f, struct err *e)
{
	const struct trace *t = ix->t;
	int64_t lo, hi, A, B;
	if (tl_trace_window(t, o, &lo, &hi, &A, &B, e))
		return e ? e->code : ERR_USAGE;
	int px = o->px;
	tl_write_head(f, lo, hi, A, B, px);
	size_t items = 0;
	bool truncated = false, first_lane = true;
	const struct match_ctx mc = {t, o->match};
	for (size_t o_i = 0; o_i < t->tracks.n; o_i++) {
		size_t k = ix->order[o_i];
		size_t b = ix->first[k], en = ix->first[k + 1];
		if (b == en && ix->ifirst[k] == ix->ifirst[k + 1])
			continue;
		fprintf(f, "%s\n   {\"track\": %zu, ", first_lane ? "" : ",", k);
		first_lane = false;
		lane_names(t, &t->tracks.v[k], f);
		struct tl_lane ln = {.ctx = ix,
				     .b = b,
				     .en = en,
				     .depth = ix->depth,
				     .maxend = ix->maxend,
				     .get = ev_at,
				     .label = ev_label,
				     .match = o->match ? match_row : NULL,
				     .mctx = &mc};
		struct tl_lane_sum sum;
		tl_lane_items(&ln, f, A, B, px, lo, &items, &truncated, &sum);
		lane_tail(ix, k, f, A, B, px, lo, hi, &items, &truncated);
	}
	fprintf(f, "%s],\n  \"counters\": [", first_lane ? "" : "\n  ");
	tl_write_counters(ix, f, A, B, px, lo, &items, &truncated);
	fputs("]", f);
	if (o->stream_counters)
		tl_write_stream_counters(ix, f, A, B, px, lo, &items, &truncated);
	if (o->flows)
		tl_write_flows(ix, f, A, B, lo);
	fprintf(f, ",\n  \"truncated\": %s\n}\n", truncated ? "true" : "false");
	return 0;
}
