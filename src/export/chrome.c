/* chrome: see chrome.h. Events in input order within each table: metadata,
 * then the slices and instants, the flow events, the counters. Times are
 * written in µs with three decimals from the integer nanoseconds (exact). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export/chrome.h"
#include "report/report.h"

static void put_us(FILE *f, int64_t ns)
{
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	fprintf(f, "%s%llu.%03llu", ns < 0 ? "-" : "", (unsigned long long)(a / 1000),
		(unsigned long long)(a % 1000));
}

static void put_id(FILE *f, const struct trace *t, const struct tr_id *id)
{
	if (id->is_str)
		rep_json_str(f, tr_str(t, id->str));
	else
		fprintf(f, "%lld", (long long)id->num);
}

/* a counter sample: not finite as 0 (chrome-trace readers want a number) */
static void put_num(FILE *f, double v)
{
	if (isfinite(v))
		rep_json_num(f, v);
	else
		fputs("0", f);
}

/* "ph": ..., "pid", "tid" of track k */
static void head(FILE *f, const struct trace *t, bool *first, char ph, uint32_t track)
{
	const struct tr_track *tk = &t->tracks.v[track];
	fprintf(f, "%s\n{\"ph\": \"%c\", \"pid\": ", *first ? "" : ",", ph);
	put_id(f, t, &tk->pid);
	fputs(", \"tid\": ", f);
	put_id(f, t, &tk->tid);
	*first = false;
}

/* A category that tr_classify maps back to kind k (an instant named
 * [memory] is TR_MEMORY whatever its category: Kineto's is kept). */
static const char *kind_cat(enum tr_kind k, bool instant)
{
	switch (k) {
	case TR_TRACE_SPAN:
		return "Trace";
	case TR_MEMORY:
		return instant ? "cpu_instant_event" : "memory";
	default:
		return tr_kind_label(k);
	}
}

/* ", \"key\": " before each argument, "{" before the first. */
static void arg(FILE *f, bool *open, const char *key)
{
	fputs(*open ? ", " : ", \"args\": {", f);
	*open = true;
	rep_json_str(f, key);
	fputs(": ", f);
}

static void arg_i(FILE *f, bool *open, const char *key, int64_t v, int64_t absent)
{
	if (v != absent) {
		arg(f, open, key);
		fprintf(f, "%lld", (long long)v);
	}
}

static void arg_f(FILE *f, bool *open, const char *key, double v)
{
	if (!isnan(v)) {
		arg(f, open, key);
		put_num(f, v);
	}
}

static void arg_s(FILE *f, const struct trace *t, bool *open, const char *key, uint32_t id)
{
	if (id) {
		arg(f, open, key);
		rep_json_str(f, tr_str(t, id));
	}
}

/* raw JSON text as the input had it */
static void arg_raw(FILE *f, const struct trace *t, bool *open, const char *key, uint32_t id)
{
	if (id) {
		arg(f, open, key);
		fputs(tr_str(t, id), f);
	}
}

static void dim3(FILE *f, bool *open, const char *key, const int32_t d[3])
{
	if (d[0] != -1) {
		arg(f, open, key);
		fprintf(f, "[%d, %d, %d]", d[0], d[1], d[2]);
	}
}

