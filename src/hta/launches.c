/* launches: HTA's launch statistics and ATen-op kernel sequences; see
 * launches.h. */
#include "hta/launches.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/hmap.h"
#include "core/vec.h"
#include "core/radix.h"
#include "core/sort.h"

static uint32_t find(const struct trace *t, const char *s)
{
	return strpool_find(&t->pool, s, strlen(s));
}

/* The name ids of a list (absent names are UINT32_MAX and match no row). */
static bool in_ids(uint32_t name, const uint32_t *ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == name)
			return true;
	return false;
}

/* A (correlation, row) pair to join on. */
struct cr {
	int64_t corr;
	uint32_t row, ord;
};

static int push(struct cr **v, size_t *n, size_t *cap, struct cr x)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 256;
		struct cr *p = realloc(*v, nc * sizeof *p);
		if (!p)
			return -1;
		*v = p;
		*cap = nc;
	}
	(*v)[(*n)++] = x;
	return 0;
}

static const struct rx_key by_corr[] = {RX_KEY(struct cr, corr, RX_I64),
					RX_KEY(struct cr, ord, RX_U32)};

/* The first of the device rows gpu[0..ng) (by correlation) of correlation
 * c, or where it would be. */
static size_t first_of(const struct cr *gpu, size_t ng, int64_t c)
{
	return gp_lower_bound_i64(gpu, ng, sizeof *gpu, offsetof(struct cr, corr), c);
}

/* The launch pairs, in pandas' inner-merge order (CPU rows in order, each
 * with its device rows in order). */
static int pairs(const struct trace *t, const struct hta_events *h, const struct hta_launch_opts *o,
		 struct hta_launches *out)
{
	static const char *const names[] = {"cudaLaunchKernel", "cudaLaunchKernelExC",
					    "runFunction - job_prep_and_submit_for_execution",
					    "cudaMemcpyAsync", "cudaMemsetAsync"};
	uint32_t ids[5];
	for (size_t i = 0; i < 5; i++)
		ids[i] = find(t, names[i]);
	size_t nids = o->memory ? 5 : 3;
	struct hmap set = {0};
	struct cr *cpu = NULL, *gpu = NULL;
	size_t nc = 0, capc = 0, ng = 0, capg = 0;
	int rc = 0;
	/* the correlations of the launch calls, and their range (a cheap test
	 * that most other rows fail) */
	int64_t cmin = INT64_MAX, cmax = INT64_MIN;
	for (size_t r = 0; r < t->ev.n && !rc; r++) {
		uint32_t v;
		if (!in_ids(t->ev.name[r], ids, nids) || !hta_cpu_kept(t, h, r))
			continue;
		int64_t c = tr_corr(t, r);
		cmin = c < cmin ? c : cmin;
		cmax = c > cmax ? c : cmax;
		size_t slot = hmap_slot(&set, hmap_int(c), NULL, NULL, &v);
		if (slot == SIZE_MAX)
			rc = -1;
		else if (v == HMAP_NONE)
			hmap_set(&set, slot, hmap_int(c), 0);
	}
	for (size_t r = 0; r < t->ev.n && !rc; r++) {
		int64_t c = tr_corr(t, r);
		if (c < cmin || c > cmax || !hta_cpu_kept(t, h, r) || hta_row_stream(t, r) != -1 ||
		    hmap_get(&set, hmap_int(c), NULL, NULL) == HMAP_NONE)
			continue;
		rc = push(&cpu, &nc, &capc, (struct cr){c, (uint32_t)r, (uint32_t)nc});
	}
	for (size_t i = 0; i < h->n && !rc; i++) {
		int64_t c = tr_corr(t, h->v[i].row);
		if (hmap_get(&set, hmap_int(c), NULL, NULL) != HMAP_NONE)
			rc = push(&gpu, &ng, &capg, (struct cr){c, (uint32_t)i, (uint32_t)ng});
	}
	if (!rc)
		rc = rx_sort(gpu, ng, sizeof *gpu, by_corr, 2);
	/* the pairs counted, then held at their size (kept by the session: no
	 * doubling's spare room, no holes it leaves) */
	size_t npairs = 0;
	for (size_t i = 0; i < nc && !rc; i++)
		for (size_t j = first_of(gpu, ng, cpu[i].corr);
		     j < ng && gpu[j].corr == cpu[i].corr; j++)
			npairs++;
	if (!rc && !(out->v = malloc((npairs ? npairs : 1) * sizeof *out->v)))
		rc = -1;
	for (size_t i = 0; i < nc && !rc; i++) {
		int64_t a, b;
		hta_row_times(t, h, cpu[i].row, &a, &b);
		for (size_t j = first_of(gpu, ng, cpu[i].corr);
		     j < ng && gpu[j].corr == cpu[i].corr; j++) {
			const struct hta_ev *d = &h->v[gpu[j].row];
			struct hta_launch *l = &out->v[out->n++];
			*l = (struct hta_launch){.corr = cpu[i].corr,
						 .cpu_row = cpu[i].row,
						 .gpu_row = d->row,
						 .cpu_ns = b - a,
						 .gpu_ns = d->end - d->ts,
						 .delay_ns = d->ts - b > 0 ? d->ts - b : 0};
			if (l->cpu_ns <= o->runtime_cutoff_ns && l->gpu_ns < l->cpu_ns)
				l->flags |= HTA_SHORT;
			if (l->cpu_ns > o->runtime_cutoff_ns)
				l->flags |= HTA_RUNTIME_OUTLIER;
			if (l->delay_ns > o->delay_cutoff_ns)
				l->flags |= HTA_DELAY_OUTLIER;
			for (int k = 0; k < 3; k++)
				out->nflag[k] += (l->flags >> k) & 1;
		}
	}
	hmap_free(&set);
	free(cpu);
	free(gpu);
	return rc;
}

