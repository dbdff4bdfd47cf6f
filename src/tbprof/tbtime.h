/* tbtime: an event's times as torch-tb-profiler holds them. The plugin
 * reads `ts` and `dur` with Python's json module: a decimal becomes the
 * nearest float64 (µs), an integer stays exact, and every end is the float
 * sum ts + dur, every duration a float difference end - start. On traces
 * whose timestamps are large (epoch-based µs with ns decimals, ~1.7e15,
 * where a float64 holds multiples of 0.25 µs) this moves starts and ends
 * by up to 0.125 µs each, so operator and kernel times differ from the
 * exact ones (docs/tb-compat.md gives the measured size).
 *
 * tb_span is the one place that decides an event's [start, end) for the
 * tb analyses: exact ns, or under tb_compat the plugin's floats written
 * back as ns (to the nearest ns, exact whenever the float is a whole number
 * of ns, as it always is above 2^43 µs). Sums and differences of those
 * values are then the plugin's float sums whenever they are exact in
 * float64 (always for timestamps above 2^43 µs); on smaller timestamps the
 * plugin's sub-ns residue is not reproduced. Depends on trace/trace. */
#ifndef GP_TBTIME_H
#define GP_TBTIME_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "trace/trace.h"

/* The float64 of the trace's decimal text for a value of ns nanoseconds
 * (ns / 1000 µs, correctly rounded for |ns| < 2^53, and within the
 * rounding of the fraction above). */
static inline double tb_us(int64_t ns)
{
	if (ns > -(INT64_C(1) << 53) && ns < (INT64_C(1) << 53))
		return (double)ns / 1000.0;
	return (double)(ns / 1000) + (double)(ns % 1000) / 1000.0;
}

/* A float µs value back to ns, to the nearest ns (exact split into the
 * whole µs, which a float64 above 2^53 µs cannot hold fractions of, and the
 * fraction). */
static inline int64_t tb_ns(double us)
{
	double whole = trunc(us);
	return (int64_t)whole * 1000 + (int64_t)llround((us - whole) * 1000.0);
}

struct tb_span {
	int64_t start, end; /* ns */
};

/* The event row's start and end: exact, or tb's floats under compat. */
static inline struct tb_span tb_span(const struct trace *t, size_t row, bool compat)
{
	int64_t s = t->ev.ts[row], d = tr_dur(t, row);
	if (!compat)
		return (struct tb_span){s, s + d};
	double fs = tb_us(s);
	return (struct tb_span){tb_ns(fs), tb_ns(fs + tb_us(d))};
}

/* The event row's duration as tb computes it (end - start). */
static inline int64_t tb_dur(const struct trace *t, size_t row, bool compat)
{
	struct tb_span sp = tb_span(t, row, compat);
	return sp.end - sp.start;
}

#endif
