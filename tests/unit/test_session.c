/* The analysis session (tbprof/session.h): each shared analysis is built
 * once per trace however many views ask for it, the answers equal those
 * built on their own, and threads asking at once get one build. */
#include <pthread.h>
#include <stdlib.h>

#include "kineto/kineto.h"
#include "tbprof/select.h"
#include "tbprof/session.h"
#include "test.h"
#include "trace/link.h"
#include "trace/window.h"
#include "views/view.h"

static struct trace *load(struct t *t, const char *path)
{
	struct trace *tr = NULL;
	struct err e = {0};
	struct kineto_opts o = {.threads = 1};
	if (kineto_load(path, &o, &tr, &e))
		t_fail(t, __FILE__, __LINE__, "%s: %s", path, e.msg);
	return tr;
}

static void check_stats(struct t *t, struct ses *s, unsigned links, unsigned steps, unsigned trees,
			int line)
{
	struct ses_stats st;
	ses_stats(s, &st);
	if (st.links != links || st.steps != steps || st.trees != trees)
		t_fail(t, __FILE__, line, "built links %u steps %u trees %u, want %u %u %u",
		       st.links, st.steps, st.trees, links, steps, trees);
}

/* The step ranges and window links of a session, as counted. */
static void check_cut(struct t *t, struct ses *s, unsigned bounds, unsigned derived, int line)
{
	struct ses_stats st;
	ses_stats(s, &st);
	if (st.bounds != bounds || st.links_derived != derived)
		t_fail(t, __FILE__, line, "step bounds %u, derived links %u, want %u %u", st.bounds,
		       st.links_derived, bounds, derived);
}

/* Two link tables say the same: launchers, grouped rows, segments. */
static void same_links(struct t *t, const struct tr_links *a, const struct tr_links *b, int line)
{
	bool same = a->n == b->n && a->ndev == b->ndev && a->nseg == b->nseg;
	for (size_t i = 0; same && i < a->n; i++)
		same = a->launcher[i] == b->launcher[i];
	for (size_t i = 0; same && i < a->ndev; i++)
		same = a->dev[i] == b->dev[i];
	for (size_t i = 0; same && i < a->nseg; i++)
		same = a->seg[i].rt == b->seg[i].rt && a->seg[i].first == b->seg[i].first &&
		       a->seg[i].count == b->seg[i].count;
	if (!same)
		t_fail(t, __FILE__, line, "derived links differ from links built on the window");
}

/* `gpuprof summary --step 4`: the file's session finds the window with the
 * steps' ranges alone (links once, st_bounds once, no full steps); the
 * window's session starts with those links carried over and computes the
 * summary (steps and tree once, no link build). So links, steps and the
 * tree are each built once in all. The example trace has no cuda_driver
 * event, so one link table serves both variants. */
void test_session_summary_step(struct t *t)
{
	struct trace *tr = load(t, "examples/resnet_like.json.gz");
	if (!tr)
		return;
	struct err e = {0};
	struct ses *whole, *win = NULL;
	CHECK_INT(t, ses_new(tr, &whole, &e), 0);
	struct trace *w = NULL;
	CHECK_INT(t, tr_select(tr, whole, "4", NULL, &w, &e), 0);
	check_stats(t, whole, 1, 0, 0, __LINE__);
	check_cut(t, whole, 1, 0, __LINE__);
	CHECK(t, w != NULL);
	if (w && !ses_new_window(whole, w, &win, &e)) {
		ses_free(whole); /* the window's session does not need it */
		whole = NULL;
		struct view_opts o;
		view_opts_init(&o);
		struct view *v = NULL;
		CHECK_INT(t, view_compute(view_get(VIEW_SUMMARY), win, &o, &v, &e), 0);
		view_free(v);
		check_stats(t, win, 0, 1, 1, __LINE__);
		check_cut(t, win, 0, 1, __LINE__);
		/* the carried links equal links built on the window */
		const struct tr_links *got;
		struct tr_links own;
		CHECK_INT(t, ses_links(win, false, &got, &e), 0);
		CHECK_INT(t, tr_links_build(w, false, &own, &e), 0);
		same_links(t, got, &own, __LINE__);
		CHECK(t, own.ndev > 0);
		tr_links_free(&own);
		check_stats(t, win, 0, 1, 1, __LINE__);
	}
	ses_free(win);
	ses_free(whole);
	if (w)
		tr_free(w); /* frees tr too */
	else
		tr_free(tr);
}

