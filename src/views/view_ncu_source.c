/* view_ncu_source: `gpuprof ncu source` (GET /api/file/ID/ncu/source), the
 * SASS of each selected kernel beside its per-instruction counters, as
 * `ncu --import R --page source --print-source sass` shows it.
 *
 * Rows: one per instruction of the kernel's `.text.<mangled name>` section
 * of the cubin the report stores (disassembled by nvdisasm, ncu_sass.h),
 * and one per address that a per-instruction counter has but the
 * disassembly lacks (all of them when there is no disassembly); by
 * address. Address = the function's entry address (SourceData field 9 for
 * its mangled name; else the lowest address of its per-instruction
 * counters; else 0, the offsets in the section) + the offset. The counters
 * are the instances of the metrics of `counters` (correlation value = the
 * absolute address); null where the report has none for an address
 * (ncu prints 0 there).
 *
 * Table "kernels" says per kernel where the entry address came from, which
 * nvdisasm ran and, in one line, why a kernel has no SASS text (no
 * nvdisasm: how to get it; nvdisasm failed: its message). A cubin whose
 * ELF is malformed fails the view (ERR_FORMAT with the file offset). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "ncu/ncu.h"
#include "ncu/ncu_dwarf.h"
#include "ncu/ncu_sass.h"
#include "views/view_ncu.h"

/* nvdisasm's time limit per kernel */
#define SASS_TIMEOUT_MS 30000

/* The per-instruction counters, in column order, with ncu's titles. */
static const struct {
	const char *metric, *title;
} counters[] = {
    {"inst_executed", "Instructions Executed"},
    {"thread_inst_executed", "Thread Instructions Executed"},
    {"thread_inst_executed_true", "Predicated-On Thread Instructions Executed"},
    {"derived__avg_thread_executed", "Avg. Threads Executed"},
    {"derived__avg_thread_executed_true", "Avg. Predicated-On Threads Executed"},
    {"derived__avg_thread_unexecuted_true", "Avg. Predicated-On Threads Unexecuted"},
};
#define NCOUNTERS (sizeof counters / sizeof counters[0])

static const struct rep_col kernel_cols[] = {
    {"id", "ID", REP_INT},
    {"kernel", "Kernel", REP_STR},
    {"function", "Function", REP_STR},
    {"entry_address", "Entry Address", REP_STR},
    {"entry_from", "Entry From", REP_STR},
    {"instructions", "Instructions", REP_INT},
    {"disassembler", "Disassembler", REP_STR},
    {"note", "Note", REP_STR},
    {"cuda_note", "CUDA Note", REP_STR},
};

static const struct rep_col source_cols[] = {
    {"id", "ID", REP_INT},
    {"address", "Address", REP_STR},
    {"source", "Source", REP_STR},
    {"file", "File", REP_STR},
    {"line", "Line", REP_INT},
    {"inst_executed", "Instructions Executed", REP_FLOAT},
    {"thread_inst_executed", "Thread Instructions Executed", REP_FLOAT},
    {"thread_inst_executed_true", "Predicated-On Thread Instructions Executed", REP_FLOAT},
    {"derived__avg_thread_executed", "Avg. Threads Executed", REP_FLOAT},
    {"derived__avg_thread_executed_true", "Avg. Predicated-On Threads Executed", REP_FLOAT},
    {"derived__avg_thread_unexecuted_true", "Avg. Predicated-On Threads Unexecuted", REP_FLOAT},
};

static const struct rep_col cuda_cols[] = {
    {"id", "ID", REP_INT},
    {"file", "File", REP_STR},
    {"line", "Line", REP_INT},
    {"source", "Source", REP_STR},
    {"instructions", "Instructions", REP_INT},
    {"addresses", "Addresses", REP_STR},
    {"inst_executed", "Instructions Executed", REP_FLOAT},
    {"thread_inst_executed", "Thread Instructions Executed", REP_FLOAT},
    {"thread_inst_executed_true", "Predicated-On Thread Instructions Executed", REP_FLOAT},
    {"derived__avg_thread_executed", "Avg. Threads Executed", REP_FLOAT},
    {"derived__avg_thread_executed_true", "Avg. Predicated-On Threads Executed", REP_FLOAT},
    {"derived__avg_thread_unexecuted_true", "Avg. Predicated-On Threads Unexecuted", REP_FLOAT},
};

