/* import: loads a Kineto trace (kineto_load): the buffer and refill loop, the
 * top-level structure (object or bare array, truncation), the push form
 * (kineto_push). The metadata members are read by import_meta.c, events by
 * import_event.c and stored by import_commit.c; derived checks run in
 * check.c. */
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/threads.h"
#include "core/limits.h"
#include "io/sniff.h"
#include "io/source.h"
#include "kineto/import_internal.h"
#include "kineto/kineto.h"
#include "kineto/top.h"

struct loader {
	struct imp m;
	struct imp_worker *w; /* NULL: serial import */
	const char *map_end;  /* mapped input: its end; the window is j->base..j->end */
	size_t split_min;
	struct src *src;
	char *buf;
	size_t cap, len;
	bool eof;
	const struct kineto_opts *opts;
	int64_t next_progress;
	uint64_t max_memory; /* the limit of the load (kineto_opts.max_memory) */
	unsigned unchecked;  /* events read since the last memory check */
	/* push mode (kineto_push_*): no source, the caller appends the bytes;
	 * parse() returns PARSE_WANT where it would refill, in state st */
	bool push;
	enum kt_state st;
	int64_t pushed; /* bytes appended so far */
	/* bytes from the unfinished record on that the next parse waits for:
	 * twice what it had, so a record of many slices is re-read a
	 * logarithmic number of times (as refill doubles the window), and
	 * no later than LIM_EVENT_BYTES, so a record under the limit is
	 * parsed before kineto_push_room would call the window too large */
	size_t retry_at;
	/* the input's head: its first min(HEAD_BYTES, first window) bytes, in
	 * which another format's signature is told (the same bytes however
	 * the input arrives: read in windows, mapped or pushed) */
	size_t head;
};

/* parse() in push mode: the window ended, more bytes are wanted. */
enum { PARSE_WANT = 1 };

/* Events between two memory checks: a check costs a few dozen additions,
 * and a few thousand tiny events hold well under a megabyte. */
enum { MEM_CHECK_EVENTS = 4096 };

static int nomem(struct loader *l)
{
	return err_set(l->m.e, ERR_NOMEM, l->m.t->path, -1, "out of memory");
}

uint64_t kineto_default_max_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	if (pages <= 0 || page <= 0)
		return (uint64_t)1 << 40;
	return (uint64_t)pages * (uint64_t)page / 2;
}

/* "512.0 MiB", "2.0 GiB": n in binary units. */
static void fmt_bytes(char *buf, size_t n, uint64_t v)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	double x = (double)v;
	int u = 0;
	while (x >= 1024 && u < 5) {
		x /= 1024;
		u++;
	}
	if (u)
		snprintf(buf, n, "%.1f %s", x, unit[u]);
	else
		snprintf(buf, n, "%llu B", (unsigned long long)v);
}

/* What the load holds against its limit: the trace, the importer's arrays,
 * the second thread's (as of its last job) and the read window. Fails with
 * ERR_LIMIT at the offset of at. */
static int mem_check(struct loader *l, const char *at)
{
	l->unchecked = 0;
	uint64_t held = imp_mem_bytes(&l->m) + imp_worker_bytes(l->w) + (l->buf ? l->cap : 0);
	if (held <= l->max_memory)
		return 0;
	char lim[32];
	fmt_bytes(lim, sizeof lim, l->max_memory);
	struct jscan *j = &l->m.j;
	err_set(l->m.e, ERR_LIMIT, l->m.t->path, jscan_off(j, at),
		"the trace needs more than %s of memory (--max-memory); load it with a larger "
		"--max-memory, or on a machine with more memory",
		lim);
	err_mark_uncompressed(l->m.e, j->uncompressed);
	return ERR_LIMIT;
}

/* After a window is read: the tables' growth planned on the share read,
 * progress reported every 16 MiB. */
static void read_more(struct loader *l)
{
	int64_t pos = src_raw_pos(l->src), size = src_raw_size(l->src);
	tr_build_plan(&l->m.b, pos, size);
	if (l->opts && l->opts->progress && pos >= l->next_progress) {
		l->opts->progress(l->opts->progress_ctx, pos, size);
		l->next_progress = pos + (16 << 20);
	}
}

/* Mapped input: the window moves forward over the mapping; the pages
 * before the record being read are released. */
