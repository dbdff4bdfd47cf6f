/* import_event: one element of "traceEvents" -> rows of the trace tables.
 *
 * An event is read whole into a struct imp_event (nothing is stored while
 * reading, so a refill can re-read it), then committed: classified once
 * (classify.c), appended to the table its phase belongs to, and checked for
 * the per-event anomalies. Keys may come in any order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/limits.h"
#include "kineto/import_internal.h"
#include "kineto/top.h"

/* Sets every field to "absent". The counter series arrays are left as they
 * are (nseries says how many are valid): clearing them per event would cost
 * more than reading most events. */
static void args_init(struct imp_args *a)
{
	static const struct jstr none = {"", 0, false};
	a->ext_id = a->corr = a->device = a->stream = a->regs = a->shared_mem = a->bytes = -1;
	a->seq = a->fwd_tid = a->in_nelems = a->out_nelems = a->group_size = a->coll_seq = -1;
	a->module_id = a->python_id = a->python_parent = -1;
	a->mem_bytes = a->addr = a->dev_type = a->dev_id = -1;
	a->total_alloc = a->total_reserved = INT64_MIN;
	a->sort_index = INT64_MIN;
	a->wait_stream = -1;
	a->wait_corr = TR_NO_WAIT;
	a->blocks_per_sm = a->warps_per_sm = a->occupancy = a->mem_bw_gbps = NAN;
	for (int i = 0; i < 3; i++)
		a->grid[i] = a->block[i] = -1;
	a->input_dims = a->input_type = a->call_stack = a->collective = a->dtype = a->pg_name =
	    a->pg_ranks = a->m_name = a->labels = a->concrete = none;
	a->nseries = 0;
}

/* A string value, or (any other type) skipped and flagged. */
static int read_str(struct jscan *j, struct jstr *out, bool *has, unsigned *prob)
{
	if (*j->p == '"') {
		int rc = jscan_string(j, out);
		if (!rc)
			*has = true;
		return rc;
	}
	if (*j->p == 'n') { /* null: absent */
		return jscan_skip(j);
	}
	*prob |= EVP_BAD_FIELD;
	return jscan_skip(j);
}

/* A number (or a string holding one) converted by conv. */
static int read_num(struct jscan *j, int (*conv)(const char *, size_t, int64_t *), int64_t *out,
		    bool *has, unsigned *prob)
{
	struct jstr s;
	int rc;
	if (conv == jnum_i64 ? jscan_fast_i64(j, out)
			     : conv == jnum_us_to_ns && jscan_fast_us(j, out)) {
		if (has)
			*has = true;
		return JS_OK;
	}
	if (*j->p == '"') {
		if ((rc = jscan_string(j, &s)))
			return rc;
	} else if (jscan_kind(*j->p) == JK_NUMBER) {
		if ((rc = jscan_number(j, &s)))
			return rc;
	} else {
		if (*j->p != 'n')
			*prob |= EVP_BAD_FIELD;
		return jscan_skip(j);
	}
	if (conv(s.s, s.len, out))
		*prob |= EVP_BAD_NUMBER;
	else if (has)
		*has = true;
	return JS_OK;
}

/* A double field's value, text s (quoted or not) -> *out: a number that is
 * not finite is kept as absent (NaN). The bare NaN, Infinity, -Infinity
 * were counted as nonstandard_json by the scanner; in a string, or a
 * number past the range of doubles (1e999), they count as bad_number. */
static bool read_double(const struct jstr *s, bool quoted, double *out, unsigned *prob)
{
	double v;
	if (jnum_f64(s->s, s->len, &v)) {
		*prob |= EVP_BAD_NUMBER;
		return false;
	}
	if (!isfinite(v)) {
		bool bare = !quoted && (s->s[0] == 'N' || s->s[0] == 'I' || s->s[1] == 'I');
		if (!bare)
			*prob |= EVP_BAD_NUMBER;
		*out = NAN;
		return false;
	}
	*out = v;
	return true;
}

static int read_f64(struct jscan *j, double *out, unsigned *prob)
{
	struct jstr s;
	int rc;
	if (jscan_kind(*j->p) != JK_NUMBER) {
		if (*j->p == '"') {
			if ((rc = jscan_string(j, &s)))
				return rc;
			read_double(&s, true, out, prob);
			return JS_OK;
		}
		if (*j->p != 'n')
			*prob |= EVP_BAD_FIELD;
		return jscan_skip(j);
	}
	if ((rc = jscan_number(j, &s)))
		return rc;
	read_double(&s, false, out, prob);
	return JS_OK;
}

