/* limits: every size cap of the readers in one place.
 *
 * Input is untrusted; these bound what one record, string or nesting level
 * may cost. Depends on nothing.
 */
#ifndef GP_LIMITS_H
#define GP_LIMITS_H

#define LIM_EVENT_BYTES (64u << 20)    /* one trace event (object) in JSON text */
#define LIM_STRING_BYTES (16u << 20)   /* one JSON string */
#define LIM_JSON_DEPTH 256	       /* nesting of arrays/objects */
#define LIM_NUMBER_CHARS 64	       /* characters of one JSON number */
#define LIM_ARENA_BYTES (1ull << 40)   /* everything one loaded input may hold */
#define LIM_STRPOOL_STRINGS (1u << 30) /* distinct interned strings */
#define LIM_CHUNK_BYTES (4u << 20)     /* read size of byte sources */
#define LIM_TRACE_ROWS 4000000000u     /* rows of one trace table (32-bit row ids) */
#define LIM_OVERLAY_BYTES (1ull << 34) /* what analyses add to one trace written back */
/* A cap x as a size_t: x, or the largest size_t where that is smaller (the
 * 32-bit WebAssembly build, where 1ull << 32 would wrap to 0). */
#define LIM_SIZE_CAP(x) ((size_t)((x) < (size_t)-1 ? (x) : (size_t)-1))
/* A YAML manifest: its text, and its size once every alias is written out
 * (one unit per node plus one per byte of each scalar; every use of an
 * alias counts what it names). The second is four times the first, so that
 * in practice only alias expansion (a "billion laughs") reaches it. */
#define LIM_YAML_BYTES (4u << 20)
#define LIM_YAML_EXPANDED (16u << 20)
#define LIM_YAML_DEPTH 64 /* nesting of sequences and mappings */

/* Nsight Systems: scope levels of an NVTX scoped name below the harness
 * ranges (deeper ranges are pooled under one level named LIM_NAME_ELLIPSIS), and the bytes of a
 * name as printed (scoped names, kernel/API/range names; a longer one is cut
 * and ends in LIM_NAME_ELLIPSIS). */
#define LIM_NVTX_DEPTH 64
#define LIM_NAME_BYTES 4096
#define LIM_NAME_ELLIPSIS "\xe2\x80\xa6" /* U+2026, the marker of a cut name */

#endif
