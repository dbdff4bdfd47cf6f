/* overlay: what an analysis adds to a trace written back whole
 * (trace/overlay.h, kineto/pass.h kpass_overlay), byte for byte. */
#include <stdlib.h>
#include <unistd.h>

#include "kineto/kineto.h"
#include "kineto/pass.h"
#include "test.h"
#include "trace/overlay.h"

/* Writes t (loaded from path) with o to a string (caller frees); NULL and
 * *rc on an error. */
static char *overlaid(const char *path, const struct trace *t, struct tr_overlay *o, int *rc,
		      struct err *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct kpass_info info;
	*rc = f ? kpass_overlay(path, t, o, f, &info, e) : -1;
	if (f)
		fclose(f);
	if (*rc) {
		free(buf);
		return NULL;
	}
	return buf;
}

static const char overlay_src[] =
    "{\"schemaVersion\": 1, \"traceEvents\": [\n"
    "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, \"args\": {\"name\": \"p\"}},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 10, "
    "\"dur\": 5, \"args\": {\"External id\": 1 }},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, \"ts\": 20, "
    "\"dur\": 5},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"c\", \"pid\": 1, \"tid\": 1, \"ts\": 30, "
    "\"dur\": 5, \"args\": { }}\n"
    "]}";

void test_overlay_args(struct t *t)
{
	char *path = t_write_tmp(overlay_src, strlen(overlay_src));
	struct trace *tr = NULL;
	struct err e = {0};
	CHECK(t, path && !kineto_load(path, NULL, &tr, &e));
	if (!tr) {
		free(path);
		return;
	}
	CHECK_INT(t, tr->ev.n, 3);
	struct tr_overlay o;
	tr_ov_init(&o);
	tr_ov_event(&o); /* given first, written after every event of the trace */
	tr_ov_put(&o, "{\"ph\": \"C\", \"name\": \"Queue Length\", \"pid\": 1, \"ts\": ");
	tr_ov_us(&o, 12345);
	tr_ov_put(&o, ", \"args\": {\"q\": %d}}", 2);
	tr_ov_arg(&o, tr, 2); /* c: an empty args object */
	tr_ov_put(&o, "\"critical\": 1");
	tr_ov_arg(&o, tr, 0); /* a: after its own member, trailing blank dropped */
	tr_ov_put(&o, "\"Patterns\": ");
	tr_ov_str(&o, "x|\"y\"\\\n");
	tr_ov_arg(&o, tr, 1); /* b: no args */
	tr_ov_put(&o, "\"critical\": 1");
	tr_ov_arg(&o, tr, 0); /* a again: joined after the first, in the order given */
	tr_ov_put(&o, "\"critical\": 0");
	tr_ov_event(&o);
	tr_ov_put(&o, "{\"ph\": \"i\", \"ts\": ");
	tr_ov_us(&o, -1500);
	tr_ov_put(&o, "}");
	int rc;
	char *out = overlaid(path, tr, &o, &rc, &e);
	CHECK_STR(t, out,
		  "{\n  \"schemaVersion\": 1,\n  \"traceEvents\": [\n"
		  "  {\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, \"args\": {\"name\": "
		  "\"p\"}},\n"
		  "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, "
		  "\"ts\": 10, \"dur\": 5, \"args\": {\"External id\": 1, \"Patterns\": "
		  "\"x|\\\"y\\\"\\\\\\u000a\", \"critical\": 0}},\n"
		  "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, "
		  "\"ts\": 20, \"dur\": 5, \"args\": {\"critical\": 1}},\n"
		  "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"c\", \"pid\": 1, \"tid\": 1, "
		  "\"ts\": 30, \"dur\": 5, \"args\": {\"critical\": 1}},\n"
		  "  {\"ph\": \"C\", \"name\": \"Queue Length\", \"pid\": 1, \"ts\": 12.345, "
		  "\"args\": {\"q\": 2}},\n"
		  "  {\"ph\": \"i\", \"ts\": -1.5}\n]\n}\n");
	free(out);
	tr_ov_free(&o);

	/* an empty overlay is the trace written back as it is */
	tr_ov_init(&o);
	out = overlaid(path, tr, &o, &rc, &e);
	CHECK(t, out && strstr(out, "\"dur\": 5, \"args\": {\"External id\": 1 }},"));
	free(out);
	tr_ov_free(&o);

	/* a row the trace does not have fails the whole overlay */
	tr_ov_init(&o);
	tr_ov_arg(&o, tr, 3);
	tr_ov_put(&o, "\"critical\": 1");
	CHECK(t, tr_ov_failed(&o));
	out = overlaid(path, tr, &o, &rc, &e);
	CHECK(t, out == NULL && rc == ERR_NOMEM);
	tr_ov_free(&o);
	tr_free(tr);
	unlink(path);
	free(path);
}
