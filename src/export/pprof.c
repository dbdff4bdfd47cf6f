/* pprof: the stack profile as a gzip-compressed perftools.profiles.Profile
 * (google/pprof proto/profile.proto; field numbers in
 * shared/reference/pprof.md §2).
 *
 * What is written, in this field order: sample_type [calls/count,
 * time/nanoseconds]; one Sample per distinct stack of a track (leaf-first
 * location ids, values [events, self ns], labels pid, tid, category and,
 * for GPU work, device and stream); one Location per Function (same id, one
 * Line); one Function per (name, category) with filename = category; the
 * string table ("" first); time_nanos (the trace's baseTimeNanoseconds, when
 * it has one); duration_nanos (the trace's span); period_type time/ns with
 * period 1; default_sample_type "time" (also the last type, so speedscope,
 * which reads it as an index, agrees). No Mapping: pprof adds a fake one.
 *
 * Names as pprof shows them: a Function has a name and NO system_name.
 * pprof's symbolizer treats a function whose system_name equals its name
 * (or is the only name) as not yet demangled and, when the name looks like
 * C++ (contains "::", "<", ">", "[" or "]"), cuts every (...) and <...>
 * out of it by default, so cutlass::Kernel2<A> and cutlass::Kernel2<B>
 * become one node. A name that differs from the system name counts as
 * demangled already and is left exactly as written (also under
 * -symbolize=demangle=..., which only restores a non-empty system name).
 *
 * Labels that survive decoding: pprof's decoder keeps a numeric label only
 * when its value or its unit is non-zero, so every numeric label (pid, tid,
 * device, stream) carries a unit, the key's own name (the unit pprof infers
 * for a unitless key anyway): device 0 stays and -tagfocus=device=0 matches
 * it. String labels (category, and pid/tid that the trace wrote as strings)
 * are never empty.
 *
 * Deterministic: ids and strings follow stk_build's order, and the gzip
 * header has mtime 0 and OS 255 ("unknown"). Memory: the encoded profile
 * (proportional to the distinct stacks) plus zlib's state.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/strpool.h"
#include "export/export.h"

/* Profile and message field numbers. */
enum {
	PF_SAMPLE_TYPE = 1,
	PF_SAMPLE = 2,
	PF_LOCATION = 4,
	PF_FUNCTION = 5,
	PF_STRING_TABLE = 6,
	PF_TIME_NANOS = 9,
	PF_DURATION_NANOS = 10,
	PF_PERIOD_TYPE = 11,
	PF_PERIOD = 12,
	PF_DEFAULT_SAMPLE_TYPE = 14,
	VT_TYPE = 1,
	VT_UNIT = 2,
	SA_LOCATION_ID = 1,
	SA_VALUE = 2,
	SA_LABEL = 3,
	LB_KEY = 1,
	LB_STR = 2,
	LB_NUM = 3,
	LB_NUM_UNIT = 4,
	LO_ID = 1,
	LO_LINE = 4,
	LN_FUNCTION_ID = 1,
	FN_ID = 1,
	FN_NAME = 2,
	FN_FILENAME = 4,
};

/* Strings interned in a fixed order before anything is written. */
enum { S_CALLS = 1, S_COUNT, S_TIME, S_NANOS, S_PID, S_TID, S_CATEGORY, S_DEVICE, S_STREAM };
static const char *const fixed[] = {"",	   "calls", "count",	"time",	  "nanoseconds",
				    "pid", "tid",   "category", "device", "stream"};

struct enc {
	const struct stk_profile *p;
	struct arena arena;
	struct strpool sp;
	uint32_t *fname; /* frame -> string index of its name */
	uint32_t *fcat;	 /* frame -> string index of its category */
	uint32_t *tpid;	 /* track -> string index of a string pid (0 = numeric) */
	uint32_t *ttid;
	bool failed;
};

static uint32_t intern(struct enc *c, const char *s, size_t len)
{
	uint32_t id = strpool_intern(&c->sp, s, len);
	if (id == UINT32_MAX) {
		c->failed = true;
		return 0;
	}
	return id;
}

static void value_type(struct pbw *w, uint32_t field, uint32_t type, uint32_t unit)
{
	size_t m = pbw_begin(w, field);
	pbw_int64(w, VT_TYPE, type);
	pbw_int64(w, VT_UNIT, unit);
	pbw_end(w, m);
}

