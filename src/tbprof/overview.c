/* overview: Tensor-Core ratios and recommendations; see overview.h. */
#include "tbprof/overview.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tbprof/memory.h"

static int nomem(const struct trace *t, struct err *e)
{
	return err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
}

int ov_add_rec(struct ov_result *r, const char *rule, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	char **v = realloc(r->recs, (r->nrecs + 1) * sizeof *v);
	if (!v)
		return -1;
	r->recs = v;
	const char **ids = realloc(r->rules, (r->nrecs + 1) * sizeof *ids);
	if (!ids)
		return -1;
	r->rules = ids;
	if (!(v[r->nrecs] = strdup(buf)))
		return -1;
	ids[r->nrecs++] = rule;
	return 0;
}

/* Kernel time of the operators' own runtimes, per GPU (tb §7). */
static int tc_per_gpu(const struct trace *t, const struct optree *o, struct ov_result *r)
{
	for (size_t i = 0; i < o->nagg; i++) {
		const struct optree_node *nd = &o->nodes[o->agg[i]];
		if (!nd->is_op)
			continue;
		for (uint32_t k = 0; k < nd->rt_count; k++) {
			size_t n;
			const uint32_t *dev = optree_rt_devices(o, &o->rts[nd->rt_first + k], &n);
			for (size_t d = 0; d < n; d++) {
				size_t row = dev[d];
				if (t->ev.kind[row] != TR_KERNEL || t->ev.aux[row] == TR_NONE)
					continue;
				int64_t gpu = t->gpu.v[t->ev.aux[row]].device;
				if (gpu < 0)
					continue;
				size_t j = 0;
				while (j < r->ntc && r->tc[j].gpu != gpu)
					j++;
				if (j == r->ntc) {
					struct ov_gpu_tc *v =
					    realloc(r->tc, (r->ntc + 1) * sizeof *v);
					if (!v)
						return -1;
					r->tc = v;
					r->tc[r->ntc++] = (struct ov_gpu_tc){.gpu = gpu};
				}
				int64_t dur = tr_dur(t, row);
				r->tc[j].kernel_time += dur;
				if (optree_tc_kernel(o, t->ev.name[row]))
					r->tc[j].tc_time += dur;
			}
		}
	}
	/* ascending GPU ids (few GPUs: insertion sort) */
	for (size_t i = 1; i < r->ntc; i++)
		for (size_t j = i; j && r->tc[j].gpu < r->tc[j - 1].gpu; j--) {
			struct ov_gpu_tc x = r->tc[j];
			r->tc[j] = r->tc[j - 1];
			r->tc[j - 1] = x;
		}
	return 0;
}

double ov_tc_ratio(const struct ov_result *r, int64_t gpu)
{
	for (size_t i = 0; i < r->ntc; i++)
		if (r->tc[i].gpu == gpu && r->tc[i].kernel_time > 0)
			return (double)r->tc[i].tc_time / (double)r->tc[i].kernel_time;
	return -1;
}

/* use_dp / use_ddp and the devices used (distinct pids of GPU work). */
static void run_facts(const struct trace *t, bool *dp, bool *ddp, size_t *devices)
{
	int64_t pids[64];
	size_t np = 0;
	*dp = *ddp = false;
	for (size_t r = 0; r < t->ev.n; r++) {
		enum tr_kind k = (enum tr_kind)t->ev.kind[r];
		if (tr_is_device(k)) {
			const struct tr_id *pid = &t->tracks.v[t->ev.track[r]].pid;
			int64_t key = pid->is_str ? -1 - (int64_t)pid->str : pid->num;
			size_t i = 0;
			while (i < np && pids[i] != key)
				i++;
			if (i == np && np < 64)
				pids[np++] = key;
		} else if (k == TR_CPU_OP || k == TR_USER_ANNOTATION || k == TR_PYTHON) {
			int w = tr_data_parallel(tr_str(t, t->ev.name[r]),
						 strpool_len(&t->pool, t->ev.name[r]));
			*dp |= w == 1;
			*ddp |= w == 2;
		}
	}
	*devices = np;
}

/* Peak Total Allocated per GPU id, from the memory view's peaks (which
 * need neither the tree's attribution nor the records kept). */
static int memory_peaks(const struct optree *o, bool compat, struct ov_result *r)
{
	for (int i = 0; i < 64; i++)
		r->peak_allocated_gpu[i] = -1;
	struct memory m;
	struct mem_opts mo = {.tb_compat = compat};
	struct err e;
	if (mem_peaks(o->t, &mo, &m, &e))
		return -1;
	for (size_t i = 0; i < m.ndevs; i++) {
		const struct mem_device *d = &m.devs[i];
		if (d->type == 1 && d->id >= 0 && d->id < 64 && d->has_allocated)
			r->peak_allocated_gpu[d->id] = d->peak_allocated;
	}
	mem_free(&m);
	return 0;
}

