/* launches: every runtime launch joined to its GPU work, and the ATen op
 * above each launch with its kernel sequence, with HTA's definitions
 * (shared/reference/hta.md §A.2: get_cuda_kernel_launch_stats,
 * get_aten_op_kernels_and_delay), over the events hta/select.h reads.
 *
 * Launch pairs: the CPU events without a stream whose correlation is that
 * of a launch call (cudaLaunchKernel, cudaLaunchKernelExC, MTIA's
 * "runFunction - job_prep_and_submit_for_execution", and unless
 * memory is false cudaMemcpyAsync and cudaMemsetAsync), each joined to
 * every device event of the same correlation (in CPU-event order, then
 * device-event order, as pandas' inner merge): cpu = the call's duration,
 * gpu = the device event's, launch delay = device start - call end,
 * clipped at 0. A pair is a short kernel when gpu < cpu and cpu is at most
 * the runtime cut-off, a runtime outlier when cpu exceeds it, a delay
 * outlier when the delay exceeds the delay cut-off (HTA's 50 and 100 us).
 *
 * ATen ops: for each launch call of HTA's wider list (the above, cuLaunchKernel[Ex],
 * and the HIP launches and copies) that has a device event, the deepest
 * aten:: op on any thread that holds the whole call ([ts, end] inside
 * [op ts, op end]; the latest start, and of equal starts the shorter),
 * the delay op start -> call start and call start -> device start. An op
 * instance's kernel sequence is its launches' device names joined with
 * " -> " in launch order; rows group the instances by (op name, sequence):
 * how many, and the means of their first launch's two delays; by count
 * (then name and sequence, bytewise).
 *
 * Owns its arrays and strings. Depends on hta/select, core/.
 */
#ifndef GP_HTA_LAUNCHES_H
#define GP_HTA_LAUNCHES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "hta/select.h"

enum { HTA_SHORT = 1, HTA_RUNTIME_OUTLIER = 2, HTA_DELAY_OUTLIER = 4 };

struct hta_launch {
	int64_t corr;
	uint32_t cpu_row, gpu_row;
	int64_t cpu_ns, gpu_ns, delay_ns;
	uint8_t flags; /* HTA_SHORT | HTA_RUNTIME_OUTLIER | HTA_DELAY_OUTLIER */
};

struct hta_aten_row {
	uint32_t op_name;   /* string id of the trace */
	char *sequence;	    /* kernel names joined with " -> " */
	uint64_t count;	    /* op instances */
	double op_delay_ns; /* mean of op start -> first launch start */
	double rt_delay_ns; /* mean of first launch start -> its device start */
};

struct hta_launch_opts {
	int64_t runtime_cutoff_ns, delay_cutoff_ns;
	bool memory;	/* cudaMemcpyAsync / cudaMemsetAsync count as launches */
	bool skip_aten; /* leave aten and launches_without_op empty */
};

struct hta_launches {
	struct hta_launch *v; /* in HTA's order */
	size_t n;
	size_t nflag[3]; /* short, runtime outliers, delay outliers */
	struct hta_aten_row *aten;
	size_t naten;
	size_t launches_without_op; /* launch calls under no aten:: op */
};

int hta_launches(const struct trace *t, const struct hta_events *h, const struct hta_launch_opts *o,
		 struct hta_launches *out, struct err *e);
void hta_launches_free(struct hta_launches *l);

#endif
