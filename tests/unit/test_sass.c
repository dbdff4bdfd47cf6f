/* test_sass: the cubin ELF section reader, the nvdisasm output parser and
 * one run of a stand-in nvdisasm (ncu/ncu_sass.h), on bytes made here. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ncu/ncu_sass.h"
#include "test.h"

/* A small ELF64: header, ".shstrtab" and ".text.k" (32 code bytes) and
 * section headers [null, .shstrtab, .text.k] at 0x80. */
#define ELF_SIZE (0x80 + 3 * 64)
static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}
static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}
static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}
static void make_elf(uint8_t *b)
{
	static const char names[] = "\0.shstrtab\0.text.k"; /* 0, 1, 11 */
	memset(b, 0, ELF_SIZE);
	memcpy(b,
	       "\x7f"
	       "ELF\x02\x01\x01",
	       7);
	put64(b + 0x28, 0x80);	   /* e_shoff */
	put32(b + 0x30, 0x560556); /* e_flags */
	put16(b + 0x3a, 64);	   /* e_shentsize */
	put16(b + 0x3c, 3);	   /* e_shnum */
	put16(b + 0x3e, 1);	   /* e_shstrndx */
	memcpy(b + 0x40, names, sizeof names);
	for (int i = 0; i < 32; i++)
		b[0x60 + i] = (uint8_t)i;
	uint8_t *h = b + 0x80 + 64; /* .shstrtab */
	put32(h, 1);
	put32(h + 4, 3);
	put64(h + 0x18, 0x40);
	put64(h + 0x20, sizeof names);
	h += 64; /* .text.k */
	put32(h, 11);
	put32(h + 4, 1);
	put64(h + 0x18, 0x60);
	put64(h + 0x20, 32);
}

void test_sass_elf_section(struct t *t)
{
	uint8_t b[ELF_SIZE];
	make_elf(b);
	const uint8_t *d = NULL;
	size_t len = 0;
	uint32_t fl = 0;
	struct err e;
	CHECK_INT(t, ncu_elf_section(b, sizeof b, ".text.k", "r", 1000, &d, &len, &fl, &e), 0);
	CHECK(t, d == b + 0x60);
	CHECK_INT(t, len, 32);
	CHECK_INT(t, fl, 0x560556);
	/* a name that is only a prefix of one, and none at all */
	CHECK_INT(t, ncu_elf_section(b, sizeof b, ".text.", "r", 0, &d, &len, &fl, &e), 1);
	CHECK_INT(t, ncu_elf_section(b, sizeof b, ".text.kk", "r", 0, &d, &len, &fl, &e), 1);
	/* no section header table */
	put64(b + 0x28, 0);
	CHECK_INT(t, ncu_elf_section(b, sizeof b, ".text.k", "r", 0, &d, &len, &fl, &e), 1);
}

/* ncu_elf_section on b (n bytes) fails with ERR_FORMAT at offset off (base
 * 1000) and a message containing what. */
static void elf_bad(struct t *t, const uint8_t *b, size_t n, int64_t off, const char *what)
{
	const uint8_t *d;
	size_t len;
	uint32_t fl;
	struct err e = {0};
	int rc = ncu_elf_section(b, n, ".text.k", "r.ncu-rep", 1000, &d, &len, &fl, &e);
	CHECK_INT(t, rc, ERR_FORMAT);
	CHECK_INT(t, e.offset, 1000 + off);
	if (!strstr(e.msg, what))
		t_fail(t, __FILE__, __LINE__, "message [%s] lacks [%s]", e.msg, what);
}

