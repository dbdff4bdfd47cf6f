/* manifest: the run's manifest.yaml read with libyaml into a value tree.
 *
 * The harness writes it with PyYAML's safe_dump, and the reference analyzer
 * reads it with safe_load, so plain scalars are typed by YAML 1.1 rules as
 * PyYAML resolves them: null (~, null, empty), booleans (true/false/yes/no/
 * on/off in lower, Capitalized or UPPER case), integers (decimal, 0x, 0o/0
 * octal, '_' separators), floats (with '.', exponent, .inf, .nan); anything
 * quoted or tagged !!str is a string. Aliases are resolved by anchor name
 * and share the node they name; each use counts the size of what it names,
 * so that a document whose aliases would expand past LIM_YAML_EXPANDED (a
 * "billion laughs", written out into analysis.json) is refused, and an
 * alias inside the node it names (a cycle) is refused. Mappings and anchors
 * are indexed by hash: the time is linear in the text. Every error names
 * the file, line and column.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "core/hmap.h"
#include "core/limits.h"
#include "core/strpool.h"
#include "core/vec.h"
#include "nsys/nsys.h"

struct anchor {
	const char *name;
	struct nsys_jv *v;
	uint64_t units; /* v's size with its aliases expanded (LIM_YAML_EXPANDED) */
	bool done;	/* v is complete (an alias inside v would make a cycle) */
};

struct yctx {
	struct arena *a;
	yaml_parser_t p;
	VEC(struct anchor) anchors;
	struct hmap anchor_ix; /* name hash -> latest anchor of that name */
	const char *want;      /* the name anchor_eq compares with */
	const char *path;
	const unsigned char *text;
	size_t len;
	struct err *e;
};

static bool is_word(const char *s, const char *lower)
{
	size_t n = strlen(lower);
	if (strlen(s) != n)
		return false;
	if (!strcmp(s, lower))
		return true;
	bool cap = s[0] == lower[0] - 32, upper = cap;
	for (size_t i = 1; i < n; i++) {
		cap = cap && s[i] == lower[i];
		upper = upper && s[i] == lower[i] - 32;
	}
	return cap || upper;
}

/* Integer per YAML 1.1 (PyYAML): [-+]?(0b[01_]+|0[0-7_]+|0x[0-9a-fA-F_]+|0|[1-9][0-9_]*). */
static bool yaml_int(const char *s, int64_t *v)
{
	char buf[80];
	size_t n = 0;
	const char *p = s;
	bool neg = false;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	int base = 10;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		base = 16, p += 2;
	else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
		base = 2, p += 2;
	else if (p[0] == '0' && (p[1] == 'o' || p[1] == 'O'))
		base = 8, p += 2;
	else if (p[0] == '0' && p[1])
		base = 8, p += 1;
	for (; *p; p++) {
		if (*p == '_')
			continue;
		bool ok = base == 16  ? strchr("0123456789abcdefABCDEF", *p) != NULL
			  : base == 2 ? (*p == '0' || *p == '1')
			  : base == 8 ? (*p >= '0' && *p <= '7')
				      : (*p >= '0' && *p <= '9');
		if (!ok || n + 2 >= sizeof buf)
			return false;
		buf[n++] = *p;
	}
	if (!n)
		return false;
	buf[n] = 0;
	errno = 0;
	char *end;
	unsigned long long x = strtoull(buf, &end, base);
	if (errno || *end || x > (unsigned long long)INT64_MAX)
		return false;
	*v = neg ? -(int64_t)x : (int64_t)x;
	return true;
}

/* Float per YAML 1.1 (PyYAML): needs a '.', optional exponent, or .inf/.nan. */
static bool yaml_float(const char *s, double *v)
{
	const char *p = s;
	if (*p == '-' || *p == '+')
		p++;
	if (is_word(p, ".inf")) {
		*v = s[0] == '-' ? -INFINITY : INFINITY;
		return true;
	}
	if (p == s && is_word(p, ".nan")) {
		*v = NAN;
		return true;
	}
	if (!strchr(p, '.'))
		return false;
	char buf[80];
	size_t n = 0;
	for (const char *q = s; *q; q++) {
		if (*q == '_')
			continue;
		if (!strchr("0123456789.eE+-", *q) || n + 2 >= sizeof buf)
			return false;
		buf[n++] = *q;
	}
	buf[n] = 0;
	char *end;
	*v = strtod(buf, &end);
	return *end == 0 && end != buf;
}

