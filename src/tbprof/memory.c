/* memory: the records of the Memory view and their attribution to the
 * operator tree (see memory.h): collection and ordering, devices and peaks,
 * tb's per-thread walk (§10.1) and the names frees inherit. */
#include "core/radix.h"
#include "core/sort.h"
#include "tbprof/memory.h"
#include "tbprof/tbtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the profiler start: tb's min ts over the events it parses */

/* Whether row r is an event tb parses (a recognised X event or a [memory]
 * instant); outside tb_compat also B/E pairs, cuda_driver launches and
 * "I" memory instants, the events the tree itself uses then. */
static inline __attribute__((always_inline)) bool parsed_row(const struct trace *t, size_t r,
							     bool tb)
{
	uint8_t ph = t->ev.ph[r];
	switch ((enum tr_kind)t->ev.kind[r]) {
	case TR_MEMORY:
		return ph == 'i' || (!tb && ph == 'I');
	case TR_DRIVER:
		if (tb)
			return false;
		/* fall through */
	case TR_CPU_OP:
	case TR_USER_ANNOTATION:
	case TR_GPU_USER_ANNOTATION:
	case TR_PYTHON_FUNCTION:
	case TR_PYTHON:
	case TR_RUNTIME:
	case TR_KERNEL:
	case TR_MEMCPY:
	case TR_MEMSET:
	case TR_TRACE_SPAN:
		return ph == 'X' || (!tb && ph == 'B');
	default:
		return false;
	}
}

/* ---- threads: tb keys trees by int(tid) and records by their raw tid */

struct tkey {
	int64_t num;
	uint32_t str; /* string id when not a number, else 0 */
	uint32_t thread;
};

/* Python's int() of a string: blanks, a sign, digits with single '_'
 * between them, blanks. False when s is no such number (or overflows). */