static int refill_map(struct loader *l, const char *record)
{
	struct jscan *j = &l->m.j;
	if ((size_t)(j->end - record) > LIM_EVENT_BYTES)
		return err_set(l->m.e, ERR_LIMIT, l->m.t->path, jscan_off(j, record),
			       "one trace record is larger than %u MiB", LIM_EVENT_BYTES >> 20);
	src_map_release(l->src, (size_t)(record - j->base));
	size_t remain = (size_t)(l->map_end - j->end);
	if (!remain)
		l->eof = true;
	j->end += remain < l->cap ? remain : l->cap;
	j->p = record;
	read_more(l);
	return 0;
}

/* Keeps the bytes from record on, appends input. Sets eof when the source
 * ended. */
static int refill(struct loader *l, const char *record)
{
	struct jscan *j = &l->m.j;
	if (mem_check(l, record))
		return ERR_LIMIT;
	if (l->map_end)
		return refill_map(l, record);
	size_t keep = (size_t)(record - l->buf);
	size_t rest = l->len - keep;
	memmove(l->buf, l->buf + keep, rest);
	l->len = rest;
	j->base_off += (int64_t)keep;
	if (l->len > l->cap / 2) { /* a large record: make room for it */
		if (l->len > LIM_EVENT_BYTES)
			return err_set(l->m.e, ERR_LIMIT, l->m.t->path, j->base_off,
				       "one trace record is larger than %u MiB",
				       LIM_EVENT_BYTES >> 20);
		size_t ncap = l->cap * 2;
		char *nb = realloc(l->buf, ncap);
		if (!nb)
			return nomem(l);
		l->buf = nb;
		l->cap = ncap;
	}
	/* Fill the window: large windows keep both importing threads busy. */
	int rc = src_fill(l->src, l->buf, l->cap, &l->len, &l->eof, l->m.e);
	if (rc)
		return rc;
	j->base = l->buf;
	j->p = l->buf; /* the kept record now starts the buffer */
	j->end = l->buf + l->len;
	read_more(l);
	return 0;
}

/* One step of the top-level state machine. JS_MORE leaves the state as it
 * was, to be retried from the same byte after a refill. */
static int step(struct loader *l, enum kt_state *st)
{
	struct jscan *j = &l->m.j;
	struct tr_meta *meta = &l->m.t->meta;
	struct jstr k = {0};
	bool closed;
	int rc;
	switch (*st) {
	case ST_BEGIN:
		if ((rc = kt_ws_bom(j, &closed)) || closed) /* closed: a byte order mark */
			return rc;
		if (*j->p == '[') {
			j->p++;
			*st = ST_EV_FIRST;
			return JS_OK;
		}
		if (*j->p != '{') {
			/* the front ends tell a named file of another kind
			 * apart before (input/input.h); stdin gets here */
			const void *p = j->p;
			int64_t at = j->base_off + (j->p - j->base);
			size_t n = (size_t)(j->end - j->p);
			if (at >= (int64_t)l->head)
				n = 0;
			else if (n > l->head - (size_t)at)
				n = l->head - (size_t)at;
			const char *what = sniff_ncu_rep(p, n)	  ? "an Nsight Compute (.ncu-rep)"
					   : sniff_sqlite(p, n)	  ? "an SQLite"
					   : sniff_nsys_rep(p, n) ? "an Nsight Systems (.nsys-rep)"
								  : NULL;
			if (what)
				return jscan_error(j, j->p, "this is %s file, not a PyTorch trace",
						   what);
			return jscan_error(j, j->p,
					   "expected a trace: '{' (object form) or '[' (array "
					   "of events)");
		}
		j->p++;
		meta->object_form = true;
		if ((rc = jscan_ws(j)))
			return rc;
		if (*j->p == '}') {
			j->p++;
			*st = ST_DONE;
			return JS_OK;
		}
		*st = ST_MEMBER;
		return JS_OK;
	case ST_MEMBER:
		if ((rc = kt_key(j, &k, "the trace object")))
			return rc;
		if (IMP_KEY(&k, "traceEvents")) {
			if (*j->p != '[')
				return jscan_error(j, j->p, "expected '[' after \"traceEvents\"");
			j->p++;
			meta->has_trace_events = true;
			*st = ST_EV_FIRST;
			return JS_OK;
		}
		if ((rc = imp_meta_member(&l->m, &k)))
			return rc;
		*st = ST_MEMBER_NEXT;
		return JS_OK;
	case ST_MEMBER_NEXT:
	case ST_EV_FIRST:
	case ST_EV_NEXT:
		return kt_punct(j, st, meta->object_form, &closed);
	case ST_EV_ITEM:
		if ((rc = jscan_ws(j)) || (rc = imp_event(&l->m)))
			return rc;
		if (++l->unchecked >= MEM_CHECK_EVENTS && mem_check(l, j->p))
			return JS_ERR;
		*st = ST_EV_NEXT;
		return JS_OK;
	case ST_DONE:
		if ((rc = jscan_ws(j)))
			return rc;
		/* once: the rest may come in later windows */
		if (!l->m.t->anomalies.count[AN_TRAILING_DATA])
			tr_anomaly_add(&l->m.t->anomalies, AN_TRAILING_DATA, jscan_off(j, j->p));
		j->p = j->end; /* the rest is ignored */
		return JS_OK;
	}
	return JS_OK;
}

