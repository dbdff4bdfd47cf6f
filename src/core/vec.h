/* vec: growable arrays on the heap, with a hard element cap.
 *
 * VEC(T) declares an anonymous struct {T *v; size_t n, cap;}. vec_reserve,
 * vec_push and vec_add grow it by doubling; each takes max, the cap every
 * growable array has, and fails (-1 or NULL) when realloc fails or the
 * element count would pass max. Owner frees with free(x.v) or vec_free.
 * Depends on libc only.
 */
#ifndef GP_VEC_H
#define GP_VEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define VEC(T)                                                                                     \
	struct {                                                                                   \
		T *v;                                                                              \
		size_t n, cap;                                                                     \
	}

/* *v (realloc'd) with room for ncap elements of elem bytes. */
static inline int vec_resize_(void **v, size_t *cap, size_t ncap, size_t elem)
{
	if (ncap > SIZE_MAX / elem)
		return -1;
	void *nv = realloc(*v, ncap * elem);
	if (!nv)
		return -1;
	*v = nv;
	*cap = ncap;
	return 0;
}

/* Ensures room for need elements of elem bytes in *v (realloc'd) with *cap. */
static inline int vec_reserve_(void **v, size_t *cap, size_t need, size_t elem, size_t max)
{
	if (need <= *cap)
		return 0;
	if (need > max)
		return -1;
	size_t ncap = *cap ? *cap : 16 < max ? 16 : max; /* never past max, even at first */
	while (ncap < need)
		ncap = ncap > max / 2 ? max : ncap * 2;
	return vec_resize_(v, cap, ncap, elem);
}

/* The room a table of cap elements that must hold need grows to when its
 * final size is estimated at want: want at once (not through the doublings
 * whose freed blocks a heap that cannot remap, WebAssembly's, keeps as
 * holes), at least need, and at least a quarter more than it had. */
static inline size_t vec_planned_cap(size_t cap, size_t need, size_t want)
{
	size_t ncap = want > need ? want : need, quarter = cap + cap / 4;
	return ncap < quarter ? quarter : ncap;
}

/* vec_reserve_ for a table whose final size the caller can estimate (want
 * elements; 0: none, doubling), grown by vec_planned_cap. */
static inline int vec_reserve_to_(void **v, size_t *cap, size_t need, size_t want, size_t elem,
				  size_t max)
{
	if (need <= *cap || !want)
		return vec_reserve_(v, cap, need, elem, max);
	if (need > max)
		return -1;
	size_t ncap = vec_planned_cap(*cap, need, want);
	return vec_resize_(v, cap, ncap < max ? ncap : max, elem);
}

#define vec_reserve(x, need, max)                                                                  \
	vec_reserve_((void **)&(x).v, &(x).cap, (need), sizeof *(x).v, (max))
#define vec_reserve_to(x, need, want, max)                                                         \
	vec_reserve_to_((void **)&(x).v, &(x).cap, (need), (want), sizeof *(x).v, (max))
/* Appends val; evaluates to 0 or -1. */
#define vec_push(x, val, max)                                                                      \
	(vec_reserve((x), (x).n + 1, (max)) ? -1 : ((x).v[(x).n++] = (val), 0))
/* Room for one more element: a pointer to it (counted in x.n, its bytes
 * unset), or NULL when memory is out or x would pass max elements. Works on
 * any struct with members v, n and cap. */
#define vec_add(x, max)                                                                            \
	((x).n < (x).cap || !vec_reserve((x), (x).n + 1, (max)) ? &(x).v[(x).n++] : NULL)
/* Gives back the room past n elements (kept as it is when realloc fails):
 * for a table that is complete, so that the heap can reuse its tail. */
static inline void vec_fit_(void **v, size_t *cap, size_t n, size_t elem)
{
	if (!n || n >= *cap)
		return;
	void *nv = realloc(*v, n * elem);
	if (!nv)
		return;
	*v = nv;
	*cap = n;
}
#define vec_fit(x) vec_fit_((void **)&(x).v, &(x).cap, (x).n, sizeof *(x).v)
#define vec_free(x) (free((x).v), (x).v = NULL, (x).n = (x).cap = 0)

#endif
