/* select: HTA's device events; see select.h. */
#include "hta/select.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/hmap.h"
#include "core/vec.h"

static bool starts(const char *s, size_t len, const char *p)
{
	size_t n = strlen(p);
	return len >= n && !memcmp(s, p, n);
}

static bool has(const char *s, size_t len, const char *p)
{
	return memmem(s, len, p, strlen(p)) != NULL;
}

/* HTA's patterns are Python re.match (anchored at the start; ".*" stops at
 * a newline, which kernel names do not hold). */
static bool is_comm(const char *s, size_t n)
{
	return starts(s, n, "nccl") || starts(s, n, "hip") || starts(s, n, "hccl") ||
	       has(s, n, "ncclKernel");
}

static bool is_memory(const char *s, size_t n)
{
	return starts(s, n, "Memcpy") || starts(s, n, "hipMemcpy") || starts(s, n, "Memset") ||
	       starts(s, n, "hipMemset") || starts(s, n, "dma");
}

static bool not_compute(const char *s, size_t n)
{
	static const char *const pre[] = {"nccl",	 "Stream Wait Event",
					  "runFunction", "hip",
					  "job_exe",	 "packet",
					  "pe_exe",	 "cpum_exe_subgraph",
					  "hccl",	 "collective_subgraph_execution"};
	for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
		if (starts(s, n, pre[i]))
			return true;
	return has(s, n, "Memcpy") || has(s, n, "Memset") || has(s, n, "dma") ||
	       has(s, n, "Sync") || (starts(s, n, "cuda") && has(s + 4, n - 4, "LaunchKernel"));
}

enum hta_ktype hta_kernel_type(const char *name, size_t len)
{
	if (is_comm(name, len))
		return HTA_COMM;
	if (is_memory(name, len))
		return HTA_MEMORY;
	return not_compute(name, len) ? HTA_KOTHER : HTA_COMPUTE;
}

/* The double nearest the decimal ts_ns / 1000 (what a JSON reader of
 * floats holds): q is exact below 2^53 us, and the fraction's rounding
 * error is far below the distance of any non-tie value from a tie. */
static double us_float(int64_t ns)
{
	return (double)(ns / 1000) + (double)(ns % 1000) / 1000.0;
}

/* An event's [ts, end) as HTA has it. */
static void hta_times(const struct trace *t, size_t r, bool rounded, int64_t *ts, int64_t *end)
{
	int64_t a = t->ev.ts[r], d = tr_dur(t, r);
	if (!rounded) {
		*ts = a;
		*end = a + d;
		return;
	}
	double fa = us_float(a);
	*ts = (int64_t)ceil(fa) * 1000;
	*end = (int64_t)floor(fa + us_float(d)) * 1000;
}

/* A complete event HTA's loader keeps. */
static bool kept(const struct trace *t, size_t r)
{
	enum tr_kind k = (enum tr_kind)t->ev.kind[r];
	return t->ev.ph[r] == 'X' && !(t->ev.flags[r] & TRF_FROM_BE) && k != TR_TRACE_SPAN &&
	       k != TR_GPU_USER_ANNOTATION;
}

/* The "stream" argument: a device event's, or a host op's (Triton's
 * cpu_op carries one, and HTA counts such an op as device work). */
static int64_t stream_of(const struct trace *t, size_t r)
{
	const struct tr_gpu_arg *g = tr_gpu_arg(t, r);
	if (g)
		return g->stream;
	uint32_t a = tr_aux_in(t, r, TR_AUX_OP, t->op.n);
	if (a == TR_NONE || t->op.v[a].extra == TR_NONE || t->op.v[a].extra >= t->opx.n)
		return -1;
	return t->opx.v[t->op.v[a].extra].stream;
}

/* HTA's GPU event (its GPUKernelFilter); every other kept event is a CPU
 * event to it. sync: the string ids of "Event Sync" and "Context Sync"
 * (device-level syncs without a stream), found once per trace. */
static bool gpu_event(const struct trace *t, size_t r, const uint32_t sync[2])
{
	uint32_t n = t->ev.name[r];
	return (stream_of(t, r) >= 0 && tr_corr(t, r) >= 0) || n == sync[0] || n == sync[1];
}

