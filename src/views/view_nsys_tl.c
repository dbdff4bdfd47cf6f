/* view_nsys_tl: the timeline answer of an Nsight Systems export (see
 * view_nsys_tl.h).
 *
 * A row is an event's position in the model's arrays (lane by lane, each
 * in (start, longer first) order), so the index needs no row/position maps:
 * per position the nesting depth and running max end (tl_nest) and, for a
 * GPU activity, the position of the CUDA API call that launched it: same
 * correlationId in the same process (the call's globalTid with the low 24
 * bits cleared equals the activity's globalPid), as sqlite_nvtx.c projects
 * GPU work. Lanes: "pid"/"tid" are the process and thread ids of API and
 * NVTX lanes, the device and stream ids of GPU lanes; "source" says which
 * of nvtx, cuda_api, kernels, memory a lane holds. Times are relative to
 * the export's first event. A flows request scans every launched activity
 * (O(n)); at most TL_MAX_FLOWS arrows with an end in the window are
 * written, as for traces. */
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "views/timeline_lod.h"
#include "views/view_nsys_tl.h"

#define NO_POS UINT32_MAX

struct nsys_tl_index {
	struct nsys_tl *m;
	uint16_t *depth;
	int64_t *maxend;
	uint32_t *launcher; /* per position: its API call's position, or NO_POS */
};

void nsys_tl_index_free(struct nsys_tl_index *ix)
{
	if (!ix)
		return;
	nsys_tl_free(ix->m);
	free(ix->depth);
	free(ix->maxend);
	free(ix->launcher);
	free(ix);
}

static void ev_at(const void *ctx, size_t pos, size_t n, struct tl_ev *ev)
{
	const struct nsys_tl *m = ctx;
	for (size_t i = pos; i < pos + n; i++)
		ev[i - pos] = (struct tl_ev){m->start[i], m->end[i] - m->start[i], (uint32_t)i};
}

static void ev_label(const void *ctx, uint32_t row, FILE *f)
{
	const struct nsys_tl *m = ctx;
	fputs("\"kind\": ", f);
	rep_json_str(f, nsys_tl_kind_label((enum nsys_tl_kind)m->kind[row]));
	fputs(", \"name\": ", f);
	rep_json_str(f, strpool_get(&m->names, m->name[row]));
}

static bool is_gpu(uint8_t kind)
{
	return kind == NSYS_TL_KERNEL || kind == NSYS_TL_MEMCPY || kind == NSYS_TL_MEMSET;
}

static int api_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct nsys_tl *m = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	if (m->gpid[a] != m->gpid[b])
		return m->gpid[a] < m->gpid[b] ? -1 : 1;
	if (m->corr[a] != m->corr[b])
		return m->corr[a] < m->corr[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Each GPU activity's launching call: API positions sorted by (process,
 * correlationId), a binary search per activity (the first call of a tie). */
static int build_launchers(struct nsys_tl_index *ix)
{
	const struct nsys_tl *m = ix->m;
	size_t napi = 0;
	for (size_t i = 0; i < m->n; i++)
		napi += m->kind[i] == NSYS_TL_RUNTIME || m->kind[i] == NSYS_TL_DRIVER;
	uint32_t *api = malloc((napi ? napi : 1) * sizeof *api);
	ix->launcher = malloc((m->n ? m->n : 1) * sizeof *ix->launcher);
	if (!api || !ix->launcher) {
		free(api);
		return -1;
	}
	napi = 0;
	for (size_t i = 0; i < m->n; i++)
		if (m->kind[i] == NSYS_TL_RUNTIME || m->kind[i] == NSYS_TL_DRIVER)
			api[napi++] = (uint32_t)i;
	gp_qsort_r(api, napi, sizeof *api, api_cmp, (void *)m);
	for (size_t i = 0; i < m->n; i++) {
		ix->launcher[i] = NO_POS;
		if (!is_gpu(m->kind[i]) || !m->corr[i])
			continue;
		size_t l = 0, r = napi;
		while (l < r) {
			size_t h = l + (r - l) / 2;
			uint32_t q = api[h];
			if (m->gpid[q] < m->gpid[i] ||
			    (m->gpid[q] == m->gpid[i] && m->corr[q] < m->corr[i]))
				l = h + 1;
			else
				r = h;
		}
		if (l < napi && m->gpid[api[l]] == m->gpid[i] && m->corr[api[l]] == m->corr[i])
			ix->launcher[i] = api[l];
	}
	free(api);
	return 0;
}

int nsys_tl_index_build(struct nsys_tl *m, struct nsys_tl_index **out, struct err *e)
{
	*out = NULL;
	struct nsys_tl_index *ix = calloc(1, sizeof *ix);
	if (!ix) {
		nsys_tl_free(m);
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	}
	ix->m = m;
	size_t n = m->n ? m->n : 1;
	ix->depth = malloc(n * sizeof *ix->depth);
	ix->maxend = malloc(n * sizeof *ix->maxend);
	if (!ix->depth || !ix->maxend || build_launchers(ix)) {
		nsys_tl_index_free(ix);
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	}
	for (size_t k = 0; k < m->nlanes; k++) {
		const struct nsys_tl_lane *l = &m->lanes[k];
		struct tl_lane ln = {.ctx = m, .b = l->first, .en = l->first + l->n, .get = ev_at};
		tl_nest(&ln, ix->depth, ix->maxend);
	}
	*out = ix;
	return 0;
}

