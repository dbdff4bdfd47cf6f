/* synth ops: the primitives the model is written with: open/close a CPU op
 * on a thread's clock, launch device work (runtime call + kernel/memcpy/
 * memset + ac2g flow) onto a stream, allocate and free memory ([memory]
 * instants), and remember forward layers for the backward pass.
 *
 * Time runs per CPU thread (a cursor in ns) and per stream (busy-until);
 * every op is opened and closed around its children so tracks nest
 * strictly; a kernel starts after its launch and after the previous kernel
 * of its stream ended.
 */
#include <string.h>

#include "synth/synth_int.h"

static uint64_t jitter(struct gen *g, uint64_t ns)
{
	return ns * synth_range(g, 920, 1080) / 1000;
}

/* The duration kernel k is written with (opts.scale: the first rule whose
 * name k's contains). */
static uint64_t scaled(const struct gen *g, const struct kdesc *k, uint64_t dur)
{
	for (uint32_t i = 0; k && i < g->o->nscale; i++)
		if (strstr(k->name, g->o->scale[i].name))
			return (uint64_t)((double)dur * g->o->scale[i].factor + 0.5);
	return dur;
}

uint32_t synth_open(struct gen *g, int th, enum sev_kind kind, const char *name, enum argk ak)
{
	uint32_t i = synth_push(g, &g->cpu);
	struct sev *s = synth_at(g, &g->cpu, i);
	s->kind = (uint8_t)kind;
	s->th = (uint8_t)th;
	s->name = name;
	s->argk = (uint8_t)ak;
	s->ts = g->cur[th] + synth_range(g, 300, 2200);
	s->ext = ++g->ext;
	s->evidx = g->evidx++;
	g->cur[th] = s->ts + synth_range(g, 400, 2500);
	if (g->depth[th] < 64)
		g->stack[th][g->depth[th]] = i;
	g->depth[th]++;
	return i;
}

struct sev *synth_dims(struct gen *g, uint32_t i, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	struct sev *s = synth_at(g, &g->cpu, i);
	s->d[0] = a;
	s->d[1] = b;
	s->d[2] = c;
	s->d[3] = d;
	return s;
}

void synth_close(struct gen *g, int th)
{
	g->depth[th]--;
	uint32_t i = g->depth[th] < 64 ? g->stack[th][g->depth[th]] : SEV_NONE;
	struct sev *s = synth_at(g, &g->cpu, i);
	g->cur[th] += synth_range(g, 200, 1500);
	s->dur = g->cur[th] - s->ts;
}

/* A leaf cpu_op with the given shape. */
void synth_leaf(struct gen *g, int th, const char *name, enum argk ak, uint32_t a, uint32_t b,
		uint32_t c, uint32_t d)
{
	synth_dims(g, synth_open(g, th, SK_OP, name, ak), a, b, c, d);
	synth_close(g, th);
}

static uint64_t top_ext(struct gen *g, int th)
{
	if (!g->depth[th] || g->depth[th] > 64)
		return 0;
	return synth_at(g, &g->cpu, g->stack[th][g->depth[th] - 1])->ext;
}

void synth_flow(struct gen *g, enum sev_kind k, int cat, int th, bool dev, uint64_t id, uint64_t ts)
{
	struct sev *f = synth_at(g, &g->dev_ev, synth_push(g, &g->dev_ev));
	f->kind = (uint8_t)k;
	f->argk = (uint8_t)cat;
	f->th = (uint8_t)th;
	f->on_dev = dev;
	f->corr = id;
	f->ts = ts;
}

/* fwdbwd flows go with the CPU events, next to the op they mark. */
void synth_cpu_flow(struct gen *g, enum sev_kind k, int th, uint64_t id, uint64_t ts)
{
	struct sev *f = synth_at(g, &g->cpu, synth_push(g, &g->cpu));
	f->kind = (uint8_t)k;
	f->argk = 1;
	f->th = (uint8_t)th;
	f->corr = id;
	f->ts = ts;
}

uint32_t synth_runtime(struct gen *g, int th, const char *name, uint32_t cbid, uint64_t dur)
{
	uint32_t i = synth_push(g, &g->dev_ev);
	struct sev *r = synth_at(g, &g->dev_ev, i);
	r->kind = SK_RUNTIME;
	r->th = (uint8_t)th;
	r->name = name;
	r->cbid = cbid;
	r->ext = top_ext(g, th);
	r->corr = ++g->corr;
	r->ts = g->cur[th] + synth_range(g, 300, 1500);
	r->dur = dur;
	g->cur[th] = r->ts + dur;
	return i;
}

/* A device activity launched from thread th onto stream si: the runtime
 * call, the kernel/memcpy/memset, and the ac2g flow between them. */
