/* The trace reader's bounds on hostile input: the memory limit of a load
 * (kineto_opts.max_memory) and what it counts (tr_mem_bytes), serial and
 * with the second importing thread. */
#include <stdlib.h>
#include <unistd.h>

#include "kineto/kineto.h"
#include "test.h"
#include "trace/build.h"

/* n tiny X events, one track: 53 bytes of JSON (with the ',') and 43
 * bytes of event row each. */
static char *tiny_events(size_t n, size_t *len)
{
	static const char ev[] =
	    "{\"ph\":\"X\",\"name\":\"a\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1}";
	size_t k = sizeof ev - 1, cap = 2 + n * (k + 1);
	char *s = malloc(cap + 1);
	if (!s)
		return NULL;
	size_t o = 0;
	s[o++] = '[';
	for (size_t i = 0; i < n; i++) {
		memcpy(s + o, ev, k);
		o += k;
		s[o++] = i + 1 < n ? ',' : ']';
	}
	s[o] = 0;
	*len = o;
	return s;
}

/* An empty trace holds its first arena block (1 MiB) and its string pool
 * (1024 entries of 16 + 4 bytes, 2048 slots of 4); each event row its
 * columns' 43 bytes. */
void test_limits_mem_bytes(struct t *t)
{
	struct tr_build b;
	CHECK_INT(t, tr_build_begin(&b, "x.json"), 0);
	CHECK_INT(t, tr_mem_bytes(b.t), (1u << 20) + 1024 * 20 + 2048 * 4);
	CHECK_INT(t, tr_build_reserve(&b.t->ev, 3, 0), 0);
	b.t->ev.n = 3; /* reserved rows are not counted until they are rows */
	CHECK_INT(t, tr_mem_bytes(b.t), (1u << 20) + 1024 * 20 + 2048 * 4 + 3 * 43);
	b.t->ev.n = 0;
	tr_build_abort(&b);
}

/* 400,000 events (~21 MB of JSON, ~17 MB of rows): under a 4 MiB limit the
 * load fails with ERR_LIMIT after a whole event, before 4 MiB of rows, on
 * one thread and on two (small windows, so the worker takes part); under
 * 64 MiB it loads them all. */
void test_limits_max_memory(struct t *t)
{
	size_t len, n = 400000;
	char *text = tiny_events(n, &len);
	char *path = text ? t_write_tmp(text, len) : NULL;
	if (!path) {
		free(text);
		t_fail(t, __FILE__, __LINE__, "cannot write the trace");
		return;
	}
	for (int threads = 1; threads <= 2; threads++) {
		struct kineto_opts o = {.threads = threads,
					.max_memory = 4u << 20,
					.window = 1u << 20,
					.split_min = 64u << 10};
		struct trace *tr = NULL;
		struct err e = {0};
		CHECK_INT(t, kineto_load(path, &o, &tr, &e), ERR_LIMIT);
		CHECK(t, tr == NULL);
		/* after a whole event (at its ','), past 1 MiB of text, and no
		 * later than a check past 4 MiB of rows would be */
		CHECK(t, e.offset > (1 << 20) && e.offset < (4 << 20) + 4096 * 53);
		CHECK(t, e.offset > 0 && (size_t)e.offset < len && text[e.offset] == ',');
		CHECK(t, !e.uncompressed);
		CHECK_STR(
		    t, e.msg,
		    "the trace needs more than 4.0 MiB of memory (--max-memory); load it with "
		    "a larger --max-memory, or on a machine with more memory");
		o.max_memory = 64u << 20;
		CHECK_INT(t, kineto_load(path, &o, &tr, &e), 0);
		if (tr)
			CHECK_INT(t, tr->ev.n, n);
		tr_free(tr);
	}
	unlink(path);
	free(path);
	free(text);
}

/* The default is half of physical memory. */
void test_limits_default(struct t *t)
{
	uint64_t phys = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	CHECK_INT(t, kineto_default_max_memory(), phys / 2);
}
