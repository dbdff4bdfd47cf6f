/* ncu_dwarf_kernel: one kernel's line-table ranges in a cubin
 * (ncu_dwarf.h). A cubin is a relocatable ELF: each kernel's line
 * sequence starts with a set_address whose operand (0 in the bytes) the
 * `.rel.debug_line` section relocates against the kernel's symbol. So the
 * sequences of kernel K are those whose operand offset a relocation names
 * with a `.symtab` symbol called K; their addresses (operand + advances,
 * plus the symbol's value) are offsets from the kernel's first byte. Every
 * relocation and symbol is checked against its section (Elf64_Rel 16
 * bytes, Elf64_Sym 24 bytes, names ended inside `.strtab`). */
#include <stdlib.h>
#include <string.h>

#include "ncu/ncu_dwarf.h"
#include "ncu/ncu_sass.h"

#define REL_SIZE 16
#define SYM_SIZE 24

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int k = 7; k >= 0; k--)
		v = v << 8 | p[k];
	return v;
}

static int cmp_range(const void *x, const void *y)
{
	const struct ncu_dw_range *a = x, *b = y;
	return a->start < b->start ? -1 : a->start > b->start;
}

/* The ranges of sequence q (rows with a following row at a higher
 * address), shifted by base, appended to r[*n]. */
static void seq_ranges(const struct ncu_dw_lines *l, const struct ncu_dw_seq *q, uint64_t base,
		       struct ncu_dw_range *r, size_t *n)
{
	for (size_t i = q->first; i + 1 < q->first + q->n; i++) {
		const struct ncu_dw_row *a = &l->rows[i], *b = &l->rows[i + 1];
		if (b->addr <= a->addr || a->end || a->addr > UINT64_MAX - base ||
		    b->addr > UINT64_MAX - base)
			continue;
		r[(*n)++] =
		    (struct ncu_dw_range){.start = a->addr + base, .end = b->addr + base, .row = i};
	}
}

/* Whether relocation rel (at offset at of the ELF) names a symbol called
 * mangled; *value its st_value. ERR_FORMAT for a symbol or name outside
 * its table. */
static int rel_names(const uint8_t *rel, const uint8_t *sym, size_t nsym, const uint8_t *str,
		     size_t nstr, const char *mangled, uint64_t *value, const char *path,
		     int64_t at, struct err *e)
{
	uint64_t si = rd64(rel + 8) >> 32;
	if (si >= nsym / SYM_SIZE)
		return err_set(e, ERR_FORMAT, path, at + 8,
			       "cubin .rel.debug_line: symbol index past .symtab");
	const uint8_t *s = sym + si * SYM_SIZE;
	uint32_t nm =
	    (uint32_t)s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16 | (uint32_t)s[3] << 24;
	if (nm >= nstr || !memchr(str + nm, 0, nstr - nm))
		return err_set(e, ERR_FORMAT, path, at + 8,
			       "cubin .symtab: symbol name not ended inside .strtab");
	*value = rd64(s + 8);
	return !strcmp((const char *)str + nm, mangled);
}

int ncu_dwarf_kernel(const uint8_t *p, size_t n, const char *mangled, const char *path,
		     int64_t base_off, struct arena *a, struct ncu_dw_lines *lines,
		     struct ncu_dw_range **ranges, size_t *nranges, const char **note,
		     struct err *e)
{
	const uint8_t *dl, *rel, *sym, *str;
	size_t ndl, nrel, nsym, nstr;
	uint32_t fl;
	int rc;
	*ranges = NULL;
	*nranges = 0;
	*note = NULL;
	memset(lines, 0, sizeof *lines);
	if ((rc = ncu_elf_section(p, n, ".debug_line", path, base_off, &dl, &ndl, &fl, e)) < 0)
		return rc;
	if (rc) {
		*note = "the cubin has no line table (.debug_line; compile with -lineinfo)";
		return 0;
	}
	if ((rc = ncu_dwarf_lines(dl, ndl, path, base_off + (dl - p), a, lines, e)))
		return rc;
	if ((rc = ncu_elf_section(p, n, ".rel.debug_line", path, base_off, &rel, &nrel, &fl, e)) <
		0 ||
	    (!rc &&
	     (rc = ncu_elf_section(p, n, ".symtab", path, base_off, &sym, &nsym, &fl, e)) < 0) ||
	    (!rc &&
	     (rc = ncu_elf_section(p, n, ".strtab", path, base_off, &str, &nstr, &fl, e)) < 0))
		return rc;
	if (rc) {
		*note = "the cubin's line table has no relocations naming its kernels "
			"(.rel.debug_line, .symtab, .strtab)";
		return 0;
	}
	struct ncu_dw_range *r = lines->nrows ? arena_array(a, lines->nrows, sizeof *r) : NULL;
	if (lines->nrows && !r)
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	size_t nr = 0;
	for (size_t k = 0; k + REL_SIZE <= nrel; k += REL_SIZE) {
		uint64_t value = 0, off = rd64(rel + k);
		int64_t at = base_off + (rel - p) + (int64_t)k;
		if ((rc = rel_names(rel + k, sym, nsym, str, nstr, mangled, &value, path, at, e)) <
		    0)
			return rc;
		for (size_t q = 0; rc && q < lines->nseqs; q++)
			if (lines->seqs[q].addr_off == off)
				seq_ranges(lines, &lines->seqs[q], value, r, &nr);
	}
	if (!nr) {
		*note = "the cubin's line table has no rows for this kernel";
		return 0;
	}
	qsort(r, nr, sizeof *r, cmp_range);
	*ranges = r;
	*nranges = nr;
	return 0;
}
