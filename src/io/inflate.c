/* inflate: see inflate.h. The decoder is a state machine over the parts
 * of a member (header, block headers, stored bytes, Huffman-coded
 * symbols, trailer) that stops whenever the caller's buffer is full, even
 * inside a back-reference; input is pulled a byte at a time through a
 * 64-bit bit buffer, so running out of it is only ever the end of the
 * input (a truncated stream). Huffman codes are canonical (RFC 1951 3.2.2):
 * a code of each length is decoded from the count of codes of that length
 * and the symbols in code order, FAST_BITS at a time through a table when
 * the code is that short. */
#include "io/inflate.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIN_SIZE 32768u
#define IN_BYTES ((size_t)1 << 16)
#define MAX_BITS 15
#define FAST_BITS 9

enum state { S_MAGIC, S_HEADER, S_BLOCK, S_STORED, S_HUFF, S_TRAILER, S_NEXT, S_DONE, S_FAILED };

struct huff {
	uint16_t count[MAX_BITS + 1]; /* codes of each length */
	uint16_t sym[320];	      /* symbols in code order */
	/* codes of at most FAST_BITS bits, by their next FAST_BITS input bits:
	 * symbol << 4 | length; 0 where the code is longer */
	uint16_t fast[1u << FAST_BITS];
};

struct infl {
	infl_read_fn rd;
	void *ctx;
	size_t in_pos, in_len;
	bool in_eof, cut;
	int64_t raw, trailing;
	uint64_t bits;
	unsigned nbits;

	enum state state;
	int status; /* sticky, once reached: INFL_TRUNCATED or an error */
	bool last;  /* the block being decoded is the member's last */
	int member;
	uint32_t stored_left, copy_len, copy_dist;
	uint64_t out; /* bytes of this member so far */
	uint32_t crc;
	bool have_fixed;
	struct huff lit, dist, fixed_lit, fixed_dist;
	char msg[80];
	uint32_t crc_table[4][256]; /* [k][b]: b's CRC followed by k zero bytes */
	unsigned char win[WIN_SIZE];
	unsigned char in[IN_BYTES];
};

