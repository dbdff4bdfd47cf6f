/* test_report: the output sinks, rendered into memory and compared with the
 * exact expected text in each format. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "test.h"

struct mem {
	char *p;
	size_t n;
	FILE *f;
};

static struct report *mem_open(struct mem *m, enum rep_format fmt)
{
	m->p = NULL;
	m->n = 0;
	m->f = open_memstream(&m->p, &m->n);
	return m->f ? rep_open(m->f, fmt) : NULL;
}

/* Closes r and the stream; returns the text (caller frees), rep_close's
 * result in *rc. */
static char *mem_close(struct mem *m, struct report *r, int *rc)
{
	*rc = rep_close(r);
	if (m->f)
		fclose(m->f);
	return m->p;
}

static const struct rep_col kernel_cols[] = {
    {"name", "Kernel", REP_STR},     {"calls", "Calls", REP_INT},
    {"dur_ns", "Total", REP_DUR_NS}, {"bytes", "Memory", REP_BYTES},
    {"share_pct", "Share", REP_PCT},
};
static const struct rep_col step_cols[] = {
    {"step", "Step", REP_INT},
    {"ok", "OK", REP_BOOL},
    {"ratio", "Ratio", REP_FLOAT},
};

/* Two tables and a section; returns the sum of the calls' results. */
static int sample(struct report *r, bool with_steps, bool with_trace)
{
	int rc = rep_table_begin(r, "kernels", "Top kernels", kernel_cols, 5);
	rc |= rep_row(
	    r, (struct rep_val[]){rep_s("gemm"), rep_i(12), rep_i(1234), rep_i(1536), rep_f(61.5)});
	rc |= rep_row(
	    r, (struct rep_val[]){rep_s("relu"), rep_i(3), rep_i(999), rep_i(512), rep_f(38.5)});
	rc |= rep_row(r, (struct rep_val[]){rep_null(), rep_i(0), rep_i(0), rep_i(0), rep_f(0)});
	rc |= rep_table_end(r);
	if (with_steps) {
		rc |= rep_table_begin(r, "steps", NULL, step_cols, 3);
		rc |= rep_row(r, (struct rep_val[]){rep_i(1), rep_b(true), rep_f(0.1)});
		rc |= rep_row(r, (struct rep_val[]){rep_i(2), rep_b(false), rep_f(1e-7)});
		rc |= rep_table_end(r);
	}
	if (with_trace) {
		rc |= rep_kv_begin(r, "trace", "Trace");
		rc |= rep_kv(r, "format", "Format", REP_STR, rep_s("Kineto JSON"));
		rc |= rep_kv(r, "events", "Events", REP_INT, rep_i(123456789012345));
		rc |= rep_kv(r, "span_ns", "Time span", REP_DUR_NS, rep_i(59500000000));
		rc |= rep_kv(r, "gzip", "Compressed", REP_BOOL, rep_b(true));
		rc |= rep_kv(r, "torch", "Torch version", REP_STR, rep_s(NULL));
		rc |= rep_kv_end(r);
	}
	return rc;
}

static void check_sample(struct t *t, enum rep_format fmt, bool steps, bool trace, const char *want)
{
	struct mem m;
	int rc;
	struct report *r = mem_open(&m, fmt);
	CHECK(t, r != NULL);
	CHECK_INT(t, sample(r, steps, trace), 0);
	char *got = mem_close(&m, r, &rc);
	CHECK_INT(t, rc, 0);
	CHECK_STR(t, got, want);
	free(got);
}

void test_report_fmt_dur(struct t *t)
{
	static const struct {
		int64_t ns;
		const char *want;
	} cases[] = {
	    {0, "0 ns"},
	    {1, "1 ns"},
	    {999, "999 ns"},
	    {1000, "1.000 us"},
	    {1234, "1.234 us"},
	    {999999, "999.999 us"},
	    {1000000, "1.000 ms"},
	    {1234567, "1.235 ms"},
	    {999999499, "999.999 ms"},
	    {999999500, "1.000 s"}, /* rounds to 1000.000 ms: moves up a unit */
	    {59500000000, "59.500 s"},
	    {3 * 3600 * INT64_C(1000000000), "10800.000 s"},
	    {-5, "-5 ns"},
	    {-1234, "-1.234 us"},
	    {-59500000000, "-59.500 s"},
	    {INT64_MIN, "-9223372036.855 s"},
	    {INT64_MAX, "9223372036.855 s"},
	};
	char buf[64];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		rep_fmt_dur(buf, sizeof buf, cases[i].ns);
		CHECK_STR(t, buf, cases[i].want);
	}
	rep_fmt_dur(buf, 4, 1234); /* truncated, still terminated */
	CHECK_STR(t, buf, "1.2");
}

