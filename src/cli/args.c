/* args: see args.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "core/opt.h"
#include "core/suggest.h"

#define MAX_OPTS 32
#define MAX_GLOBALS 24

void app_unknown_option(const char *opt, const struct vo *v, size_t n, char *msg, size_t len)
{
	/* the spellings a user may have meant: the command's and the globals' */
	char names[MAX_OPTS + 2 * MAX_GLOBALS][VO_NAME_MAX];
	const char *words[MAX_OPTS + 2 * MAX_GLOBALS];
	size_t k = 0;
	for (size_t i = 0; i < n && i < MAX_OPTS; i++) {
		if (!v[i].lname && !v[i].sname)
			continue;
		if (v[i].lname)
			snprintf(names[i], VO_NAME_MAX, "--%s", v[i].lname);
		else
			snprintf(names[i], VO_NAME_MAX, "-%c", v[i].sname);
		words[k++] = names[i];
	}
	for (size_t i = 0; i < cli_nglobals && i < MAX_GLOBALS; i++) {
		snprintf(names[MAX_OPTS + 2 * i], VO_NAME_MAX, "--%s", cli_globals[i].lname);
		words[k++] = names[MAX_OPTS + 2 * i];
		if (cli_globals[i].sname) {
			snprintf(names[MAX_OPTS + 2 * i + 1], VO_NAME_MAX, "-%c",
				 cli_globals[i].sname);
			words[k++] = names[MAX_OPTS + 2 * i + 1];
		}
	}
	char w[VO_NAME_MAX];
	snprintf(w, sizeof w, "%.*s", (int)strcspn(opt, "="), opt);
	char mean[96];
	snprintf(msg, len, "unknown option '%s'%s", opt,
		 app_did_you_mean(w, words, k, mean, sizeof mean));
}

const char *app_did_you_mean(const char *w, const char *const *words, size_t n, char *buf,
			     size_t len)
{
	const char *close = sug_closest(w, words, n);
	if (close)
		snprintf(buf, len, "; did you mean '%s'?", close);
	else if (len)
		buf[0] = 0;
	return buf;
}

int app_parse(struct app *app, const char *cmd, const struct vo *v, size_t n, void *base, int argc,
	      char **argv, const char **ops, int *nops)
{
	struct opt_spec spec[MAX_OPTS];
	if (n > MAX_OPTS)
		return app_usage(app, cmd, "too many options declared");
	for (size_t i = 0; i < n; i++)
		spec[i] = (struct opt_spec){v[i].lname, v[i].sname, v[i].type != VO_FLAG};
	struct opt_state st;
	opt_begin(&st, argc, argv, 1);
	*nops = 0;
	char msg[640];
	const struct vo *taker = NULL; /* an option taking the operands after it */
	for (;;) {
		const char *text;
		int k = opt_next(&st, spec, n, &text);
		if (k == OPT_END)
			return 0;
		if (k == OPT_OPERAND && taker && !st.dashdash) {
			if (vo_parse(taker, VO_CLI, base, text, msg, sizeof msg))
				return app_usage(app, cmd, "%s", msg);
			continue;
		}
		if (k == OPT_OPERAND) {
			ops[(*nops)++] = text;
			continue;
		}
		taker = NULL;
		if (k == OPT_UNKNOWN) {
			app_unknown_option(text, v, n, msg, sizeof msg);
			return app_usage(app, cmd, "%s", msg);
		}
		if (k == OPT_NOVALUE)
			return app_usage(app, cmd, "option %s needs a value", text);
		if (k == OPT_EXTRA)
			return app_usage(app, cmd, "option %.*s takes no value",
					 (int)strcspn(text, "="), text);
		if (vo_parse(&v[k], VO_CLI, base, text, msg, sizeof msg))
			return app_usage(app, cmd, "%s", msg);
		if (v[k].type == VO_LIST && v[k].operands)
			taker = &v[k];
	}
}

int app_args(struct app *app, const char *cmd, const char *what, int argc, char **argv,
	     const struct vo *v, size_t n, void *base, const char **path)
{
	const char **ops = calloc((size_t)argc + 1, sizeof *ops);
	if (!ops)
		return app_usage(app, cmd, "out of memory");
	int nops = 0;
	int rc = app_parse(app, cmd, v, n, base, argc, argv, ops, &nops);
	if (!rc && nops > 1)
		rc = app_usage(app, cmd, "one %s only (got '%s' and '%s')", what, ops[0], ops[1]);
	else if (!rc && !nops)
		rc = app_usage(app, cmd, "no %s given", what);
	*path = rc ? NULL : ops[0];
	free(ops);
	return rc;
}

int app_parse_size(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	if (*s < '0' || *s > '9')
		return -1;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	int shift = 0;
	switch (*end) {
	case 0:
		break;
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	default:
		return -1;
	}
	if (*end && end[1] && strcmp(end + 1, "B") && strcmp(end + 1, "iB"))
		return -1;
	if (v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}