static int read_i64(struct jscan *j, int64_t *out, unsigned *prob)
{
	return read_num(j, jnum_i64, out, NULL, prob);
}

/* [x, y, z] of integers (grid, block). */
static int read_dim3(struct jscan *j, int32_t out[3], unsigned *prob)
{
	if (*j->p != '[') {
		*prob |= EVP_BAD_FIELD;
		return jscan_skip(j);
	}
	j->p++;
	int rc;
	for (int i = 0;; i++) {
		if ((rc = jscan_ws(j)))
			return rc;
		if (*j->p == ']' && i == 0) {
			j->p++;
			return JS_OK;
		}
		int64_t v = -1;
		if ((rc = read_i64(j, &v, prob)))
			return rc;
		if (i < 3)
			out[i] = v >= INT32_MIN && v <= INT32_MAX ? (int32_t)v : -1;
		bool closed;
		if ((rc = jscan_next(j, ']', &closed)))
			return rc;
		if (closed)
			return JS_OK;
	}
}

/* Any value kept as its raw JSON text. */
static int read_raw(struct jscan *j, struct jstr *out)
{
	const char *start = j->p;
	int rc = jscan_skip(j);
	if (!rc) {
		out->s = start;
		out->len = (size_t)(j->p - start);
		out->escaped = false;
	}
	return rc;
}

static int read_arg(struct jscan *j, const struct jstr *k, struct imp_args *a, bool series,
		    unsigned *prob)
{
	bool has;
	switch (k->len) {
	case 3:
		if (IMP_KEY(k, "Seq") || IMP_KEY(k, "seq")) /* record_param_comms' collective seq */
			return read_i64(j, &a->coll_seq, prob);
		break;
	case 4:
		if (IMP_KEY(k, "grid"))
			return read_dim3(j, a->grid, prob);
		if (IMP_KEY(k, "name"))
			return read_str(j, &a->m_name, &has, prob);
		if (IMP_KEY(k, "Addr"))
			return read_i64(j, &a->addr, prob);
		break;
	case 5:
		if (IMP_KEY(k, "block"))
			return read_dim3(j, a->block, prob);
		if (IMP_KEY(k, "bytes"))
			return read_i64(j, &a->bytes, prob);
		if (IMP_KEY(k, "Bytes"))
			return read_i64(j, &a->mem_bytes, prob);
		if (IMP_KEY(k, "dtype"))
			return read_str(j, &a->dtype, &has, prob);
		break;
	case 6:
		if (IMP_KEY(k, "device"))
			return read_i64(j, &a->device, prob);
		if (IMP_KEY(k, "stream"))
			return read_i64(j, &a->stream, prob);
		if (IMP_KEY(k, "labels"))
			return read_raw(j, &a->labels);
		break;
	case 9:
		if (IMP_KEY(k, "Device Id"))
			return read_i64(j, &a->dev_id, prob);
		if (IMP_KEY(k, "Python id"))
			return read_i64(j, &a->python_id, prob);
		break;
	case 10:
		if (IMP_KEY(k, "Input Dims") || IMP_KEY(k, "Input dims"))
			return read_raw(j, &a->input_dims);
		if (IMP_KEY(k, "Input type"))
			return read_raw(j, &a->input_type);
		if (IMP_KEY(k, "Call stack"))
			return read_str(j, &a->call_stack, &has, prob);
		if (IMP_KEY(k, "sort_index"))
			return read_i64(j, &a->sort_index, prob);
		if (IMP_KEY(k, "Group size"))
			return read_i64(j, &a->group_size, prob);
		break;
	case 11:
		if (IMP_KEY(k, "External id") || IMP_KEY(k, "external id"))
			return read_i64(j, &a->ext_id, prob);
		if (IMP_KEY(k, "correlation"))
			return read_i64(j, &a->corr, prob);
		if (IMP_KEY(k, "Device Type"))
			return read_i64(j, &a->dev_type, prob);
		break;
	case 12:
		if (IMP_KEY(k, "warps per SM"))
			return read_f64(j, &a->warps_per_sm, prob);
		break;
	case 13:
		if (IMP_KEY(k, "blocks per SM"))
			return read_f64(j, &a->blocks_per_sm, prob);
		if (IMP_KEY(k, "shared memory"))
			return read_i64(j, &a->shared_mem, prob);
		if (IMP_KEY(k, "Fwd thread id"))
			return read_i64(j, &a->fwd_tid, prob);
		if (IMP_KEY(k, "In msg nelems"))
			return read_i64(j, &a->in_nelems, prob);
		break;
	case 14:
		if (IMP_KEY(k, "Out msg nelems"))
			return read_i64(j, &a->out_nelems, prob);
		if (IMP_KEY(k, "Total Reserved"))
			return read_i64(j, &a->total_reserved, prob);
		if (IMP_KEY(k, "wait_on_stream"))
			return read_i64(j, &a->wait_stream, prob);
		break;
	case 15:
		if (IMP_KEY(k, "Sequence number"))
			return read_i64(j, &a->seq, prob);
		if (IMP_KEY(k, "Collective name"))
			return read_str(j, &a->collective, &has, prob);
		if (IMP_KEY(k, "Total Allocated"))
			return read_i64(j, &a->total_alloc, prob);
		if (IMP_KEY(k, "Concrete Inputs"))
			return read_raw(j, &a->concrete);
		break;
	case 16:
		if (IMP_KEY(k, "Python parent id"))
			return read_i64(j, &a->python_parent, prob);
		if (IMP_KEY(k, "Python module id"))
			return read_i64(j, &a->module_id, prob);
		break;
	case 18:
		if (IMP_KEY(k, "Process Group Name"))
			return read_str(j, &a->pg_name, &has, prob);
		break;
	case 19:
		if (IMP_KEY(k, "Process Group Ranks"))
			return read_raw(j, &a->pg_ranks);
		break;
	case 20:
		if (IMP_KEY(k, "registers per thread"))
			return read_i64(j, &a->regs, prob);
		break;
	case 23:
		/* a number only, so that no trace gains an anomaly from it */
		if (!series && IMP_KEY(k, "memory bandwidth (GB/s)") &&
		    jscan_kind(*j->p) == JK_NUMBER) {
			struct jstr s;
			int rc = jscan_number(j, &s);
			if (!rc)
				read_double(&s, false, &a->mem_bw_gbps, prob);
			return rc;
		}
		break;
	case 25:
		if (IMP_KEY(k, "est. achieved occupancy %"))
			return read_f64(j, &a->occupancy, prob);
		break;
	case 33:
		if (IMP_KEY(k, "wait_on_cuda_event_record_corr_id"))
			return read_i64(j, &a->wait_corr, prob);
		break;
	default:
		break;
	}
	if (series && a->nseries < IMP_MAX_SERIES && jscan_kind(*j->p) == JK_NUMBER) {
		struct jstr s;
		int rc = jscan_number(j, &s);
		if (rc)
			return rc;
		double v;
		if (!read_double(&s, false, &v, prob))
			return JS_OK; /* no row for a series without a value */
		a->series_key[a->nseries] = *k;
		a->series_val[a->nseries++] = v;
		return JS_OK;
	}
	return jscan_skip(j);
}

