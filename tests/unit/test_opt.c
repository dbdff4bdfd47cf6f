/* Unit tests of the argument walk (core/opt.h), the suggestions
 * (core/suggest.h) and the option values (views/view_opt.h): hand-written
 * argument vectors and the exact results. */
#include <stddef.h>
#include <stdint.h>

#include "core/opt.h"
#include "core/suggest.h"
#include "test.h"
#include "views/view.h"
#include "views/view_opt.h"

static const struct opt_spec specs[] = {
    {"top", 'n', true},	   /* 0 */
    {"stack", 's', false}, /* 1 */
    {"quiet", 'q', false}, /* 2 */
    {"sort", 0, true},	   /* 3 */
};
#define NSPECS (sizeof specs / sizeof specs[0])

/* The walk of argv as one string: "k=VALUE" per option, "@X" per operand,
 * "?X" unknown, "!X" missing value, "=X" a flag given a value. */
static void walk(int argc, char **argv, char *out, size_t n)
{
	struct opt_state st;
	opt_begin(&st, argc, argv, 1);
	size_t len = 0;
	out[0] = 0;
	for (;;) {
		const char *text = NULL;
		int k = opt_next(&st, specs, NSPECS, &text);
		if (k == OPT_END)
			return;
		int w;
		if (k >= 0)
			w = snprintf(out + len, n - len, "%d=%s ", k, text ? text : "-");
		else
			w = snprintf(out + len, n - len, "%c%s ",
				     k == OPT_OPERAND	? '@'
				     : k == OPT_UNKNOWN ? '?'
				     : k == OPT_NOVALUE ? '!'
							: '=',
				     text);
		len += (size_t)w;
		if (k < 0 && k != OPT_OPERAND)
			return;
	}
}

#define WALK(want, ...)                                                                            \
	do {                                                                                       \
		char *av[] = {"cmd", __VA_ARGS__, NULL};                                           \
		char got[256];                                                                     \
		walk((int)(sizeof av / sizeof av[0]) - 1, av, got, sizeof got);                    \
		CHECK_STR(t, got, want);                                                           \
	} while (0)

void test_opt_forms(struct t *t)
{
	WALK("0=5 ", "--top=5");
	WALK("0=5 ", "--top", "5");
	WALK("0=5 ", "-n5");
	WALK("0=5 ", "-n", "5");
	WALK("0= ", "--top=");			/* an empty value is a value */
	WALK("3=a=b ", "--sort=a=b");		/* the first '=' splits */
	WALK("0=--stack ", "--top", "--stack"); /* a value may start with '-' */
}

void test_opt_bundles(struct t *t)
{
	WALK("2=- 1=- 0=5 ", "-qsn5");
	WALK("2=- 0=5 ", "-qn", "5");
	WALK("1=- 2=- ", "-sq");
	WALK("2=- 0=sq ", "-qnsq"); /* -n takes the rest of the bundle */
	WALK("2=- ?-x ", "-qx");
}

void test_opt_operands(struct t *t)
{
	WALK("@a 1=- @b ", "a", "--stack", "b");
	WALK("@- ", "-");
	WALK("1=- @--top @-n ", "--stack", "--", "--top", "-n");
	WALK("@a @-- ", "a", "--", "--"); /* only the first -- ends the options */
}

void test_opt_errors(struct t *t)
{
	WALK("!--top ", "--top");
	WALK("!-n ", "-n");
	WALK("?--tpo ", "--tpo");
	WALK("?--to ", "--to", "5"); /* abbreviations are refused */
	WALK("?--stacks ", "--stacks");
	WALK("=--stack=1 ", "--stack=1");
	WALK("?-x ", "-x");
}

void test_suggest(struct t *t)
{
	CHECK_INT(t, sug_distance("sumary", "summary"), 1);
	CHECK_INT(t, sug_distance("tpo", "top"), 1); /* a transposition */
	CHECK_INT(t, sug_distance("kernal", "kernel"), 1);
	CHECK_INT(t, sug_distance("", "abc"), 3);
	CHECK_INT(t, sug_distance("bogus", "calls"), 4);
	static const char *const cmds[] = {"info", "steps", "summary", "ops", "top"};
	CHECK_STR(t, sug_closest("sumary", cmds, 5), "summary");
	CHECK_STR(t, sug_closest("stpes", cmds, 5), "steps");
	CHECK_STR(t, sug_closest("tpo", cmds, 5), "top");
	CHECK(t, sug_closest("summary", cmds, 5) == NULL);    /* exact: no suggestion */
	CHECK(t, sug_closest("frobnicate", cmds, 5) == NULL); /* nothing close */
	CHECK(t, sug_closest("xy", cmds, 5) == NULL);	      /* too short to guess */
	static const char *const opts[] = {"--top", "--stack", "--format"};
	CHECK_STR(t, sug_closest("--to", opts, 3), "--top");
	CHECK_STR(t, sug_closest("--fromat", opts, 3), "--format");
	CHECK(t, sug_closest("--bogus", opts, 3) == NULL);
}

