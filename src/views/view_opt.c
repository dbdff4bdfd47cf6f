/* view_opt: see view_opt.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/suggest.h"
#include "views/view_opt.h"

const char *vo_name(const struct vo *o, enum vo_front f, char buf[VO_NAME_MAX])
{
	if (f == VO_API && o->api)
		snprintf(buf, VO_NAME_MAX, "%s", o->api);
	else if (o->lname)
		snprintf(buf, VO_NAME_MAX, "--%s", o->lname);
	else
		snprintf(buf, VO_NAME_MAX, "-%c", o->sname);
	return buf;
}

const char *vo_name_of(const struct vo *v, size_t n, const char *lname, enum vo_front f,
		       char buf[VO_NAME_MAX])
{
	for (size_t i = 0; i < n; i++)
		if (v[i].lname && !strcmp(v[i].lname, lname))
			return vo_name(&v[i], f, buf);
	snprintf(buf, VO_NAME_MAX, "%s", lname);
	return buf;
}

int vo_parse_count(const char *s, size_t *out)
{
	char *end;
	long long n = strtoll(s, &end, 10);
	if (*end || end == s || n < 0)
		return -1;
	*out = (size_t)n;
	return 0;
}

int vo_parse_time(const char *s, int64_t *out)
{
	uint64_t whole = 0, frac = 0, fdiv = 1;
	const char *p = s;
	bool digits = false;
	for (; *p >= '0' && *p <= '9'; p++, digits = true) {
		if (whole > (UINT64_MAX - 9) / 10)
			return -1;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, digits = true) {
			if (fdiv > UINT64_MAX / 100)
				return -1;
			frac = frac * 10 + (uint64_t)(*p - '0');
			fdiv *= 10;
		}
	}
	uint64_t unit;
	if (!*p || !strcmp(p, "ns"))
		unit = 1;
	else if (!strcmp(p, "us"))
		unit = 1000;
	else if (!strcmp(p, "ms"))
		unit = 1000000;
	else if (!strcmp(p, "s"))
		unit = 1000000000;
	else
		return -1;
	if (!digits || whole > (uint64_t)INT64_MAX / unit || frac * unit % fdiv)
		return -1;
	uint64_t v = whole * unit + frac * unit / fdiv;
	if (v > (uint64_t)INT64_MAX)
		return -1;
	*out = (int64_t)v;
	return 0;
}

void vo_enum_list(const struct vo *o, char *buf, size_t n)
{
	size_t len = 0, shown = 0, total = 0;
	buf[0] = 0;
	for (const struct vo_value *v = o->vals; v && v->name; v++)
		total += !v->hidden;
	for (const struct vo_value *v = o->vals; v && v->name && len < n; v++) {
		if (v->hidden)
			continue;
		const char *sep = !shown ? "" : shown + 1 == total ? " or " : ", ";
		int w = snprintf(buf + len, n - len, "%s%s", sep, v->name);
		if (w < 0)
			break;
		len += (size_t)w;
		shown++;
	}
}

const char *vo_metavar(const struct vo *o, char *buf, size_t n)
{
	if (o->metavar)
		return o->metavar;
	buf[0] = 0;
	if (o->type != VO_ENUM)
		return buf;
	size_t len = 0;
	for (const struct vo_value *v = o->vals; v && v->name && len < n; v++) {
		if (v->hidden)
			continue;
		int w = snprintf(buf + len, n - len, "%s%s", len ? "|" : "", v->name);
		if (w < 0)
			break;
		len += (size_t)w;
	}
	return buf;
}

static int parse_enum(const struct vo *o, const char *name, const char *text, int *out, char *msg,
		      size_t n)
{
	const char *names[32];
	size_t k = 0;
	for (const struct vo_value *v = o->vals; v && v->name; v++) {
		if (!strcmp(v->name, text)) {
			*out = v->value;
			return 0;
		}
		if (!v->hidden && k < sizeof names / sizeof names[0])
			names[k++] = v->name;
	}
	char list[512];
	vo_enum_list(o, list, sizeof list);
	const char *close = sug_closest(text, names, k);
	if (close)
		snprintf(msg, n, "%s must be %s, not '%s'; did you mean '%s'?", name, list, text,
			 close);
	else
		snprintf(msg, n, "%s must be %s, not '%s'", name, list, text);
	return -1;
}

static int parse_int(const char *s, int64_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (*end || end == s || errno)
		return -1;
	*out = v;
	return 0;
}

/* "NAME needs a count[ of at least MIN], not 'TEXT'"; -1. */
static int bad_number(char *msg, size_t n, const char *name, const char *what, bool has_min,
		      int64_t min, const char *text)
{
	if (has_min)
		snprintf(msg, n, "%s needs %s of at least %lld, not '%s'", name, what,
			 (long long)min, text);
	else
		snprintf(msg, n, "%s needs %s, not '%s'", name, what, text);
	return -1;
}

