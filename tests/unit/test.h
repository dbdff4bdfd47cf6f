/* test: the unit-test framework (a few macros and a registry).
 *
 * A test is `void test_NAME(struct t *t)` listed in tests/unit/tests.def as
 * T(NAME). A test passes when none of its CHECKs failed. The runner prints
 * one line per failure (file:line and the values) and the closing line
 * "unit: N passed, N failed". `unit-tests PATTERN` runs the tests whose name
 * contains PATTERN.
 */
#ifndef GP_TEST_H
#define GP_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

struct t {
	const char *name;
	int failed_checks;
	const char *shared; /* path of ../shared, or NULL when absent */
};

void t_fail(struct t *t, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#define CHECK(t, cond)                                                                             \
	do {                                                                                       \
		if (!(cond))                                                                       \
			t_fail((t), __FILE__, __LINE__, "CHECK(%s)", #cond);                       \
	} while (0)

#define CHECK_INT(t, got, want)                                                                    \
	do {                                                                                       \
		long long g_ = (long long)(got), w_ = (long long)(want);                           \
		if (g_ != w_)                                                                      \
			t_fail((t), __FILE__, __LINE__, "%s = %lld, want %lld", #got, g_, w_);     \
	} while (0)

#define CHECK_STR(t, got, want)                                                                    \
	do {                                                                                       \
		const char *g_ = (got), *w_ = (want);                                              \
		if (!g_ || !w_ || strcmp(g_, w_))                                                  \
			t_fail((t), __FILE__, __LINE__, "%s = \"%s\", want \"%s\"", #got,          \
			       g_ ? g_ : "(null)", w_ ? w_ : "(null)");                            \
	} while (0)

#define CHECK_DBL(t, got, want, tol)                                                               \
	do {                                                                                       \
		double g_ = (got), w_ = (want);                                                    \
		if (!(g_ - w_ <= (tol) && w_ - g_ <= (tol)))                                       \
			t_fail((t), __FILE__, __LINE__, "%s = %.17g, want %.17g", #got, g_, w_);   \
	} while (0)

/* Skips the rest of a test that needs ../shared when it is absent. */
#define NEED_SHARED(t)                                                                             \
	do {                                                                                       \
		if (!(t)->shared) {                                                                \
			printf("skip %s: ../shared not found\n", (t)->name);                       \
			return;                                                                    \
		}                                                                                  \
	} while (0)

/* fixture.c: JSON text -> a temp file (caller unlinks and frees the path),
 * and -> a loaded trace (NULL after a reported failure). */
struct trace;
char *t_write_tmp(const char *data, size_t len);
struct trace *t_load_text(struct t *t, const char *text);

#define T(name) void test_##name(struct t *t);
#include "tests.def"
#undef T

#endif
