/* describe: one-sentence descriptions, in our own words, of the metrics the
 * default sections' tables show (SpeedOfLight, MemoryWorkloadAnalysis,
 * Occupancy, LaunchStats, ComputeWorkloadAnalysis, SchedulerStats,
 * WarpStateStats, InstructionStats) and of the memory chart's, for help
 * texts and tooltips (`ncu raw` and `ncu details --format json`, column
 * "description"; the viewer's row titles).
 *
 * One table, descs[], by name: a full metric name ("sm__throughput.avg.
 * pct_of_peak_sustained_elapsed") says exactly what that metric is; a
 * counter's base name (the part before the first '.', "lts__t_sectors")
 * says what is counted, and a rollup suffix (".avg.pct_of_peak_sustained_
 * elapsed") from rollups[] adds how the units' values are combined. Two
 * families are named by their part in the middle of the base, the SM's
 * pipelines (pipes[]) and the warp stall reasons (stalls[]). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncu/ncu.h"

struct desc {
	const char *name, *text;
};

/* Sorted bytewise by name (checked by the unit tests). Full names and
 * bases; every text is a sentence. */
static const struct desc descs[] = {
    {"derived__local_spilling_requests",
     "Local-memory requests caused by register spills (values the compiler had to keep "
     "in memory because registers ran out)."},
    {"derived__local_spilling_requests_pct",
     "Register-spill requests relative to all the kernel's memory requests: the "
     "overhead spilling adds."},
    {"derived__pct_occupancy_per_barrier_count",
     "Occupancy (percent of the SM's warp slots) the kernel would reach with each "
     "number of block barriers, the rest of the launch unchanged."},
    {"derived__pct_occupancy_per_block_size",
     "Occupancy (percent of the SM's warp slots) the kernel would reach with each "
     "block size, the rest of the launch unchanged."},
    {"derived__pct_occupancy_per_register_count",
     "Occupancy (percent of the SM's warp slots) the kernel would reach with each "
     "register count per thread, the rest of the launch unchanged."},
    {"derived__pct_occupancy_per_shared_mem_size",
     "Occupancy (percent of the SM's warp slots) the kernel would reach with each "
     "amount of shared memory per block, the rest of the launch unchanged."},
    {"dram__bytes", "Bytes moved between the L2 cache and device memory (DRAM), reads and writes."},
    {"dram__bytes.sum.per_second",
     "Device memory (DRAM) traffic in bytes per second, reads and writes together."},
    {"dram__bytes_read", "Bytes read from device memory (DRAM) into the L2 cache."},
    {"dram__bytes_write", "Bytes written from the L2 cache to device memory (DRAM)."},
    {"dram__cycles_active", "Cycles in which device memory (DRAM) was busy transferring data."},
    {"dram__cycles_elapsed", "DRAM clock cycles that passed while the kernel ran."},
    {"dram__cycles_elapsed.avg.per_second",
     "Clock rate of the device memory (DRAM) while the kernel ran."},
    {"fbpa__dram_sectors", "32-byte sectors moved through the frame-buffer partitions (the DRAM "
			   "controllers)."},
    {"gpc__cycles_elapsed",
     "SM clock cycles that passed while the kernel ran, per graphics processing "
     "cluster (GPC)."},
    {"gpc__cycles_elapsed.avg.per_second",
     "Clock rate of the SMs (graphics processing clusters) while the kernel ran."},
    {"gpc__cycles_elapsed.max",
     "Length of the kernel in SM clock cycles (the longest of all clusters)."},
    {"gpu__compute_memory_access_throughput",
     "Internal activity of the busiest memory unit (L1, shared memory, L2 or DRAM)."},
    {"gpu__compute_memory_access_throughput.avg.pct_of_peak_sustained_elapsed",
     "Mem Busy: the internal activity of the busiest memory unit (L1, shared memory, "
     "L2 or DRAM) as a percentage of its peak."},
    {"gpu__compute_memory_access_throughput_internal_activity",
     "Internal activity of the busiest memory unit, not counting the traffic at its "
     "interfaces."},
    {"gpu__compute_memory_request_throughput",
     "Traffic crossing the busiest memory interface (L1, L2 or DRAM)."},
    {"gpu__compute_memory_request_throughput.avg.pct_of_peak_sustained_elapsed",
     "Max Bandwidth: the traffic crossing the busiest memory interface (L1, L2 or "
     "DRAM) as a percentage of its peak bandwidth."},
    {"gpu__compute_memory_request_throughput_internal_activity",
     "Request traffic of the busiest memory interface, as its unit's internal activity "
     "counts it."},
    {"gpu__compute_memory_throughput", "Throughput of the busiest memory unit (L1, L2 or DRAM)."},
    {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
     "Busiest memory unit (L1, L2 or DRAM) as a percentage of its peak rate: how close "
     "the kernel comes to a memory limit."},
    {"gpu__dram_throughput", "Device memory (DRAM) throughput."},
    {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
     "Device memory (DRAM) traffic as a percentage of its peak bandwidth."},
    {"gpu__time_duration", "Wall time the kernel ran on the GPU."},
    {"gpu__time_duration.sum", "Wall time the kernel ran on the GPU."},
    {"gr__workids_granted",
     "Work IDs the work distributor granted to the kernel's blocks (cluster launch "
     "control, sm_100 and newer)."},
    {"gr__workids_granted_as_ctas", "Work IDs granted that started new thread blocks (CTAs)."},
    {"gr__workids_requested",
     "Work IDs the kernel's blocks asked the work distributor for (cluster launch "
     "control)."},
    {"idc__request_cycles_active",
     "Cycles in which the indexed constant cache (IDC) was busy serving requests."},
    {"inst_executed",
     "Warp instructions executed at each instruction address (the per-address source "
     "counter)."},
    {"l1tex__data_bank_reads", "Reads from the L1/shared-memory data banks."},
    {"l1tex__data_bank_writes", "Writes to the L1/shared-memory data banks."},
    {"l1tex__data_pipe_lsu_wavefronts",
     "Wavefronts (passes through the data stage) of load/store instructions in the L1."},
    {"l1tex__data_pipe_tex_wavefronts",
     "Wavefronts (passes through the data stage) of texture instructions in the L1."},
    {"l1tex__f_wavefronts",
     "Wavefronts in the L1/texture unit's filter stage, which formats texture results."},
    {"l1tex__lsu_writeback_active",
     "Cycles in which the L1 was writing load/store results back to the SM's "
     "registers."},
    {"l1tex__lsuin_requests", "Requests the load/store unit sent into the L1/texture cache."},
    {"l1tex__m_l1tex2xbar_req_cycles_active",
     "Cycles in which the L1 was sending requests toward the L2 through the crossbar."},
    {"l1tex__m_l1tex2xbar_write_bytes",
     "Bytes the L1 sent toward the L2 through the crossbar (written data)."},
    {"l1tex__m_xbar2l1tex_read_bytes",
     "Bytes the L1 received from the L2 through the crossbar (read data)."},
    {"l1tex__m_xbar2l1tex_read_sectors",
     "Sectors the L1 received from the L2 through the crossbar (read data)."},
    {"l1tex__m_xbar2l1tex_read_sectors_mem_dshared",
     "Sectors the L1 received through the crossbar for distributed shared memory "
     "(other SMs of the cluster)."},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_ld",
     "Global-memory load requests the L1 received from load/store instructions."},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_st",
     "Global-memory store requests the L1 received from load/store instructions."},
    {"l1tex__t_sector_hit_rate", "L1/texture cache hit rate, by 32-byte sectors."},
    {"l1tex__t_sector_hit_rate.pct",
     "Share of the 32-byte sectors asked of the L1/texture cache that it already held "
     "(hits)."},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld",
     "32-byte sectors of global-memory loads the L1 handled."},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_st",
     "32-byte sectors of global-memory stores the L1 handled."},
    {"l1tex__tex_writeback_active",
     "Cycles in which the L1 was writing texture results back to the SM's registers."},
    {"l1tex__texin_sm2tex_req_cycles_active",
     "Cycles in which the SM was sending texture requests into the L1/texture unit."},
    {"l1tex__throughput", "Throughput of the busiest part of the L1/texture cache."},
    {"l1tex__throughput.avg.pct_of_peak_sustained_active",
     "Busiest part of the L1/texture cache as a percentage of its peak rate, while "
     "active."},
    {"l1tex__tmain_requests", "Requests processed by the L1/texture cache's main tag stage."},
    {"launch__barrier_count",
     "Block-wide barriers (__syncthreads and named barriers) the kernel uses."},
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
    {"launch__occupancy_per_barrier_count",
     "Active warps per SM the kernel would reach with each number of block barriers, "
     "the rest of the launch unchanged."},
    {"launch__occupancy_per_block_size",
     "Active warps per SM the kernel would reach with each block size, the rest of the "
     "launch unchanged."},
    {"launch__occupancy_per_cluster_size",
     "Active clusters the GPU could hold with each cluster size, the rest of the "
     "launch unchanged."},
    {"launch__occupancy_per_register_count",
     "Active warps per SM the kernel would reach with each register count per thread, "
     "the rest of the launch unchanged."},
    {"launch__occupancy_per_shared_mem_size",
     "Active warps per SM the kernel would reach with each amount of shared memory per "
     "block, the rest of the launch unchanged."},
    {"launch__persisting_l2_cache_size", "Part of the L2 cache set aside for persisting accesses "
					 "(cudaLimitPersistingL2CacheSize)."},
    {"launch__preferred_cluster_size", "Cluster size the launch asked for as preferred."},
    {"launch__registers_per_thread",
     "Registers each thread uses; more registers can mean fewer resident warps."},
    {"launch__shared_mem_config_size", "Shared memory configured per SM for this launch."},
    {"launch__shared_mem_per_block",
     "Shared memory per block the kernel uses (static plus dynamic)."},
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
    {"launch__waves_per_multiprocessor",
     "How many full rounds of resident blocks the grid needs per SM; a small fraction "
     "means a partly idle last wave."},
    {"lts__average_gcomp_input_sector_success_rate",
     "Share of the sectors sent to the L2's compression unit that it managed to "
     "compress."},
    {"lts__average_gcomp_input_sector_success_rate.pct",
     "Share of the sectors sent to the L2's compression unit that it managed to "
     "compress."},
    {"lts__average_gcomp_output_sector_compression_achieved_rate",
     "How much the L2's compression unit shrank the data it compressed."},
    {"lts__average_gcomp_output_sector_compression_achieved_rate.ratio",
     "How much the L2's compression unit shrank the data it compressed (input size "
     "over output size)."},
    {"lts__d_atomic_input_cycles_active",
     "Cycles in which the L2's data stage was taking in atomic operations."},
    {"lts__d_sectors", "Sectors read or written in the L2's data stage."},
    {"lts__d_sectors_fill_device", "Sectors filled into the L2 from device memory (after misses)."},
    {"lts__d_sectors_fill_sysmem",
     "Sectors filled into the L2 from system memory (host memory over PCIe or NVLink)."},
    {"lts__gcomp_input_sectors", "Sectors sent to the L2's compression unit."},
    {"lts__lts2xbar_cycles_active",
     "Cycles in which the L2 was sending data back toward the SMs through the "
     "crossbar."},
    {"lts__t_sector_hit_rate", "L2 cache hit rate, by 32-byte sectors."},
    {"lts__t_sector_hit_rate.pct",
     "Share of the 32-byte sectors asked of the L2 cache that it already held (hits); "
     "misses go on to device or system memory."},
    {"lts__t_sectors", "32-byte sectors handled by the L2 cache's tag stage (all accesses)."},
    {"lts__t_sectors_srcunit_tex", "32-byte sectors the L2 handled for the L1/texture units."},
    {"lts__t_sectors_srcunit_tex_lookup_hit",
     "32-byte sectors the L1/texture units asked of the L2 that the L2 held (hits)."},
    {"lts__t_sectors_srcunit_tex_lookup_miss",
     "32-byte sectors the L1/texture units asked of the L2 that the L2 did not hold "
     "(misses)."},
    {"lts__t_sectors_srcunit_tex_op_read",
     "32-byte sectors the L1/texture units read from the L2."},
    {"lts__t_sectors_srcunit_tex_op_write",
     "32-byte sectors the L1/texture units wrote to the L2."},
    {"lts__t_tag_requests", "Requests looked up in the L2 cache's tags."},
    {"lts__throughput", "Throughput of the busiest part of the L2 cache."},
    {"lts__throughput.avg.pct_of_peak_sustained_elapsed",
     "Busiest part of the L2 cache as a percentage of its peak rate."},
    {"lts__xbar2lts_cycles_active",
     "Cycles in which the L2 was receiving requests from the crossbar."},
    {"sass__inst_executed_per_opcode",
     "Warp instructions executed, per SASS opcode (the instruction mix)."},
    {"sass__inst_executed_per_opcode_category",
     "Warp instructions executed, per category of SASS opcode."},
    {"sm__cycles_active", "Cycles in which the SM had at least one warp resident."},
    {"sm__cycles_active.avg",
     "Average number of cycles in which an SM had at least one warp resident."},
    {"sm__inst_executed", "Warp instructions the SM executed."},
    {"sm__inst_executed.avg.per_cycle_active",
     "Executed IPC (active): warp instructions an SM executed per cycle in which it "
     "was active."},
    {"sm__inst_executed.avg.per_cycle_elapsed",
     "Executed IPC (elapsed): warp instructions an SM executed per cycle the kernel "
     "ran."},
    {"sm__inst_issued", "Warp instructions the SM issued (issued counts replays too)."},
    {"sm__inst_issued.avg.pct_of_peak_sustained_active",
     "Issue Slots Busy: share of the schedulers' issue slots used, over the SM's "
     "active cycles."},
    {"sm__inst_issued.avg.pct_of_peak_sustained_elapsed",
     "Issue Slots Busy: share of the schedulers' issue slots used, over the kernel's "
     "elapsed cycles."},
    {"sm__inst_issued.avg.per_cycle_active",
     "Issued IPC (active): warp instructions an SM issued per active cycle."},
    {"sm__instruction_throughput",
     "Instruction throughput of the busiest SM pipeline or issue stage."},
    {"sm__instruction_throughput.avg.pct_of_peak_sustained_active",
     "SM Busy: the busiest SM pipeline or issue stage as a percentage of its peak, "
     "over the SM's active cycles."},
    {"sm__instruction_throughput.avg.pct_of_peak_sustained_elapsed",
     "SM Busy: the busiest SM pipeline or issue stage as a percentage of its peak, "
     "over the kernel's elapsed cycles."},
    {"sm__instruction_throughput_internal_activity",
     "Internal activity of the SM's busiest instruction pipeline."},
    {"sm__issue_active", "Cycles in which the SM's schedulers issued an instruction."},
    {"sm__maximum_warps_avg_per_active_cycle",
     "Warps per SM that the launch configuration allows at most (theoretical)."},
    {"sm__maximum_warps_per_active_cycle_pct",
     "Theoretical occupancy: the most warps the launch allows per SM, relative to the "
     "hardware maximum."},
    {"sm__mem_tensor_cycles_active",
     "Cycles in which the tensor memory (TMEM, sm_100 and newer) was busy."},
    {"sm__memory_throughput",
     "Throughput of the SM's busiest memory pipeline (load/store, texture, shared "
     "memory)."},
    {"sm__memory_throughput.avg.pct_of_peak_sustained_elapsed",
     "Mem Pipes Busy: the busiest of the SM's memory pipelines (load/store, texture, "
     "shared memory) as a percentage of its peak issue rate."},
    {"sm__memory_throughput_internal_activity",
     "Internal activity of the SM's busiest memory pipeline."},
    {"sm__mio2rf_writeback_active",
     "Cycles in which the memory input/output unit (MIO) was writing results back to "
     "the register file."},
    {"sm__mio_inst_issued",
     "Instructions issued to the memory input/output unit (MIO), the queue of "
     "shared-memory, special-function and other long-latency instructions."},
    {"sm__mio_pq_read_cycles_active",
     "Cycles in which the MIO's pipe queue was reading operands from the register "
     "file."},
    {"sm__mio_pq_write_cycles_active",
     "Cycles in which the MIO's pipe queue was writing results to the register file."},
    {"sm__throughput", "Throughput of the busiest SM unit or pipeline."},
    {"sm__throughput.avg.pct_of_peak_sustained_elapsed",
     "Busiest SM unit or pipeline as a percentage of its peak rate: how close the "
     "kernel comes to a compute limit."},
    {"sm__warps_active", "Warps resident on the SM."},
    {"sm__warps_active.avg.pct_of_peak_sustained_active",
     "Achieved occupancy: warps actually resident per SM on average, relative to the "
     "hardware maximum."},
    {"sm__warps_active.avg.per_cycle_active",
     "Warps actually resident per SM on average, per active cycle."},
    {"smsp__average_warp_latency_per_inst_issued.ratio",
     "Average cycles a warp spends from one issued instruction to its next: the "
     "latency each instruction costs a warp."},
    {"smsp__average_warps_active_per_inst_executed.ratio",
     "Average cycles a warp spends per executed instruction."},
    {"smsp__inst_executed", "Warp instructions a scheduler (SM sub-partition) executed."},
    {"smsp__inst_executed.avg", "Warp instructions each scheduler executed, on average."},
    {"smsp__inst_executed.sum", "Warp instructions executed by the whole kernel."},
    {"smsp__inst_issued", "Warp instructions a scheduler (SM sub-partition) issued."},
    {"smsp__inst_issued.avg",
     "Warp instructions each scheduler issued, on average (issued counts replays too)."},
    {"smsp__inst_issued.sum",
     "Warp instructions issued by the whole kernel (issued counts replays too)."},
    {"smsp__issue_active", "Cycles in which a scheduler issued an instruction."},
    {"smsp__issue_active.avg.pct_of_peak_sustained_active",
     "One or More Eligible: share of a scheduler's active cycles in which it issued an "
     "instruction."},
    {"smsp__issue_active.avg.per_cycle_active",
     "Instructions a scheduler issued per active cycle (at most 1)."},
    {"smsp__issue_inst0", "Cycles in which a scheduler issued nothing (no warp was ready)."},
    {"smsp__issue_inst0.avg.pct_of_peak_sustained_active",
     "No Eligible: share of a scheduler's active cycles in which no warp was ready, so "
     "nothing was issued."},
    {"smsp__maximum_warps_avg_per_active_cycle",
     "Warps per scheduler that the launch configuration allows at most."},
    {"smsp__thread_inst_executed_per_inst_executed.ratio",
     "Average threads active per executed warp instruction (32 when no thread diverged "
     "or exited)."},
    {"smsp__thread_inst_executed_pred_on_per_inst_executed.ratio",
     "Average threads per executed warp instruction that were active and not "
     "predicated off."},
    {"smsp__warps_active", "Warps resident on a scheduler (SM sub-partition)."},
    {"smsp__warps_active.avg.peak_sustained",
     "Warps a scheduler can hold at most (hardware limit)."},
    {"smsp__warps_active.avg.per_cycle_active",
     "Warps resident on a scheduler per active cycle, on average."},
    {"smsp__warps_eligible", "Warps ready to issue (not stalled) on a scheduler."},
    {"smsp__warps_eligible.avg.per_cycle_active",
     "Warps ready to issue (not stalled) on a scheduler per active cycle, on average."},
    {"syslts__d_atomic_input_cycles_active",
     "Cycles in which the data stage of the L2's system-memory slice (SYSLTS) was "
     "taking in atomic operations."},
    {"syslts__d_sectors",
     "Sectors read or written in the data stage of the L2's system-memory slice "
     "(SYSLTS)."},
    {"syslts__d_sectors_fill_sysmem",
     "Sectors filled into the L2's system-memory slice (SYSLTS) from system memory."},
    {"syslts__syslts2xbar_cycles_active",
     "Cycles in which the L2's system-memory slice (SYSLTS) was sending data toward "
     "the SMs through the crossbar."},
    {"syslts__t_sectors",
     "32-byte sectors handled by the tag stage of the L2's system-memory slice "
     "(SYSLTS)."},
    {"syslts__t_tag_requests",
     "Requests looked up in the tags of the L2's system-memory slice (SYSLTS)."},
    {"syslts__xbar2syslts_cycles_active",
     "Cycles in which the L2's system-memory slice (SYSLTS) was receiving requests "
     "from the crossbar."},
};