/* The unit is the key's own string: see the file comment. */
static void label_num(struct pbw *w, uint32_t key, int64_t num)
{
	size_t m = pbw_begin(w, SA_LABEL);
	pbw_int64(w, LB_KEY, key);
	pbw_int64(w, LB_NUM, num);
	pbw_int64(w, LB_NUM_UNIT, key);
	pbw_end(w, m);
}

static void label_str(struct pbw *w, uint32_t key, uint32_t str)
{
	size_t m = pbw_begin(w, SA_LABEL);
	pbw_int64(w, LB_KEY, key);
	pbw_int64(w, LB_STR, str);
	pbw_end(w, m);
}

static void label_id(struct pbw *w, uint32_t key, const struct tr_id *id, uint32_t str)
{
	if (id->is_str)
		label_str(w, key, str);
	else
		label_num(w, key, id->num);
}

static int intern_all(struct enc *c)
{
	const struct stk_profile *p = c->p;
	const struct trace *t = p->t;
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		intern(c, fixed[i], strlen(fixed[i]));
	size_t nf = p->nframes ? p->nframes : 1, nt = t->tracks.n ? t->tracks.n : 1;
	c->fname = arena_array(&c->arena, nf, sizeof *c->fname);
	c->fcat = arena_array(&c->arena, nf, sizeof *c->fcat);
	c->tpid = arena_array(&c->arena, nt, sizeof *c->tpid);
	c->ttid = arena_array(&c->arena, nt, sizeof *c->ttid);
	if (!c->fname || !c->fcat || !c->tpid || !c->ttid)
		return -1;
	for (size_t f = 0; f < p->nframes; f++) {
		const struct stk_frame *fr = &p->frames[f];
		const char *cat = stk_kind_label(fr->kind);
		c->fname[f] = intern(c, fr->name, fr->len);
		c->fcat[f] = intern(c, cat, strlen(cat));
	}
	for (size_t k = 0; k < t->tracks.n; k++) {
		const struct tr_track *tk = &t->tracks.v[k];
		c->tpid[k] = tk->pid.is_str ? intern(c, tr_str(t, tk->pid.str),
						     strpool_len(&t->pool, tk->pid.str))
					    : 0;
		c->ttid[k] = tk->tid.is_str ? intern(c, tr_str(t, tk->tid.str),
						     strpool_len(&t->pool, tk->tid.str))
					    : 0;
	}
	return c->failed ? -1 : 0;
}

static int samples(struct enc *c, struct pbw *w)
{
	const struct stk_profile *p = c->p;
	const struct trace *t = p->t;
	uint64_t *loc = NULL;
	size_t cap = 0;
	for (size_t i = 0; i < p->nnodes; i++) {
		const struct stk_node *n = &p->nodes[i];
		if (n->frame == STK_NONE || (!n->count && !n->self_ns))
			continue;
		if (n->depth > cap) {
			size_t nc = n->depth * 2;
			uint64_t *nl = realloc(loc, nc * sizeof *nl);
			if (!nl) {
				free(loc);
				return -1;
			}
			loc = nl;
			cap = nc;
		}
		size_t k = 0; /* leaf first, as pprof wants */
		for (uint32_t x = (uint32_t)i; x != STK_NONE && p->nodes[x].frame != STK_NONE;
		     x = p->nodes[x].parent)
			loc[k++] = (uint64_t)p->nodes[x].frame + 1;
		int64_t val[2] = {(int64_t)n->count, n->self_ns};
		size_t m = pbw_begin(w, PF_SAMPLE);
		pbw_packed_uint64(w, SA_LOCATION_ID, loc, k);
		pbw_packed_int64(w, SA_VALUE, val, 2);
		if (n->track < t->tracks.n) {
			const struct tr_track *tk = &t->tracks.v[n->track];
			label_id(w, S_PID, &tk->pid, c->tpid[n->track]);
			label_id(w, S_TID, &tk->tid, c->ttid[n->track]);
		}
		label_str(w, S_CATEGORY, c->fcat[n->frame]);
		if (n->device >= 0)
			label_num(w, S_DEVICE, n->device);
		if (n->stream >= 0)
			label_num(w, S_STREAM, n->stream);
		pbw_end(w, m);
	}
	free(loc);
	return 0;
}

