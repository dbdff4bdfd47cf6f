/* jv: the JSON value tree of analysis.json and its writer.
 *
 * The writer reproduces Python's json.dumps(indent=2, sort_keys=True) byte
 * for byte, because the reference analyzer writes analysis.json that way and
 * users diff the files: keys sorted by code point (strcmp on UTF-8 gives the
 * same order), ", " never (indent mode uses "," + newline), ": " between key
 * and value, empty containers as [] and {}, non-ASCII as \uXXXX (surrogate
 * pairs above U+FFFF), and floats in repr form (shortest round-trip digits,
 * ".0" on integral values, exponent form below 1e-4 and from 1e16).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/sort.h"
#include "nsys/nsys.h"

struct nsys_jv *nsys_jv_new(struct arena *a, enum nsys_jv_kind kind)
{
	struct nsys_jv *v = arena_zalloc(a, sizeof *v);
	if (v)
		v->kind = kind;
	return v;
}

struct nsys_jv *nsys_jv_int(struct arena *a, int64_t i)
{
	struct nsys_jv *v = nsys_jv_new(a, NSYS_JINT);
	if (v)
		v->i = i;
	return v;
}

struct nsys_jv *nsys_jv_float(struct arena *a, double f)
{
	struct nsys_jv *v = nsys_jv_new(a, NSYS_JFLOAT);
	if (v)
		v->f = f;
	return v;
}

struct nsys_jv *nsys_jv_str(struct arena *a, const char *s)
{
	if (!s)
		return nsys_jv_new(a, NSYS_JNULL);
	struct nsys_jv *v = nsys_jv_new(a, NSYS_JSTR);
	if (v && !(v->s = arena_strndup(a, s, strlen(s))))
		return NULL;
	return v;
}

struct nsys_jv *nsys_jv_null(struct arena *a)
{
	return nsys_jv_new(a, NSYS_JNULL);
}

/* Grows items (and keys for objects) in the arena; old blocks stay in the
 * arena, which is fine for the few hundred values an analysis holds. */
static int jv_grow(struct arena *a, struct nsys_jv *c)
{
	if (c->n < c->cap)
		return 0;
	size_t ncap = c->cap ? c->cap * 2 : 8;
	struct nsys_jv **items = arena_array(a, ncap, sizeof *items);
	const char **keys = arena_array(a, ncap, sizeof *keys);
	if (!items || !keys)
		return -1;
	if (c->n) {
		memcpy(items, c->items, c->n * sizeof *items);
		if (c->keys)
			memcpy(keys, c->keys, c->n * sizeof *keys);
	}
	c->items = items;
	c->keys = keys;
	c->cap = ncap;
	return 0;
}

int nsys_jv_push(struct arena *a, struct nsys_jv *arr, struct nsys_jv *v)
{
	if (!arr || !v || jv_grow(a, arr))
		return -1;
	arr->items[arr->n++] = v;
	return 0;
}

int nsys_jv_set(struct arena *a, struct nsys_jv *obj, const char *key, struct nsys_jv *v)
{
	if (!obj || !v || !key)
		return -1;
	for (size_t i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key)) {
			obj->items[i] = v;
			return 0;
		}
	return nsys_jv_add(a, obj, key, v);
}

int nsys_jv_add(struct arena *a, struct nsys_jv *obj, const char *key, struct nsys_jv *v)
{
	if (!obj || !v || !key || jv_grow(a, obj))
		return -1;
	const char *k = arena_strndup(a, key, strlen(key));
	if (!k)
		return -1;
	obj->keys[obj->n] = k;
	obj->items[obj->n++] = v;
	return 0;
}

struct nsys_jv *nsys_jv_get(const struct nsys_jv *obj, const char *key)
{
	if (!obj || obj->kind != NSYS_JOBJ)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return obj->items[i];
	return NULL;
}

