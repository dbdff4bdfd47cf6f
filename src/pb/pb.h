/* pb: protobuf wire-format reader (zero-copy, bounds-checked).
 *
 * Walks the fields of one message held in memory: varint, fixed64,
 * length-delimited and fixed32 values, nothing else (groups, wire types 3/4,
 * are rejected: no format we read uses them). Length-delimited values are
 * pointers into the caller's buffer, never copied. Every length is checked
 * against what remains of the enclosing message; nesting is bounded by
 * PB_MAX_DEPTH. Errors name the byte offset of the offending field (offsets
 * count from the start of the file the buffer came from, see pb_init).
 *
 * The reader knows no schema: callers switch on field numbers and skip what
 * they do not know (new fields appear in every release of the formats we
 * read). Owns nothing. Depends on core/err only. We write this small reader
 * instead of using libprotobuf because we need no generated code, no copies
 * and byte offsets in errors.
 */
#ifndef GP_PB_H
#define GP_PB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

#define PB_MAX_DEPTH 64	       /* nested messages below the top one */
#define PB_MAX_VARINT_BYTES 10 /* a 64-bit varint never needs more */

enum pb_wire { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2, PB_I32 = 5 };

struct pb_reader {
	const uint8_t *p, *end; /* unread bytes of this message */
	const uint8_t *base;	/* first byte of the outermost buffer */
	int64_t base_off;	/* file offset of base */
	int depth;		/* nesting level (0 = outermost) */
	const char *path;	/* for errors; may be NULL */
};

struct pb_field {
	uint32_t num;	     /* field number, >= 1 */
	enum pb_wire wire;   /* wire type */
	uint64_t u;	     /* PB_VARINT, PB_I64, PB_I32 value (raw bits) */
	const uint8_t *data; /* PB_LEN: the bytes (points into the buffer) */
	size_t len;	     /* PB_LEN: their count */
	int64_t off;	     /* file offset of the field's key */
};

/* Reader over len bytes at data; off is the file offset of data[0]. */
void pb_init(struct pb_reader *r, const void *data, size_t len, int64_t off, const char *path);
/* File offset of a pointer inside r's buffer. */
static inline int64_t pb_offset_of(const struct pb_reader *r, const uint8_t *p)
{
	return r->base_off + (int64_t)(p - r->base);
}
/* File offset of the next unread byte. */
static inline int64_t pb_offset(const struct pb_reader *r)
{
	return pb_offset_of(r, r->p);
}

/* pb_next for every case (the inline pb_next handles the common ones). */
int pb_next_slow(struct pb_reader *r, struct pb_field *f, struct err *e);

/* Reads the next field. Returns 1 with *f filled, 0 at the end of the
 * message, or a negative err_code (ERR_FORMAT) with e filled. */
static inline int pb_next(struct pb_reader *r, struct pb_field *f, struct err *e)
{
	const uint8_t *q = r->p;
	/* Most fields of the reports we read: a one-byte key (field 1..15)
	 * and a one-byte varint value or length, decoded here in a few
	 * instructions; everything else (and every error) in pb_next_slow. */
	if (r->end - q >= 2 && q[0] >= 8 && !((q[0] | q[1]) & 0x80)) {
		unsigned w = q[0] & 7;
		if (w == PB_VARINT || (w == PB_LEN && q[1] <= r->end - q - 2)) {
			f->num = q[0] >> 3;
			f->wire = (enum pb_wire)w;
			f->off = pb_offset(r);
			f->u = w == PB_VARINT ? q[1] : 0;
			f->data = w == PB_LEN ? q + 2 : NULL;
			f->len = w == PB_LEN ? q[1] : 0;
			r->p = q + 2 + f->len;
			return 1;
		}
	}
	return pb_next_slow(r, f, e);
}
/* Reader over the bytes of a PB_LEN field f read by r (a nested message).
 * Fails with ERR_FORMAT when f is not length-delimited and with ERR_LIMIT
 * when nesting passes PB_MAX_DEPTH. */
int pb_sub(const struct pb_reader *r, const struct pb_field *f, struct pb_reader *sub,
	   struct err *e);
/* Error for a field with an unexpected wire type ("field N has wire type W,
 * expected X"). Returns ERR_FORMAT. */
int pb_bad_wire(const struct pb_reader *r, const struct pb_field *f, enum pb_wire want,
		struct err *e);

/* Decodes a varint at *p (not past end), advancing *p. Returns 0, -1 when
 * the bytes end inside it, -2 when it is longer than 10 bytes or overflows
 * 64 bits. */
int pb_varint(const uint8_t **p, const uint8_t *end, uint64_t *v);

static inline int64_t pb_zigzag64(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}
static inline int32_t pb_zigzag32(uint32_t v)
{
	return (int32_t)(v >> 1) ^ -(int32_t)(v & 1);
}
/* The value of a PB_I64 field as a double / of a PB_I32 field as a float. */
double pb_double(const struct pb_field *f);
float pb_float(const struct pb_field *f);

/* ---- writer (pb_write.c) ----
 *
 * pbw: an encoder into one growable heap buffer. Nested messages are
 * written either with their size known up front (pbw_len then the body) or
 * with pbw_begin/pbw_end, which write the body first and then move it right
 * by the size of its length prefix (cost: one memmove of the body, so keep
 * such messages small; top-level fields need neither). Errors (out of memory,
 * the buffer passing its cap) are sticky: every call after the first failure
 * does nothing and pbw_failed says so, so callers check once at the end.
 * Integers are plain varints (int64 as its two's-complement bits, no zigzag),
 * as pprof and most schemas declare them. */
struct pbw {
	uint8_t *buf;
	size_t n, cap;
	size_t max; /* cap on n (0 = 4 GiB) */
	bool failed;
};

void pbw_init(struct pbw *w);
void pbw_free(struct pbw *w);
static inline bool pbw_failed(const struct pbw *w)
{
	return w->failed;
}
/* Bytes a varint of v takes (1..10). */
size_t pbw_varint_size(uint64_t v);
/* Raw pieces. */
void pbw_raw(struct pbw *w, const void *data, size_t len);
void pbw_varint(struct pbw *w, uint64_t v);
void pbw_key(struct pbw *w, uint32_t field, enum pb_wire wire);
/* A varint field (written even when v is 0: proto3 omission is the
 * caller's choice). */
void pbw_uint64(struct pbw *w, uint32_t field, uint64_t v);
static inline void pbw_int64(struct pbw *w, uint32_t field, int64_t v)
{
	pbw_uint64(w, field, (uint64_t)v);
}
void pbw_bool(struct pbw *w, uint32_t field, bool v);
/* A length-delimited field holding len bytes (strings, bytes). */
void pbw_bytes(struct pbw *w, uint32_t field, const void *data, size_t len);
/* The key and length prefix of a length-delimited field whose len body bytes
 * the caller writes next. */
void pbw_len(struct pbw *w, uint32_t field, size_t len);
/* Packed repeated varints: one length-delimited field (nothing when n is 0). */
void pbw_packed_uint64(struct pbw *w, uint32_t field, const uint64_t *v, size_t n);
void pbw_packed_int64(struct pbw *w, uint32_t field, const int64_t *v, size_t n);
/* A nested message of unknown size: pbw_begin returns a mark, pbw_end
 * writes the length prefix in front of what was written since. */
size_t pbw_begin(struct pbw *w, uint32_t field);
void pbw_end(struct pbw *w, size_t mark);

#endif
