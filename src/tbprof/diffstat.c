/* diffstat: see diffstat.h. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cmp.h"
#include "core/radix.h"
#include "core/sort.h"
#include "tbprof/diffstat.h"

void ds_sort(int64_t *v, size_t n)
{
	static const struct rx_key key = {0, RX_I64, false};
	/* a long sample by the radix sort (a few linear passes, but a fixed
	 * cost of its histograms that a short one does not repay); a short
	 * one, or one whose scratch copy cannot be had, by the comparator */
	if (n > 1 && (n < 1024 || rx_sort(v, n, sizeof *v, &key, 1)))
		gp_qsort(v, n, sizeof *v, cmp_i64);
}

static bool sorted(const int64_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (v[i] < v[i - 1])
			return false;
	return true;
}

/* Largest product na * nb for the exact distribution (its coefficients). */
#define DS_EXACT_MAX 1000000

/* P(U >= u) under the null for sizes m, n without ties: the number of
 * arrangements with U = k is the coefficient of q^k of the Gaussian
 * binomial [m + n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i). */
static int exact_sf(size_t m, size_t n, double u, double *out)
{
	size_t deg = m * n;
	double *c = calloc(deg + 1, sizeof *c);
	if (!c)
		return -1;
	c[0] = 1;
	for (size_t i = 1; i <= m; i++) {
		for (size_t k = deg; k >= n + i; k--) /* × (1 - q^(n+i)) */
			c[k] -= c[k - n - i];
		for (size_t k = i; k <= deg; k++) /* ÷ (1 - q^i) */
			c[k] += c[k - i];
	}
	double total = 0, tail = 0;
	for (size_t k = 0; k <= deg; k++) {
		total += c[k];
		if ((double)k >= u - 1e-9)
			tail += c[k];
	}
	free(c);
	*out = tail / total;
	return 0;
}

struct ds_item {
	int64_t v;
	bool in_a;
};

static int cmp_item(const void *x, const void *y)
{
	const struct ds_item *a = x, *b = y;
	return (a->v > b->v) - (a->v < b->v);
}

int ds_mannwhitney(const int64_t *a, size_t na, const int64_t *b, size_t nb, struct ds_mwu *out)
{
	size_t n = na + nb;
	struct ds_item *it = malloc(n * sizeof *it);
	if (!it)
		return -1;
	if (sorted(a, na) && sorted(b, nb)) { /* as ds_sort leaves them: a merge */
		for (size_t i = 0, j = 0, k = 0; k < n; k++)
			it[k] = j == nb || (i < na && a[i] <= b[j])
				    ? (struct ds_item){a[i++], true}
				    : (struct ds_item){b[j++], false};
	} else {
		for (size_t i = 0; i < na; i++)
			it[i] = (struct ds_item){a[i], true};
		for (size_t i = 0; i < nb; i++)
			it[na + i] = (struct ds_item){b[i], false};
		gp_qsort(it, n, sizeof *it, cmp_item);
	}
	/* midranks; Σ (t³ - t) over the groups of ties */
	double ra = 0, ties = 0;
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && it[j].v == it[i].v; j++)
			;
		double rank = ((double)i + 1 + (double)j) / 2, t = (double)(j - i);
		for (size_t k = i; k < j; k++)
			ra += it[k].in_a ? rank : 0;
		ties += t * t * t - t;
	}
	free(it);
	double u1 = ra - (double)na * ((double)na + 1) / 2;
	double u2 = (double)na * (double)nb - u1;
	double big = u1 > u2 ? u1 : u2;
	out->u = u1;
	size_t small = na < nb ? na : nb;
	out->exact = ties == 0 && small < 8 && na * nb <= DS_EXACT_MAX;
	double p;
	if (out->exact) {
		if (exact_sf(na < nb ? na : nb, na < nb ? nb : na, big, &p))
			return -1;
		p *= 2;
	} else {
		double dn = (double)n, mu = (double)na * (double)nb / 2;
		double var = (double)na * (double)nb / 12 * ((dn + 1) - ties / (dn * (dn - 1)));
		if (var <= 0) {
			p = 1;
		} else {
			double z = (big - mu - 0.5) / sqrt(var);
			p = erfc(z / sqrt(2.0));
		}
	}
	out->p = p > 1 ? 1 : p;
	return 0;
}

/* Whether part s[0..n) of a name is a tile, configuration or hash. */
static bool config_part(const char *s, size_t n)
{
	static const char *const words[] = {"align", "stage", "splitk"};
	for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
		size_t l = strlen(words[w]);
		if (n > l && !strncmp(s, words[w], l)) {
			size_t k = l;
			while (k < n && isdigit((unsigned char)s[k]))
				k++;
			if (k == n)
				return true;
		}
	}
	/* letters, then digits ('x' digits)+ */
	size_t k = 0;
	while (k < n && isalpha((unsigned char)s[k]) && s[k] != 'x')
		k++;
	size_t groups = 0;
	while (k < n && isdigit((unsigned char)s[k])) {
		while (k < n && isdigit((unsigned char)s[k]))
			k++;
		groups++;
		if (k < n && s[k] == 'x' && k + 1 < n && isdigit((unsigned char)s[k + 1]))
			k++;
		else
			break;
	}
	if (k == n && groups >= 2)
		return true;
	/* a hash: 8 or more hex digits, one of them a digit */
	bool digit = false;
	for (k = 0; k < n && isxdigit((unsigned char)s[k]); k++)
		digit |= isdigit((unsigned char)s[k]) != 0;
	return n >= 8 && k == n && digit;
}

/* Appends s[0..n) to buf at *at (cut at cap - 1). */
static void put(char *buf, size_t cap, size_t *at, const char *s, size_t n)
{
	size_t room = cap - 1 - *at;
	if (n > room)
		n = room;
	memcpy(buf + *at, s, n);
	*at += n;
	buf[*at] = 0;
}

size_t ds_kernel_name(const char *s, char *buf, size_t cap)
{
	size_t len = strlen(s);
	char *t = malloc(len + 1);
	if (!t) {
		size_t at = 0;
		buf[0] = 0;
		put(buf, cap, &at, s, len);
		return at;
	}
	const char *p = s;
	if (!strncmp(p, "void ", 5))
		p += 5;
	/* rules 2 and 3: drop balanced <...>, then a trailing (...) */
	size_t m = 0;
	for (size_t i = 0; p[i];) {
		if (p[i] == '<') {
			size_t d = 0, j = i;
			for (; p[j]; j++) {
				d += p[j] == '<';
				d -= p[j] == '>';
				if (!d)
					break;
			}
			if (p[j]) {
				i = j + 1;
				continue;
			}
		}
		t[m++] = p[i++];
	}
	t[m] = 0;
	if (m && t[m - 1] == ')') {
		size_t d = 0, j = m;
		while (j-- > 0) {
			d += t[j] == ')';
			d -= t[j] == '(';
			if (!d)
				break;
		}
		if (!d && j > 0)
			t[m = j] = 0;
	}
	/* rule 4: parts between '_' */
	size_t at = 0;
	buf[0] = 0;
	bool first = true;
	for (size_t i = 0; i <= m;) {
		size_t j = i;
		while (j < m && t[j] != '_')
			j++;
		if (!config_part(t + i, j - i)) {
			if (!first)
				put(buf, cap, &at, "_", 1);
			put(buf, cap, &at, t + i, j - i);
			first = false;
		}
		i = j + 1;
	}
	if (!at)
		put(buf, cap, &at, t, m);
	if (!at)
		put(buf, cap, &at, s, len);
	free(t);
	return at;
}
