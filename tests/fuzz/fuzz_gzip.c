/* fuzz_gzip: libFuzzer target for the byte source. The input becomes a
 * memory file (memfd) opened by path with src_open, then read to the end in
 * odd-sized pieces: gzip members, truncation, corruption and trailing bytes
 * must give bytes, end of stream or an error, never a crash or a hang; the
 * input is also sniffed as bytes held in memory (input_sniff_bytes). */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "fuzz_memfd.h"
#include "input/input.h"
#include "io/source.h"

/* Output is bounded by deflate's ratio (about 1032:1), but a 64 KiB input
 * can still inflate to 64 MiB; stop early to keep runs fast. Closing before
 * the end is itself worth exercising. */
#define FUZZ_MAX_OUT ((int64_t)16 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = fuzz_memfd(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	struct src *s;
	struct err e;
	if (src_open(&s, path, &e) == 0) {
		static const size_t sizes[] = {1, 7, 4096, 65536};
		unsigned char buf[65536];
		size_t got, i = 0;
		while (src_pos(s) < FUZZ_MAX_OUT &&
		       src_read(s, buf, sizes[i++ % 4], &got, &e) == 0 && got)
			;
		(void)src_truncated(s);
		(void)src_trailing_bytes(s);
		(void)input_sniff_bytes(buf, got);
		src_close(s);
	}
	close(fd);
	(void)input_sniff_bytes(data, size); /* the head inflated in memory */
	return 0;
}
