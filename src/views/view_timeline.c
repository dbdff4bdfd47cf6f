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
 * Output: a small JSON writer of its own (not the report sinks: their
 * tables are flat and a lane holds a list of items). */
#include <stdlib.h>
#include <string.h>

#include "torch/check.h"
#include "views/view.h"

struct tl_index {
	const struct trace *t;
	uint32_t *rows;	 /* per track, in (ts, longer first) order */
	size_t *first;	 /* rows[first[k] .. first[k+1]) are track k's */
	uint16_t *depth; /* by position in rows */
	int64_t *maxend; /* by position: max end over the track up to here */
};

void tl_index_free(struct tl_index *ix)
{
	if (!ix)
		return;
	free(ix->rows);
	free(ix->first);
	free(ix->depth);
	free(ix->maxend);
	free(ix);
}

static int64_t ev_end(const struct trace *t, uint32_t r)
{
	int64_t d = tr_dur(t, r);
	return t->ev.ts[r] + (d > 0 ? d : 0);
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
	int64_t *stack = malloc((TL_MAX_DEPTH + 1) * sizeof *stack);
	if (!ix->depth || !ix->maxend || !stack) {
		free(stack);
		tl_index_free(ix);
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	}
	for (size_t k = 0; k < t->tracks.n; k++) {
		int sp = 0; /* open events' ends; deeper ones share the last level */
		int64_t mx = INT64_MIN;
		for (size_t i = ix->first[k]; i < ix->first[k + 1]; i++) {
			uint32_t r = ix->rows[i];
			int64_t ts = t->ev.ts[r], end = ev_end(t, r);
			while (sp > 0 && stack[sp - 1] <= ts)
				sp--;
			/* an event that outlasts its parent still nests under it
			 * (the overlap is an anomaly tr_check counts) */
			ix->depth[i] = (uint16_t)sp;
			if (sp < TL_MAX_DEPTH - 1)
				stack[sp++] = end;
			else if (end > stack[sp - 1])
				stack[sp - 1] = end;
			mx = end > mx ? end : mx;
			ix->maxend[i] = mx;
		}
	}
	free(stack);
	*out = ix;
	return 0;
}

static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

struct agg {
	int64_t col; /* -1: none pending */
	int64_t ts, end, busy, count;
};

static void flush_agg(FILE *f, struct agg *a, int depth, bool *first, int64_t base)
{
	if (a->col < 0)
		return;
	fprintf(f, "%s\n    {\"type\": \"span\", \"depth\": %d, \"col\": %lld, \"ts\": %lld, \"end\": %lld, "
		   "\"count\": %lld, \"busy_ns\": %lld}",
		*first ? "" : ",", depth, (long long)a->col, (long long)(a->ts - base), (long long)(a->end - base),
		(long long)a->count, (long long)a->busy);
	*first = false;
	a->col = -1;
}

static void lane_names(const struct trace *t, const struct tr_track *tk, FILE *f)
{
	char pid[64], tid[64];
	tr_id_text(t, &tk->pid, pid, sizeof pid);
	tr_id_text(t, &tk->tid, tid, sizeof tid);
	const char *pname = tk->process < t->procs.n ? tr_str(t, t->procs.v[tk->process].name) : "";
	const char *tname = tr_str(t, tk->thread_name);
	fputs("\"pid\": ", f);
	put_str(f, pid);
	fputs(", \"tid\": ", f);
	put_str(f, tid);
	fputs(", \"process\": ", f);
	put_str(f, pname);
	fputs(", \"thread\": ", f);
	put_str(f, tname);
}