static struct nsys_jv *scalar(struct yctx *c, const yaml_event_t *ev)
{
	const char *s = (const char *)ev->data.scalar.value;
	const char *tag = (const char *)ev->data.scalar.tag;
	if ((tag && !strcmp(tag, YAML_STR_TAG)) || !ev->data.scalar.plain_implicit)
		return nsys_jv_str(c->a, s);
	if (!*s || !strcmp(s, "~") || is_word(s, "null"))
		return nsys_jv_null(c->a);
	static const char *const yes[] = {"true", "yes", "on"}, *const no[] = {"false", "no",
									       "off"};
	for (int i = 0; i < 3; i++) {
		if (is_word(s, yes[i]) || is_word(s, no[i])) {
			struct nsys_jv *b = nsys_jv_new(c->a, NSYS_JBOOL);
			if (b)
				b->b = is_word(s, yes[i]);
			return b;
		}
	}
	int64_t i;
	double d;
	if (yaml_int(s, &i))
		return nsys_jv_int(c->a, i);
	if (yaml_float(s, &d))
		return nsys_jv_float(c->a, d);
	return nsys_jv_str(c->a, s);
}

/* Line and column (1-based) of byte off of the text: libyaml's reader
 * errors (bad UTF-8) carry only a byte offset. */
static void line_col(const struct yctx *c, size_t off, size_t *line, size_t *col)
{
	*line = 1, *col = 1;
	for (size_t i = 0; i < off && i < c->len; i++) {
		if (c->text[i] == '\n')
			++*line, *col = 1;
		else if ((c->text[i] & 0xC0) != 0x80) /* count characters, not bytes */
			++*col;
	}
}

/* libyaml refused the text: its problem, where it found it. */
static int bad_yaml(struct yctx *c)
{
	size_t line, col;
	if (c->p.error == YAML_READER_ERROR) {
		line_col(c, c->p.problem_offset, &line, &col);
	} else {
		line = c->p.problem_mark.line + 1;
		col = c->p.problem_mark.column + 1;
	}
	const char *what = c->p.problem ? c->p.problem : "cannot be parsed";
	const char *ctx = c->p.context;
	if (c->p.error == YAML_MEMORY_ERROR)
		return err_set(c->e, ERR_NOMEM, c->path, -1, "out of memory");
	return err_set(c->e, ERR_FORMAT, NULL, -1,
		       "Profiling manifest is invalid YAML: %s: line %zu, column %zu: %s%s%s",
		       c->path, line, col, what, ctx ? " " : "", ctx ? ctx : "");
}

