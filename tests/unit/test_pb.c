/* test_pb: the protobuf wire reader on hand-made byte strings. */
#include "pb/pb.h"
#include "test.h"

void test_pb_fields(struct t *t)
{
	/* 1: varint 150; 2: "hi"; 3: fixed64 1.5; 4: fixed32 0x01020304;
	 * 5: zigzag varint -2 (3) */
	static const uint8_t b[] = {0x08, 0x96, 0x01, 0x12, 0x02, 'h', 'i', 0x19, 0, 0,	   0,	0,
				    0,	  0,	0xf8, 0x3f, 0x25, 4,   3,   2,	  1, 0x28, 0x03};
	struct pb_reader r;
	struct pb_field f;
	struct err e;
	pb_init(&r, b, sizeof b, 100, "x");
	CHECK_INT(t, pb_next(&r, &f, &e), 1);
	CHECK_INT(t, f.num, 1);
	CHECK_INT(t, f.wire, PB_VARINT);
	CHECK_INT(t, f.u, 150);
	CHECK_INT(t, f.off, 100);
	CHECK_INT(t, pb_next(&r, &f, &e), 1);
	CHECK_INT(t, f.wire, PB_LEN);
	CHECK_INT(t, f.len, 2);
	CHECK(t, !memcmp(f.data, "hi", 2));
	CHECK_INT(t, pb_next(&r, &f, &e), 1);
	CHECK_DBL(t, pb_double(&f), 1.5, 0);
	CHECK_INT(t, pb_next(&r, &f, &e), 1);
	CHECK_INT(t, f.u, 0x01020304);
	CHECK_INT(t, pb_next(&r, &f, &e), 1);
	CHECK_INT(t, pb_zigzag64(f.u), -2);
	CHECK_INT(t, pb_zigzag32(4), 2);
	CHECK_INT(t, pb_next(&r, &f, &e), 0);
	CHECK_INT(t, pb_offset(&r), 100 + (int64_t)sizeof b);
}

void test_pb_varint_limits(struct t *t)
{
	uint64_t v;
	static const uint8_t max[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
	const uint8_t *p = max;
	CHECK_INT(t, pb_varint(&p, max + sizeof max, &v), 0);
	CHECK(t, v == UINT64_MAX);
	static const uint8_t over[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
	p = over;
	CHECK_INT(t, pb_varint(&p, over + sizeof over, &v), -2);
	static const uint8_t eleven[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
					 0x80, 0x80, 0x80, 0x80, 0x00};
	p = eleven;
	CHECK_INT(t, pb_varint(&p, eleven + sizeof eleven, &v), -2);
	static const uint8_t cut[] = {0x80, 0x80};
	p = cut;
	CHECK_INT(t, pb_varint(&p, cut + sizeof cut, &v), -1);
}

/* Every length of varint (1 to 10 bytes, also padded with 0x80 bytes, as
 * protobuf allows), with 0 to 9 readable bytes after it: the value and the
 * bytes taken are the encoder's; cut short anywhere it is -1. */
void test_pb_varint_lengths(struct t *t)
{
	uint64_t s = 0x9e3779b97f4a7c15ull, bad = 0;
	for (int k = 0; k < 4000; k++) {
		s ^= s << 13, s ^= s >> 7, s ^= s << 17; /* xorshift64 */
		int width = k % 65;			 /* 0..64 significant bits */
		uint64_t want = width == 64 ? s : s & ((1ull << width) - 1);
		uint8_t buf[32];
		size_t n = 0;
		uint64_t x = want;
		do {
			buf[n++] = (uint8_t)((x & 0x7f) | (x > 0x7f ? 0x80 : 0));
			x >>= 7;
		} while (x);
		if (k % 5 == 0 && n < 9) { /* padded: the last group followed by 0x80.. 0x00 */
			buf[n - 1] |= 0x80;
			buf[n++] = 0x00;
		}
		for (size_t slack = 0; slack < 10; slack++) {
			memset(buf + n, 0xa5, slack);
			const uint8_t *p = buf;
			uint64_t v = 0;
			if (pb_varint(&p, buf + n + slack, &v) != 0 || v != want || p != buf + n)
				bad++;
		}
		for (size_t cut = 0; cut < n; cut++) {
			const uint8_t *p = buf;
			uint64_t v;
			if (pb_varint(&p, buf + cut, &v) != -1)
				bad++;
		}
	}
	CHECK_INT(t, bad, 0);
}

void test_pb_errors(struct t *t)
{
	struct pb_reader r;
	struct pb_field f;
	struct err e;
	/* length 5 with 2 bytes left */
	static const uint8_t len[] = {0x0a, 0x05, 'a', 'b'};
	pb_init(&r, len, sizeof len, 10, "f");
	CHECK_INT(t, pb_next(&r, &f, &e), ERR_FORMAT);
	CHECK_INT(t, e.offset, 10);
	CHECK(t, strstr(e.msg, "exceeds") != NULL);
	/* group wire type */
	static const uint8_t grp[] = {0x00, 0x0b};
	pb_init(&r, grp + 1, 1, 0, "f");
	CHECK_INT(t, pb_next(&r, &f, &e), ERR_FORMAT);
	CHECK(t, strstr(e.msg, "group") != NULL);
	/* field number 0 */
	pb_init(&r, grp, 1, 0, "f");
	CHECK_INT(t, pb_next(&r, &f, &e), ERR_FORMAT);
	/* fixed64 cut short */
	static const uint8_t f64[] = {0x09, 1, 2, 3};
	pb_init(&r, f64, sizeof f64, 0, "f");
	CHECK_INT(t, pb_next(&r, &f, &e), ERR_FORMAT);
	/* wire-type check helper */
	static const uint8_t v[] = {0x08, 0x01};
	pb_init(&r, v, sizeof v, 0, "f");
	CHECK_INT(t, pb_next(&r, &f, &e), 1);
	struct pb_reader sub;
	CHECK_INT(t, pb_sub(&r, &f, &sub, &e), ERR_FORMAT);
}

void test_pb_nesting(struct t *t)
{
	/* 100 nested length-delimited fields: field 1 { field 1 { ... } },
	 * built from the inside out (lengths above 127 take two bytes) */
	uint8_t b[400], tmp[400];
	size_t n = 0;
	for (int i = 0; i < 100; i++) {
		size_t k = 0;
		tmp[k++] = 0x0a;
		if (n < 128) {
			tmp[k++] = (uint8_t)n;
		} else {
			tmp[k++] = (uint8_t)(0x80 | (n & 0x7f));
			tmp[k++] = (uint8_t)(n >> 7);
		}
		memcpy(tmp + k, b, n);
		n += k;
		memcpy(b, tmp, n);
	}
	struct pb_reader r, s;
	struct pb_field f;
	struct err e;
	pb_init(&r, b, n, 0, "f");
	int depth = 0, rc = 0;
	while ((rc = pb_next(&r, &f, &e)) == 1) {
		if ((rc = pb_sub(&r, &f, &s, &e)))
			break;
		r = s;
		depth++;
	}
	CHECK_INT(t, rc, ERR_LIMIT);
	CHECK_INT(t, depth, PB_MAX_DEPTH);
}
