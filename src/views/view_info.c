/* view_info: `gpuprof info`, what trace files are, what they hold, and what
 * is wrong with them (GET /api/file/ID/info for one file). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "views/view_int.h"

static const char info_head[] =
    "Usage: gpuprof info [options] TRACE...\n"
    "\n"
    "Describe PyTorch profiler (Kineto) traces: the format (object or array form,\n"
    "gzip), schema version, torch version when recorded, display time unit, time\n"
    "span, GPU properties (deviceProperties), distributed info (rank, world size,\n"
    "backend), event counts per phase and per category, processes and threads,\n"
    "and the input anomalies with the byte offset of the first of each kind.\n"
    "\n"
    "TRACE is a .json or .json.gz file (gzip is detected from the bytes) or '-'\n"
    "for standard input. With several traces, every table has a 'file' column.\n"
    "\n"
    "Options:\n"
    "  --strict   exit 2 when the trace has any anomaly\n";

static const char info_tail[] = "\n"
				"Examples:\n"
				"  gpuprof info run/worker0.pt.trace.json.gz\n"
				"  gpuprof info --format json rank*.json.gz > info.json\n";

struct info_ctx {
	struct report *r;
	bool multi; /* several files: a leading file column */
};

static struct rep_val s_or_null(const struct trace *t, uint32_t id)
{
	return id ? rep_s(tr_str(t, id)) : rep_null();
}

static struct rep_val i_or_null(int64_t v)
{
	return v == INT64_MIN ? rep_null() : rep_i(v);
}

static const char *form_text(const struct trace *t)
{
	if (!t->meta.object_form)
		return t->gzip ? "Kineto chrome-trace JSON (array form), gzip"
			       : "Kineto chrome-trace JSON (array form)";
	return t->gzip ? "Kineto chrome-trace JSON (object form), gzip"
		       : "Kineto chrome-trace JSON (object form)";
}

/* The threads of a trace as info lists them. A thread named by the integer
 * tid N in some events and by the text "N" in others (Kineto's flow events
 * carry integer tids where its other events may carry strings) is one
 * thread: its tracks are merged, into the first. A thread known only from
 * metadata (thread_name) has no events: it is listed with 0 events, not
 * counted. */
struct info_threads {
	size_t *first;	    /* per track: the first track of its thread */
	uint64_t *events;   /* per first track: the events of the thread */
	uint32_t *name;	    /* per first track: the thread's name (0 if none) */
	size_t with_events; /* threads holding at least one event */
};

/* A track's pid and tid texts, found once (not in the comparator: a trace
 * of 60,000 tracks would print them a million times): pid and tid point
 * into the string pool or into the record's own buffers, so the records
 * stay where they are and an order of indexes is sorted. */
struct track_key {
	const char *pid, *tid;
	char pb[32], tb[32];
};

static int cmp_track(const void *a, const void *b, void *arg)
{
	const struct track_key *keys = arg;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(keys[i].pid, keys[j].pid);
	if (!c)
		c = strcmp(keys[i].tid, keys[j].tid);
	if (c)
		return c;
	return i < j ? -1 : 1;
}

static void threads_free(struct info_threads *th)
{
	free(th->first);
	free(th->events);
	free(th->name);
}

