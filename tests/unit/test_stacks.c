/* Stacks (src/trace/stacks.h) on small hand-written traces. Times in the
 * traces are µs; expected values are ns, worked out in the comments. */
#include <stdlib.h>
#include <unistd.h>

#include "trace/stacks.h"
#include "test.h"

/* "A;B;C" of node i (frames only, root first) into buf. */
static const char *path_of(const struct stk_profile *p, size_t i, char *buf, size_t n)
{
	uint32_t fr[64];
	size_t k = 0;
	for (uint32_t x = (uint32_t)i; x != STK_NONE && p->nodes[x].frame != STK_NONE && k < 64;
	     x = p->nodes[x].parent)
		fr[k++] = p->nodes[x].frame;
	size_t o = 0;
	buf[0] = 0;
	while (k--) {
		int w = snprintf(buf + o, n - o, "%s%s", p->frames[fr[k]].name, k ? ";" : "");
		if (w < 0 || (size_t)w >= n - o)
			break;
		o += (size_t)w;
	}
	return buf;
}

/* The node with that path on track trk (STK_NONE: any), or NULL. */
static const struct stk_node *find(const struct stk_profile *p, const char *path, uint32_t trk)
{
	char buf[256];
	for (size_t i = 0; i < p->nnodes; i++)
		if (p->nodes[i].frame != STK_NONE &&
		    (trk == STK_NONE || p->nodes[i].track == trk) &&
		    !strcmp(path_of(p, i, buf, sizeof buf), path))
			return &p->nodes[i];
	return NULL;
}

#define CHECK_NODE(t, p, path, trk, cnt, self, incl)                                               \
	do {                                                                                       \
		const struct stk_node *n_ = find((p), (path), (trk));                              \
		CHECK(t, n_ != NULL);                                                              \
		if (n_) {                                                                          \
			CHECK_INT(t, n_->count, cnt);                                              \
			CHECK_INT(t, n_->self_ns, self);                                           \
			CHECK_INT(t, n_->incl_ns, incl);                                           \
		}                                                                                  \
	} while (0)

/* A [0,10000]; C [2000,3000] and B [2000,5000] share a start (B, longer,
 * is the parent though C is first in the file); D [5000,5500] starts at
 * B's end: a sibling; E [8000,12000] partially overlaps A: clipped to
 * [8000,10000]; F [9000,9001] in E; G [11000,12000] after A: a root.
 * Self: A 10000-3000-500-2000 = 4500, B 2000, C 1000, D 500, E 1999, F 1,
 * G 1000; roots A + G = 11000 = all self. */
static const char nest[] =
    "[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"C\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":1},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"A\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"B\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":3},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"D\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":0.5},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"E\",\"pid\":1,\"tid\":1,\"ts\":8,\"dur\":4},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"F\",\"pid\":1,\"tid\":1,\"ts\":9,\"dur\":0.001},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"G\",\"pid\":1,\"tid\":1,\"ts\":11,\"dur\":1}]";

void test_stacks_nesting(struct t *t)
{
	struct trace *tr = t_load_text(t, nest);
	if (!tr)
		return;
	struct stk_opts o = {0};
	struct stk_profile p;
	struct err e;
	CHECK_INT(t, stk_build(tr, &o, &p, &e), 0);
	CHECK_NODE(t, &p, "A", STK_NONE, 1, 4500, 10000);
	CHECK_NODE(t, &p, "A;B", STK_NONE, 1, 2000, 3000);
	CHECK_NODE(t, &p, "A;B;C", STK_NONE, 1, 1000, 1000);
	CHECK_NODE(t, &p, "A;D", STK_NONE, 1, 500, 500);
	CHECK_NODE(t, &p, "A;E", STK_NONE, 1, 1999, 2000);
	CHECK_NODE(t, &p, "A;E;F", STK_NONE, 1, 1, 1);
	CHECK_NODE(t, &p, "G", STK_NONE, 1, 1000, 1000);
	CHECK_INT(t, p.clipped, 1);
	CHECK_INT(t, p.clipped_ns, 2000);
	CHECK_INT(t, p.root_ns, 11000);
	CHECK_INT(t, p.self_ns, 11000);
	CHECK_INT(t, p.events, 7);
	stk_free(&p);
	tr_free(tr);
}

/* Equal intervals nest in input order (Q under P); a zero-length Z at
 * P's end is a root (ends are exclusive for starting children). */