void test_report_fmt_bytes(struct t *t)
{
	static const struct {
		int64_t b;
		const char *want;
	} cases[] = {
	    {0, "0 B"},
	    {512, "512 B"},
	    {1023, "1023 B"},
	    {1024, "1.00 KiB"},
	    {1536, "1.50 KiB"},
	    {1048575, "1.00 MiB"}, /* 1023.999 KiB rounds up: next unit */
	    {1048576, "1.00 MiB"},
	    {1610612736, "1.50 GiB"},
	    {INT64_C(1) << 40, "1.00 TiB"},
	    {INT64_C(1) << 50, "1024.00 TiB"},
	    {-1536, "-1.50 KiB"},
	    {-100, "-100 B"},
	};
	char buf[64];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		rep_fmt_bytes(buf, sizeof buf, cases[i].b);
		CHECK_STR(t, buf, cases[i].want);
	}
}

void test_report_text(struct t *t)
{
	check_sample(t, REP_TABLE, true, true,
		     "Top kernels\n"
		     "Kernel  Calls     Total    Memory    Share\n"
		     "gemm       12  1.234 us  1.50 KiB  61.50 %\n"
		     "relu        3    999 ns     512 B  38.50 %\n"
		     "-           0      0 ns       0 B   0.00 %\n"
		     "\n"
		     "Step  OK   Ratio\n"
		     "   1  yes    0.1\n"
		     "   2  no   1e-07\n"
		     "\n"
		     "Trace\n"
		     "  Format:        Kineto JSON\n"
		     "  Events:        123456789012345\n"
		     "  Time span:     59.500 s\n"
		     "  Compressed:    yes\n"
		     "  Torch version: -\n");
	check_sample(t, REP_TABLE, false, false,
		     "Top kernels\n"
		     "Kernel  Calls     Total    Memory    Share\n"
		     "gemm       12  1.234 us  1.50 KiB  61.50 %\n"
		     "relu        3    999 ns     512 B  38.50 %\n"
		     "-           0      0 ns       0 B   0.00 %\n");
}

void test_report_text_align(struct t *t)
{
	static const struct rep_col cols[] = {
	    {"n", "N", REP_INT}, {"name", "Name", REP_STR}, {"x", NULL, REP_FLOAT}};
	struct mem m;
	int rc;
	struct report *r = mem_open(&m, REP_TABLE);
	CHECK_INT(t, rep_table_begin(r, "t", "A\ttitle", cols, 2), 0);
	CHECK_INT(t, rep_row(r, (struct rep_val[]){rep_i(1), rep_s("h\xc3\xa9llo")}), 0);
	CHECK_INT(t, rep_row(r, (struct rep_val[]){rep_i(-22), rep_s("a\tb")}), 0);
	CHECK_INT(t, rep_row(r, (struct rep_val[]){rep_null(), rep_s("")}), 0);
	CHECK_INT(t, rep_table_end(r), 0);
	/* Column title defaults to the key; empty table prints the header only. */
	CHECK_INT(t, rep_table_begin(r, "u", NULL, cols + 2, 1), 0);
	CHECK_INT(t, rep_table_end(r), 0);
	CHECK_INT(t, rep_kv_begin(r, "empty", NULL), 0);
	CHECK_INT(t, rep_kv_end(r), 0);
	CHECK_INT(t, rep_kv_begin(r, "s", "S"), 0);
	CHECK_INT(t, rep_kv(r, "a", NULL, REP_PCT, rep_f(12.3456)), 0);
	CHECK_INT(t, rep_kv(r, "blank", "Blank", REP_STR, rep_s("")), 0);
	CHECK_INT(t, rep_kv(r, "f", "Float", REP_FLOAT, rep_f(3.14159265)), 0);
	CHECK_INT(t, rep_kv(r, "b", "Big", REP_BYTES, rep_i(3 * (INT64_C(1) << 30))), 0);
	CHECK_INT(t, rep_kv_end(r), 0);
	char *got = mem_close(&m, r, &rc);
	CHECK_INT(t, rc, 0);
	/* Numbers right, text left, 2 spaces apart, no trailing spaces,
	 * width in code points, control characters as spaces. */
	CHECK_STR(t, got,
		  "A title\n"
		  "  N  Name\n"
		  "  1  h\xc3\xa9llo\n"
		  "-22  a b\n"
		  "  -\n"
		  "\n"
		  "x\n"
		  "\n"
		  "\n"
		  "S\n"
		  "  a:     12.35 %\n"
		  "  Blank:\n"
		  "  Float: 3.14159\n"
		  "  Big:   3.00 GiB\n");
	free(got);
}

