/* test_io: byte sources (plain, gzip, stdin) and sniffing.
 *
 * Fixtures are made at test time in a temporary folder: gzip members built
 * with zlib's deflate, then concatenated, cut, padded or corrupted. Tests
 * that could hang on a bug (early close, pipes) run under alarm(), so a hang
 * ends the runner and counts as a failure instead of stalling `make test`.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "core/limits.h"
#include "io/sniff.h"
#include "io/source.h"
#include "test.h"

#define MIB ((size_t)1 << 20)

/* --- Fixtures --- */

struct fx {
	char dir[64];
	char paths[8][128];
	int n;
};

static int fx_init(struct fx *f)
{
	memset(f, 0, sizeof *f);
	snprintf(f->dir, sizeof f->dir, "/tmp/gpuprof-io-XXXXXX");
	return mkdtemp(f->dir) ? 0 : -1;
}

/* Writes a file in the fixture folder; returns its path (owned by f). */
static const char *fx_write(struct fx *f, const char *name, const void *p, size_t n)
{
	if (f->n == 8)
		return NULL;
	char *path = f->paths[f->n++];
	char tmp[sizeof f->paths[0]];
	snprintf(tmp, sizeof tmp, "%s/%s", f->dir, name);
	memcpy(path, tmp, sizeof tmp);
	FILE *fp = fopen(path, "wb");
	if (!fp)
		return NULL;
	size_t w = n ? fwrite(p, 1, n, fp) : 0;
	if (fclose(fp) || w != n)
		return NULL;
	return path;
}

static void fx_free(struct fx *f)
{
	for (int i = 0; i < f->n; i++)
		unlink(f->paths[i]);
	rmdir(f->dir);
}

/* Text that looks a little like a trace and compresses about 4:1. */
static unsigned char *gen_text(size_t n, uint32_t seed)
{
	unsigned char *p = malloc(n + 1);
	if (!p)
		return NULL;
	size_t i = 0;
	uint32_t x = seed;
	while (i < n) {
		x = x * 1664525u + 1013904223u;
		char line[96];
		int k =
		    snprintf(line, sizeof line, "{\"name\": \"k%u\", \"ts\": %u, \"dur\": %u},\n",
			     (x >> 24) % 97, x >> 3, (x >> 8) & 0xfff);
		for (int j = 0; j < k && i < n; j++)
			p[i++] = (unsigned char)line[j];
	}
	return p;
}

/* One gzip member of p[0..n) (malloc'd, *len set), or NULL. */
static unsigned char *gz_member(const void *p, size_t n, size_t *len)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	size_t cap = deflateBound(&z, (uLong)n) + 64;
	unsigned char *out = malloc(cap);
	if (!out) {
		deflateEnd(&z);
		return NULL;
	}
	z.next_in = (Bytef *)(uintptr_t)p;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	int r = deflate(&z, Z_FINISH);
	*len = cap - z.avail_out;
	deflateEnd(&z);
	if (r != Z_STREAM_END) {
		free(out);
		return NULL;
	}
	return out;
}

static unsigned char *concat(const void *a, size_t na, const void *b, size_t nb)
{
	unsigned char *p = malloc(na + nb + 1);
	if (p) {
		if (na)
			memcpy(p, a, na);
		if (nb)
			memcpy(p + na, b, nb);
	}
	return p;
}

/* Reads s to the end (or an error) in reads of `chunk` bytes into out
 * (at most cap bytes are kept; more is an overflow). */
static int read_all(struct src *s, size_t chunk, unsigned char *out, size_t cap, size_t *len,
		    struct err *e)
{
	unsigned char *buf = malloc(chunk);
	*len = 0;
	if (!buf)
		return ERR_NOMEM;
	int rc;
	for (;;) {
		size_t got;
		rc = src_read(s, buf, chunk, &got, e);
		if (rc || !got)
			break;
		if (got > chunk || *len + got > cap) {
			rc = ERR_LIMIT;
			break;
		}
		memcpy(out + *len, buf, got);
		*len += got;
	}
	free(buf);
	return rc;
}

/* Opens path and reads it whole; returns the src_read result. The source
 * is left open in *sp for the caller's checks. */
static int open_read(struct src **sp, const char *path, size_t chunk, unsigned char *out,
		     size_t cap, size_t *len, struct err *e)
{
	*len = 0;
	int rc = src_open(sp, path, e);
	if (rc)
		return rc;
	return read_all(*sp, chunk, out, cap, len, e);
}

