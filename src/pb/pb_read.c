/* pb_read: the protobuf wire reader (see pb.h). */
#include "pb/pb.h"

#include <string.h>

void pb_init(struct pb_reader *r, const void *data, size_t len, int64_t off, const char *path)
{
	r->p = data;
	r->end = r->p + len;
	r->base = r->p;
	r->base_off = off;
	r->depth = 0;
	r->path = path;
}

int pb_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	uint64_t x = 0;
	const uint8_t *q = *p;
	if (q < end && !(*q & 0x80)) { /* one or two bytes: the usual cases */
		*v = *q;
		*p = q + 1;
		return 0;
	}
	if (end - q >= 2 && !(q[1] & 0x80)) {
		*v = (uint64_t)(q[0] & 0x7f) | (uint64_t)q[1] << 7;
		*p = q + 2;
		return 0;
	}
	for (int i = 0; i < PB_MAX_VARINT_BYTES; i++) {
		if (q >= end)
			return -1;
		uint8_t b = *q++;
		/* the 10th byte may only carry the top bit of a 64-bit value */
		if (i == 9 && b > 1)
			return -2;
		x |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			*v = x;
			*p = q;
			return 0;
		}
	}
	return -2;
}

static const char *wire_name(unsigned w)
{
	switch (w) {
	case PB_VARINT:
		return "varint";
	case PB_I64:
		return "fixed64";
	case PB_LEN:
		return "length-delimited";
	case PB_I32:
		return "fixed32";
	case 3:
	case 4:
		return "group";
	default:
		return "invalid";
	}
}

int pb_next_slow(struct pb_reader *r, struct pb_field *f, struct err *e)
{
	if (r->p >= r->end)
		return 0;
	const uint8_t *q = r->p;
	int64_t off = pb_offset(r);
	uint64_t key, v;
	int rc = pb_varint(&q, r->end, &key);
	if (rc)
		return err_set(e, ERR_FORMAT, r->path, off,
			       rc == -1 ? "protobuf field key runs past the end of its message"
					: "protobuf field key is not a valid varint");
	unsigned wire = (unsigned)(key & 7);
	uint64_t num = key >> 3;
	if (num == 0 || num > 0x1fffffff)
		return err_set(e, ERR_FORMAT, r->path, off, "invalid protobuf field number %llu",
			       (unsigned long long)num);
	memset(f, 0, sizeof *f);
	f->num = (uint32_t)num;
	f->wire = (enum pb_wire)wire;
	f->off = off;
	size_t left;
	switch (wire) {
	case PB_VARINT:
		rc = pb_varint(&q, r->end, &f->u);
		if (rc)
			return err_set(e, ERR_FORMAT, r->path, off, "field %u: varint %s", f->num,
				       rc == -1 ? "runs past the end of its message"
						: "is invalid");
		break;
	case PB_I64:
	case PB_I32: {
		size_t n = wire == PB_I64 ? 8 : 4;
		if ((size_t)(r->end - q) < n)
			return err_set(e, ERR_FORMAT, r->path, off,
				       "field %u: %zu-byte value runs past the end of its message",
				       f->num, n);
		uint64_t x = 0;
		for (size_t i = 0; i < n; i++)
			x |= (uint64_t)q[i] << (8 * i);
		f->u = x;
		q += n;
		break;
	}
	case PB_LEN:
		rc = pb_varint(&q, r->end, &v);
		if (rc)
			return err_set(e, ERR_FORMAT, r->path, off, "field %u: length %s", f->num,
				       rc == -1 ? "runs past the end of its message"
						: "is invalid");
		left = (size_t)(r->end - q);
		if (v > left)
			return err_set(
			    e, ERR_FORMAT, r->path, off,
			    "field %u: length %llu exceeds the %zu bytes left in its message",
			    f->num, (unsigned long long)v, left);
		f->data = q;
		f->len = (size_t)v;
		q += v;
		break;
	default:
		return err_set(e, ERR_FORMAT, r->path, off,
			       "field %u: unsupported protobuf wire type %u (%s)", f->num, wire,
			       wire_name(wire));
	}
	r->p = q;
	return 1;
}

int pb_sub(const struct pb_reader *r, const struct pb_field *f, struct pb_reader *sub,
	   struct err *e)
{
	if (f->wire != PB_LEN)
		return pb_bad_wire(r, f, PB_LEN, e);
	if (r->depth >= PB_MAX_DEPTH)
		return err_set(e, ERR_LIMIT, r->path, f->off,
			       "protobuf messages nested deeper than %d levels", PB_MAX_DEPTH);
	*sub = *r;
	sub->p = f->data;
	sub->end = f->data + f->len;
	sub->depth = r->depth + 1;
	return 0;
}

int pb_bad_wire(const struct pb_reader *r, const struct pb_field *f, enum pb_wire want,
		struct err *e)
{
	return err_set(e, ERR_FORMAT, r->path, f->off, "field %u has wire type %s, expected %s",
		       f->num, wire_name(f->wire), wire_name(want));
}

double pb_double(const struct pb_field *f)
{
	double d;
	uint64_t u = f->u;
	memcpy(&d, &u, sizeof d);
	return d;
}

float pb_float(const struct pb_field *f)
{
	float x;
	uint32_t u = (uint32_t)f->u;
	memcpy(&x, &u, sizeof x);
	return x;
}
