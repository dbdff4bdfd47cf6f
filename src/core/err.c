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

void err_format(const struct err *e, char *buf, size_t size)
{
	if (!size)
		return;
	char at[64];
	err_format_offset("", e->offset, e->uncompressed, at, sizeof at);
	const char *path = e->path[0] ? e->path : NULL;
	if (path && at[0])
		snprintf(buf, size, "%s: %s: %s", path, at, e->msg);
	else if (path)
		snprintf(buf, size, "%s: %s", path, e->msg);
	else if (at[0])
		snprintf(buf, size, "%s: %s", at, e->msg);
	else
		snprintf(buf, size, "%s", e->msg);
}

int err_exit_code(int code)
{
	if (code == ERR_OK)
		return 0;
	if (code == ERR_GATE)
		return 1;
	return 2;
}
