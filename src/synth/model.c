/* synth model: the layers of the synthetic network: a ResNet-18-style
 * forward pass (conv/batch-norm/relu/residual add) with a small attention
 * head and the loss on the main thread, and its backward pass on the
 * autograd thread, with AccumulateGrad per parameter and DDP all-reduce
 * buckets on the NCCL stream when world_size > 1.
 */
#include <string.h>

#include "synth/synth_int.h"

/* ---- forward layers ---- */

static uint32_t conv(struct gen *g, uint32_t c, uint32_t h, uint32_t k, uint32_t r, uint32_t s,
		     bool first)
{
	uint32_t ho = h / s;
	uint32_t d[7] = {BATCH, c, h, h, k, r, s};
	int si = synth_stream_for(g, g->nlayers);
	struct layer_rec *l = synth_fwd_open(g, L_CONV, "aten::conv2d", AK_CONV, d);
	l->first = first;
	static const char *const inner[] = {"aten::convolution", "aten::_convolution",
					    "aten::cudnn_convolution"};
	for (int i = 0; i < 3; i++)
		memcpy(synth_at(g, &g->cpu, synth_open(g, TH_MAIN, SK_OP, inner[i], AK_CONV))->d, d,
		       sizeof d);
	l->act_addr = synth_empty(g, TH_MAIN, BATCH, k, ho, ho);
	l->act_bytes = (int64_t)BATCH * k * ho * ho * 2;
	uint64_t fl = 2ull * BATCH * k * ho * ho * c * r * r;
	synth_kern(g, TH_MAIN, KD_CONV_FWD, si, synth_flops_ns(fl));
	for (int i = 0; i < 4; i++)
		synth_close(g, TH_MAIN);
	return ho;
}

static void bn(struct gen *g, uint32_t c, uint32_t h)
{
	uint32_t d[7] = {BATCH, c, h, h};
	int si = synth_stream_for(g, g->nlayers);
	struct layer_rec *l = synth_fwd_open(g, L_BN, "aten::batch_norm", AK_BN, d);
	memcpy(synth_at(g, &g->cpu,
			synth_open(g, TH_MAIN, SK_OP, "aten::_batch_norm_impl_index", AK_BN))
		   ->d,
	       d, sizeof d);
	memcpy(
	    synth_at(g, &g->cpu, synth_open(g, TH_MAIN, SK_OP, "aten::cudnn_batch_norm", AK_BN))->d,
	    d, sizeof d);
	l->act_addr = synth_empty(g, TH_MAIN, BATCH, c, h, h);
	l->act_bytes = (int64_t)BATCH * c * h * h * 2;
	synth_leaf(g, TH_MAIN, "aten::empty", AK_EMPTY, c, 0, 0, 0);
	synth_kern(g, TH_MAIN, KD_BN_FWD, si, synth_bytes_ns((uint64_t)l->act_bytes * 3));
	for (int i = 0; i < 3; i++)
		synth_close(g, TH_MAIN);
}

static void elementwise(struct gen *g, enum lkind lk, uint32_t c, uint32_t h)
{
	uint32_t d[7] = {BATCH, c, h, h};
	int si = synth_stream_for(g, g->nlayers);
	bool relu = lk == L_RELU;
	synth_fwd_open(g, lk, relu ? "aten::relu_" : "aten::add_", relu ? AK_UNARY : AK_BINARY, d);
	if (relu)
		synth_dims(g, synth_open(g, TH_MAIN, SK_OP, "aten::clamp_min_", AK_UNARY), BATCH, c,
			   h, h);
	uint64_t bytes = (uint64_t)BATCH * c * h * h * 2 * (relu ? 2 : 3);
	synth_kern(g, TH_MAIN, relu ? KD_RELU : KD_ADD, si, synth_bytes_ns(bytes));
	if (relu)
		synth_close(g, TH_MAIN);
	synth_close(g, TH_MAIN);
}

static void maxpool(struct gen *g, uint32_t c, uint32_t h)
{
	uint32_t d[7] = {BATCH, c, h, h};
	struct layer_rec *l = synth_fwd_open(g, L_MAXPOOL, "aten::max_pool2d", AK_POOL, d);
	synth_dims(g, synth_open(g, TH_MAIN, SK_OP, "aten::max_pool2d_with_indices", AK_POOL),
		   BATCH, c, h, h);
	l->act_addr = synth_empty(g, TH_MAIN, BATCH, c, h / 2, h / 2);
	l->act_bytes = (int64_t)BATCH * c * (h / 2) * (h / 2) * 2;
	synth_kern(g, TH_MAIN, KD_MAXPOOL, 0, synth_bytes_ns((uint64_t)BATCH * c * h * h * 2));
	synth_close(g, TH_MAIN);
	synth_close(g, TH_MAIN);
}

