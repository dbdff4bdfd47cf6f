/* The scanner's vector kernels against plain loops, at every level the CPU
 * runs, and the fast path of jscan_skip against its general loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/jscan.h"
#include "test.h"

static uint32_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*s >> 33);
}

static const char *ref_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
		p++;
	return p;
}

static const char *ref_quote(const char *p, const char *end)
{
	while (p < end && *p != '"' && *p != '\\' && *p != '\0')
		p++;
	return p;
}

void test_json_simd_kernels(struct t *t)
{
	static const char ws_alpha[] = {' ',  ' ', ' ',	 '\n', '\t',
					'\r', 'x', '\v', '\f', (char)0xA0};
	static const char q_alpha[] = {'a', 'a', 'a', ' ', '"', '\\', '\0', (char)0xA2, '\''};
	uint64_t seed = 14;
	int best = jscan_simd_best();
	CHECK(t, best >= JSCAN_SCALAR && best <= JSCAN_AVX512);
	unsigned bad = 0, runs = 0;
	for (int round = 0; round < 600; round++) {
		/* Exactly n bytes of heap: ASan reports any load past them. */
		size_t n = (size_t)round % 200 + 1;
		char *b = malloc(n);
		if (!b)
			return;
		bool ws = round % 2 == 0;
		/* Long runs of one class with a rare stop byte, so the wide loads
		 * run many steps before they find it. */
		unsigned stop = 1 + rnd(&seed) % 97;
		for (size_t i = 0; i < n; i++) {
			bool rare = rnd(&seed) % stop == 0;
			b[i] = ws ? (rare ? ws_alpha[6 + rnd(&seed) % 4] : ws_alpha[rnd(&seed) % 6])
				  : (rare ? q_alpha[4 + rnd(&seed) % 5] : q_alpha[rnd(&seed) % 4]);
		}
		const char *end = b + n;
		for (size_t at = 0; at <= n; at++) {
			const char *want = ws ? ref_ws(b + at, end) : ref_quote(b + at, end);
			for (int lv = JSCAN_AUTO; lv <= best; lv++) {
				const char *got = ws ? jscan_ws_run(lv, b + at, end)
						     : jscan_quote_run(lv, b + at, end);
				const char *inl =
				    ws ? got : jscan_find_quote_or_bs(lv, b + at, end);
				bad += got != want || inl != want;
				runs++;
			}
		}
		free(b);
	}
	CHECK_INT(t, bad, 0);
	CHECK(t, runs > 10000);
	/* A hand-made case: 70 spaces, then 'x' (past one 64-byte step). */
	char sp[71];
	memset(sp, ' ', 70);
	sp[70] = 'x';
	for (int lv = JSCAN_SCALAR; lv <= best; lv++) {
		CHECK(t, jscan_ws_run(lv, sp, sp + 71) == sp + 70);
		CHECK(t, jscan_ws_run(lv, sp, sp + 70) == sp + 70);
		CHECK(t, jscan_quote_run(lv, sp, sp + 71) == sp + 71);
	}
}

struct skip_res {
	int rc;
	long end; /* j.p - text after the skip */
	unsigned tol;
	long err_off;
	char msg[512];
};

/* jscan_skip of text at level lv; lead: one space first, which sends the
 * value to the general loop (the fast path starts only at '[' or '{'). */
static struct skip_res skip_at(const char *text, size_t len, int lv, bool lead)
{
	struct skip_res r = {0};
	char *b = malloc(len + 1);
	if (!b) {
		r.rc = 99;
		return r;
	}
	b[0] = ' ';
	memcpy(b + 1, text, len);
	struct err e = {0};
	const char *s = lead ? b : b + 1;
	struct jscan j = {
	    .p = s, .end = b + 1 + len, .base = s, .path = "x", .e = &e, .simd = (uint8_t)lv};
	r.rc = jscan_skip(&j);
	r.end = (long)(j.p - (b + 1));
	r.tol = j.tolerated;
	r.err_off = r.rc == JS_ERR ? (long)e.offset - lead : -1;
	if (r.rc == JS_ERR)
		snprintf(r.msg, sizeof r.msg, "%s", e.msg);
	free(b);
	return r;
}

static bool same(const struct skip_res *a, const struct skip_res *b)
{
	if (a->rc != b->rc || a->tol != b->tol)
		return false;
	if (a->rc == JS_OK && a->end != b->end)
		return false;
	return a->rc != JS_ERR || (a->err_off == b->err_off && !strcmp(a->msg, b->msg));
}

