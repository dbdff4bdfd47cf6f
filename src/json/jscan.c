/* jscan: JSON scanning primitives over a window; see jscan.h.
 *
 * Written here rather than taken from a library because the trace reader
 * needs resumable, zero-copy scanning of multi-GB streams with exact
 * integer timestamps, which DOM parsers (and their doubles) do not give. */
#include "json/jscan.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/limits.h"

int jscan_error(struct jscan *j, const char *at, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	err_set(j->e, ERR_FORMAT, j->path, jscan_off(j, at), "%s", msg);
	err_mark_uncompressed(j->e, j->uncompressed);
	return JS_ERR;
}

/* What stands at 'at', for "found ..." (buf: room for a quoted byte). */
static const char *describe(const struct jscan *j, const char *at, char *buf, size_t n)
{
	if (at >= j->end)
		return "end of input";
	switch (*at) {
	case '{':
		return "'{'";
	case '}':
		return "'}'";
	case '[':
		return "'['";
	case ']':
		return "']'";
	case ',':
		return "','";
	case ':':
		return "':'";
	case '"':
		return "a string";
	default:
		if ((*at >= '0' && *at <= '9') || *at == '-')
			return "a number";
		char q[8];
		snprintf(buf, n, "an unexpected byte '%s'", err_quote(q, sizeof q, at, 1));
		return buf;
	}
}

int jscan_long_string(struct jscan *j)
{
	return jscan_error(j, j->p, "string longer than %u bytes", LIM_STRING_BYTES);
}

int jscan_string_slow(struct jscan *j, struct jstr *out)
{
	const char *start = j->p + 1, *p = start, *end = j->end;
	bool escaped = false;
	for (;;) {
		p = jscan_find_quote_or_bs(j->simd, p, end);
		if (p >= end)
			goto more;
		if (*p == '"')
			break;
		escaped = true; /* a NUL: decode it; a backslash: skip the escaped byte */
		p += *p ? 2 : 1;
		if (p > end)
			goto more;
	}
	if ((size_t)(p - start) > LIM_STRING_BYTES)
		return jscan_long_string(j);
	out->s = start;
	out->len = (size_t)(p - start);
	out->escaped = escaped;
	j->p = p + 1;
	return JS_OK;
more:
	if ((size_t)(end - start) > LIM_STRING_BYTES)
		return jscan_long_string(j);
	return JS_MORE;
}

int jscan_expect(struct jscan *j, char c)
{
	char what[32];
	if (jscan_ws(j))
		return JS_MORE;
	if (*j->p != c)
		return jscan_error(j, j->p, "expected '%c', found %s", c,
				   describe(j, j->p, what, sizeof what));
	j->p++;
	return JS_OK;
}

/* Matches a literal word at p; JS_MORE when the window cuts it. */
static int match_word(struct jscan *j, const char *w, size_t n)
{
	size_t have = (size_t)(j->end - j->p);
	if (have < n)
		return memcmp(j->p, w, have) ? jscan_error(j, j->p, "invalid literal") : JS_MORE;
	if (memcmp(j->p, w, n))
		return jscan_error(j, j->p, "invalid literal");
	j->p += n;
	return JS_OK;
}

int jscan_number(struct jscan *j, struct jstr *out)
{
	const char *start = j->p, *p = start, *end = j->end;
	if (*p == 'N' || *p == 'I' || (*p == '-' && p + 1 < end && p[1] == 'I')) {
		const char *w = *p == 'N' ? "NaN" : *p == 'I' ? "Infinity" : "-Infinity";
		int rc = match_word(j, w, strlen(w));
		if (rc)
			return rc;
		jscan_tolerate(j, start);
		out->s = start;
		out->len = (size_t)(j->p - start);
		out->escaped = false;
		return JS_OK;
	}
	while (p < end && jscan_is_numchar(*p))
		p++;
	if (p >= end)
		return (p - start) > LIM_NUMBER_CHARS
			   ? jscan_error(j, start, "number longer than %d characters",
					 LIM_NUMBER_CHARS)
			   : JS_MORE; /* the same error wherever the window ends */
	if (p == start)
		return jscan_error(j, start, "expected a number");
	if (p - start > LIM_NUMBER_CHARS)
		return jscan_error(j, start, "number longer than %d characters", LIM_NUMBER_CHARS);
	out->s = start;
	out->len = (size_t)(p - start);
	out->escaped = false;
	j->p = p;
	return JS_OK;
}

