/* report: the public API of the output sinks (see report.h).
 *
 * Checks the order of calls, copies the open block's name, title and columns
 * (so callers may pass temporaries), and hands each call to the sink of the
 * chosen format: report_text.c, report_csv.c, report_json.c. Also holds what
 * those sinks share: the capped byte buffer and number formatting.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"

/* --- Buffers --- */

static int buf_reserve(struct rep_buf *b, size_t more)
{
	if (more >= REP_MAX_BUF - b->n)
		return -1;
	size_t need = b->n + more + 1; /* + the NUL */
	if (need <= b->cap)
		return 0;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < need)
		cap *= 2; /* need < REP_MAX_BUF + 1, so cap stays below 2^32 */
	char *p = realloc(b->p, cap);
	if (!p)
		return -1;
	b->p = p;
	b->cap = cap;
	return 0;
}

int rep_buf_add(struct rep_buf *b, const char *s, size_t n)
{
	if (buf_reserve(b, n))
		return -1;
	if (n)
		memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = 0;
	return 0;
}

int rep_buf_adds(struct rep_buf *b, const char *s)
{
	return rep_buf_add(b, s, strlen(s));
}

int rep_buf_addc(struct rep_buf *b, char c)
{
	return rep_buf_add(b, &c, 1);
}

int rep_buf_printf(struct rep_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || buf_reserve(b, (size_t)n))
		return -1;
	va_start(ap, fmt);
	vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)n;
	return 0;
}

/* The decimal digits of v, written backwards ending at end: returns where
 * they start. */