/* An aten:: op: its row and HTA times. */
struct op {
	int64_t ts, end;
	uint32_t row;
};

static const struct rx_key by_ts[] = {RX_KEY(struct op, ts, RX_I64),
				      RX_KEY_DESC(struct op, end, RX_I64)};

/* The ops' ends as a max tree: leaves m[size + i] = ops[i].end (INT64_MIN
 * past n), each inner node the max of its two children. */
struct maxtree {
	int64_t *m;
	size_t size;
};

static int mt_build(struct maxtree *mt, const struct op *ops, size_t n)
{
	size_t s = 1;
	while (s < n)
		s <<= 1;
	mt->size = s;
	mt->m = malloc(2 * s * sizeof *mt->m);
	if (!mt->m)
		return -1;
	for (size_t i = 0; i < s; i++)
		mt->m[s + i] = i < n ? ops[i].end : INT64_MIN;
	for (size_t i = s; i-- > 1;)
		mt->m[i] = mt->m[2 * i] > mt->m[2 * i + 1] ? mt->m[2 * i] : mt->m[2 * i + 1];
	return 0;
}

/* The deepest op holding [a, b]: of the ops starting at or before a, the
 * last that ends at or after b (ops are by ts, then by end descending, so
 * of equal starts the shortest comes last). The last such index before lo
 * is found in the max tree: up from leaf lo - 1 through the subtrees to
 * its left until one holds an end >= b, then down its rightmost such
 * path (a scan back from lo took a quadratic time where ops of other
 * threads lie between a launch and its op). */
static const struct op *deepest(const struct op *ops, size_t n, const struct maxtree *mt, int64_t a,
				int64_t b)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ops[mid].ts <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	size_t i = mt->size + lo - 1;
	while (mt->m[i] < b) {
		while (!(i & 1))
			i >>= 1; /* a left child: its parent starts where it does */
		if (i == 1)
			return NULL;
		i--; /* the subtree just to the left */
	}
	while (i < mt->size)
		i = mt->m[2 * i + 1] >= b ? 2 * i + 1 : 2 * i;
	return &ops[i - mt->size];
}

/* One launch under an op instance. */
struct inst_launch {
	uint32_t op; /* index in ops */
	uint32_t ord;
	uint32_t kernel_name;
	int64_t op_delay, rt_delay;
};

static const struct rx_key by_op[] = {RX_KEY(struct inst_launch, op, RX_U32),
				      RX_KEY(struct inst_launch, ord, RX_U32)};

/* Instances ordered by (op name, sequence), bytewise. */
struct inst {
	const char *name;
	char *seq;
	uint32_t name_id;
	int64_t op_delay, rt_delay;
};

static int cmp_inst(const void *x, const void *y)
{
	const struct inst *a = x, *b = y;
	int c = strcmp(a->name, b->name);
	return c ? c : strcmp(a->seq, b->seq);
}

/* The kernel sequence of launches l[0..n) (one op instance). */
static char *sequence(const struct trace *t, const struct inst_launch *l, size_t n)
{
	size_t len = 1;
	for (size_t i = 0; i < n; i++)
		len += strpool_len(&t->pool, l[i].kernel_name) + 4;
	char *s = malloc(len), *p = s;
	if (!s)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (i) {
			memcpy(p, " -> ", 4);
			p += 4;
		}
		size_t k = strpool_len(&t->pool, l[i].kernel_name);
		memcpy(p, tr_str(t, l[i].kernel_name), k);
		p += k;
	}
	*p = 0;
	return s;
}

/* The instances of the ops, from the launches sorted by (op, order). */
static int instances(const struct trace *t, const struct op *ops, const struct inst_launch *l,
		     size_t nl, struct inst **out, size_t *nout)
{
	*out = malloc((nl ? nl : 1) * sizeof **out);
	*nout = 0;
	if (!*out)
		return -1;
	for (size_t i = 0; i < nl;) {
		size_t j = i;
		while (j < nl && l[j].op == l[i].op)
			j++;
		uint32_t nm = t->ev.name[ops[l[i].op].row];
		struct inst x = {.name = tr_str(t, nm),
				 .name_id = nm,
				 .seq = sequence(t, l + i, j - i),
				 .op_delay = l[i].op_delay,
				 .rt_delay = l[i].rt_delay};
		if (!x.seq)
			return -1;
		(*out)[(*nout)++] = x;
		i = j;
	}
	return 0;
}