static void linear(struct gen *g, uint32_t n, uint32_t in, uint32_t out, enum kid k)
{
	uint32_t d[7] = {n, in, out};
	struct layer_rec *l = synth_fwd_open(g, L_LINEAR, "aten::linear", AK_LINEAR, d);
	synth_dims(g, synth_open(g, TH_MAIN, SK_OP, "aten::t", AK_T), out, in, 0, 0);
	synth_leaf(g, TH_MAIN, "aten::transpose", AK_T, out, in, 0, 0);
	synth_close(g, TH_MAIN);
	synth_dims(g, synth_open(g, TH_MAIN, SK_OP, "aten::addmm", AK_ADDMM), n, in, out, 0);
	l->act_addr = synth_empty(g, TH_MAIN, n, out, 0, 0);
	l->act_bytes = (int64_t)n * out * 2;
	synth_kern(g, TH_MAIN, k, synth_stream_for(g, g->nlayers),
		   synth_flops_ns(2ull * n * in * out));
	synth_close(g, TH_MAIN);
	synth_close(g, TH_MAIN);
}

static void attention(struct gen *g, uint32_t c, uint32_t h)
{
	uint32_t tokens = h * h, heads = 8, hd = c / 8;
	linear(g, BATCH * tokens, c, 3 * c, KD_CUTLASS);
	uint32_t d[7] = {BATCH, heads, tokens, hd};
	struct layer_rec *l =
	    synth_fwd_open(g, L_SDPA, "aten::scaled_dot_product_attention", AK_SDPA, d);
	static const char *const inner[] = {"aten::_scaled_dot_product_flash_attention",
					    "aten::_flash_attention_forward"};
	for (int i = 0; i < 2; i++)
		synth_dims(g, synth_open(g, TH_MAIN, SK_OP, inner[i], AK_SDPA), BATCH, heads,
			   tokens, hd);
	l->act_addr = synth_empty(g, TH_MAIN, BATCH, tokens, heads, hd);
	l->act_bytes = (int64_t)BATCH * tokens * heads * hd * 2;
	uint64_t fl = 4ull * BATCH * heads * tokens * tokens * hd;
	synth_kern(g, TH_MAIN, KD_FLASH_FWD, 0, synth_flops_ns(fl) * 2);
	for (int i = 0; i < 3; i++)
		synth_close(g, TH_MAIN);
	linear(g, BATCH * tokens, c, c, KD_CUTLASS);
	elementwise(g, L_ADD, c, h);
}

static void head_and_loss(struct gen *g, uint32_t c, uint32_t h)
{
	uint32_t d[7] = {BATCH, c, h, h};
	struct layer_rec *l = synth_fwd_open(g, L_MEAN, "aten::adaptive_avg_pool2d", AK_POOL, d);
	synth_dims(g, synth_open(g, TH_MAIN, SK_OP, "aten::mean", AK_UNARY), BATCH, c, h, h);
	l->act_addr = synth_empty(g, TH_MAIN, BATCH, c, 1, 1);
	l->act_bytes = (int64_t)BATCH * c * 2;
	synth_kern(g, TH_MAIN, KD_MEAN, 0, synth_bytes_ns((uint64_t)BATCH * c * h * h * 2));
	synth_close(g, TH_MAIN);
	synth_close(g, TH_MAIN);
	synth_leaf(g, TH_MAIN, "aten::flatten", AK_UNARY, BATCH, c, 1, 1);
	linear(g, BATCH, c, 1000, KD_SGEMM);
	uint32_t dl[7] = {BATCH, 1000};
	synth_dims(g, synth_open(g, TH_MAIN, SK_OP, "aten::cross_entropy_loss", AK_LOSS), BATCH,
		   1000, 0, 0);
	l = synth_fwd_open(g, L_LSM, "aten::log_softmax", AK_T, dl);
	synth_dims(g, synth_open(g, TH_MAIN, SK_OP, "aten::_log_softmax", AK_T), BATCH, 1000, 0, 0);
	l->act_addr = synth_empty(g, TH_MAIN, BATCH, 1000, 0, 0);
	l->act_bytes = BATCH * 1000 * 2;
	synth_kern(g, TH_MAIN, KD_SOFTMAX, 0, 500);
	synth_close(g, TH_MAIN);
	synth_close(g, TH_MAIN);
	l = synth_fwd_open(g, L_NLL, "aten::nll_loss_nd", AK_LOSS, dl);
	synth_dims(g, synth_open(g, TH_MAIN, SK_OP, "aten::nll_loss", AK_LOSS), BATCH, 1000, 0, 0);
	synth_dims(g, synth_open(g, TH_MAIN, SK_OP, "aten::nll_loss_forward", AK_LOSS), BATCH, 1000,
		   0, 0);
	l->act_addr = synth_empty(g, TH_MAIN, 1, 0, 0, 0);
	l->act_bytes = 2;
	synth_kern(g, TH_MAIN, KD_NLL, 0, 300);
	for (int i = 0; i < 4; i++)
		synth_close(g, TH_MAIN);
}

