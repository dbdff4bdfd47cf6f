/* radix: stable LSD radix sort of records by integer fields (radix.h). */
#include "core/radix.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The key of a record as an unsigned 64-bit value whose unsigned order is
 * the key's order: signed values have their sign bit flipped, descending
 * keys are complemented (within the key's width). */
static inline __attribute__((always_inline)) uint64_t key_of(const unsigned char *rec,
							     const struct rx_key *k)
{
	uint64_t v, top;
	switch (k->type) {
	case RX_U8:
		v = rec[k->off];
		top = 0xff;
		break;
	case RX_U16: {
		uint16_t x;
		memcpy(&x, rec + k->off, sizeof x);
		v = x;
		top = 0xffff;
		break;
	}
	case RX_U32:
	case RX_I32: {
		uint32_t x;
		memcpy(&x, rec + k->off, sizeof x);
		v = k->type == RX_I32 ? x ^ 0x80000000u : x;
		top = 0xffffffffu;
		break;
	}
	default: {
		uint64_t x;
		memcpy(&x, rec + k->off, sizeof x);
		v = k->type == RX_I64 ? x ^ (UINT64_C(1) << 63) : x;
		top = UINT64_MAX;
		break;
	}
	}
	return k->desc ? top - v : v;
}

/* Record copies with the common sizes known to the compiler. */
static void copy_rec(unsigned char *d, const unsigned char *s, size_t size)
{
	switch (size) {
	case 8:
		memcpy(d, s, 8);
		break;
	case 16:
		memcpy(d, s, 16);
		break;
	case 24:
		memcpy(d, s, 24);
		break;
	case 32:
		memcpy(d, s, 32);
		break;
	default:
		memcpy(d, s, size);
	}
}

/* A key with the index of its record. */
struct kv {
	uint64_t k;
	uint32_t i;
};

#define DIGIT_BITS 11
#define DIGITS (1u << DIGIT_BITS)
#define SMALL 48

/* The DIGIT_BITS digits that span the bits set in diff (the bits that
 * differ between keys); 0 when none. */
static unsigned digits_of(uint64_t diff)
{
	return diff ? (64u - (unsigned)__builtin_clzll(diff) + DIGIT_BITS - 1) / DIGIT_BITS : 0;
}

/* Digit d's histogram in count turned into each value's first place in
 * the output (in place); NULL when every key has the same digit d (the
 * pass is skipped: a stable pass would keep the order). */
static size_t *digit_starts(size_t *count, unsigned d, uint64_t diff)
{
	if (!((diff >> (d * DIGIT_BITS)) & (DIGITS - 1)))
		return NULL;
	size_t *c = count + (size_t)d * DIGITS, at = 0;
	for (size_t x = 0; x < DIGITS; x++) {
		size_t m = c[x];
		c[x] = at;
		at += m;
	}
	return c;
}

/* Stable sort of a[0..n) by k, using b as scratch; returns where the
 * result is. Only the bits that differ between keys are sorted on, in
 * 11-bit digits: a trace's times span far fewer bits than 64. */
static struct kv *sort_kv(struct kv *a, struct kv *b, size_t n, uint64_t diff, size_t *count)
{
	if (n <= SMALL) { /* insertion sort: stable, no histograms to clear */
		for (size_t j = 1; j < n; j++) {
			struct kv x = a[j];
			size_t i = j;
			for (; i && a[i - 1].k > x.k; i--)
				a[i] = a[i - 1];
			a[i] = x;
		}
		return a;
	}
	unsigned nd = digits_of(diff);
	memset(count, 0, (size_t)nd * DIGITS * sizeof *count);
	for (size_t j = 0; j < n; j++)
		for (unsigned d = 0; d < nd; d++)
			count[d * DIGITS + ((a[j].k >> (d * DIGIT_BITS)) & (DIGITS - 1))]++;
	for (unsigned d = 0; d < nd; d++) {
		size_t *c = digit_starts(count, d, diff);
		if (!c)
			continue;
		for (size_t j = 0; j < n; j++)
			b[c[(a[j].k >> (d * DIGIT_BITS)) & (DIGITS - 1)]++] = a[j];
		struct kv *t = a;
		a = b;
		b = t;
	}
	return a;
}

/* The 64-bit value at p (any alignment). */
static uint64_t ld64(const unsigned char *p)
{
	uint64_t u;
	memcpy(&u, p, sizeof u);
	return u;
}

int rx_sort_u64(void *base, size_t n)
{
	if (n < 2)
		return 0;
	if (n > SIZE_MAX / 8)
		return -1;
	unsigned char *a = base, *b = malloc(n * 8);
	size_t *count = malloc((64 / DIGIT_BITS + 1) * DIGITS * sizeof *count);
	if (!b || !count) {
		free(b);
		free(count);
		return -1;
	}
	uint64_t first = ld64(a), diff = 0;
	for (size_t j = 0; j < n; j++)
		diff |= ld64(a + 8 * j) ^ first;
	unsigned nd = digits_of(diff);
	memset(count, 0, (size_t)nd * DIGITS * sizeof *count);
	for (size_t j = 0; j < n; j++) {
		uint64_t k = ld64(a + 8 * j);
		for (unsigned d = 0; d < nd; d++)
			count[d * DIGITS + ((k >> (d * DIGIT_BITS)) & (DIGITS - 1))]++;
	}
	for (unsigned d = 0; d < nd; d++) {
		size_t *c = digit_starts(count, d, diff);
		if (!c)
			continue;
		for (size_t j = 0; j < n; j++) {
			uint64_t k = ld64(a + 8 * j);
			memcpy(b + 8 * c[(k >> (d * DIGIT_BITS)) & (DIGITS - 1)]++, &k, 8);
		}
		unsigned char *t = a;
		a = b;
		b = t;
	}
	if (a != base) {
		memcpy(base, a, n * 8);
		b = a;
	}
	free(b);
	free(count);
	return 0;
}

/* A key as the insertion pass reads it: the field's offset and width,
 * and the mask that key_of's flips amount to (the sign bit of a signed
 * field; the whole width of a descending one, where top - v = top ^ v). */
struct kd {
	size_t off;
	unsigned width;
	uint64_t mask;
};

static struct kd key_desc(const struct rx_key *k)
{
	struct kd d = {.off = k->off, .width = 8};
	switch (k->type) {
	case RX_U8:
		d.width = 1;
		break;
	case RX_U16:
		d.width = 2;
		break;
	case RX_I32:
		d.mask = 0x80000000u;
		/* fall through */
	case RX_U32:
		d.width = 4;
		break;
	case RX_I64:
		d.mask = UINT64_C(1) << 63;
		break;
	default:
		break;
	}
	if (k->desc)
		d.mask ^= d.width == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * d.width)) - 1;
	return d;
}

