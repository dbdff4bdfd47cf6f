/* kineto_push: a trace whose bytes the caller pushes in slices loads as
 * kineto_load loads the same file: the same trace (its info, summary and
 * kernels views byte for byte) or the same error (code, byte offset and
 * message), whatever the slices' sizes. kineto_load is the reference: the
 * golden tests check it against torch-tb-profiler's numbers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../fuzz/fuzz_memfd.h"
#include "input/input.h"
#include "kineto/kineto.h"
#include "tbprof/session.h"
#include "test.h"
#include "trace/trace.h"
#include "views/view.h"

/* The views' CSV, one after the other; NULL when one could not be made. */
static char *views_of(struct trace *tr)
{
	static const enum view_kind kinds[] = {VIEW_INFO, VIEW_SUMMARY, VIEW_KERNELS};
	struct ses *s = NULL;
	struct err e = {0};
	if (ses_new(tr, &s, &e))
		return NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	for (size_t i = 0; f && i < sizeof kinds / sizeof kinds[0]; i++) {
		struct view_opts o;
		struct view *v = NULL;
		view_opts_defaults(view_get(kinds[i]), &o);
		if (view_compute(view_get(kinds[i]), s, &o, &v, &e)) {
			fprintf(f, "view %zu: %s\n", i, e.msg);
			continue;
		}
		struct report *r = rep_open(f, REP_CSV);
		if (r) {
			view_emit(v, r);
			rep_close(r);
		}
		view_free(v);
	}
	if (f)
		fclose(f);
	ses_free(s);
	return buf;
}

/* The pushed load of path equals kineto_load's for each slice size. */
static void check_same(struct t *t, const char *path, const char *data, size_t n, int line)
{
	struct kineto_opts o = {.threads = 1};
	struct trace *want = NULL;
	struct err we = {0};
	int wrc = kineto_load(path, &o, &want, &we);
	char *wv = wrc ? NULL : views_of(want);
	static const size_t slices[] = {1, 7, 4096, 1 << 20, 5 << 20, SIZE_MAX};
	for (size_t i = 0; i < sizeof slices / sizeof slices[0]; i++) {
		if (slices[i] == 1 && n > (1 << 16))
			continue; /* a byte at a time re-reads each record once per byte */
		struct trace *got = NULL;
		struct err ge = {0};
		struct kineto_opts po = {.threads = 1};
		int grc = fuzz_push_load(path, &po, (const uint8_t *)data, n, slices[i], &got, &ge);
		if (grc != wrc || ge.offset != we.offset || strcmp(ge.msg, we.msg))
			t_fail(t, __FILE__, line,
			       "%s, slices of %zu: %d at %lld \"%s\", want %d at %lld \"%s\"", path,
			       slices[i], grc, (long long)ge.offset, ge.msg, wrc,
			       (long long)we.offset, we.msg);
		if (!grc && !wrc) {
			char *gv = views_of(got);
			if (!gv || !wv || strcmp(gv, wv))
				t_fail(t, __FILE__, line,
				       "%s, slices of %zu: views differ:\n%s\nwant\n%s", path,
				       slices[i], gv ? gv : "(none)", wv ? wv : "(none)");
			free(gv);
		}
		tr_free(got);
	}
	free(wv);
	tr_free(want);
}

static void check_file(struct t *t, const char *path, int line)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&data, &len);
	char buf[4096];
	size_t k;
	while (f && m && (k = fread(buf, 1, sizeof buf, f)) > 0)
		fwrite(buf, 1, k, m);
	if (m)
		fclose(m);
	if (!f || !data || !len)
		t_fail(t, __FILE__, line, "cannot read %s", path);
	else
		check_same(t, path, data, len, line);
	if (f)
		fclose(f);
	free(data);
}

static void check_text(struct t *t, const char *text, size_t n, int line)
{
	char *path = t_write_tmp(text, n);
	if (!path) {
		t_fail(t, __FILE__, line, "cannot write a temp file");
		return;
	}
	check_same(t, path, text, n, line);
	unlink(path);
	free(path);
}

#define CHECK_TEXT(t, lit) check_text((t), (lit), sizeof(lit) - 1, __LINE__)

void test_kineto_push_files(struct t *t)
{
	static const char *files[] = {"tests/golden/_inputs/full.json",
				      "tests/golden/_inputs/array.json",
				      "tests/golden/_inputs/amd.json",
				      "tests/golden/_inputs/memory.json",
				      "tests/golden/_inputs/modules.json",
				      "tests/golden/_inputs/ops.json",
				      "tests/golden/_inputs/steps.json",
				      "tests/golden/_inputs/export-nest.json",
				      "tests/golden/_inputs/node0_0.pt.trace.json"};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
		check_file(t, files[i], __LINE__);
}

