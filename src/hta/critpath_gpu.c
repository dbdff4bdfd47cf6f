/* critpath_gpu: the GPU side of HTA's critical-path graph: each kernel's
 * span, its launch delay or its gap after the kernel before it on the
 * stream (told apart by the queue length, HTA's TraceCounters), and the
 * synchronizations of the cuda_sync events (stream, context and event
 * syncs to the CPU; stream waits between kernels, through the cudaEventRecord
 * waited on). See critpath_int.h. */
#include <stdlib.h>
#include <string.h>

#include "core/radix.h"
#include "hta/critpath_int.h"

#define KK_THRESHOLD_NS 1500000 /* HTA's KERNEL_KERNEL_DELAY_THRESHOLD_US */

/* An item of a sorted sequence: a launch or another event on a key (a
 * stream, a (gpu, stream), a thread and stream). */
struct seq {
	int64_t k1, k2, ts;
	uint32_t row, other; /* other: the launch's kernel */
	uint8_t kind;	     /* 0 sorts first at equal ts */
};

/* The order of a sequence: (k1, k2, ts, kind, row), row unique, so the
 * order is total. */
static const struct rx_key seq_keys[] = {
    RX_KEY(struct seq, k1, RX_I64), RX_KEY(struct seq, k2, RX_I64), RX_KEY(struct seq, ts, RX_I64),
    RX_KEY(struct seq, kind, RX_U8), RX_KEY(struct seq, row, RX_U32)};

static int seq_sort(struct seq *v, size_t n)
{
	return rx_sort(v, n, sizeof *v, seq_keys, sizeof seq_keys / sizeof *seq_keys);
}

struct seqv {
	struct seq *v;
	size_t n, cap;
};

static int seq_push(struct seqv *s, struct seq x)
{
	if (s->n == s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 256;
		struct seq *v = realloc(s->v, nc * sizeof *v);
		if (!v)
			return -1;
		s->v = v;
		s->cap = nc;
	}
	s->v[s->n++] = x;
	return 0;
}

static int64_t pid_num(const struct trace *t, size_t r)
{
	const struct tr_id *p = &t->tracks.v[t->ev.track[r]].pid;
	return p->is_str ? -2 - (int64_t)p->str : p->num;
}

static bool in_df(const struct cpb *b, uint32_t r)
{
	return r < CP_IC_ZERO && (b->rowf[r] & CPR_DF);
}

/* The kernel of launch row r (HTA's runtime launch with index_correlation
 * > 0 and a GPU event with a stream there), or TR_NONE. */
static uint32_t launch_kernel(const struct cpb *b, size_t r)
{
	if (!(b->rowf[r] & CPR_DF) || !cpb_is_launch(b, r))
		return TR_NONE;
	uint32_t g = cpb_ic(b, r);
	return in_df(b, g) && cpb_stream(b, g) != -1 ? g : TR_NONE;
}

/* A launch (kind 0) or its kernel (1) on a stream, for the queue length. */
struct qpt {
	int64_t stream, ts;
	uint32_t row;
	uint8_t kind; /* 0 sorts first at equal ts */
};

/* (stream, ts, kind, row): the order of HTA's queue length. */
static const struct rx_key qpt_keys[] = {
    RX_KEY(struct qpt, stream, RX_I64), RX_KEY(struct qpt, ts, RX_I64),
    RX_KEY(struct qpt, kind, RX_U8), RX_KEY(struct qpt, row, RX_U32)};

/* HTA's queue length per stream after each launch (+1) and each kernel
 * (-1), in ts order: qlen maps a row to it. The points are counted first,
 * then held once, 24 bytes each (not a struct seq of 40, grown by
 * doubling): the largest block of the critical path's build. */
static int queue_lengths(struct cpb *b, struct hmap *qlen)
{
	const struct trace *t = b->t;
	size_t nl = 0, n = 0;
	for (size_t r = 0; r < t->ev.n; r++)
		nl += launch_kernel(b, r) != TR_NONE;
	struct qpt *v = malloc((nl ? 2 * nl : 1) * sizeof *v);
	if (!v)
		return -1;
	for (size_t r = 0; r < t->ev.n && n < nl; r++) {
		uint32_t g = launch_kernel(b, r);
		if (g != TR_NONE) {
			int64_t ts, te;
			cpb_times(b, r, &ts, &te);
			v[n++] = (struct qpt){cpb_stream(b, g), ts, (uint32_t)r, 0};
		}
	}
	for (size_t i = 0; i < nl; i++) {
		uint32_t g = launch_kernel(b, v[i].row);
		int64_t ts, te;
		cpb_times(b, g, &ts, &te);
		v[n++] = (struct qpt){cpb_stream(b, g), ts, g, 1};
	}
	int rc = rx_sort(v, n, sizeof *v, qpt_keys, sizeof qpt_keys / sizeof *qpt_keys);
	if (!rc && hmap_init(qlen, n))
		rc = -1;
	int64_t q = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		if (i == 0 || v[i].stream != v[i - 1].stream)
			q = 0;
		q += v[i].kind ? -1 : 1;
		uint32_t x;
		size_t slot = hmap_slot(qlen, hmap_int(v[i].row), NULL, NULL, &x);
		if (slot == SIZE_MAX)
			rc = -1;
		else if (x == HMAP_NONE)
			hmap_set(qlen, slot, hmap_int(v[i].row), (uint32_t)(q + 0x40000000));
	}
	free(v);
	return rc;
}

