/* report_text: the aligned text sink (REP_TABLE), the format for people.
 *
 * Cells are formatted as they arrive (durations and byte counts scaled by
 * rep_fmt_dur/rep_fmt_bytes) and kept in r->cells until the block ends, when
 * the column widths are known and the block is printed: numbers right-aligned,
 * text left-aligned, two spaces between columns, no trailing spaces. Control
 * characters in strings print as spaces so they cannot break the layout;
 * widths count UTF-8 code points.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"

/* Replaces control characters in s[0..n) by spaces. */
static void clean(char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			s[i] = ' ';
}

static void clean_str(char *s)
{
	if (s)
		clean(s, strlen(s));
}

/* Display width: UTF-8 code points (continuation bytes do not count). */
static size_t width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static int put_spaces(struct rep_buf *b, size_t n)
{
	static const char sp[] = "                                ";
	while (n) {
		size_t k = n < sizeof sp - 1 ? n : sizeof sp - 1;
		if (rep_buf_add(b, sp, k))
			return -1;
		n -= k;
	}
	return 0;
}

int rep_put_human(struct rep_buf *b, enum rep_type t, struct rep_val v)
{
	char tmp[64];
	if (rep_is_null(t, v))
		return rep_buf_addc(b, '-');
	switch (t) {
	case REP_STR:
	case REP_NAME: {
		size_t start = b->n;
		if (rep_buf_adds(b, v.s))
			return -1;
		clean(b->p + start, b->n - start);
		return 0;
	}
	case REP_INT:
		return rep_buf_i64(b, v.i);
	case REP_FLOAT:
		return rep_buf_printf(b, "%.6g", v.f);
	case REP_DUR_NS:
		rep_fmt_dur(tmp, sizeof tmp, v.i);
		return rep_buf_adds(b, tmp);
	case REP_BYTES:
		rep_fmt_bytes(tmp, sizeof tmp, v.i);
		return rep_buf_adds(b, tmp);
	case REP_BOOL:
		return rep_buf_adds(b, v.b ? "yes" : "no");
	case REP_PCT:
		return rep_buf_printf(b, "%.2f %%", v.f);
	case REP_FDUR_NS:
		/* beside the integer durations of the same table, in their style */
		if (!isfinite(v.f) || fabs(v.f) >= 9.2e18)
			return rep_buf_addc(b, '-');
		rep_fmt_dur(tmp, sizeof tmp, llround(v.f));
		return rep_buf_adds(b, tmp);
	}
	return -1;
}

/* Appends one formatted, NUL-terminated cell to r->cells with its offset. */
static int add_cell(struct report *r, enum rep_type t, struct rep_val v)
{
	size_t off = r->cells.n;
	if (vec_push(r->offs, off, REP_MAX_CELLS))
		return -1;
	if (rep_put_human(&r->cells, t, v) || rep_buf_add(&r->cells, "", 1)) {
		r->offs.n--;
		r->cells.n = off;
		return -1;
	}
	return 0;
}

/* The byte offset of code point k of the NUL-terminated s (its end when
 * s has fewer). */
static size_t cp_offset(const char *s, size_t k)
{
	size_t i = 0;
	for (; s[i]; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && !k--)
			break;
	return i;
}

/* Shortens the last cell of r->cells (NUL-terminated, starting at off) to
 * its first and last code points around "…", max code points in all,
 * when that leaves out three or more (so "…", 3 bytes, fits where they
 * were: a cell of max + 1 code points stays whole). */
static void elide_cell(struct report *r, size_t off, unsigned max)
{
	char *s = r->cells.p + off;
	size_t w = width(s);
	if (max < 3 || w < (size_t)max + 2)
		return;
	size_t tail = (max - 1) / 2, head = max - 1 - tail;
	size_t h = cp_offset(s, head), t = cp_offset(s, w - tail), n = strlen(s);
	static const char dots[] = "\xe2\x80\xa6"; /* U+2026, one code point */
	memcpy(s + h, dots, 3);			   /* h + 3 <= t: three code points or more go */
	memmove(s + h + 3, s + t, n - t + 1);
	r->cells.n = off + h + 3 + (n - t) + 1;
}

static const char *cell_at(const struct report *r, size_t i)
{
	return r->cells.p + r->offs.v[i];
}

/* Writes r->line without its trailing spaces, plus a newline. */
static int emit_line(struct report *r)
{
	struct rep_buf *b = &r->line;
	while (b->n && b->p[b->n - 1] == ' ')
		b->n--;
	if (rep_buf_addc(b, '\n'))
		return -1;
	fwrite(b->p, 1, b->n, r->out);
	b->n = 0;
	return 0;
}

