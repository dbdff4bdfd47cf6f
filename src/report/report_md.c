/* report_md: the Markdown sink (REP_MARKDOWN), for reports a CI job posts
 * as a pull-request comment or a step summary.
 *
 * A table is a "### Title" line (when it has a title), a blank line and a
 * GitHub-flavoured pipe table: the column titles, a rule with numbers
 * right-aligned ("---:"), one line per row with values in their human form
 * (as the text sink writes them). '|' and '\' in a cell are escaped, line
 * breaks and other control characters become spaces. A section is its
 * title line and a list "- **Key:** value". Blocks are separated by a
 * blank line. Rows are written as they come: nothing is buffered.
 */
#include <string.h>

#include "report/internal.h"

/* Appends v's human form, escaped for a table cell, to r->line. */
static int put_cell(struct report *r, enum rep_type t, struct rep_val v)
{
	struct rep_buf tmp = {0};
	int rc = rep_put_human(&tmp, t, v);
	for (size_t i = 0; !rc && i < tmp.n; i++) {
		char c = tmp.p[i];
		if (c == '|' || c == '\\')
			rc = rep_buf_addc(&r->line, '\\');
		if (!rc)
			rc = rep_buf_addc(&r->line, (unsigned char)c < 0x20 ? ' ' : c);
	}
	rep_buf_free(&tmp);
	return rc;
}

static void flush(struct report *r)
{
	fwrite(r->line.p, 1, r->line.n, r->out);
	r->line.n = 0;
}

static int head(struct report *r)
{
	r->line.n = 0;
	if (r->nblocks > 1 && rep_buf_addc(&r->line, '\n'))
		return -1;
	if (r->title && (rep_buf_adds(&r->line, "### ") || rep_buf_adds(&r->line, r->title) ||
			 rep_buf_adds(&r->line, "\n\n")))
		return -1;
	return 0;
}

static int md_table_begin(struct report *r)
{
	if (head(r) || rep_buf_addc(&r->line, '|'))
		return -1;
	for (int c = 0; c < r->ncols; c++)
		if (rep_buf_addc(&r->line, ' ') || put_cell(r, REP_STR, rep_s(r->cols[c].title)) ||
		    rep_buf_adds(&r->line, " |"))
			return -1;
	if (rep_buf_adds(&r->line, "\n|"))
		return -1;
	for (int c = 0; c < r->ncols; c++)
		if (rep_buf_adds(&r->line, rep_is_number(r->cols[c].type) ? "---:|" : "---|"))
			return -1;
	if (rep_buf_addc(&r->line, '\n'))
		return -1;
	flush(r);
	return 0;
}

static int md_row(struct report *r, const struct rep_val *vals)
{
	r->line.n = 0;
	if (rep_buf_addc(&r->line, '|'))
		return -1;
	for (int c = 0; c < r->ncols; c++)
		if (rep_buf_addc(&r->line, ' ') || put_cell(r, r->cols[c].type, vals[c]) ||
		    rep_buf_adds(&r->line, " |"))
			return -1;
	if (rep_buf_addc(&r->line, '\n'))
		return -1;
	flush(r);
	return 0;
}

static int md_table_end(struct report *r)
{
	return 0;
}

static int md_kv_begin(struct report *r)
{
	if (head(r))
		return -1;
	flush(r);
	return 0;
}

static int md_kv(struct report *r, const char *key, const char *title, enum rep_type type,
		 struct rep_val v)
{
	r->line.n = 0;
	if (rep_buf_adds(&r->line, "- **") || put_cell(r, REP_STR, rep_s(title)) ||
	    rep_buf_adds(&r->line, ":** ") || put_cell(r, type, v) || rep_buf_addc(&r->line, '\n'))
		return -1;
	flush(r);
	return 0;
}

static int md_kv_end(struct report *r)
{
	return 0;
}

static int md_close(struct report *r)
{
	return 0;
}

const struct rep_sink rep_sink_md = {
    .table_begin = md_table_begin,
    .row = md_row,
    .table_end = md_table_end,
    .kv_begin = md_kv_begin,
    .kv = md_kv,
    .kv_end = md_kv_end,
    .close = md_close,
};
