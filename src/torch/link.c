/* link: runtime -> GPU activity by correlation id; see link.h. Linear:
 * one hash of correlation ids, two passes over the rows. */
#include "torch/link.h"

#include <stdlib.h>
#include <string.h>

static bool is_launcher(const struct trace *t, size_t r, bool driver)
{
	return t->ev.kind[r] == TR_RUNTIME || (driver && t->ev.kind[r] == TR_DRIVER);
}

int tr_links_build(const struct trace *t, bool driver, struct tr_links *out, struct err *e)
{
	size_t n = t->ev.n;
	memset(out, 0, sizeof *out);
	out->n = n;
	size_t nrt = 0;
	for (size_t r = 0; r < n; r++)
		nrt += is_launcher(t, r, driver);
	size_t size = 1024;
	while (size < nrt * 2)
		size *= 2;
	int64_t *keys = malloc(size * sizeof *keys);
	uint32_t *rows = malloc(size * sizeof *rows);
	out->launcher = malloc((n ? n : 1) * sizeof *out->launcher);
	out->first = calloc(n ? n : 1, sizeof *out->first);
	out->count = calloc(n ? n : 1, sizeof *out->count);
	if (!keys || !rows || !out->launcher || !out->first || !out->count)
		goto nomem;
	for (size_t i = 0; i < size; i++)
		keys[i] = -1;
	/* correlation -> first launcher row */
	for (size_t r = 0; r < n; r++) {
		int64_t c = is_launcher(t, r, driver) ? tr_corr(t, r) : -1;
		if (c < 0)
			continue;
		size_t i = (size_t)((uint64_t)c * 0x9E3779B97F4A7C15ull >> 20) & (size - 1);
		while (keys[i] != -1 && keys[i] != c)
			i = (i + 1) & (size - 1);
		if (keys[i] == -1) {
			keys[i] = c;
			rows[i] = (uint32_t)r;
		}
	}
	for (size_t r = 0; r < n; r++) {
		out->launcher[r] = TR_NONE;
		int64_t c = tr_is_device(t->ev.kind[r]) ? tr_corr(t, r) : -1;
		if (c < 0)
			continue;
		size_t i = (size_t)((uint64_t)c * 0x9E3779B97F4A7C15ull >> 20) & (size - 1);
		while (keys[i] != -1 && keys[i] != c)
			i = (i + 1) & (size - 1);
		if (keys[i] == c) {
			out->launcher[r] = rows[i];
			out->count[rows[i]]++;
			out->ndev++;
		}
	}
	free(keys);
	free(rows);
	keys = NULL;
	rows = NULL;
	out->dev = malloc((out->ndev ? out->ndev : 1) * sizeof *out->dev);
	if (!out->dev)
		goto nomem;
	uint32_t at = 0;
	for (size_t r = 0; r < n; r++) {
		out->first[r] = at;
		at += out->count[r];
		out->count[r] = 0;
	}
	for (size_t r = 0; r < n; r++) {
		uint32_t l = out->launcher[r];
		if (l != TR_NONE)
			out->dev[out->first[l] + out->count[l]++] = (uint32_t)r;
	}
	return 0;
nomem:
	free(keys);
	free(rows);
	tr_links_free(out);
	return err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
}

void tr_links_free(struct tr_links *l)
{
	free(l->launcher);
	free(l->first);
	free(l->count);
	free(l->dev);
	memset(l, 0, sizeof *l);
}
