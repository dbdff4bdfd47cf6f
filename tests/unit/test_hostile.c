/* What the trace reader says about out-of-spec input: anomalies for NaN
 * and Infinity, invalid escapes and NUL bytes in strings (with the value
 * kept), input bytes escaped in messages (err_quote, err_format), and a
 * gzip stream cut before any data. */
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include "kineto/kineto.h"
#include "test.h"
#include "trace/trace.h"

/* Offset of the n-th (0-based) occurrence of what in text. */
static int64_t at(const char *text, const char *what, int n)
{
	const char *p = text;
	for (int i = 0; p && i <= n; i++)
		p = strstr(i ? p + 1 : p, what);
	return p ? p - text : -1;
}

static const char *name_of(const struct trace *tr, size_t row)
{
	return row < tr->ev.n ? tr_str(tr, tr->ev.name[row]) : "";
}

/* Bare NaN / Infinity: nonstandard_json at the first; an integer field
 * holding one is also a bad_number (kept absent); a double field keeps
 * absent (NaN): no counter row, blocks per SM absent. A quoted "Infinity"
 * in a double field is a bad_number. */
void test_hostile_nonfinite(struct t *t)
{
	const char *text =
	    "[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":"
	    "2,"
	    "\"args\":{\"blocks per SM\":Infinity,\"warps per SM\":\"NaN\",\"correlation\":1}},"
	    "{\"ph\":\"X\",\"name\":\"d\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":NaN},"
	    "{\"ph\":\"C\",\"name\":\"c\",\"pid\":1,\"tid\":1,\"ts\":9,\"args\":{\"v\":-Infinity,"
	    "\"w\":1e999,\"x\":2}}]";
	struct trace *tr = t_load_text(t, text);
	if (!tr)
		return;
	const struct tr_anomalies *a = &tr->anomalies;
	CHECK_INT(t, a->count[AN_NONSTANDARD], 3); /* Infinity, NaN, -Infinity */
	CHECK_INT(t, a->first_offset[AN_NONSTANDARD], at(text, "Infinity", 0));
	/* "NaN" as a string, dur NaN, 1e999 */
	CHECK_INT(t, a->count[AN_BAD_NUMBER], 3);
	CHECK_INT(t, tr->counters.n, 1); /* only x = 2 */
	CHECK(t, tr->counters.n == 1 && tr->counters.v[0].value == 2.0);
	const struct tr_gpu_arg *g = tr_gpu_arg(tr, 0);
	CHECK(t, g && g->blocks_per_sm != g->blocks_per_sm && g->warps_per_sm != g->warps_per_sm);
	tr_free(tr);
}

/* An invalid escape keeps the string as written (bad_escape, at its
 * opening quote); a NUL, escaped or raw, is read as U+FFFD (nul_in_string,
 * at its string's opening quote), so "a\0b" stays three characters. */
void test_hostile_strings(struct t *t)
{
	static const char text[] =
	    "[{\"ph\":\"X\",\"name\":\"a\\u00zzb\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},"
	    "{\"ph\":\"X\",\"name\":\"a\\u0000b\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":1},"
	    "{\"ph\":\"X\",\"name\":\"c\0d\0\",\"pid\":1,\"tid\":1,\"ts\":3,\"dur\":1},"
	    "{\"ph\":\"X\",\"name\":\"e\\q\",\"pid\":1,\"tid\":1,\"ts\":4,\"dur\":1}]";
	size_t len = sizeof text - 1;
	char *path = t_write_tmp(text, len);
	struct trace *tr = NULL;
	struct err e = {0};
	CHECK_INT(t, kineto_load(path, NULL, &tr, &e), 0);
	unlink(path);
	free(path);
	if (!tr)
		return;
	const struct tr_anomalies *a = &tr->anomalies;
	CHECK_INT(t, a->count[AN_BAD_ESCAPE], 2);
	CHECK_INT(t, a->first_offset[AN_BAD_ESCAPE], at(text, "\"a\\u00zz", 0));
	CHECK_INT(t, a->count[AN_NUL_IN_STRING], 2);
	CHECK_INT(t, a->first_offset[AN_NUL_IN_STRING], at(text, "\"a\\u0000", 0));
	CHECK_INT(t, tr->ev.n, 4);
	CHECK_STR(t, name_of(tr, 0), "a\\u00zzb");
	CHECK_STR(t, name_of(tr, 1),
		  "a\xEF\xBF\xBD"
		  "b");
	CHECK_STR(t, name_of(tr, 2),
		  "c\xEF\xBF\xBD"
		  "d\xEF\xBF\xBD");
	CHECK_INT(t, strpool_len(&tr->pool, tr->ev.name[2]), 8);
	CHECK_STR(t, name_of(tr, 3), "e\\q");
	tr_free(tr);
}

/* The same counts from the second importing thread: 3000 events, every
 * 100th with a NUL, every 100th (another) with a bad escape, in small
 * windows split between the two threads. */
