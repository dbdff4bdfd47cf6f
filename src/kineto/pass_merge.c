/* pass_merge: several ranks' traces as one; see pass.h (kpass_merge). Each
 * rank is walked in turn (pass_walk.c) and its events copied with pid, ts
 * and ids rewritten; its process_name and process_sort_index metadata are
 * written anew from its model. */
#include <stdlib.h>
#include <string.h>

#include "core/limits.h"
#include "core/sort.h"
#include "core/vec.h"
#include "kineto/pass.h"
#include "kineto/pass_int.h"
#include "trace/overlay.h"

struct merge {
	FILE *out;
	const struct kpass_rank *r;
	size_t n, idx; /* the ranks, the one being walked */
	int64_t pid_base, shift;
	bool first_event;
	VEC(char) top; /* the first rank's top-level members, each after ",\n  " */
	uint64_t events;
	char pid[160], ts[32], id[2][160];
	struct err *e;
};

/* s as a JSON string's content (no quotes) into out. */
static void put_json_text(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
}

/* The merged pid of rank m->idx's pid given as JSON text v[0..n) (an
 * integer, or a string's text with its quotes) into buf. */
static const char *map_pid(const struct merge *m, const char *v, size_t n, char *buf, size_t cap)
{
	int64_t p, q;
	bool num = n && jscan_kind(*v) == JK_NUMBER && !jnum_i64(v, n, &p) && p >= 0 &&
		   p < m->pid_base && !__builtin_mul_overflow(m->r[m->idx].rank, m->pid_base, &q) &&
		   !__builtin_add_overflow(q, p, &q);
	if (num) {
		snprintf(buf, cap, "%lld", (long long)q);
		return buf;
	}
	bool str = n >= 2 && *v == '"';
	int len = (int)(str ? n - 2 : n);
	len = len > (int)cap - 40 ? (int)cap - 40 : len;
	snprintf(buf, cap, "\"rank %lld %.*s\"", (long long)m->r[m->idx].rank, len, v + str);
	return buf;
}

/* A numeric id as id * n + index, a string one with "rN:" in front. */
static const char *map_id(const struct merge *m, const struct kp_member *mb, char *buf, size_t cap)
{
	size_t n = (size_t)(mb->vend - mb->v);
	int64_t v, q;
	if (jscan_kind(*mb->v) == JK_NUMBER && !jnum_i64(mb->v, n, &v) &&
	    !__builtin_mul_overflow(v, (int64_t)m->n, &q) &&
	    !__builtin_add_overflow(q, (int64_t)m->idx, &q)) {
		snprintf(buf, cap, "%lld", (long long)q);
		return buf;
	}
	if (*mb->v != '"' || n > cap - 32)
		return NULL;
	snprintf(buf, cap, "\"r%lld:%.*s", (long long)m->r[m->idx].rank, (int)(n - 1), mb->v + 1);
	return buf;
}

static int mg_member(void *ctx, const struct jstr *key, const char *p0, const char *p1)
{
	struct merge *m = ctx;
	if (m->idx ||
	    (m->shift >= 0 && key->len == 19 && !memcmp(key->s, "baseTimeNanoseconds", 19)))
		return 0; /* the merged base is written at the end */
	size_t n = (size_t)(p1 - p0);
	if (vec_reserve(m->top, m->top.n + n + 4, LIM_EVENT_BYTES * 4u))
		return err_set(m->e, ERR_NOMEM, m->r[m->idx].path, -1, "out of memory");
	memcpy(m->top.v + m->top.n, ",\n  ", 4);
	memcpy(m->top.v + m->top.n + 4, p0, n);
	m->top.n += n + 4;
	return 0;
}

static int mg_begin(void *ctx, bool object_form)
{
	(void)object_form;
	struct merge *m = ctx;
	if (!m->idx)
		fputs("{\n  \"traceEvents\": [", m->out);
	return 0;
}

static void sep(struct merge *m)
{
	fputs(m->first_event ? "\n  " : ",\n  ", m->out);
	m->first_event = false;
	m->events++;
}

static int mg_event(void *ctx, struct kp_ev *ev)
{
	struct merge *m = ctx;
	struct jstr ph, name;
	if (ev->object && kp_str(ev, ev->f[KPF_PH], &ph) && ph.len == 1 && ph.s[0] == 'M' &&
	    kp_str(ev, ev->f[KPF_NAME], &name) &&
	    ((name.len == 12 && !memcmp(name.s, "process_name", 12)) ||
	     (name.len == 18 && !memcmp(name.s, "process_sort_index", 18))))
		return 0; /* written anew (write_procs) */
	if (ev->object) {
		int i = ev->f[KPF_PID];
		if (i >= 0)
			ev->rep[i] = map_pid(m, ev->m[i].v, (size_t)(ev->m[i].vend - ev->m[i].v),
					     m->pid, sizeof m->pid);
		int64_t ts;
		if (m->shift > 0 && kp_us(ev, ev->f[KPF_TS], &ts) &&
		    !__builtin_add_overflow(ts, m->shift, &ts))
			ev->rep[ev->f[KPF_TS]] = tr_fmt_us(ts, m->ts);
		for (int k = 0; k < 2; k++) {
			int f = ev->f[k ? KPF_BIND_ID : KPF_ID];
			if (f >= 0)
				ev->rep[f] = map_id(m, &ev->m[f], m->id[k], sizeof m->id[k]);
		}
	}
	sep(m);
	return kp_write_event(m->out, ev);
}

