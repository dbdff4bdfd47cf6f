/* synth: synth_write, the driver of the generator: option checks, the PRNG,
 * the metadata Kineto writes before and after "traceEvents", the step loop
 * (until the size target or the step count is reached) and truncation.
 */
#include <stdlib.h>
#include <string.h>

#include "synth/synth_int.h"

#define FIRST_STEP 3 /* schedule(wait=1, warmup=2): the first active step */
#define T0_NS 1700000000000000ull
#define BASE_TIME_NS "1700000000000000000"
#define NCCL_STREAM 45

void synth_opts_init(struct synth_opts *o)
{
	memset(o, 0, sizeof *o);
	o->seed = 1;
	o->steps = 5;
	o->world_size = 8;
	o->streams = 1;
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t synth_rand(struct gen *g)
{
	uint64_t *s = g->rng;
	uint64_t r = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

uint64_t synth_range(struct gen *g, uint64_t lo, uint64_t hi)
{
	return hi <= lo ? lo : lo + synth_rand(g) % (hi - lo + 1);
}

/* ---- metadata ---- */

static void device_props(struct wout *w, uint32_t id)
{
	wout_str(w, "    {\"id\": ");
	wout_u64(w, id);
	wout_str(w, ", \"name\": \"NVIDIA H100 80GB HBM3\", \"totalGlobalMem\": 85045477376, "
		    "\"computeMajor\": 9, \"computeMinor\": 0, \"maxThreadsPerBlock\": 1024, "
		    "\"maxThreadsPerMultiprocessor\": 2048, \"regsPerBlock\": 65536, "
		    "\"regsPerMultiprocessor\": 65536, \"warpSize\": 32, \"sharedMemPerBlock\": "
		    "49152, \"sharedMemPerMultiprocessor\": 233472, \"numSms\": 132, "
		    "\"sharedMemPerBlockOptin\": 232448}");
}

static void write_head(struct gen *g)
{
	struct wout *w = &g->w;
	wout_str(w, "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n");
	for (uint32_t i = 0; i < g->ndev; i++) {
		device_props(w, i);
		wout_str(w, i + 1 < g->ndev ? ",\n" : "\n");
	}
	wout_str(w, "  ],\n  \"cupti_version\": 24,\n  \"cuda_runtime_version\": 12040,\n"
		    "  \"cuda_driver_version\": 12090,\n  \"record_shapes\": 1,\n"
		    "  \"profile_memory\": 1,\n  \"with_stack\": 0,\n"
		    "  \"metadata\": {\"torch_version\": \"2.5.1+cu124\", \"generator\": "
		    "\"gpuprof synth\", \"seed\": ");
	wout_u64(w, g->o->seed);
	wout_str(w, "},\n  \"trace_id\": \"");
	static const char hex[] = "0123456789ABCDEF";
	for (int i = 0; i < 32; i++)
		wout_mem(w, &hex[synth_rand(g) & 15], 1);
	wout_str(w, "\",\n  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": " BASE_TIME_NS
		    ",\n  \"traceEvents\": [");
}

static void sep(struct gen *g)
{
	wout_mem(&g->w, g->first_event ? "\n  " : ",\n  ", g->first_event ? 3 : 4);
	g->first_event = false;
	g->st->events++;
}

/* {"name": "NAME", "ph": "M", "ts": T, "pid": P, "tid": T, "args": {"KEY": VAL}} */
static void meta(struct gen *g, const char *name, uint64_t pid, uint64_t tid, const char *key,
		 const char *sval, uint64_t uval)
{
	struct wout *w = &g->w;
	sep(g);
	wout_str(w, "{\"name\": \"");
	wout_str(w, name);
	wout_str(w, "\", \"ph\": \"M\", \"ts\": ");
	wout_ts(w, g->t_begin);
	wout_str(w, ", \"pid\": ");
	wout_u64(w, pid);
	wout_str(w, ", \"tid\": ");
	wout_u64(w, tid);
	wout_str(w, ", \"args\": {\"");
	wout_str(w, key);
	wout_str(w, "\": ");
	if (sval)
		wout_jstr(w, sval);
	else
		wout_u64(w, uval);
	wout_str(w, "}}");
	g->st->ph_M++;
}

static void write_tail(struct gen *g, uint64_t t_end)
{
	struct wout *w = &g->w;
	char buf[64];
	meta(g, "process_name", g->pid, 0, "name", "python3", 0);
	meta(g, "process_labels", g->pid, 0, "labels", "CPU", 0);
	meta(g, "process_sort_index", g->pid, 0, "sort_index", NULL, g->pid);
	for (uint32_t i = 0; i < g->ndev; i++) {
		snprintf(buf, sizeof buf, "GPU %u", (unsigned)i);
		meta(g, "process_name", i, 0, "name", "python3", 0);
		meta(g, "process_labels", i, 0, "labels", buf, 0);
		meta(g, "process_sort_index", i, 0, "sort_index", NULL, 5000000 + i);
	}
	bool nccl = g->o->world_size > 1 && (g->o->model != SYNTH_MODEL_TINY || g->o->collectives);
	uint32_t ns = g->nstreams + (nccl ? 1 : 0);
	for (uint32_t i = 0; i < ns; i++) {
		snprintf(buf, sizeof buf, "stream %u ", (unsigned)g->stream_id[i]);
		meta(g, "thread_name", g->dev, g->stream_id[i], "name", buf, 0);
		meta(g, "thread_sort_index", g->dev, g->stream_id[i], "sort_index", NULL,
		     g->stream_id[i]);
	}
	static const char *const tnames[] = {"python3", "pt_autograd_0", "pt_data_pin"};
	for (int t = 0; t < TH_COUNT; t++) {
		if ((t == TH_BWD && g->o->model == SYNTH_MODEL_TINY) ||
		    (t == TH_AUX && !g->o->anomalies))
			continue;
		snprintf(buf, sizeof buf, "thread %u (%s)", (unsigned)g->tid[t], tnames[t]);
		meta(g, "thread_name", g->pid, g->tid[t], "name", buf, 0);
		meta(g, "thread_sort_index", g->pid, g->tid[t], "sort_index", NULL, g->tid[t]);
	}
	sep(g);
	wout_str(w, "{\"ph\": \"X\", \"cat\": \"Trace\", \"ts\": ");
	wout_ts(w, g->t_begin);
	wout_str(w, ", \"dur\": ");
	wout_ts(w, t_end - g->t_begin);
	wout_str(w, ", \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\", \"name\": \"PyTorch "
		    "Profiler (0)\", \"args\": {\"Op count\": 0}}");
	g->st->ph_X++;
	g->st->trace++;
	sep(g);
	wout_str(w, "{\"name\": \"process_sort_index\", \"ph\": \"M\", \"ts\": ");
	wout_ts(w, g->t_begin);
	wout_str(w, ", \"pid\": \"Spans\", \"tid\": 0, \"args\": {\"sort_index\": 536870912}}");
	g->st->ph_M++;
	sep(g);
	wout_str(w,
		 "{\"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": \"i\", \"s\": \"g\", "
		 "\"pid\": \"Traces\", \"tid\": \"Trace PyTorch Profiler\", \"ts\": ");
	wout_ts(w, g->t_begin);
	wout_str(w, "}");
	sep(g);
	wout_str(w, "{\"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\", \"pid\": \"\", "
		    "\"tid\": \"\", \"ts\": ");
	wout_ts(w, t_end + 1500);
	wout_str(w, "}");
	g->st->ph_i += 2;

	uint32_t ws = g->o->world_size;
	wout_str(w, "\n  ],\n  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": ");
	wout_u64(w, g->o->rank);
	wout_str(w, ", \"world_size\": ");
	wout_u64(w, ws);
	wout_str(w, ", \"pg_count\": 1, \"pg_config\": [{\"pg_name\": \"0\", \"pg_desc\": "
		    "\"default_pg\", \"backend_config\": \"cuda:nccl\", \"pg_size\": ");
	wout_u64(w, ws);
	wout_str(w, ", \"ranks\": [");
	for (uint32_t i = 0; i < ws; i++) {
		if (i)
			wout_str(w, ", ");
		wout_u64(w, i);
	}
	wout_str(w, "]}], \"nccl_version\": \"2.21.5\"},\n  \"traceName\": \"rank");
	wout_u64(w, g->o->rank);
	wout_str(w, ".synth.pt.trace.json\"\n}\n");
}

static uint64_t tail_estimate(const struct gen *g)
{
	return 130ull * (12 + 3 * g->ndev + 2 * (g->nstreams + 1)) + 400 + 8ull * g->o->world_size;
}

/* The first half of one more event, as a crashed profiler leaves it. */
static void write_cut(struct gen *g)
{
	struct synth_stats keep = *g->st;
	struct sev s = {.kind = SK_OP, .th = TH_MAIN, .name = "aten::linear", .argk = AK_LINEAR};
	s.ts = g->cur[TH_MAIN] + 1234;
	s.dur = 56789;
	s.ext = g->ext + 1;
	s.evidx = g->evidx;
	s.d[0] = 32;
	s.d[1] = 512;
	s.d[2] = 1000;
	size_t pos = g->w.n;
	synth_emit(g, &s);
	g->w.n = pos + (g->w.n - pos) / 2;
	*g->st = keep;
	g->st->truncated = true;
}

static int check_opts(const struct synth_opts *o, struct err *e)
{
	if (o->world_size < 1 || o->world_size > SYNTH_MAX_WORLD)
		return err_set(e, ERR_USAGE, "synth", -1, "world size must be 1..%d, not %u",
			       SYNTH_MAX_WORLD, (unsigned)o->world_size);
	if (o->rank >= o->world_size)
		return err_set(e, ERR_USAGE, "synth", -1, "rank %u is not below the world size %u",
			       (unsigned)o->rank, (unsigned)o->world_size);
	bool colls = o->world_size > 1 && (o->model == SYNTH_MODEL_RESNET || o->collectives);
	if (o->straggler_ns && (o->straggler_rank >= o->world_size || !colls))
		return err_set(e, ERR_USAGE, "synth", -1,
			       "a straggler needs a rank below the world size (> 1) and "
			       "collectives (resnet, or tiny with collectives)");
	if (o->slow_link_factor != 0 &&
	    (!(o->slow_link_factor > 0 && o->slow_link_factor <= SYNTH_MAX_LINK_FACTOR) ||
	     o->slow_link_rank >= o->world_size || !colls))
		return err_set(e, ERR_USAGE, "synth", -1,
			       "a slow link needs a factor in (0, %d], a rank below the world "
			       "size (> 1) and collectives",
			       SYNTH_MAX_LINK_FACTOR);
	if (o->model == SYNTH_MODEL_RESNET && o->collectives &&
	    (o->collectives < SYNTH_RESNET_BUCKETS || o->collectives > SYNTH_MAX_COLLECTIVES))
		return err_set(e, ERR_USAGE, "synth", -1,
			       "resnet: collectives per step must be %d..%d (its gradient buckets "
			       "split), not %u",
			       SYNTH_RESNET_BUCKETS, SYNTH_MAX_COLLECTIVES,
			       (unsigned)o->collectives);
	if (o->collectives > SYNTH_MAX_COLLECTIVES)
		return err_set(e, ERR_USAGE, "synth", -1, "collectives per step must be 0..%d",
			       SYNTH_MAX_COLLECTIVES);
	if (o->comms != SYNTH_COMMS_LEGACY && o->comms != SYNTH_COMMS_PT2)
		return err_set(e, ERR_USAGE, "synth", -1, "unknown collective arguments");
	if (o->streams < 1 || o->streams > SYNTH_MAX_STREAMS)
		return err_set(e, ERR_USAGE, "synth", -1, "streams must be 1..%d, not %u",
			       SYNTH_MAX_STREAMS, (unsigned)o->streams);
	if (o->gzip_level < 0 || o->gzip_level > 9)
		return err_set(e, ERR_USAGE, "synth", -1, "gzip level must be 1..9");
	if (o->model != SYNTH_MODEL_RESNET && o->model != SYNTH_MODEL_TINY)
		return err_set(e, ERR_USAGE, "synth", -1, "unknown model");
	if (!o->size && !o->steps)
		return err_set(e, ERR_USAGE, "synth", -1, "give a size or a number of steps");
	return 0;
}

static void gen_init(struct gen *g, const struct synth_opts *o, struct synth_stats *st)
{
	g->o = o;
	g->st = st;
	uint64_t x = o->seed;
	for (int i = 0; i < 4; i++)
		g->rng[i] = splitmix64(&x);
	g->pid = (uint32_t)synth_range(g, 10000, 3999999);
	g->tid[TH_MAIN] = g->pid;
	g->tid[TH_BWD] = g->pid + (uint32_t)synth_range(g, 60, 400);
	g->tid[TH_AUX] = g->tid[TH_BWD] + (uint32_t)synth_range(g, 1, 40);
	g->ndev = o->world_size < 8 ? o->world_size : 8;
	g->dev = o->rank % 8;
	g->nstreams = o->streams;
	static const uint32_t ids[SYNTH_MAX_STREAMS] = {7, 13, 17, 21, 25, 29, 33, 37};
	for (uint32_t i = 0; i < o->streams; i++)
		g->stream_id[i] = ids[i];
	g->stream_id[o->streams] = NCCL_STREAM;
	g->t_begin = T0_NS + synth_range(g, 0, 999999999);
	for (int t = 0; t < TH_COUNT; t++)
		g->cur[t] = g->t_begin + synth_range(g, 150000, 400000);
	g->ext = 0;
	g->corr = synth_range(g, 1000, 90000);
	g->tot_alloc = 94371840;
	g->tot_res = 2ull * 94371840;
	g->first_event = true;
	g->st->first_step = FIRST_STEP;
}

static int run(struct gen *g, const struct synth_opts *o, struct err *e)
{
	write_head(g);
	uint64_t n = FIRST_STEP, done = 0, target = o->size;
	for (;;) {
		uint64_t before = wout_size(&g->w);
		synth_step(g, n++, o->anomalies && done == 0);
		int r = synth_flush_step(g, e);
		if (r)
			return r;
		done++;
		g->cur[TH_MAIN] += synth_range(g, 50000, 300000);
		if (target) {
			uint64_t step = wout_size(&g->w) - before;
			if (wout_size(&g->w) + step / 2 + tail_estimate(g) >= target)
				break;
		} else if (done >= o->steps) {
			break;
		}
	}
	if (o->truncate)
		write_cut(g);
	else
		write_tail(g, g->cur[TH_MAIN]);
	return wout_finish(&g->w, e);
}

int synth_write(const struct synth_opts *o, FILE *out, struct synth_stats *stats, struct err *e)
{
	int r = check_opts(o, e);
	if (r)
		return r;
	struct synth_stats st_local;
	struct synth_stats *st = stats ? stats : &st_local;
	memset(st, 0, sizeof *st);
	struct gen *g = calloc(1, sizeof *g);
	if (!g)
		return err_set(e, ERR_NOMEM, "synth", -1, "out of memory");
	gen_init(g, o, st);
	r = wout_init(&g->w, out, o->gzip, o->gzip_level, e);
	if (!r)
		r = run(g, o, e);
	st->bytes = wout_size(&g->w);
	st->bytes_written = g->w.packed;
	wout_free(&g->w);
	free(g->cpu.v);
	free(g->dev_ev.v);
	free(g);
	return r;
}