void test_hostile_strings_parallel(struct t *t)
{
	size_t cap = 3000 * 80, n = 0;
	char *text = malloc(cap);
	if (!text)
		return;
	n += (size_t)sprintf(text + n, "[");
	for (int i = 0; i < 3000; i++)
		n +=
		    (size_t)sprintf(text + n,
				    "%s{\"ph\":\"X\",\"name\":\"%s\",\"pid\":1,\"tid\":1,\"ts\":%d,"
				    "\"dur\":1}",
				    i ? "," : "",
				    i % 100 == 7    ? "n\\u0000"
				    : i % 100 == 50 ? "b\\x"
						    : "ok",
				    i * 2 + 1);
	n += (size_t)sprintf(text + n, "]");
	char *path = t_write_tmp(text, n);
	for (int threads = 1; path && threads <= 2; threads++) {
		struct kineto_opts o = {.threads = threads, .window = 16384, .split_min = 2048};
		struct trace *tr = NULL;
		struct err e = {0};
		CHECK_INT(t, kineto_load(path, &o, &tr, &e), 0);
		if (!tr)
			continue;
		CHECK_INT(t, tr->ev.n, 3000);
		CHECK_INT(t, tr->anomalies.count[AN_NUL_IN_STRING], 30);
		CHECK_INT(t, tr->anomalies.first_offset[AN_NUL_IN_STRING], at(text, "\"n\\u", 0));
		CHECK_INT(t, tr->anomalies.count[AN_BAD_ESCAPE], 30);
		CHECK_INT(t, tr->anomalies.first_offset[AN_BAD_ESCAPE], at(text, "\"b\\x", 0));
		if (threads == 2)
			CHECK(t, tr->counts.merged_windows > 0);
		tr_free(tr);
	}
	if (path)
		unlink(path);
	free(path);
	free(text);
}

/* err_quote escapes what a quoted piece of input may hold; err_format
 * keeps a file name with control bytes on one printable line. */
void test_hostile_quote(struct t *t)
{
	char buf[64];
	CHECK_STR(t, err_quote(buf, sizeof buf, "a\x01\n\t\"'\\\x7f", 8),
		  "a\\x01\\n\\t\\\"\\'\\\\\\x7f");
	/* well-formed UTF-8 stays; a lone lead byte, an overlong form and a
	 * surrogate do not */
	CHECK_STR(t, err_quote(buf, sizeof buf, "\xC3\xA9|\xC3|\xC0\xAF|\xED\xA0\x80", 11),
		  "\xC3\xA9|\\xc3|\\xc0\\xaf|\\xed\\xa0\\x80");
	CHECK_STR(t, err_quote(buf, 6, "abc\x01", 4), "abc"); /* no half escape */
	struct err e;
	err_set(&e, ERR_FORMAT, "we\nird\x1b.json", 3, "found 'it's'");
	err_format(&e, buf, sizeof buf);
	CHECK_STR(t, buf, "we\\nird\\x1b.json: byte 3: found 'it's'");
}

/* A control byte where JSON wants a token: the message quotes it. */
void test_hostile_found_byte(struct t *t)
{
	static const char text[] = "[{\"ph\":\"X\"\x01}]";
	char *path = t_write_tmp(text, sizeof text - 1);
	struct trace *tr = NULL;
	struct err e = {0};
	CHECK_INT(t, kineto_load(path, NULL, &tr, &e), ERR_FORMAT);
	CHECK_INT(t, e.offset, 10);
	CHECK_STR(t, e.msg, "expected ',' or '}', found an unexpected byte '\\x01'");
	unlink(path);
	free(path);
}

/* A gzip stream cut before any data: in its 10-byte header, or after it
 * before the first decompressed byte (from 12 bytes on, this one yields
 * "[" and loads as a truncated trace); the offset counts compressed
 * bytes. */
void test_hostile_gzip_cut(struct t *t)
{
	const char *json = "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}]";
	unsigned char z[256];
	z_stream zs = {0};
	CHECK_INT(t, deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	zs.next_in = (unsigned char *)(uintptr_t)json;
	zs.avail_in = (unsigned)strlen(json);
	zs.next_out = z;
	zs.avail_out = sizeof z;
	CHECK_INT(t, deflate(&zs, Z_FINISH), Z_STREAM_END);
	size_t zn = sizeof z - zs.avail_out;
	deflateEnd(&zs);
	static const size_t cuts[] = {5, 9, 10, 11};
	for (size_t i = 0; i < 4; i++) {
		char *path = t_write_tmp((const char *)z, cuts[i]);
		struct trace *tr = NULL;
		struct err e = {0};
		CHECK_INT(t, kineto_load(path, NULL, &tr, &e), ERR_FORMAT);
		CHECK_INT(t, e.offset, cuts[i]);
		CHECK(t, !e.uncompressed);
		char want[128];
		if (cuts[i] < 10)
			snprintf(want, sizeof want,
				 "truncated gzip header: the input ends after %zu bytes", cuts[i]);
		else
			snprintf(want, sizeof want,
				 "truncated gzip member: the input ends after %zu bytes, past its "
				 "header but before any data",
				 cuts[i]);
		CHECK_STR(t, e.msg, want);
		unlink(path);
		free(path);
	}
	/* the whole stream loads */
	char *path = t_write_tmp((const char *)z, zn);
	struct trace *tr = NULL;
	struct err e = {0};
	CHECK_INT(t, kineto_load(path, NULL, &tr, &e), 0);
	if (tr)
		CHECK_INT(t, tr->ev.n, 1);
	tr_free(tr);
	unlink(path);
	free(path);
}
