/* view_nsys_iter: see view_nsys_iter.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/jscan.h"
#include "views/view_nsys_iter.h"

int nsys_steps_manifest(struct arena *a, const char *capture, const char *iterations,
			struct nsys_jv **out, struct err *e)
{
	struct nsys_jv *m = nsys_jv_new(a, NSYS_JOBJ);
	if (!m || nsys_jv_set(a, m, "capture_range", nsys_jv_str(a, capture)))
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	if (iterations) {
		char *end;
		long long n = strtoll(iterations, &end, 10);
		if (*end || end == iterations || n < 0)
			return err_set(e, ERR_USAGE, NULL, -1,
				       "--iterations needs a count, not '%s'", iterations);
		struct nsys_jv *w = nsys_jv_new(a, NSYS_JOBJ);
		if (!w || nsys_jv_set(a, w, "iterations", nsys_jv_int(a, n)) ||
		    nsys_jv_set(a, m, "workload", w))
			return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	}
	*out = m;
	return 0;
}

int nsys_view_steps(struct nsys_sql *s, struct arena *a, const struct nsys_jv *manifest,
		    const char *manifest_path, const char *path, struct nsys_jv **out,
		    struct err *e)
{
	struct nsys_ranges host, gpu;
	int rc = nsys_sql_ranges(s, a, &host, &gpu, e);
	if (rc)
		return rc;
	const char *v = nsys_sql_version(s, a);
	struct nsys_provenance prov = {v ? v : "unknown", manifest_path, path, NULL, NULL};
	return nsys_analyze(a, manifest, &host, &gpu, &prov, out, e);
}

/* The top-level keys of schema 1 and the kind of value each must have
 * ('[' array, '{' object, '#' the integer 1); optional ones may be absent. */
static const struct {
	const char *key;
	char kind;
	bool optional;
} schema1[] = {
    {"gpu_projected_ranges", '[', false},
    {"host_ranges", '[', false},
    {"iteration_summary", '{', false},
    {"iterations", '[', false},
    {"provenance", '{', true},
    {"run", '{', false},
    {"schema_version", '#', false},
    {"warnings", '[', false},
};
#define NKEYS (sizeof schema1 / sizeof schema1[0])

/* jscan's answer rc as this file's error: JS_MORE inside a value means the
 * text stops early. */
static int json_error(struct jscan *j, int rc, const char *name, size_t len)
{
	if (rc == JS_MORE)
		return err_set(j->e, ERR_FORMAT, name, (int64_t)len,
			       "not valid JSON: the text ends inside the value (cut short?)");
	char msg[sizeof j->e->msg];
	snprintf(msg, sizeof msg, "%s", j->e->msg);
	return err_set(j->e, ERR_FORMAT, name, j->e->offset, "not valid JSON: %s", msg);
}

int nsys_analysis_check(const char *text, size_t len, const char *name, struct err *e)
{
	struct jscan j = {
	    .base = text, .p = text, .end = text + len, .path = name, .tolerated_off = -1, .e = e};
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
		j.p += 3;
	char kinds[NKEYS] = {0};
	int64_t schema = 0;
	bool schema_int = false;
	char schema_text[24] = "(not a number)";
	int rc = jscan_expect(&j, '{');
	if (rc)
		return rc == JS_MORE ? json_error(&j, rc, name, len)
				     : err_set(e, ERR_FORMAT, name, e->offset,
					       "an analysis.json is one JSON object");
	bool closed = false;
	if ((rc = jscan_ws(&j)))
		return json_error(&j, rc, name, len);
	if (*j.p == '}') {
		j.p++;
		closed = true;
	}
	while (!closed) {
		struct jstr key = {0};
		if ((rc = jscan_ws(&j)))
			return json_error(&j, rc, name, len);
		if (*j.p != '"')
			return json_error(&j, jscan_error(&j, j.p, "expected a string key"), name,
					  len);
		if ((rc = jscan_string(&j, &key)) || (rc = jscan_colon(&j)) || (rc = jscan_ws(&j)))
			return json_error(&j, rc, name, len);
		size_t k = 0;
		while (k < NKEYS && (key.escaped || strlen(schema1[k].key) != key.len ||
				     memcmp(schema1[k].key, key.s, key.len)))
			k++;
		char first = *j.p;
		if (k < NKEYS && schema1[k].kind == '#' && jscan_kind(first) == JK_NUMBER) {
			struct jstr num;
			if ((rc = jscan_number(&j, &num)))
				return json_error(&j, rc, name, len);
			snprintf(schema_text, sizeof schema_text, "%.*s",
				 (int)(num.len < 20 ? num.len : 20), num.s);
			/* 1.0 is not 1: Python's json writes the integer */
			schema_int = !memchr(num.s, '.', num.len) && !memchr(num.s, 'e', num.len) &&
				     !memchr(num.s, 'E', num.len) &&
				     !jnum_i64(num.s, num.len, &schema);
		} else if ((rc = jscan_skip(&j))) {
			return json_error(&j, rc, name, len);
		}
		if (k < NKEYS)
			kinds[k] = first == '{' || first == '['	    ? first
				   : jscan_kind(first) == JK_NUMBER ? '#'
								    : '?';
		if ((rc = jscan_next(&j, '}', &closed)))
			return json_error(&j, rc, name, len);
	}
	if (!jscan_ws(&j))
		return err_set(e, ERR_FORMAT, name, jscan_off(&j, j.p),
			       "not valid JSON: more text after the object");
	if (j.tolerated)
		return err_set(e, ERR_FORMAT, name, j.tolerated_off,
			       "not valid JSON: NaN, Infinity or a trailing comma (strict JSON "
			       "parsers, the viewer's included, refuse them)");
	if (!kinds[6])
		return err_set(
		    e, ERR_FORMAT, name, -1,
		    "not an analysis.json: no schema_version (gpuprof reads schema_version "
		    "1, as `gpuprof nsys analyze` writes it)");
	if (!schema_int || schema != 1)
		return err_set(e, ERR_FORMAT, name, -1,
			       "analysis.json schema_version %s is not supported: gpuprof reads "
			       "schema_version 1 (as `gpuprof nsys analyze` writes it)",
			       schema_text);
	for (size_t k = 0; k < NKEYS; k++) {
		if (!kinds[k] && schema1[k].optional)
			continue;
		if (!kinds[k])
			return err_set(e, ERR_FORMAT, name, -1,
				       "not an analysis.json of schema_version 1: no '%s' key",
				       schema1[k].key);
		if (kinds[k] != schema1[k].kind)
			return err_set(e, ERR_FORMAT, name, -1,
				       "not an analysis.json of schema_version 1: '%s' must be %s",
				       schema1[k].key,
				       schema1[k].kind == '[' ? "an array" : "an object");
	}
	return 0;
}
