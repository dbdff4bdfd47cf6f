/* fuzz_trace_slice: the pass-through writers (kineto/pass.h) on a trace
 * made of arbitrary bytes. The input goes into a memfd, is loaded as a
 * trace, and, when it loads, is written back from the memfd's bytes whole,
 * cut to the --step 1 and 1-2 windows and to the first half of its time
 * (each also with --clip), written whole with an overlay (args on every
 * third event, two events of its own), and merged with itself as two
 * ranks. A pass over the same bytes must meet every event the load kept:
 * a "changed" error on an unchanged file aborts. Output goes to /dev/null; any other
 * result is fine, a crash, a sanitizer report or a leak is not. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_memfd.h"
#include "kineto/kineto.h"
#include "kineto/pass.h"
#include "tbprof/select.h"
#include "tbprof/session.h"
#include "trace/window.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void slice(const char *path, const struct trace *t, const struct trace *w, FILE *out)
{
	for (int clip = 0; clip < 2; clip++) {
		struct kpass_info info;
		struct err e = {0};
		if (kpass_slice(path, t, w, clip, out, &info, &e) && strstr(e.msg, "no longer"))
			abort();
	}
}

/* Args added to every third event (the first of them twice) and two
 * events of its own, as an analysis's overlay would. */
static void overlay(const char *path, const struct trace *t, FILE *out)
{
	struct tr_overlay o;
	tr_ov_init(&o);
	for (uint32_t r = 0; r < t->ev.n; r += 3) {
		tr_ov_arg(&o, t, r);
		tr_ov_put(&o, "\"critical\": %u", r);
		tr_ov_arg(&o, t, r / 6 * 3);
		tr_ov_str(&o, "k\"\n");
		tr_ov_put(&o, ": 1");
	}
	tr_ov_event(&o);
	tr_ov_put(&o, "{\"ph\": \"C\", \"ts\": ");
	tr_ov_us(&o, t->min_ts);
	tr_ov_put(&o, "}");
	tr_ov_event(&o);
	tr_ov_put(&o, "{}");
	struct kpass_info info;
	struct err e = {0};
	if (kpass_overlay(path, t, &o, out, &info, &e) && strstr(e.msg, "no longer"))
		abort();
	tr_ov_free(&o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = fuzz_memfd(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	struct kineto_opts ko = {.max_memory = 256u << 20, .threads = 1, .window = 4096};
	struct trace *t = NULL;
	struct err e = {0};
	FILE *out = fopen("/dev/null", "w");
	if (out && !kineto_load(path, &ko, &t, &e)) {
		slice(path, t, NULL, out);
		struct ses *s = NULL;
		if (!ses_new(t, &s, &e)) {
			const char *steps[] = {"1", "1-2"};
			for (int i = 0; i < 2; i++) {
				struct trace *w = NULL;
				if (!tr_select(t, s, steps[i], NULL, &w, &e)) {
					slice(path, t, w, out);
					tr_window_release(w);
				}
			}
			ses_free(s);
		}
		struct trace *w = NULL;
		if (t->min_ts <= t->max_end &&
		    !tr_window(t, NULL, t->min_ts, t->min_ts / 2 + t->max_end / 2 + 1, &w, &e)) {
			slice(path, t, w, out);
			tr_window_release(w);
		}
		overlay(path, t, out);
		struct kpass_rank r[2] = {{path, 0, t}, {path, 1, t}};
		struct kpass_merge_info mi;
		kpass_merge(r, 2, out, &mi, &e);
	}
	if (out)
		fclose(out);
	tr_free(t);
	close(fd);
	return 0;
}
