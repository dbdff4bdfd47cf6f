/* load: loading a trace on behalf of a command (progress, --strict, notes). */
#ifndef GP_CLI_LOAD_H
#define GP_CLI_LOAD_H

#include "cli/cli.h"
#include "trace/trace.h"

/* Loads path into *out. Returns 0, or the exit code after printing the
 * error (2), in which case *out is NULL. */
int app_load_trace(struct app *app, const char *path, struct trace **out);

#endif