/* Speculative split of the window (see import_par.c): the worker takes the
 * events from a guessed boundary in the middle; we parse up to it. */
struct split {
	bool active;
	const char *at;
};

static void split_try(struct loader *l, struct split *sp)
{
	struct jscan *j = &l->m.j;
	size_t left = (size_t)(j->end - j->p);
	if (!l->w || left < l->split_min)
		return;
	/* Half each: the worker interns into its own pool, which costs it about
	 * what the merge costs the loader. */
	const char *at = imp_find_boundary(j->p + left / 2, j->end);
	if (!at)
		return;
	imp_worker_begin(l->w, j->base, at, j->end, j->base_off);
	sp->active = true;
	sp->at = at;
}

/* Ends a split that failed (we did not land on its boundary). */
static void split_drop(struct loader *l, struct split *sp)
{
	const char *stop;
	bool closed;
	if (!sp->active)
		return;
	imp_worker_wait(l->w, &stop, &closed);
	imp_worker_discard(l->w);
	sp->active = false;
}

/* We are at an event start: if it is the split point, take the worker's
 * rows and continue after them. */
static int split_join(struct loader *l, struct split *sp, enum kt_state *st)
{
	struct jscan *j = &l->m.j;
	if (jscan_ws(j) || j->p != sp->at) {
		if (j->p > sp->at)
			split_drop(l, sp);
		return 0;
	}
	const char *stop;
	bool closed;
	bool ok = imp_worker_wait(l->w, &stop, &closed);
	sp->active = false;
	if (!ok) { /* the worker found nothing usable: parse it ourselves */
		imp_worker_discard(l->w);
		return 0;
	}
	int rc = imp_worker_merge(l->w, &l->m);
	if (rc || (rc = mem_check(l, stop)))
		return rc;
	j->p = stop;
	*st = !closed ? ST_EV_NEXT : kt_after_events(l->m.t->meta.object_form);
	return 0;
}

static int parse(struct loader *l)
{
	struct jscan *j = &l->m.j;
	enum kt_state st = l->st;
	struct split sp = {0};
	for (;;) {
		if (st == ST_EV_ITEM) {
			int rc = sp.active ? split_join(l, &sp, &st) : (split_try(l, &sp), 0);
			if (rc)
				return rc;
		} else if (sp.active && j->p > sp.at) {
			split_drop(l, &sp);
		}
		const char *record = j->p;
		struct jscan_marks marks = jscan_mark(j);
		int rc = step(l, &st);
		if (rc == JS_OK)
			continue;
		split_drop(l, &sp); /* the window is about to change */
		if (rc == JS_ERR)
			return l->m.e->code ? l->m.e->code : ERR_FORMAT;
		/* JS_MORE: re-read this record with more input, unless there is none. */
		j->p = record;
		jscan_rewind(j, marks);
		if (l->eof) {
			if (st == ST_DONE)
				return 0;
			if (st == ST_BEGIN && jscan_off(j, j->end) == 0)
				return err_set(l->m.e, ERR_FORMAT, l->m.t->path, 0, "empty input");
			if (!l->m.t->meta.has_trace_events && l->m.t->meta.object_form)
				return jscan_error(j, j->p, "input ends before \"traceEvents\"")
					   ? l->m.e->code
					   : ERR_FORMAT;
			tr_anomaly_add(&l->m.t->anomalies, AN_TRUNCATED, jscan_off(j, j->p));
			return 0;
		}
		if (l->push) { /* the caller appends, then calls again */
			l->st = st;
			return PARSE_WANT;
		}
		if ((rc = refill(l, record)))
			return rc;
	}
}

void imp_free(struct imp *m)
{
	free(m->scratch);
	free(m->name_flags);
	free(m->open_b);
	free(m->b_prev);
	free(m->pend);
}

/* The input's head (loader.head) for a first window of cap bytes: a push
 * holds it whole before its first parse, as kineto_load's first window. */
static size_t head_for(size_t cap)
{
	return cap < 4096 ? cap : 4096;
}