/* REP_NAME: a text table shows a name of 74 code points or more as its
 * first 36 and last 35 around "…" (72 in all); 73 stay whole; CSV and
 * JSON keep every byte. Widths count code points ("é" is one). */
void test_report_name(struct t *t)
{
	static const struct rep_col cols[] = {{"name", "Name", REP_NAME}, {"n", "N", REP_INT}};
	char a73[74], a74[80], e[512];
	memset(a73, 'a', 73);
	a73[73] = 0;
	/* 74 code points: "é" + 36 'b' + 36 'c' + 'd' */
	strcpy(a74, "\xc3\xa9");
	memset(a74 + 2, 'b', 36);
	memset(a74 + 38, 'c', 36);
	strcpy(a74 + 74, "d");
	struct mem m;
	int rc;
	struct report *r = mem_open(&m, REP_TABLE);
	CHECK_INT(t, rep_table_begin(r, "t", NULL, cols, 2), 0);
	CHECK_INT(t, rep_row(r, (struct rep_val[]){rep_s(a73), rep_i(1)}), 0);
	CHECK_INT(t, rep_row(r, (struct rep_val[]){rep_s(a74), rep_i(2)}), 0);
	CHECK_INT(t, rep_row(r, (struct rep_val[]){rep_s("x"), rep_i(3)}), 0);
	CHECK_INT(t, rep_table_end(r), 0);
	char *got = mem_close(&m, r, &rc);
	CHECK_INT(t, rc, 0);
	/* kept: é + 35 'b' (36 code points), "…", 34 'c' + 'd' (35) */
	char elided[120];
	strcpy(elided, "\xc3\xa9");
	memset(elided + 2, 'b', 35);
	strcpy(elided + 37, "\xe2\x80\xa6");
	memset(elided + 40, 'c', 34);
	strcpy(elided + 74, "d");
	snprintf(e, sizeof e, "Name%*s  N\n%s  1\n%s   2\nx%*s  3\n", 69, "", a73, elided, 72, "");
	CHECK_STR(t, got, e);
	free(got);
	r = mem_open(&m, REP_CSV);
	CHECK_INT(t, rep_table_begin(r, "t", NULL, cols, 2), 0);
	CHECK_INT(t, rep_row(r, (struct rep_val[]){rep_s(a74), rep_i(2)}), 0);
	CHECK_INT(t, rep_table_end(r), 0);
	got = mem_close(&m, r, &rc);
	snprintf(e, sizeof e, "name,n\n%s,2\n", a74);
	CHECK_STR(t, got, e);
	free(got);
	r = mem_open(&m, REP_JSON);
	CHECK_INT(t, rep_table_begin(r, "t", NULL, cols, 2), 0);
	CHECK_INT(t, rep_row(r, (struct rep_val[]){rep_s(a74), rep_null()}), 0);
	CHECK_INT(t, rep_table_end(r), 0);
	got = mem_close(&m, r, &rc);
	CHECK(t, got && strstr(got, a74) != NULL);
	free(got);
}