/* --- Plain and gzip files --- */

void test_io_plain(struct t *t)
{
	struct fx f;
	CHECK_INT(t, fx_init(&f), 0);
	size_t n = 300001;
	unsigned char *data = gen_text(n, 1), *out = malloc(n + 16);
	const char *path = fx_write(&f, "plain.json", data, n);
	CHECK(t, path != NULL);
	static const size_t chunks[] = {1, 7, 4096, MIB};
	for (size_t i = 0; path && i < 4; i++) {
		struct src *s;
		struct err e;
		size_t len;
		CHECK_INT(t, open_read(&s, path, chunks[i], out, n + 16, &len, &e), 0);
		CHECK_INT(t, len, n);
		CHECK(t, len == n && memcmp(out, data, n) == 0);
		CHECK_INT(t, src_pos(s), n);
		CHECK_INT(t, src_raw_pos(s), n);
		CHECK_INT(t, src_raw_size(s), n);
		CHECK(t, !src_is_gzip(s));
		CHECK(t, !src_truncated(s));
		CHECK_INT(t, src_trailing_bytes(s), 0);
		CHECK_STR(t, src_path(s), path);
		size_t got = 99;
		CHECK_INT(t, src_read(s, out, 10, &got, &e), 0); /* EOF repeats */
		CHECK_INT(t, got, 0);
		src_close(s);
	}
	free(data);
	free(out);
	fx_free(&f);
}

void test_io_gzip_chunks(struct t *t)
{
	struct fx f;
	CHECK_INT(t, fx_init(&f), 0);
	size_t n = 4 * MIB + 123457; /* several ring slots, ragged end */
	size_t zn;
	unsigned char *data = gen_text(n, 2), *out = malloc(n + 16);
	unsigned char *z = gz_member(data, n, &zn);
	CHECK(t, z != NULL);
	const char *path = z ? fx_write(&f, "one.json.gz", z, zn) : NULL;
	static const size_t chunks[] = {1, 7, 4096, MIB, 8 * MIB};
	for (size_t i = 0; path && i < 5; i++) {
		struct src *s;
		struct err e;
		size_t len;
		CHECK_INT(t, open_read(&s, path, chunks[i], out, n + 16, &len, &e), 0);
		CHECK_INT(t, len, n);
		CHECK(t, len == n && memcmp(out, data, n) == 0);
		CHECK_INT(t, src_pos(s), n);
		CHECK(t, src_is_gzip(s));
		CHECK_INT(t, src_raw_size(s), zn);
		CHECK_INT(t, src_raw_pos(s), zn);
		CHECK(t, !src_truncated(s));
		CHECK_INT(t, src_trailing_bytes(s), 0);
		src_close(s);
	}
	free(z);
	free(data);
	free(out);
	fx_free(&f);
}

void test_io_gzip_multi(struct t *t)
{
	struct fx f;
	CHECK_INT(t, fx_init(&f), 0);
	size_t na = 1500000, nb = 777777, za, zb, ze;
	unsigned char *a = gen_text(na, 3), *b = gen_text(nb, 4);
	unsigned char *ga = gz_member(a, na, &za), *gb = gz_member(b, nb, &zb);
	unsigned char *gempty = gz_member("", 0, &ze);
	CHECK(t, ga && gb && gempty);
	/* member a, an empty member, member b */
	unsigned char *gae = concat(ga, za, gempty, ze);
	unsigned char *file = concat(gae, za + ze, gb, zb);
	unsigned char *want = concat(a, na, b, nb), *out = malloc(na + nb + 16);
	const char *path = fx_write(&f, "multi.json.gz", file, za + ze + zb);
	for (size_t chunk = 7; chunk <= MIB; chunk *= 1024) {
		struct src *s;
		struct err e;
		size_t len;
		CHECK_INT(t, open_read(&s, path, chunk, out, na + nb + 16, &len, &e), 0);
		CHECK_INT(t, len, na + nb);
		CHECK(t, len == na + nb && memcmp(out, want, len) == 0);
		CHECK_INT(t, src_pos(s), na + nb);
		CHECK(t, !src_truncated(s));
		CHECK_INT(t, src_trailing_bytes(s), 0);
		src_close(s);
	}
	free(a);
	free(b);
	free(ga);
	free(gb);
	free(gempty);
	free(gae);
	free(file);
	free(want);
	free(out);
	fx_free(&f);
}