/* Read window for an input of about est bytes (-1: unknown). */
static size_t window_for(int64_t est)
{
	size_t w = 2 * LIM_CHUNK_BYTES;
	if (est > 0 && (uint64_t)est / 32 < w)
		w = (uint64_t)est / 32 < (1u << 20)
			? 1u << 20
			: ((size_t)est / 32 + 0xFFFFF) & ~(size_t)0xFFFFF;
	return w;
}

/* n anomalies of kind k counted by the scanner, the first at off. */
static void add_counted(struct trace *t, enum tr_anomaly k, unsigned n, int64_t off)
{
	if (!n)
		return;
	tr_anomaly_add(&t->anomalies, k, off);
	t->anomalies.count[k] += n - 1;
}

/* After parse() returned rc: the checks of a whole input, the anomalies the
 * source saw, and the trace (*out) or the error; frees l's parts. */
static int finish(struct loader *l, int rc, struct trace **out)
{
	struct trace *t = l->m.t;
	struct err *e = l->m.e;
	if (!rc && t->meta.object_form && !t->meta.has_trace_events &&
	    !t->anomalies.count[AN_TRUNCATED])
		rc = err_set(e, ERR_FORMAT, t->path, -1,
			     "not a trace: the JSON object has no \"traceEvents\" array");
	if (rc)
		goto fail;
	if (l->map_end)
		src_map_release(l->src, (size_t)(l->map_end - l->m.j.base));
	int64_t pos = l->src ? src_pos(l->src) : l->pushed;
	if (l->src && src_truncated(l->src) && !t->anomalies.count[AN_TRUNCATED])
		tr_anomaly_add(&t->anomalies, AN_TRUNCATED, pos);
	if (l->src && src_trailing_bytes(l->src) > 0)
		tr_anomaly_add(&t->anomalies, AN_TRAILING_DATA, pos);
	add_counted(t, AN_NONSTANDARD, l->m.j.tolerated, l->m.j.tolerated_off);
	add_counted(t, AN_BAD_ESCAPE, l->m.j.bad_escapes, l->m.j.bad_escape_off);
	add_counted(t, AN_NUL_IN_STRING, l->m.j.nul_strings, l->m.j.nul_off);
	t->counts.bytes = (uint64_t)pos;
	if ((rc = imp_finish_events(&l->m)))
		goto fail;
	rc = tr_build_finish(&l->m.b, l->w != NULL, out, e);
	if (!rc && l->src && l->opts && l->opts->progress)
		l->opts->progress(l->opts->progress_ctx, src_raw_pos(l->src), src_raw_size(l->src));
	imp_worker_stop(l->w);
	free(l->buf);
	imp_free(&l->m);
	src_close(l->src);
	return rc;
fail:
	imp_worker_stop(l->w);
	free(l->buf);
	imp_free(&l->m);
	if (l->src)
		src_close(l->src);
	tr_build_abort(&l->m.b);
	return rc;
}

int kineto_load(const char *path, const struct kineto_opts *opts, struct trace **out, struct err *e)
{
	*out = NULL;
	struct loader l = {.opts = opts,
			   .max_memory = opts && opts->max_memory ? opts->max_memory
								  : kineto_default_max_memory()};
	if (imp_init(&l.m, path, e))
		return err_set(e, ERR_NOMEM, path, -1, "out of memory");
	struct trace *t = l.m.t;
	/* The window: 8 MiB, smaller for small inputs so that it stays a small
	 * part of the memory a load takes (gzip traces are ~10x their size).
	 * gzip input is inflated one window ahead of the parser. */
	struct stat st;
	int64_t fsize =
	    strcmp(path, "-") && !stat(path, &st) && S_ISREG(st.st_mode) ? st.st_size : -1;
	int rc = src_open_ex(&l.src, path, window_for(fsize > 0 ? fsize * 10 : -1), e);
	if (rc)
		return finish(&l, rc, out);
	t->gzip = src_is_gzip(l.src);
	int64_t est = src_raw_size(l.src);
	l.cap = window_for(est > 0 && t->gzip ? est * 10 : est);
	if (opts && opts->window)
		l.cap = opts->window;
	l.head = head_for(l.cap);
	l.split_min = opts && opts->split_min ? opts->split_min : l.cap / 4;
	int threads = gp_threads(opts ? opts->threads : 0);
	if (threads > 1 && imp_worker_start(&l.w, t->path, t->gzip)) {
		rc = nomem(&l);
		return finish(&l, rc, out);
	}
	t->file_bytes = src_raw_size(l.src);
	const char *map;
	size_t map_len;
	if (!src_map(l.src, &map, &map_len)) {
		l.map_end = map + map_len;
		l.m.j = (struct jscan){.base = map, .p = map, .end = map, .path = t->path, .e = e};
	} else if (!(l.buf = malloc(l.cap))) {
		rc = nomem(&l);
		return finish(&l, rc, out);
	}
	if (!l.map_end)
		l.m.j = (struct jscan){.base = l.buf,
				       .p = l.buf,
				       .end = l.buf,
				       .path = t->path,
				       .uncompressed = t->gzip,
				       .e = e};
	rc = parse(&l);
	return finish(&l, rc, out);
}

