/* zlib_stored: the deflate calls of zlib.h that gzip output makes
 * (io/gzout.c, export/pprof.c), for the WebAssembly build, which has no
 * zlib (Debian ships no source of it to compile, and emscripten's port
 * would be downloaded).
 *
 * It writes valid gzip (RFC 1952: one member, header with mtime 0 and OS
 * "unknown" whatever the gz_header says, CRC-32 and ISIZE) whose DEFLATE
 * data (RFC 1951) are stored blocks: no compression, so the files are a
 * little larger than their input, and not byte-identical to the native
 * build's (they inflate to the same bytes). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define STORED_MAX 65535u

struct internal_state {
	unsigned char pend[10 + 5 + STORED_MAX];
	size_t len, off; /* pend[off..len) waits for room in next_out */
	int stage;	 /* 0: the header is due, 1: data, 2: finished */
	uint32_t crc, isize;
	uint32_t table[256];
};

static void put_le(unsigned char *p, uint32_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t crc_update(const struct internal_state *s, uint32_t crc, const unsigned char *p,
			   size_t n)
{
	crc = ~crc;
	while (n--)
		crc = s->table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

int deflateInit2_(z_streamp strm, int level, int method, int windowBits, int memLevel, int strategy,
		  const char *version, int stream_size)
{
	if (windowBits < 16 + 8) /* only gzip wrapping is used, and made */
		return Z_STREAM_ERROR;
	struct internal_state *s = calloc(1, sizeof *s);
	if (!s)
		return Z_MEM_ERROR;
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		s->table[i] = c;
	}
	strm->state = s;
	strm->total_in = strm->total_out = 0;
	strm->msg = NULL;
	return Z_OK;
}

int deflateSetHeader(z_streamp strm, gz_headerp head)
{
	return strm->state ? Z_OK : Z_STREAM_ERROR;
}

/* The next piece of the member into pend: the header, a stored block of
 * the input, or the last (empty) block and the trailer. 0 when none is due
 * yet (no input, no Z_FINISH). */
static int next_piece(z_streamp strm, struct internal_state *s, int flush)
{
	unsigned char *p = s->pend;
	s->off = 0;
	if (s->stage == 0) {
		static const unsigned char head[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255};
		memcpy(p, head, sizeof head);
		s->len = sizeof head;
		s->stage = 1;
		return 1;
	}
	if (strm->avail_in) {
		uint32_t k = strm->avail_in > STORED_MAX ? STORED_MAX : strm->avail_in;
		p[0] = 0; /* BFINAL 0, BTYPE 00 (stored), padded to the byte */
		put_le(p + 1, k, 2);
		put_le(p + 3, ~k & 0xffff, 2);
		memcpy(p + 5, strm->next_in, k);
		s->crc = crc_update(s, s->crc, strm->next_in, k);
		s->isize += k;
		strm->next_in += k;
		strm->avail_in -= k;
		strm->total_in += k;
		s->len = 5 + k;
		return 1;
	}
	if (flush != Z_FINISH)
		return 0;
	static const unsigned char last[5] = {1, 0, 0, 0xff, 0xff};
	memcpy(p, last, sizeof last);
	put_le(p + 5, s->crc, 4);
	put_le(p + 9, s->isize, 4);
	s->len = 13;
	s->stage = 2;
	return 1;
}

int deflate(z_streamp strm, int flush)
{
	struct internal_state *s = strm->state;
	if (!s)
		return Z_STREAM_ERROR;
	for (;;) {
		size_t k = s->len - s->off;
		if (k > strm->avail_out)
			k = strm->avail_out;
		memcpy(strm->next_out, s->pend + s->off, k);
		strm->next_out += k;
		strm->avail_out -= (uInt)k;
		strm->total_out += k;
		s->off += k;
		if (s->off < s->len)
			return Z_OK; /* no room left */
		if (s->stage == 2)
			return Z_STREAM_END;
		if (!next_piece(strm, s, flush))
			return Z_OK;
	}
}

int deflateEnd(z_streamp strm)
{
	free(strm->state);
	strm->state = NULL;
	return Z_OK;
}

/* `gpuprof --version` names the zlib it was built with. */
const char *zlibVersion(void)
{
	return "none (WebAssembly build: gzip read by the host's zlib, written as stored blocks)";
}
