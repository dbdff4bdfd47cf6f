/* fleet/summary_read: a rank summary back into a dist_result worker; see
 * summary.h. One pass over the text with json's tokenizer; every value is
 * checked for its type and range, and an error names the byte offset of
 * the value at fault. */
#include "fleet/summary_rd.h"

#include <stdlib.h>
#include <string.h>

#include "io/source.h"

/* The top-level keys, all required (version 1: those before K_GROUPS). */
enum {
	K_KIND,
	K_VERSION,
	K_COMPAT,
	K_NAME,
	K_FILE,
	K_RANK,
	K_WORLD,
	K_BACKEND,
	K_PROPS,
	K_HASCOMM,
	K_NCCL,
	K_GLOO,
	K_CLEARED,
	K_NAMES,
	K_STEPS,
	K_NODES,
	K_GPUS,
	K_GROUPS,
	K_KERNELS,
	K_MEMORY,
	K_COUNT
};
static const char *const top_keys[K_COUNT] = {"kind",
					      "schema_version",
					      "tb_compat",
					      "name",
					      "file",
					      "rank",
					      "world_size",
					      "backend",
					      "has_device_props",
					      "has_communication",
					      "has_nccl",
					      "has_gloo",
					      "cleared",
					      "names",
					      "steps",
					      "collectives",
					      "gpus",
					      "groups",
					      "kernels",
					      "memory"};

static int add_checked(struct rd *d, int64_t *sum, int64_t v, const char *at)
{
	if (__builtin_add_overflow(*sum, v, sum) || *sum > RD_SUM_MAX)
		return fleet_rd_bad(d, at, "the summary's times add up to more than 2^62 ns");
	return 0;
}

static int one_name(struct rd *d, const struct jstr *k, size_t i)
{
	if (fleet_rd_grow((void **)&d->names, &d->cap_names, d->nnames + 1, sizeof *d->names))
		return fleet_rd_nomem(d);
	return fleet_rd_str(d, "names[]", false, &d->names[d->nnames++]);
}

static int one_range(struct rd *d, const struct jstr *k, size_t i)
{
	struct dist_worker *w = d->w;
	if (fleet_rd_grow((void **)&w->kr, &d->cap_kr, w->nkr + 1, sizeof *w->kr))
		return fleet_rd_nomem(d);
	struct rg *g = &w->kr[w->nkr];
	if (jscan_ws(&d->j) || *d->j.p != '[')
		return fleet_rd_bad(d, d->j.p, "ranges[]: expected an array [start, end]");
	const char *at = d->j.p++;
	int rc = fleet_rd_int(d, "range start", -RD_TIME_MAX, RD_TIME_MAX, false, 0, &g->start);
	if (!rc && (rc = jscan_expect(&d->j, ',')))
		return fleet_rd_js_fail(d, rc);
	if (!rc)
		rc = fleet_rd_int(d, "range end", -RD_TIME_MAX, RD_TIME_MAX, false, 0, &g->end);
	if (!rc && (rc = jscan_expect(&d->j, ']')))
		return fleet_rd_js_fail(d, rc);
	if (!rc && g->end < g->start)
		rc = fleet_rd_bad(d, at, "ranges[]: the end is before the start");
	if (!rc)
		rc = add_checked(d, &d->sum_len, g->end - g->start, at);
	if (!rc) {
		w->nkr++;
		w->nodes[w->nnodes].n++;
	}
	return rc;
}