void test_io_gzip_truncated(struct t *t)
{
	struct fx f;
	CHECK_INT(t, fx_init(&f), 0);
	size_t n = 200000, zn;
	unsigned char *data = gen_text(n, 5), *out = malloc(n + 16);
	unsigned char *z = gz_member(data, n, &zn);
	CHECK(t, z != NULL);
	/* cut: in the header, in the deflate data, in the trailer, before it */
	size_t cuts[] = {2, 5, zn / 2, zn - 4, zn - 8};
	for (size_t i = 0; z && i < 5; i++) {
		char name[32];
		snprintf(name, sizeof name, "cut%zu.gz", i);
		const char *path = fx_write(&f, name, z, cuts[i]);
		struct src *s;
		struct err e;
		size_t len;
		if (i < 2) { /* cut before any data: an error, not an empty input */
			CHECK_INT(t, open_read(&s, path, 4096, out, n + 16, &len, &e), ERR_FORMAT);
			CHECK_INT(t, len, 0);
			CHECK_INT(t, e.offset, cuts[i]);
			CHECK(t, !e.uncompressed);
			char want[80];
			snprintf(want, sizeof want,
				 "truncated gzip header: the input ends after %zu bytes", cuts[i]);
			CHECK_STR(t, e.msg, want);
			src_close(s);
			unlink(path);
			f.n--;
			continue;
		}
		CHECK_INT(t, open_read(&s, path, 4096, out, n + 16, &len, &e), 0);
		CHECK(t, src_is_gzip(s));
		CHECK(t, src_truncated(s));
		CHECK_INT(t, src_trailing_bytes(s), 0);
		CHECK(t, len <= n && memcmp(out, data, len) == 0); /* a true prefix */
		CHECK_INT(t, src_pos(s), len);
		if (i == 2)
			CHECK(t, len > n / 4 && len < n);
		if (i >= 3) /* all deflate data present: every byte comes out */
			CHECK_INT(t, len, n);
		src_close(s);
		unlink(path);
		f.n--;
	}
	/* a second member cut short; a lone 0x1f after a member */
	size_t nb = 50000, zb;
	unsigned char *b = gen_text(nb, 6), *gb = gz_member(b, nb, &zb);
	unsigned char *two = concat(z, zn, gb, zb / 2), *want = concat(data, n, b, nb);
	unsigned char *out2 = malloc(n + nb + 16);
	const char *path = fx_write(&f, "cut-member2.gz", two, zn + zb / 2);
	struct src *s;
	struct err e;
	size_t len;
	CHECK_INT(t, open_read(&s, path, 7, out2, n + nb + 16, &len, &e), 0);
	CHECK(t, src_truncated(s));
	CHECK(t, len >= n && len < n + nb && memcmp(out2, want, len) == 0);
	src_close(s);
	unsigned char *lone = concat(z, zn, "\x1f", 1);
	path = fx_write(&f, "lone1f.gz", lone, zn + 1);
	CHECK_INT(t, open_read(&s, path, MIB, out2, n + nb + 16, &len, &e), 0);
	CHECK_INT(t, len, n);
	CHECK(t, src_truncated(s));
	CHECK_INT(t, src_trailing_bytes(s), 0);
	src_close(s);
	free(lone);
	free(two);
	free(want);
	free(out2);
	free(b);
	free(gb);
	free(z);
	free(data);
	free(out);
	fx_free(&f);
}

void test_io_gzip_trailing(struct t *t)
{
	struct fx f;
	CHECK_INT(t, fx_init(&f), 0);
	size_t n = 100000, zn;
	unsigned char *data = gen_text(n, 7), *out = malloc(n + 16);
	unsigned char *z = gz_member(data, n, &zn);
	unsigned char zeros[512] = {0};
	unsigned char *padded = concat(z, zn, zeros, sizeof zeros);
	unsigned char *junk = concat(z, zn, "garbage!", 8);
	const char *p1 = fx_write(&f, "padded.gz", padded, zn + sizeof zeros);
	const char *p2 = fx_write(&f, "junk.gz", junk, zn + 8);
	struct src *s;
	struct err e;
	size_t len;
	CHECK_INT(t, open_read(&s, p1, 4096, out, n + 16, &len, &e), 0);
	CHECK(t, len == n && memcmp(out, data, n) == 0);
	CHECK(t, !src_truncated(s));
	CHECK_INT(t, src_trailing_bytes(s), 512);
	CHECK_INT(t, src_pos(s), n);
	src_close(s);
	CHECK_INT(t, open_read(&s, p2, 1, out, n + 16, &len, &e), 0);
	CHECK(t, len == n && memcmp(out, data, n) == 0);
	CHECK(t, !src_truncated(s));
	CHECK_INT(t, src_trailing_bytes(s), 8);
	src_close(s);
	free(padded);
	free(junk);
	free(z);
	free(data);
	free(out);
	fx_free(&f);
}