void test_stacks_ties(struct t *t)
{
	struct trace *tr = t_load_text(t, "[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"P\","
					  "\"pid\":3,\"tid\":3,\"ts\":1,\"dur\":5},"
					  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"Q\",\"pid\":"
					  "3,\"tid\":3,\"ts\":1,\"dur\":5},"
					  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"Z\",\"pid\":"
					  "3,\"tid\":3,\"ts\":6,\"dur\":0}]");
	if (!tr)
		return;
	struct stk_opts o = {0};
	struct stk_profile p;
	struct err e;
	CHECK_INT(t, stk_build(tr, &o, &p, &e), 0);
	CHECK_NODE(t, &p, "P", STK_NONE, 1, 0, 5000);
	CHECK_NODE(t, &p, "P;Q", STK_NONE, 1, 5000, 5000);
	CHECK_NODE(t, &p, "Z", STK_NONE, 1, 0, 0);
	CHECK_INT(t, p.clipped, 0);
	stk_free(&p);
	tr_free(tr);
}

/* Recursion: A [0,10] > A [1,5] > A [2,3]. Self 6000 + 3000 + 1000; the
 * frame's total (pprof cum) counts the outermost call only: 10000. */
void test_stacks_recursion(struct t *t)
{
	struct trace *tr = t_load_text(t, "[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"A\","
					  "\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10},"
					  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"A\",\"pid\":"
					  "1,\"tid\":1,\"ts\":1,\"dur\":4},"
					  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"A\",\"pid\":"
					  "1,\"tid\":1,\"ts\":2,\"dur\":1}]");
	if (!tr)
		return;
	struct stk_opts o = {0};
	struct stk_profile p;
	struct err e;
	CHECK_INT(t, stk_build(tr, &o, &p, &e), 0);
	CHECK_INT(t, p.nframes, 1);
	if (p.nframes == 1) {
		CHECK_INT(t, p.frames[0].calls, 3);
		CHECK_INT(t, p.frames[0].self_ns, 10000);
		CHECK_INT(t, p.frames[0].total_ns, 10000);
	}
	CHECK_NODE(t, &p, "A;A;A", STK_NONE, 1, 1000, 1000);
	stk_free(&p);
	tr_free(tr);
}

/* Two processes with the same tid: separate tracks, merged only when
 * asked; --threads names them. */
static const char two[] =
    "[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"A\",\"pid\":1,\"tid\":7,\"ts\":0,\"dur\":2},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"A\",\"pid\":2,\"tid\":7,\"ts\":1,\"dur\":3}]";

void test_stacks_tracks(struct t *t)
{
	struct trace *tr = t_load_text(t, two);
	if (!tr)
		return;
	struct stk_profile p;
	struct err e;
	struct stk_opts o = {0};
	CHECK_INT(t, stk_build(tr, &o, &p, &e), 0);
	CHECK_NODE(t, &p, "A", 0, 1, 2000, 2000);
	CHECK_NODE(t, &p, "A", 1, 1, 3000, 3000);
	stk_free(&p);
	o.merge_tracks = true;
	CHECK_INT(t, stk_build(tr, &o, &p, &e), 0);
	CHECK_NODE(t, &p, "A", STK_NONE, 2, 5000, 5000);
	stk_free(&p);
	o.threads = true;
	CHECK_INT(t, stk_build(tr, &o, &p, &e), 0);
	CHECK_NODE(t, &p, "pid 1 / tid 7;A", STK_NONE, 1, 2000, 2000);
	CHECK_NODE(t, &p, "pid 2 / tid 7;A", STK_NONE, 1, 3000, 3000);
	CHECK_NODE(t, &p, "pid 2 / tid 7", STK_NONE, 0, 0, 3000);
	stk_free(&p);
	tr_free(tr);
}

/* --gpu: the kernel becomes a leaf under its launch (20000 ns of GPU time,
 * device 0, stream 7); the runtime keeps its host self time, and the GPU
 * time adds to the inclusive time above it (mm 10000 + 20000, launch
 * 2000 + 20000), as in pprof's cum. */
void test_stacks_gpu(struct t *t)
{
	struct trace *tr =
	    t_load_text(t, "[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"mm\",\"pid\":1,\"tid\":1,"
			   "\"ts\":0,\"dur\":10},"
			   "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"launch\",\"pid\":1,"
			   "\"tid\":1,\"ts\":1,"
			   "\"dur\":2,\"args\":{\"correlation\":7}},"
			   "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,"
			   "\"ts\":5,\"dur\":20,"
			   "\"args\":{\"device\":0,\"stream\":7,\"correlation\":7}}]");
	if (!tr)
		return;
	struct stk_profile p;
	struct err e;
	struct stk_opts o = {.gpu = true};
	CHECK_INT(t, stk_build(tr, &o, &p, &e), 0);
	CHECK_NODE(t, &p, "mm", STK_NONE, 1, 8000, 30000);
	CHECK_NODE(t, &p, "mm;launch", STK_NONE, 1, 2000, 22000);
	CHECK_INT(t, p.frames[0].total_ns, 30000);
	CHECK_NODE(t, &p, "mm;launch;gemm", STK_NONE, 1, 20000, 20000);
	CHECK(t, find(&p, "gemm", STK_NONE) == NULL);
	const struct stk_node *g = find(&p, "mm;launch;gemm", STK_NONE);
	if (g) {
		CHECK_INT(t, g->device, 0);
		CHECK_INT(t, g->stream, 7);
	}
	CHECK_INT(t, p.gpu_ns, 20000);
	CHECK_INT(t, p.self_ns, p.root_ns + p.gpu_ns);
	stk_free(&p);
	o.gpu = false;
	CHECK_INT(t, stk_build(tr, &o, &p, &e), 0);
	CHECK_NODE(t, &p, "gemm", STK_NONE, 1, 20000, 20000);
	stk_free(&p);
	tr_free(tr);
}