/* "0, 1 and 2"; tb joins "0, 1and 2". */
static void join_ids(char *buf, size_t n, const int64_t *ids, size_t k, bool compat)
{
	size_t at = 0;
	buf[0] = 0;
	for (size_t i = 0; i < k && at < n; i++) {
		const char *sep = i == 0 ? "" : i + 1 < k ? ", " : compat ? "and " : " and ";
		at += (size_t)snprintf(buf + at, n - at, "%s%lld", sep, (long long)ids[i]);
	}
}

/* Automatic Mixed Precision: tb's advice when no kernel uses Tensor Cores
 * and eligible operators launched some kernel time. Outside tb_compat the
 * matrix-core kernels of AMD count as Tensor Core kernels, so that advice
 * is kept from a run whose matrix kernels already run bf16/fp16; and it is
 * also given when the Tensor Core kernels that spell a 32/64-bit input
 * (tr_matrix_precision: fp32, tf32 MFMA or cuBLAS kernels) carry at least
 * OV_AMP_FULL_SHARE of the Tensor Core kernel time. */
static int amp(const struct trace *t, bool compat, struct ov_result *r)
{
	const struct tr_meta *mt = &t->meta;
	if (!mt->ndevices || mt->devices[0].compute_major == INT64_MIN ||
	    mt->devices[0].compute_major < 7 || !r->has_kernels || !(r->tc_eligible_ratio > 0.0))
		return 0;
	double eligible = nearbyint(r->tc_eligible_ratio * 100);
	if (r->tc_used_ratio == 0.0)
		return ov_add_rec(
		    r, "amp",
		    compat
			? "Kernels with %.0f%% time are launched by Tensor Cores eligible "
			  "operators. You could enable <a href=\"https://pytorch.org/docs/stable/"
			  "amp.html\" target=\"_blank\">Automatic Mixed Precision</a> to speedup "
			  "by using FP16."
			: "Kernels with %.0f%% time are launched by Tensor Cores eligible "
			  "operators. You could enable Automatic Mixed Precision "
			  "(https://pytorch.org/docs/stable/amp.html) to speedup by using FP16.",
		    eligible);
	if (compat || r->tc_time <= 0 ||
	    (double)r->tc_full_time < OV_AMP_FULL_SHARE * (double)r->tc_time)
		return 0;
	return ov_add_rec(r, "amp",
			  "Kernels with %.0f%% time are launched by Tensor Cores eligible "
			  "operators, and %.1f%% of the Tensor Core kernel time is in kernels "
			  "of 32-bit inputs (FP32/TF32). You could enable Automatic Mixed "
			  "Precision (https://pytorch.org/docs/stable/amp.html) to speedup by "
			  "using FP16 or BF16.",
			  eligible, 100.0 * (double)r->tc_full_time / (double)r->tc_time);
}

