/* jscan: a pull scanner for JSON text held in one contiguous window.
 *
 * The caller owns the bytes; the scanner reads [p, end) and never looks past
 * end. Inputs arrive in chunks, so every primitive can answer JS_MORE ("the
 * window ended before this token did"): the caller then keeps the bytes from
 * the start of the record it was reading, appends more input, and re-reads
 * that record. Records (one trace event, one top-level value) are re-read
 * whole, so no token state survives a refill. At the true end of input
 * JS_MORE means the text is cut short.
 *
 * Syntax errors return JS_ERR with *e filled (message and absolute byte
 * offset = base_off + position in the window). Limits: depth
 * LIM_JSON_DEPTH, strings LIM_STRING_BYTES, numbers LIM_NUMBER_CHARS.
 * Tolerated out-of-spec forms (counted in `tolerated`): NaN, Infinity,
 * -Infinity and a bare N/A as values; a trailing comma before ']' or '}'.
 * A raw NUL byte inside a string marks it `escaped` (to be decoded), so a
 * caller that stores it can tell; invalid escapes and NULs are counted by
 * the callers that decode strings (bad_escapes, nul_strings), with the
 * scanner's other counts, so that a record re-read after a refill is
 * counted once (jscan_mark / jscan_rewind). Depends on core only.
 */
#ifndef GP_JSCAN_H
#define GP_JSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/err.h"
#include "core/limits.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum { JS_OK = 0, JS_MORE = 1, JS_ERR = -1 };

struct jscan {
	const char *p, *end;   /* unread window */
	const char *base;      /* start of the window's buffer */
	int64_t base_off;      /* stream offset of base */
	const char *path;      /* for error messages */
	bool uncompressed;     /* offsets count decompressed bytes */
	unsigned tolerated;    /* out-of-spec forms accepted so far */
	int64_t tolerated_off; /* offset of the first of them, -1 when none */
	unsigned bad_escapes;  /* strings with an invalid escape (kept as written) */
	int64_t bad_escape_off;
	unsigned nul_strings; /* strings holding a NUL byte (raw or \u0000) */
	int64_t nul_off;
	struct err *e;
	uint8_t simd; /* 0: the widest vector code the CPU runs; else at most
		       * this enum jscan_simd level (tests compare the levels) */
};

/* The scanning kernels, narrowest first. Every level gives the same
 * answers; wider ones read 16, 32 or 64 bytes at once, never past the
 * window's end (the last bytes of a window go by narrower steps). */
enum jscan_simd { JSCAN_AUTO = 0, JSCAN_SCALAR, JSCAN_SSE2, JSCAN_AVX2, JSCAN_AVX512 };

/* The widest level this CPU runs (AVX-512BW, AVX2, SSE2, scalar). */
int jscan_simd_best(void);

/* Byte classes: one table load instead of a chain of compares. */
enum { JSCAN_C_WS = 1, JSCAN_C_NUM = 2 };
extern const uint8_t jscan_class[256];

/* The counts of a jscan at the start of a record, to take back what a
 * record counted when it is re-read after a refill. */
struct jscan_marks {
	unsigned tolerated, bad_escapes, nul_strings;
};
static inline struct jscan_marks jscan_mark(const struct jscan *j)
{
	return (struct jscan_marks){j->tolerated, j->bad_escapes, j->nul_strings};
}
static inline void jscan_rewind(struct jscan *j, struct jscan_marks m)
{
	j->tolerated = m.tolerated;
	j->bad_escapes = m.bad_escapes;
	j->nul_strings = m.nul_strings;
}

/* k more of a count, the first of them at offset off, keeping the smallest
 * offset (a record re-read after a refill does not move it). */
static inline void jscan_count(unsigned *n, int64_t *first, unsigned k, int64_t off)
{
	if (!k)
		return;
	if (!*n || off < *first)
		*first = off;
	*n += k;
}

/* A string value as found in the text (without quotes). */
struct jstr {
	const char *s;
	size_t len;
	bool escaped; /* contains backslash escapes or a NUL byte: decode it
		       * (jscan_unescape) */
};

/* Kinds of value, from the first byte. */
enum jkind { JK_OBJECT, JK_ARRAY, JK_STRING, JK_NUMBER, JK_TRUE, JK_FALSE, JK_NULL, JK_BAD };