/* The one case links cannot be carried over: the first runtime of a
 * correlation id is outside the window while its kernel is kept (its
 * cuda_driver launch is inside), and a second runtime with the same id is
 * inside. Rows: driver (id 5, ts 100), runtime (id 5, ts 0), runtime (id
 * 5, ts 120), kernel (id 5, ts 150); window [50, 200]. The driver links
 * carry over (the driver row launches the kernel); the runtime-only links
 * are built on the window, where the kernel's launcher is the second
 * runtime (window row 1). Times in the model are ns. */
void test_session_window_relink(struct t *t)
{
	static const char text[] =
	    "{\"traceEvents\":["
	    "{\"ph\":\"X\",\"cat\":\"cuda_driver\",\"name\":\"cuLaunchKernel\",\"pid\":1,"
	    "\"tid\":1,\"ts\":100,\"dur\":5,\"args\":{\"correlation\":5}},"
	    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"
	    "\"tid\":1,\"ts\":0,\"dur\":5,\"args\":{\"correlation\":5}},"
	    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"
	    "\"tid\":1,\"ts\":120,\"dur\":5,\"args\":{\"correlation\":5}},"
	    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,"
	    "\"ts\":150,\"dur\":10,\"args\":{\"correlation\":5,\"device\":0,\"stream\":7}}"
	    "]}";
	struct trace *tr = t_load_text(t, text);
	if (!tr)
		return;
	struct err e = {0};
	struct ses *whole, *win = NULL;
	CHECK_INT(t, ses_new(tr, &whole, &e), 0);
	const struct tr_links *l;
	CHECK_INT(t, ses_links(whole, true, &l, &e), 0);
	CHECK_INT(t, ses_links(whole, false, &l, &e), 0);
	struct trace *w = NULL;
	CHECK_INT(t, tr_window(tr, NULL, 50000, 201000, &w, &e), 0);
	if (!w) {
		ses_free(whole);
		tr_free(tr);
		return;
	}
	CHECK_INT(t, (int)w->ev.n, 3); /* driver, second runtime, kernel */
	CHECK_INT(t, ses_new_window(whole, w, &win, &e), 0);
	ses_free(whole);
	if (win) {
		check_cut(t, win, 0, 1, __LINE__);
		check_stats(t, win, 0, 0, 0, __LINE__);
		const struct tr_links *rt, *all;
		CHECK_INT(t, ses_links(win, false, &rt, &e), 0);
		CHECK_INT(t, ses_links(win, true, &all, &e), 0);
		check_stats(t, win, 1, 0, 0, __LINE__);
		if (rt && all) {
			CHECK_INT(t, (int)rt->launcher[2], 1);
			CHECK_INT(t, (int)all->launcher[2], 0);
			struct tr_links own;
			CHECK_INT(t, tr_links_build(w, true, &own, &e), 0);
			same_links(t, all, &own, __LINE__);
			tr_links_free(&own);
		}
	}
	ses_free(win);
	tr_free(w);
}

/* Every trace view on one session: one build of each analysis (per
 * --tb-compat setting: its steps and tree are other analyses). */