struct vo_test {
	bool flag;
	size_t count;
	int64_t ns;
	int pick;
	const char *s;
};

static const struct vo_value picks[] = {
    {"alpha", 1, false}, {"beta", 2, false}, {"gamma", 3, false}, {"b", 2, true}, {NULL, 0, false}};

static const struct vo decls[] = {
    {.lname = "flag", .api = "flag", .type = VO_FLAG, .off = offsetof(struct vo_test, flag)},
    {.lname = "count",
     .sname = 'c',
     .api = "count",
     .type = VO_COUNT,
     .off = offsetof(struct vo_test, count),
     .min = 2,
     .def = "7"},
    {.lname = "at", .api = "at_ns", .type = VO_TIME, .off = offsetof(struct vo_test, ns)},
    {.lname = "pick",
     .api = "pick",
     .type = VO_ENUM,
     .off = offsetof(struct vo_test, pick),
     .vals = picks},
    {.lname = "name", .type = VO_STRING, .off = offsetof(struct vo_test, s)},
};

void test_view_opt_values(struct t *t)
{
	struct vo_test v = {0};
	char msg[256];
	vo_defaults(decls, 5, &v);
	CHECK_INT(t, v.count, 7);
	CHECK_INT(t, vo_parse(&decls[0], VO_CLI, &v, NULL, msg, sizeof msg), 0);
	CHECK(t, v.flag);
	CHECK_INT(t, vo_parse(&decls[0], VO_API, &v, "0", msg, sizeof msg), 0);
	CHECK(t, !v.flag);
	CHECK_INT(t, vo_parse(&decls[0], VO_API, &v, "true", msg, sizeof msg), 0);
	CHECK(t, v.flag);
	CHECK_INT(t, vo_parse(&decls[1], VO_CLI, &v, "12", msg, sizeof msg), 0);
	CHECK_INT(t, v.count, 12);
	CHECK_INT(t, vo_parse(&decls[1], VO_CLI, &v, "1", msg, sizeof msg), -1);
	CHECK_STR(t, msg, "--count needs a count of at least 2, not '1'");
	CHECK_INT(t, vo_parse(&decls[1], VO_API, &v, "x", msg, sizeof msg), -1);
	CHECK_STR(t, msg, "count needs a count of at least 2, not 'x'");
	CHECK_INT(t, vo_parse(&decls[1], VO_CLI, &v, NULL, msg, sizeof msg), -1);
	CHECK_STR(t, msg, "option --count needs a value");
	/* TIME: units on the command line, integer ns in the API */
	CHECK_INT(t, vo_parse(&decls[2], VO_CLI, &v, "2.5us", msg, sizeof msg), 0);
	CHECK_INT(t, v.ns, 2500);
	CHECK_INT(t, vo_parse(&decls[2], VO_CLI, &v, "10ms", msg, sizeof msg), 0);
	CHECK_INT(t, v.ns, 10000000);
	CHECK_INT(t, vo_parse(&decls[2], VO_CLI, &v, "1.0005ns", msg, sizeof msg), -1);
	CHECK_STR(t, msg, "--at needs a time such as 1500, 2.5us or 10ms, not '1.0005ns'");
	CHECK_INT(t, vo_parse(&decls[2], VO_API, &v, "-5", msg, sizeof msg), 0);
	CHECK_INT(t, v.ns, -5);
	CHECK_INT(t, vo_parse(&decls[2], VO_API, &v, "10ms", msg, sizeof msg), -1);
	CHECK_STR(t, msg, "at_ns takes integer nanoseconds, not '10ms'");
	/* enums: hidden spellings accepted, not listed; the closest suggested */
	CHECK_INT(t, vo_parse(&decls[3], VO_CLI, &v, "gamma", msg, sizeof msg), 0);
	CHECK_INT(t, v.pick, 3);
	CHECK_INT(t, vo_parse(&decls[3], VO_CLI, &v, "b", msg, sizeof msg), 0);
	CHECK_INT(t, v.pick, 2);
	CHECK_INT(t, vo_parse(&decls[3], VO_CLI, &v, "gama", msg, sizeof msg), -1);
	CHECK_STR(t, msg, "--pick must be alpha, beta or gamma, not 'gama'; did you mean 'gamma'?");
	CHECK_INT(t, vo_parse(&decls[3], VO_API, &v, "zzz", msg, sizeof msg), -1);
	CHECK_STR(t, msg, "pick must be alpha, beta or gamma, not 'zzz'");
	CHECK_INT(t, v.pick, 2); /* a bad value changes nothing */
	CHECK_INT(t, vo_parse(&decls[4], VO_CLI, &v, "x y", msg, sizeof msg), 0);
	CHECK_STR(t, v.s, "x y");
	char buf[VO_NAME_MAX];
	CHECK_STR(t, vo_name_of(decls, 5, "count", VO_CLI, buf), "--count");
	CHECK_STR(t, vo_name_of(decls, 5, "at", VO_API, buf), "at_ns");
	CHECK(t, vo_find_api(decls, 5, "at_ns") == &decls[2]);
	CHECK(t, vo_find_api(decls, 5, "name") == NULL);
	char meta[64];
	CHECK_STR(t, vo_metavar(&decls[3], meta, sizeof meta), "alpha|beta|gamma");
}

