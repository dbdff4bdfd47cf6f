/* jv_parse: JSON text into a value tree (struct nsys_jv, nsys.h), the
 * reverse of nsys_jv_write: how `gpuprof diff` reads the analysis.json of
 * either side. Strict JSON (what nsys_analysis_check accepts); depth at
 * most LIM_JSON_DEPTH; every string and number as jscan reads it. */
#include <math.h>
#include <string.h>

#include "core/limits.h"
#include "json/jscan.h"
#include "nsys/nsys.h"

struct jp {
	struct jscan j;
	struct arena *a;
	const char *name;
	size_t len;
};

static int jp_fail(struct jp *p, int rc)
{
	struct err *e = p->j.e;
	if (rc == JS_MORE)
		return err_set(e, ERR_FORMAT, p->name, (int64_t)p->len,
			       "not valid JSON: the text ends inside the value (cut short?)");
	if (rc == ERR_NOMEM)
		return err_set(e, ERR_NOMEM, p->name, -1, "out of memory");
	char msg[sizeof e->msg];
	snprintf(msg, sizeof msg, "%s", e->msg);
	return err_set(e, ERR_FORMAT, p->name, e->offset, "not valid JSON: %s", msg);
}

/* A string token at j.p, decoded into the arena. */
static int jp_string(struct jp *p, const char **out)
{
	struct jstr s;
	int rc = jscan_string(&p->j, &s);
	if (rc)
		return rc;
	char *buf = arena_alloc(p->a, s.len + 1);
	if (!buf)
		return ERR_NOMEM;
	long n = (long)s.len;
	if (s.escaped)
		n = jscan_unescape(&s, buf, s.len + 1);
	else
		memcpy(buf, s.s, s.len);
	if (n < 0)
		return jscan_error(&p->j, s.s, "an invalid escape in a string");
	buf[n] = 0;
	*out = buf;
	return 0;
}

static int jp_literal(struct jp *p, const char *word, struct nsys_jv **out, enum nsys_jv_kind kind,
		      bool b)
{
	size_t n = strlen(word);
	if ((size_t)(p->j.end - p->j.p) < n)
		return JS_MORE;
	if (memcmp(p->j.p, word, n))
		return jscan_error(&p->j, p->j.p, "expected a value");
	p->j.p += n;
	if (!(*out = nsys_jv_new(p->a, kind)))
		return ERR_NOMEM;
	(*out)->b = b;
	return 0;
}

static int jp_number(struct jp *p, struct nsys_jv **out)
{
	struct jstr t;
	int rc = jscan_number(&p->j, &t);
	if (rc)
		return rc;
	bool integral =
	    !memchr(t.s, '.', t.len) && !memchr(t.s, 'e', t.len) && !memchr(t.s, 'E', t.len);
	int64_t i;
	double f;
	if (integral && !jnum_i64(t.s, t.len, &i))
		*out = nsys_jv_int(p->a, i);
	else if (!jnum_f64(t.s, t.len, &f) && isfinite(f)) /* 3e444444 is no number JSON writes */
		*out = nsys_jv_float(p->a, f);
	else
		return jscan_error(&p->j, t.s, "a number out of range");
	return *out ? 0 : ERR_NOMEM;
}

static int jp_value(struct jp *p, int depth, struct nsys_jv **out);

/* An object or an array at j.p ('{' or '['). */
static int jp_container(struct jp *p, int depth, struct nsys_jv **out)
{
	bool obj = *p->j.p == '{';
	char close = obj ? '}' : ']';
	if (depth >= LIM_JSON_DEPTH)
		return jscan_error(&p->j, p->j.p, "nested deeper than %d levels", LIM_JSON_DEPTH);
	struct nsys_jv *c = nsys_jv_new(p->a, obj ? NSYS_JOBJ : NSYS_JARR);
	if (!c)
		return ERR_NOMEM;
	p->j.p++;
	int rc = jscan_ws(&p->j);
	if (rc)
		return rc;
	bool closed = *p->j.p == close;
	if (closed)
		p->j.p++;
	while (!closed) {
		const char *key = NULL;
		struct nsys_jv *v;
		if ((rc = jscan_ws(&p->j)))
			return rc;
		if (obj && *p->j.p != '"')
			return jscan_error(&p->j, p->j.p, "expected a string key");
		if (obj && ((rc = jp_string(p, &key)) || (rc = jscan_colon(&p->j))))
			return rc;
		if ((rc = jp_value(p, depth + 1, &v)))
			return rc;
		/* a repeated key keeps both: a reader takes the first */
		if (obj ? nsys_jv_add(p->a, c, key, v) : nsys_jv_push(p->a, c, v))
			return ERR_NOMEM;
		if ((rc = jscan_next(&p->j, close, &closed)))
			return rc;
	}
	*out = c;
	return 0;
}

static int jp_value(struct jp *p, int depth, struct nsys_jv **out)
{
	int rc = jscan_ws(&p->j);
	if (rc)
		return rc;
	switch (jscan_kind(*p->j.p)) {
	case JK_OBJECT:
	case JK_ARRAY:
		return jp_container(p, depth, out);
	case JK_STRING: {
		const char *s;
		if ((rc = jp_string(p, &s)))
			return rc;
		return (*out = nsys_jv_str(p->a, s)) ? 0 : ERR_NOMEM;
	}
	case JK_NUMBER:
		return jp_number(p, out);
	case JK_TRUE:
		return jp_literal(p, "true", out, NSYS_JBOOL, true);
	case JK_FALSE:
		return jp_literal(p, "false", out, NSYS_JBOOL, false);
	case JK_NULL:
		return jp_literal(p, "null", out, NSYS_JNULL, false);
	default:
		return jscan_error(&p->j, p->j.p, "expected a value");
	}
}

int nsys_jv_parse(struct arena *a, const char *text, size_t len, const char *name,
		  struct nsys_jv **out, struct err *e)
{
	struct jp p = {.j = {.base = text,
			     .p = text,
			     .end = text + len,
			     .path = name,
			     .tolerated_off = -1,
			     .e = e},
		       .a = a,
		       .name = name,
		       .len = len};
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
		p.j.p += 3;
	int rc = jp_value(&p, 0, out);
	if (rc)
		return jp_fail(&p, rc);
	if (!jscan_ws(&p.j))
		return err_set(e, ERR_FORMAT, name, jscan_off(&p.j, p.j.p),
			       "not valid JSON: more text after the value");
	if (p.j.tolerated)
		return err_set(e, ERR_FORMAT, name, p.j.tolerated_off,
			       "not valid JSON: NaN, Infinity or a trailing comma");
	return 0;
}