static int node_member(struct rd *d, const struct jstr *k, size_t i)
{
	struct dist_node *n = &d->w->nodes[d->w->nnodes];
	const char *at = d->j.p;
	int64_t v;
	int rc;
	if (fleet_rd_is_key(k, "name")) {
		if (!d->names)
			return fleet_rd_bad(d, at, "collectives: \"names\" must come first");
		if ((rc = fleet_rd_int(d, "name", 0, (int64_t)d->nnames - 1, false, 0, &v)))
			return rc;
		n->name = d->names[v];
	} else if (fleet_rd_is_key(k, "start")) {
		d->node_seen |= 1;
		return fleet_rd_int(d, "start", -RD_TIME_MAX, RD_TIME_MAX, false, 0, &n->start);
	} else if (fleet_rd_is_key(k, "end")) {
		d->node_seen |= 2;
		return fleet_rd_int(d, "end", -RD_TIME_MAX, RD_TIME_MAX, false, 0, &n->end);
	} else if (fleet_rd_is_key(k, "bytes")) {
		d->node_seen |= 4;
		return fleet_rd_int(d, "bytes", 0, INT64_MAX, false, 0, &n->bytes);
	} else if (fleet_rd_is_key(k, "step")) {
		return fleet_rd_int(d, "step", INT64_MIN + 1, INT64_MAX, true, DIST_NO_STEP,
				    &n->step);
	} else if (fleet_rd_is_key(k, "pg")) {
		return fleet_rd_str(d, "a call argument", false, &n->pg);
	} else if (fleet_rd_is_key(k, "op") || fleet_rd_is_key(k, "pg_ranks") ||
		   fleet_rd_is_key(k, "dtype")) {
		uint32_t id; /* checked; dist's tables do not use them */
		return fleet_rd_str(d, "a call argument", false, &id);
	} else if (fleet_rd_is_key(k, "group_size") || fleet_rd_is_key(k, "in_nelems") ||
		   fleet_rd_is_key(k, "out_nelems")) {
		return fleet_rd_int(d, "a call argument", 0, INT64_MAX, false, 0, &v);
	} else if (fleet_rd_is_key(k, "ranges")) {
		n->first = d->w->nkr;
		n->n = 0;
		return fleet_rd_walk(d, false, "ranges", one_range);
	} else if ((rc = fleet_rd_node2(d, k, n)) != 1) {
		return rc;
	} else {
		return fleet_rd_skip(d);
	}
	return 0;
}

static int one_node(struct rd *d, const struct jstr *k, size_t i)
{
	struct dist_worker *w = d->w;
	if (fleet_rd_grow((void **)&w->nodes, &d->cap_nodes, w->nnodes + 1, sizeof *w->nodes))
		return fleet_rd_nomem(d);
	struct dist_node *n = &w->nodes[w->nnodes];
	*n = (struct dist_node){.name = UINT32_MAX,
				.start = 1,
				.end = 0,
				.step = INT64_MIN + 1,
				.xrow = UINT32_MAX,
				.seq = -1,
				.compute = -1,
				.input = -1,
				.idle = -1};
	const char *at = (jscan_ws(&d->j), d->j.p);
	d->node_seen = 0;
	if (fleet_rd_grow((void **)&d->node_at, &d->cap_at, w->nnodes + 1, sizeof *d->node_at))
		return fleet_rd_nomem(d);
	d->node_at[w->nnodes] = at;
	int rc = fleet_rd_walk(d, true, "collectives[]", node_member);
	if (!rc)
		rc = fleet_rd_node2_done(d, n, at);
	if (rc)
		return rc;
	if (n->name == UINT32_MAX || (d->node_seen & 7) != 7 || n->start > n->end ||
	    n->step == INT64_MIN + 1 || !n->n)
		return fleet_rd_bad(
		    d, at,
		    "collectives[]: needs name, start <= end, bytes, step and ranges "
		    "(at least one)");
	w->nnodes++;
	return 0;
}

static int step_member(struct rd *d, const struct jstr *k, size_t i)
{
	static const char *const cols[] = {"computation", "overlap", "communication", "other"};
	struct dist_overlap *o = &d->w->overlap[d->w->nsteps];
	if (fleet_rd_is_key(k, "step"))
		return fleet_rd_int(d, "step", INT64_MIN + 1, INT64_MAX, false, 0, &o->step);
	for (int c = 0; c < 4; c++)
		if (fleet_rd_is_key(k, cols[c])) {
			const char *at = d->j.p;
			int rc =
			    fleet_rd_int(d, cols[c], -RD_TIME_MAX, RD_TIME_MAX, false, 0, &o->v[c]);
			return rc ? rc
				  : add_checked(d, &d->sum_ov, o->v[c] < 0 ? -o->v[c] : o->v[c],
						at);
		}
	int rc = fleet_rd_step2(d, k);
	return rc == 1 ? fleet_rd_skip(d) : rc;
}