int tl_write_json(const struct tl_index *ix, const struct tl_opts *o, FILE *f, struct err *e)
{
	const struct trace *t = ix->t;
	int64_t lo = t->min_ts <= t->max_end ? t->min_ts : 0;
	int64_t hi = t->min_ts <= t->max_end ? t->max_end : 0;
	/* the window is relative to the trace's start (JavaScript numbers hold
	 * 2^53: a trace clock in epoch nanoseconds does not fit) */
	int64_t A = lo, B = hi;
	if ((o->has_start && __builtin_add_overflow(lo, o->start_ns, &A)) ||
	    (o->has_end && __builtin_add_overflow(lo, o->end_ns, &B)))
		return err_set(e, ERR_USAGE, NULL, -1, "start_ns or end_ns is out of range");
	if (B <= A && !o->has_start && !o->has_end)
		B = A + 1; /* an empty trace or only instants at one time */
	if (B <= A)
		return err_set(e, ERR_USAGE, NULL, -1, "the window is empty: end_ns must be after start_ns");
	int px = o->px;
	double W = (double)B - (double)A;
	fprintf(f, "{\n  \"timeline\": {\"trace_start_ns\": %lld, \"trace_end_ns\": %lld, \"start_ns\": %lld, "
		   "\"end_ns\": %lld, \"px\": %d, \"ns_per_px\": %.3f",
		(long long)lo, (long long)hi, (long long)(A - lo), (long long)(B - lo), px, W / px);
	fputs("},\n  \"lanes\": [", f);
	size_t items = 0;
	bool truncated = false, first_lane = true;
	struct agg agg[TL_MAX_DEPTH];
	for (size_t k = 0; k < t->tracks.n; k++) {
		size_t b = ix->first[k], en = ix->first[k + 1];
		if (b == en)
			continue;
		/* the first position whose running max end reaches A */
		size_t l = b, r = en;
		while (l < r) {
			size_t m = l + (r - l) / 2;
			if (ix->maxend[m] >= A)
				r = m;
			else
				l = m + 1;
		}
		fprintf(f, "%s\n   {\"track\": %zu, ", first_lane ? "" : ",", k);
		first_lane = false;
		lane_names(t, &t->tracks.v[k], f);
		fputs(", \"items\": [", f);
		for (int d = 0; d < TL_MAX_DEPTH; d++)
			agg[d].col = -1;
		int64_t nev = 0, busy = 0, nshown = 0;
		int maxd = -1;
		bool first = true;
		for (size_t i = l; i < en; i++) {
			uint32_t row = ix->rows[i];
			int64_t ts = t->ev.ts[row];
			if (ts >= B)
				break;
			int64_t dur = tr_dur(t, row), end = ev_end(t, row);
			if (end < A || (end == A && dur > 0))
				continue; /* ended before the window */
			int d = ix->depth[i];
			int64_t cs = ts > A ? ts : A, ce = end < B ? end : B;
			nev++;
			if (d == 0)
				busy += ce - cs;
			maxd = d > maxd ? d : maxd;
			if (items >= TL_MAX_ITEMS) {
				truncated = true;
				continue;
			}
			if ((double)(dur > 0 ? dur : 0) * px < W) {
				int64_t col = (int64_t)((double)(cs - A) * px / W);
				col = col < 0 ? 0 : col >= px ? px - 1 : col;
				struct agg *a = &agg[d];
				if (a->col != col) {
					if (a->col >= 0)
						nshown++, items++;
					flush_agg(f, a, d, &first, lo);
					*a = (struct agg){.col = col, .ts = ts, .end = end};
				}
				a->count++;
				a->busy += ce - cs;
				a->end = end > a->end ? end : a->end;
				continue;
			}
			fprintf(f, "%s\n    {\"type\": \"event\", \"depth\": %d, \"row\": %u, \"ts\": %lld, "
				   "\"dur\": %lld, \"kind\": ",
				first ? "" : ",", d, row, (long long)(ts - lo), (long long)dur);
			put_str(f, tr_kind_label((enum tr_kind)t->ev.kind[row]));
			fputs(", \"name\": ", f);
			put_str(f, tr_str(t, t->ev.name[row]));
			fputc('}', f);
			first = false;
			nshown++;
			items++;
		}
		for (int d = 0; d < TL_MAX_DEPTH; d++)
			if (agg[d].col >= 0) {
				flush_agg(f, &agg[d], d, &first, lo);
				nshown++;
				items++;
			}
		fprintf(f, "%s],\n    \"events\": %lld, \"busy_ns\": %lld, \"depths\": %d, \"items_shown\": %lld}",
			first ? "" : "\n   ", (long long)nev, (long long)busy, maxd + 1, (long long)nshown);
	}
	fprintf(f, "%s],\n  \"truncated\": %s\n}\n", first_lane ? "" : "\n  ", truncated ? "true" : "false");
	return 0;
}