static int64_t qlen_of(const struct hmap *q, uint32_t row)
{
	uint32_t v = row < CP_IC_ZERO ? hmap_get(q, hmap_int(row), NULL, NULL) : HMAP_NONE;
	return v == HMAP_NONE ? INT64_MIN : (int64_t)v - 0x40000000;
}

/* The GPU event (stream and gpu) of each cudaEventRecord that a sync event
 * waits on, and the launch before the record on that GPU stream (HTA's
 * index_previous_launch): map record correlation -> launch row. */
static int event_records(struct cpb *b, struct hmap *prev)
{
	const struct trace *t = b->t;
	if (b->names[CPN_CUDA_EVENT_RECORD] == TR_NONE)
		return 0;
	struct hmap waited = {0}; /* record correlation -> a row waiting on it */
	struct seqv s = {0};
	int rc = 0;
	for (size_t r = 0; r < t->ev.n && !rc; r++) {
		const struct tr_gpu_arg *a = tr_gpu_arg(t, r);
		if (!(b->rowf[r] & CPR_DF) || !a || a->wait_stream <= -1 ||
		    a->wait_corr == TR_NO_WAIT)
			continue;
		uint32_t v;
		size_t slot = hmap_slot(&waited, hmap_int(a->wait_corr), NULL, NULL, &v);
		if (slot == SIZE_MAX)
			rc = -1;
		else if (v == HMAP_NONE)
			hmap_set(&waited, slot, hmap_int(a->wait_corr), (uint32_t)r);
	}
	for (size_t r = 0; r < t->ev.n && !rc; r++) {
		int64_t ts, te;
		uint32_t g = launch_kernel(b, r);
		if (g != TR_NONE && cpb_ic(b, g) < CP_IC_ZERO) {
			cpb_times(b, r, &ts, &te);
			rc = seq_push(&s, (struct seq){pid_num(t, g), cpb_stream(b, g), ts,
						       (uint32_t)r, g, 0});
			continue;
		}
		if (!(b->rowf[r] & CPR_DF) || !cpb_name_is(b, r, CPN_CUDA_EVENT_RECORD) ||
		    tr_corr(t, r) < 0)
			continue;
		uint32_t w = hmap_get(&waited, hmap_int(tr_corr(t, r)), NULL, NULL);
		if (w == HMAP_NONE)
			continue;
		cpb_times(b, r, &ts, &te);
		rc = seq_push(&s, (struct seq){pid_num(t, w), tr_gpu_arg(t, w)->wait_stream, ts,
					       (uint32_t)r, TR_NONE, 1});
	}
	if (!rc)
		rc = seq_sort(s.v, s.n);
	if (!rc)
		rc = hmap_init(prev, 16);
	uint32_t last = TR_NONE;
	for (size_t i = 0; i < s.n && !rc; i++) {
		if (i == 0 || s.v[i].k1 != s.v[i - 1].k1 || s.v[i].k2 != s.v[i - 1].k2)
			last = TR_NONE;
		if (!s.v[i].kind) {
			last = s.v[i].row;
			continue;
		}
		uint32_t v;
		int64_t c = tr_corr(t, s.v[i].row);
		size_t slot = hmap_slot(prev, hmap_int(c), NULL, NULL, &v);
		if (slot == SIZE_MAX)
			rc = -1;
		else if (v == HMAP_NONE)
			hmap_set(prev, slot, hmap_int(c), last);
	}
	hmap_free(&waited);
	free(s.v);
	return rc;
}

/* The launch after each cudaStreamWaitEvent on its thread and the stream
 * of its Stream Wait Event (HTA's index_next_launch): map wait row ->
 * launch row (TR_NONE: none). */
