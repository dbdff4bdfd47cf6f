/* gzip: inflates a gzip stream (any number of members) on a background
 * thread into a small ring of output buffers, so that decompression runs on
 * one core while the caller tokenizes on another.
 *
 * Inflation is ISA-L's isal_inflate with crc_flag ISAL_GZIP, which parses
 * each member's header and checks its CRC-32 and ISIZE; it is 2-3x faster
 * than zlib on our traces. Between members we look at the next two bytes
 * ourselves: another magic starts a new member, anything else (zero padding
 * from tape or tar tools, garbage) ends the stream and is counted as
 * trailing bytes.
 *
 * Threading: the worker owns the inflate state and the input buffer; the
 * slots of the ring change hands under `mu` (the worker fills slot
 * (head + count) % nslots, the consumer reads slot head). Memory is
 * bounded: nslots * GZ_SLOT_BYTES of output plus GZ_IN_BYTES of input,
 * allocated on first use. gzip_close can stop the worker wherever it is: a
 * flag checked between inflate calls, a condition variable while it waits
 * for a free slot, and an eventfd polled next to a pipe it reads from.
 */
#include <errno.h>
#include <isa-l/igzip_lib.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/internal.h"

/* Slots of 512 KiB: small enough that the output is still in cache when the
 * consumer copies it (4 MiB slots measured 10-30% slower: page faults, cache
 * misses). Their number is the read-ahead the consumer asks for (src_open_ex):
 * a consumer that refills a whole window at once wants the next window
 * inflated while it parses the current one. */
#define GZ_MAX_SLOTS 64
#define GZ_MIN_SLOTS 4
#define GZ_SLOT_BYTES ((size_t)1 << 19)
#define GZ_IN_BYTES ((size_t)1 << 18)

struct slot {
	unsigned char *data; /* GZ_SLOT_BYTES, allocated by the worker on first use */
	size_t len;
};

struct gzip {
	struct src *s; /* fd, is_reg, peek: fixed before the worker starts */
	pthread_t thread;
	int wake_fd; /* eventfd written by gzip_close; -1 for regular files */

	/* Shared, under mu. */
	pthread_mutex_t mu;
	pthread_cond_t filled_cv; /* a slot was filled, or done */
	pthread_cond_t free_cv;	  /* a slot was freed, or stop */
	struct slot slot[GZ_MAX_SLOTS];
	unsigned nslots;      /* slots in use, GZ_MIN_SLOTS..GZ_MAX_SLOTS */
	unsigned head, count; /* filled slots: head .. head + count - 1 */
	bool done;	      /* the worker published its last slot */
	atomic_bool stop;     /* gzip_close asks the worker to quit */
	atomic_int_least64_t raw_read;

	/* Outcome, written by the worker before done, read after it. */
	int status; /* 0, ERR_FORMAT, ERR_IO or ERR_NOMEM */
	int64_t err_offset;
	bool err_raw; /* err_offset counts compressed bytes */
	char msg[256];
	bool truncated;
	int64_t trailing;

	/* Worker only. */
	struct slot *fill; /* the slot being filled, NULL between slots */
	struct inflate_state st;
	unsigned char *in;
	bool in_eof;

	/* Consumer only: the slot being read (slot[head] when held). */
	bool holding;
	size_t off;
};

static void publish(struct gzip *g, bool last);

/* --- Worker: input --- */

/* Reads into buf. Returns bytes read, 0 at end of input, -1 on error (errno
 * set), -2 when gzip_close woke us from a blocking wait on a pipe. */
static ssize_t read_input(struct gzip *g, void *buf, size_t n)
{
	for (;;) {
		if (g->wake_fd >= 0) {
			struct pollfd pf[2] = {{.fd = g->s->fd, .events = POLLIN},
					       {.fd = g->wake_fd, .events = POLLIN}};
			int pr = poll(pf, 2, 0);
			if (pr == 0 && g->fill && g->fill->len) {
				/* The pipe is dry: hand over what we have rather
				 * than sit on it until the producer writes more. */
				publish(g, false);
			}
			if (pr == 0)
				pr = poll(pf, 2, -1);
			if (pr < 0 && errno == EINTR)
				continue;
			if (pr < 0)
				return -1;
			if (pf[1].revents)
				return -2;
		}
		ssize_t r = read(g->s->fd, buf, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN && g->wake_fd >= 0)
			continue; /* non-blocking stdin: poll again */
		if (r > 0)
			atomic_fetch_add(&g->raw_read, r);
		return r;
	}
}

