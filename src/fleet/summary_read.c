/* fleet/summary_read: a rank summary back into a dist_result worker; see
 * summary.h. One pass over the text with json's tokenizer; every value is
 * checked for its type and range, and an error names the byte offset of
 * the value at fault. */
#include "fleet/summary.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/vec.h"
#include "io/source.h"
#include "json/jscan.h"
#include "report/report.h"

/* Times, and the sum of a worker's range lengths, stay within these so
 * that no sum dist_finish or the view computes can overflow. */
#define RD_TIME_MAX ((int64_t)1 << 61)
#define RD_SUM_MAX ((int64_t)1 << 62)

/* The top-level keys, all required. */
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
					      "gpus"};

struct rd {
	struct jscan j;
	const char *path;
	size_t len;
	struct err *e;
	struct dist_result *r;
	struct dist_worker *w;
	const char *name; /* the caller's worker name, or NULL */
	uint32_t *names;  /* "names": pool ids */
	size_t nnames, cap_names;
	size_t cap_nodes, cap_kr, cap_steps, cap_gpus;
	int64_t sum_len;    /* Σ range lengths so far */
	int64_t sum_ov;	    /* Σ |overlap values| so far */
	unsigned seen;	    /* top-level keys read: 1 << K_* */
	unsigned node_seen; /* of the collective being read: 1 start, 2 end, 4 bytes */
};

