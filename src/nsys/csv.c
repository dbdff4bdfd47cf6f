/* csv: `nsys stats` CSV files, read by header name, and the two NVTX trace
 * reports turned into struct nsys_range lists.
 *
 * Columns are looked up by name, never position: Nsight adds and reorders
 * columns across releases (nsys.md 3.4). Fields follow RFC 4180 (quoted
 * fields may hold commas, newlines and doubled quotes) because kernel and
 * range names often contain commas. A UTF-8 byte-order mark is skipped.
 * Messages match the reference analyzer's (nsys.md 2.3).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/limits.h"
#include "core/vec.h"
#include "nsys/nsys.h"

#define NSYS_CSV_MAX_BYTES LIM_SIZE_CAP(1ull << 32)
#define NSYS_CSV_MAX_FIELDS (1u << 28)

int nsys_csv_read(struct arena *a, const char *path, struct nsys_csv *out, struct err *e)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return err_set(e, ERR_IO, path, -1, "cannot open: %s", strerror(errno));
	VEC(char) buf = {0};
	char chunk[65536];
	size_t got;
	int rc = 0;
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (vec_reserve(buf, buf.n + got + 1, NSYS_CSV_MAX_BYTES)) {
			rc = err_set(e, ERR_LIMIT, path, -1, "file too large or out of memory");
			break;
		}
		memcpy(buf.v + buf.n, chunk, got);
		buf.n += got;
	}
	if (!rc && ferror(f))
		rc = err_set(e, ERR_IO, path, -1, "read failed");
	fclose(f);
	if (!rc)
		rc = nsys_csv_parse(a, path, buf.v ? buf.v : "", buf.n, out, e);
	vec_free(buf);
	return rc;
}

/* Splits text into records of fields; every field is copied into the arena. */
int nsys_csv_parse(struct arena *a, const char *path, const char *text, size_t len,
		   struct nsys_csv *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	out->path = path;
	out->empty = len == 0;
	size_t i = 0;
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
		i = 3;
	VEC(const char *) fields = {0}; /* current record */
	VEC(const char **) rows = {0};
	VEC(char) field = {0};
	VEC(size_t) widths = {0};
	VEC(int64_t) lines = {0};
	int64_t line = 1, rec_line = 1;
	int rc = 0;
	while (i < len && !rc) {
		/* one record */
		fields.n = 0;
		rec_line = line;
		for (;;) {
			field.n = 0;
			bool quoted = i < len && text[i] == '"';
			if (quoted) {
				i++;
				for (;;) {
					if (i >= len) {
						rc = err_set(
						    e, ERR_FORMAT, path, (int64_t)i,
						    "line %lld, column %zu: unterminated "
						    "quoted field (expected a closing '\"')",
						    (long long)rec_line, fields.n + 1);
						break;
					}
					line += text[i] == '\n';
					if (text[i] == '"') {
						if (i + 1 < len && text[i + 1] == '"') {
							i += 2;
							if (vec_push(field, '"',
								     NSYS_CSV_MAX_BYTES))
								rc = ERR_NOMEM;
							continue;
						}
						i++;
						break;
					}
					if (vec_push(field, text[i], NSYS_CSV_MAX_BYTES))
						rc = ERR_NOMEM;
					i++;
				}
			}
			/* unquoted part (or junk after a closing quote, kept as text) */
			while (!rc && i < len && text[i] != ',' && text[i] != '\n' &&
			       text[i] != '\r') {
				if (vec_push(field, text[i], NSYS_CSV_MAX_BYTES))
					rc = ERR_NOMEM;
				i++;
			}
			if (rc)
				break;
			char *s = arena_strndup(a, field.v ? field.v : "", field.n);
			if (!s || vec_push(fields, s, NSYS_CSV_MAX_FIELDS)) {
				rc = ERR_NOMEM;
				break;
			}
			if (i < len && text[i] == ',') {
				i++;
				continue;
			}
			if (i < len && text[i] == '\r')
				i++;
			if (i < len && text[i] == '\n')
				i++;
			line++; /* a lone CR ends a record too */
			break;
		}
		if (rc)
			break;
		/* a blank line is one empty field: skip it, as csv.DictReader does */
		if (fields.n == 1 && !fields.v[0][0])
			continue;
		const char **rec = arena_array(a, fields.n, sizeof *rec);
		if (!rec || vec_push(rows, rec, NSYS_CSV_MAX_FIELDS) ||
		    vec_push(widths, fields.n, NSYS_CSV_MAX_FIELDS) ||
		    vec_push(lines, rec_line, NSYS_CSV_MAX_FIELDS)) {
			rc = ERR_NOMEM;
			break;
		}
		memcpy(rec, fields.v, fields.n * sizeof *rec);
	}
	if (rc == ERR_NOMEM)
		err_set(e, ERR_NOMEM, path, -1, "out of memory reading CSV");
	if (!rc && rows.n) {
		out->header = rows.v[0];
		out->ncols = widths.v[0];
		out->nrows = rows.n - 1;
		out->rows = arena_array(a, out->nrows ? out->nrows : 1, sizeof *out->rows);
		out->lines = arena_array(a, out->nrows ? out->nrows : 1, sizeof *out->lines);
		if (out->lines && out->nrows)
			memcpy(out->lines, lines.v + 1, out->nrows * sizeof *out->lines);
		if (!out->rows || !out->lines)
			rc = err_set(e, ERR_NOMEM, path, -1, "out of memory reading CSV");
		/* pad short rows so rows[r][c] is valid for every header column */
		for (size_t r = 0; !rc && r < out->nrows; r++) {
			const char **rec = rows.v[r + 1];
			if (widths.v[r + 1] < out->ncols) {
				const char **wide = arena_array(a, out->ncols, sizeof *wide);
				if (!wide) {
					rc = err_set(e, ERR_NOMEM, path, -1,
						     "out of memory reading CSV");
					break;
				}
				for (size_t c = 0; c < out->ncols; c++)
					wide[c] = c < widths.v[r + 1] ? rec[c] : "";
				rec = wide;
			}
			out->rows[r] = rec;
		}
	}
	vec_free(fields);
	vec_free(rows);
	vec_free(field);
	vec_free(widths);
	vec_free(lines);
	return rc;
}