struct sev *synth_launch(struct gen *g, int th, enum sev_kind dk, const struct kdesc *k, int si,
			 uint64_t est_ns, uint64_t bytes)
{
	const char *rn = dk == SK_KERNEL   ? "cudaLaunchKernel"
			 : dk == SK_MEMCPY ? "cudaMemcpyAsync"
					   : "cudaMemsetAsync";
	uint32_t cbid = dk == SK_KERNEL ? 211 : dk == SK_MEMCPY ? 41 : 51;
	uint64_t rdur = synth_range(g, 2500, dk == SK_KERNEL ? 7000 : 12000);
	uint32_t ri = synth_runtime(g, th, rn, cbid, rdur);
	struct sev r = *synth_at(g, &g->dev_ev, ri);
	uint64_t start = r.ts + synth_range(g, 3000, 9000);
	if (start < g->sfree[si])
		start = g->sfree[si] + synth_range(g, 800, 2500);
	uint64_t dur = jitter(g, (k ? k->dur_ns : 1200) + est_ns);
	g->sfree[si] = start + dur;
	/* the stream's timeline decides (as without opts.scale, so the same
	 * numbers are drawn); the event is written after what scaled kernels
	 * before it on the stream added */
	uint64_t wdur = dk == SK_KERNEL ? scaled(g, k, dur) : dur;
	start += g->delay[si];
	if (wdur > dur) /* a shorter kernel leaves a longer gap */
		g->delay[si] += wdur - dur;
	dur = wdur;
	if (si < (int)g->nstreams) {
		if (!g->gpu_first || start < g->gpu_first)
			g->gpu_first = start;
		if (start + dur > g->gpu_last)
			g->gpu_last = start + dur;
	}
	/* Kineto order: device event, its flow end, the runtime, its flow start. */
	synth_at(g, &g->dev_ev, ri)->kind = (uint8_t)dk; /* reuse the slot */
	struct sev *d = synth_at(g, &g->dev_ev, ri);
	d->name = dk == SK_MEMCPY   ? (bytes == 4 ? "Memcpy DtoH (Device -> Pageable)"
						  : "Memcpy HtoD (Pageable -> Device)")
		  : dk == SK_MEMSET ? "Memset (Device)"
				    : NULL;
	d->k = dk == SK_KERNEL ? k : NULL;
	d->th = (uint8_t)si;
	d->on_dev = true;
	d->ts = start;
	d->dur = dur;
	d->bytes = (int64_t)bytes;
	d->cbid = 0;
	if (dk == SK_KERNEL) {
		uint64_t gx = 1 + est_ns / 40;
		d->d[0] = k->grid[0] ? k->grid[0] : (uint32_t)(gx > 1048576 ? 1048576 : gx);
		g->st->kernels_launched++;
	}
	synth_flow(g, SK_FLOW_F, 0, si, true, r.corr, start);
	struct sev *rr = synth_at(g, &g->dev_ev, synth_push(g, &g->dev_ev));
	*rr = r;
	synth_flow(g, SK_FLOW_S, 0, th, false, r.corr, r.ts);
	return synth_at(g, &g->dev_ev, ri);
}

struct sev *synth_kern(struct gen *g, int th, enum kid k, int si, uint64_t est_ns)
{
	return synth_launch(g, th, SK_KERNEL, &synth_kernels[k], si, est_ns, 0);
}

void synth_mem(struct gen *g, int th, uint64_t addr, int64_t bytes, bool gpu)
{
	struct sev *m = synth_at(g, &g->cpu, synth_push(g, &g->cpu));
	m->kind = SK_MEM;
	m->th = (uint8_t)th;
	m->ts = g->cur[th] + synth_range(g, 100, 600);
	g->cur[th] = m->ts + synth_range(g, 100, 400);
	m->addr = addr;
	m->bytes = bytes;
	m->dev_type = gpu;
	m->evidx = g->evidx++;
	if (gpu) {
		g->tot_alloc += (uint64_t)bytes;
		uint64_t want = (g->tot_alloc + MIB2 - 1) / MIB2 * MIB2;
		if (want > g->tot_res)
			g->tot_res = want;
		m->tot_alloc = g->tot_alloc;
		m->tot_res = g->tot_res;
	} else {
		m->tot_alloc = bytes > 0 ? (uint64_t)bytes : 0;
		m->tot_res = 0;
	}
}

uint64_t synth_alloc(struct gen *g, int th, uint64_t bytes)
{
	uint64_t addr = g->next_addr;
	g->next_addr += (bytes + 511) / 512 * 512;
	synth_mem(g, th, addr, (int64_t)bytes, true);
	return addr;
}

void synth_free(struct gen *g, int th, uint64_t addr, uint64_t bytes)
{
	synth_mem(g, th, addr, -(int64_t)bytes, true);
}

/* aten::empty with its allocation; returns the address. */
uint64_t synth_empty(struct gen *g, int th, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	synth_dims(g, synth_open(g, th, SK_OP, "aten::empty", AK_EMPTY), a, b, c, d);
	uint64_t n = (uint64_t)a * (b ? b : 1) * (c ? c : 1) * (d ? d : 1) * 2;
	uint64_t addr = synth_alloc(g, th, n);
	synth_close(g, th);
	return addr;
}

static struct layer_rec *add_layer(struct gen *g, enum lkind k)
{
	if (g->nlayers == SYNTH_MAX_LAYERS)
		g->nlayers--; /* the model has fewer; never reached */
	struct layer_rec *l = &g->layers[g->nlayers++];
	memset(l, 0, sizeof *l);
	l->kind = (uint8_t)k;
	return l;
}

/* Opens the top op of a forward layer: it carries the sequence number and
 * the start of the fwdbwd flow to its backward node. */
struct layer_rec *synth_fwd_open(struct gen *g, enum lkind k, const char *name, enum argk ak,
				 const uint32_t *d)
{
	struct layer_rec *l = add_layer(g, k);
	uint32_t i = synth_open(g, TH_MAIN, SK_OP, name, ak);
	struct sev *s = synth_at(g, &g->cpu, i);
	memcpy(s->d, d, sizeof s->d);
	memcpy(l->d, d, sizeof l->d);
	s->seq = l->seq = ++g->seq;
	l->flow = ++g->flow;
	synth_cpu_flow(g, SK_FLOW_S, TH_MAIN, l->flow, s->ts);
	return l;
}

int synth_stream_for(struct gen *g, size_t layer)
{
	return (int)(layer / 3 % g->nstreams);
}
