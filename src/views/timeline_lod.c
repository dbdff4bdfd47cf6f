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

/* The merged spans of a lane, written after its events as columns. */
struct span {
	int64_t col, ts, end, count, busy, matches;
	int depth;
};
struct spans {
	struct span *v;
	size_t n, cap;
	bool lost; /* one could not be kept (no memory): the answer is truncated */
};

static void flush_agg(struct spans *s, struct agg *a, int depth)
{
	if (a->col < 0)
		return;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		struct span *v = realloc(s->v, cap * sizeof *v);
		if (!v) {
			s->lost = true;
			a->col = -1;
			return;
		}
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = (struct span){a->col, a->ts, a->end, a->count, a->busy, a->matches, depth};
	a->col = -1;
}

static const char *const span_keys[] = {"depth", "col", "ts", "end", "count", "busy_ns", "matches"};

static int64_t span_field(const struct span *sp, int k, int64_t base)
{
	switch (k) {
	case 0:
		return sp->depth;
	case 1:
		return sp->col;
	case 2:
		return sp->ts - base;
	case 3:
		return sp->end - base;
	case 4:
		return sp->count;
	case 5:
		return sp->busy;
	default:
		return sp->matches;
	}
}

/* `, "spans": {"depth": [..], ...}`: one array a field, numbers split by
 * bare commas (a whole trace's window holds tens of thousands: as columns
 * the answer is less than half the bytes of an object each, which is what
 * a browser spends its time receiving). "matches" only with a search. */
static void write_spans(FILE *f, const struct spans *s, int64_t base, bool matches)
{
	char buf[4096];
	size_t n = 0;
	fputs(",\n    \"spans\": {", f);
	for (int k = 0; k < (matches ? 7 : 6); k++) {
		fprintf(f, "%s\"%s\": [", k ? ", " : "", span_keys[k]);
		for (size_t i = 0; i < s->n; i++) {
			if (n > sizeof buf - 24) {
				fwrite(buf, 1, n, f);
				n = 0;
			}
			char d[24];
			int64_t v = span_field(&s->v[i], k, base);
			uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
			int m = 0;
			do
				d[m++] = (char)('0' + u % 10);
			while ((u /= 10) != 0);
			if (i)
				buf[n++] = ',';
			if (v < 0)
				buf[n++] = '-';
			while (m)
				buf[n++] = d[--m];
		}
		fwrite(buf, 1, n, f);
		n = 0;
		fputc(']', f);
	}
	fputc('}', f);
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
	struct spans sp = {0};
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
				flush_agg(&sp, a, d);
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
			flush_agg(&sp, &agg[d], d);
			nshown++;
			(*items)++;
		}
	fputs(first ? "]" : "\n   ]", f);
	write_spans(f, &sp, lo, ln->match != NULL);
	*truncated |= sp.lost;
	free(sp.v);
	fprintf(f,
		",\n    \"events\": %lld, \"busy_ns\": %lld, \"depths\": %d, \"items_shown\": %lld",
		(long long)nev, (long long)busy, maxd + 1, (long long)nshown);
	*sum = (struct tl_lane_sum){nev, busy, nshown, maxd + 1};
}
