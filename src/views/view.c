/* view: the registry of views (see view.h), and computing, emitting and
 * freeing a view through its declaration. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/suggest.h"
#include "tbprof/select.h"
#include "views/view_int.h"

/* The registry: a row per line of views/views.def, in its order. Every
 * kind has one row (view_get checks it), and the row's kind is its
 * declaration's. */
static const struct view_decl *const registry[] = {
#define V(name, KIND) &view_##name##_decl,
#include "views/views.def"
#undef V
};
_Static_assert(sizeof registry / sizeof registry[0] == VIEW_COUNT, "one row per view kind");

size_t view_count(void)
{
	return VIEW_COUNT;
}

const struct view_decl *view_at(size_t i)
{
	return i < VIEW_COUNT ? registry[i] : NULL;
}

const struct view_decl *view_find(const char *name)
{
	return view_find_in(VIEW_FAMILY_TRACE, name);
}

const struct view_decl *view_find_in(enum view_family f, const char *name)
{
	for (size_t i = 0; i < VIEW_COUNT; i++)
		if (registry[i]->family == f && !strcmp(name, registry[i]->name))
			return registry[i];
	return NULL;
}

const char *view_family_prefix(enum view_family f)
{
	return f == VIEW_FAMILY_NCU ? "ncu" : f == VIEW_FAMILY_NSYS ? "nsys" : NULL;
}

void view_unknown(enum view_family f, const char *name, char *msg, size_t n)
{
	const char *names[VIEW_COUNT];
	size_t k = 0;
	for (size_t i = 0; i < VIEW_COUNT; i++)
		if (registry[i]->family == f)
			names[k++] = registry[i]->name;
	const char *close = sug_closest(name, names, k);
	/* nsys's words, which its API said first: "no nsys view 'X' (...)" */
	const char *what = f == VIEW_FAMILY_NSYS ? "no nsys view" : "unknown verb";
	int w = f == VIEW_FAMILY_NSYS ? 40 : INT_MAX;
	int len = close ? snprintf(msg, n, "%s '%.*s'; did you mean '%s'? (", what, w, name, close)
			: snprintf(msg, n, "%s '%.*s' (", what, w, name);
	for (size_t i = 0; i < k && len >= 0 && (size_t)len < n; i++)
		len += snprintf(msg + len, n - (size_t)len, "%s%s", i ? ", " : "", names[i]);
	if (len >= 0 && (size_t)len < n)
		snprintf(msg + len, n - (size_t)len, ")");
}

const struct view_decl *view_get(enum view_kind k)
{
	for (size_t i = 0; i < VIEW_COUNT; i++)
		if (registry[i]->kind == k)
			return registry[i];
	return NULL; /* not reached: one row per kind */
}

void view_opts_init(struct view_opts *o)
{
	memset(o, 0, sizeof *o);
	o->ops_group = OPS_BY_NAME;
	o->ops_sort = OPS_SORT_TB;
	o->kern_group = KERN_BY_NAME;
	o->top = SIZE_MAX;
	o->window = (struct mem_window){INT64_MIN, INT64_MAX};
	view_ncu_defaults(&o->ncu);
	o->nsys_capture = "profile-target";
}

void view_opts_defaults(const struct view_decl *d, struct view_opts *o)
{
	view_opts_init(o);
	vo_defaults(d->opts, d->nopts, o);
}

int view_step_rows(struct view_opts *o, const char *text, char *msg, size_t n)
{
	if (tr_parse_steps(text, &o->step_lo, &o->step_hi))
		return snprintf(msg, n, "--step takes N or A-B, not '%.40s'", text), -1;
	o->only_steps = true;
	o->step_text = text;
	return 0;
}

int view_start(struct view *v, const struct view_decl *d, const struct view_opts *o,
	       const struct view_source *src, struct view **out, struct err *e)
{
	v->kind = d->kind;
	v->decl = d;
	v->o = *o;
	int rc = d->compute(v, src, e);
	if (rc) {
		view_free(v);
		return rc;
	}
	*out = v;
	return 0;
}

void *view_results_new(struct view *v, size_t size, struct err *e)
{
	v->priv = calloc(1, size);
	if (!v->priv)
		err_set(e, ERR_NOMEM, v->t ? v->t->path : NULL, -1, "out of memory");
	return v->priv;
}

int view_compute_many(const struct view_decl *d, struct ses *const *ss, size_t n,
		      const struct view_opts *o, struct view **out, struct err *e)
{
	*out = NULL;
	if (!d || d->family != VIEW_FAMILY_TRACE || !n || (n > 1 && !(d->flags & VIEW_MANY)))
		return err_set(e, ERR_USAGE, NULL, -1, "no such view");
	const struct trace *t = ses_trace(ss[0]);
	struct view *v = calloc(1, sizeof *v);
	const struct trace **ts = v ? malloc(n * sizeof *ts) : NULL;
	if (!ts) {
		free(v);
		return err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
	}
	for (size_t i = 0; i < n; i++)
		ts[i] = ses_trace(ss[i]);
	v->t = t;
	v->ses = ss[0];
	v->ts = ts;
	v->ss = ss;
	v->nts = n;
	return view_start(v, d, o, NULL, out, e);
}

