/* view_opt: option declarations, and the one parser of their values.
 *
 * Each option of a view (or of a command) is declared once: its CLI
 * spelling (long name, optional short letter), its query parameter in the
 * HTTP API, its type, where its value goes (an offset into the caller's
 * options struct), its default, a validator and its help line. The CLI's
 * argument parsing, the server's query parsing, `--help` and the man page's
 * option lists all read these declarations, and every value, from argv or
 * from a query, is parsed and checked here with the same messages (which
 * name the option as the front end spells it: "--top" or "top").
 *
 * Owns nothing; depends on core only (no argv, no HTTP: the front ends walk
 * those and hand the values here).
 */
#ifndef GP_VIEWS_VIEW_OPT_H
#define GP_VIEWS_VIEW_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum vo_type {
	VO_FLAG,   /* bool; the API takes 1, true or nothing as true, else false */
	VO_COUNT,  /* size_t, digits, at least `min` */
	VO_INT,	   /* int64_t, at least `min` */
	VO_ENUM,   /* int (an enum) from the names of `vals` */
	VO_STRING, /* const char * (the argument itself) */
	VO_TIME,   /* int64_t ns: CLI 1500, 2.5us, 10ms, 1s; API integer ns */
	VO_LIST,   /* struct vo_list: every use appends its argument (repeatable) */
};

#define VO_LIST_MAX 32
struct vo_list {
	const char *v[VO_LIST_MAX];
	size_t n;
};

enum vo_front { VO_CLI, VO_API };

struct vo_value {
	const char *name; /* NULL ends the list */
	int value;
	bool hidden; /* accepted, not listed (an old or URL-decoded spelling) */
};

struct vo {
	const char *lname; /* CLI --lname; NULL: no CLI form */
	char sname;	   /* CLI -s; 0: none */
	const char *api;   /* query parameter; NULL: not in the API */
	enum vo_type type;
	size_t off;		     /* offset of the value in the options struct */
	const char *metavar;	     /* help: "N", "COL"; enums default to a|b */
	const struct vo_value *vals; /* VO_ENUM */
	int64_t min;		     /* VO_COUNT, VO_INT: least value */
	const char *def;	     /* default, parsed as a CLI value; NULL: the struct's */
	/* More checks of a parsed value at field; 0 or -1 with msg. */
	int (*valid)(const char *name, const void *field, char *msg, size_t n);
	const char *help; /* lines separated by '\n', no indentation */
	bool required;	  /* the man page's synopsis shows it without brackets */
	/* VO_LIST, CLI: the operands that follow the option, up to the next
	 * option, are its values too (`--base A0 A1 --new B0 B1`). */
	bool operands;
};

#define VO_NAME_MAX 48
/* The option as front end f spells it: "--top" (or "-n" when it has no long
 * name) or "top". */
const char *vo_name(const struct vo *o, enum vo_front f, char buf[VO_NAME_MAX]);
/* The spelling in f of the option of v[0..n) with long name lname (for the
 * messages of cross-option checks); lname itself when there is none. */
const char *vo_name_of(const struct vo *v, size_t n, const char *lname, enum vo_front f,
		       char buf[VO_NAME_MAX]);

/* Parses text (NULL: a CLI flag given) as option o from front end f and
 * stores it at base + o->off. 0, or -1 with a message in msg. */
int vo_parse(const struct vo *o, enum vo_front f, void *base, const char *text, char *msg,
	     size_t n);
/* Applies the declared defaults (def) of v[0..n) to base. */
void vo_defaults(const struct vo *v, size_t n, void *base);
/* The option of v[0..n) with query parameter key; NULL when none. */
const struct vo *vo_find_api(const struct vo *v, size_t n, const char *key);

/* "a, b or c": the listed values of an enum option into buf. */
void vo_enum_list(const struct vo *o, char *buf, size_t n);
/* "a|b" (or the metavar): what the help shows after the option's name;
 * "" for a flag. */
const char *vo_metavar(const struct vo *o, char *buf, size_t n);

/* A count (digits, >= 0) into *out; -1 when s is not one. */
int vo_parse_count(const char *s, size_t *out);
/* TIME: digits with an optional fraction and unit ns/us/ms/s (ns when
 * bare), exact in ns. -1 when malformed or out of range. */
int vo_parse_time(const char *s, int64_t *out);

#endif
