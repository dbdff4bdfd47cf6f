/* fleet/summary_merge: several rank summaries into one; see summary.h.
 * Each worker's object is copied as its input holds it, so a merge keeps
 * every key of the summary, those this version reads and any it skips. */
#include "fleet/summary.h"

#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "core/vec.h"

/* One worker of the merge: where its object is and its sort key. */
struct mg_item {
	int64_t rank;	  /* -1: unknown */
	const char *name; /* in the dist_result's pool */
	const char *text; /* its input's text */
	struct fleet_span span;
	size_t input;
};

/* Known ranks first, ascending; then by name (unique once checked). */
static int cmp_item(const void *a, const void *b)
{
	const struct mg_item *x = a, *y = b;
	if (x->rank != y->rank) {
		if (x->rank < 0 || y->rank < 0)
			return x->rank < 0 ? 1 : -1;
		return x->rank < y->rank ? -1 : 1;
	}
	return strcmp(x->name, y->name);
}

static int cmp_name(const void *a, const void *b)
{
	const struct mg_item *x = a, *y = b;
	return strcmp(x->name, y->name);
}

/* Reads paths[i] into r and *v (its text in texts[i]). */
static int mg_read(struct dist_result *r, const char *const *paths, size_t n, char **texts,
		   struct mg_item **v, size_t *nv, struct err *e)
{
	size_t cap = 0;
	for (size_t i = 0; i < n; i++) {
		size_t len = 0, n0 = r->n;
		struct fleet_span *sp = NULL;
		int rc = fleet_summary_read_file(paths[i], &texts[i], &len, e);
		if (!rc)
			rc = fleet_summary_scan(r, texts[i], len, paths[i], NULL, &sp, e);
		if (!rc && vec_reserve_((void **)v, &cap, *nv + (r->n - n0), sizeof **v, SIZE_MAX))
			rc = err_set(e, ERR_NOMEM, paths[i], -1, "out of memory");
		for (size_t k = n0; !rc && k < r->n; k++) {
			const struct dist_worker *w = &r->w[k];
			(*v)[(*nv)++] = (struct mg_item){.rank = w->rank,
							 .name = strpool_get(&r->pool, w->name),
							 .text = texts[i],
							 .span = sp[k - n0],
							 .input = i};
		}
		free(sp);
		if (rc)
			return rc;
	}
	return 0;
}

/* The first worker that appears twice, by name or by known rank. */
static int mg_check(struct mg_item *v, size_t nv, const char *const *paths, struct err *e)
{
	gp_qsort(v, nv, sizeof *v, cmp_name);
	for (size_t i = 1; i < nv; i++)
		if (!strcmp(v[i - 1].name, v[i].name))
			return err_set(e, ERR_FORMAT, paths[v[i].input], -1,
				       "worker '%s' is also in %s: a merge takes each worker once",
				       v[i].name, paths[v[i - 1].input]);
	gp_qsort(v, nv, sizeof *v, cmp_item);
	for (size_t i = 1; i < nv; i++)
		if (v[i].rank >= 0 && v[i].rank == v[i - 1].rank)
			return err_set(
			    e, ERR_FORMAT, paths[v[i].input], -1,
			    "rank %lld is both '%s' and '%s' (in %s): a merge takes each "
			    "rank once",
			    (long long)v[i].rank, v[i].name, v[i - 1].name, paths[v[i - 1].input]);
	return 0;
}

int fleet_summary_merge(const char *const *paths, size_t n, bool compat, FILE *f, const char *out,
			struct err *e)
{
	struct dist_opts o = {.tb_compat = compat};
	struct dist_result r;
	int rc = dist_init(&r, &o, e);
	if (rc)
		return rc;
	size_t nv = 0;
	struct mg_item *v = NULL;
	char **texts = calloc(n ? n : 1, sizeof *texts);
	if (!texts)
		rc = err_set(e, ERR_NOMEM, out, -1, "out of memory");
	if (!rc)
		rc = mg_read(&r, paths, n, texts, &v, &nv, e);
	if (!rc)
		rc = mg_check(v, nv, paths, e);
	for (size_t i = 0; !rc && i < nv; i++) {
		fwrite(v[i].text + v[i].span.start, 1, v[i].span.end - v[i].span.start, f);
		fputc('\n', f);
	}
	if (!rc && ferror(f))
		rc = err_set(e, ERR_IO, out, -1, "write failed");
	for (size_t i = 0; texts && i < n; i++)
		free(texts[i]);
	free(texts);
	free(v);
	dist_free(&r);
	return rc;
}