/* Moves the unread input to the front of g->in and reads until at least
 * `want` bytes are available or the input ends. Returns 0, or -1/-2 as
 * read_input. */
static int refill(struct gzip *g, size_t want)
{
	struct inflate_state *st = &g->st;
	if (st->avail_in && st->next_in != g->in)
		memmove(g->in, st->next_in, st->avail_in);
	st->next_in = g->in;
	while (st->avail_in < want && !g->in_eof) {
		ssize_t r = read_input(g, g->in + st->avail_in, GZ_IN_BYTES - st->avail_in);
		if (r < 0)
			return (int)r;
		if (r == 0)
			g->in_eof = true;
		st->avail_in += (uint32_t)r;
	}
	return 0;
}

/* Counts the bytes after the last member: what is buffered plus the rest
 * of the file (its size for a regular file, read and dropped for a pipe). */
static int count_trailing(struct gzip *g)
{
	int64_t n = g->st.avail_in;
	struct stat sb;
	if (g->s->is_reg && fstat(g->s->fd, &sb) == 0) {
		int64_t rest = (int64_t)sb.st_size - atomic_load(&g->raw_read);
		g->trailing = n + (rest > 0 ? rest : 0);
		return 0;
	}
	while (!g->in_eof) {
		ssize_t r = read_input(g, g->in, GZ_IN_BYTES);
		if (r < 0)
			return (int)r;
		if (r == 0)
			g->in_eof = true;
		n += r;
	}
	g->trailing = n;
	return 0;
}

/* --- Worker: ring --- */

/* Waits for a free slot and returns it empty, or NULL when stopped or out
 * of memory (which sets the outcome). */
static struct slot *acquire_slot(struct gzip *g)
{
	pthread_mutex_lock(&g->mu);
	while (g->count == g->nslots && !atomic_load(&g->stop))
		pthread_cond_wait(&g->free_cv, &g->mu);
	struct slot *sl = atomic_load(&g->stop) ? NULL : &g->slot[(g->head + g->count) % g->nslots];
	pthread_mutex_unlock(&g->mu);
	if (sl && !sl->data) {
		sl->data = malloc(GZ_SLOT_BYTES);
		if (!sl->data) {
			g->status = ERR_NOMEM;
			g->err_offset = -1;
			snprintf(g->msg, sizeof g->msg, "out of memory (gzip buffer)");
			return NULL;
		}
	}
	if (sl)
		sl->len = 0;
	return sl;
}

/* Hands the slot the worker was filling (if any, and not empty) to the
 * consumer; `last` also publishes the outcome. */
static void publish(struct gzip *g, bool last)
{
	struct slot *sl = g->fill;
	g->fill = NULL;
	pthread_mutex_lock(&g->mu);
	if (sl && sl->len)
		g->count++;
	if (last)
		g->done = true;
	pthread_cond_signal(&g->filled_cv);
	pthread_mutex_unlock(&g->mu);
}

/* --- Worker: inflate --- */

static const char *isal_error(int ret)
{
	switch (ret) {
	case ISAL_INVALID_BLOCK:
		return "invalid deflate block";
	case ISAL_INVALID_SYMBOL:
		return "invalid deflate code";
	case ISAL_INVALID_LOOKBACK:
		return "invalid back-reference distance";
	case ISAL_INVALID_WRAPPER:
		return "invalid gzip header";
	case ISAL_UNSUPPORTED_METHOD:
		return "unsupported compression method";
	case ISAL_INCORRECT_CHECKSUM:
		return "CRC-32 or length check failed";
	case ISAL_NEED_DICT:
		return "needs a preset dictionary";
	default:
		return "inflate failed";
	}
}

static void start_member(struct gzip *g)
{
	uint8_t *next = g->st.next_in;
	uint32_t avail = g->st.avail_in;
	isal_inflate_init(&g->st);
	g->st.crc_flag = ISAL_GZIP;
	g->st.next_in = next;
	g->st.avail_in = avail;
}

static void set_io_error(struct gzip *g)
{
	g->status = ERR_IO;
	g->err_offset = -1;
	snprintf(g->msg, sizeof g->msg, "cannot read: %s", strerror(errno));
}

/* After a member ended: 1 when another member follows (state reset for
 * it), 0 at the end of the stream (outcome set), <0 from refill. */
