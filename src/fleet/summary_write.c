/* fleet/summary_write: one worker of a dist_result as a rank summary; see
 * summary.h for the format. */
#include "fleet/summary.h"
#include "tbprof/session.h"

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

static int put_steps(const struct dist_worker *w, const struct fleet_extra *x, FILE *f,
		     struct err *e)
{
	fputs(",\n\"steps\":[", f);
	for (size_t i = 0; i < w->nsteps; i++) {
		const struct dist_overlap *o = &w->overlap[i];
		fprintf(f,
			"%s\n{\"step\":%" PRId64 ",\"computation\":%" PRId64 ",\"overlap\":%" PRId64
			",\"communication\":%" PRId64 ",\"other\":%" PRId64,
			i ? "," : "", o->step, o->v[0], o->v[1], o->v[2], o->v[3]);
		int rc = fleet_extra_step(x, i, o->step, f, e);
		if (rc)
			return rc;
		fputc('}', f);
	}
	fputc(']', f);
	return 0;
}

/* A call's process group: its name, its ranks as written (PyTorch writes
 * a string, "[0, 1]"; its raw JSON value otherwise) and its size; strings
 * NULL and size -1 when absent. */
struct wgroup {
	const char *pg, *ranks;
	size_t ranks_len;
	int64_t size;
};

static const struct tr_op_extra *call_extra(const struct trace *t, uint32_t row)
{
	if (!t || row == TR_NONE || row >= t->ev.n)
		return NULL;
	const struct tr_op_arg *a = tr_op_arg(t, row);
	return a && a->extra != TR_NONE && a->extra < t->opx.n ? &t->opx.v[a->extra] : NULL;
}

static struct wgroup group_of(const struct dist_result *r, const struct trace *t,
			      const struct dist_node *d)
{
	struct wgroup g = {.size = -1};
	const struct tr_op_extra *x = call_extra(t, d->xrow);
	if (!t) {
		g.pg = d->pg ? pool_str(r, d->pg) : NULL;
		return g;
	}
	if (!x)
		return g;
	g.pg = x->pg_name ? tr_str(t, x->pg_name) : NULL;
	g.size = x->group_size;
	if (x->pg_ranks) {
		const char *s = tr_str(t, x->pg_ranks);
		size_t n = strlen(s);
		if (n >= 2 && s[0] == '"' && s[n - 1] == '"' && !memchr(s + 1, '\\', n - 2))
			s++, n -= 2; /* a plain string: without its quotes */
		g.ranks = s;
		g.ranks_len = n;
	}
	return g;
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool group_eq(const struct wgroup *a, const struct wgroup *b)
{
	return same_str(a->pg, b->pg) && a->size == b->size && a->ranks_len == b->ranks_len &&
	       (a->ranks == b->ranks ||
		(a->ranks && b->ranks && !memcmp(a->ranks, b->ranks, a->ranks_len)));
}

/* "groups": the calls' distinct process groups in order of first
 * appearance (a call without a group name has none); gi[i]: node i's
 * index there, or UINT32_MAX. */
static int put_groups(const struct dist_result *r, const struct dist_worker *w,
		      const struct trace *t, uint32_t *gi, FILE *f)
{
	struct wgroup *v = malloc((w->nnodes ? w->nnodes : 1) * sizeof *v);
	if (!v)
		return -1;
	size_t n = 0;
	fputs(",\n\"groups\":[", f);
	for (size_t i = 0; i < w->nnodes; i++) {
		struct wgroup g = group_of(r, t, &w->nodes[i]);
		gi[i] = UINT32_MAX;
		if (!g.pg)
			continue;
		size_t k = 0;
		while (k < n && !group_eq(&v[k], &g))
			k++;
		gi[i] = (uint32_t)k;
		if (k < n)
			continue;
		v[n++] = g;
		fputs(k ? ",\n{\"pg\":" : "\n{\"pg\":", f);
		rep_json_str(f, g.pg);
		if (g.ranks) {
			char *s = strndup(g.ranks, g.ranks_len);
			if (!s) {
				free(v);
				return -1;
			}
			fputs(",\"ranks\":", f);
			rep_json_str(f, s); /* escaped as any string */
			free(s);
		}
		if (g.size >= 0)
			fprintf(f, ",\"size\":%" PRId64, g.size);
		fputc('}', f);
	}
	fputc(']', f);
	free(v);
	return 0;
}

/* A string of t's pool, or nothing when id is 0 (absent). */
static void put_tstr(FILE *f, const struct trace *t, const char *key, uint32_t id)
{
	if (!id)
		return;
	fprintf(f, ",\"%s\":", key);
	rep_json_str(f, tr_str(t, id));
}

/* The call's group, sequence number, record_param_comms' message
 * arguments and lead-in values, those known. */
static void put_call_args(FILE *f, const struct trace *t, const struct dist_node *d, uint32_t g)
{
	if (g != UINT32_MAX)
		fprintf(f, ",\"group\":%" PRIu32, g);
	if (d->seq >= 0)
		fprintf(f, ",\"seq\":%" PRId64, d->seq);
	const struct tr_op_extra *x = call_extra(t, d->xrow);
	if (x) {
		put_tstr(f, t, "op", x->collective);
		if (x->in_nelems >= 0)
			fprintf(f, ",\"in_nelems\":%" PRId64, x->in_nelems);
		if (x->out_nelems >= 0)
			fprintf(f, ",\"out_nelems\":%" PRId64, x->out_nelems);
		put_tstr(f, t, "dtype", x->dtype);
	}
	if (d->compute >= 0)
		fprintf(f, ",\"compute\":%" PRId64 ",\"input\":%" PRId64 ",\"idle\":%" PRId64,
			d->compute, d->input, d->idle);
}

static void put_nodes(const struct dist_worker *w, const uint32_t *idx, const uint32_t *gi,
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
		put_call_args(f, t, d, gi[i]);
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

int fleet_summary_write(const struct dist_result *r, size_t k, struct ses *ses, FILE *f,
			const char *out, struct err *e)
{
	const struct trace *t = ses ? ses_trace(ses) : NULL;
	const struct dist_worker *w = &r->w[k];
	uint32_t *idx = malloc((r->pool.n ? r->pool.n : 1) * sizeof *idx);
	uint32_t *gi = malloc((w->nnodes ? w->nnodes : 1) * sizeof *gi);
	struct fleet_extra x;
	int rc = !idx || !gi ? err_set(e, ERR_NOMEM, out, -1, "out of memory")
			     : fleet_extra_open(&x, ses, r->compat, e);
	if (rc) {
		free(idx);
		free(gi);
		return rc;
	}
	for (uint32_t i = 0; i < r->pool.n; i++)
		idx[i] = UINT32_MAX;
	put_head(r, w, f);
	put_names(r, w, idx, f);
	if (put_groups(r, w, t, gi, f))
		rc = err_set(e, ERR_NOMEM, out, -1, "out of memory");
	if (!rc)
		rc = put_steps(w, &x, f, e);
	if (!rc) {
		put_nodes(w, idx, gi, t, f);
		put_gpus(r, w, f);
		rc = fleet_extra_tail(&x, f, e);
	}
	if (!rc)
		fputs("}\n", f);
	fleet_extra_close(&x);
	free(idx);
	free(gi);
	if (rc)
		return rc;
	return ferror(f) ? err_set(e, ERR_IO, out, -1, "write failed") : 0;
}