static const uint16_t len_base[29] = {3,  4,  5,  6,   7,   8,	 9,   10,  11, 13,
				      15, 17, 19, 23,  27,  31,	 35,  43,  51, 59,
				      67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
				      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t dist_base[30] = {
    1,	 2,   3,   4,	5,   7,	   9,	 13,   17,   25,   33,	 49,   65,    97,    129,
    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,	3,  3,	4,  4,	5,  5,	6,
				       6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

struct infl *infl_new(infl_read_fn rd, void *ctx)
{
	struct infl *z = malloc(sizeof *z);
	if (!z)
		return NULL;
	memset(z, 0, offsetof(struct infl, win));
	z->rd = rd;
	z->ctx = ctx;
	z->member = 1;
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		z->crc_table[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int k = 1; k < 4; k++) {
			uint32_t c = z->crc_table[k - 1][i];
			z->crc_table[k][i] = (c >> 8) ^ z->crc_table[0][c & 0xff];
		}
	return z;
}

void infl_free(struct infl *z)
{
	free(z);
}

const char *infl_msg(const struct infl *z)
{
	return z->msg;
}

int infl_member(const struct infl *z)
{
	return z->member;
}

int64_t infl_raw_read(const struct infl *z)
{
	return z->raw;
}

int64_t infl_trailing(const struct infl *z)
{
	return z->trailing;
}

/* --- input --- */

/* The next input byte, or -1 at the end of the input (or a read error,
 * which sets status). */
static int next_byte(struct infl *z)
{
	if (z->in_pos == z->in_len) {
		size_t got = 0;
		if (z->in_eof)
			return -1;
		if (z->rd(z->ctx, z->in, IN_BYTES, &got)) {
			z->status = INFL_IO;
			z->in_eof = true;
			return -1;
		}
		if (!got) {
			z->in_eof = true;
			return -1;
		}
		z->raw += (int64_t)got;
		z->in_pos = 0;
		z->in_len = got;
	}
	return z->in[z->in_pos++];
}

/* n (<= 32) bits, least significant first; 0 with cut set when the input
 * ends first. */
static uint32_t bits(struct infl *z, unsigned n)
{
	while (z->nbits < n) {
		int b = next_byte(z);
		if (b < 0) {
			z->cut = true;
			return 0;
		}
		z->bits |= (uint64_t)b << z->nbits;
		z->nbits += 8;
	}
	uint32_t v = (uint32_t)(z->bits & ((1ull << n) - 1));
	z->bits >>= n;
	z->nbits -= n;
	return v;
}

static void align(struct infl *z)
{
	z->bits >>= z->nbits & 7;
	z->nbits -= z->nbits & 7;
}

/* --- Huffman codes --- */

static uint32_t reverse(uint32_t code, unsigned len)
{
	uint32_t r = 0;
	for (unsigned i = 0; i < len; i++, code >>= 1)
		r = r << 1 | (code & 1);
	return r;
}

/* The code of the n lengths; -1 when it is over-subscribed, or
 * incomplete beyond one code (a lone distance code is allowed). */
static int build(struct huff *h, const uint8_t *length, unsigned n)
{
	uint16_t offs[MAX_BITS + 2];
	memset(h->count, 0, sizeof h->count);
	memset(h->fast, 0, sizeof h->fast);
	for (unsigned s = 0; s < n; s++)
		h->count[length[s]]++;
	unsigned used = n - h->count[0];
	int left = 1;
	for (unsigned len = 1; len <= MAX_BITS; len++) {
		left = (left << 1) - h->count[len];
		if (left < 0)
			return -1;
	}
	if (left > 0 && used > 1)
		return -1;
	offs[1] = 0;
	for (unsigned len = 1; len <= MAX_BITS; len++)
		offs[len + 1] = (uint16_t)(offs[len] + h->count[len]);
	for (unsigned s = 0; s < n; s++)
		if (length[s])
			h->sym[offs[length[s]]++] = (uint16_t)s;
	/* the fast table: canonical codes in order, each filling the entries
	 * whose low bits (input order) are its bits reversed */
	uint32_t code = 0;
	unsigned k = 0;
	for (unsigned len = 1; len <= FAST_BITS; len++, code <<= 1)
		for (unsigned i = 0; i < h->count[len]; i++, code++, k++) {
			uint32_t r = reverse(code, len);
			for (uint32_t e = r; e < (1u << FAST_BITS); e += 1u << len)
				h->fast[e] = (uint16_t)(h->sym[k] << 4 | len);
		}
	return 0;
}

/* The next symbol of h; -1 when the input ends, -2 for a code h lacks. */
static int decode(struct infl *z, const struct huff *h)
{
	while (z->nbits < FAST_BITS) {
		int b = next_byte(z);
		if (b < 0)
			break;
		z->bits |= (uint64_t)b << z->nbits;
		z->nbits += 8;
	}
	if (z->nbits >= FAST_BITS) {
		uint16_t f = h->fast[z->bits & ((1u << FAST_BITS) - 1)];
		if (f) {
			z->bits >>= f & 15;
			z->nbits -= f & 15;
			return f >> 4;
		}
	}
	int code = 0, first = 0, index = 0;
	for (unsigned len = 1; len <= MAX_BITS; len++) {
		code |= (int)bits(z, 1);
		if (z->cut)
			return -1;
		int count = h->count[len];
		if (code - first < count)
			return h->sym[index + code - first];
		index += count;
		first = (first + count) << 1;
		code <<= 1;
	}
	return -2;
}

static int fail(struct infl *z, const char *msg)
{
	snprintf(z->msg, sizeof z->msg, "%s", msg);
	z->status = INFL_BAD;
	return -1;
}

static int fixed_codes(struct infl *z)
{
	if (!z->have_fixed) {
		uint8_t l[288];
		memset(l, 8, 144);
		memset(l + 144, 9, 112);
		memset(l + 256, 7, 24);
		memset(l + 280, 8, 8);
		build(&z->fixed_lit, l, 288);
		/* 32 codes, so that the code is complete; 30 and 31 never occur */
		memset(l, 5, 32);
		build(&z->fixed_dist, l, 32);
		z->have_fixed = true;
	}
	z->lit = z->fixed_lit;
	z->dist = z->fixed_dist;
	return 0;
}

/* A dynamic block's header (RFC 1951 3.2.7): 0, -1 cut, or fail's -1. */
static int dynamic_codes(struct infl *z)
{
	static const uint8_t order[19] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
					  11, 4,  12, 3, 13, 2, 14, 1, 15};
	uint8_t l[320] = {0};
	unsigned nlen = bits(z, 5) + 257, ndist = bits(z, 5) + 1, ncode = bits(z, 4) + 4;
	if (z->cut)
		return -1;
	if (nlen > 286 || ndist > 30)
		return fail(z, "too many length or distance symbols");
	for (unsigned i = 0; i < ncode; i++)
		l[order[i]] = (uint8_t)bits(z, 3);
	if (z->cut)
		return -1;
	if (build(&z->lit, l, 19))
		return fail(z, "invalid code lengths set");
	memset(l, 0, 19);
	for (unsigned i = 0; i < nlen + ndist;) {
		int s = decode(z, &z->lit);
		if (s == -1)
			return -1;
		if (s < 0)
			return fail(z, "invalid code lengths set");
		if (s < 16) {
			l[i++] = (uint8_t)s;
			continue;
		}
		unsigned rep, v = 0;
		if (s == 16) {
			if (i == 0)
				return fail(z, "invalid bit length repeat");
			v = l[i - 1];
			rep = 3 + bits(z, 2);
		} else {
			rep = s == 17 ? 3 + bits(z, 3) : 11 + bits(z, 7);
		}
		if (z->cut)
			return -1;
		if (i + rep > nlen + ndist)
			return fail(z, "invalid bit length repeat");
		while (rep--)
			l[i++] = (uint8_t)v;
	}
	if (!l[256])
		return fail(z, "invalid code -- missing end-of-block");
	if (build(&z->lit, l, nlen))
		return fail(z, "invalid literal/lengths set");
	if (build(&z->dist, l + nlen, ndist))
		return fail(z, "invalid distances set");
	return 0;
}

/* --- members --- */

/* A member's header after its magic (RFC 1952 2.3): 0, -1 cut or failed. */
static int header(struct infl *z)
{
	unsigned cm = bits(z, 8), flg = bits(z, 8);
	bits(z, 32); /* MTIME */
	bits(z, 16); /* XFL, OS */
	if (z->cut)
		return -1;
	if (cm != 8)
		return fail(z, "unknown compression method");
	if (flg & 0xe0)
		return fail(z, "unknown header flags set");
	if (flg & 4) { /* FEXTRA */
		for (unsigned n = bits(z, 16); n && !z->cut; n--)
			bits(z, 8);
	}
	for (unsigned f = 8; f <= 16; f <<= 1) /* FNAME, FCOMMENT */
		if (flg & f)
			while (bits(z, 8) && !z->cut)
				;
	if (flg & 2) /* FHCRC */
		bits(z, 16);
	if (z->cut)
		return -1;
	z->state = S_BLOCK;
	z->last = false;
	z->out = 0;
	z->crc = 0;
	return 0;
}

static int block_header(struct infl *z)
{
	if (z->last) {
		z->state = S_TRAILER;
		return 0;
	}
	z->last = bits(z, 1);
	unsigned type = bits(z, 2);
	if (z->cut)
		return -1;
	if (type == 0) {
		align(z);
		uint32_t len = bits(z, 16), nlen = bits(z, 16);
		if (z->cut)
			return -1;
		if (len != (~nlen & 0xffff))
			return fail(z, "invalid stored block lengths");
		z->stored_left = len;
		z->state = S_STORED;
		return 0;
	}
	if (type == 3)
		return fail(z, "invalid block type");
	int rc = type == 1 ? fixed_codes(z) : dynamic_codes(z);
	if (!rc)
		z->state = S_HUFF;
	return rc;
}

/* The CRC-32 of p[0..n) continued from crc: four bytes a step (one table
 * per byte position of the step), the rest one at a time. */
static uint32_t crc32_of(const struct infl *z, uint32_t crc, const unsigned char *p, size_t n)
{
	const uint32_t(*t)[256] = z->crc_table;
	crc = ~crc;
	for (; n >= 4; n -= 4, p += 4) {
		crc ^= (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		       (uint32_t)p[3] << 24;
		crc = t[3][crc & 0xff] ^ t[2][(crc >> 8) & 0xff] ^ t[1][(crc >> 16) & 0xff] ^
		      t[0][crc >> 24];
	}
	while (n--)
		crc = t[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static int trailer(struct infl *z)
{
	align(z);
	uint32_t crc = bits(z, 32), isize = bits(z, 32);
	if (z->cut)
		return -1;
	if (crc != z->crc)
		return fail(z, "incorrect data check");
	if (isize != (uint32_t)z->out)
		return fail(z, "incorrect length check");
	z->state = S_NEXT;
	return 0;
}

/* After a member: another magic, or the end (what is left is trailing). */
static int next_member(struct infl *z)
{
	align(z);
	unsigned b1 = bits(z, 8);
	if (z->cut) { /* the input ends after the member: the normal end */
		z->cut = false;
		z->state = S_DONE;
		return 0;
	}
	unsigned b2 = bits(z, 8);
	if (!z->cut && b1 == 0x1f && b2 == 0x8b) {
		z->member++;
		z->state = S_HEADER;
		return 0;
	}
	z->trailing = z->cut ? 1 : 2 + z->nbits / 8 + (int64_t)(z->in_len - z->in_pos);
	z->cut = false;
	z->nbits = 0;
	z->in_pos = z->in_len;
	while (next_byte(z) >= 0) {
		z->trailing += (int64_t)(z->in_len - z->in_pos) + 1;
		z->in_pos = z->in_len;
	}
	z->state = S_DONE;
	return z->status ? -1 : 0;
}

/* --- output --- */

static inline void put(struct infl *z, unsigned char *dst, size_t *n, unsigned char b)
{
	z->win[z->out++ & (WIN_SIZE - 1)] = b;
	dst[(*n)++] = b;
}

/* Symbols of the Huffman block into dst until it is full or the block
 * ends: 0, or -1 (cut, or failed). */
static int huff_block(struct infl *z, unsigned char *dst, size_t cap, size_t *n)
{
	while (*n < cap) {
		if (z->copy_len) {
			uint32_t k = z->copy_len;
			if (k > cap - *n)
				k = (uint32_t)(cap - *n);
			for (uint32_t i = 0; i < k; i++)
				put(z, dst, n, z->win[(z->out - z->copy_dist) & (WIN_SIZE - 1)]);
			z->copy_len -= k;
			continue;
		}
		int s = decode(z, &z->lit);
		if (s == -1)
			return -1;
		if (s < 0)
			return fail(z, "invalid literal/length code");
		if (s < 256) {
			put(z, dst, n, (unsigned char)s);
			continue;
		}
		if (s == 256) {
			z->state = S_BLOCK;
			return 0;
		}
		s -= 257;
		if (s >= 29)
			return fail(z, "invalid literal/length code");
		uint32_t len = len_base[s] + bits(z, len_extra[s]);
		int d = decode(z, &z->dist);
		if (d == -1 || z->cut)
			return -1;
		if (d < 0 || d >= 30)
			return fail(z, "invalid distance code");
		uint32_t dist = dist_base[d] + bits(z, dist_extra[d]);
		if (z->cut)
			return -1;
		if (dist > z->out)
			return fail(z, "invalid distance too far back");
		z->copy_len = len;
		z->copy_dist = dist;
	}
	return 0;
}

/* One step of the state machine into dst: 0, or -1 with status set or
 * cut (the input ended inside the member). */
static int step(struct infl *z, unsigned char *dst, size_t cap, size_t *n, size_t *crc_from)
{
	switch (z->state) {
	case S_MAGIC: { /* the first member's; next_member reads the others' */
		unsigned m1 = bits(z, 8), m2 = bits(z, 8);
		if (z->cut)
			return -1;
		if (m1 != 0x1f || m2 != 0x8b)
			return fail(z, "not in gzip format");
		z->state = S_HEADER;
		return 0;
	}
	case S_HEADER:
		return header(z);
	case S_BLOCK:
		return block_header(z);
	case S_STORED:
		while (z->stored_left && *n < cap) {
			unsigned b = bits(z, 8);
			if (z->cut)
				return -1;
			put(z, dst, n, (unsigned char)b);
			z->stored_left--;
		}
		if (!z->stored_left)
			z->state = S_BLOCK;
		return 0;
	case S_HUFF:
		return huff_block(z, dst, cap, n);
	case S_TRAILER:
		z->crc = crc32_of(z, z->crc, dst + *crc_from, *n - *crc_from);
		*crc_from = *n;
		return trailer(z);
	case S_NEXT:
		return next_member(z);
	default:
		return 0;
	}
}

int infl_read(struct infl *z, unsigned char *dst, size_t cap, size_t *got)
{
	size_t n = 0, crc_from = 0;
	*got = 0;
	if (z->state == S_FAILED)
		return z->status;
	while (n < cap && z->state != S_DONE) {
		if (step(z, dst, cap, &n, &crc_from) == 0)
			continue;
		if (!z->status)
			z->status = INFL_TRUNCATED;
		z->state = S_FAILED;
		break;
	}
	if (z->state != S_FAILED && z->state != S_DONE)
		z->crc = crc32_of(z, z->crc, dst + crc_from, n - crc_from);
	*got = n;
	if (n || z->state != S_FAILED)
		return INFL_OK;
	return z->status;
}
