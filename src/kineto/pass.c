/* pass: a window of a trace written from its own bytes; see pass.h. The
 * window's rows (trace/window.h) name the kept events by their byte
 * offsets; the walk (pass_walk.c) meets the events in file order and keeps
 * those, with the flows, E events, metadata, counters and events of other
 * phases as pass.h says. */
#include "kineto/pass.h"

#include <stdlib.h>
#include <string.h>

#include "core/hmap.h"
#include "core/limits.h"
#include "core/sort.h"
#include "core/vec.h"
#include "kineto/pass_int.h"
#include "trace/overlay.h"
#include "trace/window.h"

/* An event the model holds: its offset and whether it is kept. */
struct kp_row {
	int64_t off;
	uint8_t keep;
};

/* The open B events of one (pid, tid), as written: kept or not. */
struct kp_stack {
	char *key; /* pid text, NUL, tid text */
	size_t klen;
	VEC(uint8_t) open;
};

struct slice {
	FILE *out;
	const struct trace *t;
	bool whole, clip;
	int64_t t0, t1;
	struct kp_row *rows;
	size_t nrows, cur;
	struct hmap stk_index;
	VEC(struct kp_stack) stk;
	const char *key; /* the key being looked up */
	size_t klen;
	const struct tr_overlay *ov; /* sorted (tr_ov_sort), or NULL */
	size_t ovcur;		     /* its next item */
	char *ovbuf;		     /* the args of the event being written */
	size_t ovcap;
	bool first_member, first_event;
	uint64_t elements, events;
	char tsbuf[32], durbuf[32];
	struct err *e;
};