void nsys_csv_where(const struct nsys_csv *c, size_t r, int col, char *buf, size_t size)
{
	snprintf(buf, size, "line %lld, column %d",
		 (long long)(c->lines ? c->lines[r] : (int64_t)r + 2), col + 1);
}

int nsys_csv_col(const struct nsys_csv *c, const char *name)
{
	for (size_t i = 0; i < c->ncols; i++)
		if (!strcmp(c->header[i], name))
			return (int)i;
	return -1;
}

int nsys_csv_require(const struct nsys_csv *c, const char *const *required, size_t n, int *idx,
		     struct err *e)
{
	char missing[400] = "";
	size_t used = 0;
	bool any = false;
	for (size_t i = 0; i < n; i++) {
		idx[i] = nsys_csv_col(c, required[i]);
		if (idx[i] >= 0)
			continue;
		int w = snprintf(missing + used, sizeof missing - used, "%s%s", any ? ", " : "",
				 required[i]);
		if (w > 0 && (size_t)w < sizeof missing - used)
			used += (size_t)w;
		any = true;
	}
	if (any)
		return err_set(e, ERR_FORMAT, NULL, -1,
			       "Nsight report %s is missing required columns: %s", c->path,
			       missing);
	return 0;
}

/* Python int(): optional surrounding whitespace, optional sign, digits. */
static int parse_i64(const char *s, int64_t *v)
{
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return -1;
	char *end;
	errno = 0;
	long long x = strtoll(s, &end, 10);
	if (end == s || errno)
		return -1;
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end)
		return -1;
	if ((s[0] == '+' || s[0] == '-') && !(s[1] >= '0' && s[1] <= '9'))
		return -1;
	*v = x;
	return 0;
}

/* The first bytes of field f for a message: printable ASCII as is, others
 * (newlines, control and non-ASCII bytes) as \xHH, "..." when cut. */
static void field_quote(const char *f, char *buf, size_t size)
{
	size_t o = 0;
	for (; *f && o + 8 < size && o < 80; f++) {
		unsigned char ch = (unsigned char)*f;
		if (ch >= 0x20 && ch < 0x7f && ch != '\\')
			buf[o++] = (char)ch;
		else
			o += (size_t)snprintf(buf + o, size - o, "\\x%02X", ch);
	}
	snprintf(buf + o, size - o, "%s", *f ? "..." : "");
}

static int field_int(const struct nsys_csv *c, size_t r, int col, const char *name, int64_t *v,
		     struct err *e)
{
	if (!parse_i64(c->rows[r][col], v))
		return 0;
	char where[64], q[100];
	nsys_csv_where(c, r, col, where, sizeof where);
	field_quote(c->rows[r][col], q, sizeof q);
	return err_set(e, ERR_FORMAT, NULL, -1, "Invalid integer in %s column '%s': '%s' (%s)",
		       c->path, name, q, where);
}

/* Exactly one leading ':' goes: Nsight writes "domain:name" and the default
 * domain is empty. A named domain keeps its "Domain:" prefix. */
static const char *normalize_name(const char *raw)
{
	return raw[0] == ':' ? raw + 1 : raw;
}

static const char *const host_cols[] = {
    "Start (ns)", "End (ns)", "Duration (ns)", "DurChild (ns)", "DurNonChild (ns)", "Name",
    "PID",	  "TID",      "Lvl",	       "NumChild",	"RangeId",	    "ParentId"};
