/* pass_walk: the second pass over a trace's text; see pass_int.h. The
 * source is read through a window that keeps the record being read and
 * refills (io/source.h), as the reader does; a record cut by the window's
 * end is read again whole after the refill, so callbacks see each record
 * once. */
#include <stdlib.h>
#include <string.h>

#include "core/limits.h"
#include "core/vec.h"
#include "io/source.h"
#include "kineto/pass_int.h"
#include "kineto/top.h"

const char kp_drop_member[] = "";

enum { KP_WINDOW = 8u << 20 };

struct walk {
	struct src *src;
	char *buf;
	size_t len, cap;
	bool eof, object_form;
	struct jscan j;
	const struct kp_cb *cb;
	VEC(struct kp_member) m;
	VEC(const char *) rep;
	struct err *e;
};

static int refill(struct walk *w, const char *record)
{
	struct jscan *j = &w->j;
	size_t keep = (size_t)(record - w->buf), rest = w->len - keep;
	memmove(w->buf, w->buf + keep, rest);
	w->len = rest;
	j->base_off += (int64_t)keep;
	if (w->len > w->cap / 2) {
		if (w->len > LIM_EVENT_BYTES)
			return err_set(w->e, ERR_LIMIT, src_path(w->src), j->base_off,
				       "one trace record is larger than %u MiB",
				       LIM_EVENT_BYTES >> 20);
		char *nb = realloc(w->buf, w->cap * 2);
		if (!nb)
			return err_set(w->e, ERR_NOMEM, src_path(w->src), -1, "out of memory");
		w->buf = nb;
		w->cap *= 2;
	}
	int rc = src_fill(w->src, w->buf, w->cap, &w->len, &w->eof, w->e);
	if (rc)
		return rc;
	j->base = j->p = w->buf;
	j->end = w->buf + w->len;
	return 0;
}

static bool key_is(const char *k, size_t n, const char *lit)
{
	return n == strlen(lit) && !memcmp(k, lit, n);
}

static int field_of(const char *k, size_t n)
{
	static const char *const names[KPF_COUNT] = {"ph",  "name", "ts",     "dur",
						     "pid", "id",   "bind_id"};
	for (int f = 0; f < KPF_COUNT; f++)
		if (key_is(k, n, names[f]))
			return f;
	return -1;
}

/* One element of traceEvents at j->p: its members as spans. */
static int read_event(struct walk *w)
{
	struct jscan *j = &w->j;
	struct kp_ev ev = {.off = jscan_off(j, j->p), .p0 = j->p, .tid = -1};
	for (int f = 0; f < KPF_COUNT; f++)
		ev.f[f] = -1;
	w->m.n = 0;
	int rc;
	if (*j->p != '{') {
		if ((rc = jscan_skip(j)))
			return rc;
		ev.p1 = j->p;
		return w->cb->event(w->cb->ctx, &ev);
	}
	ev.object = true;
	j->p++;
	if ((rc = jscan_ws(j)))
		return rc;
	if (*j->p == '}') {
		j->p++;
	} else {
		for (;;) {
			struct jstr k = {0};
			if ((rc = kt_key(j, &k, "a trace event")))
				return rc;
			struct kp_member mb = {.k = k.s, .klen = k.len, .v = j->p};
			if ((rc = jscan_skip(j)))
				return rc;
			mb.vend = j->p;
			if (vec_push(w->m, mb, LIM_EVENT_BYTES))
				return err_set(w->e, ERR_NOMEM, src_path(w->src), -1,
					       "out of memory");
			int f = field_of(k.s, k.len);
			if (f >= 0)
				ev.f[f] = (int)w->m.n - 1;
			else if (key_is(k.s, k.len, "tid"))
				ev.tid = (int)w->m.n - 1;
			bool closed;
			if ((rc = jscan_next(j, '}', &closed)))
				return rc;
			if (closed)
				break;
		}
	}
	ev.p1 = j->p;
	if (vec_reserve(w->rep, w->m.n + 1, LIM_EVENT_BYTES))
		return err_set(w->e, ERR_NOMEM, src_path(w->src), -1, "out of memory");
	memset(w->rep.v, 0, (w->m.n + 1) * sizeof *w->rep.v);
	ev.m = w->m.v;
	ev.nm = w->m.n;
	ev.rep = w->rep.v;
	return w->cb->event(w->cb->ctx, &ev);
}

/* One step of the top-level walk (the reader's, import.c, without what it
 * stores); JS_MORE leaves the state as it was. */