static int mg_end(void *ctx)
{
	(void)ctx;
	return 0;
}

struct proc_order {
	int64_t sort;
	size_t i;
};
static int cmp_proc(const void *a, const void *b)
{
	const struct proc_order *x = a, *y = b;
	if (x->sort != y->sort)
		return x->sort < y->sort ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* process_name "rank N NAME" and process_sort_index of each process of the
 * rank being written. */
static int write_procs(struct merge *m)
{
	const struct trace *t = m->r[m->idx].t;
	size_t n = t->procs.n;
	struct proc_order *o = malloc((n ? n : 1) * sizeof *o);
	if (!o)
		return err_set(m->e, ERR_NOMEM, m->r[m->idx].path, -1, "out of memory");
	for (size_t i = 0; i < n; i++)
		o[i] = (struct proc_order){
		    t->procs.v[i].sort == INT64_MIN ? INT64_MAX : t->procs.v[i].sort, i};
	gp_qsort(o, n, sizeof *o, cmp_proc);
	int64_t rank = m->r[m->idx].rank;
	for (size_t k = 0; k < n; k++) {
		const struct tr_proc *p = &t->procs.v[o[k].i];
		char idbuf[64], txt[80];
		const char *id = tr_id_text(t, &p->pid, idbuf, sizeof idbuf);
		if (p->pid.is_str)
			snprintf(txt, sizeof txt, "\"%s\"", id); /* map_pid takes JSON text */
		else
			snprintf(txt, sizeof txt, "%s", id);
		const char *pid = map_pid(m, txt, strlen(txt), m->pid, sizeof m->pid);
		sep(m);
		fprintf(m->out,
			"{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %s, \"tid\": 0, "
			"\"args\": {\"name\": \"rank %lld ",
			pid, (long long)rank);
		if (p->name)
			put_json_text(m->out, tr_str(t, p->name), strpool_len(&t->pool, p->name));
		else
			fprintf(m->out, "%s%s", p->pid.is_str ? "" : "pid ", id);
		fputs("\"}}", m->out);
		sep(m);
		fprintf(
		    m->out,
		    "{\"name\": \"process_sort_index\", \"ph\": \"M\", \"pid\": %s, \"tid\": 0, "
		    "\"args\": {\"sort_index\": %lld}}",
		    pid, (long long)(rank * 1000 + (int64_t)(k < 999 ? k : 999)));
	}
	free(o);
	return 0;
}

/* The smallest power of ten above every numeric pid of the ranks (at
 * least 10). */
static int64_t pid_base_of(const struct kpass_rank *r, size_t n)
{
	int64_t base = 10;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < r[i].t->procs.n; k++) {
			const struct tr_id *p = &r[i].t->procs.v[k].pid;
			while (!p->is_str && p->num >= base && base <= INT64_MAX / 10)
				base *= 10;
		}
	return base;
}

static void write_tail(struct merge *m, int64_t base, bool aligned)
{
	fputs("\n  ]", m->out);
	if (m->top.n) /* none for a bare array (and top.v is NULL then) */
		fwrite(m->top.v, 1, m->top.n, m->out);
	if (aligned)
		fprintf(m->out, ",\n  \"baseTimeNanoseconds\": %lld", (long long)base);
	fprintf(m->out, ",\n  \"gpuprofMerge\": {\"pid_base\": %lld, \"ranks\": [",
		(long long)m->pid_base);
	for (size_t i = 0; i < m->n; i++) {
		const struct trace *t = m->r[i].t;
		fprintf(m->out, "%s{\"rank\": %lld, \"file\": \"", i ? ", " : "",
			(long long)m->r[i].rank);
		put_json_text(m->out, m->r[i].path, strlen(m->r[i].path));
		fprintf(m->out, "\", \"ts_shift_ns\": %lld}",
			aligned ? (long long)(t->meta.base_time_ns - base) : 0LL);
	}
	fputs("]}\n}\n", m->out);
}

int kpass_merge(const struct kpass_rank *r, size_t n, FILE *out, struct kpass_merge_info *info,
		struct err *e)
{
	*info = (struct kpass_merge_info){0};
	bool aligned = n > 0;
	int64_t base = INT64_MAX;
	for (size_t i = 0; i < n; i++) {
		int64_t b = r[i].t->meta.base_time_ns;
		aligned = aligned && b != INT64_MIN;
		base = b != INT64_MIN && b < base ? b : base;
	}
	for (size_t i = 0; i < n && aligned; i++) { /* shifts that fit */
		int64_t d;
		aligned = !__builtin_sub_overflow(r[i].t->meta.base_time_ns, base, &d);
	}
	struct merge m = {
	    .out = out, .r = r, .n = n, .pid_base = pid_base_of(r, n), .first_event = true, .e = e};
	struct kp_cb cb = {&m, mg_member, mg_begin, mg_event, mg_end};
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		m.idx = i;
		m.shift = aligned ? r[i].t->meta.base_time_ns - base : -1;
		bool truncated;
		rc = kp_walk(r[i].path, &cb, &truncated, e);
		if (!rc)
			rc = write_procs(&m);
	}
	if (!rc)
		write_tail(&m, base, aligned);
	info->events = m.events;
	info->aligned = aligned;
	info->pid_base = m.pid_base;
	vec_free(m.top);
	return rc;
}
