/* synth step: one training step: ProfilerStep#N, the data loader and the
 * host-to-device copy, zero_grad, forward, backward, the optimizer step and
 * the synchronizing loss.item(); the injected anomalies; the step's
 * gpu_user_annotation.
 */
#include <string.h>

#include "synth/synth_int.h"

/* ---- the step ---- */

static void wait_all(struct gen *g, bool nccl)
{
	uint64_t m = 0;
	for (uint32_t i = 0; i < g->nstreams + (nccl ? 1 : 0); i++)
		m = g->sfree[i] > m ? g->sfree[i] : m;
	for (uint32_t i = 0; i < g->nstreams; i++)
		g->sfree[i] = m;
}

static uint64_t load_batch(struct gen *g, uint64_t *label_addr)
{
	uint64_t bytes = (uint64_t)BATCH * 3 * 224 * 224 * 4;
	synth_open(g, TH_MAIN, SK_ANNOT,
		   "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", AK_NONE);
	g->cur[TH_MAIN] += synth_range(g, 800000, 2500000);
	uint64_t host = CPU_BASE + synth_range(g, 0, 4095) * 4096;
	synth_mem(g, TH_MAIN, host, (int64_t)bytes, false);
	synth_leaf(g, TH_MAIN, "aten::stack", AK_UNARY, BATCH, 3, 224, 224);
	synth_close(g, TH_MAIN);
	int cs = g->nstreams > 1 ? 1 : 0;
	uint64_t addr = 0;
	for (int lab = 0; lab < 2; lab++) {
		uint32_t i = synth_open(g, TH_MAIN, SK_OP, "aten::to", AK_TO);
		struct sev *s =
		    lab ? synth_dims(g, i, BATCH, 0, 0, 0) : synth_dims(g, i, BATCH, 3, 224, 224);
		s->d[5] = (uint32_t)lab;
		struct sev d0 = *s;
		memcpy(
		    synth_at(g, &g->cpu, synth_open(g, TH_MAIN, SK_OP, "aten::_to_copy", AK_TO))->d,
		    d0.d, sizeof d0.d);
		uint64_t n = lab ? BATCH * 8 : bytes;
		synth_dims(g, synth_open(g, TH_MAIN, SK_OP, "aten::empty_strided", AK_EMPTY),
			   d0.d[0], d0.d[1], d0.d[2], d0.d[3]);
		uint64_t a = synth_alloc(g, TH_MAIN, n);
		synth_close(g, TH_MAIN);
		memcpy(synth_at(g, &g->cpu, synth_open(g, TH_MAIN, SK_OP, "aten::copy_", AK_TO))->d,
		       d0.d, sizeof d0.d);
		synth_launch(g, TH_MAIN, SK_MEMCPY, NULL, cs, n / synth_range(g, 10, 22), n);
		synth_close(g, TH_MAIN);
		synth_close(g, TH_MAIN);
		synth_close(g, TH_MAIN);
		if (lab)
			*label_addr = a;
		else
			addr = a;
	}
	synth_mem(g, TH_MAIN, host, -(int64_t)bytes, false);
	if (cs)
		wait_all(g, false);
	return addr;
}