/* The value of o in text into field; -1 with msg. */
static int parse_value(const struct vo *o, enum vo_front f, const char *name, void *field,
		       const char *text, char *msg, size_t n)
{
	switch (o->type) {
	case VO_FLAG: {
		bool v = !text ||
			 (f == VO_API && (!strcmp(text, "1") || !strcmp(text, "true") || !*text));
		memcpy(field, &v, sizeof v);
		return 0;
	}
	case VO_COUNT: {
		size_t v;
		if (vo_parse_count(text, &v) || (int64_t)v < o->min)
			return bad_number(msg, n, name, "a count", o->min > 0, o->min, text);
		memcpy(field, &v, sizeof v);
		return 0;
	}
	case VO_INT: {
		int64_t v;
		if (parse_int(text, &v) || v < o->min)
			return bad_number(msg, n, name, "an integer", o->min > INT64_MIN, o->min,
					  text);
		memcpy(field, &v, sizeof v);
		return 0;
	}
	case VO_ENUM: {
		int v;
		if (parse_enum(o, name, text, &v, msg, n))
			return -1;
		memcpy(field, &v, sizeof v);
		return 0;
	}
	case VO_STRING:
		memcpy(field, &text, sizeof text);
		return 0;
	case VO_LIST: {
		struct vo_list *l = field;
		if (l->n == VO_LIST_MAX)
			return snprintf(msg, n,
					o->operands ? "%s takes at most %d values"
						    : "%s is given more than %d times",
					name, VO_LIST_MAX),
			       -1;
		l->v[l->n++] = text;
		return 0;
	}
	case VO_TIME: {
		int64_t v;
		if (f == VO_API ? parse_int(text, &v) : vo_parse_time(text, &v))
			return snprintf(
				   msg, n,
				   f == VO_API
				       ? "%s takes integer nanoseconds, not '%s'"
				       : "%s needs a time such as 1500, 2.5us or 10ms, not '%s'",
				   name, text),
			       -1;
		memcpy(field, &v, sizeof v);
		return 0;
	}
	}
	return snprintf(msg, n, "%s: unknown option type", name), -1;
}

int vo_parse(const struct vo *o, enum vo_front f, void *base, const char *text, char *msg, size_t n)
{
	char name[VO_NAME_MAX];
	vo_name(o, f, name);
	void *field = (char *)base + o->off;
	if (!text && o->type != VO_FLAG)
		return snprintf(msg, n, "option %s needs a value", name), -1;
	if (parse_value(o, f, name, field, text, msg, n))
		return -1;
	return o->valid ? o->valid(name, field, msg, n) : 0;
}

void vo_defaults(const struct vo *v, size_t n, void *base)
{
	char msg[8];
	for (size_t i = 0; i < n; i++)
		if (v[i].def)
			(void)vo_parse(&v[i], VO_CLI, base, v[i].def, msg, sizeof msg);
}

const struct vo *vo_find_api(const struct vo *v, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].api && !strcmp(v[i].api, key))
			return &v[i];
	return NULL;
}