struct src_row {
	uint64_t addr;
	const char *text; /* NULL: no disassembly of it */
	const char *file; /* the CUDA file and line it maps to; NULL: unknown */
	uint32_t line;
	double v[NCOUNTERS];
	bool has[NCOUNTERS];
};

/* One CUDA source line with SASS: its rows' count and counter sums. */
struct cuda_line {
	const char *file, *text; /* text NULL: the report has none for the file */
	char *addrs;		 /* its rows' addresses, by address, space-separated */
	uint32_t line;
	size_t n;
	double v[NCOUNTERS];
	bool has[NCOUNTERS];
};

struct src_kernel {
	size_t idx;
	uint64_t entry;
	const char *entry_from, *disassembler; /* disassembler NULL: none ran */
	char note[640];
	struct src_row *rows;
	size_t nrows;
	struct cuda_line *cuda;
	size_t ncuda;
	char cuda_note[200];
};

struct src_res {
	struct arena a;
	struct ncu_report *r;
	struct src_kernel *k;
	size_t nk;
};

/* By address; of one address the row with text first. */
static int cmp_row(const void *x, const void *y)
{
	const struct src_row *a = x, *b = y;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return (a->text == NULL) - (b->text == NULL);
}

/* The row of addr in the sorted rows[0..n), or NULL. */
static struct src_row *find_row(struct src_row *rows, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (rows[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && rows[lo].addr == addr ? &rows[lo] : NULL;
}

static bool counter_addr(const struct ncu_instance *in, uint64_t *addr)
{
	if (in->corr.type != NCU_V_U64 && in->corr.type != NCU_V_U32)
		return false;
	*addr = in->corr.u;
	return true;
}

/* The rows of the disassembly plus the counters' addresses it lacks, by
 * address, with the counters' values. */
static int merge_counters(struct src_res *s, struct src_kernel *k, const struct ncu_sass *sass,
			  const struct ncu_metric *m[NCOUNTERS], struct err *e)
{
	size_t cap = sass->nrows;
	for (size_t c = 0; c < NCOUNTERS; c++)
		cap += m[c] ? m[c]->ninst : 0;
	k->rows = cap ? arena_array(&s->a, cap, sizeof *k->rows) : NULL;
	if (cap && !k->rows)
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	for (size_t i = 0; i < sass->nrows; i++)
		k->rows[k->nrows++] =
		    (struct src_row){.addr = sass->rows[i].addr, .text = sass->rows[i].text};
	/* the counters' addresses, then one row per address */
	for (size_t c = 0; c < NCOUNTERS; c++)
		for (size_t j = 0; m[c] && j < m[c]->ninst; j++) {
			uint64_t addr;
			if (counter_addr(&m[c]->inst[j], &addr))
				k->rows[k->nrows++] = (struct src_row){.addr = addr};
		}
	gp_qsort(k->rows, k->nrows, sizeof *k->rows, cmp_row); /* (rows may be NULL) */
	size_t w = 0;
	for (size_t i = 0; i < k->nrows; i++)
		if (!w || k->rows[i].addr != k->rows[w - 1].addr)
			k->rows[w++] = k->rows[i];
	k->nrows = w;
	for (size_t c = 0; c < NCOUNTERS; c++)
		for (size_t j = 0; m[c] && j < m[c]->ninst; j++) {
			uint64_t addr;
			struct src_row *row;
			if (counter_addr(&m[c]->inst[j], &addr) &&
			    (row = find_row(k->rows, k->nrows, addr))) {
				row->v[c] = ncu_value_num(&m[c]->inst[j].value);
				row->has[c] = true;
			}
		}
	return 0;
}

/* Disassembles kernel k's function into *sass, or says in k->note why
 * not; ERR_FORMAT for a malformed cubin. */
static int disassemble(struct src_res *s, struct src_kernel *k, const char *nvdisasm,
		       const char *why, struct ncu_sass *sass, struct err *e)
{
	const struct ncu_result *res = &s->r->results[k->idx];
	const struct ncu_source *src = ncu_source_of(s->r, k->idx);
	memset(sass, 0, sizeof *sass);
	if (!src || !src->binary) {
		snprintf(k->note, sizeof k->note, "the report stores no cubin for this kernel");
		return 0;
	}
	if (src->binary_bytes < 64) { /* a stub (test reports): not an ELF to read */
		snprintf(k->note, sizeof k->note,
			 "the report's cubin is a stub of %zu bytes (no ELF header)",
			 src->binary_bytes);
		return 0;
	}
	char name[4200], arch[16];
	snprintf(name, sizeof name, ".text.%s", res->mangled);
	const uint8_t *text;
	size_t len;
	uint32_t flags;
	int rc = ncu_elf_section(src->binary, src->binary_bytes, name, s->r->path, src->binary_off,
				 &text, &len, &flags, e);
	if (rc < 0)
		return rc;
	if (rc) {
		snprintf(k->note, sizeof k->note, "the cubin has no section %.500s", name);
		return 0;
	}
	if (!ncu_sass_arch(src->sm_revision, flags, arch, sizeof arch)) {
		snprintf(k->note, sizeof k->note, "the cubin names no SM architecture");
		return 0;
	}
	if (!nvdisasm) {
		snprintf(k->note, sizeof k->note,
			 "SASS text needs NVIDIA's nvdisasm%s%.300s: give --nvdisasm PATH or "
			 "GPUPROF_NVDISASM, or put it on PATH (Debian 12: package "
			 "nvidia-cuda-toolkit, non-free; tools/get-nvdisasm.sh)",
			 why[0] ? " (" : "", why[0] ? why : "");
		return 0;
	}
	if ((rc = ncu_sass_disasm(nvdisasm, arch, k->entry, text, len, SASS_TIMEOUT_MS, &s->a, sass,
				  e)))
		return rc;
	k->disassembler = nvdisasm;
	snprintf(k->note, sizeof k->note, "%s", sass->note);
	return 0;
}

/* path with every run of '/' or '\\' made one '/' (ncu prints the line
 * table's "C:\\dir\\" + "f.cu" as "C:/dir/f.cu"), in the arena. */
static const char *norm_path(struct arena *a, const char *p)
{
	size_t n = strlen(p), w = 0;
	char *o = arena_alloc(a, n + 1);
	if (!o)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		bool sep = p[i] == '/' || p[i] == '\\';
		if (sep && w && o[w - 1] == '/')
			continue;
		o[w++] = sep ? '/' : p[i];
	}
	o[w] = 0;
	return o;
}

/* Line no (1-based) of the imported file named file (normalized), without
 * its leading and trailing white space as ncu prints it; NULL when the
 * report has no text for the file (or the file no such line). */
static const char *line_text(struct src_res *s, const struct ncu_source *src, const char *file,
			     uint32_t no)
{
	for (size_t i = 0; i < src->nimported; i++) {
		const struct ncu_imported *im = &src->imported[i];
		const char *np = norm_path(&s->a, im->path);
		if (!np || strcmp(np, file))
			continue;
		const char *t = im->text, *end = t + im->len;
		for (uint32_t l = 1; l < no && t < end; l++) {
			const char *nl = memchr(t, '\n', (size_t)(end - t));
			t = nl ? nl + 1 : end;
		}
		if (t >= end)
			return NULL;
		const char *nl = memchr(t, '\n', (size_t)(end - t));
		const char *le = nl ? nl : end;
		while (t < le && (*t == ' ' || *t == '\t'))
			t++;
		while (le > t && (le[-1] == ' ' || le[-1] == '\t' || le[-1] == '\r'))
			le--;
		return arena_strndup(&s->a, t, (size_t)(le - t));
	}
	return NULL;
}

/* One (CUDA line, SASS row) pair: the row's own line and each call site it
 * is inlined into, as ncu lists the row under each. */
struct pair {
	const char *file;
	uint32_t line;
	size_t row;
};

static int cmp_pair(const void *x, const void *y)
{
	const struct pair *a = x, *b = y;
	int c = strcmp(a->file, b->file);
	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

/* The range of ranges[0..n) (by start, disjoint) holding off, or NULL. */
static const struct ncu_dw_range *find_range(const struct ncu_dw_range *r, size_t n, uint64_t off)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r[mid].end <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && r[lo].start <= off && off < r[lo].end ? &r[lo] : NULL;
}

/* The pairs of row j (its line, then the call sites' lines, each once)
 * written to p (when not NULL) from *np on; file names normalized in fn. */
static void row_pairs(const struct ncu_dw_lines *l, const char **fn, size_t r, size_t j,
		      struct pair *p, size_t *np)
{
	size_t first = *np;
	for (size_t cur = r + 1; cur; cur = l->rows[cur - 1].inlined_at) {
		const struct ncu_dw_row *w = &l->rows[cur - 1];
		bool seen = !w->line;
		for (size_t q = first; p && !seen && q < *np; q++)
			seen = p[q].line == w->line && p[q].file == fn[w->file];
		if (seen)
			continue;
		if (p)
			p[*np] = (struct pair){fn[w->file], w->line, j};
		(*np)++;
	}
}

/* Table "cuda" of kernel k from its pairs p[0..np): one line per (file,
 * line), in file/line order, with its rows' count and counter sums. */
static int aggregate(struct src_res *s, struct src_kernel *k, const struct ncu_source *src,
		     struct pair *p, size_t np, struct err *e)
{
	gp_qsort(p, np, sizeof *p, cmp_pair);
	k->cuda = arena_array(&s->a, np, sizeof *k->cuda);
	if (!k->cuda)
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	for (size_t i = 0; i < np; i++) {
		struct cuda_line *c = &k->cuda[k->ncuda ? k->ncuda - 1 : 0];
		if (!k->ncuda || c->line != p[i].line || strcmp(c->file, p[i].file)) {
			c = &k->cuda[k->ncuda++];
			memset(c, 0, sizeof *c);
			c->file = p[i].file;
			c->line = p[i].line;
			c->text = line_text(s, src, c->file, c->line);
		}
		const struct src_row *r = &k->rows[p[i].row];
		if (!c->n) { /* room for this line's addresses: 19 bytes each */
			size_t n = 1;
			while (i + n < np && p[i + n].line == c->line &&
			       !strcmp(p[i + n].file, c->file))
				n++;
			if (!(c->addrs = arena_alloc(&s->a, 20 * n)))
				return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
			c->addrs[0] = 0;
		}
		size_t at = strlen(c->addrs);
		snprintf(c->addrs + at, 20, "%s0x%" PRIx64, at ? " " : "", r->addr);
		c->n++;
		for (size_t m = 0; m < NCOUNTERS; m++)
			if (r->has[m])
				c->v[m] += r->v[m], c->has[m] = true;
	}
	return 0;
}

/* Kernel k's CUDA lines: each SASS row's file and line (line table of the
 * cubin) and table "cuda"; or k->cuda_note saying why there are none. */
static int map_cuda(struct src_res *s, struct src_kernel *k, struct err *e)
{
	const struct ncu_result *res = &s->r->results[k->idx];
	const struct ncu_source *src = ncu_source_of(s->r, k->idx);
	if (!src || !src->binary || src->binary_bytes < 64) {
		snprintf(k->cuda_note, sizeof k->cuda_note, "the report stores no cubin (ELF)");
		return 0;
	}
	struct ncu_dw_lines l;
	struct ncu_dw_range *rg;
	size_t nrg, np = 0;
	const char *note;
	int rc = ncu_dwarf_kernel(src->binary, src->binary_bytes, res->mangled, s->r->path,
				  src->binary_off, &s->a, &l, &rg, &nrg, &note, e);
	if (rc)
		return rc;
	if (note) {
		snprintf(k->cuda_note, sizeof k->cuda_note, "%s", note);
		return 0;
	}
	const char **fn = arena_array(&s->a, l.nfiles + 1, sizeof *fn);
	if (!fn)
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	for (size_t i = 0; i < l.nfiles; i++)
		if (!(fn[i] = norm_path(&s->a, l.files[i])))
			return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	for (int pass = 0; pass < 2; pass++) { /* count, then fill */
		struct pair *p = pass ? arena_array(&s->a, np + 1, sizeof *p) : NULL;
		if (pass && !p)
			return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
		np = 0;
		for (size_t j = 0; j < k->nrows; j++) {
			const struct ncu_dw_range *g =
			    k->rows[j].addr >= k->entry
				? find_range(rg, nrg, k->rows[j].addr - k->entry)
				: NULL;
			if (!g)
				continue;
			const struct ncu_dw_row *w = &l.rows[g->row];
			if (w->line)
				k->rows[j].file = fn[w->file], k->rows[j].line = w->line;
			row_pairs(&l, fn, g->row, j, p, &np);
		}
		if (pass && np)
			rc = aggregate(s, k, src, p, np, e);
	}
	if (!k->ncuda)
		snprintf(k->cuda_note, sizeof k->cuda_note,
			 "no SASS address of this kernel is in the cubin's line table");
	else if (!src->nimported)
		snprintf(k->cuda_note, sizeof k->cuda_note,
			 "the report stores no CUDA source text (ncu --import-source yes)");
	return rc;
}

/* Kernel k: entry address, disassembly, counters, CUDA lines. */
/* The counters' cells of a row: a value where the report has it, else null. */
static void put_counters(struct rep_val *v, const bool *has, const double *val)
{
	for (size_t c = 0; c < NCOUNTERS; c++)
		v[c] = has[c] ? rep_f(val[c]) : rep_null();
}

static int compute_kernel(struct src_res *s, struct src_kernel *k, const char *nvdisasm,
			  const char *why, struct err *e)
{
	const struct ncu_result *res = &s->r->results[k->idx];
	const struct ncu_metric *m[NCOUNTERS];
	uint64_t lowest = UINT64_MAX;
	for (size_t c = 0; c < NCOUNTERS; c++) {
		m[c] = ncu_lookup(s->r, k->idx, counters[c].metric);
		for (size_t j = 0; m[c] && j < m[c]->ninst; j++) {
			uint64_t addr;
			if (counter_addr(&m[c]->inst[j], &addr) && addr < lowest)
				lowest = addr;
		}
	}
	if (ncu_function_entry(ncu_source_of(s->r, k->idx), res->mangled, &k->entry))
		k->entry_from = "functions";
	else if (lowest != UINT64_MAX)
		k->entry = lowest, k->entry_from = "counters";
	else
		k->entry = 0, k->entry_from = "none";
	struct ncu_sass sass;
	int rc = disassemble(s, k, nvdisasm, why, &sass, e);
	if (!rc)
		rc = merge_counters(s, k, &sass, m, e);
	return rc ? rc : map_cuda(s, k, e);
}

int ncu_view_source_compute(struct ncu_report *r, const struct ncu_view_opts *o, void **out,
			    struct err *e)
{
	struct src_res *s = calloc(1, sizeof *s);
	if (!s)
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	*out = s;
	arena_init(&s->a);
	s->r = r;
	char path[4096], why[400];
	enum ncu_nvdisasm_from from =
	    ncu_nvdisasm_find(o->nvdisasm, path, sizeof path, why, sizeof why);
	const char *nvd = from == NCU_NVD_NONE ? NULL : arena_strndup(&s->a, path, strlen(path));
	if (from != NCU_NVD_NONE && !nvd)
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	s->k = r->nresults ? arena_array(&s->a, r->nresults, sizeof *s->k) : NULL;
	if (r->nresults && !s->k)
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	for (size_t i = 0; i < r->nresults; i++) {
		if (!ncu_view_selected(o, r, i))
			continue;
		struct src_kernel *k = &s->k[s->nk++];
		memset(k, 0, sizeof *k);
		k->idx = i;
		int rc = compute_kernel(s, k, nvd, why, e);
		if (rc)
			return rc;
	}
	return 0;
}

void ncu_view_source_free(void *p)
{
	struct src_res *s = p;
	if (!s)
		return;
	arena_free(&s->a);
	free(s);
}

void ncu_view_source(const void *p, struct report *rp)
{
	const struct src_res *s = p;
	char entry[24], addr[24];
	rep_table_begin(rp, "kernels", "Kernels", kernel_cols,
			(int)(sizeof kernel_cols / sizeof kernel_cols[0]));
	for (size_t i = 0; i < s->nk; i++) {
		const struct src_kernel *k = &s->k[i];
		const struct ncu_result *res = &s->r->results[k->idx];
		snprintf(entry, sizeof entry, "0x%" PRIx64, k->entry);
		struct rep_val v[] = {rep_i((int64_t)k->idx),
				      rep_s(ncu_kernel_name(res)),
				      rep_s(res->mangled),
				      rep_s(entry),
				      rep_s(k->entry_from),
				      rep_i((int64_t)k->nrows),
				      k->disassembler ? rep_s(k->disassembler) : rep_null(),
				      k->note[0] ? rep_s(k->note) : rep_null(),
				      k->cuda_note[0] ? rep_s(k->cuda_note) : rep_null()};
		rep_row(rp, v);
	}
	rep_table_end(rp);
	rep_table_begin(rp, "source", "SASS and per-instruction counters", source_cols,
			(int)(sizeof source_cols / sizeof source_cols[0]));
	for (size_t i = 0; i < s->nk; i++) {
		const struct src_kernel *k = &s->k[i];
		for (size_t j = 0; j < k->nrows; j++) {
			const struct src_row *row = &k->rows[j];
			snprintf(addr, sizeof addr, "0x%" PRIx64, row->addr);
			struct rep_val v[5 + NCOUNTERS] = {
			    rep_i((int64_t)k->idx), rep_s(addr),
			    row->text ? rep_s(row->text) : rep_null(),
			    row->file ? rep_s(row->file) : rep_null(),
			    row->file ? rep_i(row->line) : rep_null()};
			put_counters(v + 5, row->has, row->v);
			rep_row(rp, v);
		}
	}
	rep_table_end(rp);
	rep_table_begin(rp, "cuda", "CUDA source lines and their SASS's counters", cuda_cols,
			(int)(sizeof cuda_cols / sizeof cuda_cols[0]));
	for (size_t i = 0; i < s->nk; i++) {
		const struct src_kernel *k = &s->k[i];
		for (size_t j = 0; j < k->ncuda; j++) {
			const struct cuda_line *l = &k->cuda[j];
			struct rep_val v[6 + NCOUNTERS] = {
			    rep_i((int64_t)k->idx), rep_s(l->file),
			    rep_i(l->line),	    l->text ? rep_s(l->text) : rep_null(),
			    rep_i((int64_t)l->n),   rep_s(l->addrs)};
			put_counters(v + 6, l->has, l->v);
			rep_row(rp, v);
		}
	}
	rep_table_end(rp);
}
