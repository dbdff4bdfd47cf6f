/* pages: the row and column logic of ncu's raw and details pages, kept out
 * of the CLI so that tests and other front ends share it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncu/ncu.h"

const char *const ncu_ident_titles[11] = {"ID",		"Process ID", "Process Name", "Host Name",
					  "Kernel Name", "Context",    "Stream",	    "Block Size",
					  "Grid Size",	 "Device",     "CC"};

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

void ncu_result_ident(const struct ncu_report *r, size_t idx, struct ncu_ident *id)
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
	fmt_num_metric(ncu_find_metric(res, "device__attribute_device_index"), id->device,
		       sizeof id->device);
	const struct ncu_metric *ma = ncu_find_metric(res, "device__attribute_compute_capability_major");
	const struct ncu_metric *mi = ncu_find_metric(res, "device__attribute_compute_capability_minor");
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
		for (size_t j = 0; j < r->results[i].nmetrics && (only == SIZE_MAX || only == i); j++) {
			const char *nm = r->results[i].metrics[j].name;
			if (nm[0] && !is_pseudo(nm))
				v[k++] = nm;
		}
	qsort(v, k, sizeof *v, cmp_str);
	size_t u = 0;
	for (size_t i = 0; i < k; i++)
		if (!u || strcmp(v[u - 1], v[i]))
			v[u++] = v[i];
	*names = v;
	*n = u;
	return 0;
}

static int cmp_metric(const void *a, const void *b)
{
	const struct ncu_metric *x = *(const struct ncu_metric *const *)a;
	const struct ncu_metric *y = *(const struct ncu_metric *const *)b;
	int c = strcmp(x->name, y->name);
	/* stable on position so the first duplicate wins */
	return c ? c : (x < y ? -1 : x > y);
}

/* The sorted index is cached in the report, one per result, built lazily. */
struct ncu_index {
	const struct ncu_metric **v;
	size_t n;
};

const struct ncu_metric *ncu_lookup(struct ncu_report *r, size_t idx, const char *name)
{
	if (idx >= r->nresults)
		return NULL;
	if (!r->index) {
		r->index = arena_zalloc(&r->arena, r->nresults * sizeof *r->index);
		if (!r->index)
			return ncu_find_metric(&r->results[idx], name);
	}
	struct ncu_index *ix = &r->index[idx];
	const struct ncu_result *res = &r->results[idx];
	if (!ix->v) {
		ix->v = arena_array(&r->arena, res->nmetrics ? res->nmetrics : 1, sizeof *ix->v);
		if (!ix->v)
			return ncu_find_metric(res, name);
		for (size_t i = 0; i < res->nmetrics; i++)
			ix->v[i] = &res->metrics[i];
		qsort(ix->v, res->nmetrics, sizeof *ix->v, cmp_metric);
		ix->n = res->nmetrics;
	}
	size_t lo = 0, hi = ix->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(ix->v[mid]->name, name);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ix->n && !strcmp(ix->v[lo]->name, name) ? ix->v[lo] : NULL;
}