int jscan_next_slow(struct jscan *j, char close, bool *closed)
{
	char what[32];
	if (jscan_ws(j))
		return JS_MORE;
	if (*j->p == close) {
		j->p++;
		*closed = true;
		return JS_OK;
	}
	if (*j->p != ',')
		return jscan_error(j, j->p, "expected ',' or '%c', found %s", close,
				   describe(j, j->p, what, sizeof what));
	const char *comma = j->p++;
	if (jscan_ws(j))
		return JS_MORE;
	if (*j->p == close) { /* trailing comma */
		jscan_tolerate(j, comma);
		j->p++;
		*closed = true;
		return JS_OK;
	}
	*closed = false;
	return JS_OK;
}

static int skip_scalar(struct jscan *j)
{
	char what[32];
	struct jstr s;
	if (*j->p == 'N' && (j->end - j->p < 2 || j->p[1] == '/')) { /* old Kineto's bare N/A */
		const char *at = j->p;
		int rc = match_word(j, "N/A", 3);
		if (!rc)
			jscan_tolerate(j, at);
		return rc;
	}
	switch (jscan_kind(*j->p)) {
	case JK_STRING:
		return jscan_string(j, &s);
	case JK_NUMBER:
		return jscan_number(j, &s);
	case JK_TRUE:
		return match_word(j, "true", 4);
	case JK_FALSE:
		return match_word(j, "false", 5);
	case JK_NULL:
		return match_word(j, "null", 4);
	default:
		return jscan_error(j, j->p, "expected a value, found %s",
				   describe(j, j->p, what, sizeof what));
	}
}

/* Whitespace at p, usually none or one byte, else a run. */
static inline const char *fast_ws(int level, const char *p, const char *end)
{
	if (p < end && jscan_is_ws(*p))
		p = p + 1 < end && !jscan_is_ws(p[1]) ? p + 1 : jscan_ws_run(level, p, end);
	return p;
}

/* The end of the string whose opening quote is at p, as jscan_string reads
 * it, or NULL when the window ends first or it is over the limit. */
static inline const char *fast_string(int level, const char *p, const char *end)
{
	const char *s = p + 1, *q = s;
	for (;;) {
		q = jscan_find_quote_or_bs(level, q, end);
		if (q >= end)
			return NULL;
		if (*q == '"')
			break;
		q += *q ? 2 : 1;
		if (q > end)
			return NULL;
	}
	return (size_t)(q - s) > LIM_STRING_BYTES ? NULL : q + 1;
}

/* The usual forms of a skipped container (arguments: shapes, strides,
 * concrete inputs) read by one tight loop over a local pointer: numbers,
 * strings, true/false/null, nested arrays and objects. It returns the end
 * of the value, or NULL for anything else (a syntax error, a tolerated
 * form, the window's end, a limit): jscan_skip then reads the value again
 * by the general loop, which decides and counts. Everything accepted here
 * the general loop accepts the same way, ending at the same byte. */
static const char *skip_fast(int level, const char *p, const char *end)
{
	char stack[LIM_JSON_DEPTH];
	int depth = 0;
	for (;;) {
		/* expecting a value (whitespace before it skipped below) */
		p = fast_ws(level, p, end);
		if (p >= end)
			return NULL;
		char c = *p;
		if (c == '[' || c == '{') {
			if (depth == LIM_JSON_DEPTH)
				return NULL;
			stack[depth++] = (char)(c + 2); /* ']' and '}' follow '[' and '{' by 2 */
			p = fast_ws(level, p + 1, end);
			if (p >= end)
				return NULL;
			if (*p == stack[depth - 1]) {
				p++;
				depth--;
			} else if (c == '[') {
				continue;
			} else {
				goto key;
			}
		} else if (c == '"') {
			if (!(p = fast_string(level, p, end)))
				return NULL;
		} else if ((unsigned)(c - '0') < 10 ||
			   (c == '-' && p + 1 < end && (unsigned)(p[1] - '0') < 10)) {
			const char *s = p++;
			while (p < end && jscan_is_numchar(*p))
				p++;
			if (p >= end || p - s > LIM_NUMBER_CHARS)
				return NULL;
		} else if (end - p >= 5 && (!memcmp(p, "true", 4) || !memcmp(p, "null", 4))) {
			p += 4;
		} else if (end - p >= 6 && !memcmp(p, "false", 5)) {
			p += 5;
		} else {
			return NULL;
		}
		/* after a value: ',' or closes */
		for (;;) {
			if (!depth)
				return p;
			p = fast_ws(level, p, end);
			if (p >= end)
				return NULL;
			if (*p == stack[depth - 1]) {
				p++;
				depth--;
				continue;
			}
			if (*p != ',')
				return NULL;
			p = fast_ws(level, p + 1, end);
			if (p >= end ||
			    *p == stack[depth - 1]) /* a trailing comma: counted there */
				return NULL;
			break;
		}
		if (stack[depth - 1] == ']')
			continue;
	key:
		if (*p != '"' || !(p = fast_string(level, p, end)))
			return NULL;
		p = fast_ws(level, p, end);
		if (p >= end || *p != ':')
			return NULL;
		p++;
	}
}