/* How a base's per-unit values are combined (after the first '.'); "":
 * the base's sentence says it all. */
static const struct desc rollups[] = {
    {".avg", "averaged over the units"},
    {".avg.pct_of_peak_sustained_active",
     "as a percentage of the peak sustained rate over the cycles the unit was active (average "
     "over the units)"},
    {".avg.pct_of_peak_sustained_elapsed",
     "as a percentage of the peak sustained rate over the kernel's elapsed cycles (average over "
     "the units)"},
    {".avg.peak_sustained", "the most one unit can sustain per cycle (a hardware limit)"},
    {".avg.per_cycle_active", "per active cycle, averaged over the units"},
    {".avg.per_cycle_elapsed", "per elapsed cycle, averaged over the units"},
    {".avg.per_second", "per second, averaged over the units"},
    {".max", "the largest value of any one unit"},
    {".max.pct_of_peak_sustained_active",
     "for the busiest unit, as a percentage of the peak sustained rate over its active cycles"},
    {".max.pct_of_peak_sustained_elapsed",
     "for the busiest unit, as a percentage of the peak sustained rate over the elapsed cycles"},
    {".min", "the smallest value of any one unit"},
    {".pct", ""},
    {".ratio", ""},
    {".sum", "summed over all units"},
    {".sum.peak_sustained", "the most all units together can sustain per cycle"},
    {".sum.per_second", "per second, summed over all units"},
};

