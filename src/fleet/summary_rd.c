/* fleet/summary_rd: the reader's checked JSON values; see summary_rd.h. */
#include "fleet/summary_rd.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/vec.h"
#include "report/report.h"

int fleet_rd_bad(struct rd *d, const char *at, const char *fmt, ...)
{
	char msg[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return err_set(d->e, ERR_FORMAT, d->path, jscan_off(&d->j, at), "%s", msg);
}

/* A tokenizer answer as this reader's error. */
int fleet_rd_js_fail(struct rd *d, int rc)
{
	if (rc == JS_MORE)
		return err_set(d->e, ERR_FORMAT, d->path, (int64_t)d->len,
			       "not valid JSON: the text ends inside a value (cut short?)");
	char msg[sizeof d->e->msg];
	snprintf(msg, sizeof msg, "%s", d->e->msg);
	return err_set(d->e, ERR_FORMAT, d->path, d->e->offset, "not valid JSON: %s", msg);
}

/* Room for need elements (core/vec's doubling, capped by memory only). */
int fleet_rd_grow(void **v, size_t *cap, size_t need, size_t size)
{
	return vec_reserve_(v, cap, need, size, SIZE_MAX);
}

int fleet_rd_nomem(struct rd *d)
{
	return err_set(d->e, ERR_NOMEM, d->path, -1, "out of memory");
}

static bool fleet_rd_word(struct rd *d, const char *w)
{
	size_t n = strlen(w);
	if ((size_t)(d->j.end - d->j.p) < n || memcmp(d->j.p, w, n))
		return false;
	if ((size_t)(d->j.end - d->j.p) > n && jscan_is_numchar(d->j.p[n]))
		return false;
	d->j.p += n;
	return true;
}

/* An integer in [lo, hi]; null gives *v = null_v when nullable. */
int fleet_rd_int(struct rd *d, const char *what, int64_t lo, int64_t hi, bool nullable,
		 int64_t null_v, int64_t *v)
{
	int rc = jscan_ws(&d->j);
	if (rc)
		return fleet_rd_js_fail(d, rc);
	const char *at = d->j.p;
	if (nullable && fleet_rd_word(d, "null")) {
		*v = null_v;
		return 0;
	}
	if (jscan_kind(*at) != JK_NUMBER)
		return fleet_rd_bad(d, at, "%s: expected an integer%s", what,
				    nullable ? " or null" : "");
	struct jstr num;
	if ((rc = jscan_number(&d->j, &num)))
		return fleet_rd_js_fail(d, rc);
	if (memchr(num.s, '.', num.len) || memchr(num.s, 'e', num.len) ||
	    memchr(num.s, 'E', num.len) || jnum_i64(num.s, num.len, v))
		return fleet_rd_bad(d, at, "%s: expected an integer, not '%.*s'", what,
				    (int)(num.len < 24 ? num.len : 24), num.s);
	if (*v < lo || *v > hi)
		return fleet_rd_bad(d, at, "%s: %lld is out of range", what, (long long)*v);
	return 0;
}

int fleet_rd_bool(struct rd *d, const char *what, bool *v)
{
	int rc = jscan_ws(&d->j);
	if (rc)
		return fleet_rd_js_fail(d, rc);
	const char *at = d->j.p;
	if (fleet_rd_word(d, "true"))
		*v = true;
	else if (fleet_rd_word(d, "false"))
		*v = false;
	else
		return fleet_rd_bad(d, at, "%s: expected true or false", what);
	return 0;
}

/* s[0..n) with each ill-formed UTF-8 part replaced by U+FFFD, as the
 * writer (report's JSON strings) writes it, so that a summary read and
 * written again is the same text; malloc'd into *out (NULL when s is
 * well-formed). -1 when out of memory. */
static int fleet_rd_well_formed(const char *s, size_t n, char **out, size_t *nout)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, bad = 1, len;
	while (i < n && (len = rep_utf8_len(u + i, n - i, &bad)))
		i += len;
	*out = NULL;
	if (i >= n)
		return 0;
	char *b = malloc(n * 3 + 1); /* each bad byte at most one U+FFFD */
	if (!b)
		return -1;
	size_t k = 0;
	for (i = 0; i < n;) {
		bad = 1;
		if ((len = rep_utf8_len(u + i, n - i, &bad))) {
			memcpy(b + k, s + i, len);
			k += len;
			i += len;
		} else {
			memcpy(b + k, "\xEF\xBF\xBD", 3);
			k += 3;
			i += bad;
		}
	}
	*out = b;
	*nout = k;
	return 0;
}

