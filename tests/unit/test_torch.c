/* Importer tests on small hand-written traces; expected values are counted
 * by hand from the fixture text. */
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include "trace/trace.h"
#include "kineto/kineto.h"
#include "test.h"

static struct trace *load_text(struct t *t, const char *text, struct err *e)
{
	(void)e;
	return t_load_text(t, text);
}

static size_t find_name(const struct trace *tr, const char *name)
{
	for (size_t r = 0; r < tr->ev.n; r++)
		if (!strcmp(tr_str(tr, tr->ev.name[r]), name))
			return r;
	return SIZE_MAX;
}

static const char object_trace[] =
    "{\n  \"schemaVersion\": 1,\n"
    "  \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100\", \"totalGlobalMem\": "
    "85045477376,"
    " \"computeMajor\": 9, \"computeMinor\": 0, \"numSms\": 132}],\n"
    "  \"displayTimeUnit\": \"ms\", \"baseTimeNanoseconds\": 1700000000000000000,\n"
    "  \"traceEvents\": [\n"
    "  {\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 7, \"tid\": 0, \"args\": {\"name\": "
    "\"python\"}},\n"
    "  {\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 7, \"tid\": 9, \"args\": {\"name\": "
    "\"main\"}},\n"
    "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"ProfilerStep#3\", \"pid\": 7, \"tid\": 9,"
    " \"ts\": 100.5, \"dur\": 50, \"args\": {\"External id\": 1}},\n"
    "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 7, \"tid\": 9,"
    " \"ts\": 101, \"dur\": 10.25, \"args\": {\"External id\": 2, \"Input Dims\": [[2, 3], [3, 4]],"
    " \"Input type\": [\"float\", \"float\"], \"Sequence number\": 5}},\n"
    "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 7, "
    "\"tid\": 9,"
    " \"ts\": 102, \"dur\": 3, \"args\": {\"External id\": 2, \"correlation\": 77}},\n"
    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"sm90_xmma_gemm\", \"pid\": 0, \"tid\": 7,"
    " \"ts\": 104, \"dur\": 20.001, \"args\": {\"External id\": 2, \"correlation\": 77, "
    "\"device\": 0,"
    " \"stream\": 7, \"grid\": [128, 2, 1], \"block\": [256, 1, 1], \"registers per thread\": 168,"
    " \"shared memory\": 232448, \"blocks per SM\": 1.939394, \"warps per SM\": 15.515152,"
    " \"est. achieved occupancy %\": 12}},\n"
    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"orphan\", \"pid\": 0, \"tid\": 7,"
    " \"ts\": 130, \"dur\": 1, \"args\": {\"correlation\": 999}},\n"
    "  {\"ph\": \"s\", \"id\": 77, \"pid\": 7, \"tid\": 9, \"ts\": 102, \"cat\": \"ac2g\", "
    "\"name\": \"ac2g\"},\n"
    "  {\"ph\": \"f\", \"id\": 77, \"pid\": 0, \"tid\": 7, \"ts\": 104, \"cat\": \"ac2g\", "
    "\"name\": \"ac2g\", \"bp\": \"e\"},\n"
    "  {\"ph\": \"f\", \"id\": 78, \"pid\": 0, \"tid\": 7, \"ts\": 104, \"cat\": \"ac2g\", "
    "\"name\": \"ac2g\", \"bp\": \"e\"},\n"
    "  {\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": \"[memory]\", \"pid\": 7, "
    "\"tid\": 9, \"ts\": 103,"
    " \"s\": \"t\", \"args\": {\"Total Reserved\": 2097152, \"Total Allocated\": 512, \"Bytes\": "
    "512,"
    " \"Addr\": 139637223538688, \"Device Id\": 0, \"Device Type\": 1}},\n"
    "  {\"ph\": \"C\", \"name\": \"mem\", \"pid\": 7, \"tid\": 9, \"ts\": 104, \"args\": "
    "{\"used\": 3.5, \"free\": 1}},\n"
    "  {\"ph\": \"B\", \"name\": \"outer\", \"pid\": \"Spans\", \"tid\": \"a\", \"ts\": 200, "
    "\"cat\": \"user_annotation\"},\n"
    "  {\"ph\": \"B\", \"name\": \"inner\", \"pid\": \"Spans\", \"tid\": \"a\", \"ts\": 201, "
    "\"cat\": \"user_annotation\"},\n"
    "  {\"ph\": \"E\", \"pid\": \"Spans\", \"tid\": \"a\", \"ts\": 205},\n"
    "  {\"ph\": \"E\", \"pid\": \"Spans\", \"tid\": \"a\", \"ts\": 210},\n"
    "  {\"ph\": \"E\", \"pid\": \"Spans\", \"tid\": \"a\", \"ts\": 211},\n"
    "  {\"ph\": \"b\", \"name\": \"async\", \"pid\": 7, \"tid\": 9, \"ts\": 1, \"id\": 1}\n"
    "  ],\n"
    "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 3, \"world_size\": 8, \"pg_count\": "
    "2,"
    " \"nccl_version\": \"2.21.5\"},\n"
    "  \"traceName\": \"t.json\", \"metadata\": {\"system\": {\"torch_version\": \"2.6.0\"}}\n"
    "}\n";