void test_view_registry(struct t *t)
{
	CHECK_INT(t, view_count(), VIEW_COUNT);
	for (size_t i = 0; i < view_count(); i++) {
		const struct view_decl *d = view_at(i);
		/* every view keeps its results: compute makes them, free frees them */
		CHECK(t, d && d->compute && d->emit && d->free && d->summary);
		/* only nsys steps is a JSON document rather than a report */
		CHECK(t, (d->json != NULL) == (d->kind == VIEW_NSYS_STEPS));
		if (d->family == VIEW_FAMILY_TRACE) /* a command of its own */
			CHECK(t, d->help_head && view_find(d->name) == d);
		CHECK(t, view_find_in(d->family, d->name) == d);
		CHECK(t, view_get(d->kind) == d);
		/* every option is reachable: from both front ends, but nsys
		 * steps --manifest, ncu source --nvdisasm and the diffs'
		 * --base/--new (one option table for the three; no request
		 * may name a file or a program on the server) */
		for (size_t k = 0; k < d->nopts; k++)
			CHECK(t, d->opts[k].lname && d->opts[k].help &&
				     (d->opts[k].api ||
				      (d->kind == VIEW_NSYS_STEPS &&
				       !strcmp(d->opts[k].lname, "manifest")) ||
				      (d->kind == VIEW_NCU_SOURCE &&
				       !strcmp(d->opts[k].lname, "nvdisasm")) ||
				      ((d->kind == VIEW_DIFF || d->kind == VIEW_NCU_DIFF ||
					d->kind == VIEW_NSYS_DIFF) &&
				       d->opts[k].operands &&
				       (!strcmp(d->opts[k].lname, "base") ||
					!strcmp(d->opts[k].lname, "new")))));
	}
	CHECK(t, view_at(view_count()) == NULL);
	CHECK(t, view_find("sumary") == NULL);
	CHECK(t, view_find("") == NULL);
	CHECK(t, view_find("timeline") == NULL); /* not a registry view */
	/* declared defaults: top shows 20 rows, ops all */
	struct view_opts o;
	view_opts_defaults(view_get(VIEW_TOP), &o);
	CHECK_INT(t, o.top, 20);
	view_opts_defaults(view_get(VIEW_OPS), &o);
	CHECK(t, o.top == SIZE_MAX);
	/* memory's checks name the options as each front end spells them */
	const struct view_decl *m = view_get(VIEW_MEMORY);
	char msg[256];
	view_opts_defaults(m, &o);
	o.curve_points = 60;
	CHECK_INT(t, m->check(m, &o, VO_CLI, msg, sizeof msg), -1);
	CHECK_STR(t, msg, "--curve-points goes with --curve, without --step-plot");
	CHECK_INT(t, m->check(m, &o, VO_API, msg, sizeof msg), -1);
	CHECK_STR(t, msg, "points goes with curve, without step_plot");
	view_opts_defaults(m, &o);
	o.step_plot = true; /* the API drops step_plot without curve */
	CHECK_INT(t, m->check(m, &o, VO_API, msg, sizeof msg), 0);
	CHECK(t, !o.step_plot && !o.windowed);
	o.step_plot = true;
	CHECK_INT(t, m->check(m, &o, VO_CLI, msg, sizeof msg), -1);
	CHECK_STR(t, msg, "--step-plot goes with --curve");
}