static void inject_cpu_anomalies(struct gen *g)
{
	struct synth_stats *st = g->st;
	/* zero-duration leaf */
	uint32_t i = synth_open(g, TH_MAIN, SK_OP, "aten::detach", AK_NONE);
	struct sev *s = synth_at(g, &g->cpu, i);
	s->dur = 0;
	g->depth[TH_MAIN]--;
	g->cur[TH_MAIN] = s->ts + 1000;
	st->an_zero_dur++;
	/* two leaves that overlap partially */
	s = synth_dims(g, synth_open(g, TH_MAIN, SK_OP, "aten::empty", AK_EMPTY), BATCH, 64, 0, 0);
	uint64_t t = s->ts;
	s->dur = 10000;
	g->depth[TH_MAIN]--;
	s = synth_dims(g, synth_open(g, TH_MAIN, SK_OP, "aten::zero_", AK_T), BATCH, 64, 0, 0);
	s->ts = t + 5000;
	s->dur = 10000;
	g->depth[TH_MAIN]--;
	g->cur[TH_MAIN] = t + 16000;
	st->an_partial_overlaps++;
	/* a flow with only its start */
	uint32_t r = synth_runtime(g, TH_MAIN, "cudaEventRecord", 135, synth_range(g, 1500, 4000));
	struct sev rv = *synth_at(g, &g->dev_ev, r);
	synth_flow(g, SK_FLOW_S, 0, TH_MAIN, false, rv.corr, rv.ts);
	st->an_flow_s_only++;
	/* B/E on the aux thread: one pair, one B left open */
	static const char *const be_names[] = {"## prefetch ##", "## prefetch ##",
					       "## checkpoint ##"};
	static const uint8_t be_kind[] = {SK_B, SK_E, SK_B};
	for (int k = 0; k < 3; k++) {
		struct sev *b = synth_at(g, &g->cpu, synth_push(g, &g->cpu));
		b->kind = be_kind[k];
		b->th = TH_AUX;
		b->name = be_names[k];
		b->ts = t + 1000 + (uint64_t)k * 40000;
	}
	st->an_unmatched_b++;
}

static void inject_orphan_kernel(struct gen *g)
{
	struct sev *k = synth_at(g, &g->dev_ev, synth_push(g, &g->dev_ev));
	k->kind = SK_KERNEL;
	k->k = &synth_kernels[KD_FILL];
	k->on_dev = true;
	k->ts = (g->sfree[0] > g->cur[TH_MAIN] ? g->sfree[0] : g->cur[TH_MAIN]) + 2000;
	k->dur = 3000;
	k->corr = 2000000000;
	k->d[0] = 1;
	g->sfree[0] = k->ts + k->dur;
	k->ts += g->delay[0]; /* written after what scaled kernels added */
	if (k->ts + k->dur > g->gpu_last)
		g->gpu_last = k->ts + k->dur;
	g->st->an_orphan_kernels++;
}

/* loss.item(): a 4-byte device-to-host copy and the wait for the GPU. */
static void item_sync(struct gen *g)
{
	synth_open(g, TH_MAIN, SK_OP, "aten::item", AK_NONE);
	synth_open(g, TH_MAIN, SK_OP, "aten::_local_scalar_dense", AK_NONE);
	synth_launch(g, TH_MAIN, SK_MEMCPY, NULL, 0, 500, 4);
	wait_all(g, true);
	uint64_t from = g->cur[TH_MAIN] + 1500;
	uint64_t busy = g->sfree[0] > from ? g->sfree[0] : from;
	synth_runtime(g, TH_MAIN, "cudaStreamSynchronize", 131,
		      busy - g->cur[TH_MAIN] + synth_range(g, 1000, 3000));
	synth_close(g, TH_MAIN);
	synth_close(g, TH_MAIN);
}

static void resnet_body(struct gen *g, bool anomalies)
{
	uint64_t label = 0;
	uint64_t input = load_batch(g, &label);
	if (anomalies)
		inject_cpu_anomalies(g);
	synth_open(g, TH_MAIN, SK_ANNOT, "Optimizer.zero_grad#SGD.zero_grad", AK_NONE);
	synth_close(g, TH_MAIN);
	bool ddp = g->o->world_size > 1;
	if (ddp)
		synth_open(g, TH_MAIN, SK_ANNOT, "DistributedDataParallel.forward", AK_NONE);
	synth_forward(g);
	if (ddp)
		synth_close(g, TH_MAIN);
	if (anomalies)
		inject_orphan_kernel(g);
	synth_backward(g);
	wait_all(g, true);
	synth_open(g, TH_MAIN, SK_ANNOT, "Optimizer.step#SGD.step", AK_NONE);
	synth_open(g, TH_MAIN, SK_OP, "aten::_foreach_add_", AK_FOREACH);
	for (int i = 0; i < 3; i++)
		synth_kern(g, TH_MAIN, KD_FOREACH, 0, synth_bytes_ns(PARAM_BYTES / 3));
	synth_close(g, TH_MAIN);
	synth_close(g, TH_MAIN);
	item_sync(g);
	synth_free(g, TH_MAIN, input, (uint64_t)BATCH * 3 * 224 * 224 * 4);
	synth_free(g, TH_MAIN, label, BATCH * 8);
}

