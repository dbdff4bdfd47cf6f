/* fleet/summary_write: one worker of a dist_result as a rank summary; see
 * summary.h for the format. */
#include "fleet/summary.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "trace/trace.h"

static const char *pool_str(const struct dist_result *r, uint32_t id)
{
	return strpool_get(&r->pool, id);
}

/* An int64 that -1 (or DIST_NO_STEP) marks unknown: null then. */
static void put_opt(FILE *f, const char *key, int64_t v, int64_t unknown)
{
	if (v == unknown)
		fprintf(f, ",\"%s\":null", key);
	else
		fprintf(f, ",\"%s\":%" PRId64, key, v);
}

static void put_bool(FILE *f, const char *key, bool v)
{
	fprintf(f, ",\"%s\":%s", key, v ? "true" : "false");
}

static void put_head(const struct dist_result *r, const struct dist_worker *w, FILE *f)
{
	fprintf(f, "{\"kind\":\"%s\",\"schema_version\":%d", FLEET_SUMMARY_KIND,
		FLEET_SUMMARY_VERSION);
	put_bool(f, "tb_compat", r->compat);
	fputs(",\"name\":", f);
	rep_json_str(f, pool_str(r, w->name));
	fputs(",\"file\":", f);
	rep_json_str(f, pool_str(r, w->path));
	put_opt(f, "rank", w->rank, -1);
	put_opt(f, "world_size", w->world_size, -1);
	fputs(",\"backend\":", f);
	if (w->backend)
		rep_json_str(f, pool_str(r, w->backend));
	else
		fputs("null", f);
	put_bool(f, "has_device_props", w->has_device_props);
	put_bool(f, "has_communication", w->has_communication);
	put_bool(f, "has_nccl", w->has_nccl);
	put_bool(f, "has_gloo", w->has_gloo);
	put_bool(f, "cleared", w->cleared);
}

/* "names": the nodes' names in order of first appearance; idx maps a pool
 * id to its place there. */
static void put_names(const struct dist_result *r, const struct dist_worker *w, uint32_t *idx,
		      FILE *f)
{
	uint32_t n = 0;
	fputs(",\n\"names\":[", f);
	for (size_t i = 0; i < w->nnodes; i++) {
		uint32_t id = w->nodes[i].name;
		if (idx[id] != UINT32_MAX)
			continue;
		idx[id] = n;
		fputs(n++ ? "," : "", f);
		rep_json_str(f, pool_str(r, id));
	}
	fputc(']', f);
}

static void put_steps(const struct dist_worker *w, FILE *f)
{
	fputs(",\n\"steps\":[", f);
	for (size_t i = 0; i < w->nsteps; i++) {
		const struct dist_overlap *o = &w->overlap[i];
		fprintf(f,
			"%s\n{\"step\":%" PRId64 ",\"computation\":%" PRId64 ",\"overlap\":%" PRId64
			",\"communication\":%" PRId64 ",\"other\":%" PRId64 "}",
			i ? "," : "", o->step, o->v[0], o->v[1], o->v[2], o->v[3]);
	}
	fputc(']', f);
}

/* A string of t's pool, or nothing when id is 0 (absent). */
static void put_tstr(FILE *f, const struct trace *t, const char *key, uint32_t id)
{
	if (!id)
		return;
	fprintf(f, ",\"%s\":", key);
	rep_json_str(f, tr_str(t, id));
}

/* "Process Group Ranks" as its text: the pool holds the raw JSON value,
 * which PyTorch writes as a string ("[0, 1]"); a plain string loses its
 * quotes, any other value is kept as written. */
static void put_ranks(FILE *f, const struct trace *t, uint32_t id)
{
	if (!id)
		return;
	const char *s = tr_str(t, id);
	size_t n = strlen(s);
	char *in = NULL;
	if (n >= 2 && s[0] == '"' && s[n - 1] == '"' && !memchr(s + 1, '\\', n - 2) &&
	    (in = malloc(n - 1))) {
		memcpy(in, s + 1, n - 2);
		in[n - 2] = 0;
	}
	fputs(",\"pg_ranks\":", f);
	rep_json_str(f, in ? in : s); /* escaped as any string */
	free(in);
}

