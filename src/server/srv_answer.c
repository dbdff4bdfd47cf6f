/* srv_answer: see srv_answer.h. */
#include "server/srv_answer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "fleet/summary.h"
#include "kineto/pass.h"
#include "report/report.h"
#include "tbprof/dist.h"
#include "trace/window.h"
#include "views/view_dist.h"

int srv_slice(const char *src, const struct trace *t, const struct trace *sel, struct ses *ses,
	      const struct srv_trace_opts *o, char **buf, size_t *len, struct err *e)
{
	*buf = NULL;
	*len = 0;
	const struct trace *shown = sel ? sel : t;
	bool some = shown->min_ts <= shown->max_end;
	int64_t lo = some ? shown->min_ts : 0, hi = some ? shown->max_end : 0;
	int64_t start = lo, end = hi + 1; /* zero-length events at the end included */
	bool windowed = o->has_a || o->has_b;
	if ((o->has_a && __builtin_add_overflow(lo, o->a, &start)) ||
	    (o->has_b && __builtin_add_overflow(lo, o->b, &end)))
		return err_set(e, ERR_USAGE, NULL, -1, "start_ns or end_ns is out of range");
	if (windowed && end <= start)
		return err_set(e, ERR_USAGE, NULL, -1,
			       "the window is empty: end_ns must be after start_ns");
	struct trace *cut = NULL;
	int rc = 0;
	if (windowed) {
		const struct tr_links *l = NULL;
		rc = ses ? ses_links(ses, true, &l, e) : 0;
		if (!rc)
			rc = tr_window((struct trace *)shown, l, start, end, &cut, e);
	}
	FILE *out = rc ? NULL : open_memstream(buf, len);
	if (!rc && !out)
		rc = err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	struct kpass_info info;
	if (!rc)
		rc = kpass_slice(src, t, cut ? cut : sel, false, out, &info, e);
	if (out && fclose(out) && !rc)
		rc = err_set(e, ERR_NOMEM, NULL, -1, "could not write the trace");
	tr_window_release(cut);
	if (rc) {
		free(*buf);
		*buf = NULL;
		*len = 0;
		if (rc == ERR_USAGE) /* only the window's own messages are the caller's 400 */
			rc = ERR_IO;
	}
	return rc;
}

/* ---- annotations */

static const struct rep_col ann_cols[] = {
    {"name", "Name", REP_STR},
    {"count", "Count", REP_INT},
    {"first_start_ns", "First start (ns)", REP_INT},
};

struct ann {
	uint32_t name;
	uint64_t count;
	int64_t first;
};

static int ann_cmp(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	return strcmp(tr_str(t, ((const struct ann *)a)->name),
		      tr_str(t, ((const struct ann *)b)->name));
}

int srv_annotations(const struct trace *t, char **buf, size_t *len)
{
	*buf = NULL;
	*len = 0;
	uint32_t *slot = calloc(t->pool.n ? t->pool.n : 1, sizeof *slot); /* name -> index + 1 */
	struct ann *v = NULL;
	size_t n = 0, cap = 0;
	bool ok = slot != NULL;
	for (size_t r = 0; ok && r < t->ev.n; r++) {
		if (t->ev.kind[r] != TR_USER_ANNOTATION || t->ev.name[r] >= t->pool.n)
			continue;
		uint32_t nm = t->ev.name[r];
		if (!slot[nm]) {
			if (n == cap) {
				size_t nc = cap ? 2 * cap : 64;
				struct ann *nv = realloc(v, nc * sizeof *nv);
				if (!nv) {
					ok = false;
					break;
				}
				v = nv, cap = nc;
			}
			v[n] = (struct ann){.name = nm, .first = t->ev.ts[r]};
			slot[nm] = (uint32_t)++n;
		}
		struct ann *a = &v[slot[nm] - 1];
		a->count++;
		if (t->ev.ts[r] < a->first)
			a->first = t->ev.ts[r];
	}
	free(slot);
	FILE *f = ok ? open_memstream(buf, len) : NULL;
	struct report *r = f ? rep_open(f, REP_JSON) : NULL;
	if (r) {
		if (n)
			gp_qsort_r(v, n, sizeof *v, ann_cmp, (void *)t);
		rep_table_begin(r, "annotations", "User annotations", ann_cols, 3);
		for (size_t i = 0; i < n; i++) {
			struct rep_val row[] = {rep_s(tr_str(t, v[i].name)),
						rep_i((int64_t)v[i].count), rep_i(v[i].first)};
			rep_row(r, row);
		}
		rep_table_end(r);
	}
	ok = r && rep_close(r) == 0;
	if (f)
		fclose(f);
	free(v);
	if (!ok) {
		free(*buf);
		*buf = NULL;
		*len = 0;
	}
	return ok ? 0 : -1;
}

