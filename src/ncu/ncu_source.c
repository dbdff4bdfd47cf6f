/* ncu_source: the SourceData entries of a report (the modules: reference,
 * cubin, SASS level, SM revision, the functions with their entry
 * addresses, the imported CUDA source files), merged by reference, and their lookups (ncu.h). The
 * cubin is kept as a pointer into the report's bytes with its file offset. */
#include <string.h>

#include "ncu/ncu_int.h"

/* One Function entry {1 name, 2 entry address} of SourceData field 9,
 * appended to fs[*n] (room made by the caller). */
static int parse_function(struct ncu_ctx *c, const struct pb_field *f, struct ncu_function *fn)
{
	struct pb_reader r;
	struct pb_field g;
	int rc;
	pb_init(&r, f->data, f->len, f->off, c->path);
	memset(fn, 0, sizeof *fn);
	fn->name = "";
	while ((rc = pb_next(&r, &g, c->e)) > 0) {
		if (g.num == NCU_FUNCTION_NAME) {
			if ((rc = ncu_want(&r, &g, PB_LEN, c->e)))
				return rc;
			if (!(fn->name = ncu_str(c, &g)))
				return ncu_nomem(c, g.off);
		} else if (g.num == NCU_FUNCTION_ENTRY) {
			if ((rc = ncu_want(&r, &g, PB_VARINT, c->e)))
				return rc;
			fn->entry = g.u;
		}
	}
	return rc;
}

/* Field f of s, a message with a repeated field num: *r reads it, *k
 * counts num in it and, when k > 0, *room holds the n elements of size sz
 * at old followed by room for k more (arena; the caller appends). */
static int repeated_room(struct ncu_ctx *c, const struct pb_reader *s, const struct pb_field *f,
			 uint32_t num, const void *old, size_t n, size_t sz, struct pb_reader *r,
			 size_t *k, void **room)
{
	int rc;
	*k = 0;
	*room = NULL;
	if ((rc = ncu_want(s, f, PB_LEN, c->e)))
		return rc;
	pb_init(r, f->data, f->len, pb_offset_of(s, f->data), c->path);
	if ((rc = ncu_count(r, num, k, c->e)) || !*k)
		return rc;
	if (!(*room = arena_array(&c->r->arena, n + *k, sz)))
		return ncu_nomem(c, pb_offset_of(s, f->data));
	if (n)
		memcpy(*room, old, n * sz);
	return 0;
}

/* SourceData field 9: its Function entries appended to src's (arena). */
static int parse_functions(struct ncu_ctx *c, const struct pb_reader *s, const struct pb_field *f,
			   struct ncu_source *src)
{
	size_t k;
	void *room;
	struct pb_reader r;
	struct pb_field g;
	int rc = repeated_room(c, s, f, NCU_FUNCTIONS_FUNCTION, src->funcs, src->nfuncs,
			       sizeof *src->funcs, &r, &k, &room);
	if (rc || !k)
		return rc;
	struct ncu_function *fs = room;
	while ((rc = pb_next(&r, &g, c->e)) > 0)
		if (g.num == NCU_FUNCTIONS_FUNCTION) {
			if ((rc = ncu_want(&r, &g, PB_LEN, c->e)))
				return rc;
			g.off = pb_offset_of(&r, g.data);
			if ((rc = parse_function(c, &g, &fs[src->nfuncs++])))
				return rc;
		}
	src->funcs = fs;
	return rc;
}

/* One imported file {1 path, 2 text} of SourceData field 8. */
static int parse_imported_file(struct ncu_ctx *c, const struct pb_reader *s,
			       const struct pb_field *f, struct ncu_imported *im)
{
	struct pb_reader r;
	struct pb_field g;
	int rc;
	pb_init(&r, f->data, f->len, pb_offset_of(s, f->data), c->path);
	*im = (struct ncu_imported){.path = "", .text = ""};
	while ((rc = pb_next(&r, &g, c->e)) > 0) {
		if (g.num != NCU_IMPORTED_FILE_PATH && g.num != NCU_IMPORTED_FILE_TEXT)
			continue;
		if ((rc = ncu_want(&r, &g, PB_LEN, c->e)))
			return rc;
		const char *v = ncu_str(c, &g);
		if (!v)
			return ncu_nomem(c, pb_offset_of(&r, g.data));
		if (g.num == NCU_IMPORTED_FILE_PATH)
			im->path = v;
		else
			im->text = v, im->len = g.len;
	}
	return rc;
}