void nsys_fmt_double(char *buf, size_t n, double v)
{
	if (isnan(v) || isinf(v)) {
		/* Python writes NaN/Infinity; analysis values are always finite. */
		snprintf(buf, n, "%s", isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
		return;
	}
	char tmp[40];
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(tmp, sizeof tmp, "%.*e", prec - 1, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	/* tmp is [-]d[.ddd]e[+-]xx: collect the digits and the exponent. */
	const char *p = tmp;
	bool neg = *p == '-';
	if (neg)
		p++;
	char digits[24];
	int nd = 0;
	for (; *p && *p != 'e'; p++)
		if (*p != '.')
			digits[nd++] = *p;
	int exp10 = atoi(p + 1);
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = 0;
	char *o = buf, *end = buf + n - 1;
#define PUT(ch) (o < end ? (void)(*o++ = (ch)) : (void)0)
	if (neg)
		PUT('-');
	if (exp10 < -4 || exp10 >= 16) {
		PUT(digits[0]);
		if (nd > 1) {
			PUT('.');
			for (int i = 1; i < nd; i++)
				PUT(digits[i]);
		}
		char e[16];
		snprintf(e, sizeof e, "e%c%02d", exp10 < 0 ? '-' : '+', abs(exp10));
		for (char *q = e; *q; q++)
			PUT(*q);
	} else if (exp10 < 0) {
		PUT('0');
		PUT('.');
		for (int i = 0; i < -exp10 - 1; i++)
			PUT('0');
		for (int i = 0; i < nd; i++)
			PUT(digits[i]);
	} else {
		for (int i = 0; i <= exp10; i++)
			PUT(i < nd ? digits[i] : '0');
		PUT('.');
		if (nd > exp10 + 1)
			for (int i = exp10 + 1; i < nd; i++)
				PUT(digits[i]);
		else
			PUT('0');
	}
#undef PUT
	*o = 0;
}

/* Decodes one UTF-8 sequence at s; returns its length (1 and U+FFFD for a
 * malformed byte). */
static int utf8_next(const unsigned char *s, unsigned *cp)
{
	unsigned c = s[0];
	int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
	if (len == 1) {
		*cp = c;
		return 1;
	}
	if (!len) {
		*cp = 0xFFFD;
		return 1;
	}
	unsigned v = c & (0x7F >> len);
	for (int i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80) {
			*cp = 0xFFFD;
			return 1;
		}
		v = v << 6 | (s[i] & 0x3F);
	}
	*cp = v;
	return len;
}

static void write_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	fputc('"', f);
	while (*p) {
		unsigned cp;
		p += utf8_next(p, &cp);
		switch (cp) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		default:
			if (cp < 0x20 || (cp >= 0x7F && cp < 0x10000))
				fprintf(f, "\\u%04x", cp);
			else if (cp >= 0x10000) {
				cp -= 0x10000;
				fprintf(f, "\\u%04x\\u%04x", 0xD800 + (cp >> 10),
					0xDC00 + (cp & 0x3FF));
			} else
				fputc((int)cp, f);
		}
	}
	fputc('"', f);
}

static void indent(FILE *f, int depth)
{
	fputc('\n', f);
	for (int i = 0; i < depth; i++)
		fputs("  ", f);
}

static int key_cmp(const void *a, const void *b, void *keys)
{
	const char *const *k = keys;
	return strcmp(k[*(const size_t *)a], k[*(const size_t *)b]);
}

/* The index of the smallest key of v above last (NULL: the smallest), or
 * v->n when there is none. */
static size_t next_key(const struct nsys_jv *v, const char *last)
{
	size_t best = v->n;
	for (size_t i = 0; i < v->n; i++) {
		if (last && strcmp(v->keys[i], last) <= 0)
			continue;
		if (best == v->n || strcmp(v->keys[i], v->keys[best]) < 0)
			best = i;
	}
	return best;
}