static inline __attribute__((always_inline)) uint64_t key_at(const unsigned char *rec,
							     const struct kd *d)
{
	const unsigned char *p = rec + d->off;
	uint64_t v;
	if (d->width == 8) {
		memcpy(&v, p, 8);
	} else if (d->width == 4) {
		uint32_t x;
		memcpy(&x, p, 4);
		v = x;
	} else if (d->width == 2) {
		uint16_t x;
		memcpy(&x, p, 2);
		v = x;
	} else {
		v = *p;
	}
	return v ^ d->mask;
}

/* Whether record x sorts after record y (the first key that differs
 * decides; equal records do not). */
static inline __attribute__((always_inline)) bool
after(const unsigned char *x, const unsigned char *y, const struct kd *d, size_t nk)
{
	for (size_t q = 0; q < nk; q++) {
		uint64_t a = key_at(x, &d[q]), b = key_at(y, &d[q]);
		if (a != b)
			return a > b;
	}
	return false;
}

#define NEAR_MAX_SIZE 64 /* the largest record the insertion pass moves */
#define NEAR_MAX_KEYS 5	 /* and the most keys */

/* A stable insertion sort that gives up after n record moves: true when
 * the records are sorted (a trace written in time order mostly has them
 * in order, or nearly: one pass and a few moves, no allocation). When it
 * gives up, the records that are out of place keep their relative order
 * to every equal record, so the radix sort of what it leaves is the sort
 * of the input. */
static bool nearly_sorted(unsigned char *base, size_t n, size_t size, const struct rx_key *keys,
			  size_t nk)
{
	if (size > NEAR_MAX_SIZE || nk > NEAR_MAX_KEYS)
		return false;
	unsigned char x[NEAR_MAX_SIZE];
	struct kd d[NEAR_MAX_KEYS];
	for (size_t q = 0; q < nk; q++)
		d[q] = key_desc(&keys[q]);
	size_t budget = n;
	for (size_t j = 1; j < n; j++) {
		unsigned char *r = base + j * size;
		if (!after(r - size, r, d, nk))
			continue;
		memcpy(x, r, size);
		size_t i = j;
		do {
			if (!budget--) {
				memcpy(base + i * size, x, size);
				return false;
			}
			memcpy(base + i * size, base + (i - 1) * size, size);
			i--;
		} while (i && after(base + (i - 1) * size, x, d, nk));
		memcpy(base + i * size, x, size);
	}
	return true;
}

#define MERGE_MAX_RUNS 8 /* the most ascending runs merged instead of sorted */

/* The starts of the ascending runs of base (bounds[0..*nruns), then n in
 * bounds[*nruns]), counted up to MERGE_MAX_RUNS + 1: false when there are
 * more. */
static bool find_runs(const unsigned char *base, size_t n, size_t size, const struct kd *d,
		      size_t nk, size_t *bounds, size_t *nruns)
{
	size_t k = 0;
	bounds[k++] = 0;
	for (size_t j = 1; j < n; j++) {
		if (!after(base + (j - 1) * size, base + j * size, d, nk))
			continue;
		if (k == MERGE_MAX_RUNS)
			return false;
		bounds[k++] = j;
	}
	bounds[k] = n;
	*nruns = k;
	return true;
}

/* The most records a left run of merge_runs' pairs holds, over its
 * passes: the room its scratch copy needs (for two runs, the first). */