void test_torch_object_form(struct t *t)
{
	struct err e = {0};
	struct trace *tr = load_text(t, object_trace, &e);
	if (!tr)
		return;
	CHECK(t, tr->meta.object_form);
	CHECK_INT(t, tr->meta.schema_version, 1);
	CHECK_STR(t, tr_str(tr, tr->meta.display_time_unit), "ms");
	CHECK_INT(t, tr->meta.base_time_ns, 1700000000000000000LL);
	CHECK_STR(t, tr_str(tr, tr->meta.torch_version), "2.6.0");
	CHECK_STR(t, tr_str(tr, tr->meta.trace_name), "t.json");
	CHECK_INT(t, tr->meta.ndevices, 1);
	CHECK_STR(t, tr_str(tr, tr->meta.devices[0].name), "NVIDIA H100");
	CHECK_INT(t, tr->meta.devices[0].num_sms, 132);
	CHECK_INT(t, tr->meta.devices[0].total_global_mem, 85045477376LL);
	CHECK_INT(t, tr->meta.dist_rank, 3);
	CHECK_INT(t, tr->meta.dist_world_size, 8);
	CHECK_STR(t, tr_str(tr, tr->meta.dist_backend), "nccl");
	CHECK_STR(t, tr_str(tr, tr->meta.dist_nccl_version), "2.21.5");
	CHECK_INT(t, tr->counts.events, 18);
	CHECK_INT(t, tr->counts.by_phase['X'], 5);
	CHECK_INT(t, tr->counts.by_phase['E'], 3);
	CHECK_INT(t, tr->counts.by_phase['M'], 2);
	CHECK_INT(t, tr->counts.ignored_phase, 1); /* the async 'b' */
	CHECK_INT(t, tr->ev.n, 8);		   /* 5 X + 2 B + 1 instant */
	CHECK_INT(t, tr->counts.by_kind[TR_KERNEL], 2);
	CHECK_INT(t, tr->counts.by_kind[TR_MEMORY], 1);

	size_t step = find_name(tr, "ProfilerStep#3");
	CHECK(t, step != SIZE_MAX && (tr->ev.flags[step] & TRF_STEP));
	CHECK_INT(t, tr->ev.ts[step], 100500);
	CHECK_INT(t, tr_dur(tr, step), 50000);
	size_t mm = find_name(tr, "aten::mm");
	CHECK_INT(t, tr_dur(tr, mm), 10250);
	CHECK(t, tr->ev.aux[mm] != TR_NONE);
	if (tr->ev.aux[mm] != TR_NONE) {
		const struct tr_op_arg *o = &tr->op.v[tr->ev.aux[mm]];
		CHECK_STR(t, tr_str(tr, o->input_dims), "[[2, 3], [3, 4]]");
		CHECK_STR(t, tr_str(tr, o->input_type), "[\"float\", \"float\"]");
		CHECK_INT(t, o->seq, 5);
	}
	size_t k = find_name(tr, "sm90_xmma_gemm");
	CHECK_INT(t, tr->ev.kind[k], TR_KERNEL);
	CHECK_INT(t, tr_corr(tr, k), 77);
	CHECK_INT(t, tr_ext_id(tr, k), 2);
	CHECK_INT(t, tr_dur(tr, k), 20001);
	const struct tr_gpu_arg *g = &tr->gpu.v[tr->ev.aux[k]];
	CHECK_INT(t, g->grid[0], 128);
	CHECK_INT(t, g->grid[1], 2);
	CHECK_INT(t, g->block[0], 256);
	CHECK_INT(t, g->regs, 168);
	CHECK_INT(t, g->shared_mem, 232448);
	CHECK(t, g->blocks_per_sm == 1.939394);
	CHECK(t, g->occupancy == 12.0);
	CHECK_INT(t, g->stream, 7);
	size_t mem = find_name(tr, "[memory]");
	CHECK_INT(t, tr->ev.kind[mem], TR_MEMORY);
	const struct tr_mem_arg *ma = &tr->mem.v[tr->ev.aux[mem]];
	CHECK_INT(t, ma->bytes, 512);
	CHECK_INT(t, ma->total_reserved, 2097152);
	CHECK_INT(t, ma->device_type, 1);
	CHECK_INT(t, (int64_t)ma->addr, 139637223538688LL);
	CHECK_INT(t, tr->counters.n, 2);
	CHECK_INT(t, tr->flows.n, 3);
	size_t outer = find_name(tr, "outer"), inner = find_name(tr, "inner");
	CHECK_INT(t, tr_dur(tr, outer), 10000);
	CHECK_INT(t, tr_dur(tr, inner), 4000);
	CHECK(t, tr->ev.flags[outer] & TRF_FROM_BE);
	/* anomalies: kernel 'orphan' has no launch, flow 78 has one end, the
	 * third E is unmatched */
	CHECK_INT(t, tr->anomalies.count[AN_KERNEL_NO_LAUNCH], 1);
	CHECK_INT(t, tr->anomalies.count[AN_FLOW_ONE_END], 1);
	CHECK_INT(t, tr->anomalies.count[AN_UNMATCHED_E], 1);
	CHECK_INT(t, tr->anomalies.first_offset[AN_UNMATCHED_E],
		  strstr(object_trace,
			 "{\"ph\": \"E\", \"pid\": \"Spans\", \"tid\": \"a\", \"ts\": 211") -
		      object_trace);
	CHECK_INT(t, tr_anomalies_total(&tr->anomalies), 3);
	/* tracks: (7,9), (0,7), ("Spans","a") */
	CHECK_INT(t, tr->tracks.n, 3);
	CHECK_STR(t, tr_str(tr, tr->tracks.v[0].thread_name), "main");
	CHECK_STR(t, tr_str(tr, tr->procs.v[tr->tracks.v[0].process].name), "python");
	CHECK_INT(t, tr->min_ts, 100500);
	CHECK_INT(t, tr->max_end, 210000); /* the unmatched E is not kept */
	tr_free(tr);
}