static void write_val(FILE *f, const struct nsys_jv *v, int depth)
{
	char buf[48];
	switch (v->kind) {
	case NSYS_JNULL:
		fputs("null", f);
		return;
	case NSYS_JBOOL:
		fputs(v->b ? "true" : "false", f);
		return;
	case NSYS_JINT:
		fprintf(f, "%lld", (long long)v->i);
		return;
	case NSYS_JFLOAT:
		nsys_fmt_double(buf, sizeof buf, v->f);
		fputs(buf, f);
		return;
	case NSYS_JSTR:
		write_str(f, v->s);
		return;
	case NSYS_JARR:
		if (!v->n) {
			fputs("[]", f);
			return;
		}
		fputc('[', f);
		for (size_t i = 0; i < v->n; i++) {
			if (i)
				fputc(',', f);
			indent(f, depth + 1);
			write_val(f, v->items[i], depth + 1);
		}
		indent(f, depth);
		fputc(']', f);
		return;
	case NSYS_JOBJ:
		break;
	}
	if (!v->n) {
		fputs("{}", f);
		return;
	}
	/* Sorted order without touching the tree: an index sorted by key (keys
	 * are unique in an object); without memory for it, repeatedly the
	 * smallest key above the last one written. */
	size_t *ix = malloc(v->n * sizeof *ix);
	if (ix) {
		for (size_t i = 0; i < v->n; i++)
			ix[i] = i;
		gp_qsort_r(ix, v->n, sizeof *ix, key_cmp, v->keys);
	}
	const char *last = NULL;
	fputc('{', f);
	for (size_t k = 0; k < v->n; k++) {
		size_t best = ix ? ix[k] : next_key(v, last);
		if (best == v->n)
			break;
		if (k)
			fputc(',', f);
		indent(f, depth + 1);
		write_str(f, v->keys[best]);
		fputs(": ", f);
		write_val(f, v->items[best], depth + 1);
		last = v->keys[best];
	}
	free(ix);
	indent(f, depth);
	fputc('}', f);
}

void nsys_jv_write(FILE *f, const struct nsys_jv *v)
{
	write_val(f, v, 0);
	fputc('\n', f);
}

/* ---- YAML (manifest.yaml as `gpuprof nsys profile` writes it) ---- */

/* s as a YAML double-quoted scalar: printable ASCII as it is, every other
 * character escaped (\xHH below U+0100 for controls, \uHHHH, \UHHHHHHHH),
 * so the file is ASCII and both libyaml and PyYAML read back exactly s;
 * a byte of no UTF-8 sequence, a surrogate or a value past U+10FFFF
 * becomes U+FFFD (YAML cannot hold it). */
static void yaml_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	fputc('"', f);
	while (*p) {
		unsigned cp;
		p += utf8_next(p, &cp);
		if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
			cp = 0xFFFD;
		if (cp == '"' || cp == '\\')
			fprintf(f, "\\%c", (int)cp);
		else if (cp == '\n')
			fputs("\\n", f);
		else if (cp == '\t')
			fputs("\\t", f);
		else if (cp < 0x20 || cp == 0x7F)
			fprintf(f, "\\x%02x", cp);
		else if (cp < 0x7F)
			fputc((int)cp, f);
		else if (cp < 0x10000)
			fprintf(f, "\\u%04x", cp);
		else
			fprintf(f, "\\U%08x", cp);
	}
	fputc('"', f);
}

/* YAML allows an implicit key of at most 1024 characters; an escaped
 * character takes at most 4 per byte of the key (\xHH), so a key of more
 * than YAML_KEY_BYTES bytes is written as an explicit one ("? KEY : V"). */
#define YAML_KEY_BYTES 250
static bool yaml_long_key(const char *k)
{
	return strlen(k) > YAML_KEY_BYTES;
}

/* A key plain when it is an identifier (every key gpuprof writes) that
 * YAML 1.1 does not read as a boolean or null (yes, Off, NULL...), else
 * quoted. */
