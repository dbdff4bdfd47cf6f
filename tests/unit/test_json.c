#include <math.h>
#include <stdlib.h>

#include "json/jscan.h"
#include "test.h"

static int64_t ns(const char *s, int *rc)
{
	int64_t v = 0;
	*rc = jnum_us_to_ns(s, strlen(s), &v);
	return v;
}

void test_json_us_to_ns(struct t *t)
{
	int rc;
	CHECK_INT(t, ns("1.5", &rc), 1500);
	CHECK_INT(t, ns("4458676983543.183", &rc), 4458676983543183LL);
	CHECK_INT(t, rc, 0);
	CHECK_INT(t, ns("12", &rc), 12000);
	CHECK_INT(t, ns("0.0005", &rc), 1); /* half away from zero */
	CHECK_INT(t, ns("0.0004", &rc), 0);
	CHECK_INT(t, ns("-1.0015", &rc), -1002);
	CHECK_INT(t, ns("1.2345678", &rc), 1235);
	CHECK_INT(t, ns("1e3", &rc), 1000000);
	CHECK_INT(t, ns("1.7e12", &rc), 1700000000000000LL);
	CHECK_INT(t, ns("1751410836123456.789", &rc), 1751410836123456789LL);
	ns("1.", &rc);
	CHECK_INT(t, rc, -1);
	ns("abc", &rc);
	CHECK_INT(t, rc, -1);
	ns("9223372036854775807", &rc); /* too many µs for int64 ns */
	CHECK_INT(t, rc, -1);
	ns("", &rc);
	CHECK_INT(t, rc, -1);
}

void test_json_numbers(struct t *t)
{
	int64_t v = 0;
	CHECK_INT(t, jnum_i64("12", 2, &v), 0);
	CHECK_INT(t, v, 12);
	CHECK_INT(t, jnum_i64("-12.0", 5, &v), 0);
	CHECK_INT(t, v, -12);
	CHECK_INT(t, jnum_i64("1.2e1", 5, &v), 0);
	CHECK_INT(t, v, 12);
	CHECK_INT(t, jnum_i64("1.5", 3, &v), -1);
	CHECK_INT(t, jnum_i64("9223372036854775807", 19, &v), 0);
	CHECK_INT(t, v, INT64_MAX);
	CHECK_INT(t, jnum_i64("9223372036854775808", 19, &v), -1);
	double d;
	CHECK_INT(t, jnum_f64("4.740741", 8, &d), 0);
	CHECK(t, d == 4.740741);
	CHECK_INT(t, jnum_f64("0.1", 3, &d), 0);
	CHECK(t, d == 0.1);
	CHECK_INT(t, jnum_f64("1e-7", 4, &d), 0);
	CHECK(t, d == 1e-7);
	CHECK_INT(t, jnum_f64("123456789012345678901234567890", 30, &d), 0);
	CHECK(t, d == 123456789012345678901234567890.0);
	CHECK_INT(t, jnum_f64("NaN", 3, &d), 0);
	CHECK(t, isnan(d));
	CHECK_INT(t, jnum_f64("-", 1, &d), -1);
	CHECK_INT(t, jnum_f64("75", 2, &d), 0);
	CHECK(t, d == 75.0);
	CHECK_INT(t, jnum_f64("-2.5", 4, &d), 0);
	CHECK(t, d == -2.5);
	CHECK_INT(t, jnum_f64("15.515152", 9, &d), 0);
	CHECK(t, d == 15.515152);
	CHECK_INT(t, jnum_f64("1.", 2, &d), -1);
	CHECK_INT(t, jnum_f64("1.2.3", 5, &d), -1);
}

static int skip_all(const char *text, size_t len, struct err *e, unsigned *tol)
{
	struct jscan j = {.p = text, .end = text + len, .base = text, .path = "x", .e = e};
	int rc = jscan_skip(&j);
	*tol = j.tolerated;
	return rc;
}