/* ---- dist */

unsigned srv_dist_pick(const struct srv_dist_file *files, const int *ids, int nfiles,
		       const int *want, int nwant, int cap, int *pick, int *n, char *msg,
		       size_t size)
{
	*n = 0;
	if (!want) {
		for (int i = 0; i < nfiles && *n < cap; i++)
			if (files[i].summary)
				pick[(*n)++] = i;
		bool sums = *n > 0;
		for (int i = 0; !sums && i < nfiles && *n < cap; i++)
			if (files[i].trace)
				pick[(*n)++] = i;
		if (!*n)
			return snprintf(msg, size, "no PyTorch trace is loaded"), 400;
		return 0;
	}
	for (int k = 0; k < nwant && *n < cap; k++) {
		int i = 0;
		while (i < nfiles && ids[i] != want[k])
			i++;
		if (i == nfiles)
			return snprintf(msg, size, "no file %d", want[k]), 404;
		if (!files[i].trace && !files[i].summary)
			return snprintf(msg, size,
					"file %d (%s) is not a PyTorch trace or a rank summary",
					want[k], files[i].name),
			       400;
		pick[(*n)++] = i;
	}
	return 0;
}

/* Adds rank summary w (the i-th worker): the CLI's add_summary. */
static int add_summary(struct dist_result *d, const struct srv_dist_worker *w, const char *names,
		       int i, struct err *e)
{
	char name[256], *text = NULL;
	size_t len = 0;
	const char *nm = names ? dist_nth_name(names, i, name, sizeof name) : NULL;
	const char *shown = w->upload ? w->name : w->path;
	int rc = fleet_summary_read_file(w->path, &text, &len, e);
	if (!rc)
		rc = fleet_summary_add(d, text, len, shown, nm, e);
	if (rc && e->path[0] && w->upload)
		snprintf(e->path, sizeof e->path, "%s", w->name);
	free(text);
	return rc;
}

int srv_dist(const struct srv_dist_worker *w, int n, const struct srv_dist_opts *o, char **buf,
	     size_t *len, struct err *e)
{
	*buf = NULL;
	*len = 0;
	struct dist_opts dop = {.tb_compat = o->compat};
	struct dist_result d;
	int rc = dist_init(&d, &dop, e);
	if (rc)
		return rc;
	for (int i = 0; !rc && i < n; i++) {
		if (!w[i].t) {
			rc = add_summary(&d, &w[i], o->names, i, e);
			continue;
		}
		char name[256]; /* the CLI's size: a longer name is cut alike */
		if (!o->names || !dist_nth_name(o->names, i, name, sizeof name))
			dist_worker_name(w[i].name, name, sizeof name);
		rc = dist_add(&d, w[i].t, name, w[i].upload ? w[i].name : NULL, e);
	}
	if (!rc)
		rc = dist_finish(&d, e);
	if (!rc) {
		FILE *f = open_memstream(buf, len);
		struct report *r = f ? rep_open(f, REP_JSON) : NULL;
		bool ok = r && dist_view_emit(r, &d) == 0;
		ok = ok && (!o->fleet || dist_fleet_view_emit(r, &d, (size_t)o->top) == 0);
		ok = r && rep_close(r) == 0 && ok;
		if (f && fclose(f))
			ok = false;
		if (!ok) {
			free(*buf);
			*buf = NULL;
			*len = 0;
			rc = err_set(e, ERR_NOMEM, NULL, -1, "could not write the answer");
		}
	}
	dist_free(&d);
	return rc;
}

void srv_load_message(const struct err *e, const char *name, enum input_kind kind, char *buf,
		      size_t size)
{
	if (kind == INPUT_NSYS || kind == INPUT_NSYS_ANALYSIS) {
		err_format(e, buf, size);
		return;
	}
	char where[64];
	err_format_offset(" at ", e->offset, e->uncompressed, where, sizeof where);
	snprintf(buf, size, "%s%s: %s", name, where, e->msg);
}