static bool is_step(const struct trace *t, size_t r)
{
	return (t->ev.flags[r] & TRF_STEP) && t->ev.kind[r] != TR_GPU_USER_ANNOTATION;
}

struct sel {
	const struct trace *t;
	bool rounded;
	struct hmap rt;	     /* correlation -> the last CPU row with it */
	struct hmap ok;	     /* correlations that keep their GPU events (filters) */
	int64_t (*steps)[2]; /* MTIA: the steps' [ts, end] */
	size_t nsteps;
	const uint32_t *sync; /* the output's sync ids */
};

static int corr_put(struct hmap *m, int64_t corr, uint32_t row, bool last)
{
	uint32_t v;
	size_t slot = hmap_slot(m, hmap_int(corr), NULL, NULL, &v);
	if (slot == SIZE_MAX)
		return -1;
	if (v == HMAP_NONE)
		hmap_set(m, slot, hmap_int(corr), row);
	else if (last)
		m->val[slot] = row;
	return 0;
}

/* How many distinct ProfilerStep#N names there are (0, 1 or 2: enough). */
static int step_names(const struct trace *t)
{
	uint32_t first = TR_NONE;
	for (size_t r = 0; r < t->ev.n; r++) {
		if (!kept(t, r) || !is_step(t, r))
			continue;
		if (first == TR_NONE)
			first = t->ev.name[r];
		else if (t->ev.name[r] != first)
			return 2;
	}
	return first != TR_NONE;
}

static bool mtia(const struct trace *t)
{
	uint32_t b = t->meta.dist_backend;
	return b && strstr(tr_str(t, b), "mtia:hccl");
}

/* HTA's MTIA CPU events: categories cpu_op*, user_annotation, *_runtime. */
static bool mtia_cpu(const struct trace *t, size_t r)
{
	enum tr_kind k = (enum tr_kind)t->ev.kind[r];
	return k == TR_CPU_OP || k == TR_USER_ANNOTATION || k == TR_RUNTIME;
}

/* CUDA: the correlations of the CPU events that start before the last
 * step does; *last = that start. */
static int cuda_keep(struct sel *s, int64_t *last)
{
	const struct trace *t = s->t;
	*last = INT64_MIN;
	for (size_t r = 0; r < t->ev.n; r++) {
		int64_t a, b;
		if (kept(t, r) && is_step(t, r) && !gpu_event(t, r, s->sync)) {
			hta_times(t, r, s->rounded, &a, &b);
			if (a > *last)
				*last = a;
		}
	}
	for (size_t r = 0; r < t->ev.n; r++) {
		int64_t a, b;
		if (!kept(t, r) || gpu_event(t, r, s->sync))
			continue;
		hta_times(t, r, s->rounded, &a, &b);
		if (a < *last && corr_put(&s->ok, tr_corr(t, r), (uint32_t)r, false))
			return -1;
	}
	return 0;
}

/* MTIA: the steps (kept for in_a_step), their extent, and the
 * correlations of the CPU events inside it. */
static int mtia_keep(struct sel *s, int64_t *t0, int64_t *t1)
{
	const struct trace *t = s->t;
	*t0 = INT64_MAX;
	*t1 = INT64_MIN;
	size_t cap = 0;
	for (size_t r = 0; r < t->ev.n; r++) {
		int64_t a, b;
		if (!kept(t, r) || !mtia_cpu(t, r) || !is_step(t, r))
			continue;
		hta_times(t, r, s->rounded, &a, &b);
		*t0 = a < *t0 ? a : *t0;
		*t1 = b > *t1 ? b : *t1;
		if (s->nsteps == cap) {
			size_t nc = cap ? cap * 2 : 16;
			int64_t(*v)[2] = realloc(s->steps, nc * sizeof *v);
			if (!v)
				return -1;
			s->steps = v;
			cap = nc;
		}
		s->steps[s->nsteps][0] = a;
		s->steps[s->nsteps++][1] = b;
	}
	for (size_t r = 0; r < t->ev.n; r++) {
		int64_t a, b, c = tr_corr(t, r);
		if (!kept(t, r) || !mtia_cpu(t, r) || c == -1)
			continue;
		hta_times(t, r, s->rounded, &a, &b);
		if (a >= *t0 && b <= *t1 && corr_put(&s->ok, c, (uint32_t)r, false))
			return -1;
	}
	return 0;
}

