/* ncu_dwarf: a DWARF line-number program reader (ncu_dwarf.h). A cursor
 * reads inside one unit; every ULEB/SLEB is bounded (at most 10 bytes,
 * no bits past 64), every address advance is checked against overflow.
 * The rows, files and sequences cannot outnumber the section's bytes (each
 * takes at least one), so their arrays are sized from it once, capped at
 * NCU_DW_MAX. */
#include <string.h>

#include "ncu/ncu_dwarf.h"

struct cur {
	const uint8_t *p;
	size_t i, end; /* read p[i..end) */
	const char *path;
	int64_t base;
	struct err *e;
};

struct state {
	uint64_t addr;
	uint32_t file, line, inlined;
	size_t seq_first;     /* first row of the current sequence */
	uint64_t addr_off;    /* its set_address operand's offset */
	size_t fbase, fcount; /* the unit's files: files[fbase .. fbase + fcount) */
	uint8_t min_inst;
	int8_t line_base;
	uint8_t line_range, opcode_base;
	uint8_t lens[256]; /* the operand count of each standard opcode */
};

static int bad(struct cur *c, size_t at, const char *what)
{
	return err_set(c->e, ERR_FORMAT, c->path, c->base + (int64_t)at, "cubin .debug_line: %s",
		       what);
}

static int u8(struct cur *c, uint8_t *v)
{
	if (c->i >= c->end)
		return bad(c, c->i, "expected a byte, found the end of the unit");
	*v = c->p[c->i++];
	return 0;
}

static int fixed(struct cur *c, unsigned nb, uint64_t *v)
{
	if (c->end - c->i < nb)
		return bad(c, c->i, "expected a fixed-size number, found the end of the unit");
	*v = 0;
	for (unsigned k = 0; k < nb; k++)
		*v |= (uint64_t)c->p[c->i + k] << (8 * k);
	c->i += nb;
	return 0;
}