void test_torch_truncated(struct t *t)
{
	/* Cut inside the third event: two events kept, truncation reported at
	 * the start of the cut event. */
	const char *text = "[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":1,"
			   "\"ts\":1,\"dur\":5},\n"
			   " {\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"b\",\"pid\":1,\"tid\":1,"
			   "\"ts\":2,\"dur\":1},\n"
			   " {\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"c\",\"pid\":1,\"t";
	struct err e = {0};
	struct trace *tr = load_text(t, text, &e);
	if (!tr)
		return;
	CHECK(t, !tr->meta.object_form);
	CHECK_INT(t, tr->ev.n, 2);
	CHECK_INT(t, tr->anomalies.count[AN_TRUNCATED], 1);
	CHECK_INT(t, tr->anomalies.first_offset[AN_TRUNCATED],
		  strstr(text, "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"c\"") - text);
	tr_free(tr);
}

void test_torch_anomalies(struct t *t)
{
	const char *text =
	    "{\"traceEvents\": [\n"
	    "5,\n"						 /* not an object */
	    "{\"cat\":\"cpu_op\",\"name\":\"noph\",\"ts\":1},\n" /* missing ph */
	    "{\"ph\":\"X\",\"name\":\"nots\",\"dur\":1},\n"	 /* missing ts */
	    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"z\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":"
	    "0},\n" /* zero ts + zero dur */
	    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"p\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":"
	    "10},\n"
	    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"q\",\"pid\":1,\"tid\":1,\"ts\":15,\"dur\":"
	    "10},\n" /* overlaps p */
	    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"n\",\"pid\":1,\"tid\":1,\"ts\":\"x\","
	    "\"dur\":-3},\n" /* bad ts */
	    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"neg\",\"pid\":1,\"tid\":2,\"ts\":50,"
	    "\"dur\":-3},\n"
	    "{\"ph\":\"B\",\"cat\":\"cpu_op\",\"name\":\"open\",\"pid\":1,\"tid\":3,\"ts\":60},\n"
	    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"nan\",\"pid\":1,\"tid\":4,\"ts\":70,"
	    "\"dur\":1,\"args\":{\"x\":NaN}},\n"
	    "]}";
	struct err e = {0};
	struct trace *tr = load_text(t, text, &e);
	if (!tr)
		return;
	const struct tr_anomalies *a = &tr->anomalies;
	CHECK_INT(t, a->count[AN_NOT_OBJECT], 1);
	CHECK_INT(t, a->first_offset[AN_NOT_OBJECT], 18);
	CHECK_INT(t, a->count[AN_MISSING_PH], 1);
	CHECK_INT(t, a->count[AN_MISSING_TS], 2); /* "nots" and the unreadable "x" */
	CHECK_INT(t, a->count[AN_BAD_NUMBER], 1);
	CHECK_INT(t, a->count[AN_ZERO_TS], 1);
	CHECK_INT(t, a->count[AN_ZERO_DUR], 1);
	CHECK_INT(t, a->count[AN_NEGATIVE_DUR], 1);
	CHECK_INT(t, a->count[AN_OVERLAP], 1);
	CHECK_INT(t, a->first_offset[AN_OVERLAP],
		  strstr(text, "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"p\"") - text);
	CHECK_INT(t, a->count[AN_UNMATCHED_B], 1);
	CHECK_INT(t, a->count[AN_NONSTANDARD], 2); /* NaN and the trailing comma */
	CHECK_INT(t, tr->counts.events, 10);
	tr_free(tr);
}

