/* trace: the model's own functions (see trace.h): a new empty trace, its
 * release, and the readers of narrow columns and ids. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"

struct trace *tr_new(const char *path)
{
	struct trace *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	arena_init(&t->arena);
	if (strpool_init(&t->pool, &t->arena)) {
		arena_free(&t->arena);
		free(t);
		return NULL;
	}
	snprintf(t->path, sizeof t->path, "%s", !strcmp(path, "-") ? "<stdin>" : path);
	tr_anomalies_init(&t->anomalies);
	t->min_ts = INT64_MAX;
	t->max_end = INT64_MIN;
	struct tr_meta *mt = &t->meta;
	mt->schema_version = mt->base_time_ns = INT64_MIN;
	mt->dist_rank = mt->dist_world_size = mt->dist_pg_count = INT64_MIN;
	return t;
}

void tr_free(struct trace *t)
{
	if (!t)
		return;
#define TR_FREE_COL_(type, col) free(t->ev.col);
	TR_EVENT_COLUMNS(TR_FREE_COL_)
#undef TR_FREE_COL_
	free(t->gpu.v);
	free(t->wide.v);
	free(t->op.v);
	free(t->opx.v);
	free(t->mem.v);
	free(t->flows.v);
	free(t->counters.v);
	free(t->tracks.v);
	free(t->procs.v);
	free(t->cats);
	free(t->base_row);
	if (t->base) {
		tr_free(t->base);
	} else {
		strpool_free(&t->pool);
		arena_free(&t->arena);
	}
	free(t);
}

uint64_t tr_mem_bytes(const struct trace *t)
{
	const struct strpool *p = &t->pool;
	uint64_t n = t->arena.total;
	n += (uint64_t)p->cap * (sizeof *p->strs + sizeof *p->hashes);
	n += p->slots ? ((uint64_t)p->mask + 1) * sizeof *p->slots : 0;
	uint64_t row = 0;
#define TR_ROW_BYTES_(type, col) row += sizeof(type);
	TR_EVENT_COLUMNS(TR_ROW_BYTES_)
#undef TR_ROW_BYTES_
	n += (uint64_t)t->ev.n * row;
	n += (uint64_t)t->wide.n * sizeof *t->wide.v + (uint64_t)t->gpu.n * sizeof *t->gpu.v;
	n += (uint64_t)t->op.n * sizeof *t->op.v + (uint64_t)t->opx.n * sizeof *t->opx.v;
	n += (uint64_t)t->mem.n * sizeof *t->mem.v + (uint64_t)t->flows.n * sizeof *t->flows.v;
	n += (uint64_t)t->counters.n * sizeof *t->counters.v;
	n +=
	    (uint64_t)t->tracks.n * sizeof *t->tracks.v + (uint64_t)t->procs.n * sizeof *t->procs.v;
	n += (uint64_t)t->ncats * sizeof *t->cats;
	return n;
}

int64_t tr_wide_get(const struct trace *t, size_t r, enum tr_wide_field f)
{
	size_t lo = 0, hi = t->wide.n;
	uint64_t key = ((uint64_t)r << 8) | f;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct tr_wide *w = &t->wide.v[mid];
		uint64_t k = ((uint64_t)w->row << 8) | w->field;
		if (k == key)
			return w->value;
		if (k < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1; /* not reached for entries written by imp_narrow */
}

const char *tr_id_text(const struct trace *t, const struct tr_id *id, char *buf, size_t n)
{
	if (id->is_str)
		return tr_str(t, id->str);
	snprintf(buf, n, "%lld", (long long)id->num);
	return buf;
}