void test_session_shared_by_views(struct t *t)
{
	struct trace *tr = load(t, "tests/golden/_inputs/steps.json");
	if (!tr)
		return;
	struct err e = {0};
	struct ses *s;
	CHECK_INT(t, ses_new(tr, &s, &e), 0);
	struct view_opts o;
	view_opts_init(&o);
	const enum view_kind kinds[] = {VIEW_SUMMARY, VIEW_STEPS,  VIEW_OPS,
					VIEW_KERNELS, VIEW_MEMORY, VIEW_SUMMARY};
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		struct view *v = NULL;
		CHECK_INT(t, view_compute(view_get(kinds[i]), s, &o, &v, &e), 0);
		view_free(v);
	}
	check_stats(t, s, 1, 1, 1, __LINE__);
	o.tb_compat = true;
	struct view *v = NULL;
	CHECK_INT(t, view_compute(view_get(VIEW_SUMMARY), s, &o, &v, &e), 0);
	view_free(v);
	check_stats(t, s, 1, 2, 2, __LINE__);
	/* the shared steps equal steps computed on their own: 2 steps, as
	 * tests/golden/steps-table says */
	const struct st_result *sr;
	CHECK_INT(t, ses_steps(s, false, &sr, &e), 0);
	struct tr_links l;
	struct st_result own = {0};
	struct st_opts so = {0};
	CHECK_INT(t, tr_links_build(tr, false, &l, &e), 0);
	CHECK_INT(t, st_compute(tr, &l, &so, &own, &e), 0);
	CHECK_INT(t, sr->n, 2);
	CHECK_INT(t, own.n, sr->n);
	for (size_t i = 0; i < own.n && i < sr->n; i++)
		for (int p = 0; p < ST_NPARTS; p++)
			CHECK_INT(t, sr->steps[i].cost[p], own.steps[i].cost[p]);
	st_free(&own);
	tr_links_free(&l);
	ses_free(s);
	tr_free(tr);
}

#define EV(cat, name, tid, ts, dur, args)                                                          \
	"{\"ph\":\"X\",\"cat\":\"" cat "\",\"name\":\"" name "\",\"pid\":1,\"tid\":" #tid          \
	",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{" args "}}"

/* With a cuda_driver launch the two link variants differ: the plain tree
 * (driver=true) attributes the Triton kernel to its operator, the
 * tb-compat tree and the steps (driver=false) do not; two link builds. */
void test_session_driver_links(struct t *t)
{
	const char *text =
	    "[" EV("cpu_op", "ProfilerStep#1", 1, 0, 100, "\"External id\":1") "," EV(
		"cpu_op", "triton_op", 1, 10, 50,
		"\"External id\":2") "," EV("cuda_driver", "cuLaunchKernel", 1, 20, 5,
					    "\"External "
					    "id\":2,\"correlation\":"
					    "7") "," EV("kernel", "triton_k", 9, 30, 40,
							"\"correlati"
							"on\":7,"
							"\"device\":"
							"0") "]";
	struct trace *tr = t_load_text(t, text);
	if (!tr)
		return;
	struct err e = {0};
	struct ses *s;
	CHECK_INT(t, ses_new(tr, &s, &e), 0);
	const struct tr_links *rt, *all;
	CHECK_INT(t, ses_links(s, false, &rt, &e), 0);
	CHECK_INT(t, ses_links(s, true, &all, &e), 0);
	CHECK(t, rt != all);
	CHECK_INT(t, rt->ndev, 0);
	CHECK_INT(t, all->ndev, 1);
	CHECK_INT(t, all->launcher[3], 2); /* the kernel (row 3) by cuLaunchKernel (row 2) */
	const struct optree *plain, *compat;
	CHECK_INT(t, ses_tree(s, false, &plain, &e), 0);
	CHECK_INT(t, ses_tree(s, true, &compat, &e), 0);
	CHECK_INT(t, plain->nstale, 0);
	CHECK_INT(t, compat->nstale, 1);
	check_stats(t, s, 2, 0, 2, __LINE__);
	ses_free(s);
	tr_free(tr);
}

struct racer {
	struct ses *s;
	const struct optree *tree;
	const struct st_result *steps;
	int rc;
};

static void *race(void *arg)
{
	struct racer *r = arg;
	struct err e = {0};
	r->rc = ses_tree(r->s, false, &r->tree, &e) || ses_steps(r->s, false, &r->steps, &e);
	return NULL;
}

/* Four threads ask at once: one build, one answer for all. */
void test_session_threads(struct t *t)
{
	struct trace *tr = load(t, "examples/resnet_like.json.gz");
	if (!tr)
		return;
	struct err e = {0};
	struct ses *s;
	CHECK_INT(t, ses_new(tr, &s, &e), 0);
	struct racer r[4];
	pthread_t th[4];
	for (int i = 0; i < 4; i++) {
		r[i] = (struct racer){.s = s};
		pthread_create(&th[i], NULL, race, &r[i]);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		CHECK_INT(t, r[i].rc, 0);
		CHECK(t, r[i].tree == r[0].tree && r[i].steps == r[0].steps);
	}
	check_stats(t, s, 1, 1, 1, __LINE__);
	CHECK_INT(t, r[0].steps->n, 6); /* README: the example's 6 steps */
	ses_free(s);
	tr_free(tr);
}