void test_json_skip_prefixes(struct t *t)
{
	/* Every cut of a valid document asks for more input; only the whole
	 * document succeeds. This is what makes refills safe. */
	const char *doc = "{\"a\": [1, -2.5e3, \"x\\\"y\", true, false, null, {\"b\": {}}],"
			  " \"c\": \"\\u00e9\", \"d\": []}";
	size_t n = strlen(doc);
	struct err e;
	unsigned tol;
	for (size_t cut = 0; cut < n; cut++) {
		int rc = skip_all(doc, cut, &e, &tol);
		if (rc != JS_MORE) {
			t_fail(t, __FILE__, __LINE__, "prefix of %zu bytes gave %d", cut, rc);
			break;
		}
	}
	CHECK_INT(t, skip_all(doc, n, &e, &tol), JS_OK);
	CHECK_INT(t, tol, 0);
	/* tolerated forms */
	const char *odd = "[NaN, -Infinity, Infinity, N/A, 1,]";
	CHECK_INT(t, skip_all(odd, strlen(odd), &e, &tol), JS_OK);
	CHECK_INT(t, tol, 5);
	/* errors carry the offset */
	const char *bad = "{\"a\" 1}";
	CHECK_INT(t, skip_all(bad, strlen(bad), &e, &tol), JS_ERR);
	CHECK_INT(t, e.offset, 5);
	CHECK_STR(t, e.msg, "expected ':', found a number");
	char deep[600];
	memset(deep, '[', 300);
	memset(deep + 300, ']', 300);
	CHECK_INT(t, skip_all(deep, 600, &e, &tol), JS_ERR);
	CHECK(t, strstr(e.msg, "nesting deeper") != NULL);
}

void test_json_unescape(struct t *t)
{
	char out[64];
	struct jstr s = {"a\\n\\u00e9\\ud83d\\ude00\\\"", 23, true};
	long n = jscan_unescape(&s, out, sizeof out);
	CHECK_INT(t, n, 1 + 1 + 2 + 4 + 1);
	CHECK(t, n > 0 && !memcmp(out, "a\n\xC3\xA9\xF0\x9F\x98\x80\"", (size_t)n));
	struct jstr bad = {"\\x", 2, true};
	CHECK_INT(t, jscan_unescape(&bad, out, sizeof out), -1);
	struct jstr lone = {"\\ud800", 6, true};
	CHECK_INT(t, jscan_unescape(&lone, out, sizeof out), 3); /* U+FFFD */
	CHECK(t, !memcmp(out, "\xEF\xBF\xBD", 3));
}

/* The one-pass readers must agree with the general conversions. */
void test_json_fast_numbers(struct t *t)
{
	static const char *const us[] = {"1700000589864.096,",
					 "4458676983543.183}",
					 "12345678,",
					 "123456789012345.5 ",
					 "0.5,",
					 "-17.25]",
					 "99999999.999,",
					 "1234567.1234,",
					 "1e3,",
					 "1669783687464181,", /* epoch microseconds, 16 digits */
					 "9223372036854775.807,", /* INT64_MAX ns */
					 "9223372036854775.808,", /* one past: the general path */
					 "12345678901234567,"};
	for (size_t i = 0; i < sizeof us / sizeof us[0]; i++) {
		const char *s = us[i];
		size_t len = strcspn(s, ",} ]");
		int64_t want = 0, got = 0;
		int wrc = jnum_us_to_ns(s, len, &want);
		struct jscan j = {.p = s, .end = s + strlen(s), .base = s};
		if (jscan_fast_us(&j, &got)) {
			CHECK_INT(t, wrc, 0);
			CHECK_INT(t, got, want);
			CHECK_INT(t, j.p - s, len);
		} else {
			CHECK(t, j.p == s); /* left for the general path */
		}
	}
	int64_t v;
	struct jscan j = {.p = "1700000589864.096,", .base = NULL};
	j.end = j.p + 18;
	CHECK(t, jscan_fast_us(&j, &v));
	CHECK_INT(t, v, 1700000589864096LL);
	/* 16 integer digits (traces of epoch microseconds) take the fast path,
	 * in a long window and at its end */
	const char *epoch = "1669783687464181, \"dur\": 45, \"cat\": \"kernel\"";
	j = (struct jscan){.p = epoch, .end = epoch + strlen(epoch), .base = epoch};
	CHECK(t, jscan_fast_us(&j, &v));
	CHECK_INT(t, v, 1669783687464181000LL);
	j = (struct jscan){.p = epoch, .end = epoch + 17, .base = epoch};
	CHECK(t, jscan_fast_us(&j, &v));
	CHECK_INT(t, v, 1669783687464181000LL);
	const char *ints = "1299557, -42}";
	j = (struct jscan){.p = ints, .end = ints + strlen(ints)};
	CHECK(t, jscan_fast_i64(&j, &v));
	CHECK_INT(t, v, 1299557);
	j.p += 2;
	CHECK(t, jscan_fast_i64(&j, &v));
	CHECK_INT(t, v, -42);
	const char *cut = "12345"; /* the window ends inside the number */
	j = (struct jscan){.p = cut, .end = cut + 5};
	CHECK(t, !jscan_fast_i64(&j, &v));
	CHECK(t, !jscan_fast_us(&j, &v));
}
