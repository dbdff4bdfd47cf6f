/* opt: see opt.h. */
#include <string.h>

#include "core/opt.h"

void opt_begin(struct opt_state *st, int argc, char **argv, int first)
{
	memset(st, 0, sizeof *st);
	st->argc = argc;
	st->argv = argv;
	st->i = first;
}

static int next_short(struct opt_state *st, const struct opt_spec *spec, size_t n,
		      const char **text)
{
	char c = *st->sub++;
	st->shortbuf[0] = '-';
	st->shortbuf[1] = c;
	st->shortbuf[2] = 0;
	size_t k = 0;
	while (k < n && spec[k].sname != c)
		k++;
	if (k == n) {
		st->sub = NULL;
		*text = st->shortbuf;
		return OPT_UNKNOWN;
	}
	if (!spec[k].has_arg) {
		if (!*st->sub)
			st->sub = NULL;
		*text = NULL;
		return (int)k;
	}
	if (*st->sub) {
		*text = st->sub;
	} else if (st->i < st->argc) {
		*text = st->argv[st->i++];
	} else {
		st->sub = NULL;
		*text = st->shortbuf;
		return OPT_NOVALUE;
	}
	st->sub = NULL;
	return (int)k;
}

static int next_long(struct opt_state *st, const char *a, const struct opt_spec *spec, size_t n,
		     const char **text)
{
	const char *name = a + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	size_t k = 0;
	while (k < n && !(spec[k].lname && strlen(spec[k].lname) == len &&
			  !memcmp(spec[k].lname, name, len)))
		k++;
	if (k == n) {
		*text = a;
		return OPT_UNKNOWN;
	}
	if (!spec[k].has_arg) {
		*text = NULL;
		if (eq) {
			*text = a;
			return OPT_EXTRA;
		}
		return (int)k;
	}
	if (eq) {
		*text = eq + 1;
	} else if (st->i < st->argc) {
		*text = st->argv[st->i++];
	} else {
		*text = a;
		return OPT_NOVALUE;
	}
	return (int)k;
}

int opt_next(struct opt_state *st, const struct opt_spec *spec, size_t n, const char **text)
{
	if (st->sub)
		return next_short(st, spec, n, text);
	for (;;) {
		if (st->i >= st->argc)
			return OPT_END;
		const char *a = st->argv[st->i++];
		if (st->dashdash || a[0] != '-' || !a[1]) {
			*text = a;
			return OPT_OPERAND;
		}
		if (!strcmp(a, "--")) {
			st->dashdash = true;
			continue;
		}
		if (a[1] == '-')
			return next_long(st, a, spec, n, text);
		st->sub = a + 1;
		return next_short(st, spec, n, text);
	}
}