void synth_forward(struct gen *g)
{
	uint32_t h = conv(g, 3, 224, 64, 7, 2, true);
	bn(g, 64, h);
	elementwise(g, L_RELU, 64, h);
	maxpool(g, 64, h);
	h /= 2;
	uint32_t c = 64;
	static const uint32_t widths[] = {64, 128, 256, 512};
	for (int st = 0; st < 4; st++) {
		for (int b = 0; b < 2; b++) {
			uint32_t k = widths[st], s = st && !b ? 2 : 1;
			uint32_t ho = conv(g, c, h, k, 3, s, false);
			bn(g, k, ho);
			elementwise(g, L_RELU, k, ho);
			conv(g, k, ho, k, 3, 1, false);
			bn(g, k, ho);
			if (s == 2) {
				conv(g, c, h, k, 1, 2, false);
				bn(g, k, ho);
			}
			elementwise(g, L_ADD, k, ho);
			elementwise(g, L_RELU, k, ho);
			c = k;
			h = ho;
		}
	}
	attention(g, c, h);
	head_and_loss(g, c, h);
}

/* ---- backward (autograd thread) ---- */

#define EVAL "autograd::engine::evaluate_function: "

static const char *const bwd_names[][2] = {
    [L_CONV] = {EVAL "ConvolutionBackward0", "ConvolutionBackward0"},
    [L_BN] = {EVAL "CudnnBatchNormBackward0", "CudnnBatchNormBackward0"},
    [L_RELU] = {EVAL "ReluBackward0", "ReluBackward0"},
    [L_ADD] = {EVAL "AddBackward0", "AddBackward0"},
    [L_MAXPOOL] = {EVAL "MaxPool2DWithIndicesBackward0", "MaxPool2DWithIndicesBackward0"},
    [L_MEAN] = {EVAL "MeanBackward1", "MeanBackward1"},
    [L_LINEAR] = {EVAL "AddmmBackward0", "AddmmBackward0"},
    [L_SDPA] = {EVAL "ScaledDotProductFlashAttentionBackward0",
		"ScaledDotProductFlashAttentionBackward0"},
    [L_NLL] = {EVAL "NllLossBackward0", "NllLossBackward0"},
    [L_LSM] = {EVAL "LogSoftmaxBackward0", "LogSoftmaxBackward0"},
};

static void accumulate_grad(struct gen *g, uint64_t nparams)
{
	synth_open(g, TH_BWD, SK_OP, EVAL "torch::autograd::AccumulateGrad", AK_NONE);
	synth_open(g, TH_BWD, SK_OP, "torch::autograd::AccumulateGrad", AK_NONE);
	uint32_t n = (uint32_t)(nparams > 0xffffffffu ? 0xffffffffu : nparams);
	synth_dims(g, synth_open(g, TH_BWD, SK_OP, "aten::add_", AK_T), n, 1, 0, 0);
	synth_kern(g, TH_BWD, KD_ADD, 0, synth_bytes_ns(nparams * 6));
	synth_close(g, TH_BWD);
	synth_close(g, TH_BWD);
	synth_close(g, TH_BWD);
}

/* opts.straggler_ns on the straggling rank: the extra compute on the first
 * compute stream right before the step's first collective, written (not
 * simulated: no number is drawn) after that stream's last kernel; every
 * stream's later work is written that much later. */
