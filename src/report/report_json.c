/* report_json: the JSON sink (REP_JSON), RFC 8259, for scripts and agents.
 *
 * One top-level object, pretty-printed with two-space indentation, keys in
 * the order emitted: a table is "name": [ {row}, ... ], a section is
 * "name": { "key": value, ... }, then "columns": {"name": ["key", ...]} for
 * every table (so an empty table keeps its columns). With rep_only, the kept
 * block alone: a table's bare array of rows, a section's bare object.
 * Numbers are raw (doubles in their shortest
 * round-trip form; NaN and infinities are null). Strings are escaped, and
 * invalid UTF-8 becomes U+FFFD so the output is always valid JSON. Written as
 * it arrives: nothing is buffered beyond one row.
 */
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"

size_t rep_utf8_len(const unsigned char *s, size_t n, size_t *bad)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t len;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0; /* overlong */
		else if (c == 0xed)
			hi = 0x9f; /* surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90; /* overlong */
		else if (c == 0xf4)
			hi = 0x8f; /* above U+10FFFF */
	} else {
		*bad = 1;
		return 0;
	}
	for (size_t i = 1; i < len; i++) {
		if (i >= n || s[i] < lo || s[i] > hi) {
			*bad = i;
			return 0;
		}
		lo = 0x80;
		hi = 0xbf;
	}
	return len;
}

static int put_string(struct rep_buf *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), i = 0;
	if (rep_buf_addc(b, '"'))
		return -1;
	while (i < n) {
		size_t j = i;
		while (j < n && s[j] >= 0x20 && s[j] < 0x80 && s[j] != '"' && s[j] != '\\')
			j++;
		if (j > i) {
			if (rep_buf_add(b, str + i, j - i))
				return -1;
			i = j;
			continue;
		}
		int rc;
		unsigned char c = s[i];
		if (c >= 0x80) {
			size_t bad = 1, len = rep_utf8_len(s + i, n - i, &bad);
			rc = len ? rep_buf_add(b, str + i, len) : rep_buf_adds(b, "\\ufffd");
			i += len ? len : bad;
			if (rc)
				return -1;
			continue;
		}
		switch (c) {
		case '"':
			rc = rep_buf_adds(b, "\\\"");
			break;
		case '\\':
			rc = rep_buf_adds(b, "\\\\");
			break;
		case '\n':
			rc = rep_buf_adds(b, "\\n");
			break;
		case '\r':
			rc = rep_buf_adds(b, "\\r");
			break;
		case '\t':
			rc = rep_buf_adds(b, "\\t");
			break;
		case '\b':
			rc = rep_buf_adds(b, "\\b");
			break;
		case '\f':
			rc = rep_buf_adds(b, "\\f");
			break;
		default:
			rc = rep_buf_printf(b, "\\u%04x", c);
			break;
		}
		if (rc)
			return -1;
		i++;
	}
	return rep_buf_addc(b, '"');
}

static int put_value(struct rep_buf *b, enum rep_type t, struct rep_val v)
{
	if (rep_is_null(t, v))
		return rep_buf_adds(b, "null");
	if (rep_is_str(t))
		return put_string(b, v.s);
	if (t == REP_BOOL)
		return rep_buf_adds(b, v.b ? "true" : "false");
	return rep_put_number(b, t, v, "null");
}

/* Appends indent + "key": value. */
static int put_member(struct rep_buf *b, const char *indent, const char *key, enum rep_type t,
		      struct rep_val v)
{
	return rep_buf_adds(b, indent) || put_string(b, key) || rep_buf_adds(b, ": ") ||
	       put_value(b, t, v);
}

/* Writes r->line and empties it. */
static int flush_line(struct report *r)
{
	if (r->line.n)
		fwrite(r->line.p, 1, r->line.n, r->out);
	r->line.n = 0;
	return 0;
}

/* The indentation of a block's members: rep_only's bare block is the
 * document, a block of the object is one level in. */
static const char *ind(const struct report *r)
{
	return r->only ? "" : "  ";
}