/* Offset of pointer q in the stream. */
static inline int64_t jscan_off(const struct jscan *j, const char *q)
{
	return j->base_off + (q - j->base);
}

int jscan_error(struct jscan *j, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Counts an out-of-spec form at 'at' (keeping the smallest offset, so a
 * record re-read after a refill does not move it). */
static inline void jscan_tolerate(struct jscan *j, const char *at)
{
	jscan_count(&j->tolerated, &j->tolerated_off, 1, jscan_off(j, at));
}

/* The first byte of [p, end) that is not whitespace, or end; level as in
 * struct jscan. */
const char *jscan_ws_run(int level, const char *p, const char *end);
/* The first '"', '\\' or NUL byte in [p, end), or end. */
const char *jscan_quote_run(int level, const char *p, const char *end);

static inline bool jscan_is_ws(char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* Skips whitespace; JS_MORE when the window ends. Pretty-printed traces
 * have long indentation runs, which jscan_ws_run skips 16 to 64 bytes at a
 * time. */
static inline int jscan_ws(struct jscan *j)
{
	const char *p = j->p;
	if (p < j->end && !jscan_is_ws(*p))
		return JS_OK;
	if (p + 1 < j->end && *p == ' ' && !jscan_is_ws(p[1])) { /* one space: the usual case */
		j->p = p + 1;
		return JS_OK;
	}
	p = jscan_ws_run(j->simd, p, j->end);
	j->p = p;
	return p < j->end ? JS_OK : JS_MORE;
}

/* Expects byte c (after whitespace) and consumes it. */
int jscan_expect(struct jscan *j, char c);
/* The error for a string over LIM_STRING_BYTES. */
int jscan_long_string(struct jscan *j);

#if defined(__SSE2__)
/* Bit i set when byte i of v is '"', '\\' or NUL; *quotes: the '"' bits. */
static inline unsigned jscan_stops16(__m128i v, unsigned *quotes)
{
	__m128i q = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
	*quotes = (unsigned)_mm_movemask_epi8(q);
	return (unsigned)_mm_movemask_epi8(
	    _mm_or_si128(_mm_or_si128(q, _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
			 _mm_cmpeq_epi8(v, _mm_setzero_si128())));
}
#endif

/* The first '"', '\\' or NUL byte in [p, end), or end: the first 16 bytes
 * inline (most keys and names are shorter), the rest by jscan_quote_run. */
static inline const char *jscan_find_quote_or_bs(int level, const char *p, const char *end)
{
#if defined(__SSE2__)
	if (end - p >= 16) {
		unsigned quotes;
		unsigned m =
		    jscan_stops16(_mm_loadu_si128((const __m128i *)(const void *)p), &quotes);
		if (m)
			return p + __builtin_ctz(m);
		p += 16;
	}
#endif
	return jscan_quote_run(level, p, end);
}

/* The general path of jscan_string: escapes, NULs, long strings, the
 * window's end. */
int jscan_string_slow(struct jscan *j, struct jstr *out);

/* Reads a string; j->p must be at the opening quote. A plain string that
 * ends within 16 bytes (most keys and names) is read by one probe. */
static inline int jscan_string(struct jscan *j, struct jstr *out)
{
#if defined(__SSE2__)
	const char *start = j->p + 1;
	if (j->end - start >= 16) {
		unsigned quotes;
		unsigned m =
		    jscan_stops16(_mm_loadu_si128((const __m128i *)(const void *)start), &quotes);
		if ((m & -m) & quotes) { /* the first stop byte is a quote */
			size_t n = (size_t)__builtin_ctz(m);
			out->s = start;
			out->len = n;
			out->escaped = false;
			j->p = start + n + 1;
			return JS_OK;
		}
	}
#endif
	return jscan_string_slow(j, out);
}

/* Reads a number token (also NaN/Infinity/-Infinity) as text. */
int jscan_number(struct jscan *j, struct jstr *out);
/* Skips one value of any kind (depth-limited). */
int jscan_skip(struct jscan *j);
/* What kind of value starts with byte c. */
static inline enum jkind jscan_kind(char c)
{
	if ((unsigned)(c - '0') < 10 || c == '-' || c == 'N' || c == 'I')
		return JK_NUMBER;
	switch (c) {
	case '"':
		return JK_STRING;
	case '{':
		return JK_OBJECT;
	case '[':
		return JK_ARRAY;
	case 't':
		return JK_TRUE;
	case 'f':
		return JK_FALSE;
	case 'n':
		return JK_NULL;
	default:
		return JK_BAD;
	}
}
int jscan_next_slow(struct jscan *j, char close, bool *closed);

/* After a member value inside an object/array: consumes ',' (returning
 * JS_OK with *closed false) or the closing byte (returning JS_OK with *closed
 * true). A trailing comma before the close is tolerated and consumed. */
static inline int jscan_next(struct jscan *j, char close, bool *closed)
{
	const char *p = j->p;
	if (p + 2 < j->end) {
		if (*p == ',') {
			/* ",x" or ", x" where x starts a member: the usual case;
			 * ",\n    x" in pretty-printed files */
			const char *q = p + 1 + (p[1] == ' ');
			if (jscan_is_ws(*q)) {
				q = jscan_ws_run(j->simd, q, j->end);
				if (q >= j->end)
					return jscan_next_slow(j, close, closed);
			}
			if (*q != close && *q != ',') {
				j->p = q;
				*closed = false;
				return JS_OK;
			}
		} else if (*p == close) { /* the close right after the last member */
			j->p = p + 1;
			*closed = true;
			return JS_OK;
		}
	}
	return jscan_next_slow(j, close, closed);
}

/* Consumes the ':' after a key and the whitespace after it. */
static inline int jscan_colon(struct jscan *j)
{
	const char *p = j->p;
	if (p + 2 < j->end && *p == ':') {
		const char *q = p + 1 + (p[1] == ' ');
		if (!jscan_is_ws(*q)) {
			j->p = q;
			return JS_OK;
		}
	}
	int rc = jscan_expect(j, ':');
	return rc ? rc : jscan_ws(j);
}

static inline bool jscan_is_numchar(char c)
{
	return jscan_class[(unsigned char)c] & JSCAN_C_NUM;
}

/* One-pass readers for the common forms of trace numbers: a plain integer
 * (up to 18 digits), and microseconds with up to 3 decimals. They return
 * true when they consumed the number; false (j->p unchanged) sends the
 * caller to the general path (jscan_number + jnum_*), which handles every
 * other form and every error. Away from the window's end they take the
 * digits eight at a time (jscan_digits8); the _tail forms read the last
 * bytes of a window one at a time and decide the same way. */
static inline bool jscan_fast_i64_tail(struct jscan *j, int64_t *v)
{
	const char *p = j->p, *end = j->end;
	bool neg = p < end && *p == '-';
	p += neg;
	const char *d = p, *lim = end - p > 18 ? p + 18 : end;
	uint64_t x = 0;
	while (p < lim && (unsigned)(*p - '0') < 10)
		x = x * 10 + (uint64_t)(*p++ - '0');
	if (p == d || p >= end || jscan_is_numchar(*p))
		return false;
	*v = neg ? -(int64_t)x : (int64_t)x;
	j->p = p;
	return true;
}

/* Eight ASCII digits at p as a number, or -1 when they are not all digits:
 * the usual SWAR steps (check, subtract '0', combine pairs, quads, octets). */
static inline int64_t jscan_8digits(const char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	if (((v & 0xF0F0F0F0F0F0F0F0ull) |
	     (((v + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4)) != 0x3333333333333333ull)
		return -1;
	v -= 0x3030303030303030ull;
	v = (v * 10) + (v >> 8);
	v = (((v & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
	     (((v >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >>
	    32;
	return (int64_t)v;
}

/* The run of up to eight ASCII digits at p (8 readable bytes): its length,
 * and its value in *val. Bytes are compared with '0'..'9' all at once; the
 * digits are moved to the top of the word (zeros before them) and combined
 * as in jscan_8digits. A carry out of a non-digit byte can only disturb the
 * bytes after it, which do not count. */
static inline int jscan_digits8(const char *p, uint64_t *val)
{
	uint64_t v;
	memcpy(&v, p, 8);
	v ^= 0x3030303030303030ull; /* digits -> 0..9, nothing else below 16 */
	uint64_t bad = (v | (v + 0x0606060606060606ull)) & 0xF0F0F0F0F0F0F0F0ull;
	int n = bad ? __builtin_ctzll(bad) >> 3 : 8;
	*val = 0;
	if (!n)
		return 0;
	v <<= 8 * (8 - n);
	v = (v * 10) + (v >> 8);
	*val = (((v & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
		(((v >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >>
	       32;
	return n;
}

static const uint64_t jscan_pow10[9] = {1,	10,	 100,	   1000,     10000,
					100000, 1000000, 10000000, 100000000};

static inline bool jscan_fast_i64(struct jscan *j, int64_t *v)
{
	const char *p = j->p, *end = j->end;
	bool neg = p < end && *p == '-';
	p += neg;
	if (end - p < 24)
		return jscan_fast_i64_tail(j, v);
	uint64_t x, y;
	int n = jscan_digits8(p, &x);
	if (!n)
		return false;
	p += n;
	if (n == 8) { /* up to 18 digits, as the tail form */
		n = jscan_digits8(p, &y);
		x = x * jscan_pow10[n] + y;
		p += n;
		if (n == 8) {
			if ((n = jscan_digits8(p, &y)) > 2)
				return false;
			x = x * jscan_pow10[n] + y;
			p += n;
		}
	}
	if (jscan_is_numchar(*p))
		return false;
	*v = neg ? -(int64_t)x : (int64_t)x;
	j->p = p;
	return true;
}

static inline bool jscan_fast_us_tail(struct jscan *j, int64_t *ns)
{
	const char *p = j->p, *end = j->end;
	bool neg = p < end && *p == '-';
	p += neg;
	const char *d = p, *lim = end - p > 16 ? p + 16 : end;
	uint64_t x = 0;
	/* Timestamps have 10+ integer digits: take the first eight at once. */
	int64_t eight = end - p >= 16 ? jscan_8digits(p) : -1;
	if (eight >= 0) {
		x = (uint64_t)eight;
		p += 8;
	}
	while (p < lim && (unsigned)(*p - '0') < 10)
		x = x * 10 + (uint64_t)(*p++ - '0');
	if (p == d || p >= end)
		return false;
	int frac = 0;
	if (*p == '.') {
		p++;
		while (p < end && (unsigned)(*p - '0') < 10 && frac < 3) {
			x = x * 10 + (uint64_t)(*p++ - '0');
			frac++;
		}
		if (!frac)
			return false;
	}
	if (p >= end || jscan_is_numchar(*p))
		return false;
	for (; frac < 3; frac++)
		x *= 10;
	if (x > (uint64_t)INT64_MAX) /* below 10^19: no wrap */
		return false;
	*ns = neg ? -(int64_t)x : (int64_t)x;
	j->p = p;
	return true;
}

static inline bool jscan_fast_us(struct jscan *j, int64_t *ns)
{
	const char *p = j->p, *end = j->end;
	bool neg = p < end && *p == '-';
	p += neg;
	if (end - p < 25)
		return jscan_fast_us_tail(j, ns);
	uint64_t x, y;
	int n = jscan_digits8(p, &x);
	if (!n)
		return false;
	p += n;
	if (n == 8) { /* up to 15 integer digits here; 16 (epoch microseconds) by the tail form */
		if ((n = jscan_digits8(p, &y)) == 8)
			return jscan_fast_us_tail(j, ns);
		x = x * jscan_pow10[n] + y;
		p += n;
	}
	int frac = 0;
	if (*p == '.') {
		frac = jscan_digits8(p + 1, &y);
		if (!frac || frac > 3)
			return false;
		x = x * jscan_pow10[frac] + y;
		p += 1 + frac;
	}
	if (jscan_is_numchar(*p))
		return false;
	*ns = (neg ? -(int64_t)x : (int64_t)x) * (int64_t)jscan_pow10[3 - frac];
	j->p = p;
	return true;
}

/* Decodes escapes of s into out (cap bytes, UTF-8). Returns the length or -1
 * when an escape is invalid or out is too small. */
long jscan_unescape(const struct jstr *s, char *out, size_t cap);

/* Number conversions of a number token's text. All return 0 on success and
 * -1 when the text is not a number of that kind or out of range. */

/* Microseconds as decimal text -> integer nanoseconds, exactly: digits past
 * the third decimal are rounded half away from zero; exponents allowed. Never
 * goes through a double. */
int jnum_us_to_ns(const char *s, size_t len, int64_t *ns);
/* Integer (an integral value written as 12, 12.0 or 1.2e1 is accepted). */
int jnum_i64(const char *s, size_t len, int64_t *v);
/* Double, correctly rounded (NaN/Infinity accepted). */
int jnum_f64(const char *s, size_t len, double *v);

#endif