/* 0, or -1 out of memory (th zeroed: each track counts as its own thread). */
static int threads_of(const struct trace *t, struct info_threads *th)
{
	size_t n = t->tracks.n;
	memset(th, 0, sizeof *th);
	size_t *ord = malloc((n ? n : 1) * sizeof *ord);
	struct track_key *key = malloc((n ? n : 1) * sizeof *key);
	th->first = malloc((n ? n : 1) * sizeof *th->first);
	th->events = calloc(n ? n : 1, sizeof *th->events);
	th->name = calloc(n ? n : 1, sizeof *th->name);
	if (!ord || !key || !th->first || !th->events || !th->name) {
		free(ord);
		free(key);
		threads_free(th);
		memset(th, 0, sizeof *th);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct tr_track *k = &t->tracks.v[i];
		ord[i] = i;
		key[i].pid = tr_id_text(t, &k->pid, key[i].pb, sizeof key[i].pb);
		key[i].tid = tr_id_text(t, &k->tid, key[i].tb, sizeof key[i].tb);
	}
	gp_qsort_r(ord, n, sizeof *ord, cmp_track, key);
	for (size_t k = 0; k < n; k++) {
		size_t i = ord[k];
		/* the pid and tid texts of the previous track in order */
		bool same = k > 0 && !strcmp(key[ord[k - 1]].pid, key[i].pid) &&
			    !strcmp(key[ord[k - 1]].tid, key[i].tid);
		size_t f = same ? th->first[ord[k - 1]] : i;
		th->first[i] = f;
		th->events[f] += t->tracks.v[i].events;
		if (!th->name[f])
			th->name[f] = t->tracks.v[i].thread_name;
	}
	free(key);
	free(ord);
	for (size_t i = 0; i < n; i++)
		if (th->first[i] == i && th->events[i])
			th->with_events++;
	return 0;
}

static int64_t count_threads(const struct trace *t)
{
	struct info_threads th;
	if (threads_of(t, &th))
		return (int64_t)t->tracks.n;
	threads_free(&th);
	return (int64_t)th.with_events;
}

/* The overview fields, in one place for the section and the table forms. */
#define OVERVIEW(X)                                                                                \
	X("path", "Path", REP_STR, rep_s(t->path))                                                 \
	X("format", "Format", REP_STR, rep_s(form_text(t)))                                        \
	X("file_bytes", "Size on disk", REP_BYTES,                                                 \
	  t->file_bytes >= 0 ? rep_i(t->file_bytes) : rep_null())                                  \
	X("json_bytes", "JSON size", REP_BYTES, rep_i((int64_t)t->counts.bytes))                   \
	X("schema_version", "Schema version", REP_INT, i_or_null(t->meta.schema_version))          \
	X("torch_version", "Torch version", REP_STR, s_or_null(t, t->meta.torch_version))          \
	X("cuda_runtime_version", "CUDA runtime", REP_STR,                                         \
	  s_or_null(t, t->meta.cuda_runtime_version))                                              \
	X("cuda_driver_version", "CUDA driver", REP_STR,                                           \
	  s_or_null(t, t->meta.cuda_driver_version))                                               \
	X("cupti_version", "CUPTI version", REP_STR, s_or_null(t, t->meta.cupti_version))          \
	X("hip_runtime_version", "HIP runtime", REP_STR,                                           \
	  s_or_null(t, t->meta.hip_runtime_version))                                               \
	X("trace_name", "Trace name", REP_STR, s_or_null(t, t->meta.trace_name))                   \
	X("display_time_unit", "Display time unit", REP_STR,                                       \
	  s_or_null(t, t->meta.display_time_unit))                                                 \
	X("time_unit", "Time unit of ts/dur", REP_STR, rep_s("us"))                                \
	X("base_time_ns", "Base time (ns)", REP_INT, i_or_null(t->meta.base_time_ns))              \
	X("first_ts_ns", "First timestamp (ns)", REP_INT,                                          \
	  has_span ? rep_i(t->min_ts) : rep_null())                                                \
	X("trace_start_ns", "Trace start (ns)", REP_STR, rep_s(view_trace_start_text(t, t0s, 32))) \
	X("last_end_ns", "Last end (ns)", REP_INT, has_span ? rep_i(t->max_end) : rep_null())      \
	X("span_ns", "Time span", REP_DUR_NS,                                                      \
	  has_span ? rep_i(t->max_end - t->min_ts) : rep_null())                                   \
	X("events", "Events", REP_INT, rep_i((int64_t)t->counts.events))                           \
	X("threads", "Tracks (pid, tid)", REP_INT, rep_i(count_threads(t)))                        \
	X("steps", "ProfilerStep events", REP_INT, rep_i(steps))                                   \
	X("memory_events", "Memory events ([memory])", REP_INT,                                    \
	  rep_i((int64_t)t->counts.by_kind[TR_MEMORY]))                                            \
	X("kernels", "GPU kernels", REP_INT, rep_i((int64_t)t->counts.by_kind[TR_KERNEL]))         \
	X("dist_backend", "Distributed backend", REP_STR, s_or_null(t, t->meta.dist_backend))      \
	X("dist_rank", "Rank", REP_INT, i_or_null(t->meta.dist_rank))                              \
	X("dist_world_size", "World size", REP_INT, i_or_null(t->meta.dist_world_size))            \
	X("dist_pg_count", "Process groups", REP_INT, i_or_null(t->meta.dist_pg_count))            \
	X("nccl_version", "NCCL version", REP_STR, s_or_null(t, t->meta.dist_nccl_version))        \
	X("anomalies", "Anomalies", REP_INT, rep_i((int64_t)tr_anomalies_total(&t->anomalies)))    \
	X("truncated", "Truncated", REP_BOOL, rep_b(t->anomalies.count[AN_TRUNCATED] > 0))