/* SourceData field 8 (it may repeat): its files appended to src's. */
static int parse_imported(struct ncu_ctx *c, const struct pb_reader *s, const struct pb_field *f,
			  struct ncu_source *src)
{
	size_t k;
	void *room;
	struct pb_reader r;
	struct pb_field g;
	int rc = repeated_room(c, s, f, NCU_IMPORTED_FILE, src->imported, src->nimported,
			       sizeof *src->imported, &r, &k, &room);
	if (rc || !k)
		return rc;
	struct ncu_imported *v = room;
	while ((rc = pb_next(&r, &g, c->e)) > 0)
		if (g.num == NCU_IMPORTED_FILE) {
			if ((rc = ncu_want(&r, &g, PB_LEN, c->e)) ||
			    (rc = parse_imported_file(c, &r, &g, &v[src->nimported++])))
				return rc;
		}
	src->imported = v;
	return rc;
}

/* A SourceData entry: the module's reference, cubin (kept as a pointer
 * into the report's bytes), SASS level, SM revision and functions. */
int ncu_parse_source(struct ncu_ctx *c, struct pb_reader *s)
{
	struct pb_field g;
	struct ncu_source src = {0};
	int rc;
	while ((rc = pb_next(s, &g, c->e)) > 0) {
		if (g.num == NCU_SOURCE_BINARY && g.wire == PB_LEN) {
			src.binary_bytes = g.len;
			src.binary = g.data;
			src.binary_off = pb_offset_of(s, g.data);
		} else if ((g.num == NCU_SOURCE_REF || g.num == NCU_SOURCE_SASS_LEVEL ||
			    g.num == NCU_SOURCE_SM_REVISION) &&
			   g.wire != PB_VARINT)
			return pb_bad_wire(s, &g, PB_VARINT, c->e);
		else if (g.num == NCU_SOURCE_REF)
			src.ref = g.u;
		else if (g.num == NCU_SOURCE_SASS_LEVEL)
			src.sass_level = (uint32_t)g.u;
		else if (g.num == NCU_SOURCE_SM_REVISION)
			src.sm_revision = (uint32_t)g.u;
		else if (g.num == NCU_SOURCE_FUNCTIONS && (rc = parse_functions(c, s, &g, &src)))
			return rc;
		else if (g.num == NCU_SOURCE_IMPORTED && (rc = parse_imported(c, s, &g, &src)))
			return rc;
	}
	if (rc)
		return rc;
	/* a module can come twice with one reference: merge */
	for (size_t i = 0; i < c->sources.n; i++) {
		struct ncu_source *o = &c->sources.v[i];
		if (o->ref != src.ref)
			continue;
		if (src.binary) {
			o->binary_bytes = src.binary_bytes;
			o->binary = src.binary;
			o->binary_off = src.binary_off;
		}
		if (src.sass_level)
			o->sass_level = src.sass_level;
		if (src.sm_revision)
			o->sm_revision = src.sm_revision;
		if (src.nfuncs) {
			struct ncu_function *fs =
			    arena_array(&c->r->arena, o->nfuncs + src.nfuncs, sizeof *fs);
			if (!fs)
				return ncu_nomem(c, pb_offset(s));
			if (o->nfuncs)
				memcpy(fs, o->funcs, o->nfuncs * sizeof *fs);
			memcpy(fs + o->nfuncs, src.funcs, src.nfuncs * sizeof *fs);
			o->funcs = fs;
			o->nfuncs += src.nfuncs;
		}
		if (src.nimported && !o->nimported)
			o->imported = src.imported, o->nimported = src.nimported;
		return 0;
	}
	return vec_push(c->sources, src, NCU_MAX_ENTRIES) ? ncu_nomem(c, pb_offset(s)) : 0;
}

const struct ncu_source *ncu_source_of(const struct ncu_report *r, size_t idx)
{
	if (idx >= r->nresults)
		return NULL;
	for (size_t i = 0; i < r->nsources; i++)
		if (r->sources[i].ref == r->results[idx].source_ref)
			return &r->sources[i];
	return NULL;
}

bool ncu_function_entry(const struct ncu_source *s, const char *name, uint64_t *entry)
{
	for (size_t i = 0; s && name && i < s->nfuncs; i++)
		if (!strcmp(s->funcs[i].name, name)) {
			*entry = s->funcs[i].entry;
			return true;
		}
	return false;
}