static void event_args(FILE *f, const struct trace *t, size_t r)
{
	bool open = false;
	enum tr_kind k = (enum tr_kind)t->ev.kind[r];
	const struct tr_gpu_arg *g = tr_gpu_arg(t, r);
	const struct tr_mem_arg *m = tr_mem_arg(t, r);
	const struct tr_op_arg *o = tr_op_arg(t, r);
	arg_i(f, &open, "External id", tr_ext_id(t, r), -1);
	arg_i(f, &open, "correlation", tr_corr(t, r), -1);
	if (g) {
		arg_i(f, &open, "device", g->device, -1);
		arg_i(f, &open, "stream", g->stream, -1);
		dim3(f, &open, "grid", g->grid);
		dim3(f, &open, "block", g->block);
		arg_i(f, &open, "registers per thread", g->regs, -1);
		arg_i(f, &open, "shared memory", g->shared_mem, -1);
		arg_i(f, &open, "bytes", g->bytes, -1);
		arg_f(f, &open, "blocks per SM", g->blocks_per_sm);
		arg_f(f, &open, "warps per SM", g->warps_per_sm);
		arg_f(f, &open, "est. achieved occupancy %", g->occupancy);
	} else if (m) {
		arg_i(f, &open, "Bytes", m->bytes, -1);
		arg_i(f, &open, "Total Allocated", m->total_allocated, INT64_MIN);
		arg_i(f, &open, "Total Reserved", m->total_reserved, INT64_MIN);
		arg_i(f, &open, "Addr", (int64_t)m->addr, -1);
		arg_i(f, &open, "Device Type", m->device_type, -1);
		arg_i(f, &open, "Device Id", m->device_id, -1);
	} else if (o) {
		arg_raw(f, t, &open, "Input Dims", o->input_dims);
		arg_raw(f, t, &open, "Input type", o->input_type);
		arg_s(f, t, &open, "Call stack", o->call_stack);
		if (k == TR_PYTHON_FUNCTION) {
			arg_i(f, &open, "Python id", o->python_id, -1);
			arg_i(f, &open, "Python parent id", o->python_parent, -1);
		} else {
			arg_i(f, &open, "Sequence number", o->seq, -1);
			arg_i(f, &open, "Fwd thread id", o->fwd_tid, -1);
		}
		if (o->extra != TR_NONE && o->extra < t->opx.n) {
			const struct tr_op_extra *x = &t->opx.v[o->extra];
			arg_s(f, t, &open, "Collective name", x->collective);
			arg_s(f, t, &open, "dtype", x->dtype);
			arg_s(f, t, &open, "Process Group Name", x->pg_name);
			arg_raw(f, t, &open, "Process Group Ranks", x->pg_ranks);
			arg_i(f, &open, "In msg nelems", x->in_nelems, -1);
			arg_i(f, &open, "Out msg nelems", x->out_nelems, -1);
			arg_i(f, &open, "Group size", x->group_size, -1);
			arg_i(f, &open, "Python module id", x->module_id, -1);
		}
	}
	if (open)
		fputc('}', f);
}

static bool in_window(const struct chrome_opts *o, int64_t ts)
{
	return !o->windowed || (ts >= o->start_ns && ts < o->end_ns);
}

static void metadata(FILE *f, const struct trace *t, bool *first)
{
	for (size_t p = 0; p < t->procs.n; p++) {
		const struct tr_proc *pr = &t->procs.v[p];
		static const char *const names[] = {"process_name", "process_labels",
						    "process_sort_index"};
		for (int i = 0; i < 3; i++) {
			if ((i == 0 && !pr->name) || (i == 1 && !pr->labels) ||
			    (i == 2 && pr->sort == INT64_MIN))
				continue;
			fprintf(f, "%s\n{\"ph\": \"M\", \"name\": \"%s\", \"pid\": ",
				*first ? "" : ",", names[i]);
			put_id(f, t, &pr->pid);
			fputs(", \"tid\": 0, \"args\": {", f);
			if (i == 0) {
				fputs("\"name\": ", f);
				rep_json_str(f, tr_str(t, pr->name));
			} else if (i == 1) {
				fprintf(f, "\"labels\": %s", tr_str(t, pr->labels));
			} else {
				fprintf(f, "\"sort_index\": %lld", (long long)pr->sort);
			}
			fputs("}}", f);
			*first = false;
		}
	}
	for (size_t k = 0; k < t->tracks.n; k++) {
		const struct tr_track *tk = &t->tracks.v[k];
		if (tk->thread_name) {
			head(f, t, first, 'M', (uint32_t)k);
			fputs(", \"name\": \"thread_name\", \"args\": {\"name\": ", f);
			rep_json_str(f, tr_str(t, tk->thread_name));
			fputs("}}", f);
		}
		if (tk->thread_sort != INT64_MIN) {
			head(f, t, first, 'M', (uint32_t)k);
			fprintf(
			    f,
			    ", \"name\": \"thread_sort_index\", \"args\": {\"sort_index\": %lld}}",
			    (long long)tk->thread_sort);
		}
	}
}

