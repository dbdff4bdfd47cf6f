/* arena: bump allocator, one per loaded input.
 *
 * Owns large blocks obtained from malloc; everything parsed from one input is
 * allocated here and released at once by arena_free(). Allocation never
 * returns memory to the system before arena_free(). Not thread-safe: one
 * owner at a time. Depends on libc only.
 */
#ifndef GP_ARENA_H
#define GP_ARENA_H

#include <stddef.h>
#include <stdint.h>

struct arena_block;

struct arena {
	struct arena_block *head; /* newest block, linked to older ones */
	char *cur, *end;	  /* free space in the newest block */
	size_t total;		  /* bytes obtained from malloc */
	size_t cap;		  /* refuse to grow beyond this (0 = LIM_ARENA_BYTES) */
};

void arena_init(struct arena *a);
/* Returns NULL when malloc fails or the cap would be exceeded. Memory is
 * aligned to 16 bytes and not zeroed. */
void *arena_alloc(struct arena *a, size_t size);
void *arena_zalloc(struct arena *a, size_t size);
/* n * size with overflow check. */
void *arena_array(struct arena *a, size_t n, size_t size);
char *arena_strndup(struct arena *a, const char *s, size_t n);
void arena_free(struct arena *a);
/* Moves every block of src into dst (freed with dst; src left empty). What
 * was allocated in either stays where it is; dst keeps allocating from its
 * own newest block. (For a second thread that allocated into its own
 * arena while the owner allocated into dst.) */
void arena_adopt(struct arena *dst, struct arena *src);

#endif