static int one_step(struct rd *d, const struct jstr *k, size_t i)
{
	struct dist_worker *w = d->w;
	if (fleet_rd_grow((void **)&w->overlap, &d->cap_steps, w->nsteps + 1, sizeof *w->overlap))
		return fleet_rd_nomem(d);
	struct dist_overlap *o = &w->overlap[w->nsteps];
	*o = (struct dist_overlap){.step = INT64_MIN,
				   .v = {INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN}};
	const char *at = (jscan_ws(&d->j), d->j.p);
	int rc = fleet_rd_walk(d, true, "steps[]", step_member);
	if (rc)
		return rc;
	bool whole = o->step != INT64_MIN;
	for (int c = 0; c < 4; c++)
		whole = whole && o->v[c] != INT64_MIN;
	if (!whole)
		return fleet_rd_bad(
		    d, at, "steps[]: needs step, computation, overlap, communication and other");
	w->nsteps++;
	return 0;
}

static int gpu_member(struct rd *d, const struct jstr *k, size_t i)
{
	struct dist_gpu *g = &d->w->gpus[d->w->ngpus];
	if (fleet_rd_is_key(k, "id"))
		return fleet_rd_int(d, "id", INT64_MIN + 1, INT64_MAX, false, 0, &g->id);
	if (fleet_rd_is_key(k, "name"))
		return fleet_rd_str(d, "name", true, &g->name);
	if (fleet_rd_is_key(k, "memory"))
		return fleet_rd_int(d, "memory", 0, INT64_MAX, true, -1, &g->memory);
	if (fleet_rd_is_key(k, "cc_major"))
		return fleet_rd_int(d, "cc_major", 0, INT64_MAX, true, -1, &g->cc_major);
	if (fleet_rd_is_key(k, "cc_minor"))
		return fleet_rd_int(d, "cc_minor", 0, INT64_MAX, true, -1, &g->cc_minor);
	if (fleet_rd_is_key(k, "known"))
		return fleet_rd_bool(d, "known", &g->known);
	return fleet_rd_skip(d);
}

static int one_gpu(struct rd *d, const struct jstr *k, size_t i)
{
	struct dist_worker *w = d->w;
	if (fleet_rd_grow((void **)&w->gpus, &d->cap_gpus, w->ngpus + 1, sizeof *w->gpus))
		return fleet_rd_nomem(d);
	struct dist_gpu *g = &w->gpus[w->ngpus];
	*g = (struct dist_gpu){.id = INT64_MIN, .memory = -1, .cc_major = -1, .cc_minor = -1};
	const char *at = (jscan_ws(&d->j), d->j.p);
	int rc = fleet_rd_walk(d, true, "gpus[]", gpu_member);
	if (rc)
		return rc;
	if (g->id == INT64_MIN)
		return fleet_rd_bad(d, at, "gpus[]: needs an id");
	w->ngpus++;
	return 0;
}