static void straggler_compute(struct gen *g)
{
	uint64_t d = g->o->straggler_ns;
	struct sev *k = synth_at(g, &g->dev_ev, synth_push(g, &g->dev_ev));
	k->kind = SK_KERNEL;
	k->k = &synth_kernels[KD_GEMM_BF16];
	k->on_dev = true;
	k->ts = g->sfree[0] + g->delay[0];
	k->dur = d;
	k->corr = 2000000001;
	k->d[0] = 1;
	if (k->ts + k->dur > g->gpu_last)
		g->gpu_last = k->ts + k->dur;
	for (uint32_t s = 0; s <= g->nstreams; s++) {
		g->delay[s] += d;
		g->late[s] += d;
	}
}

/* opts.slow_link: the kernel k of an all-reduce lasts slow_link_factor
 * times as long. Only what is written changes (as opts.scale does): the
 * NCCL stream's later events are written that much later, and the step's
 * fold adds the time to the stream's timeline, so the same numbers are
 * drawn as without it until then. */
static void slow_link(struct gen *g, struct sev *k, int nccl)
{
	double f = g->o->slow_link_factor;
	if (!(f > 0) || f == 1.0)
		return;
	double want = (double)k->dur * f + 0.5;
	uint64_t dur = want >= 9.0e18 ? UINT64_C(9000000000000000000) : (uint64_t)want;
	if (dur < 1)
		dur = 1;
	if (dur > k->dur) { /* a shorter one leaves a gap, as opts.scale does */
		g->delay[nccl] += dur - k->dur;
		g->link_extra += dur - k->dur;
	}
	k->dur = dur;
	if (k->ts + k->dur > g->gpu_last)
		g->gpu_last = k->ts + k->dur;
}

void synth_all_reduce(struct gen *g, int th, uint64_t nelems)
{
	int nccl = (int)g->nstreams;
	uint32_t i = synth_open(g, th, SK_OP, "record_param_comms", AK_COMMS);
	uint32_t seq = (uint32_t)(++g->comm_seq);
	synth_at(g, &g->cpu, i)->d[0] = (uint32_t)nelems;
	synth_at(g, &g->cpu, i)->d[2] = seq;
	synth_open(g, th, SK_ANNOT, "nccl:all_reduce", AK_NONE);
	if (g->sfree[nccl] < g->sfree[0])
		g->sfree[nccl] = g->sfree[0]; /* waits for the gradients */
	bool first = g->o->straggler_ns && !g->coll_seen;
	bool late = first && g->o->rank == g->o->straggler_rank;
	g->coll_seen = true;
	if (late)
		straggler_compute(g);
	uint64_t w = g->o->world_size;
	uint64_t ns = nelems * 4 * 2 * (w - 1) / w / 150; /* ~150 GB/s bus bandwidth */
	struct sev *k = synth_kern(g, th, g->o->nccl_old_names ? KD_NCCL_OLD : KD_NCCL, nccl, ns);
	k->argk = AK_COMMS;
	k->d[1] = (uint32_t)nelems;
	k->d[2] = seq;
	if (first && !late) { /* waits for the straggler */
		k->dur += g->o->straggler_ns;
		g->delay[nccl] += g->o->straggler_ns;
		g->late[nccl] += g->o->straggler_ns;
	}
	slow_link(g, k, nccl);
	g->st->nccl_kernels++;
	synth_close(g, th);
	synth_close(g, th);
}

/* A gradient bucket of nelems: one all-reduce, or with opts.collectives
 * its share of them (parts calls, the last one taking the remainder). */
static void bucket_reduce(struct gen *g, uint64_t nelems, uint32_t parts)
{
	if (parts <= 1) {
		synth_all_reduce(g, TH_BWD, nelems);
		return;
	}
	uint64_t each = nelems / parts;
	for (uint32_t p = 0; p < parts; p++)
		synth_all_reduce(g, TH_BWD, p + 1 < parts ? each : nelems - each * (parts - 1));
}

