/* dist_util: the distributed view's small rules (worker names, element
 * sizes, message bytes, tb's averages); see dist.h. The "Input Dims" text
 * is read by a few lines of scanning rather than the trace tokenizer: it
 * is already known to be valid JSON (the importer stored it raw), and only
 * nested arrays of integers matter here. */
#include "trace/argtext.h"
#include "tbprof/dist.h"

#include <stdio.h>
#include <string.h>

static bool ends_with(const char *s, size_t len, const char *suf)
{
	size_t n = strlen(suf);
	return len >= n && !memcmp(s + len - n, suf, n);
}

void dist_worker_name(const char *path, char *buf, size_t n)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t len = strlen(base);
	if (ends_with(base, len, ".pt.trace.json") || ends_with(base, len, ".pt.trace.json.gz")) {
		len -= ends_with(base, len, ".gz") ? 17 : 14;
		/* the span: group 1 is lazy, so a trailing ".digits" is always
		 * the span (and ".123.pt.trace.json" is worker "") */
		size_t d = len;
		while (d > 0 && base[d - 1] >= '0' && base[d - 1] <= '9')
			d--;
		if (d < len && d > 0 && base[d - 1] == '.')
			len = d - 1;
	} else if (ends_with(base, len, ".json.gz")) {
		len -= 8;
	} else if (ends_with(base, len, ".json")) {
		len -= 5;
	} else if (ends_with(base, len, ".gz")) {
		len -= 3;
	}
	snprintf(buf, n, "%.*s", (int)len, base);
}

const char *dist_nth_name(const char *list, int i, char *buf, size_t n)
{
	const char *p = list;
	for (int k = 0; k < i; k++) {
		p = strchr(p, ',');
		if (!p)
			return NULL;
		p++;
	}
	size_t len = strcspn(p, ",");
	snprintf(buf, n, "%.*s", (int)len, p);
	return buf;
}

bool dist_names_fit(const char *list, int count)
{
	char b[2];
	return count > 0 && dist_nth_name(list, count - 1, b, sizeof b) &&
	       !dist_nth_name(list, count, b, sizeof b);
}

bool dist_node_process(const char *worker, char *node, size_t nn, char *process, size_t np)
{
	/* ^(.*)_(\d+): greedy group 1, so the last '_' followed by a digit;
	 * the digits run as far as they go (the pattern is not anchored at
	 * the end) */
	const char *best = NULL;
	for (const char *p = worker; (p = strchr(p, '_')) != NULL; p++)
		if (p[1] >= '0' && p[1] <= '9')
			best = p;
	if (!best)
		return false;
	size_t d = 1;
	while (best[d] >= '0' && best[d] <= '9')
		d++;
	snprintf(node, nn, "%.*s", (int)(best - worker), worker);
	snprintf(process, np, "%.*s", (int)(d - 1), best + 1);
	return true;
}

static void skip_string(struct tr_cur *c) /* at the opening quote */
{
	for (c->p++; c->p < c->end && *c->p != '"';)
		c->p += *c->p == '\\' ? 2 : 1;
	c->p++;
}

/* After an opening bracket: skips to just past its closing one. */
static void skip_to_close(struct tr_cur *c)
{
	int depth = 1;
	while (c->p < c->end && depth) {
		char ch = *c->p;
		if (ch == '"') {
			skip_string(c);
			continue;
		}
		depth += ch == '[' || ch == '{';
		depth -= ch == ']' || ch == '}';
		c->p++;
	}
}

/* Skips one value of any kind. */
static void skip_value(struct tr_cur *c)
{
	tr_cur_ws(c);
	if (c->p >= c->end)
		return;
	if (*c->p == '"') {
		skip_string(c);
	} else if (*c->p == '[' || *c->p == '{') {
		c->p++;
		skip_to_close(c);
	} else {
		while (c->p < c->end && *c->p != ',' && *c->p != ']' && *c->p != '}')
			c->p++;
	}
}

