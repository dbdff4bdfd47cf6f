/* ncu_fmt: values and rule texts as `ncu --import ... --csv` prints them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ncu/ncu.h"

/* Copies the digits in s (optionally with a '-' and a fraction) into buf
 * with "," every three digits of the integer part. */
static char *group_digits(const char *s, char *buf, size_t n)
{
	size_t k = 0;
	if (*s == '-' && k + 1 < n)
		buf[k++] = *s++;
	size_t intlen = strcspn(s, ".");
	for (size_t i = 0; s[i] && k + 1 < n; i++) {
		if (i && i < intlen && (intlen - i) % 3 == 0 && k + 2 < n)
			buf[k++] = ',';
		buf[k++] = s[i];
	}
	buf[k] = 0;
	return buf;
}

char *ncu_fmt_double(double d, char *buf, size_t n)
{
	char tmp[400];
	if (isnan(d)) {
		snprintf(buf, n, "n/a");
		return buf;
	}
	if (isinf(d)) {
		snprintf(buf, n, d > 0 ? "inf" : "-inf");
		return buf;
	}
	if (d == 0) { /* also -0 */
		snprintf(buf, n, "0");
		return buf;
	}
	if (d == floor(d))
		snprintf(tmp, sizeof tmp, "%.0f", d);
	else
		snprintf(tmp, sizeof tmp, "%.2f", d);
	return group_digits(tmp, buf, n);
}

char *ncu_fmt_value(const struct ncu_value *v, char *buf, size_t n)
{
	char tmp[32];
	switch (v ? v->type : NCU_V_NONE) {
	case NCU_V_STR:
		snprintf(buf, n, "%s", v->s);
		return buf;
	case NCU_V_FLOAT:
	case NCU_V_DOUBLE:
		return ncu_fmt_double(v->d, buf, n);
	case NCU_V_U32:
	case NCU_V_U64:
		snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v->u);
		return group_digits(tmp, buf, n);
	default:
		snprintf(buf, n, "n/a");
		return buf;
	}
}

const char *ncu_expand_markup(struct ncu_report *r, const char *text)
{
	if (!strchr(text, '@'))
		return text;
	size_t len = strlen(text);
	/* expansion adds at most 3 bytes per @url: markup, which needs >= 6 */
	char *out = arena_alloc(&r->arena, len + len / 2 + 1);
	if (!out)
		return text;
	size_t k = 0;
	const char *p = text;
	while (*p) {
		const char *end;
		if (*p == '@' && (!strncmp(p + 1, "section:", 8) || !strncmp(p + 1, "url:", 4)) &&
		    (end = strchr(p + 1, '@'))) {
			bool url = p[1] == 'u';
			const char *a = p + 1 + (url ? 4 : 8);
			const char *colon = memchr(a, ':', (size_t)(end - a));
			if (colon) {
				if (url) {
					memcpy(out + k, a, (size_t)(colon - a));
					k += (size_t)(colon - a);
					out[k++] = ' ';
					out[k++] = '(';
					memcpy(out + k, colon + 1, (size_t)(end - colon - 1));
					k += (size_t)(end - colon - 1);
					out[k++] = ')';
				} else {
					memcpy(out + k, colon + 1, (size_t)(end - colon - 1));
					k += (size_t)(end - colon - 1);
				}
				p = end + 1;
				continue;
			}
		}
		out[k++] = *p++;
	}
	out[k] = 0;
	return out;
}

char *ncu_fmt_raw_auto(const struct ncu_value *v, const char *unit, double div, bool col_zero,
		       char *buf, size_t n)
{
	if (v && v->type == NCU_V_NONE) {
		snprintf(buf, n, "no data"); /* only an instance list is stored */
		return buf;
	}
	double d = ncu_value_num(v);
	if (v && (v->type == NCU_V_FLOAT || v->type == NCU_V_DOUBLE) && isnan(d)) {
		snprintf(buf, n, "nan");
		return buf;
	}
	if (!v || !unit[0] || v->type == NCU_V_STR)
		return ncu_fmt_value(v, buf, n);
	if ((v->type == NCU_V_U32 || v->type == NCU_V_U64) && div == 1)
		snprintf(buf, n, "%llu", (unsigned long long)v->u);
	else if (d == 0 && col_zero)
		snprintf(buf, n, "0");
	else
		snprintf(buf, n, "%.6f", d / div);
	return buf;
}

char *ncu_fmt_detail_auto(const struct ncu_value *v, double div, char *buf, size_t n)
{
	if (!v || div == 1 || v->type == NCU_V_STR || v->type == NCU_V_NONE)
		return ncu_fmt_value(v, buf, n);
	return ncu_fmt_double(ncu_value_num(v) / div, buf, n);
}
