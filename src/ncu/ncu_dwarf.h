/* ncu_dwarf: the CUDA source lines of a cubin's SASS, for `gpuprof ncu
 * source` (docs/ncu.md, "CUDA source lines").
 *
 *   - ncu_dwarf_lines: a bounds-checked reader of a DWARF line-number
 *     program (the cubin's `.debug_line`; versions 2 to 4, 32-bit DWARF):
 *     the units' headers (directory and file tables), standard opcodes
 *     (their lengths checked against the standard ones), extended opcodes
 *     end_sequence, set_address, define_file (others skipped by their
 *     length), special opcodes, and NVIDIA's extended opcode 0x90
 *     (operands: ULEB row, ULEB .debug_str offset of the inlined function;
 *     row = the 1-based row of the current sequence that is the call site
 *     of the rows that follow, 0 = not inlined; our reading of ptxas's
 *     output, checked against ncu's CSV). Untrusted input: every read is
 *     checked against its unit, numbers against overflow; bad bytes give
 *     ERR_FORMAT with the file offset (base_off + offset in the section)
 *     and what was expected.
 *   - ncu_dwarf_kernel: the rows of one kernel: the sequences whose
 *     set_address operand the cubin's `.rel.debug_line` relocates against
 *     the kernel's symbol (a cubin is relocatable: set_address holds 0 and
 *     the relocation names the kernel), as address ranges relative to the
 *     kernel's start.
 *
 * Owns: nothing; everything is allocated in the caller's arena.
 */
#ifndef GP_NCU_DWARF_H
#define GP_NCU_DWARF_H

#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/err.h"

/* at most this many rows, files and sequences per line table */
#define NCU_DW_MAX 1000000

struct ncu_dw_row {
	uint64_t addr;	     /* as the program computes it (set_address + advances) */
	uint32_t file;	     /* index into ncu_dw_lines.files */
	uint32_t line;	     /* 0: no line */
	uint32_t inlined_at; /* index + 1 of the call site's row in rows; 0: none */
	uint32_t end;	     /* 1: end_sequence (its address ends the sequence) */
};

struct ncu_dw_seq {
	uint64_t addr_off; /* section offset of its set_address operand; UINT64_MAX: none */
	size_t first, n;   /* its rows: rows[first .. first + n) */
};

struct ncu_dw_lines {
	const char **files; /* dir + '/' + name (name alone when absolute or dir 0) */
	size_t nfiles;
	struct ncu_dw_row *rows;
	size_t nrows;
	struct ncu_dw_seq *seqs;
	size_t nseqs;
};

/* Reads the line programs of p[0..n) (a `.debug_line` section). 0, else
 * ERR_FORMAT (path, base_off + offset: what was expected) or ERR_NOMEM. */
int ncu_dwarf_lines(const uint8_t *p, size_t n, const char *path, int64_t base_off, struct arena *a,
		    struct ncu_dw_lines *out, struct err *e);

/* One range of a kernel's code: [start, end) relative to its first byte,
 * and the row (index into the table's rows) that covers it. */
struct ncu_dw_range {
	uint64_t start, end;
	size_t row;
};

/* The line table of the cubin p[0..n) and the ranges of the kernel whose
 * symbol is named mangled, by start. *note says in one line why there are
 * none (no .debug_line, no relocation for the kernel); 0 then too.
 * ERR_FORMAT for malformed bytes. */
int ncu_dwarf_kernel(const uint8_t *p, size_t n, const char *mangled, const char *path,
		     int64_t base_off, struct arena *a, struct ncu_dw_lines *lines,
		     struct ncu_dw_range **ranges, size_t *nranges, const char **note,
		     struct err *e);

#endif