/* Reads a non-negative integer; false (nothing consumed) otherwise. */
static bool read_uint(struct tr_cur *c, int64_t *v)
{
	tr_cur_ws(c);
	const char *p = c->p;
	int64_t x = 0;
	while (p < c->end && *p >= '0' && *p <= '9') {
		if (x > (INT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (*p++ - '0');
	}
	if (p == c->p || (p < c->end && (*p == '.' || *p == 'e' || *p == 'E')))
		return false;
	c->p = p;
	*v = x;
	return true;
}

static int64_t mul_sat(int64_t a, int64_t b)
{
	int64_t r;
	return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

static int64_t add_sat(int64_t a, int64_t b)
{
	int64_t r;
	return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

/* The element count of one "Input Dims" entry at c: a flat list gives its
 * product ([] is a scalar: 1); a list of flat lists gives the sum of their
 * products unless tb_only; anything else 0. Consumes the entry. */
static int64_t entry_elems(struct tr_cur *c, bool tb_only)
{
	tr_cur_ws(c);
	if (!tr_cur_eat(c, '['))
		goto other;
	if (tr_cur_eat(c, ']'))
		return 1;
	tr_cur_ws(c);
	int64_t prod = 1, sum = 0, v;
	bool nested = c->p < c->end && *c->p == '[';
	for (;;) {
		if (nested) {
			if (tb_only)
				break;
			int64_t inner = entry_elems(c, true);
			sum = add_sat(sum, inner);
		} else {
			if (!read_uint(c, &v))
				break;
			prod = mul_sat(prod, v);
		}
		if (tr_cur_eat(c, ','))
			continue;
		if (tr_cur_eat(c, ']'))
			return nested ? sum : prod;
		break;
	}
	skip_to_close(c); /* not a shape: the rest of this list */
	return 0;
other:
	skip_value(c);
	return 0;
}

/* The next string of a JSON array of strings at c (after '[' or ','):
 * returns its text (escapes left as written) or NULL for a non-string. */
static const char *next_string(struct tr_cur *c, size_t *len)
{
	tr_cur_ws(c);
	if (c->p >= c->end || *c->p != '"') {
		skip_value(c);
		return NULL;
	}
	const char *s = ++c->p;
	while (c->p < c->end && *c->p != '"')
		c->p += *c->p == '\\' ? 2 : 1;
	*len = (size_t)((c->p < c->end ? c->p : c->end) - s);
	c->p++;
	return s;
}

int64_t dist_input_bytes(const char *dims, size_t dims_len, const char *types, size_t types_len,
			 bool tb_only)
{
	struct tr_cur d = {dims, dims + dims_len}, t = {types, types + types_len};
	if (!dims_len || !tr_cur_eat(&d, '[') || tr_cur_eat(&d, ']'))
		return 0;
	bool types_ok = types_len && tr_cur_eat(&t, '[') && !tr_cur_eat(&t, ']');
	int64_t total = 0;
	for (;;) {
		int64_t n = entry_elems(&d, tb_only);
		size_t tl = 0;
		const char *ts = types_ok ? next_string(&t, &tl) : NULL;
		if (ts)
			total = add_sat(total, mul_sat(n, tr_dtype_size(ts, tl, tb_only)));
		if (types_ok && !tr_cur_eat(&t, ','))
			types_ok = false; /* fewer types than inputs: the rest count 0 */
		if (!tr_cur_eat(&d, ','))
			break;
	}
	return total;
}

int64_t dist_avg_trunc(int64_t sum, int64_t n, bool compat)
{
	if (n <= 0)
		return 0;
	if (compat)
		return sum / (n * 1000) * 1000; /* C division truncates, as int() */
	return sum / n;
}

int64_t dist_avg_round(int64_t sum, int64_t n, bool us)
{
	if (n <= 0)
		return 0;
	int64_t unit = us ? 1000 : 1, d = n * unit;
	int64_t q = sum / d, rem = sum % d;
	if (rem < 0) { /* floor division */
		q--;
		rem += d;
	}
	if (2 * rem > d || (2 * rem == d && (q & 1)))
		q++;
	return q * unit;
}