void test_torch_syntax_error(struct t *t)
{
	const char *text = "{\"traceEvents\": [{\"ph\":\"X\" \"ts\":1}]}";
	char *path = t_write_tmp(text, strlen(text));
	struct trace *tr = NULL;
	struct err e = {0};
	CHECK_INT(t, kineto_load(path, NULL, &tr, &e), ERR_FORMAT);
	CHECK(t, tr == NULL);
	CHECK_INT(t, e.offset, 27);
	CHECK_STR(t, e.msg, "expected ',' or '}', found a string");
	unlink(path);
	free(path);
	struct trace *tr2 = NULL;
	CHECK_INT(t, kineto_load("/nonexistent/x.json", NULL, &tr2, &e), ERR_IO);
}

/* A trace larger than the read buffer, gzip in two members, with one event
 * larger than a read chunk: exercises refills and member boundaries. */
void test_torch_big_gzip(struct t *t)
{
	size_t cap = 24u << 20, n = 0;
	char *text = malloc(cap);
	n += (size_t)sprintf(text + n, "{\"traceEvents\": [\n");
	int events = 0;
	while (n < cap - (6u << 20)) {
		n += (size_t)sprintf(
		    text + n,
		    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k%d\", \"pid\": 0, "
		    "\"tid\": %d, "
		    "\"ts\": %d.%03d, \"dur\": 1.5, \"args\": {\"correlation\": %d}},\n",
		    events % 50, events % 4, events * 2 + 10, events % 1000, events);
		n += (size_t)sprintf(
		    text + n,
		    "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
		    "\"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": 1, \"args\": {\"correlation\": "
		    "%d}},\n",
		    events * 2 + 10, events);
		events++;
	}
	/* one 5 MiB name */
	n += (size_t)sprintf(text + n, "  {\"ph\": \"i\", \"name\": \"");
	memset(text + n, 'x', 5u << 20);
	n += 5u << 20;
	n += (size_t)sprintf(text + n, "\", \"pid\": 1, \"tid\": 1, \"ts\": 5}\n]}\n");
	char path[] = "/tmp/gpuprof-test-gz-XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	gzFile gz = gzopen(path, "wb1");
	size_t half = n / 2;
	gzwrite(gz, text, (unsigned)half);
	gzclose(gz);
	gz = gzopen(path, "ab1"); /* second member */
	gzwrite(gz, text + half, (unsigned)(n - half));
	gzclose(gz);
	struct trace *tr = NULL;
	struct err e = {0};
	int rc = kineto_load(path, NULL, &tr, &e);
	CHECK_INT(t, rc, 0);
	if (tr) {
		CHECK(t, tr->gzip);
		CHECK_INT(t, tr->counts.bytes, n);
		CHECK_INT(t, tr->counts.events, 2 * events + 1);
		CHECK_INT(t, tr->counts.by_kind[TR_KERNEL], events);
		CHECK_INT(t, tr->counts.by_kind[TR_RUNTIME], events);
		CHECK_INT(t, tr->tracks.n, 5);
		for (int k = 0; k < AN_COUNT; k++)
			if (tr->anomalies.count[k])
				t_fail(t, __FILE__, __LINE__, "anomaly %s: %llu", tr_anomaly_key(k),
				       (unsigned long long)tr->anomalies.count[k]);
		size_t last = tr->ev.n - 1;
		CHECK_INT(t, strpool_len(&tr->pool, tr->ev.name[last]), 5u << 20);
		tr_free(tr);
	}
	unlink(path);
	free(text);
}

/* The two-thread import must give exactly the serial tables. The trace has
 * B/E pairs spanning windows, names containing "}, {" (false split points),
 * metadata, flows, counters and memory events; splits are forced often. */
