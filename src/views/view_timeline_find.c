/* view_timeline_find: search on the timeline (GET /api/file/ID/timeline/find
 * and the `find=` highlight of GET /api/file/ID/timeline; see view.h).
 *
 * A search is over slices (X events and B/E pairs: what the timeline draws
 * in its depth rows; instants are not searched) whose name contains a text,
 * ASCII letters compared case-insensitively (other bytes as they are).
 * Names are the trace's interned strings, so the index (built with the
 * timeline's) lists the slice positions of each name id (a counting sort
 * by name, O(n)): a search tests each distinct slice name once, then walks
 * only the slices of the matching names. The first `limit` matches in
 * (ts, row) order are kept in a bounded max-heap, so a search costs
 * O(names * text + matches * log limit) whatever the trace's size.
 *
 * Times in the answer are relative to the trace's start (trace_start_ns),
 * as the timeline's. A window [A, B) keeps the slices overlapping it by the
 * timeline's own rule (ts < B and the end after A, or at A for a zero-long
 * slice). */
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "views/timeline_int.h"

int tl_find_build(struct tl_index *ix)
{
	const struct trace *t = ix->t;
	uint32_t ns = t->pool.n;
	size_t n = ix->first[t->tracks.n];
	ix->nnames = ns;
	ix->nfirst = calloc((size_t)ns + 1, sizeof *ix->nfirst);
	ix->npos = malloc((n ? n : 1) * sizeof *ix->npos);
	if (!ix->nfirst || !ix->npos)
		return -1;
	for (size_t i = 0; i < n; i++)
		ix->nfirst[t->ev.name[ix->rows[i]] + 1]++;
	for (uint32_t k = 0; k < ns; k++)
		ix->nfirst[k + 1] += ix->nfirst[k];
	uint32_t *fill = malloc(((size_t)ns ? ns : 1) * sizeof *fill);
	if (!fill)
		return -1;
	memcpy(fill, ix->nfirst, (size_t)ns * sizeof *fill);
	for (size_t i = 0; i < n; i++)
		ix->npos[fill[t->ev.name[ix->rows[i]]]++] = (uint32_t)i;
	free(fill);
	return 0;
}

void tl_find_free(struct tl_index *ix)
{
	free(ix->nfirst);
	free(ix->npos);
}

static unsigned char ascii_lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + ('a' - 'A')) : c;
}

/* Whether h[0..hn) contains the lowered needle nd[0..nn) (nn > 0), ASCII
 * letters of h folded to lower case. */
static bool contains_ci(const unsigned char *h, size_t hn, const unsigned char *nd, size_t nn)
{
	if (nn > hn)
		return false;
	unsigned char c0 = nd[0],
		      c1 = c0 >= 'a' && c0 <= 'z' ? (unsigned char)(c0 - ('a' - 'A')) : c0;
	for (size_t i = 0; i + nn <= hn; i++) {
		if (h[i] != c0 && h[i] != c1)
			continue;
		size_t j = 1;
		while (j < nn && ascii_lower(h[i + j]) == nd[j])
			j++;
		if (j == nn)
			return true;
	}
	return false;
}

int tl_find_match(const struct tl_index *ix, const char *text, uint8_t **out, size_t *nmatch,
		  struct err *e)
{
	*out = NULL;
	size_t nn = strlen(text);
	if (!nn)
		return err_set(e, ERR_USAGE, NULL, -1, "find takes a non-empty text");
	const struct trace *t = ix->t;
	uint32_t ns = ix->nnames;
	uint8_t *m = calloc((size_t)ns ? ns : 1, 1);
	unsigned char *nd = malloc(nn);
	if (!m || !nd) {
		free(m);
		free(nd);
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	}
	for (size_t i = 0; i < nn; i++)
		nd[i] = ascii_lower((unsigned char)text[i]);
	size_t k = 0;
	for (uint32_t id = 0; id < ns; id++) {
		if (ix->nfirst[id] == ix->nfirst[id + 1])
			continue; /* no slice has this name */
		if (contains_ci((const unsigned char *)strpool_get(&t->pool, id),
				strpool_len(&t->pool, id), nd, nn)) {
			m[id] = 1;
			k++;
		}
	}
	free(nd);
	if (nmatch)
		*nmatch = k;
	*out = m;
	return 0;
}

/* (ts, row) order of two positions in ix->rows. */
static bool pos_before(const struct tl_index *ix, uint32_t a, uint32_t b)
{
	const struct trace *t = ix->t;
	uint32_t ra = ix->rows[a], rb = ix->rows[b];
	if (t->ev.ts[ra] != t->ev.ts[rb])
		return t->ev.ts[ra] < t->ev.ts[rb];
	return ra < rb;
}

static int pos_cmp(const void *pa, const void *pb, void *ctx)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	return pos_before(ctx, a, b) ? -1 : pos_before(ctx, b, a) ? 1 : 0;
}

/* The heap h[0..n) keeps the n earliest matches, the latest on top. */
static void heap_down(const struct tl_index *ix, uint32_t *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < n && pos_before(ix, h[m], h[l]))
			m = l;
		if (r < n && pos_before(ix, h[m], h[r]))
			m = r;
		if (m == i)
			return;
		uint32_t x = h[i];
		h[i] = h[m];
		h[m] = x;
		i = m;
	}
}