void test_sass_elf_hostile(struct t *t)
{
	uint8_t b[ELF_SIZE];
	make_elf(b);
	elf_bad(t, b, 63, 0, "expected an ELF header"); /* truncated header */
	elf_bad(t, b, 0x80 + 10, 0x28, "section header table past the end");
	b[4] = 1; /* 32-bit */
	elf_bad(t, b, sizeof b, 4, "64-bit little-endian");
	make_elf(b);
	put64(b + 0x28, UINT64_MAX - 8); /* e_shoff past the end, would wrap */
	elf_bad(t, b, sizeof b, 0x28, "past the end");
	make_elf(b);
	put16(b + 0x3c, 0xffff); /* a huge count */
	elf_bad(t, b, sizeof b, 0x3c, "count x size");
	make_elf(b);
	put16(b + 0x3c, 0); /* extended numbering: section 0's sh_size, huge */
	put64(b + 0x80 + 0x20, UINT64_MAX);
	elf_bad(t, b, sizeof b, 0x3c, "count x size");
	make_elf(b);
	put16(b + 0x3a, 8); /* headers too small */
	elf_bad(t, b, sizeof b, 0x3a, "64 bytes");
	make_elf(b);
	put16(b + 0x3e, 3); /* name table index past the last section */
	elf_bad(t, b, sizeof b, 0x3e, "index past the last");
	make_elf(b);
	put64(b + 0x80 + 64 + 0x20, 1u << 20); /* name table past the end */
	elf_bad(t, b, sizeof b, 0x80 + 64 + 0x18, "section-name table past the end");
	make_elf(b);
	put32(b + 0x80 + 128, 500); /* a name past its table */
	elf_bad(t, b, sizeof b, 0x80 + 128, "name past its string table");
	make_elf(b);
	put64(b + 0x80 + 64 + 0x20, 14); /* ".text.k" cut: not ended in its table */
	elf_bad(t, b, sizeof b, 0x80 + 128, "not ended");
	make_elf(b);
	put64(b + 0x80 + 128 + 0x18, ELF_SIZE - 16); /* code past the end */
	elf_bad(t, b, sizeof b, 0x80 + 128 + 0x18, "section bytes past the end");
	make_elf(b);
	put64(b + 0x80 + 128 + 0x20, UINT64_MAX); /* a size that would wrap */
	elf_bad(t, b, sizeof b, 0x80 + 128 + 0x18, "section bytes past the end");
	make_elf(b);
	put32(b + 0x80 + 128 + 4, 8); /* NOBITS */
	elf_bad(t, b, sizeof b, 0x80 + 128 + 4, "NOBITS");
}

void test_sass_parse(struct t *t)
{
	static const char out[] =
	    "\t.headerflags    @\"EF_CUDA_SM86 EF_CUDA_PTX_SM(EF_CUDA_SM86)\"\n"
	    "        /*b00e7bb00*/                   IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;\n"
	    "        /*b00e7bb40*/               @P0 EXIT ;\n"
	    ".L_x_0:\n"
	    "        /*b00e7bb50*/             @!UP1 BRA 0xb00e7bc20;\r\n"
	    "        /*b00e7bb60*/  @!PT_TOOLONG NOP ;\n"
	    "        /*b00e7bb70*/   ;\n"	      /* no instruction */
	    "        /*11112222333344445*/   NOP ;\n" /* more than 64 bits */
	    "        /*b00e7bb80   NOP ;\n"	      /* not closed */
	    "        /**/   NOP ;\n"		      /* no digits */
	    "        /*b00e7bb90*/   NOP";	      /* no newline, no ';' */
	struct arena a;
	arena_init(&a);
	struct ncu_sass_line *rows;
	size_t n;
	CHECK_INT(t, ncu_sass_parse(out, sizeof out - 1, 100, &a, &rows, &n), 0);
	CHECK_INT(t, n, 5);
	if (n == 5) {
		CHECK_INT(t, rows[0].addr, 0xb00e7bb00ull);
		CHECK_STR(t, rows[0].text, "      IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28]");
		CHECK_STR(t, rows[1].text, "@P0   EXIT");
		CHECK_INT(t, rows[2].addr, 0xb00e7bb50ull);
		CHECK_STR(t, rows[2].text, "@!UP1 BRA 0xb00e7bc20");
		CHECK_STR(t, rows[3].text, "@!PT_TOOLONG NOP");
		CHECK_INT(t, rows[4].addr, 0xb00e7bb90ull);
		CHECK_STR(t, rows[4].text, "      NOP");
	}
	/* at most max_rows */
	CHECK_INT(t, ncu_sass_parse(out, sizeof out - 1, 2, &a, &rows, &n), 0);
	CHECK_INT(t, n, 2);
	CHECK_INT(t, ncu_sass_parse("", 0, 10, &a, &rows, &n), 0);
	CHECK_INT(t, n, 0);
	arena_free(&a);
}