static int cmp_row(const void *a, const void *b)
{
	const struct kp_row *x = a, *y = b;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* Event rows by track, then start, longer first at equal starts. */
struct kp_slice_ix {
	uint32_t track, row;
	int64_t ts, end;
};
static int cmp_ix(const void *a, const void *b)
{
	const struct kp_slice_ix *x = a, *y = b;
	if (x->track != y->track)
		return x->track < y->track ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* The slice a flow event binds to (Trace Event Format): the innermost one
 * enclosing its ts on its track, or for an "f" without "bp":"e" the next
 * one to start; TR_NONE when none. ix[lo, hi) is the track's part. */
static uint32_t flow_slice(const struct kp_slice_ix *ix, size_t lo, size_t hi,
			   const struct tr_flow *f)
{
	size_t a = lo, b = hi; /* first entry with ts > f->ts */
	while (a < b) {
		size_t mid = a + (b - a) / 2;
		if (ix[mid].ts <= f->ts)
			a = mid + 1;
		else
			b = mid;
	}
	if (f->ph == 'f' && !f->bp_e) {
		size_t c = a; /* first with ts >= f->ts */
		while (c > lo && ix[c - 1].ts == f->ts)
			c--;
		return c < hi ? ix[c].row : TR_NONE;
	}
	for (size_t k = a, n = 0; k > lo && n < 4096; k--, n++)
		if (ix[k - 1].end >= f->ts)
			return ix[k - 1].row;
	return TR_NONE;
}

struct kp_flow_ix {
	uint32_t cat, i;
	int64_t id;
};
static int cmp_flow(const void *a, const void *b)
{
	const struct kp_flow_ix *x = a, *y = b;
	if (x->cat != y->cat)
		return x->cat < y->cat ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* keep[i] for each flow event of t: every event of its flow (category,
 * id) binds to a kept slice. */
static int flows_keep(const struct trace *t, const uint8_t *row_keep, uint8_t *keep)
{
	size_t nf = t->flows.n, ne = t->ev.n;
	struct kp_slice_ix *ix = malloc((ne ? ne : 1) * sizeof *ix);
	size_t *start = calloc(t->tracks.n + 1, sizeof *start);
	struct kp_flow_ix *fx = malloc((nf ? nf : 1) * sizeof *fx);
	if (!ix || !start || !fx) {
		free(ix);
		free(start);
		free(fx);
		return -1;
	}
	size_t n = 0;
	for (size_t r = 0; r < ne; r++)
		if (t->ev.ph[r] == 'X' || t->ev.ph[r] == 'B')
			ix[n++] = (struct kp_slice_ix){t->ev.track[r], (uint32_t)r, t->ev.ts[r],
						       t->ev.ts[r] + tr_dur(t, r)};
	gp_qsort(ix, n, sizeof *ix, cmp_ix);
	for (size_t k = 0; k < n; k++)
		start[ix[k].track + 1] = k + 1;
	for (size_t k = 1; k <= t->tracks.n; k++)
		if (start[k] < start[k - 1])
			start[k] = start[k - 1];
	for (size_t i = 0; i < nf; i++) {
		const struct tr_flow *f = &t->flows.v[i];
		uint32_t tr = f->track;
		uint32_t row =
		    tr < t->tracks.n ? flow_slice(ix, start[tr], start[tr + 1], f) : TR_NONE;
		keep[i] = row != TR_NONE && row_keep[row];
		fx[i] = (struct kp_flow_ix){f->cat, (uint32_t)i, f->id};
	}
	gp_qsort(fx, nf, sizeof *fx, cmp_flow);
	for (size_t a = 0, b; a < nf; a = b) {
		bool all = true;
		for (b = a; b < nf && fx[b].cat == fx[a].cat && fx[b].id == fx[a].id; b++)
			all = all && keep[fx[b].i];
		for (size_t k = a; k < b; k++)
			keep[fx[k].i] = all;
	}
	free(ix);
	free(start);
	free(fx);
	return 0;
}

/* The model's events and flow events by offset, each kept or not. */
static int build_rows(struct slice *s, const struct trace *w)
{
	const struct trace *t = s->t;
	uint8_t *row_keep = calloc(t->ev.n + 1, 1), *flow_keep = calloc(t->flows.n + 1, 1);
	s->rows = malloc((t->ev.n + t->flows.n + 1) * sizeof *s->rows);
	int rc = !row_keep || !flow_keep || !s->rows ? -1 : 0;
	if (!rc) {
		for (size_t i = 0; i < w->ev.n; i++) {
			uint32_t r = (uint32_t)i; /* up the chain of windows to t's row */
			for (const struct trace *x = w; x != t; x = x->base)
				r = tr_window_rows(x)[r];
			int64_t ts = t->ev.ts[r], end = ts + tr_dur(t, r);
			row_keep[r] = !s->clip || (ts < s->t1 && end >= s->t0);
		}
		rc = flows_keep(t, row_keep, flow_keep);
	}
	if (!rc) {
		for (size_t r = 0; r < t->ev.n; r++)
			s->rows[s->nrows++] = (struct kp_row){t->ev.offset[r], row_keep[r]};
		for (size_t i = 0; i < t->flows.n; i++)
			s->rows[s->nrows++] = (struct kp_row){t->flows.v[i].offset, flow_keep[i]};
		bool sorted = true;
		for (size_t i = 1; i < s->nrows && sorted; i++)
			sorted = s->rows[i - 1].off < s->rows[i].off;
		if (!sorted)
			gp_qsort(s->rows, s->nrows, sizeof *s->rows, cmp_row);
	}
	free(row_keep);
	free(flow_keep);
	return rc ? err_set(s->e, ERR_NOMEM, t->path, -1, "out of memory") : 0;
}

static int changed(struct slice *s, int64_t off)
{
	return err_set(s->e, ERR_FORMAT, s->t->path, off,
		       "the file no longer matches the trace loaded from it (changed since?)");
}

static bool stk_eq(const void *ctx, uint32_t v)
{
	const struct slice *s = ctx;
	return s->stk.v[v].klen == s->klen && !memcmp(s->stk.v[v].key, s->key, s->klen);
}

/* The open-B stack of ev's (pid, tid); NULL when out of memory. */
static struct kp_stack *stack_of(struct slice *s, const struct kp_ev *ev)
{
	char key[256];
	size_t n = 0;
	for (int k = 0; k < 2; k++) {
		int i = k ? ev->tid : ev->f[KPF_PID];
		size_t len = i < 0 ? 0 : (size_t)(ev->m[i].vend - ev->m[i].v);
		len = len > 120 ? 120 : len;
		if (len)
			memcpy(key + n, ev->m[i].v, len);
		n += len;
		key[n++] = 0;
	}
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)key[i]) * 1099511628211ull;
	s->key = key;
	s->klen = n;
	uint32_t v;
	size_t slot = hmap_slot(&s->stk_index, hmap_hash(h), stk_eq, s, &v);
	if (slot == SIZE_MAX)
		return NULL;
	if (v != HMAP_NONE)
		return &s->stk.v[v];
	struct kp_stack *st = vec_add(s->stk, LIM_TRACE_ROWS);
	if (!st || !(st->key = malloc(n))) {
		if (st)
			s->stk.n--;
		return NULL;
	}
	memcpy(st->key, key, n);
	st->klen = n;
	st->open.v = NULL;
	st->open.n = st->open.cap = 0;
	hmap_set(&s->stk_index, slot, hmap_hash(h), (uint32_t)(s->stk.n - 1));
	return st;
}

static bool is_ph(const struct kp_ev *ev, char c)
{
	struct jstr ph;
	return kp_str(ev, ev->f[KPF_PH], &ph) && ph.len == 1 && ph.s[0] == c;
}

/* A kept event's ts and dur cut to the window (the events wholly outside
 * it were not kept: build_rows). */
static void clip_event(struct slice *s, struct kp_ev *ev)
{
	int64_t ts, dur;
	if (!kp_us(ev, ev->f[KPF_TS], &ts))
		return;
	if (is_ph(ev, 'X') && kp_us(ev, ev->f[KPF_DUR], &dur)) {
		int64_t a = ts < s->t0 ? s->t0 : ts, b = ts + dur > s->t1 ? s->t1 : ts + dur;
		if (a != ts)
			ev->rep[ev->f[KPF_TS]] = tr_fmt_us(a, s->tsbuf);
		if (b - a != dur)
			ev->rep[ev->f[KPF_DUR]] = tr_fmt_us(b - a, s->durbuf);
	} else if (is_ph(ev, 'E') && ts > s->t1) {
		ev->rep[ev->f[KPF_TS]] = tr_fmt_us(s->t1, s->tsbuf);
	}
}

/* Whether the window keeps ev. */
static int decide(struct slice *s, struct kp_ev *ev, bool *keep)
{
	if (s->cur < s->nrows && s->rows[s->cur].off < ev->off)
		return changed(s, s->rows[s->cur].off);
	bool model = s->cur < s->nrows && s->rows[s->cur].off == ev->off;
	int64_t ts;
	bool has_ts = ev->object && kp_us(ev, ev->f[KPF_TS], &ts);
	if (model)
		*keep = s->rows[s->cur++].keep;
	else if (!ev->object || is_ph(ev, 'M') || !has_ts)
		*keep = true;
	else
		*keep = ts >= s->t0 && ts < s->t1;
	if (!ev->object || !(is_ph(ev, 'B') || is_ph(ev, 'E')))
		return 0;
	struct kp_stack *st = stack_of(s, ev);
	if (!st)
		return err_set(s->e, ERR_NOMEM, s->t->path, -1, "out of memory");
	if (is_ph(ev, 'B'))
		return vec_push(st->open, (uint8_t)*keep, LIM_TRACE_ROWS)
			   ? err_set(s->e, ERR_NOMEM, s->t->path, -1, "out of memory")
			   : 0;
	if (st->open.n)
		*keep = st->open.v[--st->open.n];
	return 0;
}

/* Text of room for n bytes in s->ovbuf; NULL when out of memory. */
static char *ov_room(struct slice *s, size_t n)
{
	if (n > s->ovcap) {
		char *b = n <= LIM_OVERLAY_BYTES ? realloc(s->ovbuf, n) : NULL;
		if (!b)
			return NULL;
		s->ovbuf = b;
		s->ovcap = n;
	}
	return s->ovbuf;
}

/* The overlay's members for ev (the items at its offset, joined with ", ")
 * put into its args: appended inside an args object, or as a new "args"
 * member when it has none. An args that is not an object is left as it
 * is (nothing to add members to). */
static int ov_apply(struct slice *s, struct kp_ev *ev)
{
	const struct tr_overlay *o = s->ov;
	if (s->ovcur < o->n && o->items[s->ovcur].off >= 0 && o->items[s->ovcur].off < ev->off)
		return changed(s, o->items[s->ovcur].off);
	size_t a = s->ovcur, b = a, total = 0;
	for (; b < o->n && o->items[b].off == ev->off; b++)
		total += o->items[b].len + 2;
	s->ovcur = b;
	if (a == b || !ev->object)
		return 0;
	int args = -1;
	for (size_t i = 0; i < ev->nm && args < 0; i++)
		if (ev->m[i].klen == 4 && !memcmp(ev->m[i].k, "args", 4))
			args = (int)i;
	const char *v = args >= 0 ? ev->m[args].v : NULL, *close = NULL;
	if (v && *v != '{')
		return 0;
	if (v) /* the object's closing brace, and whether it holds members */
		for (close = ev->m[args].vend - 1; *close != '}';)
			close--;
	const char *q = v ? v + 1 : NULL;
	while (q && q < close && (*q == ' ' || *q == '\n' || *q == '\r' || *q == '\t'))
		q++;
	bool empty = !v || q == close;
	size_t head = v ? (size_t)(close - v) : 0;
	char *w = ov_room(s, head + total + 16);
	if (!w)
		return err_set(s->e, ERR_NOMEM, s->t->path, -1, "out of memory");
	size_t n = 0;
	if (v) {
		while (head > 1 && (v[head - 1] == ' ' || v[head - 1] == '\n' ||
				    v[head - 1] == '\r' || v[head - 1] == '\t'))
			head--;
		memcpy(w, v, head);
		n = head;
	} else {
		memcpy(w, "\"args\": {", 9);
		n = 9;
	}
	for (size_t k = a; k < b; k++) {
		if (k > a || !empty) {
			memcpy(w + n, ", ", 2);
			n += 2;
		}
		memcpy(w + n, o->text + o->items[k].at, o->items[k].len);
		n += o->items[k].len;
	}
	w[n++] = '}';
	w[n] = 0;
	if (v)
		ev->rep[args] = w;
	else
		ev->extra = w;
	return 0;
}

static int sl_member(void *ctx, const struct jstr *key, const char *p0, const char *p1)
{
	(void)key;
	struct slice *s = ctx;
	fputs(s->first_member ? "{\n  " : ",\n  ", s->out);
	s->first_member = false;
	fwrite(p0, 1, (size_t)(p1 - p0), s->out);
	return 0;
}

static int sl_begin(void *ctx, bool object_form)
{
	struct slice *s = ctx;
	if (object_form) {
		fputs(s->first_member ? "{\n  " : ",\n  ", s->out);
		s->first_member = false;
		fputs("\"traceEvents\": ", s->out);
	}
	fputs("[", s->out);
	return 0;
}

static int sl_event(void *ctx, struct kp_ev *ev)
{
	struct slice *s = ctx;
	s->elements++;
	bool keep = true;
	int rc = s->whole ? 0 : decide(s, ev, &keep);
	if (rc || !keep)
		return rc;
	if (s->clip && ev->object)
		clip_event(s, ev);
	if (s->ov && (rc = ov_apply(s, ev)))
		return rc;
	fputs(s->first_event ? "\n  " : ",\n  ", s->out);
	s->first_event = false;
	s->events++;
	return kp_write_event(s->out, ev);
}

static int sl_end(void *ctx)
{
	struct slice *s = ctx;
	const struct tr_overlay *o = s->ov;
	if (o && s->ovcur < o->n && o->items[s->ovcur].off >= 0)
		return changed(s, o->items[s->ovcur].off); /* an event never met */
	for (size_t k = s->ovcur; o && k < o->n; k++) {	   /* the overlay's own events */
		fputs(s->first_event ? "\n  " : ",\n  ", s->out);
		s->first_event = false;
		s->events++;
		fwrite(o->text + o->items[k].at, 1, o->items[k].len, s->out);
	}
	if (o)
		s->ovcur = o->n;
	fputs(s->first_event ? "]" : "\n]", s->out);
	return 0;
}

static int pass(const char *path, const struct trace *t, const struct trace *w, bool clip,
		const struct tr_overlay *ov, FILE *out, struct kpass_info *info, struct err *e)
{
	*info = (struct kpass_info){0};
	struct slice s = {.out = out,
			  .t = t,
			  .ov = ov,
			  .whole = w == NULL,
			  .clip = clip && w,
			  .t0 = INT64_MIN,
			  .t1 = INT64_MAX,
			  .first_member = true,
			  .first_event = true,
			  .e = e};
	for (const struct trace *x = w; x && x != t; x = x->base) {
		if (!x->base) /* not a window of t */
			return err_set(e, ERR_USAGE, t->path, -1, "not a window of this trace");
		s.t0 = x->win_t0 > s.t0 ? x->win_t0 : s.t0;
		s.t1 = x->win_t1 < s.t1 ? x->win_t1 : s.t1;
	}
	int rc = w ? build_rows(&s, w) : 0;
	struct kp_cb cb = {&s, sl_member, sl_begin, sl_event, sl_end};
	bool object_form = t->meta.object_form;
	if (!rc)
		rc = kp_walk(path, &cb, &info->truncated, e);
	bool all_met = s.whole ? s.elements == t->counts.events : s.cur == s.nrows;
	all_met = all_met && (!ov || s.ovcur == ov->n);
	if (!rc && !all_met)
		rc = changed(&s, -1);
	if (!rc) {
		if (object_form)
			fputs(s.first_member ? "{}\n" : "\n}\n", out);
		else
			fputs("\n", out);
	}
	info->events = s.events;
	free(s.rows);
	free(s.ovbuf);
	for (size_t i = 0; i < s.stk.n; i++) {
		free(s.stk.v[i].key);
		vec_free(s.stk.v[i].open);
	}
	vec_free(s.stk);
	hmap_free(&s.stk_index);
	return rc;
}

int kpass_slice(const char *path, const struct trace *t, const struct trace *w, bool clip,
		FILE *out, struct kpass_info *info, struct err *e)
{
	return pass(path, t, w, clip, NULL, out, info, e);
}

int kpass_overlay(const char *path, const struct trace *t, struct tr_overlay *ov, FILE *out,
		  struct kpass_info *info, struct err *e)
{
	*info = (struct kpass_info){0};
	if (!tr_ov_sort(ov))
		return err_set(e, ERR_NOMEM, t->path, -1,
			       "out of memory (the additions to the trace)");
	return pass(path, t, NULL, false, ov, out, info, e);
}