static int next_member(struct gzip *g)
{
	int r = refill(g, 2);
	if (r)
		return r;
	const uint8_t *p = g->st.next_in;
	uint32_t n = g->st.avail_in;
	if (n == 0)
		return 0;
	if (p[0] == 0x1f && (n == 1 || p[1] == 0x8b)) {
		if (n == 1) { /* input ends one byte into a magic */
			g->truncated = true;
			return 0;
		}
		start_member(g);
		return 1;
	}
	r = count_trailing(g);
	return r ? r : 0;
}

/* The input ends in the first member before it yields a byte (its header,
 * or the start of its data, is cut): an error at the compressed offset
 * where it ends, not the empty input the parser would see. */
/* The length of the gzip member header (RFC 1952: 10 bytes, then the
 * optional extra field, name, comment and header CRC) at p[0..n), or 0
 * when it does not end within them. */
static size_t header_len(const unsigned char *p, size_t n)
{
	if (n < 10)
		return 0;
	unsigned flg = p[3];
	size_t k = 10;
	if (flg & 4) { /* FEXTRA */
		if (n < k + 2)
			return 0;
		k += 2 + (size_t)(p[k] | p[k + 1] << 8);
	}
	for (unsigned f = 8; f <= 16; f <<= 1) { /* FNAME, FCOMMENT */
		if (!(flg & f))
			continue;
		const unsigned char *z = k < n ? memchr(p + k, 0, n - k) : NULL;
		if (!z)
			return 0;
		k = (size_t)(z - p) + 1;
	}
	k += flg & 2 ? 2 : 0; /* FHCRC */
	return k <= n ? k : 0;
}

static void header_cut(struct gzip *g)
{
	long long raw = (long long)atomic_load(&g->raw_read);
	const char *s = raw == 1 ? "" : "s";
	g->status = ERR_FORMAT;
	g->err_offset = raw;
	g->err_raw = true;
	if (!header_len(g->s->peek, g->s->peek_len))
		snprintf(g->msg, sizeof g->msg,
			 "truncated gzip header: the input ends after %lld byte%s", raw, s);
	else
		snprintf(g->msg, sizeof g->msg,
			 "truncated gzip member: the input ends after %lld byte%s, past its "
			 "header but before any data",
			 raw, s);
}

/* The worker's loop: inflate into the slot being filled, publish full slots,
 * follow members until the input ends or an error (then publish the
 * outcome), or until stopped (then just return: nobody is listening). */
static void run(struct gzip *g)
{
	struct inflate_state *st = &g->st;
	int64_t total = 0; /* bytes inflated: the offset of errors */
	int member = 1;
	int r;

	memcpy(g->in, g->s->peek, g->s->peek_len);
	g->in_eof = g->s->eof;
	st->next_in = g->in;
	st->avail_in = (uint32_t)g->s->peek_len;
	start_member(g);
	for (;;) {
		if (atomic_load_explicit(&g->stop, memory_order_relaxed))
			return;
		if (g->fill && g->fill->len == GZ_SLOT_BYTES)
			publish(g, false);
		/* Input first: a dry pipe publishes the partial slot. */
		if (st->avail_in == 0 && !g->in_eof && (r = refill(g, 1)) != 0)
			goto input_failed;
		if (!g->fill && !(g->fill = acquire_slot(g))) {
			if (atomic_load(&g->stop))
				return;
			break; /* out of memory */
		}
		struct slot *sl = g->fill;
		uint32_t in_before = st->avail_in;
		size_t room = GZ_SLOT_BYTES - sl->len;
		st->next_out = sl->data + sl->len;
		st->avail_out = (uint32_t)room;
		int ret = isal_inflate(st);
		size_t made = room - st->avail_out;
		sl->len += made;
		total += (int64_t)made;
		if (ret < 0 || ret == ISAL_NEED_DICT) {
			g->status = ERR_FORMAT;
			g->err_offset = total;
			snprintf(g->msg, sizeof g->msg, "corrupt gzip data (member %d): %s", member,
				 isal_error(ret));
			break;
		}
		if (st->block_state == ISAL_BLOCK_FINISH) {
			r = next_member(g);
			if (r < 0)
				goto input_failed;
			if (r == 0)
				break;
			member++;
			continue;
		}
		bool moved = made || st->avail_in != in_before;
		if (!moved && st->avail_in == 0 && g->in_eof) {
			if (total == 0) { /* cut before any data: nothing to read at all */
				header_cut(g);
				break;
			}
			g->truncated = true; /* the input stops inside a member */
			break;
		}
		if (!moved && st->avail_in) {
			/* Not expected from ISA-L; refuse to spin. */
			g->status = ERR_FORMAT;
			g->err_offset = total;
			snprintf(g->msg, sizeof g->msg, "corrupt gzip data (member %d): %s", member,
				 "inflate made no progress");
			break;
		}
	}
	publish(g, true);
	return;
input_failed:
	if (r == -2) /* stopped */
		return;
	set_io_error(g);
	publish(g, true);
}