/* The evented walk: properly nested, E closed at A's end. */
struct rec {
	char buf[512];
	size_t n;
	const struct stk_profile *p;
};

static int rec_ev(struct rec *r, char type, uint32_t frame, int64_t at)
{
	int w = snprintf(r->buf + r->n, sizeof r->buf - r->n, "%c%s@%lld ", type,
			 r->p->frames[frame].name, (long long)at);
	if (w > 0 && (size_t)w < sizeof r->buf - r->n)
		r->n += (size_t)w;
	return 0;
}
static int rec_open(void *c, uint32_t f, int64_t at)
{
	return rec_ev(c, 'O', f, at);
}
static int rec_close(void *c, uint32_t f, int64_t at)
{
	return rec_ev(c, 'C', f, at);
}

void test_stacks_walk(struct t *t)
{
	struct trace *tr = t_load_text(t, nest);
	if (!tr)
		return;
	struct stk_opts o = {0};
	struct stk_profile p;
	struct err e;
	CHECK_INT(t, stk_build(tr, &o, &p, &e), 0);
	uint32_t *rows;
	size_t *first;
	CHECK_INT(t, stk_track_rows(&p, &rows, &first), 0);
	struct rec r = {.p = &p};
	struct stk_visit v = {.ctx = &r, .open = rec_open, .close = rec_close};
	CHECK_INT(t, stk_walk_track(&p, rows + first[0], first[1] - first[0], &v), 0);
	CHECK_STR(t, r.buf,
		  "OA@0 OB@2000 OC@2000 CC@3000 CB@5000 OD@5000 CD@5500 OE@8000 OF@9000 "
		  "CF@9001 CE@10000 CA@10000 OG@11000 CG@12000 ");
	free(rows);
	free(first);
	stk_free(&p);
	tr_free(tr);
}

/* The profiler's span S (category Trace) [0,20000] on A's own track, with
 * A [1000,5000] inside it. By default S is no frame: A is the root (root
 * 4000, one event, one frame), and the evented walk never opens S. Kept:
 * S;A, S's self 20000 - 4000 = 16000, root 20000. */
static const char span[] =
    "[{\"ph\":\"X\",\"cat\":\"Trace\",\"name\":\"PyTorch Profiler (0)\",\"pid\":1,\"tid\":1,"
    "\"ts\":0,\"dur\":20},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"A\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":4}]";

void test_stacks_profiler_span(struct t *t)
{
	struct trace *tr = t_load_text(t, span);
	if (!tr)
		return;
	struct stk_opts o = {0};
	struct stk_profile p;
	struct err e;
	CHECK_INT(t, stk_build(tr, &o, &p, &e), 0);
	CHECK_NODE(t, &p, "A", STK_NONE, 1, 4000, 4000);
	CHECK_INT(t, p.nframes, 1);
	CHECK_INT(t, p.events, 1);
	CHECK_INT(t, p.root_ns, 4000);
	CHECK_INT(t, p.self_ns, 4000);
	uint32_t *rows;
	size_t *first;
	CHECK_INT(t, stk_track_rows(&p, &rows, &first), 0);
	struct rec r = {.p = &p};
	struct stk_visit v = {.ctx = &r, .open = rec_open, .close = rec_close};
	CHECK_INT(t, stk_walk_track(&p, rows + first[0], first[1] - first[0], &v), 0);
	CHECK_STR(t, r.buf, "OA@1000 CA@5000 ");
	free(rows);
	free(first);
	stk_free(&p);
	o.profiler_span = true;
	CHECK_INT(t, stk_build(tr, &o, &p, &e), 0);
	CHECK_NODE(t, &p, "PyTorch Profiler (0)", STK_NONE, 1, 16000, 20000);
	CHECK_NODE(t, &p, "PyTorch Profiler (0);A", STK_NONE, 1, 4000, 4000);
	CHECK_INT(t, p.events, 2);
	CHECK_INT(t, p.root_ns, 20000);
	stk_free(&p);
	tr_free(tr);
}