static void yaml_key(FILE *f, const char *k)
{
	static const char *const words[] = {"yes", "no", "true", "false", "on", "off", "null"};
	bool plain = (*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') || *k == '_';
	for (size_t i = 0; plain && i < sizeof words / sizeof words[0]; i++)
		plain = strcasecmp(k, words[i]) != 0;
	for (const char *c = k; plain && *c; c++)
		plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			(*c >= '0' && *c <= '9') || *c == '_';
	if (plain)
		fputs(k, f);
	else
		yaml_str(f, k);
}

/* The order of obj's keys (sorted; yaml_sorted frees it); NULL when empty
 * or out of memory (then next_key gives the same order). */
static size_t *yaml_order(const struct nsys_jv *obj)
{
	size_t *ix = obj->n ? malloc(obj->n * sizeof *ix) : NULL;
	if (ix) {
		for (size_t i = 0; i < obj->n; i++)
			ix[i] = i;
		gp_qsort_r(ix, obj->n, sizeof *ix, key_cmp, obj->keys);
	}
	return ix;
}

/* v in flow style (a scalar, [a, b], {k: v}). */
static void yaml_flow(FILE *f, const struct nsys_jv *v)
{
	char buf[48];
	switch (v->kind) {
	case NSYS_JSTR:
		yaml_str(f, v->s);
		return;
	case NSYS_JFLOAT:
		if (!isfinite(v->f)) {
			fputs(isnan(v->f) ? ".nan" : v->f > 0 ? ".inf" : "-.inf", f);
			return;
		}
		/* YAML 1.1 reads a float only with a '.': 1e+20 as 1.0e+20 */
		nsys_fmt_double(buf, sizeof buf, v->f);
		if (!strchr(buf, '.')) {
			size_t m = strcspn(buf, "e");
			fprintf(f, "%.*s.0%s", (int)m, buf, buf + m);
		} else
			fputs(buf, f);
		return;
	case NSYS_JARR:
		fputc('[', f);
		for (size_t i = 0; i < v->n; i++) {
			fputs(i ? ", " : "", f);
			yaml_flow(f, v->items[i]);
		}
		fputc(']', f);
		return;
	case NSYS_JOBJ: {
		size_t *ix = yaml_order(v);
		const char *last = NULL;
		fputc('{', f);
		for (size_t k = 0; k < v->n; k++) {
			size_t i = ix ? ix[k] : next_key(v, last);
			fputs(k ? ", " : "", f);
			fputs(yaml_long_key(v->keys[i]) ? "? " : "", f);
			yaml_key(f, v->keys[i]);
			fputs(yaml_long_key(v->keys[i]) ? " : " : ": ", f);
			yaml_flow(f, v->items[i]);
			last = v->keys[i];
		}
		fputc('}', f);
		free(ix);
		return;
	}
	default:
		write_val(f, v, 0); /* null, true/false, integers: the same in JSON */
	}
}

/* The mapping obj in block style at depth (sorted keys); a non-empty
 * mapping value nests below its key, anything else stays on the line. */
static void yaml_block(FILE *f, const struct nsys_jv *obj, int depth)
{
	size_t *ix = yaml_order(obj);
	const char *last = NULL;
	for (size_t k = 0; k < obj->n; k++) {
		size_t i = ix ? ix[k] : next_key(obj, last);
		const struct nsys_jv *v = obj->items[i];
		for (int d = 0; d < depth; d++)
			fputs("  ", f);
		bool explicit = yaml_long_key(obj->keys[i]);
		if (explicit) { /* "? KEY" then ": VALUE" (flow) on the next line */
			fputs("? ", f);
			yaml_key(f, obj->keys[i]);
			fputc('\n', f);
			for (int d = 0; d < depth; d++)
				fputs("  ", f);
		} else {
			yaml_key(f, obj->keys[i]);
		}
		fputc(':', f);
		if (v->kind == NSYS_JOBJ && v->n && !explicit) {
			fputc('\n', f);
			yaml_block(f, v, depth + 1);
		} else {
			fputc(' ', f);
			yaml_flow(f, v);
			fputc('\n', f);
		}
		last = obj->keys[i];
	}
	free(ix);
}

void nsys_yaml_write(FILE *f, const struct nsys_jv *v)
{
	if (v->kind == NSYS_JOBJ && v->n) {
		yaml_block(f, v, 0);
		return;
	}
	yaml_flow(f, v);
	fputc('\n', f);
}