int view_compute(const struct view_decl *d, struct ses *s, const struct view_opts *o,
		 struct view **out, struct err *e)
{
	return view_compute_many(d, &s, 1, o, out, e);
}

/* A view of a report or an export: v holds nothing of the family; the
 * view's compute keeps what it reads of src. */
static int view_compute_src(const struct view_decl *d, enum view_family f,
			    const struct view_source *src, const struct view_opts *o,
			    struct view **out, struct err *e)
{
	*out = NULL;
	if (!d || d->family != f)
		return err_set(e, ERR_USAGE, NULL, -1, "no such view");
	struct view *v = calloc(1, sizeof *v);
	if (!v)
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	return view_start(v, d, o, src, out, e);
}

int view_compute_ncu(const struct view_decl *d, struct ncu_report *r, const struct view_opts *o,
		     struct view **out, struct err *e)
{
	const struct view_source src = {.ncu = r};
	return view_compute_src(d, VIEW_FAMILY_NCU, &src, o, out, e);
}

int view_compute_ncu2(const struct view_decl *d, struct ncu_report *base, struct ncu_report *nw,
		      const struct view_opts *o, struct view **out, struct err *e)
{
	const struct view_source src = {.ncu = base, .ncu_new = nw};
	return view_compute_src(d, VIEW_FAMILY_NCU, &src, o, out, e);
}

int view_compute_nsys2(const struct view_decl *d, const struct nsys_jv *base, const char *base_path,
		       const struct nsys_jv *nw, const char *new_path, const struct view_opts *o,
		       struct view **out, struct err *e)
{
	const struct view_source src = {
	    .path = base_path, .nsys_a = base, .nsys_b = nw, .path_new = new_path};
	return view_compute_src(d, VIEW_FAMILY_NSYS, &src, o, out, e);
}

int view_compute_nsys(const struct view_decl *d, struct nsys_sql *q, const char *path,
		      const struct view_opts *o, struct view **out, struct err *e)
{
	const struct view_source src = {.nsys = q, .path = path};
	return view_compute_src(d, VIEW_FAMILY_NSYS, &src, o, out, e);
}

void view_emit(struct view *v, struct report *r)
{
	v->decl->emit(v, r);
}

const struct nsys_jv *view_json(const struct view *v)
{
	return v->decl->json ? v->decl->json(v) : NULL;
}

bool view_emit_failed(const struct view *v)
{
	return v->emit_failed;
}

bool view_tripped(const struct view *v)
{
	return v->decl->tripped && v->decl->tripped(v);
}

const struct trace *view_trace(const struct view *v)
{
	return v->t;
}

int view_overlay(const struct view *v, struct tr_overlay *o, struct err *e)
{
	if (!v->decl->overlay)
		return err_set(e, ERR_USAGE, "", -1, "%s adds nothing to a trace", v->decl->name);
	return v->decl->overlay(v, o, e);
}

void view_free(struct view *v)
{
	if (!v)
		return;
	v->decl->free(v);
	free((void *)v->ts);
	free(v);
}

int view_write(const struct view_decl *d, struct ses *s, const struct view_opts *o,
	       struct report *r, struct err *e)
{
	struct view *v;
	int rc = view_compute(d, s, o, &v, e);
	if (rc)
		return rc;
	view_emit(v, r);
	view_free(v);
	return 0;
}

/* The file's trace: a window's base, else t. */
static const struct trace *file_trace(const struct trace *t)
{
	while (t->base)
		t = t->base;
	return t;
}

int64_t view_trace_start(const struct trace *t)
{
	t = file_trace(t);
	return t->min_ts <= t->max_end ? t->min_ts : 0;
}

const char *view_trace_start_text(const struct trace *t, char *buf, size_t n)
{
	const struct trace *f = file_trace(t);
	if (f->min_ts > f->max_end)
		return NULL;
	snprintf(buf, n, "%lld", (long long)f->min_ts);
	return buf;
}

int view_json_text(struct view *v, char **buf, size_t *len, struct err *e)
{
	*buf = NULL;
	*len = 0;
	FILE *f = open_memstream(buf, len);
	struct report *r = f ? rep_open(f, REP_JSON) : NULL;
	if (r)
		view_emit(v, r);
	bool ok = r && rep_close(r) == 0 && !view_emit_failed(v);
	if (f)
		fclose(f);
	view_free(v);
	if (!ok) {
		free(*buf);
		*buf = NULL;
		return err_set(e, ERR_NOMEM, NULL, -1, "could not write the answer");
	}
	return 0;
}
