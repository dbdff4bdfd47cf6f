/* pages: the row and column logic of ncu's raw and details pages, kept out
 * of the CLI so that tests and other front ends share it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "ncu/ncu.h"

const char *const ncu_ident_titles[11] = {
    "ID",     "Process ID", "Process Name", "Host Name", "Kernel Name", "Context",
    "Stream", "Block Size", "Grid Size",    "Device",	 "CC"};

static const char *base_name(const char *p)
{
	const char *b = p;
	for (const char *q = p; *q; q++)
		if (*q == '/' || *q == '\\')
			b = q + 1;
	return b;
}

static void fmt_num_metric(const struct ncu_metric *m, char *buf, size_t n)
{
	if (!m || ncu_value_is_na(&m->value))
		snprintf(buf, n, "n/a");
	else
		snprintf(buf, n, "%.0f", ncu_value_num(&m->value));
}

void ncu_result_ident(struct ncu_report *r, size_t idx, struct ncu_ident *id)
{
	const struct ncu_result *res = &r->results[idx];
	memset(id, 0, sizeof *id);
	snprintf(id->id, sizeof id->id, "%zu", idx);
	if (res->process >= 0 && (size_t)res->process < r->nprocesses) {
		const struct ncu_process *p = &r->processes[res->process];
		snprintf(id->pid, sizeof id->pid, "%u", p->pid);
		snprintf(id->process, sizeof id->process, "%s", base_name(p->name));
		snprintf(id->host, sizeof id->host, "%s", p->host);
	}
	snprintf(id->kernel, sizeof id->kernel, "%s", ncu_kernel_name(res));
	if (res->has_context)
		snprintf(id->context, sizeof id->context, "%u", res->context);
	if (res->has_stream)
		snprintf(id->stream, sizeof id->stream, "%u", res->stream);
	snprintf(id->block, sizeof id->block, "(%llu, %llu, %llu)",
		 (unsigned long long)res->block[0], (unsigned long long)res->block[1],
		 (unsigned long long)res->block[2]);
	snprintf(id->grid, sizeof id->grid, "(%llu, %llu, %llu)", (unsigned long long)res->grid[0],
		 (unsigned long long)res->grid[1], (unsigned long long)res->grid[2]);
	fmt_num_metric(ncu_lookup(r, idx, "device__attribute_device_index"), id->device,
		       sizeof id->device);
	const struct ncu_metric *ma =
	    ncu_lookup(r, idx, "device__attribute_compute_capability_major");
	const struct ncu_metric *mi =
	    ncu_lookup(r, idx, "device__attribute_compute_capability_minor");
	char a[24], b[24];
	fmt_num_metric(ma, a, sizeof a);
	fmt_num_metric(mi, b, sizeof b);
	if (ma && mi)
		snprintf(id->cc, sizeof id->cc, "%s.%s", a, b);
	else
		snprintf(id->cc, sizeof id->cc, "n/a");
}

void ncu_ident_fields(const struct ncu_ident *id, const char *f[11])
{
	f[0] = id->id;
	f[1] = id->pid;
	f[2] = id->process;
	f[3] = id->host;
	f[4] = id->kernel;
	f[5] = id->context;
	f[6] = id->stream;
	f[7] = id->block;
	f[8] = id->grid;
	f[9] = id->device;
	f[10] = id->cc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool is_pseudo(const char *name)
{
	return !strncmp(name, "breakdown:", 10) || !strncmp(name, "group:", 6);
}

int ncu_raw_columns(struct ncu_report *r, size_t only, const char ***names, size_t *n)
{
	size_t total = 0;
	for (size_t i = 0; i < r->nresults; i++)
		if (only == SIZE_MAX || only == i)
			total += r->results[i].nmetrics;
	const char **v = arena_array(&r->arena, total ? total : 1, sizeof *v);
	if (!v)
		return ERR_NOMEM;
	size_t k = 0;
	for (size_t i = 0; i < r->nresults; i++)
		for (size_t j = 0; j < r->results[i].nmetrics && (only == SIZE_MAX || only == i);
		     j++) {
			const char *nm = ncu_metric_name(r, &r->results[i], j);
			if (nm[0] && !is_pseudo(nm))
				v[k++] = nm;
		}
	gp_qsort(v, k, sizeof *v, cmp_str);
	size_t u = 0;
	for (size_t i = 0; i < k; i++)
		if (!u || strcmp(v[u - 1], v[i]))
			v[u++] = v[i];
	*names = v;
	*n = u;
	return 0;
}

/* Lookups by name without sorting every result's metrics (a 100 MB report
 * has ~5 M metric entries): the string table is sorted once into distinct
 * names, each string id gets the rank of its name, and each result gets,
 * lazily, a rank -> metric table (the first duplicate wins). */
