/* args: see args.h. */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"

int app_args(struct app *app, const char *cmd, const char *what, int argc, char **argv,
	     const struct arg_spec *spec, size_t nspec, void *ctx, const char **path)
{
	bool dashdash = false;
	*path = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (dashdash || a[0] != '-' || !a[1]) {
			if (*path)
				return app_usage(app, cmd, "one %s only (got '%s' and '%s')", what,
						 *path, a);
			*path = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			dashdash = true;
			continue;
		}
		const struct arg_spec *s = NULL;
		for (size_t k = 0; k < nspec && !s; k++)
			if (!strcmp(a, spec[k].name))
				s = &spec[k];
		if (!s)
			return app_usage(app, cmd, "unknown option '%s'", a);
		if (!s->set) {
			*s->flag = true;
			continue;
		}
		if (i + 1 >= argc)
			return app_usage(app, cmd, "option %s needs a value", a);
		char msg[256];
		if (s->set(ctx, a, argv[++i], msg, sizeof msg))
			return app_usage(app, cmd, "%s", msg);
	}
	if (!*path)
		return app_usage(app, cmd, "no %s given", what);
	return 0;
}

int app_parse_count(const char *v, size_t *out)
{
	char *end;
	long long n = strtoll(v, &end, 10);
	if (*end || end == v || n < 0)
		return -1;
	*out = (size_t)n;
	return 0;
}
