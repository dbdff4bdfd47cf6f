/* args: the one argument parser of the commands. Options are declared once
 * (views/view_opt.h); argv is walked by core/opt.h (getopt_long forms:
 * `--opt=value`, `--opt value`, `-n5`, `-n 5`, bundled short flags, `--`
 * ends the options, `-` is an operand, options before, between and after
 * operands; long names in full only, an abbreviation is an unknown option
 * with a suggestion), and every message is worded here, the same for every
 * command, with a "did you mean" when a valid spelling is close.
 */
#ifndef GP_CLI_ARGS_H
#define GP_CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "views/view_opt.h"

struct app;

/* Parses argv[1..argc) of command cmd against the options v[0..n), whose
 * values go into base; the operands go to ops[0..*nops) (room for argc).
 * Returns 0, or app_usage's exit status after printing the message. */
int app_parse(struct app *app, const char *cmd, const struct vo *v, size_t n, void *base, int argc,
	      char **argv, const char **ops, int *nops);

/* Parses argv[1..argc) with exactly one operand (what names it in messages,
 * e.g. "TRACE") into *path. */
int app_args(struct app *app, const char *cmd, const char *what, int argc, char **argv,
	     const struct vo *v, size_t n, void *base, const char **path);

/* SIZE: digits with an optional K, M or G (powers of 1024; "KB", "KiB"
 * and the like too) -> bytes; -1 when it is not a size. */
int app_parse_size(const char *s, uint64_t *out);

/* "unknown option 'X'" with a suggestion among cmd's options and the global
 * ones, into msg. */
void app_unknown_option(const char *opt, const struct vo *v, size_t n, char *msg, size_t len);

/* "; did you mean 'W'?" into buf when a word of words[0..n) is close to w,
 * else "" (for "unknown verb 'X'%s (choices)" messages). */
const char *app_did_you_mean(const char *w, const char *const *words, size_t n, char *buf,
			     size_t len);

#endif