/* LEB128, unsigned or (sign) signed. */
static int leb(struct cur *c, int sign, uint64_t *v)
{
	size_t at = c->i;
	unsigned shift = 0;
	uint8_t b = 0;
	*v = 0;
	do {
		if (u8(c, &b))
			return ERR_FORMAT;
		if (shift >= 64 || (shift == 63 && (b & 0x7e)))
			return bad(c, at, "expected a LEB128 number of at most 64 bits");
		*v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (sign && shift < 64 && (b & 0x40))
		*v |= ~(uint64_t)0 << shift;
	return 0;
}

/* A NUL-terminated string inside the unit; *s points into the bytes. */
static int cstr(struct cur *c, const char **s, size_t *len)
{
	const uint8_t *z = memchr(c->p + c->i, 0, c->end - c->i);
	if (!z)
		return bad(c, c->i, "expected a string ended inside the unit");
	*s = (const char *)c->p + c->i;
	*len = (size_t)(z - (c->p + c->i));
	c->i += *len + 1;
	return 0;
}

static int advance(struct cur *c, struct state *s, uint64_t by, size_t at)
{
	if (by && s->min_inst > UINT64_MAX / by)
		return bad(c, at, "address advance past 2^64");
	by *= s->min_inst;
	if (s->addr > UINT64_MAX - by)
		return bad(c, at, "address past 2^64");
	s->addr += by;
	return 0;
}

/* A file entry (name, then ULEB dir, time, size) appended to out->files. */
static int file_entry(struct cur *c, struct state *s, const char *name, size_t nlen,
		      const char **dirs, size_t ndirs, struct arena *a, struct ncu_dw_lines *out,
		      size_t cap)
{
	uint64_t dir, skip;
	size_t at = c->i;
	if (leb(c, 0, &dir) || leb(c, 0, &skip) || leb(c, 0, &skip))
		return ERR_FORMAT;
	if (dir > ndirs)
		return bad(c, at, "file entry's directory index past the directory table");
	if (out->nfiles >= cap)
		return bad(c, at, "more files than the table can hold");
	const char *d = dir ? dirs[dir - 1] : "";
	size_t dl = strlen(d);
	bool abs = nlen && (name[0] == '/' || name[0] == '\\' || (nlen > 1 && name[1] == ':'));
	if (abs)
		dl = 0;
	char *f = arena_alloc(a, dl + nlen + 2);
	if (!f)
		return err_set(c->e, ERR_NOMEM, NULL, -1, "out of memory");
	memcpy(f, d, dl);
	size_t k = dl;
	if (dl && d[dl - 1] != '/' && d[dl - 1] != '\\')
		f[k++] = '/';
	memcpy(f + k, name, nlen);
	f[k + nlen] = 0;
	out->files[out->nfiles++] = f;
	s->fcount++;
	return 0;
}

/* The header after unit_length: version, header_length, the parameters,
 * the opcode lengths, directories and files; c->i is left at the program. */
static int header(struct cur *c, struct state *s, struct arena *a, struct ncu_dw_lines *out,
		  size_t cap)
{
	static const uint8_t std_len[] = {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1};
	uint64_t ver = 0, hlen = 0;
	uint8_t b = 0;
	size_t at = c->i;
	if (fixed(c, 2, &ver))
		return ERR_FORMAT;
	if (ver < 2 || ver > 4)
		return bad(c, at, "expected line table version 2, 3 or 4");
	at = c->i;
	if (fixed(c, 4, &hlen))
		return ERR_FORMAT;
	if (hlen > c->end - c->i)
		return bad(c, at, "header length past the end of the unit");
	size_t prog = c->i + (size_t)hlen, uend = c->end;
	c->end = prog; /* the header's fields must lie inside it */
	if (u8(c, &s->min_inst) || (ver >= 4 && u8(c, &b)) || u8(c, &b) || u8(c, &b))
		return ERR_FORMAT;
	s->line_base = (int8_t)b;
	at = c->i;
	if (u8(c, &s->line_range) || u8(c, &s->opcode_base))
		return ERR_FORMAT;
	if (!s->line_range)
		return bad(c, at, "expected a line range above 0");
	if (!s->opcode_base)
		return bad(c, at + 1, "expected an opcode base above 0");
	for (unsigned op = 1; op < s->opcode_base; op++) {
		at = c->i;
		if (u8(c, &b))
			return ERR_FORMAT;
		if (op < sizeof std_len && b != std_len[op])
			return bad(c, at, "standard opcode with a non-standard operand count");
		s->lens[op] = b;
	}
	const char **dirs = arena_array(a, c->end - c->i + 1, sizeof *dirs);
	size_t ndirs = 0, len;
	const char *str;
	if (!dirs)
		return err_set(c->e, ERR_NOMEM, NULL, -1, "out of memory");
	for (;;) {
		if (cstr(c, &str, &len))
			return ERR_FORMAT;
		if (!len)
			break;
		if (!(dirs[ndirs++] = arena_strndup(a, str, len)))
			return err_set(c->e, ERR_NOMEM, NULL, -1, "out of memory");
	}
	s->fbase = out->nfiles;
	s->fcount = 0;
	for (;;) {
		if (cstr(c, &str, &len))
			return ERR_FORMAT;
		if (!len)
			break;
		int rc = file_entry(c, s, str, len, dirs, ndirs, a, out, cap);
		if (rc)
			return rc;
	}
	c->i = prog;
	c->end = uend;
	return 0;
}

static int emit(struct cur *c, struct state *s, struct ncu_dw_lines *out, size_t cap, size_t at,
		uint32_t end)
{
	if (s->file < 1 || s->file > s->fcount)
		return bad(c, at, "row's file index past the unit's file table");
	if (out->nrows >= cap)
		return bad(c, at, "more rows than the table can hold");
	out->rows[out->nrows++] = (struct ncu_dw_row){.addr = s->addr,
						      .file = (uint32_t)(s->fbase + s->file - 1),
						      .line = s->line,
						      .inlined_at = s->inlined,
						      .end = end};
	return 0;
}

/* The registers at the start of a sequence (DWARF 6.2.2). */
static void reset(struct state *s, size_t nrows)
{
	s->addr = 0;
	s->file = 1;
	s->line = 1;
	s->inlined = 0;
	s->seq_first = nrows;
	s->addr_off = UINT64_MAX;
}

static int end_seq(struct state *s, struct ncu_dw_lines *out)
{
	out->seqs[out->nseqs++] = (struct ncu_dw_seq){
	    .addr_off = s->addr_off, .first = s->seq_first, .n = out->nrows - s->seq_first};
	reset(s, out->nrows);
	return 0;
}

/* An extended opcode (after its 0 byte). */
static int extended(struct cur *c, struct state *s, struct arena *a, struct ncu_dw_lines *out,
		    size_t cap)
{
	size_t at = c->i;
	uint64_t len = 0, v = 0, fn = 0;
	uint8_t op = 0;
	if (leb(c, 0, &len))
		return ERR_FORMAT;
	if (!len || len > c->end - c->i)
		return bad(c, at, "extended opcode's length past the end of the unit");
	size_t next = c->i + (size_t)len, uend = c->end;
	c->end = next;
	if (u8(c, &op))
		return ERR_FORMAT;
	if (op == 1) { /* end_sequence */
		if (emit(c, s, out, cap, at, 1))
			return ERR_FORMAT;
		end_seq(s, out);
	} else if (op == 2) { /* set_address: 4 or 8 bytes */
		if (len != 5 && len != 9)
			return bad(c, at, "set_address with an operand of neither 4 nor 8 bytes");
		s->addr_off = (uint64_t)c->i;
		if (fixed(c, (unsigned)len - 1, &s->addr))
			return ERR_FORMAT;
	} else if (op == 3) { /* define_file */
		const char *str;
		size_t nlen;
		if (cstr(c, &str, &nlen))
			return ERR_FORMAT;
		int rc = file_entry(c, s, str, nlen, NULL, 0, a, out, cap);
		if (rc)
			return rc;
	} else if (op == 0x90) { /* NVIDIA: the call site of the rows that follow */
		if (leb(c, 0, &v) || leb(c, 0, &fn))
			return ERR_FORMAT;
		if (v > out->nrows - s->seq_first)
			return bad(c, at, "inlined-at row past the rows of its sequence");
		s->inlined = v ? (uint32_t)(s->seq_first + v) : 0;
	}
	c->i = next; /* the rest of a known one, all of an unknown one */
	c->end = uend;
	return 0;
}

/* A standard opcode op (1 .. opcode_base - 1). */
static int standard(struct cur *c, struct state *s, uint8_t op, struct ncu_dw_lines *out,
		    size_t cap, size_t at)
{
	uint64_t v = 0;
	switch (op) {
	case 1: /* copy */
		return emit(c, s, out, cap, at, 0);
	case 2: /* advance_pc */
		return leb(c, 0, &v) || advance(c, s, v, at) ? ERR_FORMAT : 0;
	case 3: /* advance_line */
		if (leb(c, 1, &v))
			return ERR_FORMAT;
		/* a step past 2^32 either way leaves the range from any line
		 * (checked first: the sum could overflow) */
		int64_t d = (int64_t)v;
		if (d > UINT32_MAX || d < -(int64_t)UINT32_MAX || (int64_t)s->line + d < 0 ||
		    (int64_t)s->line + d > UINT32_MAX)
			return bad(c, at, "line number out of 0 .. 2^32");
		s->line = (uint32_t)((int64_t)s->line + d);
		return 0;
	case 4: /* set_file */
		if (leb(c, 0, &v))
			return ERR_FORMAT;
		s->file = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
		return 0;
	case 8: /* const_add_pc */
		return advance(c, s, (uint64_t)(255 - s->opcode_base) / s->line_range, at);
	case 9: /* fixed_advance_pc: not scaled */
		if (fixed(c, 2, &v))
			return ERR_FORMAT;
		if (s->addr > UINT64_MAX - v)
			return bad(c, at, "address past 2^64");
		s->addr += v;
		return 0;
	case 5:
	case 12: /* set_column, set_isa */
		return leb(c, 0, &v);
	default: /* negate_stmt, basic_block, prologue_end, epilogue_begin */
		return 0;
	}
}

/* One unit: p[start .. start + 4 + unit_length). */
static int unit(struct cur *c, struct arena *a, struct ncu_dw_lines *out, size_t cap)
{
	struct state s = {0};
	uint64_t ulen = 0;
	size_t at = c->i;
	if (fixed(c, 4, &ulen))
		return ERR_FORMAT;
	if (ulen >= 0xfffffff0u)
		return bad(c, at, "expected 32-bit DWARF (unit length below 0xfffffff0)");
	if (ulen > c->end - c->i)
		return bad(c, at, "unit length past the end of the section");
	size_t send = c->end;
	c->end = c->i + (size_t)ulen;
	int rc = header(c, &s, a, out, cap);
	if (rc)
		return rc;
	reset(&s, out->nrows);
	while (c->i < c->end) {
		uint8_t op = 0;
		at = c->i;
		if (u8(c, &op))
			return ERR_FORMAT;
		if (out->nseqs >= cap)
			return bad(c, at, "more sequences than the table can hold");
		if (op >= s.opcode_base) { /* special */
			unsigned adj = op - s.opcode_base;
			int64_t l = (int64_t)s.line + s.line_base + (int64_t)(adj % s.line_range);
			if (l < 0 || l > UINT32_MAX)
				return bad(c, at, "line number out of 0 .. 2^32");
			if (advance(c, &s, adj / s.line_range, at))
				return ERR_FORMAT;
			s.line = (uint32_t)l;
			rc = emit(c, &s, out, cap, at, 0);
		} else if (op == 0)
			rc = extended(c, &s, a, out, cap);
		else if (op < 13)
			rc = standard(c, &s, op, out, cap, at);
		else { /* an unknown standard opcode: skip its ULEB operands */
			rc = 0;
			uint64_t v;
			for (unsigned k = 0; !rc && k < s.lens[op]; k++)
				rc = leb(c, 0, &v);
		}
		if (rc)
			return rc;
	}
	c->end = send;
	return 0;
}

int ncu_dwarf_lines(const uint8_t *p, size_t n, const char *path, int64_t base_off, struct arena *a,
		    struct ncu_dw_lines *out, struct err *e)
{
	struct cur c = {.p = p, .i = 0, .end = n, .path = path, .base = base_off, .e = e};
	size_t cap = n < NCU_DW_MAX ? n : NCU_DW_MAX;
	memset(out, 0, sizeof *out);
	if (!n)
		return 0;
	out->rows = arena_array(a, cap, sizeof *out->rows);
	out->files = arena_array(a, cap, sizeof *out->files);
	out->seqs = arena_array(a, cap + 1, sizeof *out->seqs);
	if (!out->rows || !out->files || !out->seqs)
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	int rc = 0;
	while (!rc && c.i < n)
		rc = unit(&c, a, out, cap);
	return rc;
}