/* The blank line between blocks and the block's title line, if any. */
static int emit_head(struct report *r)
{
	if (r->nblocks > 1)
		fputc('\n', r->out);
	if (!r->title)
		return 0;
	r->line.n = 0;
	return rep_buf_adds(&r->line, r->title) || emit_line(r);
}

static int emit_row(struct report *r, const char **cell, const size_t *w)
{
	struct rep_buf *b = &r->line;
	b->n = 0;
	for (int c = 0; c < r->ncols; c++) {
		size_t pad = w[c] - width(cell[c]);
		bool right = rep_is_number(r->cols[c].type);
		if ((c && rep_buf_adds(b, "  ")) || (right && put_spaces(b, pad)) ||
		    rep_buf_adds(b, cell[c]) || (!right && put_spaces(b, pad)))
			return -1;
	}
	return emit_line(r);
}

static void reset_cells(struct report *r)
{
	r->cells.n = 0;
	r->offs.n = 0;
}

static int text_table_begin(struct report *r)
{
	reset_cells(r);
	clean_str(r->title);
	for (int c = 0; c < r->ncols; c++)
		clean_str(r->cols[c].title);
	return 0;
}

static int text_row(struct report *r, const struct rep_val *vals)
{
	size_t noffs = r->offs.n, ncells = r->cells.n;
	for (int c = 0; c < r->ncols; c++) {
		if (add_cell(r, r->cols[c].type, vals[c])) {
			r->offs.n = noffs; /* drop the partial row */
			r->cells.n = ncells;
			return -1;
		}
		if (r->cols[c].type == REP_NAME)
			elide_cell(r, r->offs.v[r->offs.n - 1], REP_NAME_TEXT_MAX);
	}
	return 0;
}

static int text_table_end(struct report *r)
{
	size_t nc = (size_t)r->ncols;
	size_t *w = calloc(nc, sizeof *w);
	const char **cell = calloc(nc, sizeof *cell);
	int rc = -1;
	if (!w || !cell)
		goto out;
	for (size_t c = 0; c < nc; c++) {
		cell[c] = r->cols[c].title;
		w[c] = width(cell[c]);
	}
	for (size_t i = 0; i < r->offs.n; i++) {
		size_t x = width(cell_at(r, i));
		if (x > w[i % nc])
			w[i % nc] = x;
	}
	if (emit_head(r) || emit_row(r, cell, w))
		goto out;
	for (size_t i = 0; i + nc <= r->offs.n; i += nc) {
		for (size_t c = 0; c < nc; c++)
			cell[c] = cell_at(r, i + c);
		if (emit_row(r, cell, w))
			goto out;
	}
	rc = 0;
out:
	free(w);
	free(cell);
	reset_cells(r);
	return rc;
}

static int text_kv_begin(struct report *r)
{
	reset_cells(r);
	clean_str(r->title);
	return 0;
}

/* A section is buffered as pairs of cells: key title, value. */
static int text_kv(struct report *r, const char *key, const char *title, enum rep_type type,
		   struct rep_val v)
{
	if (add_cell(r, REP_STR, rep_s(title)))
		return -1;
	if (add_cell(r, type, v)) {
		r->cells.n = r->offs.v[--r->offs.n];
		return -1;
	}
	return 0;
}

static int text_kv_end(struct report *r)
{
	size_t w = 0;
	int rc = -1;
	for (size_t i = 0; i + 1 < r->offs.n; i += 2) {
		size_t x = width(cell_at(r, i));
		if (x > w)
			w = x;
	}
	if (emit_head(r))
		goto out;
	for (size_t i = 0; i + 1 < r->offs.n; i += 2) {
		const char *k = cell_at(r, i);
		struct rep_buf *b = &r->line;
		b->n = 0;
		if (rep_buf_adds(b, "  ") || rep_buf_adds(b, k) || rep_buf_addc(b, ':') ||
		    put_spaces(b, w - width(k) + 1) || rep_buf_adds(b, cell_at(r, i + 1)) ||
		    emit_line(r))
			goto out;
	}
	rc = 0;
out:
	reset_cells(r);
	return rc;
}

static int text_close(struct report *r)
{
	return 0;
}

const struct rep_sink rep_sink_text = {
    .table_begin = text_table_begin,
    .row = text_row,
    .table_end = text_table_end,
    .kv_begin = text_kv_begin,
    .kv = text_kv,
    .kv_end = text_kv_end,
    .close = text_close,
};
