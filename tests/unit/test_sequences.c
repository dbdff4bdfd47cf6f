/* sequences: HTA's call graph as hta/sequences.h reads it (the sweep's
 * order at equal times, zero-length events, an end that pops another
 * event), and its instances and patterns, on small traces worked by hand. */
#include "hta/sequences.h"
#include "test.h"
#include "trace/trace.h"

#define CPU(name, tid, ts, dur)                                                                    \
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" name "\",\"pid\":1,\"tid\":" #tid           \
	",\"ts\":" #ts ",\"dur\":" #dur "},"
#define LAUNCH(tid, ts, corr)                                                                      \
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"          \
	"\"tid\":" #tid ",\"ts\":" #ts ",\"dur\":1,\"args\":{\"correlation\":" #corr "}},"
#define KERNEL(name, ts, corr)                                                                     \
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" name "\",\"pid\":0,\"tid\":7,\"ts\":" #ts   \
	",\"dur\":2,\"args\":{\"stream\":7,\"correlation\":" #corr "}},"

/* The least depth of the events named op, how many instances of at least
 * min kernels, and the first pattern's text. */
static int32_t run(struct t *t, const struct trace *tr, const char *op, size_t min, size_t *ninst,
		   char *pat, size_t n)
{
	struct hta_events h;
	struct hta_seqs s;
	struct err e = {0};
	*ninst = 0;
	CHECK_INT(t, hta_events(tr, &h, &e), 0);
	struct hta_seq_opts o = {.op = op, .min_len = min};
	CHECK_INT(t, hta_sequences(tr, &h, &o, &s, &e), 0);
	int32_t d = s.depth;
	*ninst = s.ninst;
	snprintf(pat, n, "%s", s.npat ? s.pat[0].text : "");
	hta_sequences_free(&s);
	hta_events_free(&h);
	return d;
}

void test_sequences_nesting(struct t *t)
{
	/* thread 1: A [10,110) holds B [10,60) (same start, the longer is the
	 * parent); C [60,80) starts as B ends: B's sibling; Z (zero length at
	 * 80, where C ends and nothing starts) nests in C; Y (zero at 90, where
	 * D [90,100) starts) in D; at 100 D ends, E [100,105) starts and X is
	 * zero-length: the ends, the starts, then X, inside E. Thread 2: P
	 * [0,10) and Q [5,15) overlap: Q nests in P, P's end pops Q, so R
	 * [12,14) is P's child, under which its launch's kernel lies. */
	struct trace *tr = t_load_text(
	    t,
	    "{\"traceEvents\":[" CPU("opA", 1, 10, 100) CPU("opB", 1, 10, 50) CPU("opC", 1, 60, 20)
		CPU("opZ", 1, 80, 0) CPU("opD", 1, 90, 10) CPU("opY", 1, 90, 0)
		    CPU("opE", 1, 100, 5) CPU("opX", 1, 100, 0) CPU("opP", 2, 0, 10) CPU(
			"opQ", 2, 5, 10) CPU("opR", 2, 12, 2) LAUNCH(2, 12, 1) KERNEL("k1", 20, 1)
			LAUNCH(1, 101, 2) KERNEL("k2", 30, 2) LAUNCH(1, 102, 3)
			    KERNEL("k3", 25,
				   3) "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"end\",\"pid\":1,"
				      "\"tid\":3,\"ts\":200,\"dur\":1}]}");
	if (!tr)
		return;
	static const struct {
		const char *op;
		int32_t depth;
	} want[] = {{"opA", 0}, {"opB", 1}, {"opC", 1}, {"opZ", 2}, {"opD", 1}, {"opY", 2},
		    {"opE", 1}, {"opX", 2}, {"opP", 0}, {"opQ", 1}, {"opR", 1}};
	size_t ninst;
	char pat[128];
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		CHECK_INT(t, run(t, tr, want[i].op, 1, &ninst, pat, sizeof pat), want[i].depth);
	/* R's kernel: one instance of one kernel */
	CHECK_INT(t, run(t, tr, "opR", 1, &ninst, pat, sizeof pat), 1);
	CHECK_INT(t, ninst, 1);
	CHECK_STR(t, pat, "opR|k1");
	/* E holds two launches: its kernels by start (k3 at 25 before k2 at 30) */
	run(t, tr, "opE", 2, &ninst, pat, sizeof pat);
	CHECK_INT(t, ninst, 1);
	CHECK_STR(t, pat, "opE|k3|k2");
	/* A, the shallowest "op" on thread 1 with P: both depth 0; A has 2
	 * kernels, P 1; with 2 at least, A alone */
	CHECK_INT(t, run(t, tr, "op", 2, &ninst, pat, sizeof pat), 0);
	CHECK_INT(t, ninst, 1);
	CHECK_STR(t, pat, "opA|k3|k2");
	/* nothing of that name: no depth */
	CHECK_INT(t, run(t, tr, "nothing", 1, &ninst, pat, sizeof pat), -1);
	tr_free(tr);
}