static bool same_tables(struct t *t, const struct trace *a, const struct trace *b)
{
	int fails = t->failed_checks;
	CHECK_INT(t, a->ev.n, b->ev.n);
	CHECK_INT(t, a->counts.events, b->counts.events);
	CHECK_INT(t, a->flows.n, b->flows.n);
	CHECK_INT(t, a->counters.n, b->counters.n);
	CHECK_INT(t, a->tracks.n, b->tracks.n);
	CHECK_INT(t, a->ncats, b->ncats);
	CHECK_INT(t, a->min_ts, b->min_ts);
	CHECK_INT(t, a->max_end, b->max_end);
	for (int k = 0; k < AN_COUNT; k++) {
		CHECK_INT(t, a->anomalies.count[k], b->anomalies.count[k]);
		CHECK_INT(t, a->anomalies.first_offset[k], b->anomalies.first_offset[k]);
	}
	for (int k = 0; k < 128; k++)
		CHECK_INT(t, a->counts.by_phase[k], b->counts.by_phase[k]);
	if (t->failed_checks != fails)
		return false;
	for (size_t i = 0; i < a->ncats; i++) {
		CHECK_STR(t, tr_str(a, a->cats[i].cat), tr_str(b, b->cats[i].cat));
		CHECK_INT(t, a->cats[i].n, b->cats[i].n);
	}
	for (size_t k = 0; k < a->tracks.n; k++) {
		char x[32], y[32];
		CHECK_STR(t, tr_id_text(a, &a->tracks.v[k].tid, x, 32),
			  tr_id_text(b, &b->tracks.v[k].tid, y, 32));
		CHECK_STR(t, tr_str(a, a->tracks.v[k].thread_name),
			  tr_str(b, b->tracks.v[k].thread_name));
		CHECK_INT(t, a->tracks.v[k].events, b->tracks.v[k].events);
	}
	for (size_t r = 0; r < a->ev.n && t->failed_checks == fails; r++) {
		CHECK_INT(t, a->ev.ts[r], b->ev.ts[r]);
		CHECK_INT(t, tr_dur(a, r), tr_dur(b, r));
		CHECK_INT(t, a->ev.track[r], b->ev.track[r]);
		CHECK_INT(t, a->ev.kind[r], b->ev.kind[r]);
		CHECK_INT(t, a->ev.flags[r], b->ev.flags[r]);
		CHECK_INT(t, a->ev.offset[r], b->ev.offset[r]);
		CHECK_INT(t, tr_corr(a, r), tr_corr(b, r));
		CHECK_STR(t, tr_str(a, a->ev.name[r]), tr_str(b, b->ev.name[r]));
		CHECK_INT(t, a->ev.aux[r] == TR_NONE, b->ev.aux[r] == TR_NONE);
		if (a->ev.aux[r] != TR_NONE && a->ev.kind[r] == TR_CPU_OP)
			CHECK_STR(t, tr_str(a, a->op.v[a->ev.aux[r]].input_dims),
				  tr_str(b, b->op.v[b->ev.aux[r]].input_dims));
		if (a->ev.aux[r] != TR_NONE && a->ev.kind[r] == TR_KERNEL)
			CHECK_INT(t, a->gpu.v[a->ev.aux[r]].grid[0],
				  b->gpu.v[b->ev.aux[r]].grid[0]);
	}
	return t->failed_checks == fails;
}