/* The tiny model: inference of one linear layer and a relu on 8 x 512. */
static void tiny_body(struct gen *g, bool anomalies)
{
	uint64_t in_bytes = 8 * 512 * 4, out_bytes = 8 * 256 * 2;
	synth_dims(g, synth_open(g, TH_MAIN, SK_OP, "aten::to", AK_TO), 8, 512, 0, 0);
	synth_dims(g, synth_open(g, TH_MAIN, SK_OP, "aten::empty_strided", AK_EMPTY), 8, 512, 0, 0);
	uint64_t input = synth_alloc(g, TH_MAIN, in_bytes);
	synth_close(g, TH_MAIN);
	synth_dims(g, synth_open(g, TH_MAIN, SK_OP, "aten::copy_", AK_TO), 8, 512, 0, 0);
	synth_launch(g, TH_MAIN, SK_MEMCPY, NULL, 0, 300, in_bytes);
	synth_close(g, TH_MAIN);
	synth_close(g, TH_MAIN);
	if (anomalies)
		inject_cpu_anomalies(g);
	synth_dims(g, synth_open(g, TH_MAIN, SK_OP, "aten::linear", AK_LINEAR), 8, 512, 256, 0);
	synth_dims(g, synth_open(g, TH_MAIN, SK_OP, "aten::addmm", AK_ADDMM), 8, 512, 256, 0);
	uint64_t out = synth_empty(g, TH_MAIN, 8, 256, 0, 0);
	synth_kern(g, TH_MAIN, KD_SGEMM, 0, 2000);
	synth_close(g, TH_MAIN);
	synth_close(g, TH_MAIN);
	synth_dims(g, synth_open(g, TH_MAIN, SK_OP, "aten::relu_", AK_T), 8, 256, 0, 0);
	synth_kern(g, TH_MAIN, KD_RELU, 0, 200);
	synth_close(g, TH_MAIN);
	if (g->o->world_size > 1) /* opts.collectives: 2^10 .. 2^21 floats, cycling */
		for (uint32_t c = 0; c < g->o->collectives; c++)
			synth_all_reduce(g, TH_MAIN, 1ull << (10 + c % 12));
	synth_straggler_fold(g);
	if (anomalies)
		inject_orphan_kernel(g);
	item_sync(g);
	synth_free(g, TH_MAIN, out, out_bytes);
	synth_free(g, TH_MAIN, input, in_bytes);
}

void synth_step(struct gen *g, uint64_t n, bool anomalies)
{
	g->nlayers = 0;
	g->gpu_first = g->gpu_last = 0;
	g->next_addr = GPU_BASE;
	snprintf(g->step_name, sizeof g->step_name, "ProfilerStep#%llu", (unsigned long long)n);
	uint32_t ps = synth_open(g, TH_MAIN, SK_ANNOT, g->step_name, AK_NONE);
	if (g->o->model == SYNTH_MODEL_TINY)
		tiny_body(g, anomalies);
	else
		resnet_body(g, anomalies);
	/* opts.slow: the step's GPU work is done (item_sync waited for it) */
	for (uint32_t i = 0; i < g->o->nslow; i++)
		if (g->o->slow[i].step == n)
			g->cur[TH_MAIN] += g->o->slow[i].ns;
	synth_close(g, TH_MAIN);
	struct sev *a = synth_at(g, &g->dev_ev, synth_push(g, &g->dev_ev));
	a->kind = SK_GPU_ANNOT;
	a->name = g->step_name;
	a->on_dev = true;
	a->ts = g->gpu_first;
	a->dur = g->gpu_last - g->gpu_first;
	a->ext = synth_at(g, &g->cpu, ps)->ext;
	g->st->steps++;
}