static char *digits_before(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

int rep_buf_i64(struct rep_buf *b, int64_t v)
{
	char tmp[24], *end = tmp + sizeof tmp;
	char *p = digits_before(end, v < 0 ? -(uint64_t)v : (uint64_t)v);
	if (v < 0)
		*--p = '-';
	return rep_buf_add(b, p, (size_t)(end - p));
}

void rep_buf_free(struct rep_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->n = b->cap = 0;
}

/* --- Numbers --- */

bool rep_fmt_double(char *buf, double d)
{
	if (!isfinite(d)) {
		buf[0] = 0;
		return false;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, 32, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	return true;
}

int rep_put_number(struct rep_buf *b, enum rep_type t, struct rep_val v, const char *nonfinite)
{
	char tmp[32];
	switch (t) {
	case REP_INT:
	case REP_DUR_NS:
	case REP_BYTES:
		return rep_buf_i64(b, v.i);
	case REP_FLOAT:
	case REP_PCT:
	case REP_FDUR_NS:
		return rep_buf_adds(b, rep_fmt_double(tmp, v.f) ? tmp : nonfinite);
	case REP_STR:
	case REP_NAME:
	case REP_BOOL:
		break;
	}
	return -1;
}

/* Magnitude of v as unsigned, so INT64_MIN needs no special case. */
static uint64_t magnitude(int64_t v)
{
	return v < 0 ? -(uint64_t)v : (uint64_t)v;
}

/* q = round(m / div), halves away from zero. */
static uint64_t div_round(uint64_t m, uint64_t div)
{
	uint64_t q = m / div, rem = m % div;
	return q + (rem >= div - rem);
}

/* Copies the n bytes at s into buf (cap bytes) as snprintf would: cut to
 * cap - 1 bytes, NUL-terminated (nothing when cap is 0). */
static void put_cut(char *buf, size_t cap, const char *s, size_t n)
{
	if (!cap)
		return;
	n = n < cap - 1 ? n : cap - 1;
	memcpy(buf, s, n);
	buf[n] = 0;
}

/* Text tables print a duration per cell (a path of 35,000 edges: 70,000),
 * so it is composed by hand rather than by snprintf: the same bytes. */
void rep_fmt_dur(char *buf, size_t n, int64_t ns)
{
	static const char *const units[] = {" us", " ms", " s"};
	uint64_t m = magnitude(ns);
	char tmp[48], *end = tmp + sizeof tmp, *p;
	if (m < 1000) {
		p = end - 3;
		memcpy(p, " ns", 3);
		p = digits_before(p, m);
	} else {
		/* milli: thousandths of units[u]; a value that rounds up to
		 * 1000.000 moves to the next unit ("999.9996 ms" prints as
		 * "1.000 s"). */
		uint64_t div = 1, milli = m;
		int u = 0;
		while (milli >= 1000000 && u < 2) {
			u++;
			div *= 1000;
			milli = div_round(m, div);
		}
		size_t ul = strlen(units[u]);
		p = end - ul;
		memcpy(p, units[u], ul);
		uint64_t frac = milli % 1000;
		*--p = (char)('0' + frac % 10);
		*--p = (char)('0' + frac / 10 % 10);
		*--p = (char)('0' + frac / 100);
		*--p = '.';
		p = digits_before(p, milli / 1000);
	}
	if (ns < 0)
		*--p = '-';
	put_cut(buf, n, p, (size_t)(end - p));
}

void rep_fmt_bytes(char *buf, size_t n, int64_t bytes)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	const char *sign = bytes < 0 ? "-" : "";
	uint64_t m = magnitude(bytes);
	if (m < 1024) {
		snprintf(buf, n, "%s%" PRIu64 " B", sign, m);
		return;
	}
	/* centi: hundredths of units[u], rounded; 1023.995 KiB becomes 1.00 MiB. */
	uint64_t centi = 0;
	int u = 0;
	do {
		u++;
		uint64_t div = (uint64_t)1 << (10 * u);
		centi = m / div * 100 + div_round(m % div * 100, div);
	} while (centi >= 102400 && u < 4);
	snprintf(buf, n, "%s%" PRIu64 ".%02" PRIu64 " %s", sign, centi / 100, centi % 100,
		 units[u]);
}

/* --- Blocks --- */

static int copy_str(char **dst, const char *s)
{
	*dst = NULL;
	if (!s)
		return 0;
	*dst = strdup(s);
	return *dst ? 0 : -1;
}

static void block_clear(struct report *r)
{
	free(r->name);
	free(r->title);
	for (int i = 0; i < r->ncols; i++) {
		free(r->cols[i].key);
		free(r->cols[i].title);
	}
	free(r->cols);
	r->name = r->title = NULL;
	r->cols = NULL;
	r->ncols = 0;
	r->nrows = 0;
	r->blk = REP_BLK_NONE;
}

/* Records a sink failure (the output is now incomplete) and passes rc on. */
static int note(struct report *r, int rc)
{
	if (rc)
		r->failed = true;
	return rc;
}

/* Starts a table (cols != NULL) or a section: copies what the sink keeps. */
static int block_begin(struct report *r, const char *name, const char *title,
		       const struct rep_col *cols, int ncols)
{
	if (copy_str(&r->name, name) || copy_str(&r->title, title))
		goto oom;
	if (cols) {
		r->cols = calloc((size_t)ncols, sizeof *r->cols);
		if (!r->cols)
			goto oom;
		for (int i = 0; i < ncols; i++) {
			struct rep_ocol *c = &r->cols[i];
			r->ncols = i + 1;
			c->type = cols[i].type;
			if (copy_str(&c->key, cols[i].key) ||
			    copy_str(&c->title, cols[i].title ? cols[i].title : cols[i].key))
				goto oom;
		}
	}
	r->blk = cols ? REP_BLK_TABLE : REP_BLK_KV;
	if (r->names_only) {
		char *n = strdup(name);
		if (!n || vec_push(r->names, n, REP_MAX_COLS)) {
			free(n);
			return note(r, -1);
		}
	}
	r->skip = r->only && strcmp(name, r->only);
	if (r->skip)
		return 0;
	r->nblocks++;
	return note(r, cols ? r->sink->table_begin(r) : r->sink->kv_begin(r));
oom:
	block_clear(r);
	return note(r, -1);
}

static bool type_ok(enum rep_type t)
{
	return rep_is_str(t) || t == REP_BOOL || rep_is_number(t);
}

/* --- The sink of rep_open_names --- */

static int none_block(struct report *r)
{
	(void)r;
	return 0;
}

static int none_row(struct report *r, const struct rep_val *vals)
{
	(void)r;
	(void)vals;
	return 0;
}

static int none_kv(struct report *r, const char *key, const char *title, enum rep_type type,
		   struct rep_val v)
{
	(void)r;
	(void)key;
	(void)title;
	(void)type;
	(void)v;
	return 0;
}

const struct rep_sink rep_sink_none = {
    .table_begin = none_block,
    .row = none_row,
    .table_end = none_block,
    .kv_begin = none_block,
    .kv = none_kv,
    .kv_end = none_block,
    .close = none_block,
};

/* --- API --- */

struct report *rep_open(FILE *out, enum rep_format fmt)
{
	const struct rep_sink *sink = fmt == REP_TABLE	    ? &rep_sink_text
				      : fmt == REP_CSV	    ? &rep_sink_csv
				      : fmt == REP_JSON	    ? &rep_sink_json
				      : fmt == REP_SCHEMA   ? &rep_sink_schema
				      : fmt == REP_MARKDOWN ? &rep_sink_md
							    : NULL;
	if (!out || !sink)
		return NULL;
	struct report *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->out = out;
	r->fmt = fmt;
	r->sink = sink;
	return r;
}

enum rep_format rep_format_of(const struct report *r)
{
	return r->fmt;
}

int rep_only(struct report *r, const char *name)
{
	if (!r || !name || r->nblocks || r->blk != REP_BLK_NONE || r->only)
		return -1;
	r->only = strdup(name);
	return r->only ? 0 : -1;
}

struct report *rep_open_names(void)
{
	struct report *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->sink = &rep_sink_none;
	r->names_only = true;
	return r;
}

const char *const *rep_names(const struct report *r, size_t *n)
{
	*n = r ? r->names.n : 0;
	return r ? (const char *const *)r->names.v : NULL;
}

int rep_table_begin(struct report *r, const char *name, const char *title,
		    const struct rep_col *cols, int ncols)
{
	if (!r || r->blk != REP_BLK_NONE || !name || !cols || ncols <= 0 || ncols > REP_MAX_COLS)
		return -1;
	for (int i = 0; i < ncols; i++)
		if (!cols[i].key || !type_ok(cols[i].type))
			return -1;
	return block_begin(r, name, title, cols, ncols);
}

int rep_row(struct report *r, const struct rep_val *vals)
{
	if (!r || r->blk != REP_BLK_TABLE || !vals)
		return -1;
	if (r->skip)
		return 0;
	if (note(r, r->sink->row(r, vals)))
		return -1;
	r->nrows++;
	return 0;
}

int rep_table_end(struct report *r)
{
	if (!r || r->blk != REP_BLK_TABLE)
		return -1;
	int rc = r->skip ? 0 : note(r, r->sink->table_end(r));
	block_clear(r);
	return rc;
}

int rep_kv_begin(struct report *r, const char *name, const char *title)
{
	if (!r || r->blk != REP_BLK_NONE || !name)
		return -1;
	return block_begin(r, name, title, NULL, 0);
}

int rep_kv(struct report *r, const char *key, const char *title, enum rep_type type,
	   struct rep_val v)
{
	if (!r || r->blk != REP_BLK_KV || !key || !type_ok(type))
		return -1;
	if (r->skip)
		return 0;
	if (note(r, r->sink->kv(r, key, title ? title : key, type, v)))
		return -1;
	r->nrows++;
	return 0;
}

int rep_kv_end(struct report *r)
{
	if (!r || r->blk != REP_BLK_KV)
		return -1;
	int rc = r->skip ? 0 : note(r, r->sink->kv_end(r));
	block_clear(r);
	return rc;
}

int rep_close(struct report *r)
{
	if (!r)
		return -1;
	if (r->blk == REP_BLK_TABLE)
		rep_table_end(r);
	else if (r->blk == REP_BLK_KV)
		rep_kv_end(r);
	note(r, r->sink->close(r));
	int rc = r->failed ? -1 : 0;
	if (r->out && (fflush(r->out) || ferror(r->out)))
		rc = -1;
	for (size_t i = 0; i < r->names.n; i++)
		free(r->names.v[i]);
	vec_free(r->names);
	free(r->only);
	rep_buf_free(&r->colmap);
	rep_buf_free(&r->tables);
	rep_buf_free(&r->line);
	rep_buf_free(&r->cells);
	vec_free(r->offs);
	rep_buf_free(&r->held);
	free(r->first_name);
	free(r);
	return rc;
}