struct ncu_index {
	uint32_t *pos; /* per rank: metric index + 1, 0 = absent */
};

struct name_id {
	const char *s;
	uint32_t id;
};

static int cmp_name_id(const void *a, const void *b)
{
	const struct name_id *x = a, *y = b;
	int c = strcmp(x->s, y->s);
	return c ? c : (x->id > y->id) - (x->id < y->id);
}

static int build_ranks(struct ncu_report *r)
{
	size_t n = r->nstrings;
	struct name_id *v = malloc((n ? n : 1) * sizeof *v);
	r->name_rank = arena_array(&r->arena, n ? n : 1, sizeof *r->name_rank);
	r->name_sorted = arena_array(&r->arena, n ? n : 1, sizeof *r->name_sorted);
	r->index = arena_zalloc(&r->arena, (r->nresults ? r->nresults : 1) * sizeof *r->index);
	if (!v || !r->name_rank || !r->name_sorted || !r->index) {
		free(v);
		r->index = NULL;
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = (struct name_id){r->strings[i], (uint32_t)i};
	gp_qsort(v, n, sizeof *v, cmp_name_id);
	size_t u = 0;
	for (size_t i = 0; i < n; i++) {
		if (!u || strcmp(r->name_sorted[u - 1], v[i].s))
			r->name_sorted[u++] = v[i].s;
		r->name_rank[v[i].id] = (uint32_t)(u - 1);
	}
	r->nnames = u;
	free(v);
	return 0;
}

/* The first metric of result idx whose name has rank rk, by a linear scan. */
static const struct ncu_metric *scan_rank(struct ncu_report *r, size_t idx, uint32_t rk)
{
	const struct ncu_result *res = &r->results[idx];
	for (size_t i = 0; i < res->nmetrics; i++) {
		uint32_t id = res->metrics[i].name_id;
		if (id < r->nstrings && r->name_rank[id] == rk)
			return ncu_metric_at(r, idx, i);
	}
	return NULL;
}

/* The table of the result indexed last, when result idx has its metric
 * names in the same order (the results of one profiling session mostly
 * do): the same rank -> metric index table serves both, and a report of
 * thousands of results holds one table instead of one each (each is 4
 * bytes per distinct name: 60 MB for a 100 MB report otherwise). */
static uint32_t *shared_pos(const struct ncu_report *r, size_t idx)
{
	if (!r->index_last)
		return NULL;
	const struct ncu_result *a = &r->results[r->index_last - 1], *b = &r->results[idx];
	if (a->nmetrics != b->nmetrics)
		return NULL;
	for (size_t i = 0; i < a->nmetrics; i++)
		if (a->metrics[i].name_id != b->metrics[i].name_id)
			return NULL;
	return r->index[r->index_last - 1].pos;
}

/* Without the rank tables (out of memory): by name. */
static const struct ncu_metric *scan_name(struct ncu_report *r, size_t idx, const char *name)
{
	const struct ncu_result *res = &r->results[idx];
	for (size_t i = 0; i < res->nmetrics; i++)
		if (!strcmp(ncu_metric_name(r, res, i), name))
			return ncu_metric_at(r, idx, i);
	return NULL;
}

const struct ncu_metric *ncu_lookup(struct ncu_report *r, size_t idx, const char *name)
{
	if (idx >= r->nresults)
		return NULL;
	const struct ncu_result *res = &r->results[idx];
	if (!r->index && build_ranks(r))
		return scan_name(r, idx, name);
	size_t lo = 0, hi = r->nnames;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(r->name_sorted[mid], name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= r->nnames || strcmp(r->name_sorted[lo], name))
		return NULL; /* not in the string table: no metric has it */
	uint32_t rk = (uint32_t)lo;
	struct ncu_index *ix = &r->index[idx];
	/* a per-result table costs 4 bytes per distinct name: only when that
	 * is in proportion to the result's own metrics */
	if (!ix->pos && r->nnames <= 8 * res->nmetrics + 256 && !(ix->pos = shared_pos(r, idx))) {
		ix->pos = arena_zalloc(&r->arena, r->nnames * sizeof *ix->pos);
		if (ix->pos) {
			for (size_t i = 0; i < res->nmetrics; i++) {
				uint32_t id = res->metrics[i].name_id;
				if (id < r->nstrings && !ix->pos[r->name_rank[id]])
					ix->pos[r->name_rank[id]] = (uint32_t)i + 1;
			}
			r->index_last = idx + 1;
		}
	}
	if (!ix->pos)
		return scan_rank(r, idx, rk);
	return ix->pos[rk] ? ncu_metric_at(r, idx, ix->pos[rk] - 1) : NULL;
}
