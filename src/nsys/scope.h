/* scope: NVTX scope paths as one tree of interned paths, and the cap on
 * printed names; not for use outside src/nsys.
 *
 * A scope path (nsys.md 2.4 step 4) is a tuple of range names. Each
 * distinct path is one node: (parent path, last name), names interned in a
 * string pool, so equal paths are equal node ids, extending a path costs
 * O(1) and the whole tree is linear in the ranges that made it. Paths
 * deeper than LIM_NVTX_DEPTH end in one pooling node named
 * LIM_NAME_ELLIPSIS that stands for every deeper level. Ranks order the
 * nodes the way Python orders the tuples (element-wise, a prefix first).
 * Owns its pool, nodes and index (heap); name bytes live in the caller's
 * arena. The scope walks (nsys_scope_path) memoize each range's path over
 * a struct nsys_ranges. Depends on core and nsys.h only.
 */
#ifndef GP_NSYS_SCOPE_H
#define GP_NSYS_SCOPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/hmap.h"
#include "core/strpool.h"
#include "nsys/nsys.h"

#define NSYS_SCOPE_ROOT 0u	   /* the empty path */
#define NSYS_SCOPE_NONE UINT32_MAX /* out of memory */

struct nsys_scope_node {
	uint32_t parent, name; /* parent path; last name (a pool id) */
	uint32_t depth, rank;  /* names in the path; order (after nsys_scopes_rank) */
	bool pooled;	       /* stands for every level below LIM_NVTX_DEPTH */
};

struct nsys_scopes {
	struct strpool pool;
	struct nsys_scope_node *v;
	size_t n, cap;
	struct hmap child; /* hash of (parent, name) -> node */
};

int nsys_scopes_init(struct nsys_scopes *t, struct arena *a);
void nsys_scopes_free(struct nsys_scopes *t);
/* The path parent + (name): past LIM_NVTX_DEPTH levels the pooling node
 * (its own child). NSYS_SCOPE_NONE when out of memory. */
uint32_t nsys_scopes_child(struct nsys_scopes *t, uint32_t parent, const char *name);
/* Sets every node's rank in tuple order; -1 when out of memory. */
int nsys_scopes_rank(struct nsys_scopes *t);
/* The path joined with '.', cut to LIM_NAME_BYTES (see nsys_name_cap);
 * *cut says whether it was. NULL when out of memory. */
const char *nsys_scopes_join(struct nsys_scopes *t, struct arena *a, uint32_t node, bool *cut);
/* Whether the path joined with '.' is exactly s. */
bool nsys_scopes_equal(const struct nsys_scopes *t, uint32_t node, const char *s);

/* s[0..len) as printed: itself when len <= LIM_NAME_BYTES, else an arena
 * copy of its first bytes (cut at a UTF-8 character boundary) ending in
 * LIM_NAME_ELLIPSIS, LIM_NAME_BYTES bytes at most. NULL when out of memory. */
const char *nsys_name_cap(struct arena *a, const char *s, size_t len, bool *cut);

/* ---- scope walks over one range list ---- */

struct nsys_key_ix {
	int64_t pid, tid, id;
	size_t idx;
};

/* A sorted key index over a range list (or a subset: harness keys). */
struct nsys_keyset {
	struct nsys_key_ix *v;
	size_t n;
};

int nsys_keyset_build(struct arena *a, const struct nsys_ranges *r, const size_t *subset,
		      size_t nsub, struct nsys_keyset *ks);
/* Index of the range with this key (the last one, as a Python dict built
 * over the list keeps), or SIZE_MAX. */
size_t nsys_keyset_find(const struct nsys_keyset *ks, int64_t pid, int64_t tid, int64_t id);

/* Scope walk context over one list: each range's memoized tail, the path
 * of its names below the nearest harness range (the empty path for a
 * harness range), unset before its first walk. */

struct nsys_scope {
	const struct nsys_ranges *r;
	struct nsys_keyset by_key;
	const struct nsys_keyset *harness;
	struct nsys_scopes *tree;
	uint32_t *memo;
	size_t *chain; /* the walk in progress */
};

int nsys_scope_init(struct arena *a, struct nsys_scope *s, const struct nsys_ranges *r,
		    const struct nsys_keyset *harness, struct nsys_scopes *tree);
/* The scope path of range i (nsys.md 2.4 step 4) into *out: its names up
 * to the nearest harness range, (own name) for a harness range; fails with
 * "Cycle in NVTX range hierarchy at (pid, tid, id)." on a cycle. Each
 * range's path is walked once (memoized), so a list costs O(n). */
int nsys_scope_path(struct nsys_scope *s, size_t i, uint32_t *out, struct err *e);

#endif
