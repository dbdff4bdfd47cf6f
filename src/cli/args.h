/* args: the argument loop of the commands that take one input file and a
 * few options (steps, summary, ops, kernels, memory, top), in one place:
 * options before or after the path, "--" ends the options, "-" is a path
 * (standard input), and the same messages everywhere. */
#ifndef GP_CLI_ARGS_H
#define GP_CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>

struct app;

/* One option. A flag (set NULL) stores true in *flag; an option with a
 * value (set given) calls set(ctx, name, value, msg, n), which returns 0 or
 * -1 with a message for the user in msg. */
struct arg_spec {
	const char *name;
	bool *flag;
	int (*set)(void *ctx, const char *name, const char *value, char *msg, size_t n);
};

/* Parses argv[1..argc) of command cmd against spec[0..nspec): exactly one
 * input (what names it in messages, e.g. "TRACE") into *path. Returns 0, or
 * app_usage's exit status after printing the message. */
int app_args(struct app *app, const char *cmd, const char *what, int argc, char **argv,
	     const struct arg_spec *spec, size_t nspec, void *ctx, const char **path);

/* A count (digits, >= 0) into *out; -1 when v is not one. */
int app_parse_count(const char *v, size_t *out);

#endif