void test_torch_parallel_same(struct t *t)
{
	size_t cap = 3u << 20, n = 0;
	char *text = malloc(cap);
	n += (size_t)sprintf(text + n, "{\"schemaVersion\": 1, \"traceEvents\": [\n");
	for (int i = 0; n < cap - 4096; i++) {
		int tid = i % 5;
		n += (size_t)sprintf(text + n,
				     "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op}, "
				     "{\\\"x%d\", \"pid\": 1, \"tid\": %d, "
				     "\"ts\": %d, \"dur\": 3, \"args\": {\"Input Dims\": [[%d, "
				     "2]], \"External id\": %d}},\n",
				     i % 37, tid, 10 * i + 1, i % 11, i);
		if (i % 7 == 0)
			n += (size_t)sprintf(
			    text + n,
			    "{\"ph\": \"B\", \"cat\": \"user_annotation\", \"name\": \"b%d\", "
			    "\"pid\": \"P\", \"tid\": \"x\", \"ts\": %d},\n",
			    i, 10 * i + 2);
		if (i % 7 == 3)
			n += (size_t)sprintf(
			    text + n,
			    "{\"ph\": \"E\", \"pid\": \"P\", \"tid\": \"x\", \"ts\": %d},\n",
			    10 * i + 2);
		if (i % 13 == 0)
			n += (size_t)sprintf(
			    text + n,
			    "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": %d, "
			    "\"args\": {\"name\": \"t%d\"}},\n",
			    100 + i % 50, i);
		if (i % 5 == 0)
			n += (size_t)sprintf(
			    text + n,
			    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k%d\", \"pid\": 0, "
			    "\"tid\": 7, \"ts\": %d, "
			    "\"dur\": 4, \"args\": {\"correlation\": %d, \"grid\": [%d, 1, 1]}},\n"
			    "{\"ph\": \"f\", \"id\": %d, \"pid\": 0, \"tid\": 7, \"ts\": %d, "
			    "\"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"},\n"
			    "{\"ph\": \"C\", \"name\": \"c\", \"pid\": 1, \"tid\": 1, \"ts\": %d, "
			    "\"args\": {\"v\": %d}},\n"
			    "{\"ph\": \"i\", \"name\": \"[memory]\", \"pid\": 1, \"tid\": 1, "
			    "\"ts\": %d, \"args\": {\"Bytes\": %d}},\n",
			    i % 3, 10 * i + 1, i, i % 9, i, 10 * i + 1, 10 * i, i, 10 * i, i);
	}
	n += (size_t)sprintf(
	    text + n,
	    "{\"ph\": \"i\", \"name\": \"end\", \"pid\": 1, \"tid\": 1, \"ts\": 5}\n]}\n");
	char *path = t_write_tmp(text, n);
	struct trace *a = NULL, *b = NULL;
	struct err e = {0};
	struct kineto_opts serial = {.threads = 1},
			   par = {.threads = 2, .split_min = 2048, .window = 16384};
	CHECK_INT(t, kineto_load(path, &serial, &a, &e), 0);
	CHECK_INT(t, kineto_load(path, &par, &b, &e), 0);
	if (a && b && same_tables(t, a, b)) {
		CHECK(t, a->ev.n > 10000);
		CHECK(t, a->counts.by_phase['B'] > 1000);
		CHECK_INT(t, a->anomalies.count[AN_UNMATCHED_B] + a->counts.by_phase['E'],
			  a->counts.by_phase['B']);
		CHECK_INT(t, a->counts.merged_windows, 0);
		CHECK(t, b->counts.merged_windows > 100); /* the second thread did work */
	}
	tr_free(a);
	tr_free(b);
	unlink(path);
	free(path);
	free(text);
}

/* The generator counts what it writes; the importer must count the same,
 * serial and parallel, and find exactly the injected anomalies. */
#include "synth/synth.h"

static void check_synth(struct t *t, const struct synth_stats *st, const struct trace *tr)
{
	CHECK_INT(t, tr->counts.events, st->events);
	CHECK_INT(t, tr->counts.bytes, st->bytes);
	CHECK_INT(t, tr->counts.by_phase['X'], st->ph_X);
	CHECK_INT(t, tr->counts.by_phase['B'], st->ph_B);
	CHECK_INT(t, tr->counts.by_phase['E'], st->ph_E);
	CHECK_INT(t, tr->counts.by_phase['i'], st->ph_i);
	CHECK_INT(t, tr->counts.by_phase['s'], st->ph_s);
	CHECK_INT(t, tr->counts.by_phase['f'], st->ph_f);
	CHECK_INT(t, tr->counts.by_phase['M'], st->ph_M);
	CHECK_INT(t, tr->counts.by_kind[TR_KERNEL], st->kernel);
	CHECK_INT(t, tr->counts.by_kind[TR_RUNTIME], st->cuda_runtime);
	CHECK_INT(t, tr->counts.by_kind[TR_MEMCPY], st->gpu_memcpy);
	CHECK_INT(t, tr->counts.by_kind[TR_MEMSET], st->gpu_memset);
	CHECK_INT(t, tr->counts.by_kind[TR_MEMORY], st->memory);
	CHECK_INT(t, tr->counts.by_kind[TR_GPU_USER_ANNOTATION], st->gpu_user_annotation);
	CHECK_INT(t, tr->counts.by_kind[TR_CPU_OP], st->cpu_op);
	CHECK_INT(t, tr->anomalies.count[AN_KERNEL_NO_LAUNCH], st->an_orphan_kernels);
	CHECK_INT(t, tr->anomalies.count[AN_ZERO_DUR], st->an_zero_dur);
	CHECK_INT(t, tr->anomalies.count[AN_OVERLAP], st->an_partial_overlaps);
	CHECK_INT(t, tr->anomalies.count[AN_FLOW_ONE_END], st->an_flow_s_only);
	CHECK_INT(t, tr->anomalies.count[AN_UNMATCHED_B], st->an_unmatched_b);
	CHECK_INT(t, tr->anomalies.count[AN_TRUNCATED], st->truncated);
	uint64_t injected = st->an_orphan_kernels + st->an_zero_dur + st->an_partial_overlaps +
			    st->an_flow_s_only + st->an_unmatched_b + st->truncated;
	CHECK_INT(t, tr_anomalies_total(&tr->anomalies), injected);
}