void test_report_csv(struct t *t)
{
	check_sample(t, REP_CSV, true, true,
		     "# kernels\n"
		     "name,calls,dur_ns,bytes,share_pct\n"
		     "gemm,12,1234,1536,61.5\n"
		     "relu,3,999,512,38.5\n"
		     ",0,0,0,0\n"
		     "\n"
		     "# steps\n"
		     "step,ok,ratio\n"
		     "1,true,0.1\n"
		     "2,false,1e-07\n"
		     "\n"
		     "# trace\n"
		     "key,value\n"
		     "format,Kineto JSON\n"
		     "events,123456789012345\n"
		     "span_ns,59500000000\n"
		     "gzip,true\n"
		     "torch,\n");
	/* One table: no "# name" line. */
	check_sample(t, REP_CSV, false, false,
		     "name,calls,dur_ns,bytes,share_pct\n"
		     "gemm,12,1234,1536,61.5\n"
		     "relu,3,999,512,38.5\n"
		     ",0,0,0,0\n");
	/* One section alone, and nothing at all. */
	struct mem m;
	int rc;
	struct report *r = mem_open(&m, REP_CSV);
	CHECK_INT(t, rep_kv_begin(r, "trace", "Trace"), 0);
	CHECK_INT(t, rep_kv(r, "events", NULL, REP_INT, rep_i(-7)), 0);
	CHECK_INT(t, rep_kv_end(r), 0);
	char *got = mem_close(&m, r, &rc);
	CHECK_INT(t, rc, 0);
	CHECK_STR(t, got, "key,value\nevents,-7\n");
	free(got);
	r = mem_open(&m, REP_CSV);
	got = mem_close(&m, r, &rc);
	CHECK_INT(t, rc, 0);
	CHECK_STR(t, got, "");
	free(got);
}

void test_report_csv_escape(struct t *t)
{
	static const struct rep_col cols[] = {{"s", NULL, REP_STR}, {"a,\"b\"", NULL, REP_INT}};
	static const char *const in[] = {"a,b", "say \"hi\"", "line1\nline2", "cr\rlf", "plain",
					 "\"",	"",	      " sp "};
	struct mem m;
	int rc;
	struct report *r = mem_open(&m, REP_CSV);
	CHECK_INT(t, rep_table_begin(r, "t", NULL, cols, 2), 0);
	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
		CHECK_INT(t, rep_row(r, (struct rep_val[]){rep_s(in[i]), rep_i((int64_t)i)}), 0);
	CHECK_INT(t, rep_table_end(r), 0);
	char *got = mem_close(&m, r, &rc);
	CHECK_INT(t, rc, 0);
	CHECK_STR(t, got,
		  "s,\"a,\"\"b\"\"\"\n"
		  "\"a,b\",0\n"
		  "\"say \"\"hi\"\"\",1\n"
		  "\"line1\nline2\",2\n"
		  "\"cr\rlf\",3\n"
		  "plain,4\n"
		  "\"\"\"\",5\n"
		  ",6\n"
		  " sp ,7\n");
	free(got);
}

void test_report_json(struct t *t)
{
	check_sample(
	    t, REP_JSON, true, true,
	    "{\n"
	    "  \"kernels\": [\n"
	    "    {\n"
	    "      \"name\": \"gemm\",\n"
	    "      \"calls\": 12,\n"
	    "      \"dur_ns\": 1234,\n"
	    "      \"bytes\": 1536,\n"
	    "      \"share_pct\": 61.5\n"
	    "    },\n"
	    "    {\n"
	    "      \"name\": \"relu\",\n"
	    "      \"calls\": 3,\n"
	    "      \"dur_ns\": 999,\n"
	    "      \"bytes\": 512,\n"
	    "      \"share_pct\": 38.5\n"
	    "    },\n"
	    "    {\n"
	    "      \"name\": null,\n"
	    "      \"calls\": 0,\n"
	    "      \"dur_ns\": 0,\n"
	    "      \"bytes\": 0,\n"
	    "      \"share_pct\": 0\n"
	    "    }\n"
	    "  ],\n"
	    "  \"steps\": [\n"
	    "    {\n"
	    "      \"step\": 1,\n"
	    "      \"ok\": true,\n"
	    "      \"ratio\": 0.1\n"
	    "    },\n"
	    "    {\n"
	    "      \"step\": 2,\n"
	    "      \"ok\": false,\n"
	    "      \"ratio\": 1e-07\n"
	    "    }\n"
	    "  ],\n"
	    "  \"trace\": {\n"
	    "    \"format\": \"Kineto JSON\",\n"
	    "    \"events\": 123456789012345,\n"
	    "    \"span_ns\": 59500000000,\n"
	    "    \"gzip\": true,\n"
	    "    \"torch\": null\n"
	    "  },\n"
	    "  \"columns\": {\n"
	    "    \"kernels\": [\"name\", \"calls\", \"dur_ns\", \"bytes\", \"share_pct\"],\n"
	    "    \"steps\": [\"step\", \"ok\", \"ratio\"]\n"
	    "  }\n"
	    "}\n");
	/* Empty report, empty table (its columns kept), empty section. */
	struct mem m;
	int rc;
	struct report *r = mem_open(&m, REP_JSON);
	char *got = mem_close(&m, r, &rc);
	CHECK_INT(t, rc, 0);
	CHECK_STR(t, got, "{}\n");
	free(got);
	r = mem_open(&m, REP_JSON);
	CHECK_INT(t, rep_table_begin(r, "t", NULL, step_cols, 3), 0);
	CHECK_INT(t, rep_table_end(r), 0);
	CHECK_INT(t, rep_kv_begin(r, "s", NULL), 0);
	CHECK_INT(t, rep_kv_end(r), 0);
	got = mem_close(&m, r, &rc);
	CHECK_INT(t, rc, 0);
	CHECK_STR(t, got,
		  "{\n  \"t\": [],\n  \"s\": {},\n  \"columns\": {\n    \"t\": [\"step\", \"ok\", "
		  "\"ratio\"]\n  }\n}\n");
	free(got);
}

