/* libc_extra: what the WebAssembly build's libc (emscripten's musl) lacks
 * and src/ uses, declared for every file of that build (emcc -include).
 * Defined in qsort_stable.c. */
#ifndef GP_WASM_LIBC_EXTRA_H
#define GP_WASM_LIBC_EXTRA_H

#include <stddef.h>

/* GNU's qsort_r (argument last). */
void qsort_r(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *, void *),
	     void *arg);

#endif