enum {
	H_START,
	H_END,
	H_DUR,
	H_CHILD,
	H_NONCHILD,
	H_NAME,
	H_PID,
	H_TID,
	H_LVL,
	H_NCHILD,
	H_ID,
	H_PARENT,
	H_NCOLS
};

static const char *const gpu_cols[] = {"Name",
				       "Projected Start (ns)",
				       "Projected Duration (ns)",
				       "Orig Start (ns)",
				       "Orig Duration (ns)",
				       "Style",
				       "PID",
				       "TID",
				       "NumGPUOps",
				       "Lvl",
				       "NumChild",
				       "RangeId",
				       "ParentId"};
enum {
	G_NAME,
	G_PSTART,
	G_PDUR,
	G_OSTART,
	G_ODUR,
	G_STYLE,
	G_PID,
	G_TID,
	G_OPS,
	G_LVL,
	G_NCHILD,
	G_ID,
	G_PARENT,
	G_NCOLS
};

/* Parses every integer column (the reference parses them all) into vals,
 * with an empty ParentId meaning "no parent". */
static int row_ints(const struct nsys_csv *c, size_t r, const char *const *names, const int *idx,
		    size_t ncols, size_t name_col, size_t style_col, size_t parent_col,
		    int64_t *vals, bool *has_parent, struct err *e)
{
	for (size_t k = 0; k < ncols; k++) {
		if (k == name_col || k == style_col)
			continue;
		if (k == parent_col && !c->rows[r][idx[k]][0]) {
			*has_parent = false;
			vals[k] = 0;
			continue;
		}
		if (k == parent_col)
			*has_parent = true;
		if (field_int(c, r, idx[k], names[k], &vals[k], e))
			return -1;
	}
	return 0;
}

int nsys_host_from_csv(struct arena *a, const struct nsys_csv *c, struct nsys_ranges *out,
		       struct err *e)
{
	memset(out, 0, sizeof *out);
	if (c->empty || !c->nrows)
		return err_set(e, ERR_FORMAT, NULL, -1, "Nsight report contains no rows: %s",
			       c->path);
	int idx[H_NCOLS];
	if (nsys_csv_require(c, host_cols, H_NCOLS, idx, e))
		return e ? e->code : ERR_FORMAT;
	out->v = arena_array(a, c->nrows, sizeof *out->v);
	out->path = c->path;
	if (!out->v)
		return err_set(e, ERR_NOMEM, c->path, -1, "out of memory");
	for (size_t r = 0; r < c->nrows; r++) {
		int64_t vals[H_NCOLS];
		bool hp = false;
		if (row_ints(c, r, host_cols, idx, H_NCOLS, H_NAME, H_NAME, H_PARENT, vals, &hp, e))
			return e ? e->code : ERR_FORMAT;
		struct nsys_range *g = &out->v[out->n++];
		memset(g, 0, sizeof *g);
		g->name = normalize_name(c->rows[r][idx[H_NAME]]);
		g->pid = vals[H_PID];
		g->tid = vals[H_TID];
		g->id = vals[H_ID];
		g->has_parent = hp;
		g->parent = vals[H_PARENT];
		g->dur = vals[H_DUR];
		g->dur_child = vals[H_CHILD];
		g->dur_nonchild = vals[H_NONCHILD];
		g->row = c->lines[r];
	}
	return 0;
}

int nsys_gpu_from_csv(struct arena *a, const struct nsys_csv *c, struct nsys_ranges *out,
		      struct err *e)
{
	memset(out, 0, sizeof *out);
	if (c->empty)
		return 0;
	int idx[G_NCOLS];
	if (nsys_csv_require(c, gpu_cols, G_NCOLS, idx, e))
		return e ? e->code : ERR_FORMAT;
	if (!c->nrows)
		return 0;
	out->v = arena_array(a, c->nrows, sizeof *out->v);
	out->path = c->path;
	if (!out->v)
		return err_set(e, ERR_NOMEM, c->path, -1, "out of memory");
	for (size_t r = 0; r < c->nrows; r++) {
		int64_t vals[G_NCOLS];
		bool hp = false;
		if (row_ints(c, r, gpu_cols, idx, G_NCOLS, G_NAME, G_STYLE, G_PARENT, vals, &hp, e))
			return e ? e->code : ERR_FORMAT;
		struct nsys_range *g = &out->v[out->n++];
		memset(g, 0, sizeof *g);
		g->name = normalize_name(c->rows[r][idx[G_NAME]]);
		g->style = c->rows[r][idx[G_STYLE]];
		g->pid = vals[G_PID];
		g->tid = vals[G_TID];
		g->id = vals[G_ID];
		g->has_parent = hp;
		g->parent = vals[G_PARENT];
		g->proj_dur = vals[G_PDUR];
		g->orig_dur = vals[G_ODUR];
		g->num_ops = vals[G_OPS];
		g->row = c->lines[r];
	}
	return 0;
}
