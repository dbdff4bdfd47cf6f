#include "core/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int err_set(struct err *e, enum err_code code, const char *path, int64_t offset, const char *fmt,
	    ...)
{
	if (!e)
		return code;
	e->code = code;
	e->offset = offset;
	e->uncompressed = false;
	snprintf(e->path, sizeof e->path, "%s", path ? path : "");
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	return code;
}

void err_mark_uncompressed(struct err *e, bool uncompressed)
{
	if (e)
		e->uncompressed = uncompressed;
}

void err_format_offset(const char *prefix, int64_t offset, bool uncompressed, char *buf,
		       size_t size)
{
	if (!size)
		return;
	if (offset < 0)
		buf[0] = 0;
	else
		snprintf(buf, size, "%sbyte %lld%s", prefix, (long long)offset,
			 uncompressed ? " (uncompressed)" : "");
}

/* The length of the well-formed UTF-8 sequence at p[0..n) (RFC 3629: no
 * overlong forms, no surrogates, at most U+10FFFF), 0 when there is none. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	size_t k = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
	if (c < 0xC2 || c > 0xF4 || n < k)
		return 0;
	unsigned lo = 0x80, hi = 0xBF; /* the range of the second byte */
	if (c == 0xE0)
		lo = 0xA0;
	else if (c == 0xED)
		hi = 0x9F;
	else if (c == 0xF0)
		lo = 0x90;
	else if (c == 0xF4)
		hi = 0x8F;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < k; i++)
		if ((p[i] & 0xC0) != 0x80)
			return 0;
	return k;
}

/* err_quote's escaping; quotes: escape backslashes and quotes too. */
static const char *escape(char *buf, size_t size, const void *s, size_t len, bool quotes)
{
	const unsigned char *p = s;
	size_t o = 0;
	if (!size)
		return buf;
	for (size_t i = 0; i < len;) {
		char tmp[8];
		size_t k = 1;
		unsigned c = p[i];
		const void *from = tmp;
		if (c >= 0x80 && (k = utf8_len(p + i, len - i))) {
			from = p + i;
		} else if (c == '\n' || c == '\r' || c == '\t') {
			tmp[0] = '\\';
			tmp[1] = c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
			tmp[2] = 0;
		} else if (c < 0x20 || c >= 0x7F) {
			snprintf(tmp, sizeof tmp, "\\x%02x", c);
			k = 1; /* utf8_len found no sequence */
		} else if (quotes && (c == '\\' || c == '\'' || c == '"')) {
			tmp[0] = '\\';
			tmp[1] = (char)c;
			tmp[2] = 0;
		} else {
			tmp[0] = (char)c;
			tmp[1] = 0;
		}
		size_t w = from == tmp ? strlen(tmp) : k;
		if (o + w >= size)
			break;
		memcpy(buf + o, from, w);
		o += w;
		i += k;
	}
	buf[o] = 0;
	return buf;
}

const char *err_quote(char *buf, size_t size, const void *s, size_t len)
{
	return escape(buf, size, s, len, true);
}

void err_format(const struct err *e, char *buf, size_t size)
{
	if (!size)
		return;
	char at[64], pbuf[4 * sizeof e->path], mbuf[4 * sizeof e->msg];
	err_format_offset("", e->offset, e->uncompressed, at, sizeof at);
	const char *path =
	    e->path[0] ? escape(pbuf, sizeof pbuf, e->path, strlen(e->path), false) : NULL;
	const char *msg = escape(mbuf, sizeof mbuf, e->msg, strlen(e->msg), false);
	if (path && at[0])
		snprintf(buf, size, "%s: %s: %s", path, at, msg);
	else if (path)
		snprintf(buf, size, "%s: %s", path, msg);
	else if (at[0])
		snprintf(buf, size, "%s: %s", at, msg);
	else
		snprintf(buf, size, "%s", msg);
}

int err_exit_code(int code)
{
	if (code == ERR_OK)
		return 0;
	if (code == ERR_GATE)
		return 1;
	return 2;
}