/* Whether an MTIA memory event starts inside one of the steps (HTA's
 * between(): both ends included). */
static bool in_a_step(const struct sel *s, int64_t ts)
{
	for (size_t i = 0; i < s->nsteps; i++)
		if (ts >= s->steps[i][0] && ts <= s->steps[i][1])
			return true;
	return false;
}

static int64_t tid_stream(const struct trace *t, size_t r)
{
	const struct tr_id *tid = &t->tracks.v[t->ev.track[r]].tid;
	return tid->is_str ? -1 : tid->num;
}

/* Decides one device row under the filter; *stream may change (MTIA). */
static bool keep_row(struct sel *s, enum hta_filter f, size_t r, int64_t ts, int64_t last,
		     int64_t *stream)
{
	const struct trace *t = s->t;
	if (f == HTA_FILTER_NONE)
		return true;
	int64_t c = tr_corr(t, r);
	if (f == HTA_FILTER_CUDA)
		return gpu_event(t, r, s->sync)
			   ? hmap_get(&s->ok, hmap_int(c), NULL, NULL) != HMAP_NONE
			   : ts < last;
	const char *nm = tr_str(t, t->ev.name[r]);
	if (is_memory(nm, strpool_len(&t->pool, t->ev.name[r])) && in_a_step(s, ts)) {
		if (*stream == -1)
			*stream = tid_stream(t, r);
		return true;
	}
	return t->ev.kind[r] != TR_CUDA_SYNC && c != -1 &&
	       hmap_get(&s->ok, hmap_int(c), NULL, NULL) != HMAP_NONE;
}

enum hta_ktype hta_name_ktype(const struct trace *t, uint8_t *ktype, uint32_t nm)
{
	if (!ktype[nm])
		ktype[nm] =
		    (uint8_t)(1 + hta_kernel_type(tr_str(t, nm), strpool_len(&t->pool, nm)));
	return (enum hta_ktype)(ktype[nm] - 1);
}

static int collect(struct sel *s, enum hta_filter f, int64_t last, struct hta_events *out)
{
	const struct trace *t = s->t;
	/* room for the candidates at once, fitted after (kept by the session:
	 * no doubling's spare room, no holes it leaves) */
	size_t cap = 0;
	for (size_t r = 0; r < t->ev.n; r++)
		cap += kept(t, r) && (stream_of(t, r) != -1 ||
				      tr_aux_table((enum tr_kind)t->ev.kind[r]) == TR_AUX_GPU);
	uint8_t *ktype = calloc(t->pool.n ? t->pool.n : 1, 1);
	out->v = malloc((cap ? cap : 1) * sizeof *out->v);
	if (!ktype || !out->v) {
		free(ktype);
		return -1;
	}
	for (size_t r = 0; r < t->ev.n; r++) {
		if (!kept(t, r))
			continue;
		int64_t stream = stream_of(t, r);
		if (stream == -1 && tr_aux_table((enum tr_kind)t->ev.kind[r]) != TR_AUX_GPU)
			continue;
		struct hta_ev h = {.row = (uint32_t)r, .rt_ts = HTA_NO_TS, .rt_row = TR_NONE};
		hta_times(t, r, s->rounded, &h.ts, &h.end);
		if (!keep_row(s, f, r, h.ts, last, &stream)) {
			out->dropped++;
			continue;
		}
		if (stream == -1)
			continue;
		enum tr_kind k = (enum tr_kind)t->ev.kind[r];
		uint32_t nm = t->ev.name[r];
		uint32_t cpu = tr_corr(t, r) >= 0
				   ? hmap_get(&s->rt, hmap_int(tr_corr(t, r)), NULL, NULL)
				   : HMAP_NONE;
		if (cpu != HMAP_NONE) {
			int64_t b;
			h.rt_row = cpu;
			hta_times(t, cpu, s->rounded, &h.rt_ts, &b);
		}
		h.stream = stream;
		h.kernel_cat = tr_is_device(k) || k == TR_ACCEL;
		h.ktype = (uint8_t)hta_name_ktype(t, ktype, nm);
		out->v[out->n++] = h;
	}
	free(ktype);
	vec_fit_((void **)&out->v, &cap, out->n, sizeof *out->v); /* kept by the session */
	return 0;
}