void test_torch_synth_counts(struct t *t)
{
	static const struct {
		bool anomalies, truncate, gzip;
		uint64_t size;
	} cases[] = {{false, false, false, 0},
		     {true, false, false, 0},
		     {true, true, true, 0},
		     {false, false, true, 12u << 20}};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		struct synth_opts o;
		synth_opts_init(&o);
		o.anomalies = cases[c].anomalies;
		o.truncate = cases[c].truncate;
		o.gzip = cases[c].gzip;
		o.size = cases[c].size;
		o.seed = 7 + c;
		char path[] = "/tmp/gpuprof-synth-XXXXXX";
		int fd = mkstemp(path);
		FILE *f = fdopen(fd, "w");
		struct synth_stats st;
		struct err e = {0};
		CHECK_INT(t, synth_write(&o, f, &st, &e), 0);
		fclose(f);
		if (o.anomalies)
			CHECK_INT(t,
				  st.an_orphan_kernels + st.an_zero_dur + st.an_partial_overlaps +
				      st.an_flow_s_only + st.an_unmatched_b,
				  5);
		for (int threads = 1; threads <= 2; threads++) {
			struct kineto_opts lo = {.threads = threads,
						 .split_min = 65536,
						 .window = threads == 2 ? 1u << 20 : 0};
			struct trace *tr = NULL;
			CHECK_INT(t, kineto_load(path, &lo, &tr, &e), 0);
			if (tr) {
				check_synth(t, &st, tr);
				CHECK_INT(t, tr->gzip, o.gzip);
				tr_free(tr);
			}
		}
		unlink(path);
	}
}

/* Values that do not fit the 32-bit columns (durations over 4.29 s, ids
 * over 2^32 or negative) read back exactly, serial and two-thread. */
void test_torch_wide_values(struct t *t)
{
	size_t cap = 1u << 20, n = 0;
	char *text = malloc(cap);
	n += (size_t)sprintf(text + n, "[\n");
	int rows = 0;
	for (int i = 0; n < cap - 512; i++, rows++)
		n += (size_t)sprintf(text + n,
				     "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"w\", "
				     "\"pid\": 1, \"tid\": %d, "
				     "\"ts\": %d, \"dur\": %s, \"args\": {\"External id\": %s, "
				     "\"correlation\": %d}},\n",
				     i, 10 + i, i % 3 == 0 ? "5000000.5" : "1.25",
				     i % 4 == 0 ? "5000000000" : "17", i % 5 == 0 ? -7 : i);
	n += (size_t)sprintf(
	    text + n, "{\"ph\": \"B\", \"name\": \"long\", \"pid\": 2, \"tid\": 2, \"ts\": 1},\n"
		      "{\"ph\": \"E\", \"pid\": 2, \"tid\": 2, \"ts\": 9000000}]\n");
	char *path = t_write_tmp(text, n);
	for (int threads = 1; threads <= 2; threads++) {
		struct kineto_opts o = {.threads = threads, .split_min = 4096, .window = 65536};
		struct trace *tr = NULL;
		struct err e = {0};
		CHECK_INT(t, kineto_load(path, &o, &tr, &e), 0);
		if (!tr)
			continue;
		CHECK_INT(t, tr->ev.n, rows + 1);
		int bad = 0;
		for (int i = 0; i < rows && !bad; i++) {
			bad |= tr_dur(tr, (size_t)i) != (i % 3 == 0 ? 5000000500LL : 1250);
			bad |= tr_ext_id(tr, (size_t)i) != (i % 4 == 0 ? 5000000000LL : 17);
			bad |= tr_corr(tr, (size_t)i) != (i % 5 == 0 ? -7 : i);
			if (bad)
				t_fail(t, __FILE__, __LINE__, "threads %d: row %d reads back wrong",
				       threads, i);
		}
		CHECK_INT(t, tr_dur(tr, (size_t)rows), 8999999000LL);
		CHECK_INT(t, tr_corr(tr, (size_t)rows), -1);
		if (threads == 2)
			CHECK(t, tr->counts.merged_windows > 3);
		tr_free(tr);
	}
	unlink(path);
	free(path);
	free(text);
}

#include "trace/link.h"

