/* link: runtime -> GPU activity by correlation id; see link.h. Linear:
 * one hash of correlation ids, two passes over the rows. */
#include "core/hmap.h"
#include "core/radix.h"
#include "core/sort.h"
#include "trace/link.h"

#include <stdlib.h>
#include <string.h>

static int by_launcher(const void *a, const void *b, void *ctx)
{
	const uint32_t *launcher = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	if (launcher[x] != launcher[y])
		return launcher[x] < launcher[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

static bool is_launcher(const struct trace *t, size_t r, bool driver)
{
	return t->ev.kind[r] == TR_RUNTIME || (driver && t->ev.kind[r] == TR_DRIVER);
}

/* Groups the linked rows of out->launcher (out->ndev of them) by launcher
 * into out->dev and out->seg. */
static int group(struct tr_links *out)
{
	size_t n = out->n;
	/* Segments: count per launcher through a scratch array over the
	 * linked rows only, then group. */
	out->dev = malloc((out->ndev ? out->ndev : 1) * sizeof *out->dev);
	if (!out->dev)
		return -1;
	/* order by (launcher, row): the radix sort of (launcher, row) pairs,
	 * one pass when the rows come in their launchers' order, as they
	 * usually do (the comparator sort when its scratch is refused) */
	struct pair {
		uint32_t launcher, row;
	} *p = malloc((out->ndev ? out->ndev : 1) * sizeof *p);
	static const struct rx_key by_pair[] = {RX_KEY(struct pair, launcher, RX_U32),
						RX_KEY(struct pair, row, RX_U32)};
	size_t k = 0;
	for (size_t r = 0; r < n; r++)
		if (out->launcher[r] != TR_NONE) {
			out->dev[k] = (uint32_t)r;
			if (p)
				p[k] = (struct pair){out->launcher[r], (uint32_t)r};
			k++;
		}
	if (p && !rx_sort(p, out->ndev, sizeof *p, by_pair, 2))
		for (size_t i = 0; i < out->ndev; i++)
			out->dev[i] = p[i].row;
	else
		gp_qsort_r(out->dev, out->ndev, sizeof *out->dev, by_launcher, out->launcher);
	free(p);
	size_t nseg = 0;
	for (size_t i = 0; i < out->ndev; i++)
		nseg += !i || out->launcher[out->dev[i]] != out->launcher[out->dev[i - 1]];
	out->seg = malloc((nseg ? nseg : 1) * sizeof *out->seg);
	if (!out->seg)
		return -1;
	for (size_t i = 0; i < out->ndev; i++) {
		uint32_t l = out->launcher[out->dev[i]];
		if (!i || l != out->launcher[out->dev[i - 1]])
			out->seg[out->nseg++] = (struct tr_link_seg){.rt = l, .first = (uint32_t)i};
		out->seg[out->nseg - 1].count++;
	}
	return 0;
}

int tr_links_build(const struct trace *t, bool driver, struct tr_links *out, struct err *e)
{
	size_t n = t->ev.n;
	memset(out, 0, sizeof *out);
	out->n = n;
	size_t nrt = 0;
	for (size_t r = 0; r < n; r++)
		nrt += is_launcher(t, r, driver);
	struct hmap first; /* correlation -> first launcher row */
	out->launcher = malloc((n ? n : 1) * sizeof *out->launcher);
	if (hmap_init(&first, nrt) || !out->launcher)
		goto nomem;
	for (size_t r = 0; r < n; r++) {
		int64_t c = is_launcher(t, r, driver) ? tr_corr(t, r) : -1;
		uint32_t row;
		if (c < 0)
			continue;
		size_t slot = hmap_find(&first, hmap_int(c), NULL, NULL, &row);
		if (row == HMAP_NONE)
			hmap_set(&first, slot, hmap_int(c), (uint32_t)r);
	}
	for (size_t r = 0; r < n; r++) {
		out->launcher[r] = TR_NONE;
		int64_t c = tr_is_device(t->ev.kind[r]) ? tr_corr(t, r) : -1;
		if (c < 0)
			continue;
		uint32_t row = hmap_get(&first, hmap_int(c), NULL, NULL);
		if (row != HMAP_NONE) {
			out->launcher[r] = row;
			out->ndev++;
		}
	}
	hmap_free(&first);
	if (!group(out))
		return 0;
	tr_links_free(out);
	return err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
nomem:
	hmap_free(&first);
	tr_links_free(out);
	return err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
}

void tr_links_free(struct tr_links *l)
{
	free(l->launcher);
	free(l->dev);
	free(l->seg);
	memset(l, 0, sizeof *l);
}

const uint32_t *tr_links_devices(const struct tr_links *l, size_t rt, size_t *n)
{
	size_t lo = 0, hi = l->nseg;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->seg[mid].rt == rt) {
			*n = l->seg[mid].count;
			return l->dev + l->seg[mid].first;
		}
		if (l->seg[mid].rt < rt)
			lo = mid + 1;
		else
			hi = mid;
	}
	*n = 0;
	return NULL;
}

int tr_links_derive(const struct tr_links *parent, const struct trace *w, const uint32_t *base_row,
		    struct tr_links *out, struct err *e)
{
	size_t n = w->ev.n;
	memset(out, 0, sizeof *out);
	out->n = n;
	/* window row of each parent row that has one, for the launchers */
	uint32_t *at = malloc((parent->n ? parent->n : 1) * sizeof *at);
	out->launcher = malloc((n ? n : 1) * sizeof *out->launcher);
	if (!at || !out->launcher)
		goto nomem;
	for (size_t r = 0; r < parent->n; r++)
		at[r] = TR_NONE;
	for (size_t r = 0; r < n; r++)
		at[base_row[r]] = (uint32_t)r;
	for (size_t r = 0; r < n; r++) {
		uint32_t l = parent->launcher[base_row[r]];
		out->launcher[r] = l == TR_NONE ? TR_NONE : at[l];
		if (l != TR_NONE && at[l] == TR_NONE) {
			/* the first launcher is outside the window: a later one
			 * with the same correlation id may be inside */
			free(at);
			tr_links_free(out);
			return 1;
		}
		out->ndev += l != TR_NONE;
	}
	free(at);
	at = NULL;
	if (!group(out))
		return 0;
nomem:
	free(at);
	tr_links_free(out);
	return err_set(e, ERR_NOMEM, w->path, -1, "out of memory");
}
