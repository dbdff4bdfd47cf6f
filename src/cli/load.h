/* load: loading a command's input through the registry of input kinds
 * (input/input.h) on behalf of a command: progress, --strict, notes, the
 * --step / --range cut. */
#ifndef GP_CLI_LOAD_H
#define GP_CLI_LOAD_H

#include "cli/cli.h"
#include "input/input.h"
#include "tbprof/session.h"
#include "trace/trace.h"

/* Loads path into *in when it is one of the kinds in accept (INPUT_BIT()s;
 * 0 = every kind); a trace is checked (--strict, the anomaly note) and cut
 * to --step / --range. Returns 0, or the exit code after printing the
 * error (2: one line, "this is an SQLite file, not a PyTorch trace; ..."
 * for a kind not accepted), in which case *in is empty. */
int app_load(struct app *app, const char *path, unsigned accept, struct input *in);
/* app_load of a trace, whose ownership passes to *out (NULL on failure).
 * With ses, also a session on it (*ses; NULL on failure) for the caller
 * to free before the trace: on a --step / --range window, one that keeps
 * the links found while cutting it (tbprof/session.h). */
int app_load_trace(struct app *app, const char *path, struct trace **out, struct ses **ses);

#endif