/* The value of top-level key k; kind and schema_version come first. */
static int top_member(struct rd *d, const struct jstr *key, size_t i)
{
	struct dist_worker *w = d->w;
	const char *at = (jscan_ws(&d->j), d->j.p);
	int k = 0;
	while (k < K_COUNT && !fleet_rd_is_key(key, top_keys[k]))
		k++;
	if ((i == 0) != (k == K_KIND) || (i == 1) != (k == K_VERSION))
		return fleet_rd_bad(
		    d, key->s - 1,
		    "a rank summary begins with \"kind\": \"%s\", then \"schema_version\"",
		    FLEET_SUMMARY_KIND);
	int64_t v;
	bool b;
	uint32_t id;
	int rc;
	switch (k) {
	case K_KIND:
		if ((rc = fleet_rd_str(d, "kind", false, &id)))
			return rc;
		if (strcmp(strpool_get(&d->r->pool, id), FLEET_SUMMARY_KIND))
			return fleet_rd_bad(d, at, "kind: expected \"%s\"", FLEET_SUMMARY_KIND);
		return 0;
	case K_VERSION:
		if ((rc = fleet_rd_int(d, "schema_version", INT64_MIN, INT64_MAX, false, 0, &v)))
			return rc;
		if (v < FLEET_SUMMARY_VERSION_MIN || v > FLEET_SUMMARY_VERSION)
			return fleet_rd_bad(
			    d, at,
			    "schema_version %lld: this gpuprof reads rank summaries "
			    "of versions %d to %d",
			    (long long)v, FLEET_SUMMARY_VERSION_MIN, FLEET_SUMMARY_VERSION);
		d->version = v;
		return 0;
	case K_COMPAT:
		if ((rc = fleet_rd_bool(d, "tb_compat", &b)))
			return rc;
		if (b != d->r->compat)
			return fleet_rd_bad(d, at,
					    "a summary made %s --tb-compat: give `gpuprof dist` %s "
					    "--tb-compat, or make it again",
					    b ? "with" : "without", b ? "" : "no");
		return 0;
	case K_NAME:
		if ((rc = fleet_rd_str(d, "name", false, &id)))
			return rc;
		if (!d->name)
			w->name = id;
		return 0;
	case K_FILE:
		return fleet_rd_str(d, "file", false, &w->path);
	case K_RANK:
		return fleet_rd_int(d, "rank", 0, INT64_MAX, true, -1, &w->rank);
	case K_WORLD:
		return fleet_rd_int(d, "world_size", 0, INT64_MAX, true, -1, &w->world_size);
	case K_BACKEND:
		return fleet_rd_str(d, "backend", true, &w->backend);
	case K_PROPS:
		return fleet_rd_bool(d, "has_device_props", &w->has_device_props);
	case K_HASCOMM:
		return fleet_rd_bool(d, "has_communication", &w->has_communication);
	case K_NCCL:
		return fleet_rd_bool(d, "has_nccl", &w->has_nccl);
	case K_GLOO:
		return fleet_rd_bool(d, "has_gloo", &w->has_gloo);
	case K_CLEARED:
		return fleet_rd_bool(d, "cleared", &w->cleared);
	case K_NAMES:
		if (!d->names && !(d->names = malloc(sizeof *d->names)))
			return fleet_rd_nomem(d);
		d->cap_names = d->cap_names ? d->cap_names : 1;
		return fleet_rd_walk(d, false, "names", one_name);
	case K_STEPS:
		return fleet_rd_walk(d, false, "steps", one_step);
	case K_NODES:
		return fleet_rd_walk(d, false, "collectives", one_node);
	case K_GPUS:
		return fleet_rd_walk(d, false, "gpus", one_gpu);
	case K_GROUPS:
	case K_KERNELS:
	case K_MEMORY:
		if (d->version < 2)
			return fleet_rd_skip(d); /* not version 1's: skipped as unknown */
		if (k == K_KERNELS)
			return fleet_rd_kernels(d);
		if (k == K_MEMORY)
			return fleet_rd_memory(d);
		if (d->w->nnodes)
			return fleet_rd_bad(d, at, "groups: must come before \"collectives\"");
		return fleet_rd_groups(d);
	default:
		return fleet_rd_skip(d); /* a later minor addition */
	}
}

/* rd_walk over the top object, noting which keys were seen. */
static int top_seen(struct rd *d, const struct jstr *key, size_t i)
{
	for (int k = 0; k < K_COUNT; k++)
		if (fleet_rd_is_key(key, top_keys[k])) {
			if (d->seen & (1u << k))
				return fleet_rd_bad(d, key->s - 1, "\"%s\" appears twice",
						    top_keys[k]);
			d->seen |= 1u << k;
		}
	return top_member(d, key, i);
}

/* Fills what dist_add computes from the rest: the real ranges (zero until
 * dist_finish), the overlap averages. */
static int complete(struct rd *d)
{
	struct dist_worker *w = d->w;
	if (!w->kr && !(w->kr = malloc(sizeof *w->kr)))
		return fleet_rd_nomem(d);
	if (!(w->real = calloc(w->nkr ? w->nkr : 1, sizeof *w->real)))
		return fleet_rd_nomem(d);
	if (!w->overlap && !(w->overlap = calloc(1, sizeof *w->overlap)))
		return fleet_rd_nomem(d);
	if (!w->nodes && !(w->nodes = calloc(1, sizeof *w->nodes)))
		return fleet_rd_nomem(d);
	if (!w->gpus && !(w->gpus = calloc(1, sizeof *w->gpus)))
		return fleet_rd_nomem(d);
	int64_t sum[4] = {0};
	for (size_t i = 0; i < w->nsteps; i++)
		for (int c = 0; c < 4; c++)
			sum[c] += w->overlap[i].v[c];
	for (int c = 0; c < 4; c++)
		w->overlap_avg[c] = dist_avg_trunc(sum[c], (int64_t)w->nsteps, d->r->compat);
	return 0;
}

/* Reads the worker object at text + off into a new worker of r; *end:
 * the offset just past its closing brace. */
