/* inflate-bench: the cost of merely getting the bytes of a file.
 *
 *   inflate-bench FILE
 *
 * Reads FILE through src_open/src_read into a 4 MiB buffer and drops the
 * bytes: for gzip that is the threaded ISA-L inflate as the readers see it.
 * Prints `bytes=N seconds=S gbps=G` (wall clock, decompressed bytes). For
 * gzip input it then inflates the same file with zlib on this thread alone
 * (all members, 1 MiB reads; not for "-") and prints `zlib_bytes=N zlib_seconds=S
 * zlib_gbps=G`, the baseline the threaded path is compared with.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "io/source.h"

#define OUT_BYTES ((size_t)4 << 20)
#define IN_BYTES ((size_t)1 << 20)

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int bench_source(const char *path, unsigned char *buf, int *is_gzip)
{
	struct err e;
	struct src *s;
	double t0 = now();
	if (src_open(&s, path, &e)) {
		char msg[1200];
		err_format(&e, msg, sizeof msg);
		fprintf(stderr, "inflate-bench: %s\n", msg);
		return 2;
	}
	int rc = 0;
	for (;;) {
		size_t got;
		if (src_read(s, buf, OUT_BYTES, &got, &e)) {
			char msg[1200];
			err_format(&e, msg, sizeof msg);
			fprintf(stderr, "inflate-bench: %s\n", msg);
			rc = 2;
			break;
		}
		if (!got)
			break;
	}
	int64_t n = src_pos(s);
	*is_gzip = src_is_gzip(s);
	src_close(s);
	double dt = now() - t0;
	printf("bytes=%lld seconds=%.3f gbps=%.2f\n", (long long)n, dt,
	       dt > 0 ? (double)n / dt / 1e9 : 0.0);
	return rc;
}

/* Single-threaded zlib inflate of every member, output dropped. */
static int bench_zlib(const char *path, unsigned char *out)
{
	int fd = open(path, O_RDONLY);
	unsigned char *in = malloc(IN_BYTES);
	if (fd < 0 || !in) {
		perror(path);
		free(in);
		if (fd >= 0)
			close(fd);
		return 2;
	}
	z_stream z;
	memset(&z, 0, sizeof z);
	double t0 = now();
	int rc = 0;
	long long total = 0;
	if (inflateInit2(&z, 15 + 16) != Z_OK) {
		close(fd);
		free(in);
		return 2;
	}
	int eof = 0;
	for (;;) {
		if (z.avail_in == 0 && !eof) {
			ssize_t r = read(fd, in, IN_BYTES);
			if (r < 0) {
				perror(path);
				rc = 2;
				break;
			}
			eof = r == 0;
			z.next_in = in;
			z.avail_in = (uInt)r;
		}
		z.next_out = out;
		z.avail_out = (uInt)OUT_BYTES;
		int zr = inflate(&z, Z_NO_FLUSH);
		total += (long long)(OUT_BYTES - z.avail_out);
		if (zr == Z_STREAM_END) {
			if (z.avail_in == 0 && !eof) {
				ssize_t r = read(fd, in, IN_BYTES);
				eof = r <= 0;
				z.next_in = in;
				z.avail_in = r > 0 ? (uInt)r : 0;
			}
			if (z.avail_in >= 2 && z.next_in[0] == 0x1f && z.next_in[1] == 0x8b) {
				inflateReset(&z);
				continue;
			}
			break; /* end, or trailing bytes */
		}
		if (zr != Z_OK && zr != Z_BUF_ERROR) {
			fprintf(stderr, "inflate-bench: zlib: %s\n", z.msg ? z.msg : "error");
			rc = 2;
			break;
		}
		if (zr == Z_BUF_ERROR && eof && z.avail_in == 0)
			break; /* truncated */
	}
	inflateEnd(&z);
	close(fd);
	free(in);
	double dt = now() - t0;
	printf("zlib_bytes=%lld zlib_seconds=%.3f zlib_gbps=%.2f\n", total, dt,
	       dt > 0 ? (double)total / dt / 1e9 : 0.0);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: inflate-bench FILE\n");
		return 2;
	}
	unsigned char *buf = malloc(OUT_BYTES);
	if (!buf)
		return 2;
	int is_gzip = 0;
	int rc = bench_source(argv[1], buf, &is_gzip);
	if (!rc && is_gzip && strcmp(argv[1], "-") != 0)
		rc = bench_zlib(argv[1], buf);
	free(buf);
	return rc;
}