void test_report_json_escape(struct t *t)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
	    {"q\"b\\s/", "\"q\\\"b\\\\s/\""},
	    {"\n\r\t\b\f", "\"\\n\\r\\t\\b\\f\""},
	    {"\x01\x1f\x7f", "\"\\u0001\\u001f\x7f\""},
	    {"\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5",
	     "\"\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5\""},
	    {"a\xff"
	     "b",
	     "\"a\\ufffdb\""},
	    {"\xc3x", "\"\\ufffdx\""},			   /* lead byte without continuation */
	    {"\xe2\x82", "\"\\ufffd\""},		   /* truncated at the end: one U+FFFD */
	    {"\xc0\xaf", "\"\\ufffd\\ufffd\""},		   /* overlong */
	    {"\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""}, /* surrogate */
	    {"\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""}, /* above U+10FFFF */
	    {"\x80", "\"\\ufffd\""},				      /* stray continuation */
	};
	char want[256];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct mem m;
		int rc;
		struct report *r = mem_open(&m, REP_JSON);
		CHECK_INT(t, rep_kv_begin(r, "s", NULL), 0);
		CHECK_INT(t, rep_kv(r, "v", NULL, REP_STR, rep_s(cases[i].in)), 0);
		CHECK_INT(t, rep_kv_end(r), 0);
		char *got = mem_close(&m, r, &rc);
		CHECK_INT(t, rc, 0);
		snprintf(want, sizeof want, "{\n  \"s\": {\n    \"v\": %s\n  }\n}\n",
			 cases[i].want);
		CHECK_STR(t, got, want);
		free(got);
	}
	/* Names and keys are escaped too. */
	static const struct rep_col cols[] = {{"a\"b", NULL, REP_BOOL}};
	struct mem m;
	int rc;
	struct report *r = mem_open(&m, REP_JSON);
	CHECK_INT(t, rep_table_begin(r, "t\n", NULL, cols, 1), 0);
	CHECK_INT(t, rep_row(r, (struct rep_val[]){rep_b(true)}), 0);
	char *got = mem_close(&m, r, &rc); /* closes the open table */
	CHECK_INT(t, rc, 0);
	CHECK_STR(t, got,
		  "{\n  \"t\\n\": [\n    {\n      \"a\\\"b\": true\n    }\n  ],\n  \"columns\": {\n"
		  "    \"t\\n\": [\"a\\\"b\"]\n  }\n}\n");
	free(got);
}