int pprof_encode(const struct stk_profile *p, struct pbw *w, struct err *e)
{
	struct enc c = {.p = p};
	arena_init(&c.arena);
	int rc = 0;
	if (strpool_init(&c.sp, &c.arena) || intern_all(&c)) {
		rc = err_set(e, ERR_NOMEM, "", -1, "out of memory encoding the pprof profile");
		goto out;
	}
	value_type(w, PF_SAMPLE_TYPE, S_CALLS, S_COUNT);
	value_type(w, PF_SAMPLE_TYPE, S_TIME, S_NANOS);
	if (samples(&c, w)) {
		rc = err_set(e, ERR_NOMEM, "", -1, "out of memory encoding the pprof profile");
		goto out;
	}
	for (size_t f = 0; f < p->nframes; f++) {
		size_t m = pbw_begin(w, PF_LOCATION);
		pbw_uint64(w, LO_ID, f + 1);
		size_t ml = pbw_begin(w, LO_LINE);
		pbw_uint64(w, LN_FUNCTION_ID, f + 1);
		pbw_end(w, ml);
		pbw_end(w, m);
	}
	for (size_t f = 0; f < p->nframes; f++) {
		size_t m = pbw_begin(w, PF_FUNCTION);
		pbw_uint64(w, FN_ID, f + 1);
		pbw_int64(w, FN_NAME, c.fname[f]);
		pbw_int64(w, FN_FILENAME, c.fcat[f]);
		pbw_end(w, m);
	}
	for (uint32_t s = 0; s < c.sp.n; s++)
		pbw_bytes(w, PF_STRING_TABLE, strpool_get(&c.sp, s), strpool_len(&c.sp, s));
	const struct trace *t = p->t;
	if (t->meta.base_time_ns != INT64_MIN && t->meta.base_time_ns > 0)
		pbw_int64(w, PF_TIME_NANOS, t->meta.base_time_ns);
	if (p->min_ts != INT64_MAX && p->max_end >= p->min_ts)
		pbw_int64(w, PF_DURATION_NANOS, p->max_end - p->min_ts);
	value_type(w, PF_PERIOD_TYPE, S_TIME, S_NANOS);
	pbw_int64(w, PF_PERIOD, 1);
	pbw_int64(w, PF_DEFAULT_SAMPLE_TYPE, S_TIME);
	if (pbw_failed(w))
		rc = err_set(e, ERR_NOMEM, "", -1, "out of memory encoding the pprof profile");
out:
	strpool_free(&c.sp);
	arena_free(&c.arena);
	return rc;
}

/* Deflates buf into out as one gzip member with a fixed header. */
static int gzip_out(const uint8_t *buf, size_t n, FILE *out, struct err *e)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
	    Z_OK)
		return err_set(e, ERR_NOMEM, "", -1, "cannot start gzip compression");
	gz_header h;
	memset(&h, 0, sizeof h);
	h.os = 255; /* "unknown": the same bytes on every system */
	deflateSetHeader(&z, &h);
	uint8_t chunk[1 << 16];
	size_t off = 0;
	int zr;
	do {
		size_t take = n - off > (1u << 30) ? (1u << 30) : n - off;
		z.next_in = (Bytef *)(uintptr_t)(buf + off);
		z.avail_in = (uInt)take;
		int flush = off + take == n ? Z_FINISH : Z_NO_FLUSH;
		do {
			z.next_out = chunk;
			z.avail_out = sizeof chunk;
			zr = deflate(&z, flush);
			if (zr == Z_STREAM_ERROR) {
				deflateEnd(&z);
				return err_set(e, ERR_NOMEM, "", -1, "gzip compression failed");
			}
			size_t have = sizeof chunk - z.avail_out;
			if (have && fwrite(chunk, 1, have, out) != have) {
				deflateEnd(&z);
				return err_set(e, ERR_IO, "", -1, "write failed");
			}
		} while (z.avail_out == 0);
		off += take;
	} while (zr != Z_STREAM_END);
	deflateEnd(&z);
	return 0;
}

int pprof_write(const struct stk_profile *p, FILE *out, struct err *e)
{
	struct pbw w;
	pbw_init(&w);
	int rc = pprof_encode(p, &w, e);
	if (!rc)
		rc = gzip_out(w.buf, w.n, out, e);
	pbw_free(&w);
	return rc;
}