static void lane_head(const struct nsys_tl *m, size_t k, FILE *f, bool first)
{
	const struct nsys_tl_lane *l = &m->lanes[k];
	bool gpu = l->source == NSYS_TL_SRC_KERNELS || l->source == NSYS_TL_SRC_MEMORY;
	char buf[96];
	fprintf(f, "%s\n   {\"track\": %zu, \"pid\": \"%lld\", \"tid\": \"%lld\", \"process\": ",
		first ? "" : ",", k, (long long)(gpu ? l->device : l->pid),
		(long long)(gpu ? l->stream : l->tid));
	if (gpu)
		snprintf(buf, sizeof buf, "GPU %lld", (long long)l->device);
	rep_json_str(f, gpu ? buf : l->process);
	fputs(", \"thread\": ", f);
	if (gpu)
		snprintf(buf, sizeof buf, "stream %lld (context %lld)", (long long)l->stream,
			 (long long)l->context);
	rep_json_str(f, gpu ? buf : l->thread);
	fprintf(f, ", \"source\": \"%s\"", nsys_tl_source_label(l->source));
}

static struct tl_flow_end end_at(const struct nsys_tl_index *ix, uint32_t pos, int64_t lo)
{
	return (struct tl_flow_end){ix->m->lane[pos], ix->depth[pos], ix->m->start[pos] - lo, pos};
}

static void write_flows(const struct nsys_tl_index *ix, FILE *f, int64_t A, int64_t B, int64_t lo)
{
	const struct nsys_tl *m = ix->m;
	size_t total = 0, shown = 0;
	/* (no memory for the arrows: none written, all counted) */
	struct tl_flow_out *out = malloc(TL_MAX_FLOWS * sizeof *out);
	for (size_t d = 0; d < m->n; d++) {
		uint32_t rt = ix->launcher[d];
		if (rt == NO_POS)
			continue;
		int64_t t0 = m->start[rt], t1 = m->start[d];
		if (!((t0 >= A && t0 < B) || (t1 >= A && t1 < B)))
			continue;
		if (++total > TL_MAX_FLOWS || !out)
			continue;
		out[shown++] = (struct tl_flow_out){.launch = true,
						    .id = m->corr[d],
						    .from = end_at(ix, rt, lo),
						    .to = end_at(ix, (uint32_t)d, lo)};
	}
	tl_write_flow_cols(f, out, shown, total);
	free(out);
}

int nsys_tl_write_json(const struct nsys_tl_index *ix, const struct tl_opts *o, FILE *f,
		       struct err *e)
{
	const struct nsys_tl *m = ix->m;
	int64_t lo = m->t0, hi = m->t1, A, B;
	if (tl_window(lo, hi, o, &A, &B, e))
		return e ? e->code : ERR_USAGE;
	tl_write_head(f, lo, hi, A, B, o->px);
	size_t items = 0;
	bool truncated = false;
	for (size_t k = 0; k < m->nlanes; k++) {
		const struct nsys_tl_lane *l = &m->lanes[k];
		lane_head(m, k, f, k == 0);
		struct tl_lane ln = {.ctx = m,
				     .b = l->first,
				     .en = l->first + l->n,
				     .depth = ix->depth,
				     .maxend = ix->maxend,
				     .get = ev_at,
				     .label = ev_label};
		struct tl_lane_sum sum;
		tl_lane_items(&ln, f, A, B, o->px, lo, &items, &truncated, &sum);
		fprintf(f,
			",\n    \"labels\": null, \"process_sort\": null, \"thread_sort\": null, "
			"\"gpu\": %s, \"instants\": [], ",
			l->source == NSYS_TL_SRC_KERNELS || l->source == NSYS_TL_SRC_MEMORY
			    ? "true"
			    : "false");
		tl_write_instant_runs(f, &(struct tl_rows){0}); /* (an export has no instants) */
		fputs(", \"instant_events\": 0}", f);
	}
	fprintf(f, "%s],\n  \"counters\": []", m->nlanes ? "\n  " : "");
	if (o->flows)
		write_flows(ix, f, A, B, lo);
	fprintf(f, ",\n  \"truncated\": %s\n}\n", truncated ? "true" : "false");
	return 0;
}

static void put_link(const struct nsys_tl_index *ix, FILE *f, const char *rel, uint32_t row,
		     bool *first)
{
	const struct nsys_tl *m = ix->m;
	fprintf(f,
		"%s\n   {\"rel\": \"%s\", \"row\": %u, \"track\": %u, \"ts\": %lld, \"dur\": %lld, "
		"\"depth\": %u, ",
		*first ? "" : ",", rel, row, m->lane[row], (long long)(m->start[row] - m->t0),
		(long long)(m->end[row] - m->start[row]), (unsigned)ix->depth[row]);
	ev_label(m, row, f);
	fputc('}', f);
	*first = false;
}

int nsys_tl_write_links(const struct nsys_tl_index *ix, int64_t row, FILE *f, struct err *e)
{
	const struct nsys_tl *m = ix->m;
	if (row < 0 || (uint64_t)row >= m->n)
		return err_set(e, ERR_USAGE, NULL, -1, "no event row %lld (0 to %zu)",
			       (long long)row, m->n ? m->n - 1 : 0);
	uint32_t r = (uint32_t)row;
	bool first = true;
	fprintf(f, "{\n  \"row\": %u, \"links\": [", r);
	if (ix->launcher[r] != NO_POS)
		put_link(ix, f, "launcher", ix->launcher[r], &first);
	size_t nd = 0;
	for (size_t d = 0; (m->kind[r] == NSYS_TL_RUNTIME || m->kind[r] == NSYS_TL_DRIVER) &&
			   d < m->n && nd < TL_MAX_FLOWS;
	     d++)
		if (ix->launcher[d] == r) {
			put_link(ix, f, "launched", (uint32_t)d, &first);
			nd++;
		}
	fprintf(f, "%s]\n}\n", first ? "" : "\n  ");
	return 0;
}