void test_sass_arch(struct t *t)
{
	char b[16];
	CHECK(t, ncu_sass_arch(0x80006, 0, b, sizeof b));
	CHECK_STR(t, b, "SM86");
	CHECK(t, ncu_sass_arch(0x90000, 0, b, sizeof b));
	CHECK_STR(t, b, "SM90");
	CHECK(t, ncu_sass_arch(0, 0x4b, b, sizeof b)); /* old ABI: SM in the low byte */
	CHECK_STR(t, b, "SM75");
	CHECK(t, !ncu_sass_arch(0, 0, b, sizeof b));
}

/* A stand-in nvdisasm: a shell script printing fixed lines, or failing. */
static void fake(struct t *t, const char *dir, const char *body, char *path, size_t n)
{
	snprintf(path, n, "%s/nvdisasm", dir);
	FILE *f = fopen(path, "w");
	CHECK(t, f != NULL);
	if (!f)
		return;
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	chmod(path, 0755);
}

void test_sass_disasm(struct t *t)
{
	char dir[] = "/tmp/gpuprof-sass-test-XXXXXX", path[256];
	CHECK(t, mkdtemp(dir) != NULL);
	const char *old = getenv("TMPDIR");
	char *saved = old ? strdup(old) : NULL;
	setenv("TMPDIR", dir, 1); /* the temporaries go here: none may stay */
	struct arena a;
	arena_init(&a);
	struct ncu_sass s;
	struct err e;
	static const uint8_t code[32] = {0};
	/* it is given the arguments, and the temporary file exists meanwhile */
	fake(t, dir,
	     "[ \"$1 $2 $3 $4\" = '--binary SM86 --base-address 0x700' ] && [ -s \"$5\" ] && "
	     "echo '  /*0700*/   @P0 EXIT ;'",
	     path, sizeof path);
	CHECK_INT(t, ncu_sass_disasm(path, "SM86", 0x700, code, sizeof code, 10000, &a, &s, &e), 0);
	CHECK_INT(t, s.nrows, 1);
	CHECK_STR(t, s.note, "");
	if (s.nrows)
		CHECK_STR(t, s.rows[0].text, "@P0   EXIT");
	fake(t, dir, "echo 'nvdisasm fatal   : no' >&2; exit 3", path, sizeof path);
	CHECK_INT(t, ncu_sass_disasm(path, "SM86", 0, code, sizeof code, 10000, &a, &s, &e), 0);
	CHECK_INT(t, s.nrows, 0);
	if (!strstr(s.note, "failed (exit status 3): nvdisasm fatal   : no"))
		t_fail(t, __FILE__, __LINE__, "note [%s]", s.note);
	fake(t, dir, "sleep 5", path, sizeof path);
	CHECK_INT(t, ncu_sass_disasm(path, "SM86", 0, code, sizeof code, 100, &a, &s, &e), 0);
	if (!strstr(s.note, "took longer than 100 ms"))
		t_fail(t, __FILE__, __LINE__, "note [%s]", s.note);
	CHECK_INT(t,
		  ncu_sass_disasm("/nonexistent/nvdisasm", "SM86", 0, code, sizeof code, 1000, &a,
				  &s, &e),
		  0);
	if (!strstr(s.note, "cannot start /nonexistent/nvdisasm"))
		t_fail(t, __FILE__, __LINE__, "note [%s]", s.note);
	unlink(path);
	CHECK_INT(t, rmdir(dir), 0); /* empty: the temporaries are gone */
	if (saved)
		setenv("TMPDIR", saved, 1);
	else
		unsetenv("TMPDIR");
	free(saved);
	arena_free(&a);
}