static void *worker(void *arg)
{
	run(arg);
	return NULL;
}

/* --- Consumer --- */

/* Frees g and what it owns (its thread is not running). */
static void gz_free(struct gzip *g)
{
	for (unsigned i = 0; i < g->nslots; i++)
		free(g->slot[i].data);
	pthread_mutex_destroy(&g->mu);
	pthread_cond_destroy(&g->filled_cv);
	pthread_cond_destroy(&g->free_cv);
	if (g->wake_fd >= 0)
		close(g->wake_fd);
	free(g->in);
	free(g);
}

int gzip_start(struct src *s, size_t readahead, struct err *e)
{
	struct gzip *g = calloc(1, sizeof *g);
	if (!g)
		return err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
	g->s = s;
	g->wake_fd = -1;
	size_t want = readahead / GZ_SLOT_BYTES;
	g->nslots = want < GZ_MIN_SLOTS	  ? GZ_MIN_SLOTS
		    : want > GZ_MAX_SLOTS ? GZ_MAX_SLOTS
					  : (unsigned)want;
	g->in = malloc(GZ_IN_BYTES);
	if (!g->in) {
		free(g);
		return err_set(e, ERR_NOMEM, s->path, -1, "out of memory");
	}
	if (!s->is_reg) {
		g->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (g->wake_fd < 0) {
			int rc = err_set(e, ERR_IO, s->path, -1, "eventfd: %s", strerror(errno));
			free(g->in);
			free(g);
			return rc;
		}
	}
	atomic_init(&g->stop, false);
	atomic_init(&g->raw_read, (int_least64_t)s->peek_len);
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->filled_cv, NULL);
	pthread_cond_init(&g->free_cv, NULL);
	int pe = pthread_create(&g->thread, NULL, worker, g);
	if (pe) {
		gz_free(g);
		return err_set(e, ERR_NOMEM, s->path, -1, "cannot start thread: %s", strerror(pe));
	}
	s->gz = g;
	return 0;
}

/* Copies from the held slot; when it is used up, frees it and takes the
 * next one, waiting only when nothing was copied yet (a short read beats a
 * stall for a caller that has bytes to work on). */
int gzip_read(struct src *s, void *dst, size_t cap, size_t *got, struct err *e)
{
	struct gzip *g = s->gz;
	unsigned char *d = dst;
	size_t n = 0;
	while (n < cap) {
		if (g->holding) {
			struct slot *sl = &g->slot[g->head];
			size_t k = sl->len - g->off;
			if (k) {
				if (k > cap - n)
					k = cap - n;
				memcpy(d + n, sl->data + g->off, k);
				g->off += k;
				n += k;
				continue;
			}
		}
		pthread_mutex_lock(&g->mu);
		if (g->holding) {
			g->holding = false;
			g->head = (g->head + 1) % g->nslots;
			g->count--;
			pthread_cond_signal(&g->free_cv);
		}
		while (g->count == 0 && !g->done && n == 0)
			pthread_cond_wait(&g->filled_cv, &g->mu);
		bool have = g->count > 0, done = g->done;
		pthread_mutex_unlock(&g->mu);
		if (!have) {
			if (n || !done)
				break;
			s->truncated = g->truncated;
			s->trailing = g->trailing;
			if (g->status == 0)
				break; /* end of stream */
			int rc = err_set(e, g->status, s->path, g->err_offset, "%s", g->msg);
			err_mark_uncompressed(e, g->status == ERR_FORMAT && !g->err_raw);
			return rc;
		}
		g->holding = true;
		g->off = 0;
	}
	s->pos += (int64_t)n;
	*got = n;
	return 0;
}

int64_t gzip_raw_pos(const struct src *s)
{
	return atomic_load(&s->gz->raw_read);
}

void gzip_close(struct src *s)
{
	struct gzip *g = s->gz;
	pthread_mutex_lock(&g->mu);
	atomic_store(&g->stop, true);
	pthread_cond_broadcast(&g->free_cv);
	pthread_mutex_unlock(&g->mu);
	if (g->wake_fd >= 0) {
		uint64_t one = 1;
		ssize_t w = write(g->wake_fd, &one, sizeof one);
		(void)w; /* a full counter already wakes the poll */
	}
	pthread_join(g->thread, NULL);
	gz_free(g);
	s->gz = NULL;
}
