/* ncu_results: the ProfileResult entries of a report parsed after the walk
 * over its blocks, on one or two threads.
 *
 * The walk (ncu_read.c) only records each result's bytes, offset and
 * process; this parses them. Results are independent of each other, and
 * on a large report they are nearly all of the work (about 16 instructions
 * a byte: every metric's name and value is checked), so with two threads
 * a second one parses the later half of the bytes into its own arena while
 * the caller parses the first half; the worker's arena then joins the
 * report's. The results are the same as one thread's, in the same order.
 *
 * Errors are those of a serial parse: the first bad result in file order
 * (the caller's half before the worker's). */
#include <pthread.h>

#include "core/threads.h"
#include "ncu/ncu_int.h"

/* Below this many bytes of results a second thread is not worth starting. */
#define NCU_PAR_MIN_BYTES ((size_t)4 << 20)

struct half {
	struct ncu_ctx c;
	struct ncu_result *res;
	size_t n;
	int rc;
};

static int parse_range(struct ncu_ctx *c, struct ncu_result *res, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct pb_reader r;
		pb_init(&r, res[i].data, res[i].data_len, res[i].offset + 4, c->path);
		int rc = ncu_parse_result(c, &r, &res[i]);
		if (rc)
			return rc;
	}
	return 0;
}

static void *worker(void *arg)
{
	struct half *h = arg;
	h->rc = parse_range(&h->c, h->res, h->n);
	return NULL;
}

int ncu_parse_results(struct ncu_ctx *c, int threads)
{
	struct ncu_result *res = c->results.v;
	size_t n = c->results.n, bytes = 0;
	for (size_t i = 0; i < n; i++)
		bytes += res[i].data_len;
	if (gp_threads(threads) < 2 || n < 2 || bytes < NCU_PAR_MIN_BYTES)
		return parse_range(c, res, n);
	/* the worker takes the results after the byte halfway point */
	size_t k = 0;
	for (size_t acc = 0; k < n - 1 && acc < bytes / 2; k++)
		acc += res[k].data_len;
	struct ncu_report shadow = {0}; /* only its arena is used (empty: zeroed) */
	struct err we = {0};
	struct half w = {
	    .c = {.r = &shadow, .e = &we, .path = c->path}, .res = res + k, .n = n - k};
	pthread_t th;
	if (pthread_create(&th, NULL, worker, &w))
		return parse_range(c, res, n); /* no thread: all here */
	int rc = parse_range(c, res, k);
	pthread_join(th, NULL);
	ncu_ctx_free(&w.c);
	arena_adopt(&c->r->arena, &shadow.arena); /* (its strings and arrays) */
	if (!rc && w.rc) {
		if (c->e)
			*c->e = we;
		rc = w.rc;
	}
	return rc;
}