static void slices(FILE *f, const struct trace *t, const struct chrome_opts *o, bool *first)
{
	for (size_t r = 0; r < t->ev.n; r++) {
		int64_t ts = t->ev.ts[r], dur = tr_dur(t, r);
		bool instant = t->ev.ph[r] == 'i', be = t->ev.flags[r] & TRF_FROM_BE;
		bool unmatched = t->ev.flags[r] & TRF_UNMATCHED;
		if (o->windowed) {
			int64_t end = ts + (dur > 0 ? dur : 0);
			if (instant ? !in_window(o, ts)
				    : ts >= o->end_ns || end < o->start_ns ||
					  (end == o->start_ns && dur > 0))
				continue;
		}
		enum tr_kind k = (enum tr_kind)t->ev.kind[r];
		head(f, t, first, instant ? 'i' : be ? 'B' : 'X', t->ev.track[r]);
		fputs(", \"cat\": ", f);
		rep_json_str(f, kind_cat(k, instant));
		fputs(", \"name\": ", f);
		rep_json_str(f, tr_str(t, t->ev.name[r]));
		fputs(", \"ts\": ", f);
		put_us(f, ts);
		if (instant) {
			fputs(", \"s\": \"t\"", f);
		} else if (!be) {
			fputs(", \"dur\": ", f);
			put_us(f, dur);
		}
		event_args(f, t, r);
		fputc('}', f);
		if (be && !unmatched) { /* its E right after it: pairs nest trivially */
			head(f, t, first, 'E', t->ev.track[r]);
			fputs(", \"ts\": ", f);
			put_us(f, ts + dur);
			fputc('}', f);
		}
	}
}

static void flows_counters(FILE *f, const struct trace *t, const struct chrome_opts *o, bool *first)
{
	for (size_t i = 0; i < t->flows.n; i++) {
		const struct tr_flow *fl = &t->flows.v[i];
		if (!in_window(o, fl->ts))
			continue;
		head(f, t, first, (char)fl->ph, fl->track);
		fprintf(f, ", \"id\": %lld, \"ts\": ", (long long)fl->id);
		put_us(f, fl->ts);
		fputs(", \"cat\": ", f);
		rep_json_str(f, tr_str(t, fl->cat));
		fputs(", \"name\": ", f);
		rep_json_str(f, tr_str(t, fl->name));
		fprintf(f, "%s}", fl->bp_e ? ", \"bp\": \"e\"" : "");
	}
	/* one C event per run of rows of one (ts, name, track) with distinct
	 * series: the import wrote one row per series of an event */
	const struct tr_counter *cv = t->counters.v;
	for (size_t i = 0; i < t->counters.n;) {
		size_t j = i + 1;
		for (; j < t->counters.n && cv[j].ts == cv[i].ts && cv[j].name == cv[i].name &&
		       cv[j].track == cv[i].track;
		     j++) {
			bool dup = false;
			for (size_t q = i; q < j && !dup; q++)
				dup = cv[q].series == cv[j].series;
			if (dup)
				break;
		}
		if (in_window(o, cv[i].ts)) {
			head(f, t, first, 'C', cv[i].track);
			fputs(", \"name\": ", f);
			rep_json_str(f, tr_str(t, cv[i].name));
			fputs(", \"ts\": ", f);
			put_us(f, cv[i].ts);
			fputs(", \"args\": {", f);
			for (size_t q = i; q < j; q++) {
				fputs(q > i ? ", " : "", f);
				rep_json_str(f, tr_str(t, cv[q].series));
				fputs(": ", f);
				put_num(f, cv[q].value);
			}
			fputs("}}", f);
		}
		i = j;
	}
}