static bool py_int(const char *s, size_t len, int64_t *out)
{
	size_t i = 0;
	while (i < len && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')))
		i++;
	bool neg = false;
	if (i < len && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	uint64_t v = 0;
	size_t digits = 0;
	while (i < len) {
		if (s[i] >= '0' && s[i] <= '9') {
			if (v > (UINT64_MAX - 9) / 10)
				return false;
			v = v * 10 + (uint64_t)(s[i] - '0');
			digits++;
		} else if (s[i] == '_' && digits && i + 1 < len && s[i + 1] >= '0' &&
			   s[i + 1] <= '9') {
			/* a separator between digits */
		} else {
			break;
		}
		i++;
	}
	while (i < len && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')))
		i++;
	if (!digits || i != len || v > (uint64_t)INT64_MAX)
		return false;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return true;
}

/* The key of a tid; parse: read a string tid as Python's int() would. */
static struct tkey key_of(const struct trace *t, const struct tr_id *id, bool parse)
{
	struct tkey k = {.num = id->num};
	if (id->is_str) {
		int64_t v;
		if (parse && py_int(tr_str(t, id->str), strpool_len(&t->pool, id->str), &v))
			k.num = v;
		else
			k = (struct tkey){.str = id->str ? id->str : UINT32_MAX};
	}
	return k;
}

static int cmp_tkey(const void *a, const void *b)
{
	const struct tkey *x = a, *y = b;
	if (x->str != y->str)
		return x->str < y->str ? -1 : 1;
	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return x->thread < y->thread ? -1 : x->thread > y->thread;
}

/* The tree thread of key k in keys[0..n) (sorted), MEM_NIL if none; of
 * threads with equal keys the first in tb's order wins. */
static uint32_t find_thread(const struct tkey *keys, size_t n, struct tkey k)
{
	size_t lo = 0, hi = n;
	k.thread = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_tkey(&keys[mid], &k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n && keys[lo].str == k.str && keys[lo].num == k.num)
		return keys[lo].thread;
	return MEM_NIL;
}

/* ---- records */

static const struct rx_key by_ts_row[] = {RX_KEY(struct mem_rec, ts, RX_I64),
					  RX_KEY(struct mem_rec, row, RX_U32)};

/* Device index of a record, adding the device when new. */
static int device_of(struct memory *m, const struct tr_mem_arg *a, size_t *cap, uint16_t *out)
{
	*out = MEM_NO_DEV;
	if (a->device_type != 0 && a->device_type != 1)
		return 0;
	for (size_t i = 0; i < m->ndevs; i++)
		if (m->devs[i].type == a->device_type &&
		    (a->device_type == 0 || m->devs[i].id == a->device_id)) {
			*out = (uint16_t)i;
			return 0;
		}
	if (m->ndevs >= MEM_NO_DEV - 1)
		return 0; /* absurdly many devices: the rest count as unknown */
	if (m->ndevs == *cap) {
		size_t nc = *cap ? *cap * 2 : 4;
		struct mem_device *nd = realloc(m->devs, nc * sizeof *nd);
		if (!nd)
			return -1;
		m->devs = nd;
		*cap = nc;
	}
	struct mem_device *d = &m->devs[m->ndevs];
	*d = (struct mem_device){.type = a->device_type, .id = a->device_type ? a->device_id : -1};
	*out = (uint16_t)m->ndevs++;
	return 0;
}

static int cmp_dev(const void *a, const void *b)
{
	const struct mem_device *x = a, *y = b;
	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* A record of device dv: counted, and its totals taken into the peaks. */
static void take_peak(struct mem_device *dv, const struct mem_rec *r)
{
	dv->records++;
	if (r->total_allocated != INT64_MIN) {
		if (!dv->has_allocated || r->total_allocated > dv->peak_allocated)
			dv->peak_allocated = r->total_allocated;
		dv->has_allocated = true;
	}
	if (r->total_reserved != INT64_MIN) {
		if (!dv->has_reserved || r->total_reserved > dv->peak_reserved)
			dv->peak_reserved = r->total_reserved;
		dv->has_reserved = true;
	}
}

/* Sorts the devices (CPU, then CUDA by id) and names them; with records
 * (m->recs), renumbers them and takes the peaks, else the peaks were taken
 * as the records were read (take_peak) and are kept. */
static int finish_devices(struct memory *m)
{
	size_t nd = m->ndevs;
	struct mem_device *d = m->devs;
	uint16_t *map = malloc((nd ? nd : 1) * sizeof *map);
	uint64_t *counted = malloc((nd ? nd : 1) * sizeof *counted);
	if (!map || !counted) {
		free(map);
		free(counted);
		return -1;
	}
	/* tag each device with its old index in `records` while sorting */
	for (size_t i = 0; i < nd; i++) {
		counted[i] = d[i].records;
		d[i].records = i;
	}
	gp_qsort(d, nd, sizeof *d, cmp_dev);
	for (size_t i = 0; i < nd; i++) {
		map[d[i].records] = (uint16_t)i;
		d[i].records = counted[d[i].records];
		if (d[i].type == 0) {
			strcpy(d[i].name, "cpu");
			strcpy(d[i].tb_name, "CPU");
		} else {
			snprintf(d[i].name, sizeof d[i].name, "cuda:%d", (int)d[i].id);
			snprintf(d[i].tb_name, sizeof d[i].tb_name, "GPU%d", (int)d[i].id);
		}
	}
	for (size_t i = 0; i < m->n; i++) {
		struct mem_rec *r = &m->recs[i];
		if (r->dev == MEM_NO_DEV)
			continue;
		r->dev = map[r->dev];
		take_peak(&d[r->dev], r);
	}
	/* tb's peak starts from 0 (a defaultdict(int)) */
	for (size_t i = 0; m->opts.tb_compat && i < nd; i++)
		if (d[i].has_allocated && d[i].peak_allocated < 0)
			d[i].peak_allocated = 0;
	free(map);
	free(counted);
	return 0;
}

/* The records of t by time, each one's thread among keys, and the devices
 * with their peaks; without thread_of, the devices and their peaks alone
 * (no record is kept: m->recs NULL, m->n 0). */
static int collect(struct memory *m, const struct trace *t, const struct tkey *keys, size_t nkeys,
		   uint32_t **thread_of)
{
	bool tb = m->opts.tb_compat;
	size_t n = 0, cap_devs = 0;
	m->start = thread_of ? INT64_MAX : 0; /* the peaks alone need no start */
	for (size_t r = 0; r < t->ev.n && thread_of; r++) {
		if (!parsed_row(t, r, tb))
			continue;
		int64_t ts = tb_span(t, r, tb).start;
		if (ts < m->start)
			m->start = ts;
		n += t->ev.kind[r] == TR_MEMORY && t->ev.aux[r] != TR_NONE;
	}
	if (m->start == INT64_MAX)
		m->start = 0;
	if (m->opts.has_origin)
		m->start = m->opts.origin;
	if (thread_of && !(m->recs = malloc((n ? n : 1) * sizeof *m->recs)))
		return -1;
	for (size_t r = 0; r < t->ev.n; r++) {
		if (t->ev.kind[r] != TR_MEMORY || t->ev.aux[r] == TR_NONE || !parsed_row(t, r, tb))
			continue;
		const struct tr_mem_arg *a = &t->mem.v[t->ev.aux[r]];
		struct mem_rec one, *x = thread_of ? &m->recs[m->n++] : &one;
		*x = (struct mem_rec){.ts = tb_span(t, r, tb).start,
				      .bytes = a->bytes,
				      .total_allocated = a->total_allocated,
				      .total_reserved = a->total_reserved,
				      .addr = a->addr,
				      .row = (uint32_t)r,
				      .node = MEM_NIL,
				      .op = MEM_NIL,
				      .parent = MEM_NIL,
				      /* the importer stores an absent Addr as -1 */
				      .has_addr = a->addr != UINT64_MAX};
		if (device_of(m, a, &cap_devs, &x->dev))
			return -1;
		m->unknown_device += x->dev == MEM_NO_DEV;
		m->no_addr += !x->has_addr;
		if (!thread_of && x->dev != MEM_NO_DEV)
			take_peak(&m->devs[x->dev], x); /* the peaks need no order */
	}
	if ((thread_of && rx_sort(m->recs, m->n, sizeof *m->recs, by_ts_row, 2)) ||
	    finish_devices(m))
		return -1;
	if (!thread_of)
		return 0;
	*thread_of = malloc((m->n ? m->n : 1) * sizeof **thread_of);
	if (!*thread_of)
		return -1;
	for (size_t i = 0; i < m->n; i++) {
		const struct tr_id *id = &t->tracks.v[t->ev.track[m->recs[i].row]].tid;
		/* tb looks records up by their raw tid: a string never matches */
		(*thread_of)[i] =
		    id->is_str && tb ? MEM_NIL : find_thread(keys, nkeys, key_of(t, id, true));
	}
	return 0;
}

/* ---- tb's walk (§10.1) */

struct frame {
	uint32_t node, pos; /* the parent and its cursor at the child visited */
};

/* Attributes the records idx[0..k) of one thread (in time order) to the
 * deepest node holding each, resuming where the previous record stopped.
 * The tree is the one tb walks (optree_kid_*: the rewritten one under the
 * backward-module rewrite, where on_path keeps the walk from entering a
 * node below itself; NULL otherwise). */
static void walk(struct memory *m, uint32_t root, const uint32_t *idx, size_t k, struct frame *st,
		 uint8_t *on_path)
{
	const struct optree *o = m->o;
	size_t depth = 0;
	uint32_t cur = root, pos = root == MEM_NIL ? OPT_NIL : optree_kid_first(o, root);
	if (cur != MEM_NIL)
		m->reached[cur] = 1;
	for (size_t i = 0; i < k; i++) {
		struct mem_rec *r = &m->recs[idx[i]];
		for (;;) {
			if (cur == MEM_NIL || r->ts < optree_id_start(o, cur))
				break; /* stale: before the root's first child or after the walk
					  left */
			if (r->ts >= optree_id_end(o, cur)) {
				if (on_path)
					on_path[cur] = 0;
				if (depth) {
					cur = st[--depth].node;
					pos = optree_kid_next(o, st[depth].pos);
				} else {
					cur = MEM_NIL;
				}
				continue;
			}
			for (uint32_t c; (c = optree_kid_at(o, cur, pos)) != OPT_NIL;) {
				if (r->ts < optree_id_start(o, c))
					break;
				if (r->ts >= optree_id_end(o, c) || (on_path && on_path[c])) {
					pos = optree_kid_next(o, pos);
					continue;
				}
				m->reached[c] = 1;
				if (on_path)
					on_path[c] = 1;
				st[depth++] = (struct frame){cur, pos};
				cur = c;
				pos = optree_kid_first(o, c);
			}
			if (optree_id_op(o, cur)) {
				r->node = cur;
				if (r->bytes > 0) {
					r->op = cur;
					/* a synthetic parent names no label: its children
					 * are evaluate_function roots, never aten::empty */
					uint32_t p = depth ? st[depth - 1].node : MEM_NIL;
					r->parent = p < o->nnodes ? p : MEM_NIL;
				}
			}
			break;
		}
		if (r->node == MEM_NIL)
			m->stale++;
		else
			m->assigned++;
	}
	for (; on_path && depth; depth--)
		on_path[st[depth - 1].node] = 0;
	if (on_path && cur != MEM_NIL)
		on_path[cur] = 0;
}

static int attribute(struct memory *m, const uint32_t *thread_of)
{
	const struct optree *o = m->o;
	size_t nt = o->nthreads, ids = optree_ids(o);
	/* counting sort of the records by thread (stable: time order kept);
	 * slot nt holds the records of no tree thread */
	size_t *first = calloc(nt + 2, sizeof *first), *pos = calloc(nt + 1, sizeof *pos);
	uint32_t *idx = malloc((m->n ? m->n : 1) * sizeof *idx);
	struct frame *st = malloc((ids + 1) * sizeof *st);
	uint8_t *on_path = o->rwt.kids ? calloc(ids, 1) : NULL;
	int rc = -1;
	if (!first || !pos || !idx || !st || (o->rwt.kids && !on_path))
		goto out;
	for (size_t i = 0; i < m->n; i++)
		first[(thread_of[i] == MEM_NIL ? nt : thread_of[i]) + 1]++;
	for (size_t k = 0; k <= nt; k++)
		first[k + 1] += first[k];
	for (size_t i = 0; i < m->n; i++) {
		size_t k = thread_of[i] == MEM_NIL ? nt : thread_of[i];
		idx[first[k] + pos[k]++] = (uint32_t)i;
	}
	for (size_t k = 0; k <= nt; k++)
		walk(m, k < nt ? o->threads[k].root : MEM_NIL, idx + first[k],
		     first[k + 1] - first[k], st, on_path);
	rc = 0;
out:
	free(pos);
	free(first);
	free(idx);
	free(st);
	free(on_path);
	return rc;
}

struct addr_idx {
	uint64_t addr;
	uint32_t i;
};

static const struct rx_key by_addr_idx[] = {RX_KEY(struct addr_idx, addr, RX_U64),
					    RX_KEY(struct addr_idx, i, RX_U32)};

/* Frees take the operator of the latest pending allocation at their
 * address (tb's get_preprocessed_records, over all records). */
static int inherit_names(struct memory *m)
{
	struct addr_idx *v = malloc((m->n ? m->n : 1) * sizeof *v);
	if (!v)
		return -1;
	size_t k = 0;
	for (size_t i = 0; i < m->n; i++)
		if (m->recs[i].has_addr)
			v[k++] = (struct addr_idx){m->recs[i].addr, (uint32_t)i};
	if (rx_sort(v, k, sizeof *v, by_addr_idx, 2)) {
		free(v);
		return -1;
	}
	uint32_t pending = MEM_NIL;
	for (size_t j = 0; j < k; j++) {
		if (j && v[j].addr != v[j - 1].addr)
			pending = MEM_NIL;
		struct mem_rec *r = &m->recs[v[j].i];
		if (r->bytes > 0) {
			pending = v[j].i;
		} else if (pending != MEM_NIL) {
			r->op = m->recs[pending].op;
			r->parent = m->recs[pending].parent;
			pending = MEM_NIL;
		}
	}
	free(v);
	return 0;
}

int mem_build(const struct optree *o, const struct mem_opts *opts, struct memory *out,
	      struct err *e)
{
	memset(out, 0, sizeof *out);
	out->o = o;
	if (opts)
		out->opts = *opts;
	const struct trace *t = o->t;
	struct tkey *keys = malloc((o->nthreads ? o->nthreads : 1) * sizeof *keys);
	uint32_t *thread_of = NULL;
	out->reached = calloc(optree_ids(o) ? optree_ids(o) : 1, 1);
	if (!keys || !out->reached)
		goto nomem;
	for (size_t k = 0; k < o->nthreads; k++) {
		keys[k] = key_of(t, &o->threads[k].tid, true);
		keys[k].thread = (uint32_t)k;
	}
	gp_qsort(keys, o->nthreads, sizeof *keys, cmp_tkey);
	if (collect(out, t, keys, o->nthreads, &thread_of) || attribute(out, thread_of) ||
	    inherit_names(out))
		goto nomem;
	free(keys);
	free(thread_of);
	return 0;
nomem:
	free(keys);
	free(thread_of);
	mem_free(out);
	return err_set(e, ERR_NOMEM, t->path, -1, "out of memory attributing memory records");
}

int mem_peaks(const struct trace *t, const struct mem_opts *opts, struct memory *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	if (opts)
		out->opts = *opts;
	if (!collect(out, t, NULL, 0, NULL))
		return 0;
	mem_free(out);
	return err_set(e, ERR_NOMEM, t->path, -1, "out of memory reading memory records");
}

void mem_free(struct memory *m)
{
	free(m->recs);
	free(m->devs);
	free(m->reached);
	memset(m, 0, sizeof *m);
}

uint16_t mem_default_device(const struct memory *m)
{
	uint16_t best = MEM_NO_DEV;
	for (size_t i = 0; i < m->ndevs; i++) {
		if (m->devs[i].type != 1)
			continue;
		/* devs are by id; tb picks the first name in string order
		 * ("GPU10" before "GPU2") */
		if (best == MEM_NO_DEV ||
		    (m->opts.tb_compat && strcmp(m->devs[i].tb_name, m->devs[best].tb_name) < 0))
			best = (uint16_t)i;
	}
	if (best == MEM_NO_DEV && m->ndevs && m->devs[0].type == 0)
		best = 0;
	return best;
}

uint16_t mem_find_device(const struct memory *m, const char *name)
{
	char buf[32];
	if (!strcmp(name, "cuda"))
		name = "cuda:0";
	for (size_t i = 0; i < m->ndevs; i++) {
		const struct mem_device *d = &m->devs[i];
		if (!strcmp(name, d->name) || !strcmp(name, d->tb_name))
			return (uint16_t)i;
		snprintf(buf, sizeof buf, "gpu%d", (int)d->id);
		if (d->type == 1 && !strcmp(name, buf))
			return (uint16_t)i;
	}
	return MEM_NO_DEV;
}