int hta_events(const struct trace *t, struct hta_events *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	struct sel s = {.t = t, .rounded = t->counts.ts_not_whole > 0, .sync = out->sync};
	out->sync[0] = strpool_find(&t->pool, "Event Sync", 10);
	out->sync[1] = strpool_find(&t->pool, "Context Sync", 12);
	out->rounded = s.rounded;
	int rc = 0;
	/* the launching CPU event of each correlation: the last one wins, as
	 * in HTA's assignment of its index_correlation */
	for (size_t r = 0; r < t->ev.n && !rc; r++)
		if (kept(t, r) && !gpu_event(t, r, s.sync) && tr_corr(t, r) >= 0)
			rc = corr_put(&s.rt, tr_corr(t, r), (uint32_t)r, true);
	enum hta_filter f =
	    step_names(t) >= 2 ? (mtia(t) ? HTA_FILTER_MTIA : HTA_FILTER_CUDA) : HTA_FILTER_NONE;
	out->filter = f;
	int64_t last = 0, t1 = 0;
	if (!rc && f == HTA_FILTER_CUDA)
		rc = cuda_keep(&s, &last);
	else if (!rc && f == HTA_FILTER_MTIA)
		rc = mtia_keep(&s, &last, &t1);
	out->lo = last;
	out->hi = t1;
	if (!rc)
		rc = collect(&s, f, last, out);
	hmap_free(&s.rt);
	hmap_free(&s.ok);
	free(s.steps);
	if (rc) {
		hta_events_free(out);
		return err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
	}
	return 0;
}

void hta_events_free(struct hta_events *h)
{
	free(h->v);
	memset(h, 0, sizeof *h);
}

void hta_row_times(const struct trace *t, const struct hta_events *h, size_t r, int64_t *ts,
		   int64_t *end)
{
	hta_times(t, r, h->rounded, ts, end);
}

int64_t hta_row_stream(const struct trace *t, size_t r)
{
	return stream_of(t, r);
}

void hta_launch_ids(const struct trace *t, uint32_t ids[HTA_NLAUNCH])
{
	static const char *const names[HTA_NLAUNCH] = {
	    "cudaLaunchKernel",
	    "cudaLaunchKernelExC",
	    "cuLaunchKernel",
	    "cuLaunchKernelEx",
	    "cudaMemcpyAsync",
	    "cudaMemsetAsync",
	    "runFunction - job_prep_and_submit_for_execution",
	    "hipLaunchKernel",
	    "hipExtModuleLaunchKernel",
	    "hipMemcpyAsync",
	    "hipMemsetAsync",
	    "hipMemcpyWithStream"};
	for (size_t i = 0; i < HTA_NLAUNCH; i++)
		ids[i] = strpool_find(&t->pool, names[i], strlen(names[i]));
}

bool hta_is_launch(const struct trace *t, const uint32_t ids[HTA_NLAUNCH], size_t r)
{
	for (size_t i = 0; i < HTA_NLAUNCH; i++)
		if (ids[i] == t->ev.name[r])
			return true;
	return false;
}

bool hta_cpu_kept(const struct trace *t, const struct hta_events *h, size_t r)
{
	if (!kept(t, r))
		return false;
	int64_t a, b;
	hta_times(t, r, h->rounded, &a, &b);
	switch (h->filter) {
	case HTA_FILTER_CUDA:
		return !gpu_event(t, r, h->sync) && a < h->lo;
	case HTA_FILTER_MTIA:
		return mtia_cpu(t, r) && a >= h->lo && b <= h->hi;
	case HTA_FILTER_NONE:
		break;
	}
	return stream_of(t, r) == -1;
}

bool hta_row_kept(const struct trace *t, size_t r)
{
	return kept(t, r);
}
