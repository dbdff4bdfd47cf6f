/* test_dwarf: the DWARF line-program reader (ncu/ncu_dwarf.h) on
 * programs made here: a good one (directory and file tables, special,
 * standard and extended opcodes, NVIDIA's inlined-at opcode, two
 * sequences) and hostile ones (every truncation, huge lengths, bad opcode
 * lengths, a file index past the table, an address past 2^64). */
#include "ncu/ncu_dwarf.h"
#include "test.h"

/* A version-2 unit: dir "d\", file "k.cu" (dir 1), opcode base 10, line
 * base -5, range 14; program: set_address 0x100, line 10 copy; special
 * (+0x10, +1); inlined-at row 2; advance_line -8; copy; inlined-at 0;
 * advance_pc 0x20; end_sequence; then set_address 0, define_file "/a.cu",
 * set_file 2, copy, fixed_advance_pc 4, end_sequence. Returns its size. */
static size_t make_prog(uint8_t *b)
{
	static const uint8_t hdr[] = {
	    2,	 0,		      /* version */
	    0,	 0,    0,    0,	      /* header length, set below */
	    1,	 1,    0xfb, 14,  10, /* min inst, is_stmt, line base, range, opcode base */
	    0,	 1,    1,    1,	  1,  0, 0, 0, 1, /* standard opcode lengths */
	    'd', '\\', 0,    0,			  /* directories */
	    'k', '.',  'c',  'u', 0,  1, 0, 0, 0 /* files */};
	static const uint8_t prog[] = {0,
				       9,
				       2,
				       0x00,
				       1,
				       0,
				       0,
				       0,
				       0,
				       0,
				       0, /* set_address 0x100 */
				       3,
				       9,
				       1,			/* advance_line +9 (10), copy */
				       10 + (1 - -5) + 14 * 16, /* special: +16, +1 */
				       0,
				       3,
				       0x90,
				       2,
				       0, /* inlined at row 2 */
				       3,
				       0x78,
				       1, /* advance_line -8, copy */
				       0,
				       3,
				       0x90,
				       0,
				       0, /* not inlined */
				       2,
				       0x20,
				       0,
				       1,
				       1, /* advance_pc 32, end_sequence */
				       0,
				       9,
				       2,
				       0,
				       0,
				       0,
				       0,
				       0,
				       0,
				       0,
				       0, /* set_address 0 */
				       0,
				       10,
				       3,
				       '/',
				       'a',
				       '.',
				       'c',
				       'u',
				       0,
				       0,
				       0,
				       0, /* define_file */
				       4,
				       2,
				       1,
				       9,
				       4,
				       0,
				       0,
				       1,
				       1}; /* set_file 2, copy, +4, end */
	size_t ulen = sizeof hdr + sizeof prog;
	b[0] = (uint8_t)ulen;
	b[1] = b[2] = b[3] = 0;
	memcpy(b + 4, hdr, sizeof hdr);
	b[6] = (uint8_t)(sizeof hdr - 6);
	memcpy(b + 4 + sizeof hdr, prog, sizeof prog);
	return 4 + ulen;
}

void test_dwarf_lines(struct t *t)
{
	uint8_t b[256];
	size_t n = make_prog(b);
	struct arena a;
	arena_init(&a);
	struct ncu_dw_lines l;
	struct err e = {0};
	CHECK_INT(t, ncu_dwarf_lines(b, n, "r", 0, &a, &l, &e), 0);
	CHECK_INT(t, l.nfiles, 2);
	CHECK_STR(t, l.files[0], "d\\k.cu");
	CHECK_STR(t, l.files[1], "/a.cu");
	CHECK_INT(t, l.nseqs, 2);
	CHECK_INT(t, l.nrows, 6);
	CHECK_INT(t, l.seqs[0].addr_off, 4 + 6 + b[6] + 3);
	CHECK_INT(t, l.seqs[0].n, 4);
	CHECK_INT(t, l.rows[0].addr, 0x100);
	CHECK_INT(t, l.rows[0].line, 10);
	CHECK_INT(t, l.rows[1].addr, 0x110);
	CHECK_INT(t, l.rows[1].line, 11);
	CHECK_INT(t, l.rows[2].line, 3);
	CHECK_INT(t, l.rows[2].inlined_at, 2); /* row index 1, + 1 */
	CHECK_INT(t, l.rows[3].end, 1);
	CHECK_INT(t, l.rows[3].addr, 0x130);
	CHECK_INT(t, l.rows[3].inlined_at, 0);
	CHECK_INT(t, l.rows[4].file, 1);
	CHECK_INT(t, l.rows[5].addr, 4);
	/* every truncation: an error with an offset inside, never a crash */
	for (size_t k = 1; k < n; k++) {
		int rc = ncu_dwarf_lines(b, k, "r", 0, &a, &l, &e);
		CHECK(t, rc == ERR_FORMAT && e.offset >= 0 && e.offset <= (int64_t)k);
	}
	arena_free(&a);
}

/* ncu_dwarf_lines on b fails with ERR_FORMAT at off, saying what. */
static void bad(struct t *t, const uint8_t *b, size_t n, int64_t off, const char *what)
{
	struct arena a;
	arena_init(&a);
	struct ncu_dw_lines l;
	struct err e = {0};
	CHECK_INT(t, ncu_dwarf_lines(b, n, "r", 100, &a, &l, &e), ERR_FORMAT);
	CHECK_INT(t, e.offset, 100 + off);
	if (!strstr(e.msg, what))
		t_fail(t, __FILE__, __LINE__, "message [%s] lacks [%s]", e.msg, what);
	arena_free(&a);
}

void test_dwarf_hostile(struct t *t)
{
	uint8_t b[256];
	size_t n = make_prog(b);
	b[3] = 0x7f; /* huge unit length */
	bad(t, b, n, 0, "unit length past the end");
	n = make_prog(b);
	b[6] = 0xff; /* header length past the unit */
	bad(t, b, n, 6, "header length past the end");
	n = make_prog(b);
	b[4] = 5;
	bad(t, b, n, 4, "version 2, 3 or 4");
	n = make_prog(b);
	b[17] = 2; /* advance_pc with 2 operands */
	bad(t, b, n, 17, "non-standard operand count");
	n = make_prog(b);
	b[13] = 0; /* line range 0 */
	bad(t, b, n, 13, "line range above 0");
	n = make_prog(b);
	size_t prog = 4 + 6 + b[6];
	b[n - 8] = 7; /* set_file 7: past the table */
	bad(t, b, n, (int64_t)n - 7, "file index past");
	n = make_prog(b);
	memset(b + prog + 3, 0xff, 8); /* set_address 2^64 - 1, then advance */
	bad(t, b, n, (int64_t)prog + 14, "address past 2^64");
	n = make_prog(b);
	b[prog + 1] = 0x7f; /* extended opcode length past the unit */
	bad(t, b, n, (int64_t)prog + 1, "extended opcode's length");
	n = make_prog(b);
	b[prog + 18] = 9; /* inlined at row 9 of 2 */
	bad(t, b, n, (int64_t)prog + 16, "inlined-at row past");
}