static int step(struct walk *w, enum kt_state *st)
{
	struct jscan *j = &w->j;
	const struct kp_cb *cb = w->cb;
	struct jstr k = {0};
	bool closed;
	int rc;
	switch (*st) {
	case ST_BEGIN:
		if ((rc = kt_ws_bom(j, &closed)) || closed) /* closed: a byte order mark */
			return rc;
		if (*j->p != '[' && *j->p != '{')
			return jscan_error(j, j->p,
					   "expected a trace: '{' (object form) or '[' (array "
					   "of events)");
		w->object_form = *j->p++ == '{';
		*st = w->object_form ? ST_MEMBER : ST_EV_FIRST;
		return w->object_form ? JS_OK : cb->events_begin(cb->ctx, false);
	case ST_MEMBER: {
		if ((rc = jscan_ws(j)))
			return rc;
		const char *p0 = j->p;
		if (*j->p == '}') { /* {} */
			j->p++;
			*st = ST_DONE;
			return JS_OK;
		}
		if ((rc = kt_key(j, &k, "the trace object")))
			return rc;
		if (key_is(k.s, k.len, "traceEvents")) {
			if (*j->p != '[')
				return jscan_error(j, j->p, "expected '[' after \"traceEvents\"");
			j->p++;
			*st = ST_EV_FIRST;
			return cb->events_begin(cb->ctx, true);
		}
		if ((rc = jscan_skip(j)))
			return rc;
		*st = ST_MEMBER_NEXT;
		return cb->member(cb->ctx, &k, p0, j->p);
	}
	case ST_MEMBER_NEXT:
	case ST_EV_FIRST:
	case ST_EV_NEXT:
		if ((rc = kt_punct(j, st, w->object_form, &closed)))
			return rc;
		return closed ? cb->events_end(cb->ctx) : JS_OK;
	case ST_EV_ITEM:
		if ((rc = jscan_ws(j)) || (rc = read_event(w)))
			return rc;
		*st = ST_EV_NEXT;
		return JS_OK;
	case ST_DONE:
		if ((rc = jscan_ws(j)))
			return rc;
		j->p = j->end; /* trailing bytes: not part of the trace */
		return JS_OK;
	}
	return JS_OK;
}

static int walk(struct walk *w, bool *truncated)
{
	struct jscan *j = &w->j;
	enum kt_state st = ST_BEGIN;
	for (;;) {
		const char *record = j->p;
		struct jscan_marks marks = jscan_mark(j);
		int rc = step(w, &st);
		if (rc == JS_OK)
			continue;
		if (rc != JS_MORE)
			return w->e->code ? w->e->code : ERR_FORMAT;
		j->p = record;
		jscan_rewind(j, marks);
		if (w->eof) {
			if (st == ST_DONE)
				return 0;
			if (st == ST_BEGIN)
				return err_set(w->e, ERR_FORMAT, src_path(w->src),
					       jscan_off(j, j->p), "empty input");
			*truncated = true;
			if (st == ST_EV_ITEM || st == ST_EV_NEXT || st == ST_EV_FIRST)
				return w->cb->events_end(w->cb->ctx);
			return 0;
		}
		if ((rc = refill(w, record)))
			return rc;
	}
}

int kp_walk(const char *path, const struct kp_cb *cb, bool *truncated, struct err *e)
{
	struct walk w = {.cb = cb, .e = e, .cap = KP_WINDOW};
	*truncated = false;
	int rc = src_open(&w.src, path, e);
	if (rc)
		return rc;
	if (!(w.buf = malloc(w.cap))) {
		src_close(w.src);
		return err_set(e, ERR_NOMEM, path, -1, "out of memory");
	}
	w.j = (struct jscan){.base = w.buf,
			     .p = w.buf,
			     .end = w.buf,
			     .path = src_path(w.src),
			     .uncompressed = src_is_gzip(w.src),
			     .e = e};
	rc = walk(&w, truncated);
	if (rc && e->offset >= 0)
		err_mark_uncompressed(e, src_is_gzip(w.src));
	free(w.buf);
	vec_free(w.m);
	vec_free(w.rep);
	src_close(w.src);
	return rc;
}

bool kp_str(const struct kp_ev *ev, int i, struct jstr *s)
{
	if (i < 0 || ev->m[i].v[0] != '"')
		return false;
	*s = (struct jstr){ev->m[i].v + 1, (size_t)(ev->m[i].vend - ev->m[i].v - 2), false};
	s->escaped = memchr(s->s, '\\', s->len) != NULL;
	return true;
}

bool kp_us(const struct kp_ev *ev, int i, int64_t *ns)
{
	return i >= 0 && jscan_kind(ev->m[i].v[0]) == JK_NUMBER &&
	       !jnum_us_to_ns(ev->m[i].v, (size_t)(ev->m[i].vend - ev->m[i].v), ns);
}

bool kp_int(const struct kp_ev *ev, int i, int64_t *v)
{
	return i >= 0 && jscan_kind(ev->m[i].v[0]) == JK_NUMBER &&
	       !jnum_i64(ev->m[i].v, (size_t)(ev->m[i].vend - ev->m[i].v), v);
}

int kp_write_event(FILE *out, const struct kp_ev *ev)
{
	bool edited = ev->object && ev->extra;
	for (size_t i = 0; ev->object && i < ev->nm && !edited; i++)
		edited = ev->rep[i] != NULL;
	if (!edited)
		return fwrite(ev->p0, 1, (size_t)(ev->p1 - ev->p0), out) ==
			       (size_t)(ev->p1 - ev->p0)
			   ? 0
			   : -1;
	fputc('{', out);
	bool first = true;
	for (size_t i = 0; i < ev->nm; i++) {
		const struct kp_member *m = &ev->m[i];
		if (ev->rep[i] == kp_drop_member)
			continue;
		fputs(first ? "" : ", ", out);
		first = false;
		fwrite(m->k - 1, 1, m->klen + 2, out);
		fputs(": ", out);
		if (ev->rep[i])
			fputs(ev->rep[i], out);
		else
			fwrite(m->v, 1, (size_t)(m->vend - m->v), out);
	}
	if (ev->extra)
		fprintf(out, "%s%s", first ? "" : ", ", ev->extra);
	return fputc('}', out) == EOF ? -1 : 0;
}