/* Members whose headers carry every optional field (FEXTRA, FNAME,
 * FCOMMENT, FHCRC), as zlib's deflateSetHeader writes them. */
void test_io_gzip_header_fields(struct t *t)
{
	struct fx f;
	CHECK_INT(t, fx_init(&f), 0);
	const char text[] = "{\"traceEvents\": [{\"ph\": \"X\"}]}\n";
	size_t n = sizeof text - 1;
	z_stream z;
	memset(&z, 0, sizeof z);
	unsigned char extra[] = {'a', 'b', 2, 0, 'x', 'y'};
	gz_header h = {.text = 1,
		       .extra = extra,
		       .extra_len = sizeof extra,
		       .name = (Bytef *)"trace.json",
		       .comment = (Bytef *)"a comment",
		       .hcrc = 1};
	unsigned char member[512];
	CHECK_INT(t, deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	CHECK_INT(t, deflateSetHeader(&z, &h), Z_OK);
	z.next_in = (Bytef *)(uintptr_t)text;
	z.avail_in = (uInt)n;
	z.next_out = member;
	z.avail_out = sizeof member;
	CHECK_INT(t, deflate(&z, Z_FINISH), Z_STREAM_END);
	size_t zn = sizeof member - z.avail_out;
	deflateEnd(&z);
	CHECK_INT(t, member[3], 0x1f); /* FTEXT FHCRC FEXTRA FNAME FCOMMENT */
	unsigned char *two = concat(member, zn, member, zn), out[256];
	const char *path = fx_write(&f, "fields.gz", two, 2 * zn);
	struct src *s;
	struct err e;
	size_t len;
	CHECK_INT(t, open_read(&s, path, 5, out, sizeof out, &len, &e), 0);
	CHECK(t, len == 2 * n && memcmp(out, text, n) == 0 && memcmp(out + n, text, n) == 0);
	CHECK(t, !src_truncated(s));
	src_close(s);
	free(two);
	fx_free(&f);
}

/* --- Corrupt data --- */

static bool has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

void test_io_gzip_corrupt(struct t *t)
{
	struct fx f;
	CHECK_INT(t, fx_init(&f), 0);
	size_t na = 600000, nb = 300000, za, zb;
	unsigned char *a = gen_text(na, 8), *b = gen_text(nb, 9);
	unsigned char *ga = gz_member(a, na, &za), *gb = gz_member(b, nb, &zb);
	unsigned char *want = concat(a, na, b, nb), *out = malloc(na + nb + 16);
	struct src *s;
	struct err e;
	size_t len;

	/* A flipped byte in the middle of the deflate data. */
	unsigned char *bad = concat(ga, za, NULL, 0);
	bad[za / 2] ^= 0x55;
	const char *path = fx_write(&f, "flip.gz", bad, za);
	CHECK_INT(t, open_read(&s, path, 4096, out, na + 16, &len, &e), ERR_FORMAT);
	CHECK_INT(t, e.code, ERR_FORMAT);
	CHECK(t, e.uncompressed);
	CHECK_INT(t, e.offset, len); /* every byte before the error came out */
	CHECK_INT(t, src_pos(s), len);
	CHECK(t, len > na / 8 && memcmp(out, a, na / 8) == 0);
	CHECK(t, has_prefix(e.msg, "corrupt gzip data (member 1): "));
	CHECK_STR(t, e.path, path);
	size_t got = 5;
	CHECK_INT(t, src_read(s, out, 16, &got, &e), ERR_FORMAT); /* the error repeats */
	CHECK_INT(t, got, 0);
	src_close(s);
	free(bad);

	/* CRC-32 of the second member wrong: all bytes, then the error. */
	bad = concat(ga, za, gb, zb);
	bad[za + zb - 8] ^= 1;
	path = fx_write(&f, "crc2.gz", bad, za + zb);
	CHECK_INT(t, open_read(&s, path, 7, out, na + nb + 16, &len, &e), ERR_FORMAT);
	CHECK_INT(t, len, na + nb);
	CHECK(t, len == na + nb && memcmp(out, want, len) == 0);
	CHECK_INT(t, e.offset, na + nb);
	CHECK(t, e.uncompressed);
	CHECK_STR(t, e.msg, "corrupt gzip data (member 2): CRC-32 or length check failed");
	src_close(s);

	/* ISIZE wrong. */
	memcpy(bad, ga, za);
	bad[za - 1] ^= 0x10;
	path = fx_write(&f, "isize.gz", bad, za);
	CHECK_INT(t, open_read(&s, path, MIB, out, na + 16, &len, &e), ERR_FORMAT);
	CHECK_INT(t, len, na);
	CHECK_STR(t, e.msg, "corrupt gzip data (member 1): CRC-32 or length check failed");
	src_close(s);
	free(bad);

	/* A reserved block type (BTYPE 11) right after the header. */
	static const unsigned char btype3[] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0x07, 0, 0, 0};
	path = fx_write(&f, "btype3.gz", btype3, sizeof btype3);
	CHECK_INT(t, open_read(&s, path, MIB, out, na + 16, &len, &e), ERR_FORMAT);
	CHECK_INT(t, len, 0);
	CHECK_INT(t, e.offset, 0);
	CHECK_STR(t, e.msg, "corrupt gzip data (member 1): invalid deflate block");
	src_close(s);

	/* Compression method 7 in the header. */
	static const unsigned char method7[] = {0x1f, 0x8b, 7, 0, 0, 0, 0, 0, 0, 3,
						3,    0,    0, 0, 0, 0, 0, 0, 0, 0};
	path = fx_write(&f, "method7.gz", method7, sizeof method7);
	CHECK_INT(t, open_read(&s, path, MIB, out, na + 16, &len, &e), ERR_FORMAT);
	CHECK(t, has_prefix(e.msg, "corrupt gzip data (member 1): "));
	src_close(s);

	free(a);
	free(b);
	free(ga);
	free(gb);
	free(want);
	free(out);
	fx_free(&f);
}

