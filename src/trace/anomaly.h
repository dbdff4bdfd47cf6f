/* anomaly: what was wrong with an input, counted, with the byte offset of
 * the first occurrence of each kind.
 *
 * The list is declared once (TR_ANOMALIES); readers bump counters through
 * tr_anomaly_add, commands print the summary and --strict turns any count
 * into an error. Depends on libc only.
 */
#ifndef GP_ANOMALY_H
#define GP_ANOMALY_H

#include <stdint.h>

/* X(id, key, description) */
#define TR_ANOMALIES(X)                                                                            \
	X(AN_NOT_OBJECT, "event_not_object", "event is not a JSON object")                         \
	X(AN_MISSING_PH, "missing_ph", "event without a \"ph\" phase")                             \
	X(AN_MISSING_TS, "missing_ts", "event without a \"ts\" timestamp")                         \
	X(AN_BAD_NUMBER, "bad_number", "number that cannot be read (ts, dur, id or arg)")          \
	X(AN_BAD_FIELD, "bad_field_type", "field with an unexpected type (kept as absent)")        \
	X(AN_NONSTANDARD, "nonstandard_json", "NaN/Infinity, bare N/A or trailing comma")          \
	X(AN_UNMATCHED_B, "unmatched_begin", "B event without its E on the same thread")           \
	X(AN_UNMATCHED_E, "unmatched_end", "E event without an open B on the same thread")         \
	X(AN_ZERO_DUR, "zero_duration", "complete event with zero duration")                       \
	X(AN_NEGATIVE_DUR, "negative_duration", "complete event with negative duration")           \
	X(AN_MISSING_DUR, "missing_duration", "complete (X) event without \"dur\"")                \
	X(AN_ZERO_TS, "zero_timestamp", "event with timestamp 0")                                  \
	X(AN_TIME_RANGE, "time_out_of_range",                                                      \
	  "ts beyond 1933..2116 or dur beyond 36 years (event dropped)")                           \
	X(AN_OVERLAP, "overlap", "events on one thread that overlap without nesting")              \
	X(AN_KERNEL_NO_LAUNCH, "kernel_without_launch",                                            \
	  "GPU kernel with no runtime call of the same correlation id")                            \
	X(AN_FLOW_ONE_END, "flow_one_end", "flow (s/f) whose other end is missing")                \
	X(AN_TRUNCATED, "truncated", "input ends before the trace is complete")                    \
	X(AN_TRAILING_DATA, "trailing_data", "bytes after the end of the trace")                   \
	X(AN_BAD_ESCAPE, "bad_escape", "string with an invalid \\ escape (kept as written)")       \
	X(AN_NUL_IN_STRING, "nul_in_string", "string holding a NUL byte (each read as U+FFFD)")

enum tr_anomaly {
#define X(id, key, desc) id,
	TR_ANOMALIES(X)
#undef X
	    AN_COUNT
};

struct tr_anomalies {
	uint64_t count[AN_COUNT];
	int64_t first_offset[AN_COUNT]; /* -1 when unknown */
};

void tr_anomalies_init(struct tr_anomalies *a);
static inline void tr_anomaly_add(struct tr_anomalies *a, enum tr_anomaly k, int64_t offset)
{
	if (!a->count[k]++)
		a->first_offset[k] = offset;
}
const char *tr_anomaly_key(enum tr_anomaly k);
const char *tr_anomaly_desc(enum tr_anomaly k);
uint64_t tr_anomalies_total(const struct tr_anomalies *a);

#endif