/* Raw doubles in CSV and JSON: shortest form that reads back exactly. */
void test_report_numbers(struct t *t)
{
	static const struct {
		double f;
		const char *csv, *json;
	} cases[] = {
	    {0.1, "0.1", "0.1"},
	    {1e-7, "1e-07", "1e-07"},
	    {1.0 / 3, "0.3333333333333333", "0.3333333333333333"},
	    {0.1 + 0.2, "0.30000000000000004", "0.30000000000000004"},
	    {100, "100", "100"},
	    {1e21, "1e+21", "1e+21"},
	    {-2.5, "-2.5", "-2.5"},
	    {5e-324, "4.94065645841247e-324", "4.94065645841247e-324"},
	    {1.7976931348623157e308, "1.7976931348623157e+308", "1.7976931348623157e+308"},
	    {NAN, "", "null"},
	    {INFINITY, "", "null"},
	    {-INFINITY, "", "null"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (int json = 0; json < 2; json++) {
			struct mem m;
			int rc;
			struct report *r = mem_open(&m, json ? REP_JSON : REP_CSV);
			rep_kv_begin(r, "n", NULL);
			CHECK_INT(t, rep_kv(r, "f", NULL, REP_FLOAT, rep_f(cases[i].f)), 0);
			CHECK_INT(t, rep_kv(r, "p", NULL, REP_PCT, rep_f(cases[i].f)), 0);
			char *got = mem_close(&m, r, &rc);
			CHECK_INT(t, rc, 0);
			char want[256];
			if (json)
				snprintf(want, sizeof want,
					 "{\n  \"n\": {\n    \"f\": %s,\n    \"p\": %s\n  }\n}\n",
					 cases[i].json, cases[i].json);
			else
				snprintf(want, sizeof want, "key,value\nf,%s\np,%s\n", cases[i].csv,
					 cases[i].csv);
			CHECK_STR(t, got, want);
			free(got);
		}
	}
	/* Integers stay integers, with no separators, in every format. */
	static const struct rep_col cols[] = {
	    {"n", "N", REP_INT}, {"d", "D", REP_DUR_NS}, {"b", "B", REP_BYTES}};
	static const char *const want[] = {
	    "              N         D             B\n"
	    "123456789012345  1.235 ms  -1024.00 TiB\n",
	    "n,d,b\n123456789012345,1234567,-1125899906842624\n",
	    "{\n  \"t\": [\n    {\n      \"n\": 123456789012345,\n      \"d\": 1234567,\n"
	    "      \"b\": -1125899906842624\n    }\n  ],\n  \"columns\": {\n    \"t\": [\"n\", "
	    "\"d\", "
	    "\"b\"]\n  }\n}\n",
	};
	for (int f = REP_TABLE; f <= REP_JSON; f++) {
		struct mem m;
		int rc;
		struct report *r = mem_open(&m, (enum rep_format)f);
		CHECK_INT(t, rep_table_begin(r, "t", NULL, cols, 3), 0);
		CHECK_INT(t,
			  rep_row(r, (struct rep_val[]){rep_i(123456789012345), rep_i(1234567),
							rep_i(-(INT64_C(1) << 50))}),
			  0);
		CHECK_INT(t, rep_table_end(r), 0);
		char *got = mem_close(&m, r, &rc);
		CHECK_INT(t, rc, 0);
		CHECK_STR(t, got, want[f]);
		free(got);
	}
	/* The extremes, 0 and -1, written without printf: as "%" PRId64 */
	static const struct rep_col one[] = {{"n", "N", REP_INT}};
	const int64_t ints[] = {INT64_MIN, INT64_MAX, 0, -1, 10, -1000000007};
	for (int f = REP_TABLE; f <= REP_CSV; f++) {
		struct mem m;
		int rc;
		struct report *r = mem_open(&m, (enum rep_format)f);
		CHECK_INT(t, rep_table_begin(r, "t", NULL, one, 1), 0);
		for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
			CHECK_INT(t, rep_row(r, (struct rep_val[]){rep_i(ints[i])}), 0);
		CHECK_INT(t, rep_table_end(r), 0);
		char *got = mem_close(&m, r, &rc);
		CHECK_INT(t, rc, 0);
		CHECK_STR(t, got,
			  f == REP_TABLE
			      ? "                   N\n-9223372036854775808\n"
				" 9223372036854775807\n                   0\n"
				"                  -1\n                  10\n"
				"         -1000000007\n"
			      : "n\n-9223372036854775808\n9223372036854775807\n0\n-1\n10\n"
				"-1000000007\n");
		free(got);
	}
}

void test_report_misuse(struct t *t)
{
	CHECK(t, rep_open(NULL, REP_JSON) == NULL);
	CHECK(t, rep_open(stdout, (enum rep_format)9) == NULL);
	CHECK_INT(t, rep_close(NULL), -1);
	struct mem m;
	int rc;
	struct report *r = mem_open(&m, REP_JSON);
	struct rep_val v = rep_i(1);
	CHECK_INT(t, rep_row(r, &v), -1); /* no table open */
	CHECK_INT(t, rep_table_end(r), -1);
	CHECK_INT(t, rep_kv(r, "k", NULL, REP_INT, v), -1);
	CHECK_INT(t, rep_kv_end(r), -1);
	CHECK_INT(t, rep_table_begin(r, "t", NULL, step_cols, 0), -1);
	CHECK_INT(t, rep_table_begin(r, NULL, NULL, step_cols, 3), -1);
	CHECK_INT(t, rep_table_begin(r, "t", NULL, step_cols, 3), 0);
	CHECK_INT(t, rep_table_begin(r, "u", NULL, step_cols, 3), -1); /* nested */
	CHECK_INT(t, rep_kv_begin(r, "s", NULL), -1);
	CHECK_INT(t, rep_kv(r, "k", NULL, REP_INT, v), -1); /* not a section */
	CHECK_INT(t, rep_row(r, NULL), -1);
	CHECK_INT(t, rep_table_end(r), 0);
	CHECK_INT(t, rep_kv_begin(r, "s", NULL), 0);
	CHECK_INT(t, rep_kv(r, NULL, NULL, REP_INT, v), -1);
	CHECK_INT(t, rep_kv(r, "k", NULL, (enum rep_type)42, v), -1);
	CHECK_INT(t, rep_row(r, &v), -1);  /* not a table */
	char *got = mem_close(&m, r, &rc); /* closes the open section */
	CHECK_INT(t, rc, 0);
	CHECK_STR(t, got,
		  "{\n  \"t\": [],\n  \"s\": {},\n  \"columns\": {\n    \"t\": [\"step\", \"ok\", "
		  "\"ratio\"]\n  }\n}\n");
	free(got);
}

void test_report_write_error(struct t *t)
{
	FILE *f = fopen("/dev/full", "w");
	if (!f) {
		printf("skip report_write_error: no /dev/full\n");
		return;
	}
	struct report *r = rep_open(f, REP_CSV);
	CHECK_INT(t, sample(r, true, true), 0);
	CHECK_INT(t, rep_close(r), -1);
	fclose(f);
}

/* rep_json_str / rep_json_num: the JSON sink's escaping, also on the fast
 * path of plain ASCII; numbers in shortest round-trip form, null when not
 * finite. */
void test_report_json_fput(struct t *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) {
		CHECK(t, f != NULL);
		return;
	}
	rep_json_str(f, "aten::mm");
	fputc(' ', f);
	rep_json_str(f, "a\"b\\c\nd\x01");
	fputc(' ', f);
	rep_json_str(f, "caf\xc3\xa9 \xff!");
	fputc(' ', f);
	rep_json_str(f, "");
	fputc(' ', f);
	rep_json_num(f, 0.1);
	fputc(' ', f);
	rep_json_num(f, 1e300 * 1e300);
	fclose(f);
	CHECK_STR(t, buf,
		  "\"aten::mm\" \"a\\\"b\\\\c\\nd\\u0001\" \"caf\xc3\xa9 \\ufffd!\" \"\" 0.1 null");
	free(buf);
}

