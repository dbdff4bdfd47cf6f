/* Unit tests of the Nsight Systems views in the registry of views
 * (views/view.h): found by family and name, their options as each front
 * end spells them, and the unknown-view message that the CLI and the
 * server both say. */
#include <stdio.h>
#include <stdlib.h>

#include "test.h"
#include "views/view.h"
#include "views/view_nsys.h"

void test_view_nsys_registry(struct t *t)
{
	static const char *const names[] = {"info", "kernels", "memcpy", "api",
					    "nvtx", "gpus",    "steps",	 "diff"};
	static const enum view_kind kinds[] = {VIEW_NSYS_INFO,	VIEW_NSYS_KERNELS, VIEW_NSYS_MEMCPY,
					       VIEW_NSYS_API,	VIEW_NSYS_NVTX,	   VIEW_NSYS_GPUS,
					       VIEW_NSYS_STEPS, VIEW_NSYS_DIFF};
	size_t seen = 0;
	for (size_t i = 0; i < view_count(); i++)
		if (view_at(i)->family == VIEW_FAMILY_NSYS) {
			CHECK_STR(t, view_at(i)->name, names[seen]); /* registry order */
			seen++;
		}
	CHECK_INT(t, seen, 8);
	for (size_t i = 0; i < 8; i++) {
		const struct view_decl *d = view_find_in(VIEW_FAMILY_NSYS, names[i]);
		CHECK(t, d != NULL && d->kind == kinds[i] && d->family == VIEW_FAMILY_NSYS);
		CHECK(t, d != NULL && (d->flags & VIEW_WHOLE_FILE) && d->compute && d->free);
	}
	/* a name of two families: the trace view and the nsys view */
	CHECK(t, view_find("kernels") == view_get(VIEW_KERNELS));
	CHECK(t, view_find_in(VIEW_FAMILY_NSYS, "kernels") == view_get(VIEW_NSYS_KERNELS));
	CHECK(t, view_find("memcpy") == NULL);
	CHECK(t, view_find_in(VIEW_FAMILY_NSYS, "summary") == NULL);
	CHECK(t, view_find_in(VIEW_FAMILY_NSYS, "analyze") == NULL); /* a command, not a view */
	CHECK_STR(t, view_family_prefix(VIEW_FAMILY_NSYS), "nsys");
	/* only steps takes options: the query names two of them, not --manifest */
	const struct view_decl *s = view_get(VIEW_NSYS_STEPS);
	CHECK_INT(t, s->nopts, 3);
	CHECK(t, vo_find_api(s->opts, s->nopts, "capture_range") != NULL);
	CHECK(t, vo_find_api(s->opts, s->nopts, "iterations") != NULL);
	CHECK(t, vo_find_api(s->opts, s->nopts, "manifest") == NULL);
	CHECK_INT(t, view_get(VIEW_NSYS_INFO)->nopts, 0);
	CHECK_INT(t, view_get(VIEW_NSYS_GPUS)->nopts, 0);
	CHECK_INT(t, view_nsys_nopts, 3); /* the CLI takes them with every view */
}

void test_view_nsys_options(struct t *t)
{
	const struct view_decl *d = view_get(VIEW_NSYS_STEPS);
	struct view_opts o;
	char msg[256] = "";
	view_opts_init(&o);
	CHECK_STR(t, o.nsys_capture, "profile-target");
	CHECK(t, o.nsys_manifest == NULL && o.nsys_iterations == NULL);
	o.nsys_iterations = "12";
	CHECK_INT(t, d->check(d, &o, VO_API, msg, sizeof msg), 0);
	o.nsys_iterations = "-1";
	CHECK_INT(t, d->check(d, &o, VO_API, msg, sizeof msg), -1);
	CHECK_STR(t, msg, "iterations needs a count, not '-1'");
	o.nsys_iterations = "+3";
	CHECK_INT(t, d->check(d, &o, VO_API, msg, sizeof msg), -1);
	CHECK_STR(t, msg, "iterations needs a count, not '+3'");
	/* the command line's count is checked when the export is read
	 * (nsys_steps_manifest: "--iterations needs a count, not 'X'") */
	o.nsys_iterations = "x";
	CHECK_INT(t, d->check(d, &o, VO_CLI, msg, sizeof msg), 0);
}

void test_view_nsys_unknown(struct t *t)
{
	char msg[256];
	view_unknown(VIEW_FAMILY_NSYS, "kernel", msg, sizeof msg);
	CHECK_STR(t, msg,
		  "no nsys view 'kernel'; did you mean 'kernels'? (info, kernels, memcpy, api, "
		  "nvtx, gpus, steps, diff)");
	view_unknown(VIEW_FAMILY_NSYS, "bogus", msg, sizeof msg);
	CHECK_STR(t, msg,
		  "no nsys view 'bogus' (info, kernels, memcpy, api, nvtx, gpus, steps, diff)");
	/* a long name is cut at 40 bytes, as the server always did */
	view_unknown(VIEW_FAMILY_NSYS, "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz", msg,
		     sizeof msg);
	CHECK_STR(t, msg,
		  "no nsys view 'abcdefghijklmnopqrstuvwxyzabcdefghijklmn' (info, kernels, memcpy, "
		  "api, nvtx, gpus, steps, diff)");
	/* the ncu family keeps its words */
	view_unknown(VIEW_FAMILY_NCU, "frob", msg, sizeof msg);
	CHECK_STR(t, msg,
		  "unknown verb 'frob' (list, raw, session, details, hints, body, source, diff)");
}
