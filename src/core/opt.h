/* opt: a getopt_long-style walk over an argument vector, reentrant and
 * without messages of its own (the caller words them, so every front end
 * says the same).
 *
 * Forms: `--name value`, `--name=value`, `-n value`, `-nvalue`, bundled
 * short flags (`-ab`, `-abn5`: a short option that takes a value takes the
 * rest of its bundle or the next argument), `--` ends the options, `-` alone
 * is an operand (standard input), operands may come before, between and
 * after options. Long names must be given in full: an abbreviation is an
 * unknown option (the caller may suggest the full name), so adding an option
 * never changes what an existing command line means.
 *
 * Owns nothing; depends on libc only.
 */
#ifndef GP_CORE_OPT_H
#define GP_CORE_OPT_H

#include <stdbool.h>
#include <stddef.h>

struct opt_spec {
	const char *lname; /* without "--"; NULL: no long form */
	char sname;	   /* 0: no short form */
	bool has_arg;
};

/* The walk's position; start with opt_begin. */
struct opt_state {
	int argc;
	char **argv;
	int i;		 /* next argument */
	const char *sub; /* the rest of a short-option bundle, or NULL */
	bool dashdash;
	char shortbuf[3]; /* "-x" of a short option, for messages */
};

enum {
	OPT_END = -1,	  /* no more arguments */
	OPT_OPERAND = -2, /* *text = the operand */
	OPT_UNKNOWN = -3, /* *text = the option as written ("--tpo", "-x") */
	OPT_NOVALUE = -4, /* *text = the option as written; it needs a value */
	OPT_EXTRA = -5,	  /* *text = "--name=value" as written, for a flag */
};

void opt_begin(struct opt_state *st, int argc, char **argv, int first);
/* The next option (its index in spec, *text = its value or NULL for a
 * flag) or one of the OPT_ codes above. */
int opt_next(struct opt_state *st, const struct opt_spec *spec, size_t n, const char **text);

#endif
