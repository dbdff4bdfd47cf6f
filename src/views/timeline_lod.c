/* timeline_lod: the level-of-detail rule of the timeline (see
 * timeline_lod.h), shared by the trace's and the Nsight Systems export's
 * answers so both draw and merge alike. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "views/timeline_lod.h"

/* The event at position i of a lane read from position from on: run holds
 * the events read TL_RUN at a time (refilled at every TL_RUN-th position). */
static const struct tl_ev *ev_in_run(const struct tl_lane *ln, struct tl_ev *run, size_t from,
				     size_t i)
{
	size_t k = (i - from) % TL_RUN;
	if (k == 0)
		ln->get(ln->ctx, i, ln->en - i < TL_RUN ? ln->en - i : TL_RUN, run);
	return &run[k];
}

void tl_nest(const struct tl_lane *ln, uint16_t *depth, int64_t *maxend)
{
	int64_t stack[TL_MAX_DEPTH + 1]; /* open events' ends */
	int sp = 0;
	int64_t mx = INT64_MIN;
	struct tl_ev run[TL_RUN];
	for (size_t i = ln->b; i < ln->en; i++) {
		const struct tl_ev ev = *ev_in_run(ln, run, ln->b, i);
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

bool tl_rows_add(struct tl_rows *r, const int64_t *v)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 256;
		int64_t *nv = realloc(r->v, cap * TL_ROW_MAX * sizeof *nv);
		if (!nv) {
			r->lost = true;
			return false;
		}
		r->v = nv;
		r->cap = cap;
	}
	memcpy(r->v + r->n++ * TL_ROW_MAX, v, TL_ROW_MAX * sizeof *v);
	return true;
}

static void flush_agg(struct tl_rows *s, struct agg *a, int depth, int64_t base)
{
	if (a->col < 0)
		return;
	tl_rows_add(s, (const int64_t[TL_ROW_MAX]){depth, a->col, a->ts - base, a->end - base,
						   a->count, a->busy, a->matches});
	a->col = -1;
}

/* A JSON array of integers written through a buffer (numbers by the
 * thousands: one fprintf each would cost more than the answer's search). */
struct numcol {
	FILE *f;
	size_t n;
	bool any;
	char buf[4096];
};

static void nc_open(struct numcol *c, FILE *f, const char *lead, const char *key)
{
	fprintf(f, "%s\"%s\": [", lead, key);
	c->f = f;
	c->n = 0;
	c->any = false;
}

static void nc_raw(struct numcol *c, const char *s, size_t len)
{
	if (c->n + len + 1 > sizeof c->buf) {
		fwrite(c->buf, 1, c->n, c->f);
		c->n = 0;
	}
	if (c->any)
		c->buf[c->n++] = ',';
	c->any = true;
	memcpy(c->buf + c->n, s, len);
	c->n += len;
}

static void nc_put(struct numcol *c, int64_t v)
{
	char d[24];
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	int m = (int)sizeof d;
	do
		d[--m] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		d[--m] = '-';
	nc_raw(c, d + m, sizeof d - (size_t)m);
}

static void nc_close(struct numcol *c)
{
	fwrite(c->buf, 1, c->n, c->f);
	fputc(']', c->f);
}

void tl_write_cols(FILE *f, const char *const *keys, int nk, const struct tl_rows *r)
{
	struct numcol c;
	fputc('{', f);
	for (int k = 0; k < nk; k++) {
		nc_open(&c, f, k ? ", " : "", keys[k]);
		for (size_t i = 0; i < r->n; i++)
			nc_put(&c, r->v[i * TL_ROW_MAX + k]);
		nc_close(&c);
	}
	fputc('}', f);
}

/* `, "spans": {"depth": [..], ...}`: one array a field (a whole trace's
 * window holds tens of thousands: as columns the answer is less than half
 * the bytes of an object each, which is what a browser spends its time
 * receiving). "matches" only with a search. */
static void write_spans(FILE *f, const struct tl_rows *s, bool matches)
{
	static const char *const keys[] = {"depth", "col",     "ts",	 "end",
					   "count", "busy_ns", "matches"};
	fputs(",\n    \"spans\": ", f);
	tl_write_cols(f, keys, matches ? 7 : 6, s);
}

void tl_write_instant_runs(FILE *f, const struct tl_rows *runs)
{
	static const char *const keys[] = {"col", "ts", "end", "count"};
	fputs("\"instant_runs\": ", f);
	tl_write_cols(f, keys, 4, runs);
}

/* an end's columns: {"track": [..], "ts": [..], "row": [..], "depth": [..]} */
static void write_ends(FILE *f, const struct tl_flow_out *v, size_t n, bool to)
{
	static const char *const keys[] = {"track", "ts", "row", "depth"};
	struct numcol c;
	fputc('{', f);
	for (int k = 0; k < 4; k++) {
		nc_open(&c, f, k ? ", " : "", keys[k]);
		for (size_t i = 0; i < n; i++) {
			const struct tl_flow_end *e = to ? &v[i].to : &v[i].from;
			if (k == 2 && e->row < 0)
				nc_raw(&c, "null", 4);
			else
				nc_put(&c, k == 0   ? e->track
					   : k == 1 ? e->ts
					   : k == 2 ? e->row
						    : e->depth);
		}
		nc_close(&c);
	}
	fputc('}', f);
}

/* a column of strings, null where absent */
static void write_strs(FILE *f, const char *lead, const char *key, const struct tl_flow_out *v,
		       size_t n, bool name)
{
	fprintf(f, "%s\"%s\": [", lead, key);
	for (size_t i = 0; i < n; i++) {
		const char *s = name ? v[i].name : v[i].cat;
		if (i)
			fputc(',', f);
		if (s)
			rep_json_str(f, s);
		else
			fputs("null", f);
	}
	fputc(']', f);
}

void tl_write_flow_cols(FILE *f, const struct tl_flow_out *v, size_t n, size_t total)
{
	struct numcol c;
	fputs(",\n  \"flows\": {\"kind\": [", f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? "," : "", f);
		fputs(v[i].launch ? "\"launch\"" : "\"flow\"", f);
	}
	fputc(']', f);
	nc_open(&c, f, ", ", "id");
	for (size_t i = 0; i < n; i++)
		nc_put(&c, v[i].id);
	nc_close(&c);
	write_strs(f, ", ", "cat", v, n, false);
	write_strs(f, ", ", "name", v, n, true);
	fputs(",\n   \"from\": ", f);
	write_ends(f, v, n, false);
	fputs(",\n   \"to\": ", f);
	write_ends(f, v, n, true);
	fprintf(f, "},\n  \"flows_total\": %zu, \"flows_truncated\": %s", total,
		total > n ? "true" : "false");
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
	struct tl_rows sp = {0};
	struct tl_ev run[TL_RUN];
	for (size_t i = l; i < ln->en; i++) {
		const struct tl_ev ev = *ev_in_run(ln, run, l, i);
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
				flush_agg(&sp, a, d, lo);
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
			flush_agg(&sp, &agg[d], d, lo);
			nshown++;
			(*items)++;
		}
	fputs(first ? "]" : "\n   ]", f);
	write_spans(f, &sp, ln->match != NULL);
	*truncated |= sp.lost;
	free(sp.v);
	fprintf(f,
		",\n    \"events\": %lld, \"busy_ns\": %lld, \"depths\": %d, \"items_shown\": %lld",
		(long long)nev, (long long)busy, maxd + 1, (long long)nshown);
	*sum = (struct tl_lane_sum){nev, busy, nshown, maxd + 1};
}
