/* radix: stable LSD radix sort of an array of records by integer fields.
 *
 * The analyses sort arrays of small records (a row and its times) by a few
 * integer keys, with the row as the last tie-break so that equal keys keep
 * the reference's stable order. A comparator-driven merge sort (glibc's
 * qsort) costs n log n calls; this sorts the same records in a few linear
 * passes per key: one pass over the records builds the byte histograms of
 * the key (and notices when the records are already in order, the common
 * case for a trace written in time order), then one scatter per byte whose
 * value is not the same in every record. Keys are sorted least significant
 * first; every pass is stable, so the result is exactly the order the
 * equivalent comparator gives with the remaining ties kept in input order.
 * Before any of that, input made of a few ascending runs (in order: one;
 * a list per stream or device appended one after another: two to eight)
 * is merged run with run, n log2(runs) moves; then a stable insertion pass
 * that gives up after n record moves finishes input that is nearly in
 * order (a few records out of place) in one pass without allocating; past
 * it the radix passes sort what it left, which is the same order.
 *
 * Owns nothing beyond one call (a scratch copy of the array). Depends on
 * libc only.
 */
#ifndef GP_CORE_RADIX_H
#define GP_CORE_RADIX_H

#include <stdbool.h>
#include <stddef.h>

enum rx_type {
	RX_U8,
	RX_U16,
	RX_U32,
	RX_I32,
	RX_U64,
	RX_I64,
};

/* One key: a field of the record at byte offset `off`, of `type`,
 * ascending unless `desc`. */
struct rx_key {
	size_t off;
	enum rx_type type;
	bool desc;
};

/* The bytes a key of type t spans. */
#define RX_WIDTH(t) ((t) == RX_U8 ? 1 : (t) == RX_U16 ? 2 : (t) == RX_U32 || (t) == RX_I32 ? 4 : 8)
/* The field's offset, refused at compile time when the field is not as wide
 * as its key type: a size_t field sorted as RX_U64 is 4 bytes in a 32-bit
 * build (WebAssembly's), and its key would take in the padding after it. */
#define RX_OFF_(rec, field, type)                                                                  \
	(offsetof(rec, field) +                                                                    \
	 0 * sizeof(char[sizeof(((rec *)0)->field) == RX_WIDTH(type) ? 1 : -1]))
#define RX_KEY(rec, field, type) ((struct rx_key){RX_OFF_(rec, field, type), (type), false})
#define RX_KEY_DESC(rec, field, type) ((struct rx_key){RX_OFF_(rec, field, type), (type), true})

/* Sorts n records of `size` bytes at base by keys[0] (most significant)
 * then keys[1] ... keys[nk-1], equal records keeping their order. Returns
 * 0, or -1 when the scratch copy cannot be allocated (base unchanged). */
int rx_sort(void *base, size_t n, size_t size, const struct rx_key *keys, size_t nk);

/* Sorts n unsigned 64-bit values at base (any alignment) ascending, with
 * one scratch copy (n * 8 bytes): the values alone, where rx_sort would
 * pair each with its index. Returns 0, or -1 out of memory (base
 * unchanged). */
int rx_sort_u64(void *base, size_t n);

#endif