/* --- Small inputs and open errors --- */

void test_io_tiny(struct t *t)
{
	struct fx f;
	CHECK_INT(t, fx_init(&f), 0);
	struct src *s;
	struct err e;
	size_t len;
	unsigned char out[64];
	const char *path = fx_write(&f, "empty", "", 0);
	CHECK_INT(t, open_read(&s, path, 16, out, sizeof out, &len, &e), 0);
	CHECK_INT(t, len, 0);
	CHECK_INT(t, src_pos(s), 0);
	CHECK_INT(t, src_raw_size(s), 0);
	CHECK(t, !src_is_gzip(s));
	src_close(s);
	path = fx_write(&f, "one", "\x1f", 1); /* half a magic is not gzip */
	CHECK_INT(t, open_read(&s, path, 16, out, sizeof out, &len, &e), 0);
	CHECK_INT(t, len, 1);
	CHECK_INT(t, out[0], 0x1f);
	CHECK(t, !src_is_gzip(s));
	src_close(s);
	path = fx_write(&f, "magic", "\x1f\x8b", 2);
	CHECK_INT(t, open_read(&s, path, 16, out, sizeof out, &len, &e), ERR_FORMAT);
	CHECK_INT(t, len, 0);
	CHECK(t, src_is_gzip(s));
	CHECK_STR(t, e.msg, "truncated gzip header: the input ends after 2 bytes");
	src_close(s);
	path = fx_write(&f, "short.json", "[1, 2]", 6);
	CHECK_INT(t, open_read(&s, path, 4, out, sizeof out, &len, &e), 0);
	CHECK(t, len == 6 && memcmp(out, "[1, 2]", 6) == 0);
	size_t got = 7;
	CHECK_INT(t, src_read(s, out, 0, &got, &e), 0);
	CHECK_INT(t, got, 0);
	src_close(s);
	fx_free(&f);
}