static int read_args(struct jscan *j, struct imp_event *ev, unsigned *prob)
{
	if (*j->p != '{') {
		if (*j->p != 'n')
			*prob |= EVP_BAD_FIELD;
		return jscan_skip(j);
	}
	j->p++;
	int rc;
	if ((rc = jscan_ws(j)))
		return rc;
	if (*j->p == '}') {
		j->p++;
		return JS_OK;
	}
	/* Counter series are collected when the phase is C or not yet known. */
	bool series = !ev->has_ph || (ev->ph.len == 1 && ev->ph.s[0] == 'C');
	for (;;) {
		struct jstr k = {0};
		if ((rc = jscan_ws(j)))
			return rc;
		if (*j->p != '"')
			return jscan_error(j, j->p, "expected a string key in \"args\"");
		if ((rc = jscan_string(j, &k)) || (rc = jscan_colon(j)))
			return rc;
		if ((rc = read_arg(j, &k, &ev->a, series, prob)))
			return rc;
		bool closed;
		if ((rc = jscan_next(j, '}', &closed)))
			return rc;
		if (closed)
			return JS_OK;
	}
}

/* pid / tid: a number or a string. */
static int read_id(struct imp *m, struct tr_id *out, bool *has, unsigned *prob,
		   struct imp_idcache *c)
{
	struct jscan *j = &m->j;
	struct jstr s;
	int rc;
	uint64_t have, want;
	if (c->len && j->end - j->p > 8 &&
	    (memcpy(&have, j->p, 8), memcpy(&want, c->text, 8),
	     ((have ^ want) & (c->len == 8 ? ~0ull : (1ull << (8 * c->len)) - 1)) == 0) &&
	    !jscan_is_numchar(j->p[c->len])) {
		j->p += c->len;
		*out = (struct tr_id){.num = c->value};
		*has = true;
		return JS_OK;
	}
	if (*j->p == '"') {
		if ((rc = jscan_string(j, &s)))
			return rc;
		uint32_t id = imp_intern(m, &s);
		if (id == TR_NONE)
			return err_set(m->e, ERR_NOMEM, m->t->path, -1, "out of memory"), JS_ERR;
		out->is_str = true;
		out->str = id;
		out->num = 0;
		*has = true;
		return JS_OK;
	}
	out->is_str = false;
	out->str = 0;
	const char *start = j->p;
	bool got = false;
	rc = read_num(j, jnum_i64, &out->num, &got, prob);
	if (!rc && got) {
		*has = true;
		size_t n = (size_t)(j->p - start);
		if (n <= sizeof c->text && (unsigned)(*start - '0') < 10) {
			memset(c->text, 0, sizeof c->text);
			memcpy(c->text, start, n);
			c->len = (uint8_t)n;
			c->value = out->num;
		}
	}
	return rc;
}

