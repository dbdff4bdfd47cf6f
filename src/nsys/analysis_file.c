/* analysis_file: analysis.json (schema 1) as a file gpuprof is given: the
 * check that it is one the viewer can show, its bytes read whole, and the
 * analysis a profiling run directory holds or implies. `gpuprof serve`
 * loads them through the input registry (input/input.c); the bytes are
 * served unchanged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/source.h"
#include "json/jscan.h"
#include "nsys/nsys.h"

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

/* The whole (inflated) content of path, at most cap bytes, NUL-terminated
 * (malloc'd). name is the path errors name. */
static int read_all(const char *path, const char *name, int64_t cap, char **out, size_t *len,
		    struct err *e)
{
	struct src *s;
	int rc = src_open(&s, path, e);
	if (rc)
		return rc;
	size_t n = 0, size = 65536;
	char *buf = malloc(size);
	for (;;) {
		if (!buf) {
			rc = err_set(e, ERR_NOMEM, name, -1, "out of memory");
			break;
		}
		if (n + 1 >= size) {
			if ((int64_t)size > cap) {
				rc = err_set(e, ERR_LIMIT, name, -1,
					     "larger than %lld MiB: not an analysis.json",
					     (long long)(cap >> 20));
				break;
			}
			char *nb = realloc(buf, size * 2);
			if (!nb) {
				rc = err_set(e, ERR_NOMEM, name, -1, "out of memory");
				break;
			}
			buf = nb;
			size *= 2;
		}
		size_t got = 0;
		if ((rc = src_read(s, buf + n, size - 1 - n, &got, e)))
			break;
		if (!got)
			break;
		n += got;
	}
	src_close(s);
	if (rc) {
		free(buf);
		return rc;
	}
	buf[n] = 0;
	*out = buf;
	*len = n;
	return 0;
}

int nsys_analysis_read(const char *path, const char *name, int64_t cap, char **out, size_t *len,
		       struct err *e)
{
	int rc = read_all(path, name, cap, out, len, e);
	if (!rc && (rc = nsys_analysis_check(*out, *len, name, e))) {
		free(*out);
		*out = NULL;
	}
	return rc;
}

/* `nsys analyze --run-dir dir --from-csv` in memory: its JSON bytes. */
static int analyse_dir(const char *dir, char **out, size_t *len, struct err *e)
{
	struct arena a;
	arena_init(&a);
	struct nsys_jv *m = NULL, *v = NULL;
	const char *mpath = nsys_dir_file(&a, dir, "manifest.yaml");
	int rc = mpath ? nsys_manifest_read(&a, mpath, &m, e)
		       : err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	if (!rc)
		rc = nsys_analyze_csv_dir(&a, dir, m, NULL, &v, e);
	if (!rc) {
		*out = NULL;
		FILE *f = open_memstream(out, len);
		if (f) {
			nsys_jv_write(f, v);
			if (fclose(f))
				rc = err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
		} else {
			rc = err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
		}
		if (rc) {
			free(*out);
			*out = NULL;
		}
	}
	arena_free(&a);
	return rc;
}

int nsys_run_dir_analysis(const char *dir, int64_t cap, char **out, size_t *len, struct err *e)
{
	char json[4200], csv[4200];
	snprintf(json, sizeof json, "%s/analysis.json", dir);
	snprintf(csv, sizeof csv, "%s/stats/nsys_nvtx_pushpop_trace.csv", dir);
	struct stat st;
	if (!stat(json, &st))
		return nsys_analysis_read(json, json, cap, out, len, e);
	if (!stat(csv, &st))
		return analyse_dir(dir, out, len, e);
	return err_set(e, ERR_USAGE, dir, -1,
		       "not a profiling run directory: it has neither analysis.json "
		       "nor stats/nsys_nvtx_pushpop_trace.csv");
}