static int stream_waits(struct cpb *b, struct hmap *next)
{
	const struct trace *t = b->t;
	if (b->names[CPN_CUDA_STREAM_WAIT_EVENT] == TR_NONE ||
	    b->names[CPN_STREAM_WAIT_EVENT] == TR_NONE)
		return 0;
	struct seqv s = {0};
	int rc = 0;
	for (size_t r = 0; r < t->ev.n && !rc; r++) {
		int64_t ts, te;
		uint32_t g = launch_kernel(b, r);
		bool wait = (b->rowf[r] & CPR_DF) && cpb_name_is(b, r, CPN_CUDA_STREAM_WAIT_EVENT);
		if (wait) {
			g = cpb_ic(b, r);
			if (!in_df(b, g) || cpb_stream(b, g) == -1 || cpb_ic(b, g) >= CP_IC_ZERO)
				continue;
		} else if (g == TR_NONE || cpb_ic(b, g) >= CP_IC_ZERO) {
			continue;
		}
		cpb_times(b, r, &ts, &te);
		rc = seq_push(
		    &s, (struct seq){t->ev.track[r], cpb_stream(b, g), ts, (uint32_t)r, g, wait});
	}
	if (!rc)
		rc = seq_sort(s.v, s.n);
	if (!rc)
		rc = hmap_init(next, 16);
	uint32_t after = TR_NONE;
	for (size_t i = s.n; i-- > 0 && !rc;) {
		if (i + 1 == s.n || s.v[i].k1 != s.v[i + 1].k1 || s.v[i].k2 != s.v[i + 1].k2)
			after = TR_NONE;
		if (!s.v[i].kind) {
			after = s.v[i].row;
			continue;
		}
		if (hmap_reserve(next, next->n + 1) || hmap_put(next, hmap_int(s.v[i].row), after))
			rc = -1;
	}
	free(s.v);
	return rc;
}

struct kstate {
	struct hmap qlen, prev, next;
	struct hmap ksync; /* dest kernel row -> src kernel row (HTA's kernel_sync) */
	struct last {
		int64_t stream;
		uint32_t node;
	} * last; /* per stream, in the order first seen */
	size_t nlast;
};

static uint32_t *last_of(struct kstate *k, int64_t stream)
{
	for (size_t i = 0; i < k->nlast; i++)
		if (k->last[i].stream == stream)
			return &k->last[i].node;
	return NULL;
}

static int sync_edge(struct cpb *b, uint32_t gpu_node, uint32_t runtime)
{
	const struct cp_ev *x = runtime < CP_IC_ZERO ? cpb_ev(b, runtime) : NULL;
	if (!x)
		return 0;
	return cpb_edge(b, gpu_node, x->end, CP_SYNC, false) == SIZE_MAX ? -1 : 0;
}

/* HTA's handle_cuda_sync of row r. */
static int on_sync(struct cpb *b, struct kstate *k, uint32_t r)
{
	const struct trace *t = b->t;
	uint32_t rt = cpb_ic(b, r);
	bool wait = cpb_name_is(b, r, CPN_STREAM_WAIT_EVENT);
	if (wait || cpb_name_is(b, r, CPN_EVENT_SYNC)) {
		const struct tr_gpu_arg *a = tr_gpu_arg(t, r);
		if (!a || a->wait_corr == TR_NO_WAIT || !k->prev.key)
			return 0;
		uint32_t launch = hmap_get(&k->prev, hmap_int(a->wait_corr), NULL, NULL);
		if (launch == HMAP_NONE || launch == TR_NONE)
			return 0;
		uint32_t src = cpb_ic(b, launch);
		if (wait) {
			uint32_t nl = rt < CP_IC_ZERO && k->next.key
					  ? hmap_get(&k->next, hmap_int(rt), NULL, NULL)
					  : HMAP_NONE;
			if (nl == HMAP_NONE || nl == TR_NONE)
				return 0;
			uint32_t dest = cpb_ic(b, nl), v;
			size_t slot = hmap_slot(&k->ksync, hmap_int(dest), NULL, NULL, &v);
			if (slot == SIZE_MAX)
				return -1;
			if (v == HMAP_NONE)
				hmap_set(&k->ksync, slot, hmap_int(dest), src);
			else
				k->ksync.val[slot] = src;
			return 0;
		}
		const struct cp_ev *s = src < CP_IC_ZERO ? cpb_ev(b, src) : NULL;
		return s ? sync_edge(b, s->end, rt) : 0;
	}
	if (cpb_name_is(b, r, CPN_CONTEXT_SYNC)) {
		for (size_t i = 0; i < k->nlast; i++)
			if (sync_edge(b, k->last[i].node, rt))
				return -1;
		return 0;
	}
	if (!cpb_name_is(b, r, CPN_STREAM_SYNC))
		return 0;
	uint32_t *l = last_of(k, cpb_stream(b, r));
	return l ? sync_edge(b, *l, rt) : 0;
}

/* The kernel-sync source of kernel row r (once: it is reset), TR_NONE. */
static uint32_t take_ksync(struct kstate *k, uint32_t r)
{
	if (!k->ksync.key)
		return TR_NONE;
	uint32_t v;
	size_t slot = hmap_find(&k->ksync, hmap_int(r), NULL, NULL, &v);
	if (v == HMAP_NONE)
		return TR_NONE;
	k->ksync.val[slot] = TR_NONE;
	return v;
}