void test_json_skip_fast(struct t *t)
{
	/* Hand-checked answers of the fast path's forms and of those it hands
	 * to the general loop. */
	static const struct {
		const char *text;
		int rc;
		long end;
		unsigned tol;
	} cases[] = {
	    {"[[200704, 3136, 56, 1], [1], [], []], ", JS_OK, 36, 0},
	    {"[\"\", \"True\", \"0.1\", \"1e-05\"]}", JS_OK, 28, 0},
	    {"{\"a\": {\"b\": [true, false, null]}, \"c\": -1.5e3}x", JS_OK, 46, 0},
	    {"[\"a\\\"b\", \"\\\\\"]", JS_OK, 14, 0},
	    {"[1,]", JS_OK, 4, 1},
	    {"[NaN, 2]", JS_OK, 8, 1},
	    {"[-, 1]", JS_OK, 6, 0}, /* a bare '-' is a number to the skipper */
	    {"[1, 2", JS_MORE, 0, 0},
	    {"[\"ab", JS_MORE, 0, 0},
	    {"[1 2]", JS_ERR, 0, 0},
	    {"{\"a\" 1}", JS_ERR, 0, 0},
	    {"[1, 2}", JS_ERR, 0, 0},
	    {"[truex]", JS_ERR, 0, 0},
	};
	int best = jscan_simd_best();
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (int lv = JSCAN_AUTO; lv <= best; lv++) {
			struct skip_res r =
			    skip_at(cases[i].text, strlen(cases[i].text), lv, false);
			CHECK_INT(t, r.rc, cases[i].rc);
			if (r.rc == JS_OK)
				CHECK_INT(t, r.end, cases[i].end);
			CHECK_INT(t, r.tol, cases[i].tol);
		}
	}
	struct skip_res r = skip_at("[1 2]", 5, JSCAN_AUTO, false);
	CHECK_INT(t, r.err_off, 3);
	CHECK_STR(t, r.msg, "expected ',' or ']', found a number");

	/* Random token soups: the fast path and the general loop (the same
	 * text after one space) give the same answer, every level alike. */
	static const char *const tok[] = {
	    "[",    "]",     "{",	  "}",	 ",",	   ":",		  " ",
	    "\n  ", "\"k\"", "\"a\\\"\"", "12",	 "-3.5e2", "-",		  "true",
	    "nul",  "null",  "false",	  "NaN", "N/A",	   "\"\\u00e9\"", "x"};
	uint64_t seed = 7;
	unsigned bad = 0, fast_ok = 0;
	char doc[256];
	for (int round = 0; round < 4000; round++) {
		size_t n = 0;
		doc[n++] = rnd(&seed) % 2 ? '[' : '{';
		unsigned k = rnd(&seed) % 24;
		for (unsigned i = 0; i < k; i++) {
			const char *s = tok[rnd(&seed) % (sizeof tok / sizeof tok[0])];
			size_t l = strlen(s);
			if (n + l >= sizeof doc)
				break;
			memcpy(doc + n, s, l);
			n += l;
		}
		struct skip_res g = skip_at(doc, n, JSCAN_SCALAR, true);
		for (int lv = JSCAN_SCALAR; lv <= best; lv++) {
			struct skip_res f = skip_at(doc, n, lv, false);
			bad += !same(&f, &g);
			fast_ok += f.rc == JS_OK;
		}
	}
	CHECK_INT(t, bad, 0);
	CHECK(t, fast_ok > 50);
}

/* The eight-at-a-time number readers decide as the byte-at-a-time tail
 * forms do, and give the general conversions' values. */
void test_json_fast_numbers_wide(struct t *t)
{
	static const char after[] = {',', '}', ']', ' ', 'e', 'E', '.', '+', '-', ':', 'x'};
	uint64_t seed = 3;
	unsigned bad = 0, accepted = 0;
	for (int round = 0; round < 20000; round++) {
		char b[48];
		size_t n = 0;
		if (rnd(&seed) % 4 == 0)
			b[n++] = '-';
		unsigned id = rnd(&seed) % 21; /* 0..20 integer digits */
		for (unsigned i = 0; i < id; i++)
			b[n++] = (char)('0' +
					(i == 0 && id > 1 && rnd(&seed) % 2 ? 9 : rnd(&seed) % 10));
		if (rnd(&seed) % 2) {
			b[n++] = '.';
			unsigned fd = rnd(&seed) % 6;
			for (unsigned i = 0; i < fd; i++)
				b[n++] = (char)('0' + rnd(&seed) % 10);
		}
		size_t len = n;
		b[n++] = after[rnd(&seed) % sizeof after];
		memset(b + n, ' ', sizeof b - n); /* a long window: the wide readers */
		for (int us = 0; us < 2; us++) {
			int64_t wide = 0, tail = 0;
			struct jscan jw = {.p = b, .end = b + sizeof b, .base = b};
			struct jscan jt = {.p = b, .end = b + sizeof b, .base = b};
			bool w = us ? jscan_fast_us(&jw, &wide) : jscan_fast_i64(&jw, &wide);
			bool tl =
			    us ? jscan_fast_us_tail(&jt, &tail) : jscan_fast_i64_tail(&jt, &tail);
			bad += w != tl || jw.p != jt.p || (w && wide != tail);
			if (w) {
				int64_t want = 0;
				int rc =
				    us ? jnum_us_to_ns(b, len, &want) : jnum_i64(b, len, &want);
				bad += rc != 0 || want != wide || jw.p != b + len;
				accepted++;
			} else {
				bad += jw.p != b;
			}
		}
	}
	CHECK_INT(t, bad, 0);
	CHECK(t, accepted > 5000);
	int64_t v = 0;
	const char *ts = "1700000595660.555, \"cat\": \"cpu_op\", \"name\": \"x\"";
	struct jscan j = {.p = ts, .end = ts + strlen(ts), .base = ts};
	CHECK(t, jscan_fast_us(&j, &v));
	CHECK_INT(t, v, 1700000595660555LL);
	CHECK_INT(t, j.p - ts, 17);
	const char *addr = "139887751491072, \"Device Id\": 0, \"Device Type\": 1";
	j = (struct jscan){.p = addr, .end = addr + strlen(addr), .base = addr};
	CHECK(t, jscan_fast_i64(&j, &v));
	CHECK_INT(t, v, 139887751491072LL);
	CHECK_INT(t, j.p - addr, 15);
}