/* A string interned into r's pool (null: id 0 when nullable). */
int fleet_rd_str(struct rd *d, const char *what, bool nullable, uint32_t *id)
{
	int rc = jscan_ws(&d->j);
	if (rc)
		return fleet_rd_js_fail(d, rc);
	const char *at = d->j.p;
	if (nullable && fleet_rd_word(d, "null")) {
		*id = 0;
		return 0;
	}
	if (*at != '"')
		return fleet_rd_bad(d, at, "%s: expected a string%s", what,
				    nullable ? " or null" : "");
	struct jstr s;
	if ((rc = jscan_string(&d->j, &s)))
		return fleet_rd_js_fail(d, rc);
	const char *p = s.s;
	size_t n = s.len;
	char *buf = NULL;
	if (s.escaped) {
		if (!(buf = malloc(s.len + 1)))
			return fleet_rd_nomem(d);
		long k = jscan_unescape(&s, buf, s.len + 1);
		if (k < 0) {
			free(buf);
			return fleet_rd_bad(d, at, "%s: an invalid escape in the string", what);
		}
		p = buf;
		n = (size_t)k;
	}
	if (memchr(p, 0, n)) { /* the writer's strings end at a NUL: refused */
		free(buf);
		return fleet_rd_bad(d, at, "%s: a NUL character in the string", what);
	}
	char *fixed;
	size_t nf = 0;
	if (fleet_rd_well_formed(p, n, &fixed, &nf)) {
		free(buf);
		return fleet_rd_nomem(d);
	}
	*id = fixed ? strpool_intern(&d->r->pool, fixed, nf) : strpool_intern(&d->r->pool, p, n);
	free(fixed);
	free(buf);
	return *id == UINT32_MAX ? fleet_rd_nomem(d) : 0;
}

/* Walks an object (obj) or array: each member's value goes to fn with its
 * key (objects) or index. */
int fleet_rd_walk(struct rd *d, bool obj, const char *what, fleet_rd_member_fn fn)
{
	char open = obj ? '{' : '[', close = obj ? '}' : ']';
	int rc = jscan_ws(&d->j);
	if (rc)
		return fleet_rd_js_fail(d, rc);
	if (*d->j.p != open)
		return fleet_rd_bad(d, d->j.p, "%s: expected %s", what,
				    obj ? "an object" : "an array");
	d->j.p++;
	if ((rc = jscan_ws(&d->j)))
		return fleet_rd_js_fail(d, rc);
	bool closed = *d->j.p == close;
	if (closed)
		d->j.p++;
	for (size_t i = 0; !closed; i++) {
		struct jstr key = {0};
		if (obj) {
			if ((rc = jscan_ws(&d->j)))
				return fleet_rd_js_fail(d, rc);
			if (*d->j.p != '"')
				return fleet_rd_bad(d, d->j.p, "%s: expected a string key", what);
			if ((rc = jscan_string(&d->j, &key)) || (rc = jscan_colon(&d->j)))
				return fleet_rd_js_fail(d, rc);
		}
		if ((rc = fn(d, &key, i)))
			return rc;
		if ((rc = jscan_next(&d->j, close, &closed)))
			return fleet_rd_js_fail(d, rc);
	}
	return 0;
}

int fleet_rd_skip(struct rd *d)
{
	int rc = jscan_ws(&d->j);
	if (!rc)
		rc = jscan_skip(&d->j);
	return rc ? fleet_rd_js_fail(d, rc) : 0;
}