/* rep_only: the one block named, as a report of it alone, in every format;
 * the others dropped, whatever their kind. */
void test_report_only(struct t *t)
{
	static const char *const want_kernels[] = {
	    "Top kernels\n"
	    "Kernel  Calls     Total    Memory    Share\n"
	    "gemm       12  1.234 us  1.50 KiB  61.50 %\n"
	    "relu        3    999 ns     512 B  38.50 %\n"
	    "-           0      0 ns       0 B   0.00 %\n",
	    "name,calls,dur_ns,bytes,share_pct\n"
	    "gemm,12,1234,1536,61.5\n"
	    "relu,3,999,512,38.5\n"
	    ",0,0,0,0\n",
	    "[\n"
	    "  {\n    \"name\": \"gemm\",\n    \"calls\": 12,\n    \"dur_ns\": 1234,\n"
	    "    \"bytes\": 1536,\n    \"share_pct\": 61.5\n  },\n"
	    "  {\n    \"name\": \"relu\",\n    \"calls\": 3,\n    \"dur_ns\": 999,\n"
	    "    \"bytes\": 512,\n    \"share_pct\": 38.5\n  },\n"
	    "  {\n    \"name\": null,\n    \"calls\": 0,\n    \"dur_ns\": 0,\n"
	    "    \"bytes\": 0,\n    \"share_pct\": 0\n  }\n"
	    "]\n",
	};
	static const char *const want_trace[] = {
	    "Trace\n"
	    "  Format:        Kineto JSON\n"
	    "  Events:        123456789012345\n"
	    "  Time span:     59.500 s\n"
	    "  Compressed:    yes\n"
	    "  Torch version: -\n",
	    "key,value\nformat,Kineto JSON\nevents,123456789012345\nspan_ns,59500000000\n"
	    "gzip,true\ntorch,\n",
	    "{\n  \"format\": \"Kineto JSON\",\n  \"events\": 123456789012345,\n"
	    "  \"span_ns\": 59500000000,\n  \"gzip\": true,\n  \"torch\": null\n}\n",
	};
	for (int f = REP_TABLE; f <= REP_JSON; f++) {
		for (int which = 0; which < 2; which++) {
			struct mem m;
			int rc;
			struct report *r = mem_open(&m, (enum rep_format)f);
			CHECK_INT(t, rep_only(r, which ? "trace" : "kernels"), 0);
			CHECK_INT(t, rep_only(r, "steps"), -1); /* once */
			CHECK_INT(t, sample(r, true, true), 0);
			char *got = mem_close(&m, r, &rc);
			CHECK_INT(t, rc, 0);
			CHECK_STR(t, got, which ? want_trace[f] : want_kernels[f]);
			free(got);
		}
	}
	/* an empty table alone: its header (CSV), [] (JSON) */
	struct mem m;
	int rc;
	struct report *r = mem_open(&m, REP_JSON);
	CHECK_INT(t, rep_only(r, "t"), 0);
	CHECK_INT(t, rep_table_begin(r, "t", NULL, step_cols, 3), 0);
	char *got = mem_close(&m, r, &rc);
	CHECK_INT(t, rc, 0);
	CHECK_STR(t, got, "[]\n");
	free(got);
	r = mem_open(&m, REP_CSV);
	CHECK_INT(t, rep_only(r, "t"), 0);
	CHECK_INT(t, rep_table_begin(r, "t", NULL, step_cols, 3), 0);
	got = mem_close(&m, r, &rc);
	CHECK_INT(t, rc, 0);
	CHECK_STR(t, got, "step,ok,ratio\n");
	free(got);
}

