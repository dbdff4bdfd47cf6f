/* qsort_stable: qsort and qsort_r for the WebAssembly build, as stable
 * merge sorts. The native build's glibc (2.36) sorts with a merge sort
 * too, so elements that compare equal keep their order there: musl's
 * smoothsort would not keep it, and views whose comparators have ties
 * would print them in another order than the native binary. Without
 * memory for the scratch copy, an insertion sort (stable, slow). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wasm/libc_extra.h"

typedef int (*cmp_r)(const void *, const void *, void *);

static void merge_sort(unsigned char *a, unsigned char *tmp, size_t n, size_t size, cmp_r cmp,
		       void *arg)
{
	if (n < 2)
		return;
	size_t h = n / 2;
	merge_sort(a, tmp, h, size, cmp, arg);
	merge_sort(a + h * size, tmp, n - h, size, cmp, arg);
	unsigned char *l = a, *le = a + h * size, *r = le, *re = a + n * size, *o = tmp;
	while (l < le && r < re) {
		if (cmp(l, r, arg) <= 0) { /* ties from the left: stable */
			memcpy(o, l, size);
			l += size;
		} else {
			memcpy(o, r, size);
			r += size;
		}
		o += size;
	}
	memcpy(o, l, (size_t)(le - l));
	o += le - l;
	memcpy(o, r, (size_t)(re - r));
	memcpy(a, tmp, n * size);
}

static void insertion_sort(unsigned char *a, size_t n, size_t size, cmp_r cmp, void *arg)
{
	unsigned char t[256];
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && cmp(a + (j - 1) * size, a + j * size, arg) > 0; j--)
			for (size_t b = 0; b < size; b += sizeof t) {
				size_t k = size - b < sizeof t ? size - b : sizeof t;
				memcpy(t, a + (j - 1) * size + b, k);
				memcpy(a + (j - 1) * size + b, a + j * size + b, k);
				memcpy(a + j * size + b, t, k);
			}
}

void qsort_r(void *base, size_t n, size_t size, cmp_r cmp, void *arg)
{
	if (n < 2 || !size)
		return;
	unsigned char *tmp = n <= SIZE_MAX / size ? malloc(n * size) : NULL;
	if (tmp)
		merge_sort(base, tmp, n, size, cmp, arg);
	else
		insertion_sort(base, n, size, cmp, arg);
	free(tmp);
}

static int plain(const void *a, const void *b, void *f)
{
	int (*cmp)(const void *, const void *);
	memcpy(&cmp, f, sizeof cmp);
	return cmp(a, b);
}

void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	qsort_r(base, n, size, plain, &cmp);
}