void test_torch_links(struct t *t)
{
	/* r1 launches k1 and k2 (same correlation); d1 is a driver call
	 * launching k3; k4 has no launcher. */
	const char *text = "[{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"r1\",\"pid\":1,"
			   "\"tid\":1,\"ts\":1,\"dur\":1,\"args\":{\"correlation\":5}},\n"
			   " {\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k1\",\"pid\":0,\"tid\":7,"
			   "\"ts\":3,\"dur\":1,\"args\":{\"correlation\":5}},\n"
			   " {\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k2\",\"pid\":0,\"tid\":8,"
			   "\"ts\":3,\"dur\":1,\"args\":{\"correlation\":5}},\n"
			   " {\"ph\":\"X\",\"cat\":\"cuda_driver\",\"name\":\"d1\",\"pid\":1,"
			   "\"tid\":1,\"ts\":5,\"dur\":1,\"args\":{\"correlation\":6}},\n"
			   " {\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k3\",\"pid\":0,\"tid\":7,"
			   "\"ts\":7,\"dur\":1,\"args\":{\"correlation\":6}},\n"
			   " {\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"k4\",\"pid\":0,"
			   "\"tid\":7,\"ts\":9,\"dur\":1,\"args\":{\"correlation\":9}}]";
	struct err e = {0};
	struct trace *tr = load_text(t, text, &e);
	if (!tr)
		return;
	struct tr_links l;
	CHECK_INT(t, tr_links_build(tr, false, &l, &e), 0);
	CHECK_INT(t, l.launcher[1], 0);
	CHECK_INT(t, l.launcher[2], 0);
	CHECK_INT(t, l.launcher[4], TR_NONE);
	CHECK_INT(t, l.launcher[5], TR_NONE);
	size_t nd;
	const uint32_t *d = tr_links_devices(&l, 0, &nd);
	CHECK_INT(t, nd, 2);
	CHECK(t, d && d[0] == 1 && d[1] == 2);
	CHECK(t, tr_links_devices(&l, 3, &nd) == NULL && nd == 0);
	CHECK_INT(t, l.ndev, 2);
	CHECK_INT(t, l.nseg, 1);
	tr_links_free(&l);
	CHECK_INT(t, tr_links_build(tr, true, &l, &e), 0);
	CHECK_INT(t, l.launcher[4], 3);
	d = tr_links_devices(&l, 3, &nd);
	CHECK(t, nd == 1 && d[0] == 4);
	CHECK_INT(t, l.ndev, 3);
	CHECK_INT(t, l.nseg, 2);
	tr_links_free(&l);
	tr_free(tr);
}

#include "trace/check.h"

/* Per-track order: (ts, longer first, input order), from inputs made of a
 * few ordered runs (the natural merge) and from scrambled ones. */
void test_torch_track_order(struct t *t)
{
	size_t cap = 1u << 20, n = 0;
	char *text = malloc(cap);
	n += (size_t)sprintf(text + n, "[\n");
	/* 40 blocks of 100 ordered events, written last block first (40 runs on
	 * tid 1); tid 2 scrambled by a multiplicative hash of the index */
	for (int b = 39; b >= 0; b--)
		for (int i = 0; i < 100; i++)
			n += (size_t)sprintf(
			    text + n,
			    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":1,"
			    "\"ts\":%d,\"dur\":%d},\n",
			    1 + b * 1000 + i * 10, i % 3 ? 1 : 5);
	for (int i = 0; i < 3000; i++)
		n += (size_t)sprintf(
		    text + n,
		    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"b\",\"pid\":1,\"tid\":2,"
		    "\"ts\":%u,\"dur\":1},\n",
		    1 + (unsigned)(i * 2654435761u % 1000));
	n += (size_t)sprintf(text + n,
			     "{\"ph\":\"i\",\"name\":\"end\",\"pid\":1,\"tid\":1,\"ts\":1}]\n");
	char *path = t_write_tmp(text, n);
	struct trace *tr = NULL;
	struct err e = {0};
	struct kineto_opts o = {.threads = 1};
	CHECK_INT(t, kineto_load(path, &o, &tr, &e), 0);
	uint32_t *rows = NULL;
	size_t *first = NULL;
	if (tr && !tr_track_order(tr, &rows, &first)) {
		CHECK_INT(t, first[1] - first[0], 4000);
		CHECK_INT(t, first[2] - first[1], 3000);
		int bad = 0;
		for (size_t k = 0; k < 2; k++)
			for (size_t i = first[k] + 1; i < first[k + 1] && !bad; i++) {
				uint32_t a = rows[i - 1], b = rows[i];
				int64_t ta = tr->ev.ts[a], tb = tr->ev.ts[b];
				bad = ta > tb ||
				      (ta == tb && (tr_dur(tr, a) < tr_dur(tr, b) ||
						    (tr_dur(tr, a) == tr_dur(tr, b) && a > b)));
				if (bad)
					t_fail(t, __FILE__, __LINE__,
					       "track %zu out of order at %zu", k, i);
			}
		free(rows);
		free(first);
	}
	tr_free(tr);
	unlink(path);
	free(path);
	free(text);
}