/* rep_open_names: the blocks' names in order, nothing written. */
void test_report_names(struct t *t)
{
	struct report *r = rep_open_names();
	CHECK(t, r != NULL);
	if (!r)
		return;
	CHECK_INT(t, sample(r, true, true), 0);
	size_t n;
	const char *const *v = rep_names(r, &n);
	CHECK_INT(t, (long long)n, 3);
	if (n == 3) {
		CHECK_STR(t, v[0], "kernels");
		CHECK_STR(t, v[1], "steps");
		CHECK_STR(t, v[2], "trace");
	}
	CHECK_INT(t, rep_close(r), 0);
}

/* REP_FDUR_NS: a double duration, raw in CSV/JSON, a duration in text. */
void test_report_fdur(struct t *t)
{
	static const struct rep_col cols[] = {{"total_ns", "Total", REP_DUR_NS},
					      {"avg_ns", "Avg", REP_FDUR_NS}};
	static const char *const want[] = {
	    "    Total        Avg\n15.319 ms  15.319 ms\n     2 ns       1 ns\n     3 ns          "
	    "-\n",
	    "total_ns,avg_ns\n15319000,15319498.5\n2,0.5\n3,\n",
	};
	for (int f = REP_TABLE; f <= REP_CSV; f++) {
		struct mem m;
		int rc;
		struct report *r = mem_open(&m, (enum rep_format)f);
		CHECK_INT(t, rep_table_begin(r, "t", NULL, cols, 2), 0);
		CHECK_INT(t, rep_row(r, (struct rep_val[]){rep_i(15319000), rep_f(15319498.5)}), 0);
		CHECK_INT(t, rep_row(r, (struct rep_val[]){rep_i(2), rep_f(0.5)}), 0);
		CHECK_INT(t, rep_row(r, (struct rep_val[]){rep_i(3), rep_f(NAN)}), 0);
		char *got = mem_close(&m, r, &rc);
		CHECK_INT(t, rc, 0);
		CHECK_STR(t, got, want[f]);
		free(got);
	}
}
