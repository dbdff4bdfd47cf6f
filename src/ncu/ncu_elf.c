/* ncu_elf: one section of an ELF64 little-endian image (a cubin), found by
 * name; see ncu_sass.h. The image is untrusted: the section header table,
 * the section-name string table and the section found must lie inside the
 * buffer (checked without overflow), names must end inside their table,
 * and the header sizes must be ELF64's. The section count is the header's
 * 16-bit e_shnum (or, when that is 0 and the table exists, section 0's
 * sh_size, ELF's extended numbering), bounded by what fits in the buffer. */
#include <string.h>

#include "ncu/ncu_sass.h"

#define EH_SIZE 64 /* ELF64 header */
#define SH_SIZE 64 /* ELF64 section header */
#define SHT_NOBITS 8
#define SHN_XINDEX 0xffff

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

/* Whether [off, off + size) lies inside n bytes. */
static bool inside(uint64_t off, uint64_t size, size_t n)
{
	return off <= n && size <= n - off;
}

static int bad(struct err *e, const char *path, int64_t base_off, uint64_t at, const char *what)
{
	return err_set(e, ERR_FORMAT, path, base_off + (int64_t)at, "cubin: %s", what);
}

int ncu_elf_section(const uint8_t *p, size_t n, const char *name, const char *path,
		    int64_t base_off, const uint8_t **data, size_t *len, uint32_t *flags,
		    struct err *e)
{
	if (n < EH_SIZE || memcmp(p,
				  "\x7f"
				  "ELF",
				  4))
		return bad(e, path, base_off, 0, "expected an ELF header (7f 45 4c 46, 64 bytes)");
	if (p[4] != 2 || p[5] != 1)
		return bad(e, path, base_off, 4, "expected a 64-bit little-endian ELF");
	*flags = rd32(p + 0x30);
	uint64_t shoff = rd64(p + 0x28);
	uint16_t shentsize = rd16(p + 0x3a);
	uint64_t shnum = rd16(p + 0x3c);
	uint32_t shstrndx = rd16(p + 0x3e);
	if (!shoff)
		return 1; /* no section header table: no section */
	if (shentsize < SH_SIZE)
		return bad(e, path, base_off, 0x3a, "expected section headers of 64 bytes or more");
	if (!inside(shoff, SH_SIZE, n))
		return bad(e, path, base_off, 0x28,
			   "section header table past the end of the cubin");
	if (!shnum)
		shnum = rd64(p + shoff + 0x20); /* extended numbering */
	if (shstrndx == SHN_XINDEX)
		shstrndx = rd32(p + shoff + 0x28);
	if (shnum > (n - shoff) / shentsize)
		return bad(e, path, base_off, 0x3c,
			   "section header table (count x size) past the end of the cubin");
	if (shstrndx >= shnum)
		return bad(e, path, base_off, 0x3e,
			   "section-name table index past the last section");
	const uint8_t *ss = p + shoff + (uint64_t)shstrndx * shentsize;
	uint64_t stroff = rd64(ss + 0x18), strsize = rd64(ss + 0x20);
	if (!inside(stroff, strsize, n))
		return bad(e, path, base_off, shoff + (uint64_t)shstrndx * shentsize + 0x18,
			   "section-name table past the end of the cubin");
	size_t nlen = strlen(name);
	for (uint64_t i = 0; i < shnum; i++) {
		uint64_t at = shoff + i * shentsize;
		const uint8_t *h = p + at;
		uint32_t nm = rd32(h);
		if (nm >= strsize)
			return bad(e, path, base_off, at, "section name past its string table");
		const uint8_t *s = p + stroff + nm;
		size_t room = (size_t)(strsize - nm);
		const uint8_t *z = memchr(s, 0, room);
		if (!z)
			return bad(e, path, base_off, at,
				   "section name not ended inside its table");
		if ((size_t)(z - s) != nlen || memcmp(s, name, nlen))
			continue;
		uint64_t off = rd64(h + 0x18), size = rd64(h + 0x20);
		if (rd32(h + 4) == SHT_NOBITS)
			return bad(e, path, base_off, at + 4, "expected code bytes, not NOBITS");
		if (!inside(off, size, n))
			return bad(e, path, base_off, at + 0x18,
				   "section bytes past the end of the cubin");
		*data = p + off;
		*len = (size_t)size;
		return 0;
	}
	return 1;
}
