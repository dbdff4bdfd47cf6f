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
 * tb analyses: exact ns, or under tb_compat the plugin's floats as ns where
 * they are whole ns. Sums and differences of those values are the plugin's
 * float sums as long as they stay exact in float64 (multiples of 0.125 µs
 * below 2^50 µs are). On smaller timestamps (below 2^49 µs a float64 of a
 * 3-decimal value is off the ns by up to half its spacing, 2^-13 µs at
 * 1.4e12) tb_span keeps the exact ns, and the numbers tb's residue
 * moves are computed in its floats and shown through tb_ns_shown: the
 * Operator view's four times and the kernel + op table (their floats
 * added), the step breakdown (its ranges in tb_unit's units). Depends on
 * trace/trace. */
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

/* A float µs value as ns, when it is a whole number of ns (*ns set, true):
 * split into the whole µs and the fraction, both exact in float64. */
static inline bool tb_ns(double us, int64_t *ns)
{
	double whole = trunc(us), frac = (us - whole) * 1000.0;
	if (frac != rint(frac))
		return false;
	*ns = (int64_t)whole * 1000 + (int64_t)frac;
	return true;
}

/* A time tb holds as a float64 µs value and shows rounded to whole µs
 * (Python's round: half to even), as ns for our tables: the nearest ns,
 * moved by one where that is needed for the ns rounded to whole µs (half
 * to even) to give tb's number (a float within half a ns of a half µs,
 * e.g. 788.50049 µs, which tb shows as 789). */
static inline int64_t tb_ns_shown(double us)
{
	int64_t n = llround(us * 1000.0), want = (int64_t)rint(us);
	int64_t q = n / 1000, r = n % 1000;
	if (r < 0) {
		r += 1000;
		q--;
	}
	if (r > 500 || (r == 500 && (q & 1)))
		q++;
	return q == want ? n : n + (want > q ? 1 : -1);
}

struct tb_span {
	int64_t start, end; /* ns */
};

/* tb_span's float path (start s, duration d, ns). */
static __attribute__((noinline, unused)) struct tb_span tb_span_compat(int64_t s, int64_t d)
{
	struct tb_span f;
	double fs = tb_us(s);
	if (tb_ns(fs, &f.start) && tb_ns(fs + tb_us(d), &f.end))
		return f;
	return (struct tb_span){s, s + d};
}

/* The event row's start and end: exact, or under compat tb's floats where
 * both are whole ns (always on timestamps of 2^49 µs or more, where a
 * float64 holds multiples of 0.125 µs); where a float holds fractions of a
 * ns (smaller timestamps) the exact times, which tb's floats are within
 * half a ns of. The exact path is
 * kept small so that it inlines into the analyses' per-event loops. */
static inline __attribute__((always_inline)) struct tb_span tb_span(const struct trace *t,
								    size_t row, bool compat)
{
	int64_t s = t->ev.ts[row], d = tr_dur(t, row);
	if (!compat)
		return (struct tb_span){s, s + d};
	return tb_span_compat(s, d);
}

/* The same with a negative duration counted as 0 (the step, role and
 * distributed ranges). */
static inline struct tb_span tb_span_clamped(const struct trace *t, size_t row, bool compat)
{
	struct tb_span sp = tb_span(t, row, compat);
	if (sp.end < sp.start)
		sp.end = sp.start;
	return sp;
}

/* Interval arithmetic in tb's floats, for timestamps below 2^49 µs where
 * they are not whole ns: every float64 of at least 2^(k + 52) µs is a
 * whole multiple of 2^k µs, so the trace's starts and ends (all in binades
 * at or above its first timestamp's) count exactly as integers in units
 * of 2^k µs, and their differences and sums (below 2^53 units) are tb's
 * float results exactly. tb_unit gives k (negative) for a trace whose
 * times lie in [2^30, 2^49) µs, else 0 (exact or float-as-ns times:
 * tb_span). */
static inline int tb_unit(const struct trace *t)
{
	if (t->min_ts == INT64_MAX || t->min_ts < (INT64_C(1000) << 30) ||
	    t->max_end >= (INT64_C(1000) << 49))
		return 0;
	int e, emax;
	frexp(tb_us(t->min_ts), &e);	 /* the first timestamp in [2^(e-1), 2^e) */
	frexp(tb_us(t->max_end), &emax); /* every time below 2^emax */
	int unit = e - 1 - 52;
	return emax - unit <= 61 ? unit : 0; /* every count of units fits an int64 */
}

/* Row r's start and end (a negative duration counted as 0) in units of
 * 2^unit µs (tb_unit), and a count of units as tb's float µs. */
static inline int64_t tb_unit_start(const struct trace *t, size_t r, int unit)
{
	return (int64_t)ldexp(tb_us(t->ev.ts[r]), -unit);
}

static inline int64_t tb_unit_end(const struct trace *t, size_t r, int unit)
{
	int64_t d = tr_dur(t, r);
	double s = tb_us(t->ev.ts[r]);
	return (int64_t)ldexp(d > 0 ? s + tb_us(d) : s, -unit);
}

static inline double tb_unit_us(int64_t v, int unit)
{
	return ldexp((double)v, unit);
}

/* The event row's duration in tb's float64 µs: (ts + dur) - ts. */
static inline double tb_fdur(const struct trace *t, size_t row)
{
	double s = tb_us(t->ev.ts[row]);
	return (s + tb_us(tr_dur(t, row))) - s;
}

/* The event row's duration as tb computes it (end - start). */
static inline int64_t tb_dur(const struct trace *t, size_t row, bool compat)
{
	struct tb_span sp = tb_span(t, row, compat);
	return sp.end - sp.start;
}

#endif
