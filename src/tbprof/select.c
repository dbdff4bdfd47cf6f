/* select: the --step / --range selectors; see select.h. Moved here from the
 * CLI's loader so that the server cuts traces by the same rules. */
#include "tbprof/select.h"

#include <stdlib.h>
#include <string.h>

#include "trace/link.h"
#include "tbprof/session.h"
#include "tbprof/steps.h"
#include "trace/window.h"

int tr_parse_steps(const char *s, int64_t *a, int64_t *b)
{
	char *end;
	long long x = strtoll(s, &end, 10);
	if (end == s || x < 0)
		return -1;
	long long y = x;
	if (*end == '-') {
		const char *s2 = end + 1;
		y = strtoll(s2, &end, 10);
		if (end == s2 || y < x)
			return -1;
	}
	if (*end)
		return -1;
	*a = x;
	*b = y;
	return 0;
}

/* The first user annotation (or CPU operator) named range. */
static int range_bounds(const struct trace *t, const char *range, int64_t *t0, int64_t *t1,
			struct err *e)
{
	size_t len = strlen(range);
	for (size_t r = 0; r < t->ev.n; r++) {
		enum tr_kind k = (enum tr_kind)t->ev.kind[r];
		if ((k != TR_USER_ANNOTATION && k != TR_CPU_OP) ||
		    strpool_len(&t->pool, t->ev.name[r]) != len ||
		    memcmp(tr_str(t, t->ev.name[r]), range, len))
			continue;
		if (t->ev.ts[r] < *t0 || *t0 == INT64_MAX) {
			*t0 = t->ev.ts[r];
			*t1 = t->ev.ts[r] + tr_dur(t, r);
		}
	}
	if (*t0 == INT64_MAX)
		return err_set(e, ERR_USAGE, t->path, -1, "--range: no user annotation named '%s'",
			       range);
	return 0;
}

int tr_select_bounds(struct ses *ses, const char *step, const char *range, int64_t *t0, int64_t *t1,
		     struct err *e)
{
	const struct trace *t = ses_trace(ses);
	*t0 = INT64_MAX;
	*t1 = INT64_MIN;
	if (step && range)
		return err_set(e, ERR_USAGE, NULL, -1, "give --step or --range, not both");
	if (range)
		return range_bounds(t, range, t0, t1, e);
	int64_t a, b;
	if (!step || tr_parse_steps(step, &a, &b))
		return err_set(e, ERR_USAGE, NULL, -1,
			       "--step takes a step number N or a range A-B, not '%s'",
			       step ? step : "");
	const struct st_result *sr;
	int rc = ses_step_bounds(ses, &sr, e);
	if (rc)
		return rc;
	const struct st_result s = *sr;
	for (size_t i = 0; i < s.n; i++) {
		const struct st_step *st = &s.steps[i];
		if (st->number < a || st->number > b)
			continue;
		int64_t lo = st->start < st->host_start ? st->start : st->host_start;
		int64_t hi = st->end > st->host_end ? st->end : st->host_end;
		*t0 = lo < *t0 ? lo : *t0;
		*t1 = *t1 == INT64_MIN || hi > *t1 ? hi : *t1;
	}
	if (*t0 == INT64_MAX) {
		if (s.n)
			rc = err_set(
			    e, ERR_USAGE, t->path, -1, "--step: no step %s (steps %lld to %lld)",
			    step, (long long)s.steps[0].number, (long long)s.steps[s.n - 1].number);
		else
			rc = err_set(e, ERR_USAGE, t->path, -1, "--step: the trace has no steps");
	}
	return rc;
}

int tr_select(struct trace *t, struct ses *ses, const char *step, const char *range,
	      struct trace **out, struct err *e)
{
	*out = NULL;
	struct ses *own = NULL;
	int rc = ses ? 0 : ses_new(t, &own, e);
	if (rc)
		return rc;
	if (!ses)
		ses = own;
	int64_t t0, t1;
	const struct tr_links *l = NULL;
	rc = tr_select_bounds(ses, step, range, &t0, &t1, e);
	if (!rc)
		rc = ses_links(ses, true, &l, e);
	/* the window is half-open: an end equal to the last event's end keeps it */
	if (!rc)
		rc = tr_window(t, l, t0, t1 + 1, out, e);
	ses_free(own);
	return rc;
}
