/* fuzz_ncu: libFuzzer target for the Nsight Compute report reader. Any
 * bytes must give a report or an error with an offset, never a crash, a
 * hang or unbounded memory; a parsed report is walked through every page
 * (raw columns, lookups, details rows, value formatting, markup). */
#include <stdint.h>
#include <stdio.h>

#include "ncu/ncu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void sink(void *ctx, const struct ncu_detail_row *row)
{
	size_t *n = ctx;
	*n += row->value ? 1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ncu_report *r;
	struct err e;
	if (ncu_parse(&r, data, size, "fuzz", 1, &e)) {
		if (e.offset < -1 || e.offset > (int64_t)size)
			__builtin_trap();
		return 0;
	}
	const char **cols;
	size_t n, rows = 0;
	char buf[256];
	if (!ncu_raw_columns(r, SIZE_MAX, &cols, &n))
		for (size_t i = 0; i < r->nresults; i++)
			for (size_t k = 0; k < n; k++) {
				const struct ncu_metric *m = ncu_lookup(r, i, cols[k]);
				(void)ncu_fmt_value(m ? &m->value : NULL, buf, sizeof buf);
				(void)ncu_metric_unit(cols[k]);
			}
	for (size_t i = 0; i < r->nresults; i++) {
		struct ncu_ident id;
		ncu_result_ident(r, i, &id);
		ncu_details(r, i, NULL, sink, &rows);
		/* the kernel table's columns, legacy names included */
		static const char *const fixed[] = {
		    "gpu__time_duration.sum", "sm__throughput.avg.pct_of_peak_sustained_elapsed",
		    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
		    "sm__warps_active.avg.pct_of_peak_sustained_active"};
		for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++) {
			const struct ncu_metric *m = ncu_lookup_column(r, i, fixed[k]);
			(void)ncu_fmt_value(m ? &m->value : NULL, buf, sizeof buf);
		}
	}
	ncu_free(r);
	return 0;
}
