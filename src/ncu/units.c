/* units: the base unit ncu prints for a metric (`--print-units base`).
 *
 * Reports store no units: ncu takes them from its own metric database. We
 * derive them from NCU's metric naming (unit__counter.rollup.submetric:
 * the counter's noun gives the unit, .pct_of_peak_* gives %, .per_second
 * gives unit/s (cycles: hz), .per_cycle_* and .peak_sustained give
 * unit/cycle), which reproduces 1552 of the 1699 metrics of the golden raw
 * exports in shared/data/ncu; the other 147 are listed as exceptions below
 * (data, from those exports). Unknown metrics fall back to the rules. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncu/ncu.h"

struct unit_exc {
	const char *name, *unit;
};

/* Sorted bytewise by name (checked by the unit tests). */
static const struct unit_exc exceptions[] = {
    {"FE_B.TriageAC.gr__ctas_launched_queue_sync.sum", "block"},
    {"SM_A.TriageAC.l1tex__lsu_writeback_active.avg", "cycle"},
    {"SM_A.TriageAC.sm__cycles_active.avg", "cycle"},
    {"SM_A.TriageAC.sm__inst_executed_realtime.avg.per_cycle_active", "inst/cycle"},
    {"TriageAC.tpc__warps_active_realtime.avg.per_cycle_active", "warp"},
    {"TriageAC.tpc__warps_active_realtime.sum.per_cycle_active", "warp"},
    {"derived__l1tex__lsu_writeback_bytes_mem_lg.sum.peak_sustained", ""},
    {"derived__l1tex__lsu_writeback_bytes_mem_lg.sum.per_second", ""},
    {"derived__local_spilling_requests", ""},
    {"derived__lts__lts2xbar_bytes.sum.peak_sustained", "byte"},
    {"derived__lts__lts2xbar_bytes.sum.per_second", "byte"},
    {"derived__memory_l2_theoretical_sectors_global_excessive", "byte"},
    {"derived__pct_occupancy_per_register_count", "%/register"},
    {"derived__pct_occupancy_per_shared_mem_size", "%/byte"},
    {"derived__sm__sass_thread_inst_executed_op_dfma_pred_on_x2", "thread"},
    {"derived__sm__sass_thread_inst_executed_op_ffma_pred_on_x2", "thread"},
    {"derived__sm__sass_thread_inst_executed_op_hfma_pred_on_x4", "thread"},
    {"derived__smsp__sass_thread_inst_executed_op_dfma_pred_on_x2", "thread"},
    {"derived__smsp__sass_thread_inst_executed_op_ffma_pred_on_x2", "thread"},
    {"derived__smsp__sass_thread_inst_executed_op_hadd_pred_on_x2", "thread"},
    {"derived__smsp__sass_thread_inst_executed_op_hfma_pred_on_x4", "thread"},
    {"derived__smsp__sass_thread_inst_executed_op_hmul_pred_on_x2", "thread"},
    {"device__attribute_max_registers_per_thread", ""},
    {"device__attribute_max_threads_per_block", ""},
    {"device__attribute_max_threads_per_multiprocessor", ""},
    {"device__attribute_max_warps_per_multiprocessor", ""},
    {"device__attribute_max_warps_per_scheduler", ""},
    {"idc__requests.sum", ""},
    {"l1tex__lsu_writeback_active_mem_lg.avg.per_second", "hz"},
    {"l1tex__lsu_writeback_active_mem_lg.max.per_second", "hz"},
    {"l1tex__lsu_writeback_active_mem_lg.min.per_second", "hz"},
    {"l1tex__lsu_writeback_active_mem_lg.sum", "cycle"},
    {"l1tex__lsu_writeback_active_mem_lg.sum.per_second", "hz"},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", ""},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", ""},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", ""},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", ""},
    {"l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", ""},
    {"l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", ""},
    {"l1tex__t_requests_pipe_tex_mem_surface_op_atom.sum", ""},
    {"l1tex__t_requests_pipe_tex_mem_surface_op_ld.sum", ""},
    {"l1tex__t_requests_pipe_tex_mem_surface_op_red.sum", ""},
    {"l1tex__t_requests_pipe_tex_mem_surface_op_st.sum", ""},
    {"l1tex__t_requests_pipe_tex_mem_texture.sum", ""},
    {"l1tex__tex_writeback_active.sum", "cycle"},
    {"launch__block_dim_x", "block"},
    {"launch__block_dim_y", "block"},
    {"launch__block_dim_z", "block"},
    {"launch__occupancy_limit_blocks", "block"},
    {"launch__occupancy_limit_registers", "block"},
    {"launch__occupancy_limit_shared_mem", "block"},
    {"launch__occupancy_limit_warps", "block"},
    {"launch__persisting_l2_cache_size", "byte"},
    {"launch__registers_per_thread", "register/thread"},
    {"launch__registers_per_thread_allocated", "register/thread"},
    {"launch__shared_mem_config_size", "byte"},
    {"launch__shared_mem_per_block", "byte/block"},
    {"launch__shared_mem_per_block_allocated", "byte/block"},
    {"launch__shared_mem_per_block_driver", "byte/block"},
    {"launch__shared_mem_per_block_dynamic", "byte/block"},
    {"launch__shared_mem_per_block_static", "byte/block"},
    {"launch__sm_count", "SM"},
    {"lts__lts2xbar_cycles_active.avg.peak_sustained", ""},
    {"lts__lts2xbar_cycles_active.max.peak_sustained", ""},
    {"lts__lts2xbar_cycles_active.min.peak_sustained", ""},
    {"lts__lts2xbar_cycles_active.sum.peak_sustained", ""},
    {"memory_l1_tag_requests_global", "sectors"},
    {"memory_l1_wavefronts_shared", "sectors"},
    {"memory_l1_wavefronts_shared_ideal", "sectors"},
    {"memory_l2_theoretical_sectors_global", "sectors"},
    {"memory_l2_theoretical_sectors_global_ideal", "sectors"},
    {"memory_l2_theoretical_sectors_local", "sectors"},
    {"profiler__pmsampler_interval_time", "ns"},
    {"profiler__pmsampler_merged_samples", "sample"},
    {"profiler__replayer_passes", "pass"},
    {"profiler__replayer_passes_type_warmup", "pass"},
    {"sass__inst_executed_per_opcode", ""},
    {"sass__inst_executed_per_opcode_category", ""},
    {"sass__inst_executed_per_opcode_with_modifier_all", ""},
    {"sass__inst_executed_per_opcode_with_modifier_selective", ""},
    {"sass__inst_executed_register_spilling_mem_local_op_read", "byte"},
    {"sass__inst_executed_register_spilling_mem_local_op_write", "byte"},
    {"sass__inst_executed_register_spilling_mem_shared_op_read", "byte"},
    {"sass__inst_executed_register_spilling_mem_shared_op_write", "byte"},
    {"sass__thread_inst_executed_per_opcode_category", ""},
    {"sass__thread_inst_executed_true_per_opcode", ""},
    {"sass__thread_inst_executed_true_per_opcode_with_modifier_all", ""},
    {"sass__thread_inst_executed_true_per_opcode_with_modifier_selective", ""},
    {"sm__icc_requests.sum", "cycle"},
    {"sm__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum", ""},
    {"sm__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum", ""},
    {"sm__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum", ""},
    {"sm__warps_active.avg.per_cycle_active", "warp"},
    {"sm__warps_active.max.per_cycle_active", "warp"},
    {"sm__warps_active.min.per_cycle_active", "warp"},
    {"sm__warps_active.sum.per_cycle_active", "warp"},
    {"smsp__average_warp_latency_per_inst_issued.ratio", "cycle"},
    {"smsp__average_warps_active_per_inst_executed.ratio", "cycle"},
    {"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio", "inst"},
    {"smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio", "inst"},
    {"smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio", "inst"},
    {"smsp__average_warps_issue_stalled_drain_per_issue_active.ratio", "inst"},
    {"smsp__average_warps_issue_stalled_imc_miss_per_issue_active.ratio", "inst"},
    {"smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio", "inst"},
    {"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", "inst"},
    {"smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio", "inst"},
    {"smsp__average_warps_issue_stalled_membar_per_issue_active.ratio", "inst"},
    {"smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio", "inst"},
    {"smsp__average_warps_issue_stalled_misc_per_issue_active.ratio", "inst"},
    {"smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio", "inst"},
    {"smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio", "inst"},
    {"smsp__average_warps_issue_stalled_selected_per_issue_active.ratio", "inst"},
    {"smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio", "inst"},
    {"smsp__average_warps_issue_stalled_sleeping_per_issue_active.ratio", "inst"},
    {"smsp__average_warps_issue_stalled_tex_throttle_per_issue_active.ratio", "inst"},
    {"smsp__average_warps_issue_stalled_wait_per_issue_active.ratio", "inst"},
    {"smsp__branch_targets_threads_divergent", "branches"},
    {"smsp__imc_requests.sum", "cycle"},
    {"smsp__pcsamp_aggregated_passes", "pass"},
    {"smsp__pcsamp_warps_issue_stalled_branch_resolving", "branches"},
    {"smsp__pcsamp_warps_issue_stalled_branch_resolving_not_issued", "branches"},
    {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.max_rate", "byte/sector"},
    {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio", "byte/sector"},
    {"smsp__sass_average_data_bytes_per_sector_mem_global_op_st.max_rate", "byte/sector"},
    {"smsp__sass_average_data_bytes_per_sector_mem_global_op_st.ratio", "byte/sector"},
    {"smsp__sass_average_data_bytes_per_sector_mem_local_op_ld.max_rate", "byte/sector"},
    {"smsp__sass_average_data_bytes_per_sector_mem_local_op_ld.ratio", "byte/sector"},
    {"smsp__sass_average_data_bytes_per_sector_mem_local_op_st.max_rate", "byte/sector"},
    {"smsp__sass_average_data_bytes_per_sector_mem_local_op_st.ratio", "byte/sector"},
    {"smsp__sass_branch_targets_threads_divergent.avg", "branches"},
    {"smsp__sass_branch_targets_threads_divergent.max", "branches"},
    {"smsp__sass_branch_targets_threads_divergent.min", "branches"},
    {"smsp__sass_branch_targets_threads_divergent.sum", "branches"},
    {"smsp__sass_inst_executed_memdesc_explicit_evict_type", ""},
    {"smsp__warps_active.avg.peak_sustained", "warp"},
    {"smsp__warps_active.avg.per_cycle_active", "warp"},
    {"smsp__warps_active.max.peak_sustained", "warp"},
    {"smsp__warps_active.max.per_cycle_active", "warp"},
    {"smsp__warps_active.min.peak_sustained", "warp"},
    {"smsp__warps_active.min.per_cycle_active", "warp"},
    {"smsp__warps_active.sum.peak_sustained", "warp"},
    {"smsp__warps_active.sum.per_cycle_active", "warp"},
    {"smsp__warps_eligible.avg.per_cycle_active", "warp"},
    {"smsp__warps_eligible.max.per_cycle_active", "warp"},
    {"smsp__warps_eligible.min.per_cycle_active", "warp"},
    {"smsp__warps_eligible.sum.per_cycle_active", "warp"},
};

/* True when word occurs in s as a whole '_'-separated token. */
static bool has_token(const char *s, size_t n, const char *word)
{
	size_t w = strlen(word);
	for (size_t i = 0; i + w <= n; i++)
		if (!memcmp(s + i, word, w) && (i == 0 || s[i - 1] == '_') &&
		    (i + w == n || s[i + w] == '_'))
			return true;
	return false;
}

static bool has_sub(const char *s, size_t n, const char *word)
{
	size_t w = strlen(word);
	for (size_t i = 0; i + w <= n; i++)
		if (!memcmp(s + i, word, w))
			return true;
	return false;
}

/* word, optionally plural, followed by '_' or the end. */
static bool has_noun(const char *s, size_t n, const char *word)
{
	size_t w = strlen(word);
	for (size_t i = 0; i + w <= n; i++) {
		if (memcmp(s + i, word, w))
			continue;
		size_t j = i + w;
		if (j < n && s[j] == 's')
			j++;
		if (j == n || s[j] == '_')
			return true;
	}
	return false;
}

static const char *counter_unit(const char *c, size_t n)
{
	const char *u = NULL;
	for (size_t i = 0; i + 1 < n; i++)
		if (c[i] == '_' && c[i + 1] == '_') {
			u = c + i + 2;
			break;
		}
	if (u) {
		n -= (size_t)(u - c);
		c = u;
	}
	if (has_token(c, n, "pct"))
		return "%";
	if (has_sub(c, n, "time_duration"))
		return "ns";
	if (has_sub(c, n, "cycles"))
		return "cycle";
	if (has_sub(c, n, "bytes"))
		return "byte";
	if (has_noun(c, n, "sector"))
		return "sector";
	if (has_token(c, n, "inst") || has_sub(c, n, "inst_executed") ||
	    has_sub(c, n, "inst_issued") || has_sub(c, n, "instructions"))
		return "inst";
	if (has_sub(c, n, "warps"))
		return "warp";
	if (has_sub(c, n, "requests"))
		return "request";
	if (has_noun(c, n, "thread"))
		return "thread";
	return "";
}

static bool is_rollup(const char *p, size_t n)
{
	return n == 3 && (!memcmp(p, "sum", 3) || !memcmp(p, "avg", 3) || !memcmp(p, "max", 3) ||
			  !memcmp(p, "min", 3));
}

static bool part_is(const char *p, size_t n, const char *w)
{
	return strlen(w) == n && !memcmp(p, w, n);
}

/* The unit by the naming rules, or NULL with a composed unit ("byte/s")
 * written to buf. */
static const char *rule_unit(const char *name, char *buf, size_t bufn)
{
	const char *dot = strchr(name, '.');
	size_t clen = dot ? (size_t)(dot - name) : strlen(name);
	/* the submetric parts after the counter, rollups dropped */
	const char *rest[8];
	size_t rlen[8], nrest = 0;
	for (const char *p = dot; p && *p == '.';) {
		const char *q = p + 1;
		const char *e = strchr(q, '.');
		size_t n = e ? (size_t)(e - q) : strlen(q);
		if (!strncmp(q, "pct_of_peak", 11) || part_is(q, n, "pct"))
			return "%";
		if (!is_rollup(q, n) && nrest < 8) {
			rest[nrest] = q;
			rlen[nrest++] = n;
		}
		p = e;
	}
	size_t nl = strlen(name);
	if (nl >= 6 && !strcmp(name + nl - 6, ".ratio"))
		return "";
	const char *cu = counter_unit(name, clen);
	if (!nrest)
		return cu;
	const char *per = NULL;
	if (nrest == 1 && part_is(rest[0], rlen[0], "per_second"))
		per = "s";
	else if (part_is(rest[0], rlen[0], "per_cycle_active") ||
		 part_is(rest[0], rlen[0], "per_cycle_elapsed") ||
		 part_is(rest[0], rlen[0], "per_cycle_in_region"))
		per = "cycle";
	else if (!strncmp(rest[0], "peak_sustained", 14)) {
		if (nrest == 1)
			per = "cycle";
		else if (nrest == 2 && part_is(rest[1], rlen[1], "per_second"))
			per = "s";
		else
			return "";
	} else
		return "";
	if (!cu[0])
		return "";
	if (!strcmp(per, "s") && !strcmp(cu, "cycle") && nrest == 1)
		return "hz";
	snprintf(buf, bufn, "%s/%s", cu, per);
	return NULL;
}

static int cmp_exc(const void *k, const void *e)
{
	return strcmp(k, ((const struct unit_exc *)e)->name);
}

const char *ncu_metric_unit(const char *name)
{
	const struct unit_exc *x =
	    bsearch(name, exceptions, sizeof exceptions / sizeof exceptions[0],
		    sizeof exceptions[0], cmp_exc);
	if (x)
		return x->unit;
	/* composed units live in a small per-call table of interned strings:
	 * the set of counter units x denominators is finite */
	static const char *const composed[] = {
	    "%/s",    "%/cycle",    "ns/s",	 "ns/cycle",	  "cycle/s",  "cycle/cycle",
	    "byte/s", "byte/cycle", "sector/s",	 "sector/cycle",  "inst/s",   "inst/cycle",
	    "warp/s", "warp/cycle", "request/s", "request/cycle", "thread/s", "thread/cycle",
	};
	char buf[64];
	const char *u = rule_unit(name, buf, sizeof buf);
	if (u)
		return u;
	for (size_t i = 0; i < sizeof composed / sizeof composed[0]; i++)
		if (!strcmp(composed[i], buf))
			return composed[i];
	return "";
}

/* The details page prints a different unit than the raw page for a few
 * warp-stall sampling metrics (seen in the NCU 2025.4 details export: the
 * membar stall in "byte", the no-instruction stall in "warp"); these
 * overrides apply to details rows only. */
const char *ncu_detail_unit(const char *name)
{
	static const struct unit_exc details[] = {
	    {"smsp__pcsamp_warps_issue_stalled_membar", "byte"},
	    {"smsp__pcsamp_warps_issue_stalled_membar_not_issued", "byte"},
	    {"smsp__pcsamp_warps_issue_stalled_no_instructions", "warp"},
	    {"smsp__pcsamp_warps_issue_stalled_no_instructions_not_issued", "warp"},
	};
	for (size_t i = 0; i < sizeof details / sizeof details[0]; i++)
		if (!strcmp(details[i].name, name))
			return details[i].unit;
	return ncu_metric_unit(name);
}

/* ncu's default (auto) units: decimal prefixes chosen so that the largest
 * magnitude shown stays below 1000. byte-based units scale the numerator
 * (Kbyte, Mbyte/s, Kbyte/block), hz and ns scale themselves (Khz..Thz,
 * us/ms/s), other per-second rates scale the denominator (sector/ms,
 * sector/us, sector/ns); every other unit stays as it is. */
const char *ncu_auto_unit(const char *base, double maxabs, double *div, char *buf, size_t n)
{
	static const char pre[] = "KMGTP";
	*div = 1;
	if (!base || !base[0] || !(maxabs >= 1000) || isinf(maxabs))
		return base ? base : "";
	int steps = 0, max_steps;
	bool bytes = !strncmp(base, "byte", 4), hz = !strcmp(base, "hz"), ns = !strcmp(base, "ns");
	size_t len = strlen(base);
	bool rate = !bytes && len > 2 && !strcmp(base + len - 2, "/s");
	if (bytes || hz)
		max_steps = 5;
	else if (ns || rate)
		max_steps = 3;
	else
		return base;
	while (steps < max_steps && maxabs / (*div * 1000) >= 1) {
		*div *= 1000;
		steps++;
	}
	if (bytes)
		snprintf(buf, n, "%cbyte%s", pre[steps - 1], base + 4);
	else if (hz)
		snprintf(buf, n, "%chz", pre[steps - 1]);
	else if (ns)
		snprintf(buf, n, "%s", steps == 1 ? "us" : steps == 2 ? "ms" : "s");
	else
		snprintf(buf, n, "%.*s/%s", (int)(len - 2), base,
			 steps == 1   ? "ms"
			 : steps == 2 ? "us"
				      : "ns");
	return buf;
}
