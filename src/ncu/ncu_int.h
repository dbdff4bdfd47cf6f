/* ncu_int: what the files of src/ncu share while parsing a report. */
#ifndef GP_NCU_INT_H
#define GP_NCU_INT_H

#include "core/vec.h"
#include "ncu/ncu.h"
#include "pb/pb.h"

/* Caps on the growable tables of one report (each entry costs file bytes,
 * so these only stop pathological files early). */
#define NCU_MAX_ENTRIES (1u << 26)

struct ncu_span {
	const uint8_t *p;
	size_t n;
};

struct ncu_ctx {
	struct ncu_report *r;
	struct err *e;
	const char *path;
	VEC(struct ncu_result) results;
	VEC(struct ncu_process) procs;
	VEC(struct ncu_span) strs;
	VEC(struct ncu_device) devs;
	VEC(struct ncu_version) vers;
	VEC(struct ncu_source) sources;
	VEC(const char *) host_addrs, target_addrs;
	/* one result's metrics, sections and rules while it is parsed
	 * (ncu_parse_result; freed by ncu_ctx_free) */
	VEC(struct ncu_mref) mscratch;
	VEC(struct ncu_section) sscratch;
	VEC(struct ncu_rule) rscratch;
};
/* Frees what the context holds (not the report). */
void ncu_ctx_free(struct ncu_ctx *c);

/* A NUL-terminated arena copy of a length-delimited field ("" on failure is
 * never returned: NULL means out of memory). */
const char *ncu_str(struct ncu_ctx *c, const struct pb_field *f);
/* Counts the fields numbered num in the message r points at (r unchanged). */
int ncu_count(const struct pb_reader *r, uint32_t num, size_t *n, struct err *e);
/* Checks f's wire type; returns 0 or ERR_FORMAT. */
int ncu_want(const struct pb_reader *r, const struct pb_field *f, enum pb_wire w, struct err *e);
int ncu_nomem(struct ncu_ctx *c, int64_t off);
int ncu_parse_value(struct ncu_ctx *c, const struct pb_reader *r, const struct pb_field *f,
		    struct ncu_value *v);
/* Parses one SourceData entry, merged into c->sources (ncu_source.c). */
int ncu_parse_source(struct ncu_ctx *c, struct pb_reader *s);
/* Parses one ProfileResult entry into *res (ncu_result.c); res->data and
 * res->offset must be set (metric offsets are relative to res->data). */
int ncu_parse_result(struct ncu_ctx *c, struct pb_reader *r, struct ncu_result *res);
/* Parses every entry of c->results (each with its data, data_len, offset
 * and process set by the walk over the blocks) in place, on up to
 * gp_threads(threads) threads (ncu_results.c). The first error in file
 * order, as one thread would find it. */
int ncu_parse_results(struct ncu_ctx *c, int threads);

#endif
