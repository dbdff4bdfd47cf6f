/* sync: where the host blocks on the device; see sync.h. */
#include "hta/sync.h"

#include <stdlib.h>
#include <string.h>

#include "core/radix.h"
#include "core/sort.h"

const char *const hta_sync_patterns[] = {"", ".item()", ".cpu()/.to()", ".nonzero()"};

const char *hta_sync_kind_name(enum hta_sync_kind k)
{
	static const char *const n[] = {"device_sync", "stream_sync", "event_sync", "sync_copy",
					"stream_wait_event"};
	return k < HTA_SYNC_NKINDS ? n[k] : "?";
}

static bool is(const char *s, const char *lit)
{
	return !strcmp(s, lit);
}

/* The kind of a runtime/driver call by name, or -1; *maybe_copy when it
 * blocks only if its copy is to or from pageable memory. */
static int call_kind(const char *s, bool *maybe_copy)
{
	*maybe_copy = false;
	if (is(s, "cudaDeviceSynchronize") || is(s, "hipDeviceSynchronize"))
		return HTA_DEVICE_SYNC;
	if (is(s, "cudaStreamSynchronize") || is(s, "hipStreamSynchronize"))
		return HTA_STREAM_SYNC;
	if (is(s, "cudaEventSynchronize") || is(s, "hipEventSynchronize"))
		return HTA_EVENT_SYNC;
	if (is(s, "cudaStreamWaitEvent") || is(s, "hipStreamWaitEvent"))
		return HTA_STREAM_WAIT;
	if (is(s, "cudaMemcpy") || is(s, "cudaMemset") || is(s, "hipMemcpy") ||
	    is(s, "hipMemset") || is(s, "hipMemcpyWithStream"))
		return HTA_SYNC_COPY;
	if (is(s, "cudaMemcpyAsync") || is(s, "hipMemcpyAsync")) {
		*maybe_copy = true;
		return HTA_SYNC_COPY;
	}
	return -1;
}

/* Whether the call launched a copy to or from pageable host memory (the
 * device event's name says "Pageable", as CUPTI's do). */
static bool pageable(const struct trace *t, const struct tr_links *l, size_t r)
{
	size_t n;
	const uint32_t *d = tr_links_devices(l, r, &n);
	for (size_t i = 0; i < n; i++)
		if (strstr(tr_str(t, t->ev.name[d[i]]), "Pageable"))
			return true;
	return false;
}

static int pattern_of(const char *op, enum hta_sync_kind k)
{
	if (is(op, "aten::item") || is(op, "aten::_local_scalar_dense"))
		return 1;
	if (k == HTA_SYNC_COPY && (is(op, "aten::to") || is(op, "aten::_to_copy") ||
				   is(op, "aten::copy_") || is(op, "aten::cpu")))
		return 2;
	if (is(op, "aten::nonzero"))
		return 3;
	return 0;
}

/* A host event that may hold a call: by track, start, end descending. */
struct span {
	uint32_t track;
	int64_t ts, end;
	uint32_t row;
};

static const struct rx_key span_keys[] = {RX_KEY(struct span, track, RX_U32),
					  RX_KEY(struct span, ts, RX_I64),
					  RX_KEY_DESC(struct span, end, RX_I64)};

/* The innermost span of track holding [a, b], or TR_NONE. */
static uint32_t holder(const struct span *v, size_t n, uint32_t track, int64_t a, int64_t b)
{
	size_t lo = 0, hi = n;
	while (lo < hi) { /* past the last span of (track, ts <= a) */
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].track < track || (v[mid].track == track && v[mid].ts <= a))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && v[i].track == track;)
		if (v[i].end >= b)
			return v[i].row;
	return TR_NONE;
}

/* The calls' places, by (track, ts), with the least end of each one and
 * of those after it on its track: a host event of a track holds some call
 * when a call starts at or after it and the least end from there is at or
 * before its end. Keeping only such events keeps every holder. */