static int recommend(const struct trace *t, const struct optree *o, const struct st_result *s,
		     const struct gm_result *g, bool compat, struct ov_result *r)
{
	const struct tr_meta *mt = &t->meta;
	double total = st_avg_us(s, ST_TOTAL);
	if (s->n && total > 0) {
		double dl = st_avg_us(s, ST_DATALOADER) / total;
		if (dl > 0.05 &&
		    ov_add_rec(
			r, "dataloader",
			compat ? "This run has high time cost on input data loading. %.1f%% of the "
				 "step time is in DataLoader. You could try to set num_workers on "
				 "DataLoader's construction and <a href=\"https://pytorch.org/docs/"
				 "stable/data.html#single-and-multi-process-data-loading\" "
				 "target=\"_blank\">enable multi-processes on data loading</a>."
			       : "This run has high time cost on input data loading. %.1f%% of the "
				 "step time is in DataLoader. You could try to set num_workers on "
				 "DataLoader's construction and enable multi-processes on data "
				 "loading (https://pytorch.org/docs/stable/data.html"
				 "#single-and-multi-process-data-loading).",
			dl * 100))
			return -1;
	}
	bool dp, ddp;
	size_t devices;
	run_facts(t, &dp, &ddp, &devices);
	if (dp && devices > 1 &&
	    ov_add_rec(
		r, "data_parallel", "%s",
		compat ? "It is recommended to <a href=\"https://pytorch.org/docs/stable/notes/"
			 "cuda.html#cuda-nn-ddp-instead\" target=\"_blank\">use "
			 "DistributedDataParallel instead of DataParallel</a> to do multi-GPU "
			 "training."
		       : "It is recommended to use DistributedDataParallel instead of "
			 "DataParallel to do multi-GPU training (https://pytorch.org/docs/stable/"
			 "notes/cuda.html#cuda-nn-ddp-instead)."))
		return -1;
	if (ddp && !s->has_nccl && mt->ndevices) {
		bool capable = false;
		for (size_t i = 0; i < mt->ndevices; i++)
			capable |= mt->devices[i].compute_major > 3 ||
				   (mt->devices[i].compute_major == 3 &&
				    mt->devices[i].compute_minor >= 5);
		if (capable &&
		    ov_add_rec(r, "nccl", "%s",
			       "Nccl backend is currently the fastest and highly recommended "
			       "backend when using DDP for training."))
			return -1;
	}
	if (s->n && total > 0) {
		double comm = st_avg_us(s, ST_COMM) / total;
		if (comm > 0.1 &&
		    ov_add_rec(
			r, "communication",
			compat
			    ? "This run has high time cost on communication. %.1f%% of the step "
			      "time is in communication. You could try <a href=\"('https://"
			      "pytorch.org/docs/stable/ddp_comm_hooks.html',)\" target=\"_blank\">"
			      "Gradient Compression</a> or <a "
			      "href=\"https://towardsdatascience.com/"
			      "what-is-gradient-accumulation-in-deep-learning-ec034122cfa\" "
			      "target=\"_blank\">Gradient Accumulation</a> or increase the batch "
			      "size. Note: Gradient accumulation will increase global effective "
			      "batch size, which may hurt model convergence and accuracy. For such "
			      "case, you may want to evaluate <a href=\"https://nvidia.github.io/"
			      "apex/optimizers.html#apex.optimizers.FusedLAMB\" target=\"_blank\">"
			      "LAMB optimizer</a>."
			    : "This run has high time cost on communication. %.1f%% of the step "
			      "time is in communication. You could try Gradient Compression "
			      "(https://pytorch.org/docs/stable/ddp_comm_hooks.html) or Gradient "
			      "Accumulation or increase the batch size. Note: Gradient "
			      "accumulation will increase global effective batch size, which may "
			      "hurt model convergence and accuracy. For such case, you may want to "
			      "evaluate the LAMB optimizer (https://nvidia.github.io/apex/"
			      "optimizers.html#apex.optimizers.FusedLAMB).",
			comm * 100))
			return -1;
	}
	int64_t low[64];
	size_t nlow = 0;
	for (size_t i = 0; i < g->n && nlow < 64; i++)
		if (g->gpus[i].has_utilization && g->gpus[i].utilization < 0.5)
			low[nlow++] = g->gpus[i].id;
	if (nlow) {
		char ids[512];
		join_ids(ids, sizeof ids, low, nlow, compat);
		bool one = compat ? strlen(ids) == 1 : nlow == 1;
		if (ov_add_rec(
			r, "low_utilization",
			"GPU %s %s low utilization. You could try to increase batch size to "
			"improve. Note: Increasing batch size may affect the speed and stability "
			"of model convergence.",
			ids, one ? "has" : "have"))
			return -1;
	}
	if (amp(t, compat, r))
		return -1;
	if (mt->ndevices && t->mem.n) {
		if (memory_peaks(o, compat, r))
			return -1;
		for (int id = 0; id < 64; id++) {
			int64_t peak = r->peak_allocated_gpu[id];
			if (peak < 0 || (size_t)id >= mt->ndevices)
				continue;
			int64_t mem = mt->devices[id].total_global_mem;
			if (mem <= 0 || (double)peak <= 0.9 * (double)mem)
				continue;
			if (ov_add_rec(
				r, "memory_limit",
				"Device memory usage is at the limit of device memory capacity "
				"(%.1f%% of %.1fGB on GPU%d). To get better value of your GPU "
				"or to "
				"use larger batch size for training, please refer to Gradient "
				"Checkpoint or Automatic Mixed Precision.",
				100.0 * (double)peak / (double)mem,
				(double)mem / (1024.0 * 1024.0 * 1024.0), id))
				return -1;
			break; /* tb reports the first device only */
		}
	}
	return 0;
}

int ov_compute(const struct trace *t, const struct optree *o, const struct st_result *s,
	       const struct gm_result *g, bool tb_compat, struct ov_result *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	if (tc_per_gpu(t, o, out))
		return nomem(t, e);
	out->tc_eligible_ratio = optree_tc_eligible_ratio(o);
	int64_t kt = 0, tc = 0;
	for (size_t r = 0; r < t->ev.n; r++) {
		if (t->ev.kind[r] != TR_KERNEL || !optree_uses_row(o, r))
			continue;
		int64_t d = tr_dur(t, r);
		kt += d;
		if (optree_tc_kernel(o, t->ev.name[r]))
			tc += d;
		if (optree_tc_full_precision(o, t->ev.name[r]))
			out->tc_full_time += d;
		out->has_kernels = true;
	}
	out->tc_time = tc;
	out->tc_used_ratio = kt > 0 ? (double)tc / (double)kt : 0.0;
	if (recommend(t, o, s, g, tb_compat, out)) {
		ov_free(out);
		return nomem(t, e);
	}
	return 0;
}

void ov_free(struct ov_result *r)
{
	for (size_t i = 0; i < r->nrecs; i++)
		free(r->recs[i]);
	free(r->recs);
	free(r->rules);
	free(r->tc);
	memset(r, 0, sizeof *r);
}