/* Opens the document or separates from the previous block, then "name": open. */
static int block_start(struct report *r, const char *open)
{
	struct rep_buf *b = &r->line;
	b->n = 0;
	if (r->only)
		return rep_buf_adds(b, open + 2) || flush_line(r);
	if (rep_buf_adds(b, r->nblocks == 1 ? "{\n  " : ",\n  ") || put_string(b, r->name) ||
	    rep_buf_adds(b, open))
		return -1;
	return flush_line(r);
}

/* Adds "name": ["key", ...] of the open table to the "columns" member. */
static int note_columns(struct report *r)
{
	struct rep_buf *b = &r->colmap;
	if (rep_buf_adds(b, b->n ? ",\n    " : "\n    ") || put_string(b, r->name) ||
	    rep_buf_adds(b, ": ["))
		return -1;
	for (int c = 0; c < r->ncols; c++)
		if ((c && rep_buf_adds(b, ", ")) || put_string(b, r->cols[c].key))
			return -1;
	return rep_buf_addc(b, ']');
}

static int json_table_begin(struct report *r)
{
	if (!r->only && note_columns(r))
		return -1;
	return block_start(r, ": [");
}

static int json_row(struct report *r, const struct rep_val *vals)
{
	struct rep_buf *b = &r->line;
	b->n = 0;
	const char *in = ind(r);
	if (rep_buf_printf(b, "%s\n%s  {\n", r->nrows ? "," : "", in))
		return -1;
	char member[16];
	snprintf(member, sizeof member, "%s    ", in);
	for (int c = 0; c < r->ncols; c++)
		if ((c && rep_buf_adds(b, ",\n")) ||
		    put_member(b, member, r->cols[c].key, r->cols[c].type, vals[c]))
			return -1;
	if (rep_buf_printf(b, "\n%s  }", in))
		return -1;
	return flush_line(r);
}

static int json_table_end(struct report *r)
{
	if (r->nrows)
		fprintf(r->out, "\n%s]", ind(r));
	else
		fputc(']', r->out);
	return 0;
}

static int json_kv_begin(struct report *r)
{
	return block_start(r, ": {");
}

static int json_kv(struct report *r, const char *key, const char *title, enum rep_type type,
		   struct rep_val v)
{
	struct rep_buf *b = &r->line;
	b->n = 0;
	if (rep_buf_adds(b, r->nrows ? ",\n" : "\n") ||
	    put_member(b, r->only ? "  " : "    ", key, type, v))
		return -1;
	return flush_line(r);
}

static int json_kv_end(struct report *r)
{
	if (r->nrows)
		fprintf(r->out, "\n%s}", ind(r));
	else
		fputc('}', r->out);
	return 0;
}

static int json_close(struct report *r)
{
	if (r->only) {
		if (r->nblocks)
			fputc('\n', r->out);
		return 0;
	}
	if (r->colmap.n)
		fprintf(r->out, ",\n  \"columns\": {%s\n  }", r->colmap.p);
	fputs(r->nblocks ? "\n}\n" : "{}\n", r->out);
	return 0;
}

int rep_json_quote(struct rep_buf *b, const char *s)
{
	return put_string(b, s);
}

const struct rep_sink rep_sink_json = {
    .table_begin = json_table_begin,
    .row = json_row,
    .table_end = json_table_end,
    .kv_begin = json_kv_begin,
    .kv = json_kv,
    .kv_end = json_kv_end,
    .close = json_close,
};

void rep_json_str(FILE *f, const char *s)
{
	/* most names need no escaping: written as they are, without a buffer */
	const unsigned char *p = (const unsigned char *)s;
	while (*p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
		p++;
	if (!*p) {
		fputc('"', f);
		fwrite(s, 1, (size_t)(p - (const unsigned char *)s), f);
		fputc('"', f);
		return;
	}
	struct rep_buf b = {0};
	if (!put_string(&b, s))
		fwrite(b.p, 1, b.n, f);
	else
		fputs("\"\"", f); /* out of memory: still valid JSON */
	rep_buf_free(&b);
}

void rep_json_num(FILE *f, double v)
{
	char buf[32];
	fputs(rep_fmt_double(buf, v) ? buf : "null", f);
}