static int read_member(struct imp *m, const struct jstr *k, struct imp_event *ev, unsigned *prob)
{
	struct jscan *j = &m->j;
	switch (k->len) {
	case 2:
		if (k->s[0] == 'p' && k->s[1] == 'h')
			return read_str(j, &ev->ph, &ev->has_ph, prob);
		if (k->s[0] == 't' && k->s[1] == 's')
			return read_num(j, jnum_us_to_ns, &ev->ts, &ev->has_ts, prob);
		if (k->s[0] == 'i' && k->s[1] == 'd')
			return read_num(j, jnum_i64, &ev->id, &ev->has_id, prob);
		if (k->s[0] == 'b' && k->s[1] == 'p') {
			struct jstr bp;
			bool has = false;
			int rc = read_str(j, &bp, &has, prob);
			ev->bp_e = has && bp.len == 1 && bp.s[0] == 'e';
			return rc;
		}
		break;
	case 3:
		if (IMP_KEY(k, "cat"))
			return read_str(j, &ev->cat, &ev->has_cat, prob);
		if (IMP_KEY(k, "pid"))
			return read_id(m, &ev->pid, &ev->has_pid, prob, &m->idc[0]);
		if (IMP_KEY(k, "tid"))
			return read_id(m, &ev->tid, &ev->has_tid, prob, &m->idc[1]);
		if (IMP_KEY(k, "dur"))
			return read_num(j, jnum_us_to_ns, &ev->dur, &ev->has_dur, prob);
		break;
	case 4:
		if (IMP_KEY(k, "name"))
			return read_str(j, &ev->name, &ev->has_name, prob);
		if (IMP_KEY(k, "args"))
			return read_args(j, ev, prob);
		break;
	case 7:
		if (IMP_KEY(k, "bind_id"))
			return read_num(j, jnum_i64, &ev->id, &ev->has_id, prob);
		break;
	default:
		break;
	}
	return jscan_skip(j);
}

int imp_event(struct imp *m)
{
	struct jscan *j = &m->j;
	struct imp_event ev;
	unsigned prob = 0;
	int rc;
	ev.off = jscan_off(j, j->p);
	if (*j->p != '{') {
		if ((rc = jscan_skip(j)))
			return rc;
		m->t->counts.events++;
		tr_anomaly_add(&m->t->anomalies, AN_NOT_OBJECT, ev.off);
		return JS_OK;
	}
	j->p++;
	ev.has_ph = ev.has_ts = ev.has_dur = ev.has_id = ev.has_pid = ev.has_tid = false;
	ev.has_cat = ev.has_name = ev.bp_e = false;
	ev.ts = ev.dur = 0;
	ev.id = -1;
	ev.pid = ev.tid = (struct tr_id){0};
	ev.cat = ev.name = ev.ph = (struct jstr){"", 0, false};
	args_init(&ev.a);
	if ((rc = jscan_ws(j)))
		return rc;
	if (*j->p == '}') {
		j->p++;
	} else {
		for (;;) {
			struct jstr k = {0};
			if ((rc = kt_key(j, &k, "a trace event")))
				return rc;
			if ((rc = read_member(m, &k, &ev, &prob)))
				return rc;
			bool closed;
			if ((rc = jscan_next(j, '}', &closed)))
				return rc;
			if (closed)
				break;
		}
	}
	return imp_commit(m, &ev, prob);
}