static int bad(struct rd *d, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int bad(struct rd *d, const char *at, const char *fmt, ...)
{
	char msg[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return err_set(d->e, ERR_FORMAT, d->path, jscan_off(&d->j, at), "%s", msg);
}

/* A tokenizer answer as this reader's error. */
static int js_fail(struct rd *d, int rc)
{
	if (rc == JS_MORE)
		return err_set(d->e, ERR_FORMAT, d->path, (int64_t)d->len,
			       "not valid JSON: the text ends inside a value (cut short?)");
	char msg[sizeof d->e->msg];
	snprintf(msg, sizeof msg, "%s", d->e->msg);
	return err_set(d->e, ERR_FORMAT, d->path, d->e->offset, "not valid JSON: %s", msg);
}

/* Room for need elements (core/vec's doubling, capped by memory only). */
static int grow(void **v, size_t *cap, size_t need, size_t size)
{
	return vec_reserve_(v, cap, need, size, SIZE_MAX);
}

static int nomem(struct rd *d)
{
	return err_set(d->e, ERR_NOMEM, d->path, -1, "out of memory");
}

static bool word(struct rd *d, const char *w)
{
	size_t n = strlen(w);
	if ((size_t)(d->j.end - d->j.p) < n || memcmp(d->j.p, w, n))
		return false;
	if ((size_t)(d->j.end - d->j.p) > n && jscan_is_numchar(d->j.p[n]))
		return false;
	d->j.p += n;
	return true;
}

/* An integer in [lo, hi]; null gives *v = null_v when nullable. */
static int rd_int(struct rd *d, const char *what, int64_t lo, int64_t hi, bool nullable,
		  int64_t null_v, int64_t *v)
{
	int rc = jscan_ws(&d->j);
	if (rc)
		return js_fail(d, rc);
	const char *at = d->j.p;
	if (nullable && word(d, "null")) {
		*v = null_v;
		return 0;
	}
	if (jscan_kind(*at) != JK_NUMBER)
		return bad(d, at, "%s: expected an integer%s", what, nullable ? " or null" : "");
	struct jstr num;
	if ((rc = jscan_number(&d->j, &num)))
		return js_fail(d, rc);
	if (memchr(num.s, '.', num.len) || memchr(num.s, 'e', num.len) ||
	    memchr(num.s, 'E', num.len) || jnum_i64(num.s, num.len, v))
		return bad(d, at, "%s: expected an integer, not '%.*s'", what,
			   (int)(num.len < 24 ? num.len : 24), num.s);
	if (*v < lo || *v > hi)
		return bad(d, at, "%s: %lld is out of range", what, (long long)*v);
	return 0;
}

static int rd_bool(struct rd *d, const char *what, bool *v)
{
	int rc = jscan_ws(&d->j);
	if (rc)
		return js_fail(d, rc);
	const char *at = d->j.p;
	if (word(d, "true"))
		*v = true;
	else if (word(d, "false"))
		*v = false;
	else
		return bad(d, at, "%s: expected true or false", what);
	return 0;
}

/* s[0..n) with each ill-formed UTF-8 part replaced by U+FFFD, as the
 * writer (report's JSON strings) writes it, so that a summary read and
 * written again is the same text; malloc'd into *out (NULL when s is
 * well-formed). -1 when out of memory. */
static int well_formed(const char *s, size_t n, char **out, size_t *nout)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, bad = 1, len;
	while (i < n && (len = rep_utf8_len(u + i, n - i, &bad)))
		i += len;
	*out = NULL;
	if (i >= n)
		return 0;
	char *b = malloc(n * 3 + 1); /* each bad byte at most one U+FFFD */
	if (!b)
		return -1;
	size_t k = 0;
	for (i = 0; i < n;) {
		bad = 1;
		if ((len = rep_utf8_len(u + i, n - i, &bad))) {
			memcpy(b + k, s + i, len);
			k += len;
			i += len;
		} else {
			memcpy(b + k, "\xEF\xBF\xBD", 3);
			k += 3;
			i += bad;
		}
	}
	*out = b;
	*nout = k;
	return 0;
}

/* A string interned into r's pool (null: id 0 when nullable). */
static int rd_str(struct rd *d, const char *what, bool nullable, uint32_t *id)
{
	int rc = jscan_ws(&d->j);
	if (rc)
		return js_fail(d, rc);
	const char *at = d->j.p;
	if (nullable && word(d, "null")) {
		*id = 0;
		return 0;
	}
	if (*at != '"')
		return bad(d, at, "%s: expected a string%s", what, nullable ? " or null" : "");
	struct jstr s;
	if ((rc = jscan_string(&d->j, &s)))
		return js_fail(d, rc);
	const char *p = s.s;
	size_t n = s.len;
	char *buf = NULL;
	if (s.escaped) {
		if (!(buf = malloc(s.len + 1)))
			return nomem(d);
		long k = jscan_unescape(&s, buf, s.len + 1);
		if (k < 0) {
			free(buf);
			return bad(d, at, "%s: an invalid escape in the string", what);
		}
		p = buf;
		n = (size_t)k;
	}
	if (memchr(p, 0, n)) { /* the writer's strings end at a NUL: refused */
		free(buf);
		return bad(d, at, "%s: a NUL character in the string", what);
	}
	char *fixed;
	size_t nf = 0;
	if (well_formed(p, n, &fixed, &nf)) {
		free(buf);
		return nomem(d);
	}
	*id = fixed ? strpool_intern(&d->r->pool, fixed, nf) : strpool_intern(&d->r->pool, p, n);
	free(fixed);
	free(buf);
	return *id == UINT32_MAX ? nomem(d) : 0;
}

/* Walks an object (obj) or array: each member's value goes to fn with its
 * key (objects) or index. */
typedef int (*rd_member_fn)(struct rd *d, const struct jstr *key, size_t i);
static int rd_walk(struct rd *d, bool obj, const char *what, rd_member_fn fn)
{
	char open = obj ? '{' : '[', close = obj ? '}' : ']';
	int rc = jscan_ws(&d->j);
	if (rc)
		return js_fail(d, rc);
	if (*d->j.p != open)
		return bad(d, d->j.p, "%s: expected %s", what, obj ? "an object" : "an array");
	d->j.p++;
	if ((rc = jscan_ws(&d->j)))
		return js_fail(d, rc);
	bool closed = *d->j.p == close;
	if (closed)
		d->j.p++;
	for (size_t i = 0; !closed; i++) {
		struct jstr key = {0};
		if (obj) {
			if ((rc = jscan_ws(&d->j)))
				return js_fail(d, rc);
			if (*d->j.p != '"')
				return bad(d, d->j.p, "%s: expected a string key", what);
			if ((rc = jscan_string(&d->j, &key)) || (rc = jscan_colon(&d->j)))
				return js_fail(d, rc);
		}
		if ((rc = fn(d, &key, i)))
			return rc;
		if ((rc = jscan_next(&d->j, close, &closed)))
			return js_fail(d, rc);
	}
	return 0;
}

static bool is_key(const struct jstr *k, const char *s)
{
	return !k->escaped && k->len == strlen(s) && !memcmp(k->s, s, k->len);
}

static int skip(struct rd *d)
{
	int rc = jscan_ws(&d->j);
	if (!rc)
		rc = jscan_skip(&d->j);
	return rc ? js_fail(d, rc) : 0;
}

static int add_checked(struct rd *d, int64_t *sum, int64_t v, const char *at)
{
	if (__builtin_add_overflow(*sum, v, sum) || *sum > RD_SUM_MAX)
		return bad(d, at, "the summary's times add up to more than 2^62 ns");
	return 0;
}

static int one_name(struct rd *d, const struct jstr *k, size_t i)
{
	if (grow((void **)&d->names, &d->cap_names, d->nnames + 1, sizeof *d->names))
		return nomem(d);
	return rd_str(d, "names[]", false, &d->names[d->nnames++]);
}

static int one_range(struct rd *d, const struct jstr *k, size_t i)
{
	struct dist_worker *w = d->w;
	if (grow((void **)&w->kr, &d->cap_kr, w->nkr + 1, sizeof *w->kr))
		return nomem(d);
	struct rg *g = &w->kr[w->nkr];
	if (jscan_ws(&d->j) || *d->j.p != '[')
		return bad(d, d->j.p, "ranges[]: expected an array [start, end]");
	const char *at = d->j.p++;
	int rc = rd_int(d, "range start", -RD_TIME_MAX, RD_TIME_MAX, false, 0, &g->start);
	if (!rc && (rc = jscan_expect(&d->j, ',')))
		return js_fail(d, rc);
	if (!rc)
		rc = rd_int(d, "range end", -RD_TIME_MAX, RD_TIME_MAX, false, 0, &g->end);
	if (!rc && (rc = jscan_expect(&d->j, ']')))
		return js_fail(d, rc);
	if (!rc && g->end < g->start)
		rc = bad(d, at, "ranges[]: the end is before the start");
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
	if (is_key(k, "name")) {
		if (!d->names)
			return bad(d, at, "collectives: \"names\" must come first");
		if ((rc = rd_int(d, "name", 0, (int64_t)d->nnames - 1, false, 0, &v)))
			return rc;
		n->name = d->names[v];
	} else if (is_key(k, "start")) {
		d->node_seen |= 1;
		return rd_int(d, "start", -RD_TIME_MAX, RD_TIME_MAX, false, 0, &n->start);
	} else if (is_key(k, "end")) {
		d->node_seen |= 2;
		return rd_int(d, "end", -RD_TIME_MAX, RD_TIME_MAX, false, 0, &n->end);
	} else if (is_key(k, "bytes")) {
		d->node_seen |= 4;
		return rd_int(d, "bytes", 0, INT64_MAX, false, 0, &n->bytes);
	} else if (is_key(k, "step")) {
		return rd_int(d, "step", INT64_MIN + 1, INT64_MAX, true, DIST_NO_STEP, &n->step);
	} else if (is_key(k, "pg")) {
		return rd_str(d, "a call argument", false, &n->pg);
	} else if (is_key(k, "op") || is_key(k, "pg_ranks") || is_key(k, "dtype")) {
		uint32_t id; /* checked; dist's tables do not use them */
		return rd_str(d, "a call argument", false, &id);
	} else if (is_key(k, "group_size") || is_key(k, "in_nelems") || is_key(k, "out_nelems")) {
		return rd_int(d, "a call argument", 0, INT64_MAX, false, 0, &v);
	} else if (is_key(k, "ranges")) {
		n->first = d->w->nkr;
		n->n = 0;
		return rd_walk(d, false, "ranges", one_range);
	} else {
		return skip(d);
	}
	return 0;
}

static int one_node(struct rd *d, const struct jstr *k, size_t i)
{
	struct dist_worker *w = d->w;
	if (grow((void **)&w->nodes, &d->cap_nodes, w->nnodes + 1, sizeof *w->nodes))
		return nomem(d);
	struct dist_node *n = &w->nodes[w->nnodes];
	*n = (struct dist_node){
	    .name = UINT32_MAX, .start = 1, .end = 0, .step = INT64_MIN + 1, .xrow = UINT32_MAX};
	const char *at = (jscan_ws(&d->j), d->j.p);
	d->node_seen = 0;
	int rc = rd_walk(d, true, "collectives[]", node_member);
	if (rc)
		return rc;
	if (n->name == UINT32_MAX || d->node_seen != 7 || n->start > n->end ||
	    n->step == INT64_MIN + 1 || !n->n)
		return bad(d, at,
			   "collectives[]: needs name, start <= end, bytes, step and ranges "
			   "(at least one)");
	w->nnodes++;
	return 0;
}

static int step_member(struct rd *d, const struct jstr *k, size_t i)
{
	static const char *const cols[] = {"computation", "overlap", "communication", "other"};
	struct dist_overlap *o = &d->w->overlap[d->w->nsteps];
	if (is_key(k, "step"))
		return rd_int(d, "step", INT64_MIN + 1, INT64_MAX, false, 0, &o->step);
	for (int c = 0; c < 4; c++)
		if (is_key(k, cols[c])) {
			const char *at = d->j.p;
			int rc = rd_int(d, cols[c], -RD_TIME_MAX, RD_TIME_MAX, false, 0, &o->v[c]);
			return rc ? rc
				  : add_checked(d, &d->sum_ov, o->v[c] < 0 ? -o->v[c] : o->v[c],
						at);
		}
	return skip(d);
}

static int one_step(struct rd *d, const struct jstr *k, size_t i)
{
	struct dist_worker *w = d->w;
	if (grow((void **)&w->overlap, &d->cap_steps, w->nsteps + 1, sizeof *w->overlap))
		return nomem(d);
	struct dist_overlap *o = &w->overlap[w->nsteps];
	*o = (struct dist_overlap){.step = INT64_MIN,
				   .v = {INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN}};
	const char *at = (jscan_ws(&d->j), d->j.p);
	int rc = rd_walk(d, true, "steps[]", step_member);
	if (rc)
		return rc;
	bool whole = o->step != INT64_MIN;
	for (int c = 0; c < 4; c++)
		whole = whole && o->v[c] != INT64_MIN;
	if (!whole)
		return bad(d, at,
			   "steps[]: needs step, computation, overlap, communication and other");
	w->nsteps++;
	return 0;
}

static int gpu_member(struct rd *d, const struct jstr *k, size_t i)
{
	struct dist_gpu *g = &d->w->gpus[d->w->ngpus];
	if (is_key(k, "id"))
		return rd_int(d, "id", INT64_MIN + 1, INT64_MAX, false, 0, &g->id);
	if (is_key(k, "name"))
		return rd_str(d, "name", true, &g->name);
	if (is_key(k, "memory"))
		return rd_int(d, "memory", 0, INT64_MAX, true, -1, &g->memory);
	if (is_key(k, "cc_major"))
		return rd_int(d, "cc_major", 0, INT64_MAX, true, -1, &g->cc_major);
	if (is_key(k, "cc_minor"))
		return rd_int(d, "cc_minor", 0, INT64_MAX, true, -1, &g->cc_minor);
	if (is_key(k, "known"))
		return rd_bool(d, "known", &g->known);
	return skip(d);
}

static int one_gpu(struct rd *d, const struct jstr *k, size_t i)
{
	struct dist_worker *w = d->w;
	if (grow((void **)&w->gpus, &d->cap_gpus, w->ngpus + 1, sizeof *w->gpus))
		return nomem(d);
	struct dist_gpu *g = &w->gpus[w->ngpus];
	*g = (struct dist_gpu){.id = INT64_MIN, .memory = -1, .cc_major = -1, .cc_minor = -1};
	const char *at = (jscan_ws(&d->j), d->j.p);
	int rc = rd_walk(d, true, "gpus[]", gpu_member);
	if (rc)
		return rc;
	if (g->id == INT64_MIN)
		return bad(d, at, "gpus[]: needs an id");
	w->ngpus++;
	return 0;
}

/* The value of top-level key k; kind and schema_version come first. */
static int top_member(struct rd *d, const struct jstr *key, size_t i)
{
	struct dist_worker *w = d->w;
	const char *at = (jscan_ws(&d->j), d->j.p);
	int k = 0;
	while (k < K_COUNT && !is_key(key, top_keys[k]))
		k++;
	if ((i == 0) != (k == K_KIND) || (i == 1) != (k == K_VERSION))
		return bad(d, key->s - 1,
			   "a rank summary begins with \"kind\": \"%s\", then \"schema_version\"",
			   FLEET_SUMMARY_KIND);
	int64_t v;
	bool b;
	uint32_t id;
	int rc;
	switch (k) {
	case K_KIND:
		if ((rc = rd_str(d, "kind", false, &id)))
			return rc;
		if (strcmp(strpool_get(&d->r->pool, id), FLEET_SUMMARY_KIND))
			return bad(d, at, "kind: expected \"%s\"", FLEET_SUMMARY_KIND);
		return 0;
	case K_VERSION:
		if ((rc = rd_int(d, "schema_version", INT64_MIN, INT64_MAX, false, 0, &v)))
			return rc;
		if (v != FLEET_SUMMARY_VERSION)
			return bad(d, at,
				   "schema_version %lld: this gpuprof reads rank summaries of "
				   "version %d",
				   (long long)v, FLEET_SUMMARY_VERSION);
		return 0;
	case K_COMPAT:
		if ((rc = rd_bool(d, "tb_compat", &b)))
			return rc;
		if (b != d->r->compat)
			return bad(d, at,
				   "a summary made %s --tb-compat: give `gpuprof dist` %s "
				   "--tb-compat, or make it again",
				   b ? "with" : "without", b ? "" : "no");
		return 0;
	case K_NAME:
		if ((rc = rd_str(d, "name", false, &id)))
			return rc;
		if (!d->name)
			w->name = id;
		return 0;
	case K_FILE:
		return rd_str(d, "file", false, &w->path);
	case K_RANK:
		return rd_int(d, "rank", 0, INT64_MAX, true, -1, &w->rank);
	case K_WORLD:
		return rd_int(d, "world_size", 0, INT64_MAX, true, -1, &w->world_size);
	case K_BACKEND:
		return rd_str(d, "backend", true, &w->backend);
	case K_PROPS:
		return rd_bool(d, "has_device_props", &w->has_device_props);
	case K_HASCOMM:
		return rd_bool(d, "has_communication", &w->has_communication);
	case K_NCCL:
		return rd_bool(d, "has_nccl", &w->has_nccl);
	case K_GLOO:
		return rd_bool(d, "has_gloo", &w->has_gloo);
	case K_CLEARED:
		return rd_bool(d, "cleared", &w->cleared);
	case K_NAMES:
		if (!d->names && !(d->names = malloc(sizeof *d->names)))
			return nomem(d);
		d->cap_names = d->cap_names ? d->cap_names : 1;
		return rd_walk(d, false, "names", one_name);
	case K_STEPS:
		return rd_walk(d, false, "steps", one_step);
	case K_NODES:
		return rd_walk(d, false, "collectives", one_node);
	case K_GPUS:
		return rd_walk(d, false, "gpus", one_gpu);
	default:
		return skip(d); /* a later minor addition */
	}
}

/* rd_walk over the top object, noting which keys were seen. */
static int top_seen(struct rd *d, const struct jstr *key, size_t i)
{
	for (int k = 0; k < K_COUNT; k++)
		if (is_key(key, top_keys[k])) {
			if (d->seen & (1u << k))
				return bad(d, key->s - 1, "\"%s\" appears twice", top_keys[k]);
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
		return nomem(d);
	if (!(w->real = calloc(w->nkr ? w->nkr : 1, sizeof *w->real)))
		return nomem(d);
	if (!w->overlap && !(w->overlap = calloc(1, sizeof *w->overlap)))
		return nomem(d);
	if (!w->nodes && !(w->nodes = calloc(1, sizeof *w->nodes)))
		return nomem(d);
	if (!w->gpus && !(w->gpus = calloc(1, sizeof *w->gpus)))
		return nomem(d);
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
		rc = nomem(d);
	if (!rc)
		rc = rd_walk(d, true, "a rank summary", top_seen);
	if (!rc && d->j.tolerated)
		rc = err_set(e, ERR_FORMAT, path, d->j.tolerated_off,
			     "not valid JSON: NaN, Infinity or a trailing comma");
	for (int k = 0; !rc && k < K_COUNT; k++)
		if (!(d->seen & (1u << k)))
			rc = err_set(e, ERR_FORMAT, path, off ? (int64_t)off : -1,
				     "a rank summary needs \"%s\"", top_keys[k]);
	if (!rc)
		rc = complete(d);
	*end = (size_t)(d->j.p - text);
	free(d->names);
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
			 grow((void **)&v, &cap, r->n - n0, sizeof *v))
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