/* The SM's pipelines, by the name in sm__inst_executed_pipe_P and
 * sm__pipe_P_cycles_active. */
static const struct desc pipes[] = {
    {"adu", "address divergence unit (ADU), which handles branch and address divergence"},
    {"alu", "ALU pipeline (integer and logic operations, FP32 comparisons and conversions)"},
    {"aluheavy", "heavy-operation part of the ALU pipeline"},
    {"cbu", "convergence barrier unit (CBU: branches, warp synchronization and barriers)"},
    {"cbu_pred_on_any", "convergence barrier unit (CBU), counting instructions with at least one "
			"thread predicated on"},
    {"fma", "FMA pipeline (FP32 multiply-add, multiply and add; integer multiply-add)"},
    {"fmaheavy", "heavy-operation part of the FMA pipeline"},
    {"fp16", "FP16 pipeline (half-precision arithmetic)"},
    {"fp64", "FP64 pipeline (double-precision arithmetic)"},
    {"fp64_op_dmma", "FP64 pipeline's double-precision matrix (DMMA) instructions"},
    {"fp64_op_fp64", "FP64 pipeline's scalar double-precision instructions"},
    {"ipa", "IPA pipeline (attribute interpolation for graphics)"},
    {"lsu", "load/store unit (LSU: global, local, shared-memory and other memory instructions)"},
    {"shared", "pipeline that FP16 and tensor instructions share"},
    {"tc", "tensor core (TC) pipeline"},
    {"tensor", "tensor pipelines together (every matrix instruction)"},
    {"tensor_op_dmma", "tensor pipeline's double-precision matrix (DMMA) instructions"},
    {"tensor_op_gmma", "tensor pipeline's warpgroup matrix (GMMA, sm_90) instructions"},
    {"tensor_op_hmma", "tensor pipeline's floating-point matrix (HMMA) instructions"},
    {"tensor_op_imma", "tensor pipeline's integer matrix (IMMA) instructions"},
    {"tex", "texture pipeline (texture and surface instructions)"},
    {"tma", "tensor memory accelerator (TMA: bulk asynchronous copies between global and shared "
	    "memory)"},
    {"tmem", "tensor memory (TMEM) pipeline (sm_100 and newer)"},
    {"uniform", "uniform datapath (values computed once for the whole warp)"},
    {"workid", "work-ID pipeline of cluster launch control (CLC)"},
    {"xu", "transcendental and conversion unit (XU: sine, cosine, reciprocal, square root, "
	   "integer-float conversions)"},
};

