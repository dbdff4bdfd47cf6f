/* Unit tests of core/hmap, core/cmp, core/vec's cap and err_format_offset. */
#include <stdlib.h>

#include "core/cmp.h"
#include "core/err.h"
#include "core/hmap.h"
#include "core/sort.h"
#include "core/vec.h"
#include "test.h"

void test_core_hmap_int(struct t *t)
{
	struct hmap m = {0};
	CHECK_INT(t, hmap_get(&m, hmap_int(7), NULL, NULL), HMAP_NONE); /* empty, no slots */
	/* exact integer keys, 0 and negatives included; grows from 16 slots */
	for (int64_t k = -500; k < 1500; k++)
		CHECK_INT(t, hmap_put(&m, hmap_int(k * 3), (uint32_t)(k + 500)), 0);
	CHECK_INT(t, m.n, 2000);
	CHECK_INT(t, m.mask + 1, 4096); /* at most half full: 2000 entries -> 4096 slots */
	CHECK_INT(t, hmap_get(&m, hmap_int(0), NULL, NULL), 500);
	CHECK_INT(t, hmap_get(&m, hmap_int(-1500), NULL, NULL), 0);
	CHECK_INT(t, hmap_get(&m, hmap_int(4497), NULL, NULL), 1999);
	CHECK_INT(t, hmap_get(&m, hmap_int(1), NULL, NULL), HMAP_NONE); /* not a multiple of 3 */
	CHECK_INT(t, hmap_get(&m, hmap_int(4500), NULL, NULL), HMAP_NONE);
	int missing = 0;
	for (int64_t k = -500; k < 1500; k++)
		missing += hmap_get(&m, hmap_int(k * 3), NULL, NULL) != (uint32_t)(k + 500);
	CHECK_INT(t, missing, 0);
	/* get-or-insert: the slot of an absent key, filled; then found */
	uint32_t v;
	size_t s = hmap_slot(&m, hmap_int(1), NULL, NULL, &v);
	CHECK_INT(t, v, HMAP_NONE);
	hmap_set(&m, s, hmap_int(1), 77);
	CHECK_INT(t, hmap_slot(&m, hmap_int(1), NULL, NULL, &v), s);
	CHECK_INT(t, v, 77);
	hmap_free(&m);
	CHECK(t, m.key == NULL && m.n == 0);
}

/* Keys the caller keeps: strings, all hashed to the same few keys so that
 * every lookup walks a collision chain and eq tells the entries apart. */
static const char *const words[] = {
    "aten::mm",	    "aten::add",	"aten::mul",	  "aten::relu",
    "aten::conv2d", "cudaLaunchKernel", "ProfilerStep#1", ""};
struct want {
	const char *s;
};
static bool word_eq(const void *ctx, uint32_t v)
{
	return !strcmp(words[v], ((const struct want *)ctx)->s);
}

void test_core_hmap_collisions(struct t *t)
{
	struct hmap m;
	CHECK_INT(t, hmap_init(&m, 2), 0);
	size_t n = sizeof words / sizeof words[0];
	for (uint32_t i = 0; i < n; i++) {
		struct want w = {words[i]};
		uint64_t h = hmap_hash(i % 2); /* two keys for eight entries */
		CHECK_INT(t, hmap_get(&m, h, word_eq, &w), HMAP_NONE);
		CHECK_INT(t, hmap_put(&m, h, i), 0); /* grows past 2 expected */
	}
	CHECK_INT(t, m.n, n);
	for (uint32_t i = 0; i < n; i++) {
		struct want w = {words[i]};
		CHECK_INT(t, hmap_get(&m, hmap_hash(i % 2), word_eq, &w), i);
		/* the right string under the other key is not found */
		CHECK_INT(t, hmap_get(&m, hmap_hash(1 - i % 2), word_eq, &w), HMAP_NONE);
	}
	struct want w = {"aten::sub"};
	CHECK_INT(t, hmap_get(&m, hmap_hash(0), word_eq, &w), HMAP_NONE);
	CHECK(t, hmap_hash(0) != 0 && hmap_mix(0) == 0); /* hash keys are never the empty mark */
	CHECK_INT(t, hmap_reserve(&m, (size_t)1 << 41), -1); /* beyond a slot array */
	CHECK_INT(t, m.n, n);				     /* and the map is intact */
	hmap_free(&m);
}

