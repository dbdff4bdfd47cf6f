/* test_pbw: the protobuf writer against hand-computed bytes, and a round
 * trip through the reader. */
#include "pb/pb.h"
#include "test.h"

static int same(const struct pbw *w, const uint8_t *want, size_t n)
{
	return !w->failed && w->n == n && !memcmp(w->buf, want, n);
}

void test_pbw_varints(struct t *t)
{
	struct pbw w;
	pbw_init(&w);
	pbw_varint(&w, 0);
	pbw_varint(&w, 1);
	pbw_varint(&w, 127);
	pbw_varint(&w, 128);
	pbw_varint(&w, 300);
	pbw_varint(&w, UINT64_MAX);
	static const uint8_t want[] = {0x00, 0x01, 0x7f, 0x80, 0x01, 0xac, 0x02, 0xff, 0xff,
				       0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
	CHECK(t, same(&w, want, sizeof want));
	CHECK_INT(t, pbw_varint_size(0), 1);
	CHECK_INT(t, pbw_varint_size(127), 1);
	CHECK_INT(t, pbw_varint_size(128), 2);
	CHECK_INT(t, pbw_varint_size(UINT64_MAX), 10);
	pbw_free(&w);
}

void test_pbw_fields(struct t *t)
{
	struct pbw w;
	pbw_init(&w);
	pbw_uint64(&w, 1, 150);	   /* 08 96 01 */
	pbw_bytes(&w, 2, "hi", 2); /* 12 02 'h' 'i' */
	pbw_int64(&w, 3, -1);	   /* 18 + ten bytes */
	pbw_bool(&w, 16, true);	   /* key 16<<3 = 128: 80 01, value 01 */
	static const uint8_t want[] = {0x08, 0x96, 0x01, 0x12, 0x02, 'h',  'i',
				       0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				       0xff, 0xff, 0xff, 0x01, 0x80, 0x01, 0x01};
	CHECK(t, same(&w, want, sizeof want));
	pbw_free(&w);
}

void test_pbw_packed_nested(struct t *t)
{
	struct pbw w;
	pbw_init(&w);
	/* Sample{location_id: [3, 270], value: [1, 1000]}, as field 2 */
	size_t m = pbw_begin(&w, 2);
	uint64_t loc[] = {3, 270};
	int64_t val[] = {1, 1000};
	pbw_packed_uint64(&w, 1, loc, 2); /* 0a 03 03 8e 02 */
	pbw_packed_int64(&w, 2, val, 2);  /* 12 03 01 e8 07 */
	pbw_packed_uint64(&w, 4, loc, 0); /* nothing */
	pbw_end(&w, m);
	static const uint8_t want[] = {0x12, 0x0a, 0x0a, 0x03, 0x03, 0x8e,
				       0x02, 0x12, 0x03, 0x01, 0xe8, 0x07};
	CHECK(t, same(&w, want, sizeof want));
	/* length known up front */
	w.n = 0;
	pbw_len(&w, 6, 3);
	pbw_raw(&w, "abc", 3);
	static const uint8_t want2[] = {0x32, 0x03, 'a', 'b', 'c'};
	CHECK(t, same(&w, want2, sizeof want2));
	pbw_free(&w);
}

void test_pbw_long_nested(struct t *t)
{
	/* A body of 200 bytes needs a 2-byte prefix: the body moves right. */
	struct pbw w;
	pbw_init(&w);
	size_t m = pbw_begin(&w, 1);
	for (int i = 0; i < 100; i++)
		pbw_uint64(&w, 1, (uint64_t)i); /* 2 bytes each */
	pbw_end(&w, m);
	CHECK_INT(t, w.n, 3 + 200);
	CHECK_INT(t, w.buf[0], 0x0a);
	CHECK_INT(t, w.buf[1], 0xc8);
	CHECK_INT(t, w.buf[2], 0x01);
	struct pb_reader r, sub;
	struct pb_field f;
	struct err e;
	pb_init(&r, w.buf, w.n, 0, "x");
	CHECK_INT(t, pb_next(&r, &f, &e), 1);
	CHECK_INT(t, f.len, 200);
	CHECK_INT(t, pb_sub(&r, &f, &sub, &e), 0);
	int k = 0;
	while (pb_next(&sub, &f, &e) == 1) {
		CHECK_INT(t, f.u, k);
		k++;
	}
	CHECK_INT(t, k, 100);
	pbw_free(&w);
}

void test_pbw_cap(struct t *t)
{
	struct pbw w;
	pbw_init(&w);
	w.max = 4;
	pbw_bytes(&w, 1, "abcdef", 6);
	CHECK(t, pbw_failed(&w));
	size_t n = w.n;
	pbw_uint64(&w, 1, 1); /* sticky: nothing more is written */
	CHECK_INT(t, w.n, n);
	pbw_free(&w);
}