static int add_one(struct dist_result *r, const char *text, size_t len, size_t off,
		   const char *path, const char *name, size_t *end, struct err *e)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 8;
		struct dist_worker *nw = realloc(r->w, cap * sizeof *nw);
		if (!nw)
			return err_set(e, ERR_NOMEM, path, -1, "out of memory");
		r->w = nw;
		r->cap = cap;
	}
	struct dist_worker *w = &r->w[r->n];
	memset(w, 0, sizeof *w);
	r->n++; /* owned by r from here on, even when half built */
	struct rd rd = {.j = {.base = text,
			      .p = text + off,
			      .end = text + len,
			      .path = path,
			      .tolerated_off = -1,
			      .e = e},
			.path = path,
			.len = len,
			.e = e,
			.r = r,
			.w = w,
			.name = name};
	struct rd *d = &rd;
	int rc = 0;
	if (name && (w->name = strpool_intern(&r->pool, name, strlen(name))) == UINT32_MAX)
		rc = fleet_rd_nomem(d);
	if (!rc)
		rc = fleet_rd_walk(d, true, "a rank summary", top_seen);
	if (!rc && d->j.tolerated)
		rc = err_set(e, ERR_FORMAT, path, d->j.tolerated_off,
			     "not valid JSON: NaN, Infinity or a trailing comma");
	for (int k = 0; !rc && k < (d->version < 2 ? K_GROUPS : K_COUNT); k++)
		if (!(d->seen & (1u << k)))
			rc = err_set(e, ERR_FORMAT, path, off ? (int64_t)off : -1,
				     "a rank summary needs \"%s\"", top_keys[k]);
	if (!rc)
		rc = fleet_rd_seq_done(d);
	if (!rc)
		rc = complete(d);
	*end = (size_t)(d->j.p - text);
	free(d->names);
	free(d->groups);
	free(d->node_at);
	return rc;
}

int fleet_summary_scan(struct dist_result *r, const char *text, size_t len, const char *path,
		       const char *name, struct fleet_span **spans, struct err *e)
{
	size_t off = 0, n0 = r->n, cap = 0;
	struct fleet_span *v = NULL;
	int rc = 0;
	struct jscan j = {.base = text, .p = text, .end = text + len, .path = path, .e = e};
	while (!rc) {
		j.p = text + off;
		if (jscan_ws(&j) && off)
			break; /* the end: at least one worker read */
		size_t start = (size_t)(j.p - text), end = start;
		if (off && *j.p != '{')
			rc = err_set(e, ERR_FORMAT, path, (int64_t)start,
				     "more text after the summary's object");
		else if (off && name)
			rc = err_set(e, ERR_FORMAT, path, (int64_t)start,
				     "holds the summaries of several workers: one name does not "
				     "apply");
		else if (!(rc = add_one(r, text, len, start, path, name, &end, e)) && spans &&
			 fleet_rd_grow((void **)&v, &cap, r->n - n0, sizeof *v))
			rc = err_set(e, ERR_NOMEM, path, -1, "out of memory");
		if (!rc && spans)
			v[r->n - n0 - 1] = (struct fleet_span){start, end};
		off = end;
	}
	if (rc || !spans)
		free(v);
	else
		*spans = v;
	return rc;
}

int fleet_summary_add(struct dist_result *r, const char *text, size_t len, const char *path,
		      const char *name, struct err *e)
{
	return fleet_summary_scan(r, text, len, path, name, NULL, e);
}

int fleet_summary_read_file(const char *path, char **out, size_t *len, struct err *e)
{
	struct src *s;
	int rc = src_open(&s, path, e);
	if (rc)
		return rc;
	size_t n = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	bool eof = false;
	while (!rc && buf && !eof) {
		if (n + 1 >= cap) {
			char *nb = (int64_t)cap > FLEET_SUMMARY_MAX ? NULL : realloc(buf, cap * 2);
			if (!nb) {
				rc = (int64_t)cap > FLEET_SUMMARY_MAX
					 ? err_set(e, ERR_LIMIT, path, -1,
						   "larger than %lld MiB: not a rank summary",
						   (long long)(FLEET_SUMMARY_MAX >> 20))
					 : err_set(e, ERR_NOMEM, path, -1, "out of memory");
				break;
			}
			buf = nb;
			cap *= 2;
		}
		rc = src_fill(s, buf, cap - 1, &n, &eof, e);
	}
	src_close(s);
	if (!buf && !rc)
		rc = err_set(e, ERR_NOMEM, path, -1, "out of memory");
	if (rc) {
		free(buf);
		return rc;
	}
	buf[n] = 0;
	*out = buf;
	*len = n;
	return 0;
}