/* One kernel, memcpy or memset: its span, then a sync edge, a launch delay
 * or a kernel gap, as HTA decides between them. */
static int on_kernel(struct cpb *b, struct kstate *k, uint32_t r)
{
	struct cp *c = b->c;
	const struct cp_ev *x = cpb_ev(b, r);
	if (!x)
		return 0;
	size_t e = cpb_edge(b, x->start, x->end, CP_OPERATOR, false);
	if (e == SIZE_MAX)
		return -1;
	cpb_attribute(b, e, CP_NOEV);
	uint32_t ks = take_ksync(k, r);
	const struct cp_ev *kse = ks < CP_IC_ZERO ? cpb_ev(b, ks) : NULL;
	if (ks != TR_NONE && !kse)
		ks = TR_NONE;
	if (kse && cpb_edge(b, kse->end, x->start, CP_SYNC, false) == SIZE_MAX)
		return -1;
	uint32_t rt = cpb_ic(b, r);
	int64_t rts = INT64_MIN, rte;
	if (rt < CP_IC_ZERO)
		cpb_times(b, rt, &rts, &rte);
	uint32_t *last = last_of(k, x->stream);
	int64_t last_ts = last ? c->node[*last].ts : 0;
	int64_t kse_ts = kse ? c->node[kse->end].ts : 0;
	bool launched = false;
	if (qlen_of(&k->qlen, rt) == 1 && qlen_of(&k->qlen, r) == 0 && (!last || last_ts < rts) &&
	    (ks == TR_NONE || kse_ts < rts)) {
		const struct cp_ev *re = rt < CP_IC_ZERO ? cpb_ev(b, rt) : NULL;
		if (re && cpb_edge(b, re->start, x->start, CP_LAUNCH, false) == SIZE_MAX)
			return -1;
		launched = re != NULL;
	} else if (last && x->ts - last_ts < KK_THRESHOLD_NS &&
		   (ks == TR_NONE || kse_ts < last_ts)) {
		e = cpb_edge(b, *last, x->start, CP_KERNEL_GAP, false);
		if (e == SIZE_MAX)
			return -1;
		cpb_attribute(b, e, CP_NOEV);
	}
	if (b->o->zero_launch && !launched) {
		const struct cp_ev *re = rt < CP_IC_ZERO ? cpb_ev(b, rt) : NULL;
		if (re && cpb_edge(b, re->start, x->start, CP_LAUNCH, true) == SIZE_MAX)
			return -1;
	}
	if (last) {
		*last = x->end;
		return 0;
	}
	struct last *nl = realloc(k->last, (k->nlast + 1) * sizeof *nl);
	if (!nl)
		return -1;
	k->last = nl;
	k->last[k->nlast++] = (struct last){x->stream, x->end};
	return 0;
}

struct krow {
	int64_t key;
	uint32_t row;
};

static const struct rx_key krow_keys[] = {RX_KEY(struct krow, key, RX_I64),
					  RX_KEY(struct krow, row, RX_U32)};

int cpb_kernels(struct cpb *b)
{
	const struct trace *t = b->t;
	struct kstate k = {0};
	struct krow *v = NULL;
	size_t n = 0, cap = 0;
	int rc = queue_lengths(b, &k.qlen);
	if (!rc)
		rc = event_records(b, &k.prev);
	if (!rc)
		rc = stream_waits(b, &k.next);
	for (size_t r = 0; r < t->ev.n && !rc; r++) {
		if (!(b->rowf[r] & CPR_CLIP) || cpb_ic(b, r) == CP_IC_NONE)
			continue;
		if (cpb_stream(b, r) == -1 && !cpb_name_is(b, r, CPN_EVENT_SYNC) &&
		    !cpb_name_is(b, r, CPN_CONTEXT_SYNC))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			struct krow *nv = realloc(v, cap * sizeof *nv);
			if (!nv) {
				rc = -1;
				break;
			}
			v = nv;
		}
		int64_t ts, te;
		cpb_times(b, r, &ts, &te);
		v[n++] = (struct krow){t->ev.kind[r] == TR_CUDA_SYNC ? te : ts, (uint32_t)r};
	}
	if (!rc)
		rc = rx_sort(v, n, sizeof *v, krow_keys, 2);
	for (size_t i = 0; i < n && !rc; i++)
		rc = t->ev.kind[v[i].row] == TR_CUDA_SYNC ? on_sync(b, &k, v[i].row)
							  : on_kernel(b, &k, v[i].row);
	free(v);
	hmap_free(&k.qlen);
	hmap_free(&k.prev);
	hmap_free(&k.next);
	hmap_free(&k.ksync);
	free(k.last);
	return rc;
}