static int64_t count_steps(const struct trace *t)
{
	int64_t n = 0;
	for (size_t r = 0; r < t->ev.n; r++)
		if ((t->ev.flags[r] & TRF_STEP) && t->ev.kind[r] != TR_GPU_USER_ANNOTATION)
			n++;
	return n;
}

static void overview(struct info_ctx *c, const struct trace *t, bool first)
{
	bool has_span = t->min_ts != INT64_MAX;
	int64_t steps = count_steps(t);
	char t0s[32]; /* trace_start_ns */
	if (!c->multi) {
		rep_kv_begin(c->r, "trace", "Trace");
#define X(key, title, type, val) rep_kv(c->r, key, title, type, val);
		OVERVIEW(X)
#undef X
		rep_kv_end(c->r);
		return;
	}
	static const struct rep_col cols[] = {
#define X(key, title, type, val) {key, title, type},
	    OVERVIEW(X)
#undef X
	};
	const struct rep_val vals[] = {
#define X(key, title, type, val) val,
	    OVERVIEW(X)
#undef X
	};
	if (first)
		rep_table_begin(c->r, "traces", "Traces", cols,
				(int)(sizeof cols / sizeof cols[0]));
	rep_row(c->r, vals);
}

/* The per-trace tables: each is declared once (columns) and filled by a
 * rows function per trace; with several traces a leading file column tells
 * the rows apart. */
struct tab {
	struct info_ctx *c;
	const struct trace *t;
	struct rep_val v[16];
};

static void tab_row(struct tab *b, const struct rep_val *vals, int n)
{
	int k = 0;
	if (b->c->multi)
		b->v[k++] = rep_s(b->t->path);
	for (int i = 0; i < n && k < 16; i++)
		b->v[k++] = vals[i];
	rep_row(b->c->r, b->v);
}

static const struct rep_col devices_cols[] = {
    {"id", "Id", REP_INT},
    {"name", "Name", REP_STR},
    {"total_global_mem_bytes", "Memory", REP_BYTES},
    {"compute_capability", "Compute capability", REP_STR},
    {"num_sms", "SMs", REP_INT},
    {"max_threads_per_sm", "Max threads/SM", REP_INT},
    {"regs_per_sm", "Registers/SM", REP_INT},
    {"shared_mem_per_sm_bytes", "Shared mem/SM", REP_BYTES},
    {"warp_size", "Warp size", REP_INT},
};

static const struct rep_col phases_cols[] = {{"phase", "Phase", REP_STR},
					     {"meaning", "Meaning", REP_STR},
					     {"count", "Count", REP_INT},
					     {"analysed", "Analysed", REP_BOOL}};