static size_t most_left(const size_t *bounds, size_t nruns)
{
	size_t b[MERGE_MAX_RUNS + 1], most = 0;
	memcpy(b, bounds, (nruns + 1) * sizeof *b);
	while (nruns > 1) {
		size_t out = 0;
		for (size_t i = 0; i < nruns; i += 2) {
			b[out++] = b[i];
			if (i + 1 < nruns && b[i + 1] - b[i] > most)
				most = b[i + 1] - b[i];
		}
		b[out] = b[nruns];
		nruns = out;
	}
	return most;
}

/* Merges the runs pairwise, left before right on equal keys (stable),
 * until one is left: n log2(runs) moves. tmp has room for the largest
 * left run (most_left). */
static void merge_runs(unsigned char *base, unsigned char *tmp, size_t size, const struct kd *d,
		       size_t nk, size_t *bounds, size_t nruns)
{
	while (nruns > 1) {
		size_t out = 0;
		for (size_t i = 0; i < nruns; i += 2) {
			size_t lo = bounds[i];
			if (i + 1 == nruns) {
				bounds[out++] = lo;
				break;
			}
			size_t mid = bounds[i + 1], hi = bounds[i + 2];
			bounds[out++] = lo;
			if (!after(base + (mid - 1) * size, base + mid * size, d, nk))
				continue; /* already in order across the seam */
			memcpy(tmp, base + lo * size, (mid - lo) * size);
			const unsigned char *a = tmp, *ae = tmp + (mid - lo) * size;
			const unsigned char *b = base + mid * size, *be = base + hi * size;
			unsigned char *o = base + lo * size;
			while (a < ae && b < be) {
				const unsigned char **from = after(a, b, d, nk) ? &b : &a;
				copy_rec(o, *from, size);
				*from += size;
				o += size;
			}
			memcpy(o, a, (size_t)(ae - a)); /* what is left of b is in place */
		}
		bounds[out] = bounds[nruns];
		nruns = out;
	}
}

/* Input of a few ascending runs (a list per stream or device, appended
 * one after another) merged in place: true when done, false when the
 * input has more runs, its records or keys are past the limits, or the
 * scratch copy cannot be allocated. */
static bool merged(unsigned char *base, size_t n, size_t size, const struct rx_key *keys, size_t nk)
{
	if (size > NEAR_MAX_SIZE || nk > NEAR_MAX_KEYS || n > SIZE_MAX / size)
		return false;
	struct kd d[NEAR_MAX_KEYS];
	for (size_t q = 0; q < nk; q++)
		d[q] = key_desc(&keys[q]);
	size_t bounds[MERGE_MAX_RUNS + 1], nruns;
	if (!find_runs(base, n, size, d, nk, bounds, &nruns))
		return false;
	if (nruns == 1)
		return true;
	unsigned char *tmp = malloc(most_left(bounds, nruns) * size);
	if (!tmp)
		return false;
	merge_runs(base, tmp, size, d, nk, bounds, nruns);
	free(tmp);
	return true;
}

int rx_sort(void *base, size_t n, size_t size, const struct rx_key *keys, size_t nk)
{
	if (n < 2 || !nk || merged(base, n, size, keys, nk) ||
	    nearly_sorted(base, n, size, keys, nk))
		return 0;
	if (n > UINT32_MAX || n > SIZE_MAX / size || n > SIZE_MAX / sizeof(struct kv))
		return -1;
	struct kv *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
	uint32_t *perm = malloc(n * sizeof *perm);
	size_t *count =
	    n <= SMALL ? malloc(1) : malloc((64 / DIGIT_BITS + 1) * DIGITS * sizeof *count);
	if (!a || !b || !perm || !count) {
		free(a);
		free(b);
		free(perm);
		free(count);
		return -1;
	}
	const unsigned char *rec = base;
	bool moved = false;
	for (size_t j = 0; j < n; j++)
		perm[j] = (uint32_t)j;
	for (size_t q = nk; q-- > 0;) {
		bool sorted = true;
		uint64_t first = key_of(rec + (size_t)perm[0] * size, &keys[q]), prev = first,
			 diff = 0;
		for (size_t j = 0; j < n; j++) {
			uint64_t v = key_of(rec + (size_t)perm[j] * size, &keys[q]);
			a[j] = (struct kv){v, perm[j]};
			sorted &= v >= prev;
			diff |= v ^ first;
			prev = v;
		}
		if (sorted)
			continue; /* a stable sort would keep this order */
		struct kv *r = sort_kv(a, b, n, diff, count);
		for (size_t j = 0; j < n; j++)
			perm[j] = r[j].i;
		moved = true;
	}
	/* the keys are freed before the records' copy is made: the sort's
	 * peak memory is the larger of the two, not their sum */
	free(a);
	free(b);
	free(count);
	unsigned char *tmp = moved ? malloc(n * size) : NULL;
	if (moved && !tmp) {
		free(perm);
		return -1;
	}
	if (moved) {
		for (size_t j = 0; j < n; j++)
			copy_rec(tmp + j * size, rec + (size_t)perm[j] * size, size);
		memcpy(base, tmp, n * size);
	}
	free(perm);
	free(tmp);
	return 0;
}