/* The tree built ahead on a second thread (what summary does): still one
 * build, the same tree as one built in place (node count, the root of
 * each thread, the per-node rows); with one thread allowed no thread
 * starts and ses_tree builds it. A second ahead call after the build
 * does nothing. */
void test_session_tree_ahead(struct t *t)
{
	struct trace *tr = load(t, "examples/resnet_like.json.gz");
	if (!tr)
		return;
	struct err e = {0};
	struct ses *a, *b;
	CHECK_INT(t, ses_new(tr, &a, &e), 0);
	CHECK_INT(t, ses_new(tr, &b, &e), 0);
	ses_set_threads(a, 2);
	ses_set_threads(b, 1);
	const struct optree *ta, *tb;
	const struct st_result *sa;
	ses_tree_ahead(a, false);
	CHECK_INT(t, ses_steps(a, false, &sa, &e), 0);
	CHECK_INT(t, ses_tree(a, false, &ta, &e), 0);
	ses_tree_ahead(a, false);
	ses_tree_ahead(b, false);
	check_stats(t, b, 0, 0, 0, __LINE__); /* one thread: nothing ahead */
	CHECK_INT(t, ses_tree(b, false, &tb, &e), 0);
	check_stats(t, a, 1, 1, 1, __LINE__);
	check_stats(t, b, 1, 0, 1, __LINE__);
	CHECK_INT(t, ta->nnodes, tb->nnodes);
	CHECK_INT(t, ta->nthreads, tb->nthreads);
	size_t diff = 0;
	for (size_t i = 0; i < ta->nnodes && ta->nnodes == tb->nnodes; i++)
		diff +=
		    ta->nodes[i].row != tb->nodes[i].row || ta->nodes[i].end != tb->nodes[i].end;
	CHECK_INT(t, diff, 0);
	CHECK_INT(t, sa->n, 6);
	ses_free(a);
	ses_free(b);
	tr_free(tr);
}

/* A job of test_session_side: records its id in the log it shares with
 * the jobs queued beside it (which run one after another). */
struct side_rec {
	struct ses_side job;
	int id, *log;
	size_t *n;
};

static void side_fn(void *arg)
{
	struct side_rec *r = arg;
	r->log[(*r->n)++] = r->id;
}

/* ses_side_run: the jobs run in the order they were queued, each done once
 * ses_side_wait returns, on one side thread that ends when the queue is
 * empty and starts again for a later job; with one thread, in place before
 * ses_side_run returns; ses_free waits for a job nobody waited for. */
void test_session_side(struct t *t)
{
	struct trace *tr = t_load_text(t, "{\"traceEvents\":[]}");
	if (!tr)
		return;
	struct err e = {0};
	for (int threads = 1; threads <= 2; threads++) {
		struct ses *s;
		CHECK_INT(t, ses_new(tr, &s, &e), 0);
		ses_set_threads(s, threads);
		int log[8] = {0};
		size_t n = 0;
		struct side_rec r[5];
		for (int i = 0; i < 5; i++)
			r[i] = (struct side_rec){{.fn = side_fn, .arg = &r[i]}, i + 1, log, &n};
		for (int i = 0; i < 3; i++) {
			ses_side_run(s, &r[i].job);
			if (threads == 1) /* in place: done on return */
				CHECK_INT(t, (int)n, i + 1);
		}
		ses_side_wait(s, &r[2].job);
		CHECK(t, r[0].job.done && r[1].job.done && r[2].job.done);
		CHECK_INT(t, (int)n, 3);
		ses_side_run(s, &r[3].job); /* after the queue emptied */
		ses_side_wait(s, &r[3].job);
		CHECK_INT(t, (int)n, 4);
		ses_side_run(s, &r[4].job); /* never waited for: ses_free waits */
		ses_free(s);
		CHECK_INT(t, (int)n, 5);
		for (int i = 0; i < 5; i++)
			CHECK_INT(t, log[i], i + 1);
	}
	tr_free(tr);
}