static const struct rep_col categories_cols[] = {
    {"category", "Category", REP_STR}, {"kind", "Kind", REP_STR}, {"count", "Events", REP_INT}};

static const struct rep_col threads_cols[] = {{"pid", "PID", REP_STR},
					      {"process_name", "Process", REP_STR},
					      {"tid", "TID", REP_STR},
					      {"thread_name", "Thread", REP_STR},
					      {"events", "Events", REP_INT}};

static const struct rep_col anomalies_cols[] = {{"anomaly", "Anomaly", REP_STR},
						{"count", "Count", REP_INT},
						{"first_offset_bytes", "First at byte", REP_INT},
						{"description", "What", REP_STR}};

static void rows_devices(struct tab *b, const struct trace *t)
{
	for (size_t i = 0; i < t->meta.ndevices; i++) {
		const struct tr_device_prop *d = &t->meta.devices[i];
		char cc[48];
		snprintf(cc, sizeof cc, "%lld.%lld", (long long)d->compute_major,
			 (long long)d->compute_minor);
		bool has_cc = d->compute_major != INT64_MIN && d->compute_minor != INT64_MIN;
		struct rep_val v[] = {i_or_null(d->id),
				      s_or_null(t, d->name),
				      i_or_null(d->total_global_mem),
				      has_cc ? rep_s(cc) : rep_null(),
				      i_or_null(d->num_sms),
				      i_or_null(d->max_threads_per_sm),
				      i_or_null(d->regs_per_sm),
				      i_or_null(d->shared_mem_per_sm),
				      i_or_null(d->warp_size)};
		tab_row(b, v, 9);
	}
}

static void rows_phases(struct tab *b, const struct trace *t)
{
	static const struct {
		char ph;
		const char *what;
	} names[] = {{'X', "complete"},		{'B', "begin"},		 {'E', "end"},
		     {'i', "instant"},		{'I', "instant"},	 {'C', "counter"},
		     {'M', "metadata"},		{'s', "flow start"},	 {'t', "flow step"},
		     {'f', "flow end"},		{'b', "async begin"},	 {'e', "async end"},
		     {'n', "async instant"},	{'N', "object created"}, {'O', "object snapshot"},
		     {'D', "object destroyed"}, {'P', "sample"},	 {'R', "mark"}};
	for (int ph = 0; ph < 128; ph++) {
		if (!t->counts.by_phase[ph])
			continue;
		const char *what = "unknown";
		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
			if (names[i].ph == ph)
				what = names[i].what;
		char p[2] = {(char)ph, 0};
		bool used = strchr("XBEiICMstf", ph) != NULL;
		struct rep_val v[] = {rep_s(p), rep_s(what), rep_i((int64_t)t->counts.by_phase[ph]),
				      rep_b(used)};
		tab_row(b, v, 4);
	}
	if (t->counts.other_phase) {
		struct rep_val v[] = {rep_s("(other)"), rep_s("not a one-letter phase"),
				      rep_i((int64_t)t->counts.other_phase), rep_b(false)};
		tab_row(b, v, 4);
	}
}

static void rows_categories(struct tab *b, const struct trace *t)
{
	for (size_t i = 0; i < t->ncats; i++) {
		const char *cat = tr_str(t, t->cats[i].cat);
		enum tr_kind k = tr_classify(cat, strlen(cat), "", 0, 'X');
		struct rep_val v[] = {rep_s(cat), rep_s(tr_kind_label(k)),
				      rep_i((int64_t)t->cats[i].n)};
		tab_row(b, v, 3);
	}
}

