/* ncu_read: the .ncu-rep container (magic, FileHeader, blocks, payload
 * entries), session details, processes and sources; the model's lookups.
 *
 * A report is a sequence of blocks; each BlockHeader may carry part of the
 * session details (merged: repeated fields append, scalars overwrite), a
 * piece of the cumulative string table, and the process it belongs to; its
 * payload holds NumSources SourceData then NumResults ProfileResult
 * entries, each prefixed by a little-endian u32 length. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/source.h"
#include "ncu/ncu_int.h"

const char *ncu_str(struct ncu_ctx *c, const struct pb_field *f)
{
	return arena_strndup(&c->r->arena, (const char *)f->data, f->len);
}

void ncu_ctx_free(struct ncu_ctx *c)
{
	vec_free(c->results);
	vec_free(c->procs);
	vec_free(c->strs);
	vec_free(c->devs);
	vec_free(c->vers);
	vec_free(c->sources);
	vec_free(c->host_addrs);
	vec_free(c->target_addrs);
	vec_free(c->mscratch);
	vec_free(c->sscratch);
	vec_free(c->rscratch);
}

int ncu_nomem(struct ncu_ctx *c, int64_t off)
{
	return err_set(c->e, ERR_NOMEM, c->path, off, "out of memory reading the report");
}

int ncu_count(const struct pb_reader *r, uint32_t num, size_t *n, struct err *e)
{
	struct pb_reader q = *r;
	struct pb_field f;
	int rc;
	*n = 0;
	while ((rc = pb_next(&q, &f, e)) > 0)
		if (f.num == num)
			(*n)++;
	return rc;
}

int ncu_want(const struct pb_reader *r, const struct pb_field *f, enum pb_wire w, struct err *e)
{
	return f->wire == w ? 0 : pb_bad_wire(r, f, w, e);
}

int ncu_parse_value(struct ncu_ctx *c, const struct pb_reader *r, const struct pb_field *f,
		    struct ncu_value *v)
{
	struct pb_reader s;
	struct pb_field g;
	int rc = pb_sub(r, f, &s, c->e);
	if (rc)
		return rc;
	memset(v, 0, sizeof *v);
	while ((rc = pb_next(&s, &g, c->e)) > 0) {
		enum pb_wire want = g.num == NCU_VALUE_STRING	? PB_LEN
				    : g.num == NCU_VALUE_FLOAT	? PB_I32
				    : g.num == NCU_VALUE_DOUBLE ? PB_I64
								: PB_VARINT;
		if (g.num > NCU_VALUE_U64)
			continue;
		if ((rc = ncu_want(&s, &g, want, c->e)))
			return rc;
		switch (g.num) {
		case NCU_VALUE_STRING:
			v->type = NCU_V_STR;
			if (!(v->s = ncu_str(c, &g)))
				return ncu_nomem(c, g.off);
			break;
		case NCU_VALUE_FLOAT:
			v->type = NCU_V_FLOAT;
			v->d = pb_float(&g);
			break;
		case NCU_VALUE_DOUBLE:
			v->type = NCU_V_DOUBLE;
			v->d = pb_double(&g);
			break;
		case NCU_VALUE_U32:
			v->type = NCU_V_U32;
			v->u = (uint32_t)g.u;
			break;
		case NCU_VALUE_U64:
			v->type = NCU_V_U64;
			v->u = g.u;
			break;
		}
	}
	return rc;
}

static int parse_sysinfo(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f,
			 struct ncu_sysinfo *si, bool host)
{
	struct pb_reader s, a;
	struct pb_field g, h;
	int rc = pb_sub(r, f, &s, c->e);
	if (rc)
		return rc;
	while ((rc = pb_next(&s, &g, c->e)) > 0) {
		const char **dst = NULL;
		switch (g.num) {
		case NCU_SYSINFO_OS:
			dst = &si->os;
			break;
		case NCU_SYSINFO_BUILD:
			dst = &si->build;
			break;
		case NCU_SYSINFO_PROCESSOR:
			dst = &si->processor;
			break;
		case NCU_SYSINFO_ARCH:
			dst = &si->arch;
			break;
		case NCU_SYSINFO_COMPUTER:
			dst = &si->computer;
			break;
		case NCU_SYSINFO_PLATFORM:
			if ((rc = ncu_want(&s, &g, PB_VARINT, c->e)))
				return rc;
			si->platform = (uint32_t)g.u;
			continue;
		case NCU_SYSINFO_ADDRESSES:
			if ((rc = pb_sub(&s, &g, &a, c->e)))
				return rc;
			while ((rc = pb_next(&a, &h, c->e)) > 0) {
				if (h.num != NCU_ADDRESSES_ADDRESS)
					continue;
				if ((rc = ncu_want(&a, &h, PB_LEN, c->e)))
					return rc;
				const char *addr = ncu_str(c, &h);
				if (!addr ||
				    (host ? vec_push(c->host_addrs, addr, NCU_MAX_ENTRIES)
					  : vec_push(c->target_addrs, addr, NCU_MAX_ENTRIES)))
					return ncu_nomem(c, h.off);
			}
			if (rc)
				return rc;
			continue;
		default:
			continue;
		}
		if ((rc = ncu_want(&s, &g, PB_LEN, c->e)))
			return rc;
		if (!(*dst = ncu_str(c, &g)))
			return ncu_nomem(c, g.off);
	}
	return rc;
}

static int parse_device(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f)
{
	struct pb_reader s, a;
	struct pb_field g, h;
	struct ncu_device d = {.name = ""};
	int rc = pb_sub(r, f, &s, c->e);
	if (rc || (rc = ncu_count(&s, NCU_DEVICE_ATTRIBUTE, &d.nattrs, c->e)))
		return rc;
	d.attrs = arena_array(&c->r->arena, d.nattrs ? d.nattrs : 1, sizeof *d.attrs);
	if (!d.attrs)
		return ncu_nomem(c, f->off);
	size_t k = 0;
	while ((rc = pb_next(&s, &g, c->e)) > 0) {
		if (g.num == NCU_DEVICE_ID) {
			if ((rc = ncu_want(&s, &g, PB_VARINT, c->e)))
				return rc;
			d.id = (uint32_t)g.u;
		} else if (g.num == NCU_DEVICE_NAME) {
			if ((rc = ncu_want(&s, &g, PB_LEN, c->e)))
				return rc;
			if (!(d.name = ncu_str(c, &g)))
				return ncu_nomem(c, g.off);
		} else if (g.num == NCU_DEVICE_ATTRIBUTE) {
			struct ncu_attr *at = &d.attrs[k++];
			memset(at, 0, sizeof *at);
			at->name = "";
			if ((rc = pb_sub(&s, &g, &a, c->e)))
				return rc;
			while ((rc = pb_next(&a, &h, c->e)) > 0) {
				if (h.num == NCU_ATTR_NAME) {
					if ((rc = ncu_want(&a, &h, PB_LEN, c->e)))
						return rc;
					if (!(at->name = ncu_str(c, &h)))
						return ncu_nomem(c, h.off);
				} else if (h.num == NCU_ATTR_VALUE) {
					if ((rc = ncu_parse_value(c, &a, &h, &at->value)))
						return rc;
				}
			}
			if (rc)
				return rc;
		}
	}
	if (rc)
		return rc;
	if (vec_push(c->devs, d, NCU_MAX_ENTRIES))
		return ncu_nomem(c, f->off);
	return 0;
}

static int parse_session(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f)
{
	struct ncu_session *ss = &c->r->session;
	struct pb_reader s, a;
	struct pb_field g, h;
	int rc = pb_sub(r, f, &s, c->e);
	if (rc)
		return rc;
	while ((rc = pb_next(&s, &g, c->e)) > 0) {
		switch (g.num) {
		case NCU_SESSION_CREATION_TIME:
			if ((rc = ncu_want(&s, &g, PB_VARINT, c->e)))
				return rc;
			ss->creation_time = g.u;
			break;
		case NCU_SESSION_HOST:
		case NCU_SESSION_TARGET:
			if ((rc = parse_sysinfo(c, &s, &g,
						g.num == NCU_SESSION_HOST ? &ss->host : &ss->target,
						g.num == NCU_SESSION_HOST)))
				return rc;
			*(g.num == NCU_SESSION_HOST ? &ss->has_host : &ss->has_target) = true;
			break;
		case NCU_SESSION_DEVICE:
			if ((rc = parse_device(c, &s, &g)))
				return rc;
			break;
		case NCU_SESSION_VERSION: {
			struct ncu_version v = {"", ""};
			if ((rc = pb_sub(&s, &g, &a, c->e)))
				return rc;
			while ((rc = pb_next(&a, &h, c->e)) > 0) {
				if (h.num != NCU_VERSION_PROVIDER && h.num != NCU_VERSION_VERSION)
					continue;
				if ((rc = ncu_want(&a, &h, PB_LEN, c->e)))
					return rc;
				const char *t = ncu_str(c, &h);
				if (!t)
					return ncu_nomem(c, h.off);
				*(h.num == NCU_VERSION_PROVIDER ? &v.provider : &v.version) = t;
			}
			if (rc)
				return rc;
			if (vec_push(c->vers, v, NCU_MAX_ENTRIES))
				return ncu_nomem(c, g.off);
			break;
		}
		case NCU_SESSION_COMMAND_LINE:
			if ((rc = ncu_want(&s, &g, PB_LEN, c->e)))
				return rc;
			if (!(ss->command_line = ncu_str(c, &g)))
				return ncu_nomem(c, g.off);
			break;
		default:
			break;
		}
	}
	return rc;
}

static int parse_strings(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f)
{
	struct pb_reader s;
	struct pb_field g;
	int rc = pb_sub(r, f, &s, c->e);
	if (rc)
		return rc;
	while ((rc = pb_next(&s, &g, c->e)) > 0) {
		if (g.num != NCU_STRINGS_STRING)
			continue;
		if ((rc = ncu_want(&s, &g, PB_LEN, c->e)))
			return rc;
		struct ncu_span sp = {g.data, g.len};
		if (vec_push(c->strs, sp, NCU_MAX_ENTRIES))
			return ncu_nomem(c, g.off);
	}
	return rc;
}

/* Returns the index of the process (deduplicated) in *idx. */
static int parse_process(struct ncu_ctx *c, struct pb_reader *r, const struct pb_field *f, int *idx)
{
	struct pb_reader s;
	struct pb_field g;
	struct ncu_process p = {0, "", ""};
	int rc = pb_sub(r, f, &s, c->e);
	if (rc)
		return rc;
	while ((rc = pb_next(&s, &g, c->e)) > 0) {
		if (g.num == NCU_PROCESS_PID) {
			if ((rc = ncu_want(&s, &g, PB_VARINT, c->e)))
				return rc;
			p.pid = (uint32_t)g.u;
		} else if (g.num == NCU_PROCESS_HOST || g.num == NCU_PROCESS_NAME) {
			if ((rc = ncu_want(&s, &g, PB_LEN, c->e)))
				return rc;
			size_t n = g.len;
			/* 2025.2/2025.3 Windows reports end the path with a NUL */
			while (n && g.data[n - 1] == 0)
				n--;
			const char *t = arena_strndup(&c->r->arena, (const char *)g.data, n);
			if (!t)
				return ncu_nomem(c, g.off);
			*(g.num == NCU_PROCESS_HOST ? &p.host : &p.name) = t;
		}
	}
	if (rc)
		return rc;
	for (size_t i = 0; i < c->procs.n; i++) {
		const struct ncu_process *q = &c->procs.v[i];
		if (q->pid == p.pid && !strcmp(q->host, p.host) && !strcmp(q->name, p.name)) {
			*idx = (int)i;
			return 0;
		}
	}
	if (vec_push(c->procs, p, NCU_MAX_ENTRIES))
		return ncu_nomem(c, f->off);
	*idx = (int)c->procs.n - 1;
	return 0;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Reads the u32 length prefix at *pos (within [0, end)); fills the entry's
 * start and length and advances *pos past it. */
static int take_entry(struct ncu_ctx *c, const uint8_t *d, size_t *pos, size_t end,
		      const char *what, size_t *start, size_t *len)
{
	if (end - *pos < 4)
		return err_set(c->e, ERR_FORMAT, c->path, (int64_t)*pos,
			       "%s length runs past the end of the %s", what,
			       !strcmp(what, "block header") ? "file" : "block payload");
	uint32_t n = le32(d + *pos);
	if (n > end - *pos - 4)
		return err_set(c->e, ERR_FORMAT, c->path, (int64_t)*pos,
			       "%s length %u exceeds the %zu bytes left in the %s", what, n,
			       end - *pos - 4,
			       !strcmp(what, "block header") ? "file" : "block payload");
	*start = *pos + 4;
	*len = n;
	*pos = *start + n;
	return 0;
}

static int parse_block(struct ncu_ctx *c, const uint8_t *d, size_t size, size_t *pos)
{
	size_t hs, hn;
	int rc = take_entry(c, d, pos, size, "block header", &hs, &hn);
	if (rc)
		return rc;
	struct pb_reader r;
	struct pb_field f;
	pb_init(&r, d + hs, hn, (int64_t)hs, c->path);
	uint64_t nsrc = 0, nres = 0, nrange = 0, payload = 0;
	int proc = -1;
	while ((rc = pb_next(&r, &f, c->e)) > 0) {
		switch (f.num) {
		case NCU_BLOCK_NUM_SOURCES:
		case NCU_BLOCK_NUM_RESULTS:
		case NCU_BLOCK_PAYLOAD_SIZE:
		case NCU_BLOCK_NUM_RANGE_RESULTS:
			if ((rc = ncu_want(&r, &f, PB_VARINT, c->e)))
				return rc;
			*(f.num == NCU_BLOCK_NUM_SOURCES    ? &nsrc
			  : f.num == NCU_BLOCK_NUM_RESULTS  ? &nres
			  : f.num == NCU_BLOCK_PAYLOAD_SIZE ? &payload
							    : &nrange) = f.u;
			break;
		case NCU_BLOCK_SESSION:
			if ((rc = parse_session(c, &r, &f)))
				return rc;
			break;
		case NCU_BLOCK_STRINGS:
			if ((rc = parse_strings(c, &r, &f)))
				return rc;
			break;
		case NCU_BLOCK_PROCESS:
			if ((rc = parse_process(c, &r, &f, &proc)))
				return rc;
			break;
		default:
			break;
		}
	}
	if (rc)
		return rc;
	int64_t hoff = (int64_t)hs - 4;
	if (payload > size - *pos)
		return err_set(c->e, ERR_FORMAT, c->path, hoff,
			       "block payload size %llu exceeds the %zu bytes left in the file",
			       (unsigned long long)payload, size - *pos);
	size_t pend = *pos + (size_t)payload;
	/* every entry takes at least its 4-byte length */
	if (nsrc + nres + nrange > payload / 4)
		return err_set(c->e, ERR_FORMAT, c->path, hoff,
			       "block announces %llu entries but its payload has only %llu bytes",
			       (unsigned long long)(nsrc + nres + nrange),
			       (unsigned long long)payload);
	for (uint64_t i = 0; i < nsrc; i++) {
		size_t es, en;
		if ((rc = take_entry(c, d, pos, pend, "source entry", &es, &en)))
			return rc;
		pb_init(&r, d + es, en, (int64_t)es, c->path);
		if ((rc = ncu_parse_source(c, &r)))
			return rc;
	}
	for (uint64_t i = 0; i < nres; i++) {
		size_t es, en;
		if ((rc = take_entry(c, d, pos, pend, "result entry", &es, &en)))
			return rc;
		/* (parsed after the walk: ncu_parse_results) */
		struct ncu_result res;
		memset(&res, 0, sizeof res);
		res.process = proc;
		res.offset = (int64_t)es - 4;
		res.data = d + es;
		res.data_len = en;
		if (vec_push(c->results, res, NCU_MAX_ENTRIES))
			return ncu_nomem(c, (int64_t)es);
	}
	/* range results: layout unknown (never seen); skip their entries */
	for (uint64_t i = 0; i < nrange; i++) {
		size_t es, en;
		if ((rc = take_entry(c, d, pos, pend, "range-result entry", &es, &en)))
			return rc;
	}
	if (*pos != pend)
		return err_set(c->e, ERR_FORMAT, c->path, (int64_t)*pos,
			       "block payload has %zu bytes after its %llu entries", pend - *pos,
			       (unsigned long long)(nsrc + nres + nrange));
	c->r->nblocks++;
	return 0;
}

#define MOVE_VEC(dst, ndst, vec)                                                                   \
	do {                                                                                       \
		(ndst) = (vec).n;                                                                  \
		(dst) = arena_array(&r->arena, (vec).n ? (vec).n : 1, sizeof *(vec).v);            \
		if (!(dst))                                                                        \
			return ncu_nomem(c, -1);                                                   \
		if ((vec).n)                                                                       \
			memcpy((void *)(dst), (vec).v, (vec).n * sizeof *(vec).v);                 \
	} while (0)

static bool has_target_version(const struct ncu_report *r)
{
	for (size_t i = 0; i < r->session.nversions; i++)
		if (!strcmp(r->session.versions[i].provider, "Nsight Compute Target"))
			return true;
	return false;
}

/* After all blocks: the model's tables move into the arena and old grid
 * semantics are converted (metric names resolve through r->strings on
 * demand). */
static int finish(struct ncu_ctx *c)
{
	struct ncu_report *r = c->r;
	MOVE_VEC(r->results, r->nresults, c->results);
	MOVE_VEC(r->processes, r->nprocesses, c->procs);
	MOVE_VEC(r->session.devices, r->session.ndevices, c->devs);
	MOVE_VEC(r->session.versions, r->session.nversions, c->vers);
	MOVE_VEC(r->sources, r->nsources, c->sources);
	MOVE_VEC(r->session.host.addresses, r->session.host.naddresses, c->host_addrs);
	MOVE_VEC(r->session.target.addresses, r->session.target.naddresses, c->target_addrs);
	r->nstrings = c->strs.n;
	r->strings = arena_array(&r->arena, c->strs.n ? c->strs.n : 1, sizeof *r->strings);
	if (!r->strings)
		return ncu_nomem(c, -1);
	for (size_t i = 0; i < c->strs.n; i++)
		if (!(r->strings[i] =
			  arena_strndup(&r->arena, (const char *)c->strs.v[i].p, c->strs.v[i].n)))
			return ncu_nomem(c, -1);
	if (!r->session.command_line)
		r->session.command_line = "";
	bool old_grid = !has_target_version(r);
	for (size_t i = 0; i < r->nresults; i++) {
		struct ncu_result *res = &r->results[i];
		for (int d = 0; d < 3; d++) {
			res->grid[d] = res->grid_raw[d];
			/* <= 2020.x stored grid x block threads per dimension */
			if (old_grid && res->block[d])
				res->grid[d] = res->grid_raw[d] / res->block[d];
		}
	}
	return 0;
}

/* The walk over the blocks, then the results it found (ncu_results.c): a
 * bad result comes before whatever stopped the walk in the file, so its
 * error is the one a serial parse gives. */
static int parse_blocks(struct ncu_ctx *c, const uint8_t *d, size_t size, size_t pos, int threads)
{
	int rc = 0;
	while (!rc && pos < size)
		rc = parse_block(c, d, size, &pos);
	if (!rc)
		return ncu_parse_results(c, threads);
	struct err walk = c->e ? *c->e : (struct err){0};
	int rrc = ncu_parse_results(c, threads);
	if (rrc)
		return rrc;
	if (c->e)
		*c->e = walk;
	return rc;
}

/* Parses the report at data, which must outlive it (see ncu_parse). */
static int parse_in_place(struct ncu_report **out, const void *data, size_t size, const char *path,
			  int threads, struct err *e)
{
	*out = NULL;
	const uint8_t *d = data;
	if (size < 4 || memcmp(d, "NVR", 4))
		return err_set(e, ERR_FORMAT, path, 0,
			       "not an Nsight Compute report (no \"NVR\\0\" magic)");
	struct ncu_report *r = calloc(1, sizeof *r);
	if (!r)
		return err_set(e, ERR_NOMEM, path, -1, "out of memory");
	arena_init(&r->arena);
	r->path = arena_strndup(&r->arena, path ? path : "", path ? strlen(path) : 0);
	r->file_bytes = (int64_t)size;
	struct ncu_ctx c = {.r = r, .e = e, .path = path};
	size_t pos = 4, hs, hn;
	int rc = take_entry(&c, d, &pos, size, "file header", &hs, &hn);
	if (!rc) {
		struct pb_reader pr;
		struct pb_field f;
		pb_init(&pr, d + hs, hn, (int64_t)hs, path);
		while ((rc = pb_next(&pr, &f, e)) > 0) {
			if (f.num != NCU_FILE_VERSION)
				continue;
			if ((rc = ncu_want(&pr, &f, PB_VARINT, e)))
				break;
			r->file_version = (uint32_t)f.u;
		}
	}
	if (!rc)
		rc = parse_blocks(&c, d, size, pos, threads);
	if (!rc)
		rc = finish(&c);
	ncu_ctx_free(&c);
	if (rc) {
		ncu_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

int ncu_parse(struct ncu_report **out, const void *data, size_t size, const char *path, int threads,
	      struct err *e)
{
	*out = NULL;
	void *copy = malloc(size ? size : 1);
	if (!copy)
		return err_set(e, ERR_NOMEM, path, -1, "out of memory");
	if (size)
		memcpy(copy, data, size);
	int rc = parse_in_place(out, copy, size, path, threads, e);
	if (rc)
		free(copy);
	else
		(*out)->buf = copy;
	return rc;
}

int ncu_load(struct ncu_report **out, const char *path, int threads, struct err *e)
{
	*out = NULL;
	struct src *s;
	int rc = src_open(&s, path, e);
	if (rc)
		return rc;
	const char *map;
	size_t len;
	if (src_map(s, &map, &len) == 0) {
		/* the report keeps the mapping: metrics are decoded from it;
		 * all of it is read, two threads at once: its page tables are
		 * filled in one call rather than by a fault per 64 KiB */
		src_map_prefault(s);
		rc = parse_in_place(out, map, len, path, threads, e);
		if (rc)
			src_close(s);
		else
			(*out)->src = s;
		return rc;
	}
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0, got;
	for (;;) {
		if (n == cap) {
			/* the doubling is checked before it is done: in 32 bits
			 * it would wrap */
			if (cap > NCU_MAX_FILE_BYTES / 2) {
				rc = err_set(e, ERR_LIMIT, path, (int64_t)n,
					     "report larger than %zu bytes", NCU_MAX_FILE_BYTES);
				break;
			}
			size_t ncap = cap ? cap * 2 : (1u << 20);
			uint8_t *nb = realloc(buf, ncap);
			if (!nb) {
				rc = err_set(e, ERR_NOMEM, path, (int64_t)n, "out of memory");
				break;
			}
			buf = nb;
			cap = ncap;
		}
		if ((rc = src_read(s, buf + n, cap - n, &got, e)) || !got)
			break;
		n += got;
	}
	if (!rc) {
		rc = parse_in_place(out, buf, n, path, threads, e);
		if (rc && src_is_gzip(s))
			err_mark_uncompressed(e, true);
	}
	if (!rc) {
		(*out)->buf = buf;
		buf = NULL;
	}
	free(buf);
	src_close(s);
	return rc;
}

void ncu_free(struct ncu_report *r)
{
	if (!r)
		return;
	arena_free(&r->arena);
	free(r->buf);
	src_close(r->src);
	free(r);
}

const char *ncu_kernel_name(const struct ncu_result *res)
{
	if (res->demangled && res->demangled[0])
		return res->demangled;
	if (res->function && res->function[0])
		return res->function;
	return res->mangled ? res->mangled : "";
}

const struct ncu_value *ncu_device_attr(const struct ncu_report *r, uint32_t dev, const char *name)
{
	for (size_t i = 0; i < r->session.ndevices; i++) {
		const struct ncu_device *d = &r->session.devices[i];
		if (d->id != dev)
			continue;
		for (size_t k = 0; k < d->nattrs; k++)
			if (!strcmp(d->attrs[k].name, name))
				return &d->attrs[k].value;
	}
	return NULL;
}

double ncu_value_num(const struct ncu_value *v)
{
	switch (v ? v->type : NCU_V_NONE) {
	case NCU_V_FLOAT:
	case NCU_V_DOUBLE:
		return v->d;
	case NCU_V_U32:
	case NCU_V_U64:
		return (double)v->u;
	default:
		return NAN;
	}
}

bool ncu_value_is_na(const struct ncu_value *v)
{
	if (!v || v->type == NCU_V_NONE)
		return true;
	return (v->type == NCU_V_DOUBLE || v->type == NCU_V_FLOAT) && isnan(v->d);
}

const char *ncu_msg_type_name(uint32_t type)
{
	switch (type) {
	case NCU_MSG_INF:
		return "INF";
	case NCU_MSG_WRN:
		return "WRN";
	case NCU_MSG_ERR:
		return "ERR";
	case NCU_MSG_OPT:
		return "OPT";
	default:
		return "";
	}
}