struct callpos {
	uint32_t track;
	int64_t ts, end, min_end;
};

static const struct rx_key callpos_keys[] = {RX_KEY(struct callpos, track, RX_U32),
					     RX_KEY(struct callpos, ts, RX_I64)};

static bool holds_a_call(const struct callpos *c, size_t n, uint32_t track, int64_t ts, int64_t end)
{
	size_t lo = 0, hi = n;
	while (lo < hi) { /* the first call of (track, ts >= ts) */
		size_t mid = lo + (hi - lo) / 2;
		if (c[mid].track < track || (c[mid].track == track && c[mid].ts < ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && c[lo].track == track && c[lo].min_end <= end;
}

static int spans_of(const struct trace *t, enum tr_kind kind, const struct callpos *c, size_t nc,
		    struct span **out, size_t *n)
{
	size_t cap = 0;
	*out = NULL;
	*n = 0;
	for (size_t r = 0; r < t->ev.n; r++) {
		if (t->ev.kind[r] != kind || t->ev.ph[r] != 'X')
			continue;
		int64_t a = t->ev.ts[r], b = a + tr_dur(t, r);
		if (!holds_a_call(c, nc, t->ev.track[r], a, b))
			continue;
		if (*n == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			struct span *p = realloc(*out, ncap * sizeof *p);
			if (!p)
				return -1;
			*out = p;
			cap = ncap;
		}
		(*out)[(*n)++] = (struct span){t->ev.track[r], a, b, (uint32_t)r};
	}
	return rx_sort(*out, *n, sizeof **out, span_keys, 3);
}

/* The calls' places of out->calls, sorted, with their least ends. */
static struct callpos *call_places(const struct trace *t, const struct hta_sync *out)
{
	size_t n = out->ncalls;
	struct callpos *c = malloc((n ? n : 1) * sizeof *c);
	if (!c)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t r = out->calls[i].row;
		c[i] = (struct callpos){.track = t->ev.track[r], .ts = t->ev.ts[r]};
		c[i].end = c[i].ts + out->calls[i].dur_ns;
	}
	if (rx_sort(c, n, sizeof *c, callpos_keys, 2)) {
		free(c);
		return NULL;
	}
	for (size_t i = n; i-- > 0;)
		c[i].min_end =
		    i + 1 < n && c[i + 1].track == c[i].track && c[i + 1].min_end < c[i].end
			? c[i + 1].min_end
			: c[i].end;
	return c;
}

/* The innermost cpu_op and python_function holding each call, and its
 * pattern. */
static int holders(const struct trace *t, struct hta_sync *out)
{
	struct span *ops = NULL, *py = NULL;
	size_t nops = 0, npy = 0;
	struct callpos *c = call_places(t, out);
	int rc = !c || spans_of(t, TR_CPU_OP, c, out->ncalls, &ops, &nops) ||
		 spans_of(t, TR_PYTHON_FUNCTION, c, out->ncalls, &py, &npy);
	for (size_t i = 0; i < out->ncalls && !rc; i++) {
		struct hta_sync_call *x = &out->calls[i];
		int64_t a = t->ev.ts[x->row], b = a + x->dur_ns;
		uint32_t track = t->ev.track[x->row];
		x->op = holder(ops, nops, track, a, b);
		x->py = holder(py, npy, track, a, b);
		if (x->op != TR_NONE)
			x->pattern = (uint8_t)pattern_of(tr_str(t, t->ev.name[x->op]), x->kind);
	}
	free(c);
	free(ops);
	free(py);
	return rc ? -1 : 0;
}

static int calls_of(const struct trace *t, const struct tr_links *l, struct hta_sync *out)
{
	size_t cap = 0;
	for (size_t r = 0; r < t->ev.n; r++) {
		enum tr_kind k = (enum tr_kind)t->ev.kind[r];
		bool maybe;
		if ((k != TR_RUNTIME && k != TR_DRIVER) || t->ev.ph[r] != 'X')
			continue;
		int kind = call_kind(tr_str(t, t->ev.name[r]), &maybe);
		if (kind < 0 || (maybe && !pageable(t, l, r)))
			continue;
		if (out->ncalls == cap) {
			size_t nc = cap ? cap * 2 : 64;
			struct hta_sync_call *p = realloc(out->calls, nc * sizeof *p);
			if (!p)
				return -1;
			out->calls = p;
			cap = nc;
		}
		int64_t d = tr_dur(t, r);
		out->calls[out->ncalls++] = (struct hta_sync_call){.row = (uint32_t)r,
								   .kind = (uint8_t)kind,
								   .dur_ns = d,
								   .op = TR_NONE,
								   .py = TR_NONE};
		if (kind != HTA_STREAM_WAIT) {
			out->blocking++;
			out->blocked_ns += d;
		}
	}
	return out->ncalls ? holders(t, out) : 0;
}

static uint32_t name_or_none(const struct trace *t, uint32_t row)
{
	return row == TR_NONE ? TR_NONE : t->ev.name[row];
}

/* Sites, keyed by (call name, op name, python name, pattern) ids: sort the
 * calls' keys, then run-length. */
struct site_key {
	uint32_t call, op, py, ord;
	uint8_t pattern, kind;
	int64_t dur;
};

static const struct rx_key site_keys[] = {
    RX_KEY(struct site_key, call, RX_U32), RX_KEY(struct site_key, op, RX_U32),
    RX_KEY(struct site_key, py, RX_U32), RX_KEY(struct site_key, pattern, RX_U8)};

static int sites_of(const struct trace *t, struct hta_sync *out)
{
	size_t n = out->ncalls;
	struct site_key *k = malloc((n ? n : 1) * sizeof *k);
	out->sites = malloc((n ? n : 1) * sizeof *out->sites);
	if (!k || !out->sites) {
		free(k);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct hta_sync_call *c = &out->calls[i];
		k[i] = (struct site_key){.call = t->ev.name[c->row],
					 .op = name_or_none(t, c->op),
					 .py = name_or_none(t, c->py),
					 .ord = (uint32_t)i,
					 .pattern = c->pattern,
					 .kind = c->kind,
					 .dur = c->dur_ns};
	}
	int rc = rx_sort(k, n, sizeof *k, site_keys, 4);
	for (size_t i = 0; i < n && !rc;) {
		size_t j = i;
		struct hta_sync_site s = {.call_name = k[i].call,
					  .op_name = k[i].op,
					  .py_name = k[i].py,
					  .kind = k[i].kind,
					  .pattern = k[i].pattern,
					  .max_ns = k[i].dur};
		while (j < n && k[j].call == k[i].call && k[j].op == k[i].op &&
		       k[j].py == k[i].py && k[j].pattern == k[i].pattern) {
			s.count++;
			s.total_ns += k[j].dur;
			s.max_ns = k[j].dur > s.max_ns ? k[j].dur : s.max_ns;
			j++;
		}
		out->sites[out->nsites++] = s;
		i = j;
	}
	free(k);
	if (rc)
		return -1;
	/* by total time, largest first; equal totals keep the key order */
	const struct rx_key by_total[] = {RX_KEY_DESC(struct hta_sync_site, total_ns, RX_I64)};
	return rx_sort(out->sites, out->nsites, sizeof *out->sites, by_total, 1);
}

int hta_sync(const struct trace *t, const struct tr_links *links, struct hta_sync *out,
	     struct err *e)
{
	memset(out, 0, sizeof *out);
	if (calls_of(t, links, out) || sites_of(t, out)) {
		hta_sync_free(out);
		return err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
	}
	return 0;
}

void hta_sync_free(struct hta_sync *s)
{
	free(s->calls);
	free(s->sites);
	memset(s, 0, sizeof *s);
}