/* Cut, wrong and odd inputs: the same error, or the same anomalies. */
void test_kineto_push_errors(struct t *t)
{
	CHECK_TEXT(t, "");
	CHECK_TEXT(t, "   \n");
	CHECK_TEXT(t, "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,"
		      "\"dur\":2},{\"ph\":\"X\",\"na");
	CHECK_TEXT(t, "[{\"ph\":\"X\"\x01}]");
	CHECK_TEXT(t, "{\"schemaVersion\":1}");
	CHECK_TEXT(t, "{\"schemaVersion\":1,\"traceEvents\":[]} trailing");
	CHECK_TEXT(
	    t,
	    "\xef\xbb\xbf[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2}]");
	CHECK_TEXT(t, "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":12345678");
	CHECK_TEXT(t, "not json at all");
}

/* Many windows, and one record larger than the first window (1 MiB for
 * an input this size): the window grows for it, as kineto_load's does. */
void test_kineto_push_large(struct t *t)
{
	char *data = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&data, &len);
	if (!m)
		return;
	fputs("{\"schemaVersion\":1,\"traceEvents\":[", m);
	for (int i = 0; i < 20000; i++)
		fprintf(m,
			"%s{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::op%d\",\"pid\":1,"
			"\"tid\":%d,"
			"\"ts\":%d,\"dur\":3,\"args\":{\"External id\":%d}}",
			i ? ",\n" : "", i % 13, 1 + i % 3, 10 * i, i);
	fputs(",{\"ph\":\"i\",\"name\":\"big\",\"pid\":1,\"tid\":1,\"ts\":5,\"args\":{\"text\":\"",
	      m);
	for (int i = 0; i < (3 << 20) / 64; i++)
		fputs("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", m);
	fputs("\"}}]}", m);
	fclose(m);
	check_text(t, data, len, __LINE__);
	free(data);
}

/* Strings of 64 bytes each (the limit on one string is 16 MiB), as a
 * record's args array of mib MiB. */
static void put_big_record(FILE *m, const char *name, int ts, int mib)
{
	fprintf(m,
		"{\"ph\":\"i\",\"name\":\"%s\",\"pid\":1,\"tid\":1,\"ts\":%d,"
		"\"args\":{\"text\":[\"",
		name, ts);
	for (int i = 0; i < (mib << 20) / 64; i++)
		fputs(i ? "\",\"0123456789abcdef0123456789abcdef0123456789abcdef0123456789a"
			: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789a",
		      m);
	fputs("\"]}}", m);
}

/* A record of 50 MiB (over half the 64 MiB limit on one record, under the
 * limit) and 20 MiB after it: loaded, whatever the slices, as kineto_load
 * loads it. The push waits for a pending record to double before it is
 * re-read; that wait must end before the window outgrows the limit (with
 * slices of 5 MiB, the record is pending at 40 MiB, and 80 MiB is more). */
void test_kineto_push_near_limit(struct t *t)
{
	char *data = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&data, &len);
	if (!m)
		return;
	fputs("{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,"
	      "\"ts\":1,\"dur\":2},",
	      m);
	put_big_record(m, "big", 5, 50);
	fputc(',', m);
	put_big_record(m, "after", 7, 20);
	fputs(",{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":9,\"dur\":2}]}", m);
	fclose(m);
	check_text(t, data, len, __LINE__);
	free(data);
}

/* input_push takes the kinds whose reader has a push form: a plain trace,
 * loaded as input_open loads it; not a gzip trace or a report (NULL: the
 * caller reads those with input_open). */
void test_input_push_kinds(struct t *t)
{
	struct input_opts o = {.name = "upload.json"};
	struct err e = {0};
	CHECK(t, input_push_begin("examples/resnet_like.json.gz", &o, 0, &e) == NULL);
	CHECK(t, input_push_begin("tests/golden/_inputs/tiny.ncu-rep", &o, 0, &e) == NULL);
	const char *path = "tests/golden/_inputs/steps.json";
	struct input_push *p = input_push_begin(path, &o, 2717, &e);
	CHECK(t, p != NULL);
	if (!p)
		return;
	FILE *f = fopen(path, "rb");
	char buf[8192];
	size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
	if (f)
		fclose(f);
	CHECK_INT(t, n, 2717);
	char *room = input_push_room(p, n);
	CHECK(t, room != NULL);
	if (room) {
		memcpy(room, buf, n);
		CHECK_INT(t, input_push_data(p, n), 0);
	}
	struct input in, want;
	CHECK_INT(t, input_push_end(p, &in), 0);
	CHECK_INT(t, input_open(path, &o, &want, &e), 0);
	CHECK_INT(t, in.kind, INPUT_TRACE);
	CHECK_STR(t, in.name, "upload.json");
	CHECK_STR(t, in.path, path);
	CHECK_INT(t, in.bytes, 2717);
	CHECK_INT(t, input_count(&in), input_count(&want));
	CHECK_INT(t, input_count(&in), 16);
	input_free(&in);
	input_free(&want);

	/* a syntax error: the error input_open gives, naming the upload */
	static const char bad[] = "{\"traceEvents\":[{\"ph\":\"X\",}x";
	char *path2 = t_write_tmp(bad, sizeof bad - 1);
	if (!path2)
		return;
	struct err pe = {0}, oe = {0};
	p = input_push_begin(path2, &o, sizeof bad - 1, &pe);
	CHECK(t, p != NULL);
	if (p) {
		char *r = input_push_room(p, sizeof bad - 1);
		if (r) {
			memcpy(r, bad, sizeof bad - 1);
			input_push_data(p, sizeof bad - 1);
		}
		int prc = input_push_end(p, &in);
		int orc = input_open(path2, &o, &want, &oe);
		CHECK_INT(t, prc, ERR_FORMAT);
		CHECK_INT(t, prc, orc);
		CHECK_STR(t, pe.path, "upload.json");
		CHECK_STR(t, pe.path, oe.path);
		CHECK_STR(t, pe.msg, oe.msg);
		CHECK_INT(t, pe.offset, oe.offset);
		CHECK_INT(t, in.kind, INPUT_UNKNOWN);
	}
	unlink(path2);
	free(path2);
}
