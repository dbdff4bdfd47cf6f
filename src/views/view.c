/* view: the registry of views (see view.h), computing and emitting a view
 * through its declaration, and the steps view (`gpuprof steps`: one row per
 * training step and where its time went). */
#include <limits.h>
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

static const struct rep_col step_cols[] = {{"step", "Step", REP_STR},
					   {"start_ns", "Start (ns)", REP_INT},
					   {"end_ns", "End (ns)", REP_INT},
#define X(id, key, title) {key "_ns", title, REP_DUR_NS},
					   ST_PARTS(X)
#undef X
};
#define NSTEP_COLS ((int)(sizeof step_cols / sizeof step_cols[0]))

void view_steps_emit(struct view *vw, struct report *r)
{
	const struct st_result *s = &vw->steps;
	bool compat = vw->o.tb_compat;
	rep_table_begin(r, "steps", "Steps (time breakdown)", step_cols, NSTEP_COLS);
	struct rep_val v[NSTEP_COLS];
	char name[32];
	for (size_t i = 0; i < s->n; i++) {
		const struct st_step *st = &s->steps[i];
		snprintf(name, sizeof name, "%lld", (long long)st->number);
		v[0] = rep_s(name);
		v[1] = rep_i(st->start);
		v[2] = rep_i(st->end);
		for (int k = 0; k < ST_NPARTS; k++)
			v[3 + k] = rep_i(st->cost[k]);
		rep_row(r, v);
	}
	if (s->n) {
		v[0] = rep_s("average");
		v[1] = rep_null();
		v[2] = rep_null();
		for (int k = 0; k < ST_NPARTS; k++)
			v[3 + k] = rep_i(st_avg_ns(s, (enum st_part)k));
		rep_row(r, v);
	}
	rep_table_end(r);
	rep_kv_begin(r, "step_detection", "Step detection");
	rep_kv(r, "mode", "Mode", REP_STR, rep_s(compat ? "tb-compat" : "default"));
	rep_kv(r, "source", "Steps from", REP_STR,
	       rep_s(!s->fallback ? "ProfilerStep events"
		     : s->n	  ? "no ProfilerStep: one step over the CPU operators"
				  : "no ProfilerStep and no CPU operators: no step"));
	rep_kv(r, "steps", "Steps", REP_INT, rep_i((int64_t)s->n));
	rep_kv(r, "removed_tail_steps", "Tail steps removed", REP_INT,
	       rep_i((int64_t)(s->host_steps - s->n)));
	rep_kv(r, "device_adjusted", "Stretched to GPU work", REP_BOOL, rep_b(s->device_adjusted));
	rep_kv(r, "has_kernel", "Has kernels", REP_BOOL, rep_b(s->has_kernel));
	rep_kv(r, "has_runtime", "Has runtime calls", REP_BOOL, rep_b(s->has_runtime));
	rep_kv(r, "has_memcpy_or_memset", "Has memcpy/memset", REP_BOOL,
	       rep_b(s->has_memcpy_or_memset));
	rep_kv(r, "has_communication", "Has communication", REP_BOOL, rep_b(s->has_communication));
	rep_kv_end(r);
}

/* The whole trace's steps; with only_steps, the rows of those steps (each
 * the row the full table shows: a step's start depends on the one before). */
int view_steps_compute(struct view *v, struct err *e)
{
	int rc = view_steps_copy(v, e);
	struct st_result *s = &v->steps;
	if (rc || !v->o.only_steps)
		return rc;
	size_t k = 0;
	memset(s->sum, 0, sizeof s->sum);
	for (size_t i = 0; i < s->n; i++) {
		if (s->steps[i].number < v->o.step_lo || s->steps[i].number > v->o.step_hi)
			continue;
		s->steps[k] = s->steps[i];
		for (int p = 0; p < ST_NPARTS; p++)
			s->sum[p] += s->steps[k].cost[p];
		k++;
	}
	if (!k)
		rc = err_set(e, ERR_USAGE, v->t->path, -1, "--step: no step %s",
			     v->o.step_text ? v->o.step_text : "in that range");
	s->host_steps -= s->n - k; /* keep "removed tail steps" about the trace */
	s->n = k;
	return rc;
}

int view_steps_copy(struct view *v, struct err *e)
{
	const struct st_result *s;
	int rc = ses_steps(v->ses, v->o.tb_compat, &s, e);
	if (rc)
		return rc;
	v->steps = *s;
	v->steps.steps = malloc((s->n ? s->n : 1) * sizeof *s->steps);
	if (!v->steps.steps)
		return err_set(e, ERR_NOMEM, v->t->path, -1, "out of memory");
	if (s->n)
		memcpy(v->steps.steps, s->steps, s->n * sizeof *s->steps);
	return 0;
}

int view_start(struct view *v, const struct view_decl *d, const struct view_opts *o,
	       struct view **out, struct err *e)
{
	v->kind = d->kind;
	v->decl = d;
	v->o = *o;
	v->dev = MEM_NO_DEV;
	int rc = d->compute ? d->compute(v, e) : 0;
	if (rc) {
		view_free(v);
		return rc;
	}
	*out = v;
	return 0;
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
	v->nts = n;
	return view_start(v, d, o, out, e);
}

int view_compute(const struct view_decl *d, struct ses *s, const struct view_opts *o,
		 struct view **out, struct err *e)
{
	return view_compute_many(d, &s, 1, o, out, e);
}

int view_compute_ncu(const struct view_decl *d, struct ncu_report *r, const struct view_opts *o,
		     struct view **out, struct err *e)
{
	*out = NULL;
	if (!d || d->family != VIEW_FAMILY_NCU)
		return err_set(e, ERR_USAGE, NULL, -1, "no such view");
	struct view *v = calloc(1, sizeof *v);
	if (!v)
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	v->ncu = r;
	return view_start(v, d, o, out, e);
}

void view_emit(struct view *v, struct report *r)
{
	v->decl->emit(v, r);
}

bool view_emit_failed(const struct view *v)
{
	return v->emit_failed;
}

void view_tb_free(struct view *v)
{
	mem_stats_free(&v->mstats);
	mem_curve_free(&v->mcurve);
	mem_events_free(&v->mevents);
	mem_free(&v->mem);
	kern_free(&v->kern);
	ops_free(&v->ops);
	ov_free(&v->ov);
	gm_free(&v->gm);
	st_free(&v->steps);
}

void view_free(struct view *v)
{
	if (!v)
		return;
	if (v->decl->free)
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