static void devices(FILE *f, const struct trace *t)
{
	fputs("\"deviceProperties\": [", f);
	for (size_t i = 0; i < t->meta.ndevices; i++) {
		const struct tr_device_prop *d = &t->meta.devices[i];
		fprintf(f, "%s\n{\"id\": %lld, \"name\": ", i ? "," : "", (long long)d->id);
		rep_json_str(f, tr_str(t, d->name));
		const struct {
			const char *key;
			int64_t v;
		} kv[] = {{"totalGlobalMem", d->total_global_mem},
			  {"computeMajor", d->compute_major},
			  {"computeMinor", d->compute_minor},
			  {"numSms", d->num_sms},
			  {"maxThreadsPerBlock", d->max_threads_per_block},
			  {"maxThreadsPerMultiprocessor", d->max_threads_per_sm},
			  {"regsPerBlock", d->regs_per_block},
			  {"regsPerMultiprocessor", d->regs_per_sm},
			  {"warpSize", d->warp_size},
			  {"sharedMemPerBlock", d->shared_mem_per_block},
			  {"sharedMemPerMultiprocessor", d->shared_mem_per_sm},
			  {"sharedMemPerBlockOptin", d->shared_mem_per_block_optin}};
		for (size_t k = 0; k < sizeof kv / sizeof kv[0]; k++)
			if (kv[k].v != INT64_MIN)
				fprintf(f, ", \"%s\": %lld", kv[k].key, (long long)kv[k].v);
		fputc('}', f);
	}
	fputs("],\n", f);
}

int chrome_write(const struct trace *t, const struct chrome_opts *o, FILE *out, struct err *e)
{
	const struct tr_meta *m = &t->meta;
	fputc('{', out);
	if (m->schema_version != INT64_MIN)
		fprintf(out, "\"schemaVersion\": %lld,\n", (long long)m->schema_version);
	if (m->base_time_ns != INT64_MIN)
		fprintf(out, "\"baseTimeNanoseconds\": %lld,\n", (long long)m->base_time_ns);
	if (m->trace_name) {
		fputs("\"traceName\": ", out);
		rep_json_str(out, tr_str(t, m->trace_name));
		fputs(",\n", out);
	}
	if (m->display_time_unit) {
		fputs("\"displayTimeUnit\": ", out);
		rep_json_str(out, tr_str(t, m->display_time_unit));
		fputs(",\n", out);
	}
	const struct {
		const char *key;
		uint32_t v;
	} strs[] = {{"Framework", m->framework},
		    {"torch_version", m->torch_version},
		    {"cuda_runtime_version", m->cuda_runtime_version},
		    {"cuda_driver_version", m->cuda_driver_version},
		    {"cupti_version", m->cupti_version},
		    {"hip_runtime_version", m->hip_runtime_version},
		    {"roctracer_version", m->roctracer_version}};
	for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
		if (strs[i].v) { /* kept as text; the reader takes a string */
			fprintf(out, "\"%s\": ", strs[i].key);
			rep_json_str(out, tr_str(t, strs[i].v));
			fputs(",\n", out);
		}
	if (m->has_dist) {
		fputs("\"distributedInfo\": {", out);
		const char *sep = "";
		if (m->dist_backend) {
			fputs("\"backend\": ", out);
			rep_json_str(out, tr_str(t, m->dist_backend));
			sep = ", ";
		}
		const struct {
			const char *key;
			int64_t v;
		} ints[] = {{"rank", m->dist_rank},
			    {"world_size", m->dist_world_size},
			    {"pg_count", m->dist_pg_count}};
		for (size_t i = 0; i < 3; i++)
			if (ints[i].v != INT64_MIN) {
				fprintf(out, "%s\"%s\": %lld", sep, ints[i].key,
					(long long)ints[i].v);
				sep = ", ";
			}
		if (m->dist_nccl_version) {
			fprintf(out, "%s\"nccl_version\": ", sep);
			rep_json_str(out, tr_str(t, m->dist_nccl_version));
		}
		fputs("},\n", out);
	}
	if (m->ndevices)
		devices(out, t);
	fputs("\"traceEvents\": [", out);
	bool first = true;
	metadata(out, t, &first);
	slices(out, t, o, &first);
	flows_counters(out, t, o, &first);
	fputs("\n]}\n", out);
	if (ferror(out))
		return err_set(e, ERR_IO, NULL, -1, "could not write the trace");
	return 0;
}