/* A problem of the document itself at the node that starts with ev. */
static int bad_node(struct yctx *c, const yaml_event_t *ev, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int bad_node(struct yctx *c, const yaml_event_t *ev, int code, const char *fmt, ...)
{
	char what[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return err_set(c->e, code, NULL, -1, "Profiling manifest %s %s: line %zu, column %zu: %s",
		       code == ERR_LIMIT ? "is beyond a limit:" : "is invalid YAML:", c->path,
		       ev->start_mark.line + 1, ev->start_mark.column + 1, what);
}

static int no_memory(struct yctx *c)
{
	return err_set(c->e, ERR_NOMEM, c->path, -1, "out of memory");
}

static bool anchor_eq(const void *ctx, uint32_t v)
{
	const struct yctx *c = ctx;
	return !strcmp(c->anchors.v[v].name, c->want);
}

/* The slot of anchor name in the index (c->want = name), or SIZE_MAX when
 * out of memory; *ix = its entry or HMAP_NONE. */
static size_t anchor_slot(struct yctx *c, const char *name, uint32_t *ix)
{
	c->want = name;
	return hmap_slot(&c->anchor_ix, strpool_hash(name, strlen(name)), anchor_eq, c, ix);
}

/* Records anchor (when the node has one) for v, whose expanded size is
 * units once done; *ix = its entry (HMAP_NONE without an anchor). A later
 * anchor of the same name hides an earlier one, as YAML says. */
static int remember(struct yctx *c, const yaml_char_t *anchor, struct nsys_jv *v, uint64_t units,
		    bool done, uint32_t *ix)
{
	*ix = HMAP_NONE;
	if (!anchor)
		return 0;
	const char *name = (const char *)anchor;
	struct anchor an = {arena_strndup(c->a, name, strlen(name)), v, units, done};
	uint32_t old;
	size_t slot = anchor_slot(c, name, &old);
	if (!an.name || slot == SIZE_MAX || vec_push(c->anchors, an, LIM_YAML_EXPANDED))
		return -1;
	*ix = (uint32_t)(c->anchors.n - 1);
	if (old == HMAP_NONE)
		hmap_set(&c->anchor_ix, slot, strpool_hash(name, strlen(name)), *ix);
	else
		c->anchor_ix.val[slot] = *ix;
	return 0;
}

struct key_ctx {
	const struct nsys_jv *obj;
	const char *key;
};

static bool key_eq(const void *ctx, uint32_t v)
{
	const struct key_ctx *k = ctx;
	return !strcmp(k->obj->keys[v], k->key);
}

/* Sets key of map to val: a repeated key replaces the earlier value in its
 * place, as PyYAML's dict does. keys indexes map's keys (linear time in
 * all, where nsys_jv_set would scan every key). */
static int map_set(struct yctx *c, struct hmap *keys, struct nsys_jv *map,
		   const struct nsys_jv *key, struct nsys_jv *val)
{
	/* keys are scalars in a manifest; other kinds become "" */
	char kbuf[48];
	const char *ks = "";
	if (key->kind == NSYS_JSTR)
		ks = key->s;
	else if (key->kind == NSYS_JINT)
		snprintf(kbuf, sizeof kbuf, "%lld", (long long)key->i), ks = kbuf;
	else if (key->kind == NSYS_JBOOL)
		ks = key->b ? "true" : "false";
	else if (key->kind == NSYS_JNULL)
		ks = "null";
	struct key_ctx kc = {map, ks};
	uint64_t h = strpool_hash(ks, strlen(ks));
	uint32_t at;
	size_t slot = hmap_slot(keys, h, key_eq, &kc, &at);
	if (slot == SIZE_MAX)
		return -1;
	if (at != HMAP_NONE) {
		map->items[at] = val;
		return 0;
	}
	if (nsys_jv_add(c->a, map, ks, val))
		return -1;
	hmap_set(keys, slot, h, (uint32_t)(map->n - 1));
	return 0;
}

static int node(struct yctx *c, yaml_event_t *ev, int depth, struct nsys_jv **out, uint64_t *units);

/* The entries of the collection v, up to its end event;
 * *units = its expanded size. */
static int entries(struct yctx *c, int depth, struct nsys_jv *v, uint64_t *units)
{
	bool map = v->kind == NSYS_JOBJ;
	struct hmap keys = {0};
	int rc = 0;
	*units = 1;
	for (struct nsys_jv *key = NULL; !rc;) {
		yaml_event_t k;
		if (!yaml_parser_parse(&c->p, &k)) {
			rc = bad_yaml(c);
			break;
		}
		if (k.type == YAML_MAPPING_END_EVENT || k.type == YAML_SEQUENCE_END_EVENT) {
			yaml_event_delete(&k);
			break;
		}
		struct nsys_jv *item = NULL;
		uint64_t n = 0;
		rc = node(c, &k, depth + 1, &item, &n);
		*units += n;
		if (!rc && *units > LIM_YAML_EXPANDED)
			rc = bad_node(c, &k, ERR_LIMIT,
				      "with its aliases expanded the document passes %u units "
				      "(nodes and scalar bytes)",
				      LIM_YAML_EXPANDED);
		yaml_event_delete(&k);
		if (rc)
			break;
		if (!map)
			rc = nsys_jv_push(c->a, v, item) ? no_memory(c) : 0;
		else if (!key)
			key = item;
		else {
			rc = map_set(c, &keys, v, key, item) ? no_memory(c) : 0;
			key = NULL;
		}
	}
	hmap_free(&keys);
	return rc;
}

/* Parses the node that starts with ev (already taken from the parser);
 * *units = its size with every alias in it expanded. */
static int node(struct yctx *c, yaml_event_t *ev, int depth, struct nsys_jv **out, uint64_t *units)
{
	uint32_t ix;
	if (depth > LIM_YAML_DEPTH)
		return bad_node(c, ev, ERR_LIMIT, "nested deeper than %d levels", LIM_YAML_DEPTH);
	if (ev->type == YAML_SCALAR_EVENT) {
		*units = (uint64_t)ev->data.scalar.length + 1;
		*out = scalar(c, ev);
		return *out && !remember(c, ev->data.scalar.anchor, *out, *units, true, &ix)
			   ? 0
			   : no_memory(c);
	}
	if (ev->type == YAML_ALIAS_EVENT) {
		const char *name = (const char *)ev->data.alias.anchor;
		if (anchor_slot(c, name, &ix) == SIZE_MAX)
			return no_memory(c);
		if (ix == HMAP_NONE)
			return bad_node(c, ev, ERR_FORMAT, "found undefined alias '%.64s'", name);
		if (!c->anchors.v[ix].done)
			return bad_node(c, ev, ERR_FORMAT,
					"alias '%.64s' refers to a node that holds it", name);
		*out = c->anchors.v[ix].v;
		*units = c->anchors.v[ix].units;
		return 0;
	}
	bool map = ev->type == YAML_MAPPING_START_EVENT;
	if (!map && ev->type != YAML_SEQUENCE_START_EVENT)
		return bad_node(c, ev, ERR_FORMAT, "expected a node");
	struct nsys_jv *v = nsys_jv_new(c->a, map ? NSYS_JOBJ : NSYS_JARR);
	const yaml_char_t *anchor =
	    map ? ev->data.mapping_start.anchor : ev->data.sequence_start.anchor;
	if (!v || remember(c, anchor, v, 0, false, &ix))
		return no_memory(c);
	int rc = entries(c, depth, v, units);
	if (rc)
		return rc;
	if (ix != HMAP_NONE) {
		c->anchors.v[ix].units = *units;
		c->anchors.v[ix].done = true;
	}
	*out = v;
	return 0;
}

int nsys_yaml_parse(struct arena *a, const char *path, const unsigned char *text, size_t len,
		    struct nsys_jv **out, struct err *e)
{
	struct yctx c = {.a = a, .path = path, .e = e, .text = text, .len = len};
	*out = NULL;
	if (len > LIM_YAML_BYTES)
		return err_set(e, ERR_LIMIT, NULL, -1,
			       "Profiling manifest is beyond a limit: %s: larger than %u bytes",
			       path, LIM_YAML_BYTES);
	if (!yaml_parser_initialize(&c.p))
		return err_set(e, ERR_NOMEM, path, -1, "out of memory");
	yaml_parser_set_input_string(&c.p, text, len);
	int rc = 0;
	struct nsys_jv *doc = NULL;
	for (;;) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&c.p, &ev)) {
			rc = bad_yaml(&c);
			break;
		}
		yaml_event_type_t t = ev.type;
		if (t == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			break;
		}
		if (t == YAML_SCALAR_EVENT || t == YAML_SEQUENCE_START_EVENT ||
		    t == YAML_MAPPING_START_EVENT || t == YAML_ALIAS_EVENT) {
			uint64_t units;
			if (doc) /* safe_load refuses a second document */
				rc = bad_node(&c, &ev, ERR_FORMAT,
					      "expected a single document in the stream");
			else
				rc = node(&c, &ev, 0, &doc, &units);
		}
		yaml_event_delete(&ev);
		if (rc)
			break;
	}
	yaml_parser_delete(&c.p);
	vec_free(c.anchors);
	hmap_free(&c.anchor_ix);
	if (rc)
		return rc;
	if (!doc || doc->kind != NSYS_JOBJ)
		return err_set(e, ERR_FORMAT, NULL, -1,
			       "Profiling manifest must contain a mapping: %s", path);
	*out = doc;
	return 0;
}

int nsys_manifest_read(struct arena *a, const char *path, struct nsys_jv **out, struct err *e)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		if (errno == ENOENT)
			return err_set(e, ERR_IO, NULL, -1, "Profiling manifest does not exist: %s",
				       path);
		return err_set(e, ERR_IO, path, -1, "cannot open: %s", strerror(errno));
	}
	VEC(unsigned char) buf = {0};
	unsigned char chunk[16384];
	size_t got;
	int rc = 0;
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (vec_reserve(buf, buf.n + got, LIM_YAML_BYTES)) {
			rc = err_set(
			    e, ERR_LIMIT, NULL, -1,
			    "Profiling manifest is beyond a limit: %s: larger than %u bytes", path,
			    LIM_YAML_BYTES);
			break;
		}
		memcpy(buf.v + buf.n, chunk, got);
		buf.n += got;
	}
	fclose(f);
	if (!rc)
		rc = nsys_yaml_parse(a, path, buf.v ? buf.v : (const unsigned char *)"", buf.n, out,
				     e);
	vec_free(buf);
	return rc;
}
