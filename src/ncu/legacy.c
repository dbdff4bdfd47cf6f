/* legacy: the metric names of Nsight Compute 2019.x-2020.x reports taken
 * with the legacy metric set (GPUs before Volta/Turing, e.g. Pascal),
 * mapped to the modern names the kernel table reads. Nsight Compute's own
 * rules of those versions read the legacy names below where the modern
 * ones are missing (SOLBottleneck: sm__sol_pct, gpu__compute_memory_sol_pct;
 * Occupancy: sm__active_warps_avg_per_active_cycle_pct). One table, listed
 * in docs/ncu.md ("Legacy metric names"). */
#include <string.h>

#include "ncu/ncu.h"

static const struct {
	const char *modern, *legacy;
} legacy_names[] = {
    {"gpu__time_duration.sum", "gpu__time_duration"},
    {"sm__throughput.avg.pct_of_peak_sustained_elapsed", "sm__sol_pct"},
    {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
     "gpu__compute_memory_sol_pct"},
    {"sm__warps_active.avg.pct_of_peak_sustained_active",
     "sm__active_warps_avg_per_active_cycle_pct"},
};

const char *ncu_legacy_name(const char *modern, size_t k)
{
	for (size_t i = 0; i < sizeof legacy_names / sizeof legacy_names[0]; i++)
		if (!strcmp(legacy_names[i].modern, modern) && k-- == 0)
			return legacy_names[i].legacy;
	return NULL;
}

const struct ncu_metric *ncu_lookup_column(struct ncu_report *r, size_t idx, const char *modern)
{
	const struct ncu_metric *m = ncu_lookup(r, idx, modern);
	const char *old;
	for (size_t k = 0; !m && (old = ncu_legacy_name(modern, k)); k++)
		m = ncu_lookup(r, idx, old);
	return m;
}