/* Rows of equal (name, sequence): the count and the means. */
static int group(struct inst *in, size_t n, struct hta_launches *out)
{
	gp_qsort(in, n, sizeof *in, cmp_inst);
	out->aten = malloc((n ? n : 1) * sizeof *out->aten);
	if (!out->aten)
		return -1;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		double od = 0, rd = 0;
		while (j < n && !cmp_inst(&in[i], &in[j])) {
			od += (double)in[j].op_delay;
			rd += (double)in[j].rt_delay;
			j++;
		}
		out->aten[out->naten++] =
		    (struct hta_aten_row){.op_name = in[i].name_id,
					  .sequence = in[i].seq,
					  .count = j - i,
					  .op_delay_ns = od / (double)(j - i),
					  .rt_delay_ns = rd / (double)(j - i)};
		in[i].seq = NULL; /* now the row's */
		i = j;
	}
	/* by count, the (name, sequence) order kept among equal counts */
	const struct rx_key k[] = {RX_KEY_DESC(struct hta_aten_row, count, RX_U64)};
	return rx_sort(out->aten, out->naten, sizeof *out->aten, k, 1);
}

static int aten_ops(const struct trace *t, const struct hta_events *h, struct hta_launches *out)
{
	uint32_t ids[HTA_NLAUNCH];
	hta_launch_ids(t, ids);
	struct op *ops = NULL;
	struct inst_launch *l = NULL;
	struct inst *in = NULL;
	struct hmap dev = {0};
	struct maxtree mt = {0};
	size_t nops = 0, cap = 0, nl = 0, capl = 0, nin = 0;
	int rc = 0;
	for (size_t r = 0; r < t->ev.n && !rc; r++) {
		uint32_t nm = t->ev.name[r];
		if (!hta_cpu_kept(t, h, r) || strpool_len(&t->pool, nm) < 6 ||
		    memcmp(tr_str(t, nm), "aten::", 6))
			continue;
		if (nops == cap) {
			size_t nc = cap ? cap * 2 : 256;
			struct op *p = realloc(ops, nc * sizeof *p);
			if (!p) {
				rc = -1;
				break;
			}
			ops = p;
			cap = nc;
		}
		hta_row_times(t, h, r, &ops[nops].ts, &ops[nops].end);
		ops[nops++].row = (uint32_t)r;
	}
	if (!rc)
		rc = rx_sort(ops, nops, sizeof *ops, by_ts, 2);
	if (!rc)
		rc = mt_build(&mt, ops, nops);
	/* a launch's device event: the first of its correlation */
	for (size_t i = 0; i < h->n && !rc; i++) {
		uint32_t v;
		int64_t c = tr_corr(t, h->v[i].row);
		size_t slot = c >= 0 ? hmap_slot(&dev, hmap_int(c), NULL, NULL, &v) : 0;
		if (slot == SIZE_MAX)
			rc = -1;
		else if (c >= 0 && v == HMAP_NONE)
			hmap_set(&dev, slot, hmap_int(c), (uint32_t)i);
	}
	for (size_t r = 0; r < t->ev.n && !rc; r++) {
		if (!hta_cpu_kept(t, h, r) || !hta_is_launch(t, ids, r) || tr_corr(t, r) < 0)
			continue;
		uint32_t d = hmap_get(&dev, hmap_int(tr_corr(t, r)), NULL, NULL);
		if (d == HMAP_NONE)
			continue;
		int64_t a, b;
		hta_row_times(t, h, r, &a, &b);
		const struct op *op = deepest(ops, nops, &mt, a, b);
		if (!op) {
			out->launches_without_op++;
			continue;
		}
		if (nl == capl) {
			size_t nc = capl ? capl * 2 : 256;
			struct inst_launch *p = realloc(l, nc * sizeof *p);
			if (!p) {
				rc = -1;
				break;
			}
			l = p;
			capl = nc;
		}
		l[nl] = (struct inst_launch){.op = (uint32_t)(op - ops),
					     .ord = (uint32_t)nl,
					     .kernel_name = t->ev.name[h->v[d].row],
					     .op_delay = a - op->ts,
					     .rt_delay = h->v[d].ts - a};
		nl++;
	}
	if (!rc)
		rc = rx_sort(l, nl, sizeof *l, by_op, 2);
	if (!rc)
		rc = instances(t, ops, l, nl, &in, &nin);
	if (!rc)
		rc = group(in, nin, out);
	for (size_t i = 0; i < nin; i++)
		free(in[i].seq);
	free(in);
	free(l);
	free(ops);
	free(mt.m);
	hmap_free(&dev);
	return rc;
}

int hta_launches(const struct trace *t, const struct hta_events *h, const struct hta_launch_opts *o,
		 struct hta_launches *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	if (pairs(t, h, o, out) || (!o->skip_aten && aten_ops(t, h, out))) {
		hta_launches_free(out);
		return err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
	}
	return 0;
}

void hta_launches_free(struct hta_launches *l)
{
	free(l->v);
	for (size_t i = 0; i < l->naten; i++)
		free(l->aten[i].sequence);
	free(l->aten);
	memset(l, 0, sizeof *l);
}
