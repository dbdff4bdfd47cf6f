/* report_csv: the CSV sink (REP_CSV), RFC 4180, for spreadsheets and pandas.
 *
 * A table is a header line of column keys plus one line per row; a section
 * is a table "key,value". Numbers are raw (the unit is in the key), doubles in
 * their shortest round-trip form, null and non-finite values empty. When a
 * report holds more than one block, each is preceded by "# <name>" and blocks
 * are separated by a blank line; since that is only known when a second
 * block begins, the first block's lines are held in r->held until then.
 * Lines end with "\n".
 */
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"

/* Appends s as one field, quoted when it holds a comma, quote, CR or LF. */
static int put_field(struct rep_buf *b, const char *s)
{
	if (!strpbrk(s, ",\"\r\n"))
		return rep_buf_adds(b, s);
	if (rep_buf_addc(b, '"'))
		return -1;
	for (const char *q; (q = strchr(s, '"')); s = q + 1)
		if (rep_buf_add(b, s, (size_t)(q - s) + 1) || rep_buf_addc(b, '"'))
			return -1;
	return rep_buf_adds(b, s) || rep_buf_addc(b, '"');
}

static int put_value(struct rep_buf *b, enum rep_type t, struct rep_val v)
{
	if (rep_is_null(t, v))
		return 0;
	if (rep_is_str(t))
		return put_field(b, v.s);
	if (t == REP_BOOL)
		return rep_buf_adds(b, v.b ? "true" : "false");
	return rep_put_number(b, t, v, "");
}

/* Writes (or holds) the finished line in r->line. */
static int emit_line(struct report *r)
{
	struct rep_buf *b = &r->line;
	int rc = rep_buf_addc(b, '\n');
	if (!rc && r->holding)
		rc = rep_buf_add(&r->held, b->p, b->n);
	else if (!rc)
		fwrite(b->p, 1, b->n, r->out);
	b->n = 0;
	return rc;
}

/* "# name" with CR/LF flattened so the marker stays one line. */
static void put_marker(FILE *out, const char *name)
{
	fputs("# ", out);
	for (; *name; name++)
		fputc(*name == '\r' || *name == '\n' ? ' ' : *name, out);
	fputc('\n', out);
}

/* Block start: hold the first block; on the second, release the first one
 * under its marker, then write this one's marker. */
static int block_start(struct report *r)
{
	r->line.n = 0;
	if (r->nblocks == 1) {
		r->first_name = strdup(r->name);
		r->holding = r->first_name != NULL;
		return r->holding ? 0 : -1;
	}
	if (r->holding) {
		r->holding = false;
		put_marker(r->out, r->first_name);
		if (r->held.n)
			fwrite(r->held.p, 1, r->held.n, r->out);
		rep_buf_free(&r->held);
	}
	fputc('\n', r->out);
	put_marker(r->out, r->name);
	return 0;
}

static int csv_table_begin(struct report *r)
{
	if (block_start(r))
		return -1;
	for (int c = 0; c < r->ncols; c++)
		if ((c && rep_buf_addc(&r->line, ',')) || put_field(&r->line, r->cols[c].key))
			return -1;
	return emit_line(r);
}

static int csv_row(struct report *r, const struct rep_val *vals)
{
	r->line.n = 0;
	for (int c = 0; c < r->ncols; c++)
		if ((c && rep_buf_addc(&r->line, ',')) ||
		    put_value(&r->line, r->cols[c].type, vals[c]))
			return -1;
	return emit_line(r);
}

static int csv_end(struct report *r)
{
	return 0;
}

static int csv_kv_begin(struct report *r)
{
	if (block_start(r) || rep_buf_adds(&r->line, "key,value"))
		return -1;
	return emit_line(r);
}

static int csv_kv(struct report *r, const char *key, const char *title, enum rep_type type,
		  struct rep_val v)
{
	r->line.n = 0;
	if (put_field(&r->line, key) || rep_buf_addc(&r->line, ',') || put_value(&r->line, type, v))
		return -1;
	return emit_line(r);
}

/* A report of one block: its lines, without a marker. */
static int csv_close(struct report *r)
{
	if (r->holding && r->held.n)
		fwrite(r->held.p, 1, r->held.n, r->out);
	r->holding = false;
	return 0;
}

const struct rep_sink rep_sink_csv = {
    .table_begin = csv_table_begin,
    .row = csv_row,
    .table_end = csv_end,
    .kv_begin = csv_kv_begin,
    .kv = csv_kv,
    .kv_end = csv_end,
    .close = csv_close,
};
