/* report_schema: the schema sink (REP_SCHEMA), the JSON Schema (draft
 * 2020-12) of the document the JSON sink writes for the same calls, from
 * the column declarations rather than the values: a table is an array of
 * objects with exactly its columns, a section an object with exactly its
 * keys, then the "columns" member with each table's keys as a constant.
 * Each value's type comes from its declared type (text: string; INT,
 * DUR_NS, BYTES: integer; FLOAT, PCT, FDUR_NS: number; BOOL: boolean),
 * and may be null; its "title" is the column's text-table title (the
 * viewer's column titles are generated from these: tools/gen-titles.py).
 * Rows are not looked at. tools/gen-schemas.py merges the
 * schemas of a command's variants into docs/schemas/.
 */
#include <string.h>

#include "report/internal.h"

/* The JSON type of one declared type. */
static const char *type_name(enum rep_type t)
{
	switch (t) {
	case REP_STR:
	case REP_NAME:
		return "string";
	case REP_INT:
	case REP_DUR_NS:
	case REP_BYTES:
		return "integer";
	case REP_FLOAT:
	case REP_PCT:
	case REP_FDUR_NS:
		return "number";
	case REP_BOOL:
		return "boolean";
	}
	return "null";
}

/* One value's schema: {"title": T, "type": [TYPE, "null"]}. */
static int prop_schema(struct rep_buf *b, const char *title, enum rep_type t)
{
	struct rep_buf q = {0};
	int rc = rep_buf_adds(b, "{\"title\": ") || rep_json_quote(&q, title ? title : "") ||
		 rep_buf_add(b, q.p, q.n) ||
		 rep_buf_printf(b, ", \"type\": [\"%s\", \"null\"]}", type_name(t));
	rep_buf_free(&q);
	return rc;
}

/* r->held: the document's properties; r->colmap: its "columns" members;
 * r->cells: the names of the blocks (the required list); r->tables: the
 * tables' (that of "columns"); r->line: the open section's keys. Each
 * list is of quoted names separated by ", ". */
static int add_name(struct rep_buf *b, const char *name)
{
	struct rep_buf q = {0};
	int rc = rep_buf_adds(b, b->n ? ", " : "") || rep_json_quote(&q, name) ||
		 rep_buf_add(b, q.p, q.n);
	rep_buf_free(&q);
	return rc;
}

static int member_start(struct report *r)
{
	struct rep_buf *b = &r->held;
	struct rep_buf q = {0};
	int rc = rep_buf_adds(b, b->n ? ",\n" : "") || rep_json_quote(&q, r->name) ||
		 rep_buf_add(b, q.p, q.n) || rep_buf_adds(b, ": ") || add_name(&r->cells, r->name);
	rep_buf_free(&q);
	return rc;
}

static int schema_table_begin(struct report *r)
{
	struct rep_buf *b = &r->held;
	if (member_start(r) || rep_buf_adds(b, "{\"type\": \"array\", \"items\": {\"type\": "
					       "\"object\", \"additionalProperties\": false, "
					       "\"properties\": {"))
		return -1;
	struct rep_buf req = {0}, q = {0};
	int rc = 0;
	for (int c = 0; c < r->ncols && !rc; c++) {
		q.n = 0;
		rc = rep_json_quote(&q, r->cols[c].key) || rep_buf_adds(b, c ? ", " : "") ||
		     rep_buf_add(b, q.p, q.n) || rep_buf_adds(b, ": ") ||
		     prop_schema(b, r->cols[c].title, r->cols[c].type) ||
		     add_name(&req, r->cols[c].key);
	}
	rc = rc || rep_buf_printf(b, "}, \"required\": [%s]}}", req.p ? req.p : "");
	/* "columns": {"name": {"const": [keys]}} */
	struct rep_buf *cm = &r->colmap;
	q.n = 0;
	rc = rc || add_name(&r->tables, r->name) || rep_buf_adds(cm, cm->n ? ", " : "") ||
	     rep_json_quote(&q, r->name) || rep_buf_add(cm, q.p, q.n) ||
	     rep_buf_printf(cm, ": {\"const\": [%s]}", req.p ? req.p : "");
	rep_buf_free(&req);
	rep_buf_free(&q);
	return rc;
}

static int schema_row(struct report *r, const struct rep_val *vals)
{
	(void)r;
	(void)vals;
	return 0;
}

static int schema_end(struct report *r)
{
	(void)r;
	return 0;
}

static int schema_kv_begin(struct report *r)
{
	r->line.n = 0;
	return member_start(r) || rep_buf_adds(&r->held, "{\"type\": \"object\", "
							 "\"additionalProperties\": false, "
							 "\"properties\": {");
}

static int schema_kv(struct report *r, const char *key, const char *title, enum rep_type type,
		     struct rep_val v)
{
	(void)v;
	struct rep_buf q = {0};
	int rc = rep_json_quote(&q, key) || rep_buf_adds(&r->held, r->nrows ? ", " : "") ||
		 rep_buf_add(&r->held, q.p, q.n) || rep_buf_adds(&r->held, ": ") ||
		 prop_schema(&r->held, title, type) || add_name(&r->line, key);
	rep_buf_free(&q);
	return rc;
}

static int schema_kv_end(struct report *r)
{
	int rc = rep_buf_printf(&r->held, "}, \"required\": [%s]}", r->line.p ? r->line.p : "");
	r->line.n = 0;
	return rc;
}

static int schema_close(struct report *r)
{
	FILE *f = r->out;
	fputs("{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", \"type\": "
	      "\"object\", \"additionalProperties\": false,\n\"properties\": {\n",
	      f);
	if (r->held.n)
		fprintf(f, "%s", r->held.p);
	if (r->colmap.n)
		fprintf(f,
			",\n\"columns\": {\"type\": \"object\", \"additionalProperties\": false, "
			"\"properties\": {%s}, \"required\": [",
			r->colmap.p);
	if (r->colmap.n)
		fputs(r->tables.p, f);
	if (r->colmap.n)
		fputs("]}", f);
	fprintf(f, "\n},\n\"required\": [%s%s]}\n", r->cells.p ? r->cells.p : "",
		r->colmap.n ? (r->cells.n ? ", \"columns\"" : "\"columns\"") : "");
	return 0;
}

const struct rep_sink rep_sink_schema = {
    .table_begin = schema_table_begin,
    .row = schema_row,
    .table_end = schema_end,
    .kv_begin = schema_kv_begin,
    .kv = schema_kv,
    .kv_end = schema_kv_end,
    .close = schema_close,
};
