/* overlay: the builder of what analyses add to a trace written back; see
 * overlay.h. */
#include "trace/overlay.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/limits.h"
#include "core/sort.h"

void tr_ov_init(struct tr_overlay *o)
{
	memset(o, 0, sizeof *o);
}

void tr_ov_free(struct tr_overlay *o)
{
	free(o->items);
	free(o->text);
	tr_ov_init(o);
}

/* Room for n more bytes of text; false (and o failed) when there is none. */
static bool room(struct tr_overlay *o, size_t n)
{
	if (o->failed)
		return false;
	if (o->tlen + n + 1 <= o->tcap)
		return true;
	size_t cap = o->tcap ? o->tcap : 4096;
	while (cap < o->tlen + n + 1)
		cap *= 2;
	char *t = cap <= LIM_OVERLAY_BYTES ? realloc(o->text, cap) : NULL;
	if (!t) {
		o->failed = true;
		return false;
	}
	o->text = t;
	o->tcap = cap;
	return true;
}

static void begin(struct tr_overlay *o, int64_t off)
{
	if (o->failed)
		return;
	if (o->n == o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 256;
		struct tr_ov_item *v = realloc(o->items, cap * sizeof *v);
		if (!v) {
			o->failed = true;
			return;
		}
		o->items = v;
		o->cap = cap;
	}
	o->items[o->n++] = (struct tr_ov_item){off, o->tlen, 0};
}

void tr_ov_arg(struct tr_overlay *o, const struct trace *t, uint32_t row)
{
	if (row < t->ev.n)
		begin(o, t->ev.offset[row]);
	else
		o->failed = true; /* no such event: a caller's bug, reported as a failure */
}

void tr_ov_event(struct tr_overlay *o)
{
	begin(o, -1);
}

/* The text just written belongs to the item begun last. */
static void grew(struct tr_overlay *o, size_t n)
{
	o->tlen += n;
	if (o->n)
		o->items[o->n - 1].len += n;
}

void tr_ov_put(struct tr_overlay *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !o->n) {
		o->failed = true;
		return;
	}
	if (!room(o, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(o->text + o->tlen, (size_t)n + 1, fmt, ap);
	va_end(ap);
	grew(o, (size_t)n);
}

void tr_ov_str(struct tr_overlay *o, const char *s)
{
	size_t n = strlen(s);
	if (!o->n) {
		o->failed = true;
		return;
	}
	if (!room(o, 6 * n + 2)) /* the most an escaped byte takes: \u00XX */
		return;
	char *w = o->text + o->tlen, *w0 = w;
	*w++ = '"';
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\') {
			*w++ = '\\';
			*w++ = (char)*p;
		} else if (*p < 0x20) {
			w += snprintf(w, 7, "\\u%04x", *p);
		} else {
			*w++ = (char)*p;
		}
	}
	*w++ = '"';
	grew(o, (size_t)(w - w0));
}

const char *tr_fmt_us(int64_t ns, char *buf)
{
	uint64_t a = ns < 0 ? 0 - (uint64_t)ns : (uint64_t)ns;
	int n = snprintf(buf, 32, "%s%llu", ns < 0 ? "-" : "", (unsigned long long)(a / 1000));
	unsigned frac = (unsigned)(a % 1000);
	if (frac) {
		snprintf(buf + n, (size_t)(32 - n), ".%03u", frac);
		for (size_t l = strlen(buf); buf[l - 1] == '0'; l--)
			buf[l - 1] = 0;
	}
	return buf;
}

void tr_ov_us(struct tr_overlay *o, int64_t ns)
{
	char buf[32];
	tr_ov_put(o, "%s", tr_fmt_us(ns, buf));
}

static int cmp_item(const void *a, const void *b)
{
	const struct tr_ov_item *x = a, *y = b;
	/* whole events (off < 0) after every argument item */
	uint64_t kx = (uint64_t)x->off, ky = (uint64_t)y->off;
	if (kx != ky)
		return kx < ky ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at; /* the order given */
}

bool tr_ov_sort(struct tr_overlay *o)
{
	if (!o->failed && o->n)
		gp_qsort(o->items, o->n, sizeof *o->items, cmp_item);
	return !o->failed;
}