/* The body of one backward node; returns the parameters it produced grads for. */
static uint64_t bwd_body(struct gen *g, const struct layer_rec *l, int si)
{
	const uint32_t *d = l->d;
	uint64_t act = (uint64_t)l->act_bytes;
	switch ((enum lkind)l->kind) {
	case L_CONV: {
		uint32_t ho = d[2] / d[6];
		uint64_t fl = 2ull * d[0] * d[4] * ho * ho * d[1] * d[5] * d[5];
		memcpy(synth_at(g, &g->cpu,
				synth_open(g, TH_BWD, SK_OP, "aten::convolution_backward", AK_CONV))
			   ->d,
		       d, sizeof l->d);
		if (!l->first)
			synth_kern(g, TH_BWD, KD_CONV_DGRAD, si, synth_flops_ns(fl));
		synth_kern(g, TH_BWD, KD_CONV_WGRAD, si, synth_flops_ns(fl));
		synth_close(g, TH_BWD);
		return (uint64_t)d[4] * d[1] * d[5] * d[5];
	}
	case L_BN:
		synth_dims(g,
			   synth_open(g, TH_BWD, SK_OP, "aten::cudnn_batch_norm_backward", AK_BN),
			   d[0], d[1], d[2], d[3]);
		synth_kern(g, TH_BWD, KD_BN_BWD, si, synth_bytes_ns(act * 4));
		synth_close(g, TH_BWD);
		return 2ull * d[1];
	case L_RELU:
		synth_dims(g, synth_open(g, TH_BWD, SK_OP, "aten::threshold_backward", AK_BINARY),
			   d[0], d[1], d[2], d[3]);
		synth_kern(g, TH_BWD, KD_RELU_BWD, si, synth_bytes_ns(act * 3));
		synth_close(g, TH_BWD);
		return 0;
	case L_ADD:
		return 0;
	case L_MAXPOOL:
		synth_dims(
		    g,
		    synth_open(g, TH_BWD, SK_OP, "aten::max_pool2d_with_indices_backward", AK_POOL),
		    d[0], d[1], d[2], d[3]);
		synth_kern(g, TH_BWD, KD_MAXPOOL_BWD, si, synth_bytes_ns(act * 6));
		synth_close(g, TH_BWD);
		return 0;
	case L_MEAN:
		synth_leaf(g, TH_BWD, "aten::expand", AK_UNARY, d[0], d[1], 1, 1);
		synth_dims(g, synth_open(g, TH_BWD, SK_OP, "aten::div", AK_UNARY), d[0], d[1], d[2],
			   d[3]);
		synth_kern(g, TH_BWD, KD_ADD, si,
			   synth_bytes_ns((uint64_t)d[0] * d[1] * d[2] * d[3] * 2));
		synth_close(g, TH_BWD);
		return 0;
	case L_LINEAR:
		for (int i = 0; i < 2; i++) {
			synth_leaf(g, TH_BWD, "aten::t", AK_T, i ? d[0] : d[2], i ? d[2] : d[1], 0,
				   0);
			synth_dims(g, synth_open(g, TH_BWD, SK_OP, "aten::mm", AK_MM),
				   i ? d[2] : d[0], i ? d[0] : d[2], i ? d[1] : d[1], 0);
			synth_kern(g, TH_BWD, KD_GEMM_BF16, si,
				   synth_flops_ns(2ull * d[0] * d[1] * d[2]));
			synth_close(g, TH_BWD);
		}
		synth_dims(g, synth_open(g, TH_BWD, SK_OP, "aten::sum", AK_T), d[0], d[2], 0, 0);
		synth_kern(g, TH_BWD, KD_REDUCE, si, synth_bytes_ns((uint64_t)d[0] * d[2] * 2));
		synth_close(g, TH_BWD);
		return (uint64_t)d[1] * d[2] + d[2];
	case L_SDPA: {
		synth_dims(g,
			   synth_open(g, TH_BWD, SK_OP,
				      "aten::_scaled_dot_product_flash_attention_backward",
				      AK_SDPA),
			   d[0], d[1], d[2], d[3]);
		synth_dims(g,
			   synth_open(g, TH_BWD, SK_OP, "aten::_flash_attention_backward", AK_SDPA),
			   d[0], d[1], d[2], d[3]);
		uint64_t acc = (uint64_t)d[0] * d[1] * d[2] * d[3] * 4;
		uint64_t a = synth_empty(g, TH_BWD, d[0], d[2], d[1], d[3] * 2);
		synth_launch(g, TH_BWD, SK_MEMSET, NULL, si, synth_bytes_ns(acc), acc);
		uint64_t fl = 10ull * d[0] * d[1] * d[2] * d[2] * d[3];
		synth_kern(g, TH_BWD, KD_FLASH_BWD, si, synth_flops_ns(fl) * 2);
		synth_free(g, TH_BWD, a, acc);
		synth_close(g, TH_BWD);
		synth_close(g, TH_BWD);
		return 0;
	}
	case L_NLL:
		synth_dims(g, synth_open(g, TH_BWD, SK_OP, "aten::nll_loss_backward", AK_LOSS),
			   d[0], d[1], 0, 0);
		synth_leaf(g, TH_BWD, "aten::zero_", AK_T, d[0], d[1], 0, 0);
		synth_kern(g, TH_BWD, KD_FILL, si, 300);
		synth_kern(g, TH_BWD, KD_NLL_BWD, si, 300);
		synth_close(g, TH_BWD);
		return 0;
	case L_LSM:
		synth_dims(g,
			   synth_open(g, TH_BWD, SK_OP, "aten::_log_softmax_backward_data", AK_T),
			   d[0], d[1], 0, 0);
		synth_kern(g, TH_BWD, KD_SOFTMAX_BWD, si, 500);
		synth_close(g, TH_BWD);
		return 0;
	}
	return 0;
}