void test_io_open_errors(struct t *t)
{
	struct src *s = (struct src *)(uintptr_t)1; /* must be reset to NULL */
	struct err e;
	CHECK_INT(t, src_open(&s, "/nonexistent/trace.json.gz", &e), ERR_IO);
	CHECK(t, s == NULL);
	CHECK_INT(t, e.code, ERR_IO);
	CHECK_STR(t, e.path, "/nonexistent/trace.json.gz");
	CHECK_STR(t, e.msg, "cannot open: No such file or directory");
	CHECK_INT(t, e.offset, -1);
	CHECK_INT(t, src_open(&s, "/tmp", &e), ERR_IO);
	CHECK_STR(t, e.msg, "cannot open: Is a directory");
	src_close(NULL); /* a no-op */
}

/* --- stdin --- */

/* Makes fd 0 the read end of a pipe fed by a child that writes p[0..n) and
 * exits (or, with hold, keeps the pipe open until killed). Returns the
 * child's pid; *saved is the old stdin, for restore_stdin. */
static pid_t pipe_stdin(const void *p, size_t n, bool hold, int *saved)
{
	int fds[2];
	if (pipe(fds))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		const unsigned char *q = p;
		while (n) {
			ssize_t w = write(fds[1], q, n);
			if (w <= 0)
				_exit(1);
			q += w;
			n -= (size_t)w;
		}
		if (hold)
			pause();
		_exit(0);
	}
	close(fds[1]);
	*saved = dup(0);
	dup2(fds[0], 0);
	close(fds[0]);
	return pid;
}