static void heap_push(const struct tl_index *ix, uint32_t *h, size_t *n, size_t cap, uint32_t p)
{
	if (*n < cap) {
		size_t i = (*n)++;
		h[i] = p;
		while (i > 0 && pos_before(ix, h[(i - 1) / 2], h[i])) {
			uint32_t x = h[i];
			h[i] = h[(i - 1) / 2];
			h[(i - 1) / 2] = x;
			i = (i - 1) / 2;
		}
	} else if (cap && pos_before(ix, p, h[0])) {
		h[0] = p;
		heap_down(ix, h, *n, 0);
	}
}

struct name_stat {
	uint32_t id;
	int64_t count, dur;
};

static int stat_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct name_stat *a = pa, *b = pb;
	const struct trace *t = ctx;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	if (a->dur != b->dur)
		return a->dur > b->dur ? -1 : 1;
	int c = strcmp(tr_str(t, a->id), tr_str(t, b->id));
	return c ? c : a->id < b->id ? -1 : a->id > b->id;
}

int tl_write_find(const struct tl_index *ix, const struct tl_find_opts *o, FILE *f, struct err *e)
{
	const struct trace *t = ix->t;
	if (o->limit < 0 || o->limit > TL_FIND_MAX_LIMIT)
		return err_set(e, ERR_USAGE, NULL, -1, "limit takes 0 to %d matches",
			       TL_FIND_MAX_LIMIT);
	int64_t lo = t->min_ts <= t->max_end ? t->min_ts : 0;
	int64_t A = INT64_MIN, B = INT64_MAX;
	if ((o->has_start && __builtin_add_overflow(lo, o->start_ns, &A)) ||
	    (o->has_end && __builtin_add_overflow(lo, o->end_ns, &B)))
		return err_set(e, ERR_USAGE, NULL, -1, "start_ns or end_ns is out of range");
	if (o->has_start && o->has_end && B <= A)
		return err_set(e, ERR_USAGE, NULL, -1,
			       "the window is empty: end_ns must be after start_ns");
	uint8_t *m;
	size_t nm;
	int rc = tl_find_match(ix, o->text, &m, &nm, e);
	if (rc)
		return rc;
	size_t cap = (size_t)o->limit;
	uint32_t *heap = malloc((cap ? cap : 1) * sizeof *heap);
	struct name_stat *st = malloc((nm ? nm : 1) * sizeof *st);
	if (!heap || !st) {
		free(m);
		free(heap);
		free(st);
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	}
	size_t nheap = 0, nst = 0;
	int64_t total = 0;
	for (uint32_t id = 0; id < ix->nnames; id++) {
		if (!m[id])
			continue;
		struct name_stat s = {.id = id};
		for (uint32_t j = ix->nfirst[id]; j < ix->nfirst[id + 1]; j++) {
			uint32_t p = ix->npos[j], row = ix->rows[p];
			int64_t ts = t->ev.ts[row], dur = tr_dur(t, row), end = tl_ev_end(t, row);
			if (ts >= B || end < A || (end == A && dur > 0))
				continue; /* outside the window, as the timeline's lanes */
			s.count++;
			s.dur += dur > 0 ? dur : 0;
			heap_push(ix, heap, &nheap, cap, p);
		}
		if (s.count)
			st[nst++] = s;
		total += s.count;
	}
	free(m);
	gp_qsort_r(heap, nheap, sizeof *heap, pos_cmp, (void *)ix);
	gp_qsort_r(st, nst, sizeof *st, stat_cmp, (void *)t);
	fputs("{\n  \"find\": {\"text\": ", f);
	rep_json_str(f, o->text);
	fprintf(f, ", \"trace_start_ns\": %lld, \"start_ns\": ", (long long)lo);
	if (o->has_start)
		fprintf(f, "%lld", (long long)o->start_ns);
	else
		fputs("null", f);
	fputs(", \"end_ns\": ", f);
	if (o->has_end)
		fprintf(f, "%lld", (long long)o->end_ns);
	else
		fputs("null", f);
	fprintf(f,
		", \"limit\": %d},\n  \"total\": %lld, \"truncated\": %s, \"names_total\": %zu,\n  "
		"\"names\": [",
		o->limit, (long long)total, (size_t)total > nheap ? "true" : "false", nst);
	for (size_t i = 0; i < nst && i < TL_FIND_MAX_NAMES; i++) {
		fprintf(f, "%s\n   {\"name\": ", i ? "," : "");
		rep_json_str(f, tr_str(t, st[i].id));
		fprintf(f, ", \"count\": %lld, \"total_dur\": %lld}", (long long)st[i].count,
			(long long)st[i].dur);
	}
	fprintf(f, "%s],\n  \"matches\": [", nst ? "\n  " : "");
	for (size_t i = 0; i < nheap; i++) {
		uint32_t p = heap[i], row = ix->rows[p];
		fprintf(f,
			"%s\n   {\"row\": %u, \"track\": %u, \"ts\": %lld, \"dur\": %lld, "
			"\"depth\": %u, \"kind\": ",
			i ? "," : "", row, t->ev.track[row], (long long)(t->ev.ts[row] - lo),
			(long long)tr_dur(t, row), (unsigned)ix->depth[p]);
		rep_json_str(f, tr_kind_label((enum tr_kind)t->ev.kind[row]));
		fputs(", \"name\": ", f);
		rep_json_str(f, tr_str(t, t->ev.name[row]));
		fputc('}', f);
	}
	fprintf(f, "%s]\n}\n", nheap ? "\n  " : "");
	free(heap);
	free(st);
	return 0;
}