/* The gradient buckets of a step: one per 8 layers with parameters. */
static uint32_t bucket_count(const struct gen *g)
{
	uint32_t n = 0, since = 0;
	bool pending = false;
	for (size_t i = g->nlayers; i-- > 0;) {
		uint8_t k = g->layers[i].kind;
		if (k != L_CONV && k != L_BN && k != L_LINEAR)
			continue;
		pending = true;
		if (++since == 8) {
			n++;
			since = 0;
			pending = false;
		}
	}
	return n + (pending ? 1 : 0);
}

/* How many all-reduces bucket b of the step is split into: opts.collectives
 * spread over the buckets, the first ones taking the remainder. */
static uint32_t bucket_parts(const struct gen *g, uint32_t b)
{
	uint32_t n = g->o->collectives;
	if (!n)
		return 1;
	uint32_t nb = bucket_count(g);
	if (!nb || n <= nb)
		return 1;
	return n / nb + (b < n % nb ? 1 : 0);
}

void synth_backward(struct gen *g)
{
	g->cur[TH_BWD] = g->cur[TH_MAIN] + synth_range(g, 20000, 60000);
	uint64_t pend_addr = 0, pend_bytes = 0, bucket = 0;
	int since = 0;
	uint32_t nb = 0;
	bool ddp = g->o->world_size > 1;
	for (size_t i = g->nlayers; i-- > 0;) {
		const struct layer_rec *l = &g->layers[i];
		int si = synth_stream_for(g, i);
		synth_open(g, TH_BWD, SK_OP, bwd_names[l->kind][0], AK_BWD);
		synth_at(g, &g->cpu, g->stack[TH_BWD][g->depth[TH_BWD] - 1])->seq = l->seq;
		uint32_t in = synth_open(g, TH_BWD, SK_OP, bwd_names[l->kind][1], AK_BWD);
		struct sev *s = synth_at(g, &g->cpu, in);
		s->seq = l->seq;
		synth_cpu_flow(g, SK_FLOW_F, TH_BWD, l->flow, s->ts);
		uint64_t gbytes = (uint64_t)l->act_bytes; /* in-place ops: their input */
		if (!gbytes)
			gbytes = (uint64_t)l->d[0] * l->d[1] * l->d[2] * l->d[3] * 2;
		uint64_t ga = synth_alloc(g, TH_BWD, gbytes);
		uint64_t np = bwd_body(g, l, si);
		if (pend_bytes)
			synth_free(g, TH_BWD, pend_addr, pend_bytes);
		pend_addr = ga;
		pend_bytes = gbytes;
		if (l->act_bytes)
			synth_free(g, TH_BWD, l->act_addr, (uint64_t)l->act_bytes);
		synth_close(g, TH_BWD);
		synth_close(g, TH_BWD);
		if (np) {
			accumulate_grad(g, np);
			bucket += np;
			if (ddp && ++since == 8) {
				bucket_reduce(g, bucket, bucket_parts(g, nb++));
				bucket = 0;
				since = 0;
			}
		}
	}
	if (ddp && bucket)
		bucket_reduce(g, bucket, bucket_parts(g, nb++));
	synth_straggler_fold(g);
	if (pend_bytes)
		synth_free(g, TH_BWD, pend_addr, pend_bytes);
	g->cur[TH_MAIN] = g->cur[TH_BWD] + synth_range(g, 5000, 20000);
}

void synth_straggler_fold(struct gen *g)
{
	uint64_t d = g->o->straggler_ns;
	g->coll_seen = false;
	int nccl = (int)g->nstreams;
	g->delay[nccl] -= g->link_extra; /* opts.slow_link: now part of the timeline */
	g->sfree[nccl] += g->link_extra;
	g->link_extra = 0;
	if (!d)
		return;
	for (uint32_t s = 0; s <= g->nstreams; s++) {
		g->delay[s] -= g->late[s];
		g->late[s] = 0;
		g->sfree[s] += d;
	}
}
