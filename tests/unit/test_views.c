/* The views' own results: each computed view keeps its results apart from
 * every other view's, so views of one session live side by side (steps
 * --step cuts its own copy of the steps, summary still sees them all), and
 * a compute that fails frees what it had built (ASan builds see leaks). */
#include <stdlib.h>
#include <string.h>

#include "kineto/kineto.h"
#include "tbprof/session.h"
#include "test.h"
#include "views/view.h"

/* The view's CSV as the CLI writes it; "" when it could not be written. */
static char *csv_of(struct view *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct report *r = f ? rep_open(f, REP_CSV) : NULL;
	if (r) {
		view_emit(v, r);
		rep_close(r);
	}
	if (f)
		fclose(f);
	return buf ? buf : strdup("");
}

/* Whether csv holds text (a run of whole lines). */
static void check_has(struct t *t, const char *csv, const char *text, int line)
{
	if (!strstr(csv, text))
		t_fail(t, __FILE__, line, "no\n%s\nin\n%s", text, csv);
}

void test_view_results_own(struct t *t)
{
	struct trace *tr = NULL;
	struct err e = {0};
	struct kineto_opts ko = {.threads = 1};
	CHECK_INT(t, kineto_load("tests/golden/_inputs/steps.json", &ko, &tr, &e), 0);
	struct ses *s = NULL;
	if (!tr || ses_new(tr, &s, &e)) {
		tr_free(tr);
		return;
	}
	/* steps --step 1: its rows only, the average over them */
	struct view_opts o1;
	view_opts_defaults(view_get(VIEW_STEPS), &o1);
	char msg[128];
	CHECK_INT(t, view_step_rows(&o1, "1", msg, sizeof msg), 0);
	struct view *cut = NULL, *sum = NULL, *all = NULL;
	CHECK_INT(t, view_compute(view_get(VIEW_STEPS), s, &o1, &cut, &e), 0);
	/* summary and the whole steps table on the same session, the cut view
	 * still alive: step 1 lasts 240000 - 100000 = 140000 ns, step 2
	 * 400000 - 300000 = 100000 ns; the average 120000, the window 300000;
	 * times from the trace's start, the first event at 50000 ns */
	struct view_opts o;
	view_opts_defaults(view_get(VIEW_SUMMARY), &o);
	CHECK_INT(t, view_compute(view_get(VIEW_SUMMARY), s, &o, &sum, &e), 0);
	view_opts_defaults(view_get(VIEW_STEPS), &o);
	CHECK_INT(t, view_compute(view_get(VIEW_STEPS), s, &o, &all, &e), 0);
	if (cut && sum && all) {
		CHECK(t, view_json(cut) == NULL && view_json(sum) == NULL);
		char *c = csv_of(cut);
		check_has(t, c,
			  "1,50000,190000,80000,0,0,0,10000,6000,30000,14000,140000\n\n"
			  "# steps_average\n"
			  "kernel_ns,memcpy_ns,memset_ns,communication_ns,runtime_ns,dataloader_ns,"
			  "cpu_exec_ns,"
			  "other_ns,total_ns\n"
			  "80000,0,0,0,10000,6000,30000,14000,140000\n\n",
			  __LINE__);
		check_has(t, c, "\nsteps,1\nremoved_tail_steps,0\n", __LINE__);
		view_free(cut);
		cut = NULL;
		char *a = csv_of(all);
		check_has(t, a,
			  "1,50000,190000,80000,0,0,0,10000,6000,30000,14000,140000\n"
			  "2,250000,350000,0,10000,2000,30000,7000,0,10000,41000,100000\n\n"
			  "# steps_average\n"
			  "kernel_ns,memcpy_ns,memset_ns,communication_ns,runtime_ns,dataloader_ns,"
			  "cpu_exec_ns,"
			  "other_ns,total_ns\n"
			  "40000,5000,1000,15000,8500,3000,20000,27500,120000\n\n",
			  __LINE__);
		char *m = csv_of(sum); /* after the cut view is gone */
		check_has(t, m, "\nsteps,2\navg_step_ns,120000\nwindow_ns,300000\n", __LINE__);
		free(c);
		free(a);
		free(m);
	}
	view_free(cut);
	view_free(sum);
	view_free(all);
	/* failed computes: no view, the message, nothing left allocated */
	struct view *v = NULL;
	view_opts_defaults(view_get(VIEW_MEMORY), &o);
	o.device = "cuda:7";
	CHECK_INT(t, view_compute(view_get(VIEW_MEMORY), s, &o, &v, &e), ERR_USAGE);
	CHECK(t, v == NULL);
	CHECK_STR(t, e.msg, "the trace has no memory records of device 'cuda:7'");
	view_opts_defaults(view_get(VIEW_STEPS), &o);
	CHECK_INT(t, view_step_rows(&o, "9", msg, sizeof msg), 0);
	CHECK_INT(t, view_compute(view_get(VIEW_STEPS), s, &o, &v, &e), ERR_USAGE);
	CHECK(t, v == NULL);
	CHECK_STR(t, e.msg, "--step: no step 9");
	ses_free(s);
	tr_free(tr);
}