void test_core_cmp(struct t *t)
{
	int64_t a[] = {5, -3, INT64_MAX, 0, INT64_MIN, -3};
	gp_qsort(a, 6, sizeof *a, cmp_i64);
	CHECK(t, a[0] == INT64_MIN && a[1] == -3 && a[2] == -3 && a[3] == 0 && a[4] == 5 &&
		     a[5] == INT64_MAX);
	uint32_t u[] = {UINT32_MAX, 2, 0, 1u << 31};
	gp_qsort(u, 4, sizeof *u, cmp_u32);
	CHECK(t, u[0] == 0 && u[1] == 2 && u[2] == 1u << 31 && u[3] == UINT32_MAX);
	uint64_t w[] = {UINT64_MAX, 1};
	gp_qsort(w, 2, sizeof *w, cmp_u64);
	CHECK(t, w[0] == 1 && w[1] == UINT64_MAX);
	int32_t s[] = {INT32_MAX, INT32_MIN, -1};
	gp_qsort(s, 3, sizeof *s, cmp_i32);
	CHECK(t, s[0] == INT32_MIN && s[1] == -1 && s[2] == INT32_MAX);
	double d[] = {2.5, -0.5, 1e300};
	gp_qsort(d, 3, sizeof *d, cmp_dbl);
	CHECK(t, d[0] == -0.5 && d[1] == 2.5 && d[2] == 1e300);
	/* three-way, no overflow where a - b would wrap */
	int64_t lo = INT64_MIN, hi = INT64_MAX;
	CHECK_INT(t, cmp_i64(&lo, &hi), -1);
	CHECK_INT(t, cmp_i64(&hi, &lo), 1);
	CHECK_INT(t, cmp_i64(&lo, &lo), 0);
	int64_t key = 5;
	CHECK(t, bsearch(&key, a, 6, sizeof *a, cmp_i64) == &a[4]);
}

void test_core_vec_cap(struct t *t)
{
	VEC(int) v = {0};
	for (int i = 0; i < 10; i++)
		CHECK_INT(t, vec_push(v, i, 10), 0);
	CHECK_INT(t, vec_push(v, 10, 10), -1); /* the 11th passes the cap */
	CHECK_INT(t, v.n, 10);
	CHECK_INT(t, v.v[9], 9);
	VEC(int64_t) w = {0};
	int64_t *p = vec_add(w, 3);
	CHECK(t, p != NULL && w.n == 1 && p == &w.v[0]);
	*p = 42;
	CHECK(t, vec_add(w, 3) && vec_add(w, 3));
	CHECK(t, vec_add(w, 3) == NULL); /* a fourth passes the cap of 3 */
	CHECK_INT(t, w.n, 3);
	CHECK_INT(t, w.v[0], 42);
	CHECK_INT(t, vec_reserve(w, SIZE_MAX / 4, SIZE_MAX), -1); /* count * size overflows */
	CHECK_INT(t, w.n, 3);
	vec_free(v);
	vec_free(w);
	CHECK(t, w.v == NULL && w.cap == 0);
}

void test_core_vec_fit(struct t *t)
{
	VEC(int) v = {0};
	vec_fit(v); /* empty: nothing to give back, nothing allocated */
	CHECK(t, v.v == NULL && v.cap == 0);
	for (int i = 0; i < 17; i++)
		CHECK_INT(t, vec_push(v, i * 3, 100), 0);
	CHECK_INT(t, v.cap, 32); /* 16, then doubled */
	vec_fit(v);
	CHECK_INT(t, v.cap, 17);
	CHECK_INT(t, v.n, 17);
	CHECK_INT(t, v.v[0], 0);
	CHECK_INT(t, v.v[16], 48);
	CHECK_INT(t, vec_push(v, 7, 100), 0); /* grows again from the fitted size */
	CHECK_INT(t, v.cap, 34);
	CHECK_INT(t, v.v[17], 7);
	CHECK_INT(t, v.v[16], 48);
	vec_free(v);
}

/* A growth to the caller's estimate at once: want, or a quarter more than
 * the room it had when want is less, never past max; want 0 doubles. */
void test_core_vec_reserve_to(struct t *t)
{
	VEC(int) v = {0};
	CHECK_INT(t, vec_reserve_to(v, 1, 0, 100), 0);
	CHECK_INT(t, v.cap, 16);
	CHECK_INT(t, vec_reserve_to(v, 17, 0, 100), 0);
	CHECK_INT(t, v.cap, 32);
	CHECK_INT(t, vec_reserve_to(v, 33, 1000, 5000), 0);
	CHECK_INT(t, v.cap, 1000);
	CHECK_INT(t, vec_reserve_to(v, 1000, 4000, 5000), 0); /* room enough: as it was */
	CHECK_INT(t, v.cap, 1000);
	CHECK_INT(t, vec_reserve_to(v, 1001, 1001, 5000), 0);
	CHECK_INT(t, v.cap, 1250);
	CHECK_INT(t, vec_reserve_to(v, 1251, 9000, 5000), 0);
	CHECK_INT(t, v.cap, 5000);
	CHECK_INT(t, vec_reserve_to(v, 5001, 9000, 5000), -1);
	CHECK_INT(t, v.cap, 5000);
	v.v[4999] = 7; /* the room is there (ASan) */
	vec_free(v);
}

void test_core_err_offset(struct t *t)
{
	char buf[64];
	err_format_offset(" at ", 2076, false, buf, sizeof buf);
	CHECK_STR(t, buf, " at byte 2076");
	err_format_offset(" at ", 156, true, buf, sizeof buf);
	CHECK_STR(t, buf, " at byte 156 (uncompressed)");
	err_format_offset(" at ", -1, true, buf, sizeof buf);
	CHECK_STR(t, buf, "");
	struct err e;
	err_set(&e, ERR_FORMAT, "t.json.gz", 12, "expected ','");
	err_mark_uncompressed(&e, true);
	err_format(&e, buf, sizeof buf);
	CHECK_STR(t, buf, "t.json.gz: byte 12 (uncompressed): expected ','");
}
