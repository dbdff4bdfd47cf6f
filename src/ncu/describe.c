/* describe: one-sentence descriptions, in our own words, of the metrics the
 * default sections show (SpeedOfLight, LaunchStats, Occupancy), for help
 * texts and tooltips (`ncu raw --format json`, column "description"). */
#include <stdlib.h>
#include <string.h>

#include "ncu/ncu.h"

struct desc {
	const char *name, *text;
};

/* Sorted bytewise by name (checked by the unit tests). */
static const struct desc descs[] = {
    {"dram__cycles_elapsed.avg.per_second",
     "Clock rate of the device memory (DRAM) while the kernel ran."},
    {"gpc__cycles_elapsed.avg.per_second",
     "Clock rate of the SMs (graphics processing clusters) while the kernel ran."},
    {"gpc__cycles_elapsed.max",
     "Length of the kernel in SM clock cycles (the longest of all clusters)."},
    {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
     "Busiest memory unit (L1, L2 or DRAM) as a percentage of its peak rate: how close the kernel "
     "comes to a memory limit."},
    {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
     "Device memory (DRAM) traffic as a percentage of its peak bandwidth."},
    {"gpu__time_duration.sum", "Wall time the kernel ran on the GPU."},
    {"l1tex__throughput.avg.pct_of_peak_sustained_active",
     "Busiest part of the L1/texture cache as a percentage of its peak rate, while active."},
    {"launch__block_size", "Threads per block, as launched."},
    {"launch__cluster_max_active",
     "Most thread-block clusters of this size that can be resident on the GPU at once."},
    {"launch__cluster_max_potential_size",
     "Largest cluster size this kernel could be launched with."},
    {"launch__cluster_scheduling_policy",
     "How clusters are spread over the GPU (sm_90 and newer)."},
    {"launch__cluster_size", "Blocks per thread-block cluster (0 or 1 when no clusters are used)."},
    {"launch__func_cache_config",
     "Preferred split between L1 cache and shared memory requested for the kernel."},
    {"launch__grid_size", "Blocks in the grid, as launched."},
    {"launch__occupancy_cluster_gpu_pct",
     "Share of the GPU that the maximum number of active clusters can cover."},
    {"launch__occupancy_cluster_pct",
     "Cluster occupancy: active clusters relative to the most that could run."},
    {"launch__occupancy_limit_barriers",
     "Blocks per SM allowed by the number of block barriers used."},
    {"launch__occupancy_limit_blocks",
     "Blocks per SM allowed by the hardware limit on resident blocks."},
    {"launch__occupancy_limit_registers",
     "Blocks per SM allowed by the registers each block needs."},
    {"launch__occupancy_limit_shared_mem",
     "Blocks per SM allowed by the shared memory each block needs."},
    {"launch__occupancy_limit_warps", "Blocks per SM allowed by the warps each block needs."},
    {"launch__preferred_cluster_size", "Cluster size the launch asked for as preferred."},
    {"launch__registers_per_thread",
     "Registers each thread uses; more registers can mean fewer resident warps."},
    {"launch__shared_mem_config_size", "Shared memory configured per SM for this launch."},
    {"launch__shared_mem_per_block_driver", "Shared memory per block reserved by the driver."},
    {"launch__shared_mem_per_block_dynamic",
     "Shared memory per block allocated at launch time (dynamic)."},
    {"launch__shared_mem_per_block_static",
     "Shared memory per block declared in the kernel code (static)."},
    {"launch__sm_count", "Number of SMs the kernel could use."},
    {"launch__stack_size", "Stack memory per thread."},
    {"launch__thread_count", "Total threads launched (grid size times block size)."},
    {"launch__tpc_count", "Number of texture processing clusters (TPCs) the kernel could use."},
    {"launch__tpc_enabled", "Which TPCs were enabled for the launch."},
    {"launch__uses_green_context",
     "Whether the kernel ran in a green context (a partition of the SMs)."},
    {"launch__waves_per_multiprocessor", "How many full rounds of resident blocks the grid needs "
					 "per SM; a small fraction means a partly idle last wave."},
    {"lts__throughput.avg.pct_of_peak_sustained_elapsed",
     "Busiest part of the L2 cache as a percentage of its peak rate."},
    {"sm__cycles_active.avg",
     "Average number of cycles in which an SM had at least one warp resident."},
    {"sm__maximum_warps_avg_per_active_cycle",
     "Warps per SM that the launch configuration allows at most (theoretical)."},
    {"sm__maximum_warps_per_active_cycle_pct", "Theoretical occupancy: the most warps the launch "
					       "allows per SM, relative to the hardware maximum."},
    {"sm__throughput.avg.pct_of_peak_sustained_elapsed",
     "Busiest SM unit or pipeline as a percentage of its peak rate: how close the kernel comes to "
     "a compute limit."},
    {"sm__warps_active.avg.pct_of_peak_sustained_active",
     "Achieved occupancy: warps actually resident per SM on average, relative to the hardware "
     "maximum."},
    {"sm__warps_active.avg.per_cycle_active",
     "Warps actually resident per SM on average, per active cycle."},
    {"smsp__maximum_warps_avg_per_active_cycle",
     "Warps per scheduler that the launch configuration allows at most."},
    {"smsp__warps_active.avg.peak_sustained",
     "Warps a scheduler can hold at most (hardware limit)."},
};

static int cmp_desc(const void *key, const void *elem)
{
	return strcmp(key, ((const struct desc *)elem)->name);
}

const char *ncu_metric_description(const char *name)
{
	const struct desc *d =
	    bsearch(name, descs, sizeof descs / sizeof descs[0], sizeof descs[0], cmp_desc);
	return d ? d->text : NULL;
}

bool ncu_descriptions_sorted(void)
{
	for (size_t i = 1; i < sizeof descs / sizeof descs[0]; i++)
		if (strcmp(descs[i - 1].name, descs[i].name) >= 0)
			return false;
	return true;
}
