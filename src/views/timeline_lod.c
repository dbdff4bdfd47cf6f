/* timeline_lod: the level-of-detail rule of the timeline (see
 * timeline_lod.h), shared by the trace's and the Nsight Systems export's
 * answers so both draw and merge alike. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "views/timeline_lod.h"

void tl_nest(const struct tl_lane *ln, uint16_t *depth, int64_t *maxend)
{
	int64_t stack[TL_MAX_DEPTH + 1]; /* open events' ends */
	int sp = 0;
	int64_t mx = INT64_MIN;
	for (size_t i = ln->b; i < ln->en; i++) {
		struct tl_ev ev;
		ln->get(ln->ctx, i, &ev);
		int64_t end = tl_end_of(&ev);
		while (sp > 0 && stack[sp - 1] <= ev.ts)
			sp--;
		/* an event that outlasts its parent still nests under it (the
		 * overlap is an anomaly the readers count) */
		depth[i] = (uint16_t)sp;
		if (sp < TL_MAX_DEPTH - 1)
			stack[sp++] = end;
		else if (end > stack[sp - 1])
			stack[sp - 1] = end;
		mx = end > mx ? end : mx;
		maxend[i] = mx;
	}
}

size_t tl_first_reaching(const int64_t *maxend, size_t b, size_t en, int64_t A)
{
	size_t l = b, r = en;
	while (l < r) {
		size_t m = l + (r - l) / 2;
		if (maxend[m] >= A)
			r = m;
		else
			l = m + 1;
	}
	return l;
}

int tl_window(int64_t lo, int64_t hi, const struct tl_opts *o, int64_t *A, int64_t *B,
	      struct err *e)
{
	/* the window is relative to the start (JavaScript numbers hold 2^53: a
	 * clock in epoch nanoseconds does not fit) */
	*A = lo;
	*B = hi;
	if ((o->has_start && __builtin_add_overflow(lo, o->start_ns, A)) ||
	    (o->has_end && __builtin_add_overflow(lo, o->end_ns, B)))
		return err_set(e, ERR_USAGE, NULL, -1, "start_ns or end_ns is out of range");
	if (*B <= *A && !o->has_start && !o->has_end)
		*B = *A + 1; /* an empty input or only instants at one time */
	if (*B <= *A)
		return err_set(e, ERR_USAGE, NULL, -1,
			       "the window is empty: end_ns must be after start_ns");
	return 0;
}

void tl_write_head(FILE *f, int64_t lo, int64_t hi, int64_t A, int64_t B, int px)
{
	double W = (double)B - (double)A;
	fprintf(f,
		"{\n  \"timeline\": {\"trace_start_ns\": %lld, \"trace_end_ns\": %lld, "
		"\"start_ns\": %lld, "
		"\"end_ns\": %lld, \"px\": %d, \"ns_per_px\": %.3f",
		(long long)lo, (long long)hi, (long long)(A - lo), (long long)(B - lo), px, W / px);
	fputs("},\n  \"lanes\": [", f);
}

struct agg {
	int64_t col; /* -1: none pending */
	int64_t ts, end, busy, count;
	int64_t matches; /* events a search matched (tl_lane.match) */
};

static void flush_agg(FILE *f, struct agg *a, int depth, bool *first, int64_t base)
{
	if (a->col < 0)
		return;
	fprintf(f,
		"%s\n    {\"type\": \"span\", \"depth\": %d, \"col\": %lld, \"ts\": %lld, \"end\": "
		"%lld, "
		"\"count\": %lld, \"busy_ns\": %lld",
		*first ? "" : ",", depth, (long long)a->col, (long long)(a->ts - base),
		(long long)(a->end - base), (long long)a->count, (long long)a->busy);
	if (a->matches)
		fprintf(f, ", \"matches\": %lld}", (long long)a->matches);
	else
		fputc('}', f);
	*first = false;
	a->col = -1;
}

void tl_lane_items(const struct tl_lane *ln, FILE *f, int64_t A, int64_t B, int px, int64_t lo,
		   size_t *items, bool *truncated, struct tl_lane_sum *sum)
{
	double W = (double)B - (double)A;
	size_t l = tl_first_reaching(ln->maxend, ln->b, ln->en, A);
	fputs(", \"items\": [", f);
	struct agg agg[TL_MAX_DEPTH];
	for (int d = 0; d < TL_MAX_DEPTH; d++)
		agg[d].col = -1;
	int64_t nev = 0, busy = 0, nshown = 0;
	int maxd = -1;
	bool first = true;
	for (size_t i = l; i < ln->en; i++) {
		struct tl_ev ev;
		ln->get(ln->ctx, i, &ev);
		int64_t ts = ev.ts;
		if (ts >= B)
			break;
		int64_t dur = ev.dur, end = tl_end_of(&ev);
		if (end < A || (end == A && dur > 0))
			continue; /* ended before the window */
		int d = ln->depth[i];
		int64_t cs = ts > A ? ts : A, ce = end < B ? end : B;
		nev++;
		if (d == 0)
			busy += ce - cs;
		maxd = d > maxd ? d : maxd;
		if (*items >= TL_MAX_ITEMS) {
			*truncated = true;
			continue;
		}
		if ((double)(dur > 0 ? dur : 0) * px < W) {
			int64_t col = (int64_t)((double)(cs - A) * px / W);
			col = col < 0 ? 0 : col >= px ? px - 1 : col;
			struct agg *a = &agg[d];
			if (a->col != col) {
				if (a->col >= 0)
					nshown++, (*items)++;
				flush_agg(f, a, d, &first, lo);
				*a = (struct agg){.col = col, .ts = ts, .end = end};
			}
			a->count++;
			a->matches += ln->match && ln->match(ln->mctx, ev.row);
			a->busy += ce - cs;
			a->end = end > a->end ? end : a->end;
			continue;
		}
		fprintf(f,
			"%s\n    {\"type\": \"event\", \"depth\": %d, \"row\": %u, \"ts\": %lld, "
			"\"dur\": %lld, ",
			first ? "" : ",", d, ev.row, (long long)(ts - lo), (long long)dur);
		ln->label(ln->ctx, ev.row, f);
		fputs(ln->match && ln->match(ln->mctx, ev.row) ? ", \"match\": true}" : "}", f);
		first = false;
		nshown++;
		(*items)++;
	}
	for (int d = 0; d < TL_MAX_DEPTH; d++)
		if (agg[d].col >= 0) {
			flush_agg(f, &agg[d], d, &first, lo);
			nshown++;
			(*items)++;
		}
	fprintf(
	    f,
	    "%s],\n    \"events\": %lld, \"busy_ns\": %lld, \"depths\": %d, \"items_shown\": %lld",
	    first ? "" : "\n   ", (long long)nev, (long long)busy, maxd + 1, (long long)nshown);
	*sum = (struct tl_lane_sum){nev, busy, nshown, maxd + 1};
}
