/* pb_write: protobuf wire-format encoder into a growable buffer (see pb.h).
 *
 * Written here rather than taken from libprotobuf/protobuf-c for the same
 * reason as the reader: the exporters need a dozen primitive calls, no
 * generated code, and byte-for-byte control over field order (deterministic
 * output). Depends on libc only.
 */
#include <stdlib.h>
#include <string.h>

#include "pb/pb.h"

#define PBW_DEFAULT_MAX ((size_t)4 << 30)

void pbw_init(struct pbw *w)
{
	memset(w, 0, sizeof *w);
}

void pbw_free(struct pbw *w)
{
	free(w->buf);
	memset(w, 0, sizeof *w);
}

/* Ensures room for extra more bytes; false (and sticky failure) otherwise. */
static bool room(struct pbw *w, size_t extra)
{
	if (w->failed)
		return false;
	size_t max = w->max ? w->max : PBW_DEFAULT_MAX;
	if (extra > max - w->n) {
		w->failed = true;
		return false;
	}
	size_t need = w->n + extra;
	if (need <= w->cap)
		return true;
	size_t ncap = w->cap ? w->cap : 256;
	while (ncap < need)
		ncap = ncap > max / 2 ? max : ncap * 2;
	uint8_t *nb = realloc(w->buf, ncap);
	if (!nb) {
		w->failed = true;
		return false;
	}
	w->buf = nb;
	w->cap = ncap;
	return true;
}

size_t pbw_varint_size(uint64_t v)
{
	size_t n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* Encodes v at p (which has room for 10 bytes); returns the bytes used. */
static size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;
	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

void pbw_raw(struct pbw *w, const void *data, size_t len)
{
	if (!len || !room(w, len))
		return;
	memcpy(w->buf + w->n, data, len);
	w->n += len;
}

void pbw_varint(struct pbw *w, uint64_t v)
{
	if (room(w, PB_MAX_VARINT_BYTES))
		w->n += put_varint(w->buf + w->n, v);
}

void pbw_key(struct pbw *w, uint32_t field, enum pb_wire wire)
{
	pbw_varint(w, ((uint64_t)field << 3) | (uint64_t)wire);
}

void pbw_uint64(struct pbw *w, uint32_t field, uint64_t v)
{
	pbw_key(w, field, PB_VARINT);
	pbw_varint(w, v);
}

void pbw_bool(struct pbw *w, uint32_t field, bool v)
{
	pbw_uint64(w, field, v ? 1 : 0);
}

void pbw_len(struct pbw *w, uint32_t field, size_t len)
{
	pbw_key(w, field, PB_LEN);
	pbw_varint(w, (uint64_t)len);
}

void pbw_bytes(struct pbw *w, uint32_t field, const void *data, size_t len)
{
	pbw_len(w, field, len);
	pbw_raw(w, data, len);
}

void pbw_packed_uint64(struct pbw *w, uint32_t field, const uint64_t *v, size_t n)
{
	if (!n)
		return;
	size_t len = 0;
	for (size_t i = 0; i < n; i++)
		len += pbw_varint_size(v[i]);
	pbw_len(w, field, len);
	if (!room(w, len))
		return;
	for (size_t i = 0; i < n; i++)
		w->n += put_varint(w->buf + w->n, v[i]);
}

void pbw_packed_int64(struct pbw *w, uint32_t field, const int64_t *v, size_t n)
{
	if (!n)
		return;
	size_t len = 0;
	for (size_t i = 0; i < n; i++)
		len += pbw_varint_size((uint64_t)v[i]);
	pbw_len(w, field, len);
	if (!room(w, len))
		return;
	for (size_t i = 0; i < n; i++)
		w->n += put_varint(w->buf + w->n, (uint64_t)v[i]);
}

size_t pbw_begin(struct pbw *w, uint32_t field)
{
	pbw_key(w, field, PB_LEN);
	return w->n;
}

void pbw_end(struct pbw *w, size_t mark)
{
	if (w->failed || mark > w->n)
		return;
	size_t body = w->n - mark;
	uint8_t pre[PB_MAX_VARINT_BYTES];
	size_t k = put_varint(pre, (uint64_t)body);
	if (!room(w, k))
		return;
	memmove(w->buf + mark + k, w->buf + mark, body);
	memcpy(w->buf + mark, pre, k);
	w->n += k;
}
