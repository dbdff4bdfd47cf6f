/* dist_util: the distributed view's small rules (worker names, element
 * sizes, message bytes, tb's averages); see dist.h. The "Input Dims" text
 * is read by a few lines of scanning rather than the trace tokenizer: it
 * is already known to be valid JSON (the importer stored it raw), and only
 * nested arrays of integers matter here. */
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

static const struct {
	const char *name;
	int size;
	bool tb; /* in the reference's table */
} elem_sizes[] = {
    {"long int", 8, true},
    {"float", 4, true},
    {"int", 4, true},
    {"c10::Half", 2, true},
    {"c10::BFloat16", 2, true},
    {"unsigned char", 1, true},
    /* "Input type" names of newer PyTorch and the ScalarType names that
     * record_param_comms writes as "dtype" */
    {"long", 8, false},
    {"long long", 8, false},
    {"double", 8, false},
    {"short", 2, false},
    {"signed char", 1, false},
    {"bool", 1, false},
    {"c10::complex<float>", 8, false},
    {"c10::complex<double>", 16, false},
    {"c10::complex<c10::Half>", 4, false},
    {"c10::Float8_e4m3fn", 1, false},
    {"c10::Float8_e5m2", 1, false},
    {"c10::Float8_e4m3fnuz", 1, false},
    {"c10::Float8_e5m2fnuz", 1, false},
    {"Float", 4, false},
    {"Double", 8, false},
    {"Half", 2, false},
    {"BFloat16", 2, false},
    {"Long", 8, false},
    {"Int", 4, false},
    {"Short", 2, false},
    {"Char", 1, false},
    {"Byte", 1, false},
    {"Bool", 1, false},
    {"ComplexFloat", 8, false},
    {"ComplexDouble", 16, false},
    {"Float8_e4m3fn", 1, false},
    {"Float8_e5m2", 1, false},
};

int dist_elem_size(const char *type, size_t len, bool tb_only)
{
	for (size_t i = 0; i < sizeof elem_sizes / sizeof elem_sizes[0]; i++)
		if ((elem_sizes[i].tb || !tb_only) && strlen(elem_sizes[i].name) == len &&
		    !memcmp(elem_sizes[i].name, type, len))
			return elem_sizes[i].size;
	return 0;
}

/* A cursor over raw JSON text. */
struct cur {
	const char *p, *end;
};

static void ws(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\n' || *c->p == '\r' || *c->p == '\t'))
		c->p++;
}

static bool eat(struct cur *c, char ch)
{
	ws(c);
	if (c->p < c->end && *c->p == ch) {
		c->p++;
		return true;
	}
	return false;
}

static void skip_string(struct cur *c) /* at the opening quote */
{
	for (c->p++; c->p < c->end && *c->p != '"';)
		c->p += *c->p == '\\' ? 2 : 1;
	c->p++;
}

/* After an opening bracket: skips to just past its closing one. */
static void skip_to_close(struct cur *c)
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
static void skip_value(struct cur *c)
{
	ws(c);
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
static bool read_uint(struct cur *c, int64_t *v)
{
	ws(c);
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
static int64_t entry_elems(struct cur *c, bool tb_only)
{
	ws(c);
	if (!eat(c, '['))
		goto other;
	if (eat(c, ']'))
		return 1;
	ws(c);
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
		if (eat(c, ','))
			continue;
		if (eat(c, ']'))
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
static const char *next_string(struct cur *c, size_t *len)
{
	ws(c);
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
	struct cur d = {dims, dims + dims_len}, t = {types, types + types_len};
	if (!dims_len || !eat(&d, '[') || eat(&d, ']'))
		return 0;
	bool types_ok = types_len && eat(&t, '[') && !eat(&t, ']');
	int64_t total = 0;
	for (;;) {
		int64_t n = entry_elems(&d, tb_only);
		size_t tl = 0;
		const char *ts = types_ok ? next_string(&t, &tl) : NULL;
		if (ts)
			total = add_sat(total, mul_sat(n, dist_elem_size(ts, tl, tb_only)));
		if (types_ok && !eat(&t, ','))
			types_ok = false; /* fewer types than inputs: the rest count 0 */
		if (!eat(&d, ','))
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