/* The call's record_param_comms arguments, those the trace has. */
static void put_call_args(FILE *f, const struct trace *t, uint32_t row)
{
	if (!t || row == TR_NONE || row >= t->ev.n)
		return;
	const struct tr_op_arg *a = tr_op_arg(t, row);
	if (!a || a->extra == TR_NONE || a->extra >= t->opx.n)
		return;
	const struct tr_op_extra *x = &t->opx.v[a->extra];
	put_tstr(f, t, "op", x->collective);
	put_tstr(f, t, "pg", x->pg_name);
	put_ranks(f, t, x->pg_ranks);
	if (x->group_size >= 0)
		fprintf(f, ",\"group_size\":%" PRId64, x->group_size);
	if (x->in_nelems >= 0)
		fprintf(f, ",\"in_nelems\":%" PRId64, x->in_nelems);
	if (x->out_nelems >= 0)
		fprintf(f, ",\"out_nelems\":%" PRId64, x->out_nelems);
	put_tstr(f, t, "dtype", x->dtype);
}

static void put_nodes(const struct dist_result *r, const struct dist_worker *w, const uint32_t *idx,
		      const struct trace *t, FILE *f)
{
	fputs(",\n\"collectives\":[", f);
	for (size_t i = 0; i < w->nnodes; i++) {
		const struct dist_node *d = &w->nodes[i];
		fprintf(f,
			"%s\n{\"name\":%" PRIu32 ",\"start\":%" PRId64 ",\"end\":%" PRId64
			",\"bytes\":%" PRId64,
			i ? "," : "", idx[d->name], d->start, d->end, d->bytes);
		put_opt(f, "step", d->step, DIST_NO_STEP);
		put_call_args(f, t, d->xrow);
		if (!t && d->pg) { /* no trace (a summary read back): the group kept */
			fputs(",\"pg\":", f);
			rep_json_str(f, pool_str(r, d->pg));
		}
		fputs(",\"ranges\":[", f);
		for (size_t j = 0; j < d->n; j++) {
			const struct rg *g = &w->kr[d->first + j];
			fprintf(f, "%s[%" PRId64 ",%" PRId64 "]", j ? "," : "", g->start, g->end);
		}
		fputs("]}", f);
	}
	fputc(']', f);
}

static void put_gpus(const struct dist_result *r, const struct dist_worker *w, FILE *f)
{
	fputs(",\n\"gpus\":[", f);
	for (size_t i = 0; i < w->ngpus; i++) {
		const struct dist_gpu *g = &w->gpus[i];
		fprintf(f, "%s\n{\"id\":%" PRId64 ",\"name\":", i ? "," : "", g->id);
		if (g->name)
			rep_json_str(f, pool_str(r, g->name));
		else
			fputs("null", f);
		put_opt(f, "memory", g->memory, -1);
		put_opt(f, "cc_major", g->cc_major, -1);
		put_opt(f, "cc_minor", g->cc_minor, -1);
		put_bool(f, "known", g->known);
		fputc('}', f);
	}
	fputc(']', f);
}

int fleet_summary_write(const struct dist_result *r, size_t k, const struct trace *t, FILE *f,
			const char *out, struct err *e)
{
	const struct dist_worker *w = &r->w[k];
	uint32_t *idx = malloc((r->pool.n ? r->pool.n : 1) * sizeof *idx);
	if (!idx)
		return err_set(e, ERR_NOMEM, out, -1, "out of memory");
	for (uint32_t i = 0; i < r->pool.n; i++)
		idx[i] = UINT32_MAX;
	put_head(r, w, f);
	put_names(r, w, idx, f);
	put_steps(w, f);
	put_nodes(r, w, idx, t, f);
	put_gpus(r, w, f);
	fputs("}\n", f);
	free(idx);
	return ferror(f) ? err_set(e, ERR_IO, out, -1, "write failed") : 0;
}
