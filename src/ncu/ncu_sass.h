/* ncu_sass: the SASS text of a profiled kernel, as `ncu --import R --page
 * source --print-source sass` shows it, from the cubin the report stores
 * (SourceData field 4) and NVIDIA's disassembler, nvdisasm, run at run time.
 *
 * Three parts, each usable alone (the tests and fuzz targets call the first
 * two on bytes of their own):
 *   - ncu_elf_section: a bounds-checked ELF64 (little-endian) section
 *     reader: the bytes of the section named NAME (the kernel's
 *     `.text.<mangled name>`) and the header's e_flags. Untrusted input:
 *     every offset and size is checked against the buffer, a string must end
 *     inside its string table; bad bytes give ERR_FORMAT with the file
 *     offset (base_off + offset in the ELF) and what was expected.
 *   - ncu_sass_parse: nvdisasm's output (lines of an address in a C
 *     comment, then `@P0 EXIT ;`) to rows {address, text as ncu prints it}: the predicate in a
 *     6-character field ("@P0   EXIT", "      EXIT"), no trailing " ;".
 *     Lines without a leading address comment (headers, labels) are
 *     skipped; any bytes give rows or an empty list, never a crash.
 *   - ncu_sass_disasm: the two around a run of nvdisasm: the kernel's text
 *     section is written to a private temporary file (mkstemp in $TMPDIR,
 *     else /tmp; removed on every path), nvdisasm is started without a shell
 *     (argv: PATH --binary SMxy --base-address 0xENTRY FILE), its stdout
 *     captured, within a time limit, its exit status checked. With the
 *     entry address as base address nvdisasm prints absolute addresses and
 *     absolute branch targets (`BRA 0xb00e7bc20`), as ncu 2025.3 does.
 *
 * Owns: nothing; rows and texts are allocated in the caller's arena.
 * Depends on core and io (the subprocess runner).
 */
#ifndef GP_NCU_SASS_H
#define GP_NCU_SASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/err.h"

/* One instruction: its absolute address and its text as ncu prints it. */
struct ncu_sass_line {
	uint64_t addr;
	const char *text;
};

/* The section named name of the ELF64 image p[0..n): *data, *len its bytes
 * (pointing into p), *flags the header's e_flags. 0 when found, 1 when the
 * image has no such section, else ERR_FORMAT (path, base_off + offset). */
int ncu_elf_section(const uint8_t *p, size_t n, const char *name, const char *path,
		    int64_t base_off, const uint8_t **data, size_t *len, uint32_t *flags,
		    struct err *e);

/* Rows of nvdisasm's output text[0..n), in output order, at most max_rows
 * (the rest dropped). 0, or ERR_NOMEM. */
int ncu_sass_parse(const char *text, size_t n, size_t max_rows, struct arena *a,
		   struct ncu_sass_line **rows, size_t *nrows);
/* One instruction as ncu prints it: pred ("@P0", "@!UP1" or "" when
 * unpredicated) left-aligned in 6 characters (followed by one space when
 * longer), then insn; written to buf (n bytes, truncated). */
void ncu_sass_format(const char *pred, size_t plen, const char *insn, size_t ilen, char *buf,
		     size_t n);

/* How nvdisasm was found. */
enum ncu_nvdisasm_from { NCU_NVD_NONE, NCU_NVD_OPTION, NCU_NVD_ENV, NCU_NVD_PATH };

/* Finds nvdisasm: opt (the --nvdisasm option) when given, else the
 * environment's GPUPROF_NVDISASM, else `nvdisasm` in a folder of $PATH;
 * the path goes to buf (n bytes). Returns where it came from, NCU_NVD_NONE
 * when none is there; a given path (option or variable) that is not an
 * executable file gives NCU_NVD_NONE with the reason in why (wn bytes). */
enum ncu_nvdisasm_from ncu_nvdisasm_find(const char *opt, char *buf, size_t n, char *why,
					 size_t wn);

/* nvdisasm's --binary value for an SM revision ((major << 16) | minor, as
 * SourceData field 6 holds it), else for the ELF's e_flags (the SM in the
 * low byte, pre-CUDA 13 ABI): "SM86" in buf; false when neither names one. */
bool ncu_sass_arch(uint32_t sm_revision, uint32_t elf_flags, char *buf, size_t n);

/* What a disassembly gave: rows, or a one-line reason in note when
 * nvdisasm could not be run or failed (ret 0 both ways). */
struct ncu_sass {
	struct ncu_sass_line *rows;
	size_t nrows;
	char note[512];
};

/* Disassembles the text section bytes text[0..len) for arch ("SM86") at
 * base address entry with the nvdisasm at path, within timeout_ms. 0 (rows,
 * or a note saying why there are none), or ERR_NOMEM. */
int ncu_sass_disasm(const char *nvdisasm, const char *arch, uint64_t entry, const uint8_t *text,
		    size_t len, int timeout_ms, struct arena *a, struct ncu_sass *out,
		    struct err *e);

#endif
