/* view_timeline_agg: the timeline's area selection (GET
 * /api/file/ID/timeline?agg=1&start_ns=A&end_ns=B&tracks=K,L: the slices of
 * some tracks in a time range, summed per name, as Perfetto's area
 * selection sums them) and an event's self time (the `self_ns` of ?links=).
 *
 * A slice is in the range by the timeline's own rule (ts < B and the end
 * after A, or at A for a zero-long slice). Its time counts clipped to the
 * range: total = the part of the slice inside [A, B); self = that part less
 * the parts of its direct children (depth + 1 under it) inside [A, B). So a
 * range holding whole slices sums their durations, and a range cutting a
 * slice counts only what it covers. A child that outlasts its parent (an
 * anomaly the readers count) is subtracted whole: such a parent's self time
 * may be negative, as the trace says.
 *
 * The positions of a track are in (ts, longer first) order, so a slice's
 * descendants follow it while the depth stays deeper; the slice open at each
 * depth is the last one seen at that depth. A range costs O(log n + the
 * slices from the first one reaching A to the last one starting before B)
 * per track; self time of one event O(its descendants). */
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "views/timeline_int.h"

struct agg_name {
	uint32_t id;
	int64_t count, total, self;
};

/* The part of [ts, end) inside [A, B). */
static int64_t clip(int64_t ts, int64_t end, int64_t A, int64_t B)
{
	int64_t a = ts > A ? ts : A, b = end < B ? end : B;
	return b > a ? b - a : 0;
}

/* Adds track k's slices in [A, B) to the per-name sums (slot[name id]: the
 * index in v plus 1, 0 for none yet). */
static int agg_track(const struct tl_index *ix, size_t k, int64_t A, int64_t B, uint32_t *slot,
		     struct agg_name **v, size_t *nv, size_t *cap)
{
	const struct trace *t = ix->t;
	size_t en = ix->first[k + 1], l = tl_first_reaching(ix->maxend, ix->first[k], en, A);
	size_t
	    open[TL_MAX_DEPTH]; /* per depth: index in v of the open slice in range, or SIZE_MAX */
	for (int d = 0; d < TL_MAX_DEPTH; d++)
		open[d] = SIZE_MAX;
	for (size_t p = l; p < en; p++) {
		uint32_t row = ix->rows[p];
		int64_t ts = t->ev.ts[row], dur = tr_dur(t, row), end = tl_ev_end(t, row);
		if (ts >= B)
			break;
		unsigned d = ix->depth[p];
		bool in = !(end < A || (end == A && dur > 0));
		if (!in) {
			open[d] = SIZE_MAX;
			continue;
		}
		uint32_t id = t->ev.name[row];
		if (!slot[id]) {
			if (*nv == *cap) {
				size_t nc = *cap ? 2 * *cap : 64;
				struct agg_name *g = realloc(*v, nc * sizeof *g);
				if (!g)
					return -1;
				*v = g;
				*cap = nc;
			}
			(*v)[*nv] = (struct agg_name){.id = id};
			slot[id] = (uint32_t)++ * nv;
		}
		size_t i = slot[id] - 1;
		int64_t part = clip(ts, end, A, B);
		(*v)[i].count++;
		(*v)[i].total += part;
		(*v)[i].self += part;
		if (d > 0 && open[d - 1] != SIZE_MAX)
			(*v)[open[d - 1]].self -= part;
		open[d] = i;
	}
	return 0;
}

static int agg_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct agg_name *a = pa, *b = pb;
	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	int c = strcmp(tr_str(ctx, a->id), tr_str(ctx, b->id));
	return c ? c : a->id < b->id ? -1 : a->id > b->id;
}

/* o->tracks: NULL or empty (every track), or track numbers split by commas;
 * marks them in sel (a byte per track). ERR_USAGE for anything else. */
static int parse_tracks(const struct trace *t, const char *s, uint8_t *sel, size_t *n,
			struct err *e)
{
	*n = 0;
	if (!s || !*s) {
		memset(sel, 1, t->tracks.n);
		*n = t->tracks.n;
		return 0;
	}
	for (const char *p = s;;) {
		char *q;
		unsigned long long k = strtoull(p, &q, 10);
		if (q == p || *p == '-' || *p == '+' || k >= t->tracks.n || (*q && *q != ','))
			return err_set(e, ERR_USAGE, NULL, -1,
				       "tracks takes track numbers (0 to %zu) split by commas",
				       t->tracks.n ? t->tracks.n - 1 : 0);
		*n += !sel[k];
		sel[k] = 1;
		if (!*q)
			return 0;
		p = q + 1;
	}
}

int tl_write_agg(const struct tl_index *ix, const struct tl_opts *o, FILE *f, struct err *e)
{
	const struct trace *t = ix->t;
	int64_t lo, hi, A, B;
	if (tl_trace_window(t, o, &lo, &hi, &A, &B, e))
		return e ? e->code : ERR_USAGE;
	uint8_t *sel = calloc(t->tracks.n ? t->tracks.n : 1, 1);
	uint32_t *slot = calloc((size_t)ix->nnames + 1, sizeof *slot);
	if (!sel || !slot) {
		free(sel);
		free(slot);
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	}
	size_t ntracks;
	int rc = parse_tracks(t, o->tracks, sel, &ntracks, e);
	struct agg_name *v = NULL;
	size_t nv = 0, cap = 0;
	for (size_t k = 0; !rc && k < t->tracks.n; k++)
		if (sel[k] && agg_track(ix, k, A, B, slot, &v, &nv, &cap))
			rc = err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	free(sel);
	free(slot);
	if (rc) {
		free(v);
		return rc;
	}
	gp_qsort_r(v, nv, sizeof *v, agg_cmp, (void *)t);
	int64_t count = 0;
	for (size_t i = 0; i < nv; i++)
		count += v[i].count;
	fprintf(f,
		"{\n  \"agg\": {\"trace_start_ns\": %lld, \"start_ns\": %lld, \"end_ns\": %lld, "
		"\"dur_ns\": %lld, \"tracks\": %zu, \"slices\": %lld},\n  \"names\": [",
		(long long)lo, (long long)(A - lo), (long long)(B - lo), (long long)(B - A),
		ntracks, (long long)count);
	for (size_t i = 0; i < nv; i++) {
		fprintf(f, "%s\n   {\"name\": ", i ? "," : "");
		rep_json_str(f, tr_str(t, v[i].id));
		fprintf(f, ", \"count\": %lld, \"total_ns\": %lld, \"self_ns\": %lld}",
			(long long)v[i].count, (long long)v[i].total, (long long)v[i].self);
	}
	fprintf(f, "%s]\n}\n", nv ? "\n  " : "");
	free(v);
	return 0;
}

int64_t tl_self_ns(const struct tl_index *ix, uint32_t row)
{
	const struct trace *t = ix->t;
	uint32_t p = ix->pos[row];
	int64_t dur = tr_dur(t, row);
	dur = dur > 0 ? dur : 0;
	if (p == TR_NONE)
		return dur;
	size_t en = ix->first[t->ev.track[row] + 1];
	unsigned d = ix->depth[p];
	int64_t self = dur;
	for (size_t q = (size_t)p + 1; q < en && ix->depth[q] > d; q++)
		if (ix->depth[q] == d + 1) {
			int64_t c = tr_dur(t, ix->rows[q]);
			self -= c > 0 ? c : 0;
		}
	return self;
}
