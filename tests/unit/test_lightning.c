/* The Lightning view (tbprof/lightning.h) on small hand-written traces:
 * tb's name rule, the hierarchy by dotted names, a module whose only event
 * left the tree, and Lightning mode in the operator tree. Times in the
 * traces are µs; results are ns. */
#include <string.h>

#include "tbprof/lightning.h"
#include "tbprof/ops.h"
#include "tbprof/optree.h"
#include "test.h"

#define PLOP(name, ts, dur, ext)                                                                   \
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" name "\",\"pid\":1,\"tid\":1,\"ts\":" #ts   \
	",\"dur\":" #dur ",\"args\":{\"External id\":" #ext "}}"
#define PYMOD(name, ts, dur)                                                                       \
	"{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"" name "\",\"pid\":1,\"tid\":1,"     \
	"\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"Python id\":7,\"Python parent id\":1,"        \
	"\"Python module id\":0}}"

/* enc [0,100] > enc.block [10,60] > aten::add [20,30]; lost [40,70]
 * crosses enc.block's end, so the tree drops it; "noColon" has no ": ",
 * so tb keeps its text from the second character ("oColon"); the doubled
 * prefix of "dec.x" goes entirely, and its parent "dec" does not exist. */
#define EVENTS                                                                                     \
	"[" PLOP("[pl][module]A: enc", 0, 100, 1) "," PLOP(                                        \
	    "[pl][module]B: enc.block", 10, 50,                                                    \
	    2) "," PLOP("aten::add", 20, 10,                                                       \
			3) "," PLOP("[pl][module]D: lost", 40, 30,                                 \
				    4) "," PLOP("[pl][module]noColon", 200, 10,                    \
						5) "," PLOP("[pl][module][pl][module]C: dec.x",    \
							    300, 20,                               \
							    6) "," PYMOD("nn.Module: Net", 400,    \
									 5) "]"

struct fx {
	struct trace *tr;
	struct optree o;
	struct pl_view pl;
	bool ok;
};

static bool setup(struct t *t, struct fx *f, const char *text, bool tb_compat)
{
	struct err e = {0};
	struct optree_opts oo = {.tb_compat = tb_compat};
	memset(f, 0, sizeof *f);
	if (!(f->tr = t_load_text(t, text)))
		return false;
	if (optree_build(f->tr, NULL, &oo, &f->o, &e) || pl_build(&f->o, &f->pl, &e)) {
		t_fail(t, __FILE__, __LINE__, "build: %s", e.msg);
		optree_free(&f->o);
		tr_free(f->tr);
		return false;
	}
	return f->ok = true;
}

static void teardown(struct fx *f)
{
	if (!f->ok)
		return;
	pl_free(&f->pl);
	optree_free(&f->o);
	tr_free(f->tr);
}

static size_t count_class(const struct optree *o, enum optree_class c)
{
	size_t n = 0;
	for (size_t i = 0; i < o->nnodes; i++)
		n += o->nodes[i].cls == c && !o->nodes[i].dropped;
	return n;
}

void test_lightning_modules(struct t *t)
{
	static const char text[] =
	    "{\"Framework\":\"pytorch-lightning\",\"traceEvents\":" EVENTS "}";
	struct fx f;
	if (!setup(t, &f, text, false))
		return;
	CHECK(t, f.pl.lightning);
	CHECK_INT(t, f.pl.n, 5);
	if (f.pl.n == 5) {
		/* roots by name (bytes): dec.x, enc, lost, oColon; enc.block
		 * after its parent */
		static const char *const names[] = {"dec.x", "enc", "enc.block", "lost", "oColon"};
		for (size_t i = 0; i < 5; i++)
			CHECK_STR(t, f.pl.rows[i].txt, names[i]);
		const struct pl_module *enc = &f.pl.rows[1], *blk = &f.pl.rows[2];
		CHECK_INT(t, blk->parent, 1);
		CHECK_INT(t, blk->depth, 1);
		CHECK_INT(t, enc->parent, PL_NO_PARENT);
		/* enc: 100 µs, self 100 - 50; no operator directly inside */
		CHECK_INT(t, enc->host, 100000);
		CHECK_INT(t, enc->self_host, 50000);
		CHECK_INT(t, enc->operators, 0);
		/* enc.block: 50 µs, self 50 - 10, aten::add inside */
		CHECK_INT(t, blk->host, 50000);
		CHECK_INT(t, blk->self_host, 40000);
		CHECK_INT(t, blk->operators, 1);
		/* lost: its event left the tree (tb: a KeyError) */
		CHECK_INT(t, f.pl.rows[3].occurrences, 0);
		CHECK(t, f.pl.rows[3].avg_ns == 0.0);
		/* oColon: no device time, so the average is the host mean */
		CHECK(t, f.pl.rows[4].avg_ns == 10000.0);
		CHECK_INT(t, f.pl.rows[0].host, 20000);
	}
	/* the PL module nodes are no operators: aten::add alone */
	struct ops_view v;
	struct err e = {0};
	if (!ops_build(&f.o, NULL, &v, &e)) {
		CHECK_INT(t, v.n, 1);
		ops_free(&v);
	}
	/* the nn.Module event stays a node by default, not with tb_compat */
	CHECK_INT(t, count_class(&f.o, OPC_MODULE), 1);
	teardown(&f);
	if (!setup(t, &f, text, true))
		return;
	CHECK_INT(t, count_class(&f.o, OPC_MODULE), 0);
	CHECK_INT(t, f.pl.n, 5);
	teardown(&f);
}

void test_lightning_other_trace(struct t *t)
{
	/* without the Framework key: no Lightning view, and the [pl] ops are
	 * operators like any cpu_op (5 names: lost is dropped) */
	static const char text[] = "{\"traceEvents\":" EVENTS "}";
	struct fx f;
	if (!setup(t, &f, text, true))
		return;
	CHECK(t, !f.pl.lightning);
	CHECK_INT(t, f.pl.n, 0);
	CHECK_INT(t, count_class(&f.o, OPC_PL_MODULE), 0);
	struct ops_view v;
	struct err e = {0};
	if (!ops_build(&f.o, NULL, &v, &e)) {
		CHECK_INT(t, v.n, 5);
		ops_free(&v);
	}
	teardown(&f);
}