static void rows_threads(struct tab *b, const struct trace *t)
{
	struct info_threads th;
	bool merged = threads_of(t, &th) == 0;
	for (size_t i = 0; i < t->tracks.n; i++) {
		if (merged && th.first[i] != i)
			continue;
		const struct tr_track *tk = &t->tracks.v[i];
		const struct tr_proc *p = &t->procs.v[tk->process];
		char pb[32], tb[32];
		struct rep_val v[] = {rep_s(tr_id_text(t, &tk->pid, pb, sizeof pb)),
				      s_or_null(t, p->name),
				      rep_s(tr_id_text(t, &tk->tid, tb, sizeof tb)),
				      s_or_null(t, merged ? th.name[i] : tk->thread_name),
				      rep_i((int64_t)(merged ? th.events[i] : tk->events))};
		tab_row(b, v, 5);
	}
	if (merged)
		threads_free(&th);
}

static void rows_anomalies(struct tab *b, const struct trace *t)
{
	for (int k = 0; k < AN_COUNT; k++) {
		if (!t->anomalies.count[k])
			continue;
		int64_t off = t->anomalies.first_offset[k];
		struct rep_val v[] = {
		    rep_s(tr_anomaly_key(k)), rep_i((int64_t)t->anomalies.count[k]),
		    off >= 0 ? rep_i(off) : rep_null(), rep_s(tr_anomaly_desc(k))};
		tab_row(b, v, 4);
	}
}

#define NCOLS(a) ((int)(sizeof a / sizeof a[0]))

static const struct info_table {
	const char *name, *title;
	const struct rep_col *cols;
	int ncols;
	void (*rows)(struct tab *b, const struct trace *t);
} tables[] = {
    {"devices", "Devices (deviceProperties)", devices_cols, NCOLS(devices_cols), rows_devices},
    {"phases", "Events per phase", phases_cols, NCOLS(phases_cols), rows_phases},
    {"categories", "Events per category (X, B/E, instants)", categories_cols,
     NCOLS(categories_cols), rows_categories},
    {"threads", "Processes and threads", threads_cols, NCOLS(threads_cols), rows_threads},
    {"anomalies", "Anomalies (byte offsets in the uncompressed JSON)", anomalies_cols,
     NCOLS(anomalies_cols), rows_anomalies},
};

static void emit_table(struct info_ctx *c, const struct info_table *tb,
		       const struct trace *const *ts, size_t n)
{
	static const struct rep_col file_col = {"file", "File", REP_STR};
	struct rep_col all[16];
	int k = 0;
	if (c->multi)
		all[k++] = file_col;
	for (int i = 0; i < tb->ncols && k < 16; i++)
		all[k++] = tb->cols[i];
	rep_table_begin(c->r, tb->name, tb->title, all, k);
	struct tab b = {.c = c};
	for (size_t i = 0; i < n; i++) {
		b.t = ts[i];
		tb->rows(&b, ts[i]);
	}
	rep_table_end(c->r);
}

/* info has no results of its own: it reads the traces' counts (v's ts). */
static int info_compute(struct view *v, const struct view_source *src, struct err *e)
{
	(void)v;
	(void)src;
	(void)e;
	return 0;
}

static void info_emit(struct view *v, struct report *r)
{
	struct info_ctx c = {.r = r, .multi = v->nts > 1};
	for (size_t i = 0; i < v->nts; i++)
		overview(&c, v->ts[i], i == 0);
	if (c.multi)
		rep_table_end(c.r);
	for (size_t k = 0; k < sizeof tables / sizeof tables[0]; k++)
		emit_table(&c, &tables[k], v->ts, v->nts);
}

static void info_free(struct view *v)
{
	(void)v;
}

const struct view_decl view_info_decl = {
    .kind = VIEW_INFO,
    .name = "info",
    .summary = "what a trace is: format, versions, devices, counts, anomalies",
    .help_head = info_head,
    .help_tail = info_tail,
    .flags = VIEW_MANY | VIEW_WHOLE_FILE | VIEW_OWN_ANOMALIES,
    .compute = info_compute,
    .emit = info_emit,
    .free = info_free,
};
