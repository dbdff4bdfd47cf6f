/* isal_head: the two calls of ISA-L's igzip_lib.h that io/sniff.c makes
 * (sniff_gunzip_head: the first bytes a gzip head in memory inflates to),
 * for the WebAssembly build, on io/inflate.c.
 *
 * Contract kept: one isal_inflate call takes avail_in and fills up to
 * avail_out, through every member (io/inflate.c goes from one to the
 * next itself), so block_state never reads ISAL_BLOCK_FINISH and
 * sniff_gunzip_head stops after this call with what it got. A cut head is
 * not an error: its bytes are the head. */
#include <isa-l/igzip_lib.h>
#include <string.h>

#include "io/inflate.h"

struct mem {
	const uint8_t *p;
	size_t n;
};

static int read_mem(void *ctx, unsigned char *buf, size_t cap, size_t *got)
{
	struct mem *m = ctx;
	*got = m->n < cap ? m->n : cap;
	memcpy(buf, m->p, *got);
	m->p += *got;
	m->n -= *got;
	return 0;
}

void isal_inflate_init(struct inflate_state *state)
{
	memset(state, 0, sizeof *state);
	state->block_state = ISAL_BLOCK_NEW_HDR;
}

int isal_inflate(struct inflate_state *st)
{
	struct mem m = {st->next_in, st->avail_in};
	struct infl *z = infl_new(read_mem, &m);
	if (!z)
		return ISAL_INVALID_BLOCK;
	size_t got = 0;
	int rc = INFL_OK;
	while (st->avail_out && rc == INFL_OK) {
		rc = infl_read(z, st->next_out, st->avail_out, &got);
		if (!got)
			break;
		st->next_out += got;
		st->avail_out -= (uint32_t)got;
	}
	infl_free(z);
	st->next_in += st->avail_in;
	st->avail_in = 0;
	return rc == INFL_BAD ? ISAL_INVALID_BLOCK : ISAL_DECOMP_OK;
}
