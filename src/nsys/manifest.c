/* manifest: the run's manifest.yaml read with libyaml into a value tree.
 *
 * The harness writes it with PyYAML's safe_dump, and the reference analyzer
 * reads it with safe_load, so plain scalars are typed by YAML 1.1 rules as
 * PyYAML resolves them: null (~, null, empty), booleans (true/false/yes/no/
 * on/off in lower, Capitalized or UPPER case), integers (decimal, 0x, 0o/0
 * octal, '_' separators), floats (with '.', exponent, .inf, .nan); anything
 * quoted or tagged !!str is a string. Aliases are resolved by anchor name.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "core/vec.h"
#include "nsys/nsys.h"

#define NSYS_YAML_MAX_BYTES (64u << 20)
#define NSYS_YAML_MAX_DEPTH 64

struct anchor {
	const char *name;
	struct nsys_jv *v;
};

struct yctx {
	struct arena *a;
	yaml_parser_t p;
	VEC(struct anchor) anchors;
	const char *path;
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

static int bad_yaml(struct yctx *c)
{
	return err_set(c->e, ERR_FORMAT, NULL, -1, "Profiling manifest is invalid YAML: %s",
		       c->path);
}

static int remember(struct yctx *c, const yaml_char_t *anchor, struct nsys_jv *v)
{
	if (!anchor)
		return 0;
	struct anchor an = {arena_strndup(c->a, (const char *)anchor, strlen((const char *)anchor)),
			    v};
	if (!an.name || vec_push(c->anchors, an, 1u << 20))
		return -1;
	return 0;
}

/* Parses the node that starts with ev (already taken from the parser). */
static int node(struct yctx *c, yaml_event_t *ev, int depth, struct nsys_jv **out)
{
	if (depth > NSYS_YAML_MAX_DEPTH)
		return bad_yaml(c);
	if (ev->type == YAML_SCALAR_EVENT) {
		*out = scalar(c, ev);
		return *out && !remember(c, ev->data.scalar.anchor, *out) ? 0 : bad_yaml(c);
	}
	if (ev->type == YAML_ALIAS_EVENT) {
		for (size_t i = c->anchors.n; i-- > 0;)
			if (!strcmp(c->anchors.v[i].name, (const char *)ev->data.alias.anchor)) {
				*out = c->anchors.v[i].v;
				return 0;
			}
		return bad_yaml(c);
	}
	bool map = ev->type == YAML_MAPPING_START_EVENT;
	if (!map && ev->type != YAML_SEQUENCE_START_EVENT)
		return bad_yaml(c);
	struct nsys_jv *v = nsys_jv_new(c->a, map ? NSYS_JOBJ : NSYS_JARR);
	const yaml_char_t *anchor =
	    map ? ev->data.mapping_start.anchor : ev->data.sequence_start.anchor;
	if (!v || remember(c, anchor, v))
		return bad_yaml(c);
	for (;;) {
		yaml_event_t k;
		if (!yaml_parser_parse(&c->p, &k))
			return bad_yaml(c);
		if (k.type == YAML_MAPPING_END_EVENT || k.type == YAML_SEQUENCE_END_EVENT) {
			yaml_event_delete(&k);
			break;
		}
		struct nsys_jv *key = NULL, *val = NULL;
		int rc = node(c, &k, depth + 1, &key);
		yaml_event_delete(&k);
		if (rc)
			return rc;
		if (!map) {
			if (nsys_jv_push(c->a, v, key))
				return bad_yaml(c);
			continue;
		}
		yaml_event_t ve;
		if (!yaml_parser_parse(&c->p, &ve))
			return bad_yaml(c);
		rc = node(c, &ve, depth + 1, &val);
		yaml_event_delete(&ve);
		if (rc)
			return rc;
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
		if (nsys_jv_set(c->a, v, ks, val))
			return bad_yaml(c);
	}
	*out = v;
	return 0;
}

int nsys_yaml_parse(struct arena *a, const char *path, const unsigned char *text, size_t len,
		    struct nsys_jv **out, struct err *e)
{
	struct yctx c = {.a = a, .path = path, .e = e};
	*out = NULL;
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
			if (doc) { /* safe_load refuses a second document */
				yaml_event_delete(&ev);
				rc = bad_yaml(&c);
				break;
			}
			rc = node(&c, &ev, 0, &doc);
		}
		yaml_event_delete(&ev);
		if (rc)
			break;
	}
	yaml_parser_delete(&c.p);
	vec_free(c.anchors);
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
		if (vec_reserve(buf, buf.n + got, NSYS_YAML_MAX_BYTES)) {
			rc = err_set(e, ERR_LIMIT, path, -1, "manifest too large");
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
