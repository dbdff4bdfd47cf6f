/* fuzz_trace_views: every view and export on a trace made of arbitrary
 * bytes. The input is loaded as fuzz_trace loads it (a memfd, through its
 * /proc path); a trace that loads then gets a session and:
 *   - every trace view of the registry (views.def), computed with the
 *     commands' defaults and with a variant of their options (tb-compat,
 *     --timeline, grouping, sorting, --stack, --gpu, the memory curve and
 *     events, --top 3), each emitted as text, CSV and JSON;
 *   - what the views that declare one add to the overlaid trace, built
 *     and dropped (the writer is fuzz_trace_slice's);
 *   - the timeline (lanes, HTA's counter lanes, links of a row, search);
 *   - every export of the call stacks: folded (ns, us), pprof and
 *     speedscope, over stacks built with and without GPU leaves, threads
 *     and merged tracks (the trace written back from its bytes is
 *     fuzz_trace_slice's);
 *   - the --step 1, --step 1-2 and --range (the first event's name)
 *     windows (tr_select), each with every view again.
 * Output goes to /dev/null. Any result is fine; a crash, a sanitizer
 * report or a leak is not. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_memfd.h"
#include "export/export.h"
#include "kineto/kineto.h"
#include "report/report.h"
#include "tbprof/select.h"
#include "tbprof/session.h"
#include "trace/stacks.h"
#include "trace/trace.h"
#include "trace/window.h"
#include "views/view.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void emit_all(struct view *v, FILE *out)
{
	static const enum rep_format fmts[] = {REP_TABLE, REP_CSV, REP_JSON};
	for (size_t f = 0; f < 3; f++) {
		struct report *r = rep_open(out, fmts[f]);
		if (!r)
			continue;
		view_emit(v, r);
		rep_close(r);
	}
}

/* The other value of every option the views have. */
static void variant(struct view_opts *o)
{
	o->tb_compat = true;
	o->timeline = true;
	o->ops_group = OPS_BY_NAME_SHAPE;
	o->ops_stack = true;
	o->ops_sort = OPS_SORT_HOST_TOTAL;
	o->kern_group = KERN_BY_NAME_OP;
	o->top = 3;
	o->stack_gpu = true;
	o->curve = true;
	o->events = true;
	o->step_plot = true;
	o->curve_points = 6;
}

static void one_view(const struct view_decl *d, struct ses *s, const struct view_opts *o, FILE *out)
{
	struct view *v = NULL;
	struct err e = {0};
	int rc = d->flags & VIEW_MANY ? view_compute_many(d, &s, 1, o, &v, &e)
				      : view_compute(d, s, o, &v, &e);
	if (rc && v)
		abort(); /* failure must not give a view */
	if (rc)
		return;
	emit_all(v, out);
	if (d->overlay) { /* what `trace overlay` would add, built and dropped */
		struct tr_overlay ov;
		tr_ov_init(&ov);
		if (view_overlay(v, &ov, &e) == 0 && !tr_ov_failed(&ov))
			tr_ov_sort(&ov);
		tr_ov_free(&ov);
	}
	view_free(v);
}

static void all_views(struct ses *s, FILE *out)
{
	for (size_t k = 0; k < view_count(); k++) {
		const struct view_decl *d = view_at(k);
		if (d->family != VIEW_FAMILY_TRACE)
			continue;
		struct view_opts o;
		char msg[256];
		for (int pass = 0; pass < 2; pass++) {
			view_opts_defaults(d, &o);
			if (pass)
				variant(&o);
			if (!d->check || !d->check(d, &o, VO_CLI, msg, sizeof msg))
				one_view(d, s, &o, out);
			view_opts_release(&o);
		}
	}
}

static void timeline(const struct trace *t, FILE *out)
{
	struct tl_index *ix = NULL;
	struct err e = {0};
	if (tl_index_build(t, &ix, &e))
		return;
	struct tl_opts o = {.px = 200, .flows = true, .stream_counters = true};
	tl_write_json(ix, &o, out, &e);
	o = (struct tl_opts){
	    .px = 7, .has_start = true, .start_ns = 1, .has_end = true, .end_ns = 2000};
	tl_write_json(ix, &o, out, &e);
	tl_write_links(ix, 0, out, &e);
	tl_write_links(ix, (int64_t)t->ev.n / 2, out, &e);
	o = (struct tl_opts){.px = 1, .agg = true, .has_end = true, .end_ns = 1500};
	tl_write_agg(ix, &o, out, &e);
	o.tracks = "0,1";
	tl_write_agg(ix, &o, out, &e);
	uint8_t *match = NULL;
	size_t nmatch = 0;
	if (!tl_find_match(ix, "a", &match, &nmatch, &e)) {
		o = (struct tl_opts){.px = 50, .match = match};
		tl_write_json(ix, &o, out, &e);
		free(match);
	}
	struct tl_find_opts fo = {.text = "e", .limit = 5};
	tl_write_find(ix, &fo, out, &e);
	tl_index_free(ix);
}

static void exports(const struct trace *t, FILE *out)
{
	struct err e = {0};
	static const struct stk_opts so[] = {{0},
					     {.gpu = true},
					     {.threads = true, .profiler_span = true},
					     {.merge_tracks = true, .gpu = true}};
	for (size_t i = 0; i < sizeof so / sizeof so[0]; i++) {
		struct stk_profile p;
		if (stk_build(t, &so[i], &p, &e))
			continue;
		fold_write(&p, out, i & 1 ? FOLD_US : FOLD_NS, &e);
		pprof_write(&p, out, &e);
		ss_write(&p, out, "fuzz", "gpuprof", &e);
		stk_free(&p);
	}
}

static void everything(struct trace *t, FILE *out, bool windows)
{
	struct ses *s = NULL;
	struct err e = {0};
	if (ses_new(t, &s, &e))
		return;
	all_views(s, out);
	timeline(t, out);
	exports(t, out);
	if (windows) {
		char range[64] = "";
		if (t->ev.n)
			snprintf(range, sizeof range, "%s", tr_str(t, t->ev.name[0]));
		const char *steps[] = {"1", "1-2", NULL};
		for (int i = 0; i < 3; i++) {
			struct trace *w = NULL;
			const char *step = steps[i], *rg = step ? NULL : range;
			if (!step && !range[0])
				continue;
			if (tr_select(t, s, step, rg, &w, &e))
				continue;
			everything(w, out, false);
			tr_window_release(w); /* t stays ours */
		}
	}
	ses_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a bounded load, so that a small input cannot ask for gigabytes; one
	 * thread (fuzz_trace covers the second), a window small enough that
	 * the larger inputs still take several */
	struct kineto_opts ko = {.max_memory = 256u << 20, .threads = 1, .window = 4096};
	struct trace *t = fuzz_load_trace(data, size, &ko);
	FILE *out = t ? fopen("/dev/null", "w") : NULL;
	if (out) {
		everything(t, out, true);
		fclose(out);
	}
	tr_free(t);
	return 0;
}