/* Warp stall reasons, by the name in smsp__average_warps_issue_stalled_R_
 * per_issue_active: what the warps counted were doing. */
static const struct desc stalls[] = {
    {"barrier", "waiting at a block barrier for the block's other warps"},
    {"branch_resolving", "waiting for a branch target to be resolved"},
    {"dispatch_stall", "held because the dispatcher could not take the picked instruction"},
    {"drain", "done (after EXIT) but waiting for their memory writes to drain"},
    {"gmma", "waiting on warpgroup matrix (GMMA) instructions (sm_90)"},
    {"imc_miss", "waiting on a miss in the immediate constant cache"},
    {"lg_throttle", "held because the local/global memory instruction queue was full"},
    {"long_scoreboard", "waiting for data from L1TEX (global, local, texture or surface memory)"},
    {"math_pipe_throttle", "held because the math pipeline they need was busy"},
    {"membar", "waiting at a memory barrier"},
    {"mio_throttle", "held because the MIO instruction queue (shared memory, special functions) "
		     "was full"},
    {"misc", "stalled for a rare miscellaneous reason"},
    {"no_instruction",
     "without an instruction to issue (an instruction-cache miss, or just after a branch)"},
    {"not_selected", "ready but not picked: the scheduler issued another warp"},
    {"selected", "picked and issuing (the issue cycle itself, not a stall)"},
    {"short_scoreboard",
     "waiting for a result from the MIO (shared memory or special math functions)"},
    {"sleeping", "sleeping (NANOSLEEP) or with all their threads blocked"},
    {"tex_throttle", "held because the texture unit's input queue was full"},
    {"wait", "waiting out a fixed latency the compiler set"},
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int cmp_desc(const void *key, const void *elem)
{
	return strcmp(key, ((const struct desc *)elem)->name);
}

static const char *find(const struct desc *t, size_t n, const char *name)
{
	const struct desc *d = bsearch(name, t, n, sizeof *t, cmp_desc);
	return d ? d->text : NULL;
}

/* The text of family member base (prefix P suffix), or NULL. */
static const char *member(const char *base, const char *prefix, const char *suffix,
			  const struct desc *t, size_t n, char *buf, size_t len)
{
	size_t lp = strlen(prefix), ls = strlen(suffix), lb = strlen(base);
	if (lb <= lp + ls || strncmp(base, prefix, lp) || strcmp(base + lb - ls, suffix) ||
	    lb - lp - ls >= len)
		return NULL;
	memcpy(buf, base + lp, lb - lp - ls);
	buf[lb - lp - ls] = 0;
	return find(t, n, buf);
}

/* The sentence of a base name: in descs[], or a pipeline's or a stall
 * reason's, written into buf. */
static const char *base_text(const char *base, char *buf, size_t n)
{
	const char *t = find(descs, N(descs), base);
	if (t)
		return t;
	char part[64];
	if ((t = member(base, "sm__inst_executed_pipe_", "", pipes, N(pipes), part, sizeof part)))
		snprintf(buf, n, "Warp instructions executed by the %s.", t);
	else if ((t = member(base, "sm__pipe_", "_cycles_active", pipes, N(pipes), part,
			     sizeof part)))
		snprintf(buf, n, "Cycles in which the %s was busy.", t);
	else if ((t = member(base, "smsp__average_warps_issue_stalled_", "_per_issue_active",
			     stalls, N(stalls), part, sizeof part)))
		snprintf(buf, n, "Warps %s, on average per issued instruction.", t);
	else
		return NULL;
	return buf;
}

const char *ncu_metric_description(const char *name, char *buf, size_t n)
{
	const char *t = find(descs, N(descs), name);
	if (t || n < 2)
		return t;
	if (!strncmp(name, "breakdown:", 10))
		return "The unit metrics whose largest value is this throughput, one row each.";
	const char *dot = strchr(name, '.');
	size_t lb = dot ? (size_t)(dot - name) : strlen(name);
	char base[256], one[512];
	if (lb >= sizeof base)
		return NULL;
	memcpy(base, name, lb);
	base[lb] = 0;
	const char *roll = dot ? find(rollups, N(rollups), dot) : "";
	if (!roll || !(t = base_text(base, one, sizeof one)))
		return NULL;
	if (!roll[0]) {
		snprintf(buf, n, "%s", t);
		return buf;
	}
	/* the base's sentence without its full stop, then the rollup */
	size_t lt = strlen(t);
	snprintf(buf, n, "%.*s, %s.", (int)(lt && t[lt - 1] == '.' ? lt - 1 : lt), t, roll);
	return buf;
}

bool ncu_descriptions_sorted(void)
{
	const struct desc *t[] = {descs, rollups, pipes, stalls};
	size_t n[] = {N(descs), N(rollups), N(pipes), N(stalls)};
	for (size_t k = 0; k < 4; k++)
		for (size_t i = 1; i < n[k]; i++)
			if (strcmp(t[k][i - 1].name, t[k][i].name) >= 0)
				return false;
	return true;
}