static void restore_stdin(pid_t pid, int saved, bool kill_it)
{
	dup2(saved, 0);
	close(saved);
	if (kill_it)
		kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

void test_io_stdin(struct t *t)
{
	alarm(60);
	size_t na = 1000003, nb = 54321, za, zb;
	unsigned char *a = gen_text(na, 10), *b = gen_text(nb, 11);
	unsigned char *ga = gz_member(a, na, &za), *gb = gz_member(b, nb, &zb);
	unsigned char *want = concat(a, na, b, nb), *out = malloc(na + nb + 16);
	unsigned char zeros[100] = {0};
	unsigned char *g2 = concat(ga, za, gb, zb);
	unsigned char *file = concat(g2, za + zb, zeros, sizeof zeros);
	struct src *s;
	struct err e;
	size_t len;
	int saved;

	pid_t pid = pipe_stdin(a, na, false, &saved);
	CHECK_INT(t, open_read(&s, "-", 4096, out, na + 16, &len, &e), 0);
	CHECK(t, len == na && memcmp(out, a, na) == 0);
	CHECK_STR(t, src_path(s), "<stdin>");
	CHECK_INT(t, src_raw_size(s), -1);
	CHECK(t, !src_is_gzip(s));
	src_close(s);
	restore_stdin(pid, saved, false);

	pid = pipe_stdin(file, za + zb + sizeof zeros, false, &saved);
	CHECK_INT(t, open_read(&s, "-", 7, out, na + nb + 16, &len, &e), 0);
	CHECK(t, len == na + nb && memcmp(out, want, len) == 0);
	CHECK(t, src_is_gzip(s));
	CHECK_INT(t, src_raw_size(s), -1);
	CHECK_INT(t, src_raw_pos(s), za + zb + sizeof zeros);
	CHECK_INT(t, src_trailing_bytes(s), sizeof zeros);
	CHECK(t, !src_truncated(s));
	src_close(s);
	restore_stdin(pid, saved, false);

	/* Errors name "<stdin>". */
	g2[za / 2] ^= 0x55;
	pid = pipe_stdin(g2, za, false, &saved);
	CHECK_INT(t, open_read(&s, "-", MIB, out, na + nb + 16, &len, &e), ERR_FORMAT);
	CHECK_STR(t, e.path, "<stdin>");
	src_close(s);
	restore_stdin(pid, saved, false);

	free(a);
	free(b);
	free(ga);
	free(gb);
	free(g2);
	free(file);
	free(want);
	free(out);
	alarm(0);
}

/* --- Stopping early --- */

/* A gzip stream of `n` bytes of repeated text, built in pieces. */
static unsigned char *gz_big(size_t n, size_t *len)
{
	size_t nb = 16384;
	unsigned char *block = gen_text(nb, 12);
	z_stream z;
	memset(&z, 0, sizeof z);
	if (!block || deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(block);
		return NULL;
	}
	size_t cap = n / 4 + MIB, done = 0;
	unsigned char *out = malloc(cap);
	z.next_out = out;
	z.avail_out = (uInt)cap;
	int r = Z_OK;
	while (out && r == Z_OK) {
		size_t k = n - done < nb ? n - done : nb;
		z.next_in = block;
		z.avail_in = (uInt)k;
		done += k;
		r = deflate(&z, done == n ? Z_FINISH : Z_NO_FLUSH);
		if (z.avail_out == 0)
			break;
	}
	*len = cap - z.avail_out;
	deflateEnd(&z);
	free(block);
	if (r != Z_STREAM_END) {
		free(out);
		return NULL;
	}
	return out;
}

void test_io_early_close(struct t *t)
{
	alarm(60);
	struct fx f;
	CHECK_INT(t, fx_init(&f), 0);
	size_t zn = 0, n = 64 * MIB;
	unsigned char *z = gz_big(n, &zn);
	CHECK(t, z != NULL);
	const char *path = z ? fx_write(&f, "big.json.gz", z, zn) : NULL;
	unsigned char *buf = malloc(MIB);
	struct src *s;
	struct err e;
	size_t got;
	for (int i = 0; path && i < 3; i++) {
		CHECK_INT(t, src_open(&s, path, &e), 0);
		size_t len = 0;
		/* 0: close at once; 1: after 1 MiB; 2: after 10 MiB */
		size_t stop = i == 0 ? 0 : i == 1 ? MIB : 10 * MIB;
		while (len < stop &&
		       src_read(s, buf, stop - len < MIB ? stop - len : MIB, &got, &e) == 0 && got)
			len += got;
		CHECK_INT(t, len, stop);
		CHECK_INT(t, src_pos(s), stop);
		src_close(s);
	}
	/* The whole stream once, to know the fixture is right. */
	if (path) {
		CHECK_INT(t, src_open(&s, path, &e), 0);
		while (src_read(s, buf, MIB, &got, &e) == 0 && got)
			;
		CHECK_INT(t, src_pos(s), n);
		src_close(s);
	}
	/* A pipe whose writer never finishes: the bytes so far are delivered,
	 * and close wakes the thread blocked on the pipe. */
	int saved;
	if (!z)
		goto out;
	pid_t pid = pipe_stdin(z, zn / 4, true, &saved);
	CHECK_INT(t, src_open(&s, "-", &e), 0);
	CHECK_INT(t, src_read(s, buf, MIB, &got, &e), 0);
	CHECK(t, got > 0 && got <= MIB);
	src_close(s);
	restore_stdin(pid, saved, true);
	/* A pipe that goes dry and stays open: what could be inflated is
	 * delivered at once (not held back until a ring slot fills), and close
	 * wakes the thread from its wait on the pipe. */
	pid = pipe_stdin(z, 4096, true, &saved);
	CHECK_INT(t, src_open(&s, "-", &e), 0);
	CHECK(t, src_is_gzip(s));
	CHECK_INT(t, src_read(s, buf, MIB, &got, &e), 0);
	CHECK(t, got > 0);
	usleep(20000); /* let the thread block in poll */
	src_close(s);
	restore_stdin(pid, saved, true);
out:
	free(buf);
	free(z);
	fx_free(&f);
	alarm(0);
}

/* --- Sniffing --- */

/* The byte signatures, each asked separately: want lists those that hold
 * (an analysis.json is JSON too), every other one must not. */
void test_io_sniff(struct t *t)
{
	static const struct {
		const char *name;
		bool (*fn)(const void *, size_t);
	} sigs[] = {{"gzip", sniff_gzip},	{"sqlite", sniff_sqlite},
		    {"ncu-rep", sniff_ncu_rep}, {"nsys-rep", sniff_nsys_rep},
		    {"json", sniff_json},	{"nsys-analysis", sniff_nsys_analysis}};
	static const struct {
		const char *bytes;
		size_t n;
		const char *want; /* " a b ": the signatures that hold */
	} cases[] = {
	    {"\x1f\x8b\x08\x00", 4, " gzip "},
	    {"{\"traceEvents\": []}", 19, " json "},
	    {"\xef\xbb\xbf \r\n\t[{}]", 10, " json "},
	    {"\n\n  {", 5, " json "},
	    {"   ", 3, ""},
	    {"\xef\xbb\xbf", 3, ""},
	    {"SQLite format 3\0\x10\x00", 18, " sqlite "},
	    {"SQLite format 3", 15, ""}, /* no NUL yet */
	    {"NVR\0\x02\0\0\0\x08\x07", 10, " ncu-rep "},
	    {"NVRP", 4, ""},
	    {"NVIDIA Tegra Profiler Report 2026@1@1@204-2v0.\n", 48, " nsys-rep "},
	    {"\x1f", 1, ""},
	    {"", 0, ""},
	    {"Name,Time (%)\n", 14, ""},
	    /* analysis.json of nsys analyze: the first key is one of its own */
	    {"{\n  \"gpu_projected_ranges\": [],", 31, " json nsys-analysis "},
	    {"\xef\xbb\xbf{\"schema_version\": 1}", 24, " json nsys-analysis "},
	    {"{\"schemaVersion\": 1, \"traceEvents\": []}", 39, " json "},
	    {"{\"iterations_total\": 3}", 23, " json "},
	    {"{\"host_ranges", 13, " json "}, /* cut before the closing quote */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
			char pat[32];
			snprintf(pat, sizeof pat, " %s ", sigs[k].name);
			bool want = strstr(cases[i].want, pat) != NULL;
			if (sigs[k].fn(cases[i].bytes, cases[i].n) != want)
				t_fail(t, __FILE__, __LINE__, "case %zu: %s is %s", i, sigs[k].name,
				       want ? "false" : "true");
		}
}

/* The head of gzip bytes held in memory, inflated through its members; a
 * cut or foreign head gives what it can, or nothing. */
void test_io_sniff_gunzip(struct t *t)
{
	const char text[] = "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"aten::mm\"}]}";
	const char part2[] = "\"schema_version\": 1}";
	size_t n = 0, n1 = 0, n2 = 0;
	unsigned char *gz = gz_member(text, sizeof text - 1, &n);
	unsigned char *m1 = gz_member("{\n", 2, &n1), *m2 = gz_member(part2, sizeof part2 - 1, &n2);
	unsigned char *two = m1 && m2 ? calloc(1, n1 + n2 + 8) : NULL;
	CHECK(t, gz && two);
	if (t->failed_checks)
		goto out;
	char buf[256];
	CHECK_INT(t, sniff_gunzip_head(gz, n, buf, sizeof buf), sizeof text - 1);
	CHECK(t, !memcmp(buf, text, sizeof text - 1));
	CHECK_INT(t, sniff_gunzip_head(gz, n, buf, 5), 5); /* only what fits */
	CHECK(t, !memcmp(buf, "{\"tra", 5));
	CHECK_INT(t, sniff_gunzip_head(text, sizeof text - 1, buf, sizeof buf), 0); /* not gzip */
	CHECK_INT(t, sniff_gunzip_head(gz, 10, buf, sizeof buf), 0); /* the header only */
	CHECK_INT(t, sniff_gunzip_head(gz, n, buf, 0), 0);
	/* a first member of two bytes, then the rest, then zero padding */
	memcpy(two, m1, n1);
	memcpy(two + n1, m2, n2);
	size_t got = sniff_gunzip_head(two, n1 + n2 + 8, buf, sizeof buf);
	CHECK_INT(t, got, 22);
	CHECK(t, got == 22 && !memcmp(buf, "{\n\"schema_version\": 1}", 22));
	CHECK(t, sniff_nsys_analysis(buf, got));
out:
	free(gz);
	free(m1);
	free(m2);
	free(two);
}

void test_io_shared_owlv2(struct t *t)
{
	NEED_SHARED(t);
	char path[512];
	snprintf(path, sizeof path, "%s/data/torch-large/tracelens_h100_owlv2.json.gz", t->shared);
	struct src *s;
	struct err e;
	CHECK_INT(t, src_open(&s, path, &e), 0);
	if (t->failed_checks)
		return;
	unsigned char *buf = malloc(LIM_CHUNK_BYTES);
	size_t got;
	int rc;
	while ((rc = src_read(s, buf, LIM_CHUNK_BYTES, &got, &e)) == 0 && got)
		;
	CHECK_INT(t, rc, 0);
	CHECK_INT(t, src_pos(s), 55643189);
	CHECK(t, src_is_gzip(s));
	CHECK(t, !src_truncated(s));
	CHECK_INT(t, src_trailing_bytes(s), 0);
	CHECK_INT(t, src_raw_pos(s), 3058875);
	CHECK_INT(t, src_raw_size(s), 3058875);
	src_close(s);
	free(buf);
}