struct kineto_push {
	struct loader l;
	int rc; /* the first error: later calls do nothing */
};

int kineto_push_begin(const char *path, const struct kineto_opts *opts, int64_t size,
		      struct kineto_push **out, struct err *e)
{
	*out = NULL;
	struct kineto_push *p = calloc(1, sizeof *p);
	if (!p)
		return err_set(e, ERR_NOMEM, path, -1, "out of memory");
	struct loader *l = &p->l;
	*l = (struct loader){.opts = opts,
			     .max_memory = opts && opts->max_memory ? opts->max_memory
								    : kineto_default_max_memory(),
			     .push = true};
	if (imp_init(&l->m, path, e)) {
		free(p);
		return err_set(e, ERR_NOMEM, path, -1, "out of memory");
	}
	l->m.t->file_bytes = size;
	l->cap = opts && opts->window ? opts->window : window_for(size);
	l->head = head_for(l->cap);
	if (!(l->buf = malloc(l->cap))) {
		struct trace *none;
		int rc = finish(l, nomem(l), &none);
		free(p);
		return rc;
	}
	l->m.j = (struct jscan){
	    .base = l->buf, .p = l->buf, .end = l->buf, .path = l->m.t->path, .e = e};
	*out = p;
	return 0;
}

char *kineto_push_room(struct kineto_push *p, size_t n)
{
	struct loader *l = &p->l;
	struct jscan *j = &l->m.j;
	if (p->rc || (p->rc = mem_check(l, j->p)))
		return NULL;
	/* the record parse() stopped in (j->p) now starts the window */
	size_t keep = (size_t)(j->p - l->buf), rest = l->len - keep;
	if (keep) /* else the record already starts it (it awaits more) */
		memmove(l->buf, l->buf + keep, rest);
	l->len = rest;
	j->base_off += (int64_t)keep;
	if (rest > LIM_EVENT_BYTES) {
		p->rc = err_set(l->m.e, ERR_LIMIT, l->m.t->path, j->base_off,
				"one trace record is larger than %u MiB", LIM_EVENT_BYTES >> 20);
		return NULL;
	}
	size_t cap = l->cap;
	while (cap - rest < n)
		cap = cap > SIZE_MAX / 2 ? SIZE_MAX : cap * 2;
	char *nb = cap == l->cap ? l->buf : realloc(l->buf, cap);
	if (!nb) {
		p->rc = nomem(l);
		return NULL;
	}
	l->buf = nb;
	l->cap = cap;
	j->base = j->p = l->buf;
	j->end = l->buf + l->len;
	return l->buf + l->len;
}

int kineto_push_data(struct kineto_push *p, size_t n)
{
	struct loader *l = &p->l;
	if (p->rc)
		return p->rc;
	l->len += n;
	l->pushed += (int64_t)n;
	l->m.j.end = l->buf + l->len;
	tr_build_plan(&l->m.b, l->pushed, l->m.t->file_bytes);
	/* the input's head is read whole, as in kineto_load's first window: a
	 * byte order mark or another format's signature is told by it */
	if (l->pushed < (int64_t)l->head)
		return 0;
	size_t have = (size_t)(l->m.j.end - l->m.j.p); /* from the unfinished record on */
	if (have < l->retry_at)
		return 0;
	int rc = parse(l); /* before the end: PARSE_WANT or an error */
	if (rc == PARSE_WANT) {
		size_t twice = 2 * (size_t)(l->m.j.end - l->m.j.p);
		l->retry_at = twice < LIM_EVENT_BYTES ? twice : LIM_EVENT_BYTES;
		return 0;
	}
	return p->rc = rc;
}

int kineto_push_end(struct kineto_push *p, struct trace **out)
{
	*out = NULL;
	struct loader *l = &p->l;
	int rc = p->rc;
	if (!rc) {
		l->eof = true;
		rc = parse(l);
	}
	rc = finish(l, rc, out);
	free(p);
	return rc;
}