/* Iterative skip: a stack of closers, so nesting costs no C stack. One
 * loop reads every token, numbers inline, so skipping the arguments a
 * reader does not need (shapes, strides, concrete inputs) stays cheap. The
 * grammar is checked as fully as by a parser: a value where a value may
 * stand, ',' or a close after it, string keys and ':' in objects. */
int jscan_skip(struct jscan *j)
{
	char what[32];
	char stack[LIM_JSON_DEPTH];
	int depth = 0;
	const char *end = j->end;
	if (j->p < end && (*j->p == '[' || *j->p == '{')) {
		const char *q = skip_fast(j->simd, j->p, end);
		if (q) {
			j->p = q;
			return JS_OK;
		}
	}
	for (;;) {
		/* expecting a value */
		if (jscan_ws(j))
			return JS_MORE;
		char c = *j->p;
		if (c == '{' || c == '[') {
			if (depth == LIM_JSON_DEPTH)
				return jscan_error(j, j->p, "nesting deeper than %d",
						   LIM_JSON_DEPTH);
			stack[depth++] = c == '{' ? '}' : ']';
			j->p++;
			if (jscan_ws(j))
				return JS_MORE;
			if (*j->p == stack[depth - 1]) {
				j->p++;
				depth--;
				goto after_value;
			}
			if (c == '[')
				continue;
		} else if ((unsigned)(c - '0') < 10 ||
			   (c == '-' && j->p + 1 < end && j->p[1] != 'I')) {
			const char *p = j->p + 1;
			while (p < end && jscan_is_numchar(*p))
				p++;
			if (p >= end)
				return JS_MORE;
			if (p - j->p > LIM_NUMBER_CHARS)
				return jscan_error(j, j->p, "number longer than %d characters",
						   LIM_NUMBER_CHARS);
			j->p = p;
			goto after_value;
		} else {
			int rc = skip_scalar(j);
			if (rc)
				return rc;
			goto after_value;
		}
		/* in a new object, at its first key */
		struct jstr key;
		if (*j->p != '"')
			return jscan_error(j, j->p, "expected a string key, found %s",
					   describe(j, j->p, what, sizeof what));
		int krc = jscan_string(j, &key);
		if (!krc)
			krc = jscan_colon(j);
		if (krc)
			return krc;
		continue;
	after_value:
		while (depth) {
			bool closed;
			int rc = jscan_next(j, stack[depth - 1], &closed);
			if (rc)
				return rc;
			if (!closed) {
				if (stack[depth - 1] == '}') {
					/* next member: key, then its value */
					struct jstr k = {0};
					if (jscan_ws(j))
						return JS_MORE;
					if (*j->p != '"')
						return jscan_error(
						    j, j->p, "expected a string key, found %s",
						    describe(j, j->p, what, sizeof what));
					if ((rc = jscan_string(j, &k)) || (rc = jscan_colon(j)))
						return rc;
				}
				break;
			}
			depth--;
		}
		if (!depth)
			return JS_OK;
	}
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static long read_hex4(const char *p, const char *end)
{
	if (end - p < 4)
		return -1;
	long v = 0;
	for (int i = 0; i < 4; i++) {
		int h = hexval(p[i]);
		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

long jscan_unescape(const struct jstr *s, char *out, size_t cap)
{
	const char *p = s->s, *end = s->s + s->len;
	size_t n = 0;
	while (p < end) {
		unsigned long cp;
		if (*p != '\\') {
			if (n >= cap)
				return -1;
			out[n++] = *p++;
			continue;
		}
		if (end - p < 2)
			return -1;
		char c = p[1];
		p += 2;
		switch (c) {
		case '"':
			cp = '"';
			break;
		case '\\':
			cp = '\\';
			break;
		case '/':
			cp = '/';
			break;
		case 'b':
			cp = '\b';
			break;
		case 'f':
			cp = '\f';
			break;
		case 'n':
			cp = '\n';
			break;
		case 'r':
			cp = '\r';
			break;
		case 't':
			cp = '\t';
			break;
		case 'u': {
			long hi = read_hex4(p, end);
			if (hi < 0)
				return -1;
			p += 4;
			cp = (unsigned long)hi;
			if (hi >= 0xD800 && hi < 0xDC00 && end - p >= 6 && p[0] == '\\' &&
			    p[1] == 'u') {
				long lo = read_hex4(p + 2, end);
				if (lo >= 0xDC00 && lo < 0xE000) {
					cp = 0x10000 + (((unsigned long)hi - 0xD800) << 10) +
					     ((unsigned long)lo - 0xDC00);
					p += 6;
				}
			}
			if (cp >= 0xD800 && cp < 0xE000)
				cp = 0xFFFD; /* lone surrogate */
			break;
		}
		default:
			return -1;
		}
		char tmp[4];
		size_t k;
		if (cp < 0x80) {
			tmp[0] = (char)cp;
			k = 1;
		} else if (cp < 0x800) {
			tmp[0] = (char)(0xC0 | (cp >> 6));
			tmp[1] = (char)(0x80 | (cp & 0x3F));
			k = 2;
		} else if (cp < 0x10000) {
			tmp[0] = (char)(0xE0 | (cp >> 12));
			tmp[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
			tmp[2] = (char)(0x80 | (cp & 0x3F));
			k = 3;
		} else {
			tmp[0] = (char)(0xF0 | (cp >> 18));
			tmp[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
			tmp[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
			tmp[3] = (char)(0x80 | (cp & 0x3F));
			k = 4;
		}
		if (n + k > cap)
			return -1;
		memcpy(out + n, tmp, k);
		n += k;
	}
	return (long)n;
}

/* Splits a JSON number into sign, decimal digits (leading zeros dropped,
 * at most 38 significant digits kept as an unsigned 128-bit mantissa) and a
 * power-of-ten exponent, so value = sign * mant * 10^exp10. Digits beyond
 * what fits are folded into a sticky flag for rounding. */
struct decnum {
	bool neg, sticky;
	unsigned __int128 mant;
	int ndigits; /* significant digits held in mant */
	long exp10;
};

static int split_number(const char *s, size_t len, struct decnum *d)
{
	const char *p = s, *end = s + len;
	memset(d, 0, sizeof *d);
	if (p < end && *p == '-') {
		d->neg = true;
		p++;
	}
	bool any = false;
	const unsigned __int128 lim = (unsigned __int128)1 << 120;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		any = true;
		if (d->mant < lim) {
			d->mant = d->mant * 10 + (unsigned)(*p - '0');
			if (d->mant)
				d->ndigits++;
		} else {
			d->exp10++;
			d->sticky |= *p != '0';
		}
	}
	if (p < end && *p == '.') {
		p++;
		bool frac = false;
		for (; p < end && *p >= '0' && *p <= '9'; p++) {
			frac = true;
			if (d->mant < lim) {
				d->mant = d->mant * 10 + (unsigned)(*p - '0');
				d->exp10--;
			} else {
				d->sticky |= *p != '0';
			}
		}
		if (!frac)
			return -1;
	}
	if (!any)
		return -1;
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		bool eneg = false;
		if (p < end && (*p == '+' || *p == '-'))
			eneg = *p++ == '-';
		long e = 0;
		bool edig = false;
		for (; p < end && *p >= '0' && *p <= '9'; p++) {
			edig = true;
			if (e < 100000)
				e = e * 10 + (*p - '0');
		}
		if (!edig)
			return -1;
		d->exp10 += eneg ? -e : e;
	}
	return p == end ? 0 : -1;
}

/* Scales d by 10^shift into an int64, rounding half away from zero. */
static int scale_to_i64(const struct decnum *d, long shift, bool exact_only, int64_t *out)
{
	unsigned __int128 m = d->mant;
	long e = d->exp10 + shift;
	if (m == 0) {
		*out = 0;
		return 0;
	}
	if (e > 0) {
		if (e > 38)
			return -1;
		for (long i = 0; i < e; i++) {
			if (m > ((unsigned __int128)1 << 124))
				return -1;
			m *= 10;
		}
		if (d->sticky && exact_only)
			return -1;
	} else if (e < 0) {
		/* Drop -e digits; the most significant dropped digit decides the
		 * rounding (half away from zero). */
		bool any = d->sticky;
		unsigned top = 0;
		for (long i = 0; i < -e; i++) {
			if (!m) {
				top = 0;
				break;
			}
			top = (unsigned)(m % 10);
			any |= top != 0;
			m /= 10;
		}
		if (exact_only && any)
			return -1;
		if (top >= 5)
			m++;
	}
	if (m > (unsigned __int128)INT64_MAX)
		return -1;
	*out = d->neg ? -(int64_t)m : (int64_t)m;
	return 0;
}

int jnum_us_to_ns(const char *s, size_t len, int64_t *ns)
{
	/* Fast path: plain "123456.789" with at most 3 decimals, no exponent. */
	const char *p = s, *end = s + len;
	bool neg = false;
	if (p < end && *p == '-') {
		neg = true;
		p++;
	}
	uint64_t v = 0;
	const char *digits = p;
	while (p < end && *p >= '0' && *p <= '9' && p - digits < 15)
		v = v * 10 + (uint64_t)(*p++ - '0');
	if (p > digits && p - digits < 15) {
		int frac = 0;
		if (p < end && *p == '.') {
			p++;
			while (p < end && *p >= '0' && *p <= '9' && frac < 3) {
				v = v * 10 + (uint64_t)(*p++ - '0');
				frac++;
			}
			if (frac == 0)
				return -1;
		}
		if (p == end) {
			for (; frac < 3; frac++)
				v *= 10;
			*ns = neg ? -(int64_t)v : (int64_t)v;
			return 0;
		}
	}
	struct decnum d;
	if (split_number(s, len, &d))
		return -1;
	return scale_to_i64(&d, 3, false, ns);
}

int jnum_i64(const char *s, size_t len, int64_t *v)
{
	const char *p = s, *end = s + len;
	bool neg = p < end && *p == '-';
	p += neg;
	uint64_t x = 0;
	const char *d0 = p;
	while (p < end && *p >= '0' && *p <= '9' && p - d0 < 18)
		x = x * 10 + (uint64_t)(*p++ - '0');
	if (p == end && p > d0) {
		*v = neg ? -(int64_t)x : (int64_t)x;
		return 0;
	}
	struct decnum d;
	if (split_number(s, len, &d))
		return -1;
	return scale_to_i64(&d, 0, true, v);
}

static const double pow10_tab[] = {1e0,	 1e1,  1e2,  1e3,  1e4,	 1e5,  1e6,  1e7,
				   1e8,	 1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

int jnum_f64(const char *s, size_t len, double *v)
{
	if (len == 3 && !memcmp(s, "NaN", 3)) {
		*v = NAN;
		return 0;
	}
	if (len == 8 && !memcmp(s, "Infinity", 8)) {
		*v = INFINITY;
		return 0;
	}
	if (len == 9 && !memcmp(s, "-Infinity", 9)) {
		*v = -INFINITY;
		return 0;
	}
	/* Plain decimals ("4.740741", "75"): digits read directly. */
	{
		const char *p = s, *end = s + len;
		bool neg = p < end && *p == '-';
		p += neg;
		uint64_t m = 0;
		int digits = 0, frac = 0;
		bool dot = false, ok = p < end;
		for (; p < end && ok; p++) {
			if ((unsigned)(*p - '0') < 10) {
				m = m * 10 + (uint64_t)(*p - '0');
				digits++;
				frac += dot;
			} else if (*p == '.' && !dot) {
				dot = true;
			} else {
				ok = false;
			}
		}
		if (ok && digits && digits <= 15 && (!dot || frac) && frac <= 22) {
			double v_ = (double)m / pow10_tab[frac];
			*v = neg ? -v_ : v_;
			return 0;
		}
	}
	struct decnum d;
	if (split_number(s, len, &d))
		return -1;
	/* Clinger's fast path: exact mantissa and power of ten give a correctly
	 * rounded quotient/product. */
	if (!d.sticky && d.mant < ((unsigned __int128)1 << 53) && d.exp10 >= -22 && d.exp10 <= 22) {
		double m = (double)(uint64_t)d.mant;
		m = d.exp10 < 0 ? m / pow10_tab[-d.exp10] : m * pow10_tab[d.exp10];
		*v = d.neg ? -m : m;
		return 0;
	}
	char buf[LIM_NUMBER_CHARS + 1];
	if (len > LIM_NUMBER_CHARS)
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	errno = 0;
	char *endp;
	*v = strtod(buf, &endp);
	return endp == buf + len ? 0 : -1;
}
