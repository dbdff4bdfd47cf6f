/* srv_slice: see srv_slice.h. */
#include "server/srv_slice.h"

#include <stdio.h>
#include <stdlib.h>

#include "kineto/pass.h"
#include "trace/window.h"

int srv_slice(const char *src, const struct trace *t, const struct trace *sel, struct ses *ses,
	      const struct srv_trace_opts *o, char **buf, size_t *len, struct err *e)
{
	*buf = NULL;
	*len = 0;
	const struct trace *shown = sel ? sel : t;
	bool some = shown->min_ts <= shown->max_end;
	int64_t lo = some ? shown->min_ts : 0, hi = some ? shown->max_end : 0;
	int64_t start = lo, end = hi + 1; /* zero-length events at the end included */
	bool windowed = o->has_a || o->has_b;
	if ((o->has_a && __builtin_add_overflow(lo, o->a, &start)) ||
	    (o->has_b && __builtin_add_overflow(lo, o->b, &end)))
		return err_set(e, ERR_USAGE, NULL, -1, "start_ns or end_ns is out of range");
	if (windowed && end <= start)
		return err_set(e, ERR_USAGE, NULL, -1,
			       "the window is empty: end_ns must be after start_ns");
	struct trace *cut = NULL;
	int rc = 0;
	if (windowed) {
		const struct tr_links *l = NULL;
		rc = ses && !sel ? ses_links(ses, true, &l, e) : 0;
		if (!rc)
			rc = tr_window((struct trace *)shown, l, start, end, &cut, e);
	}
	FILE *out = rc ? NULL : open_memstream(buf, len);
	if (!rc && !out)
		rc = err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	struct kpass_info info;
	if (!rc)
		rc = kpass_slice(src, t, cut ? cut : sel, false, out, &info, e);
	if (out && fclose(out) && !rc)
		rc = err_set(e, ERR_NOMEM, NULL, -1, "could not write the trace");
	tr_window_release(cut);
	if (rc) {
		free(*buf);
		*buf = NULL;
		*len = 0;
		if (rc == ERR_USAGE) /* only the window's own messages are the caller's 400 */
			rc = ERR_IO;
	}
	return rc;
}
