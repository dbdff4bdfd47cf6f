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

#include "ncu/ncu.h"
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
};

static const struct rep_col source_cols[] = {
    {"id", "ID", REP_INT},
    {"address", "Address", REP_STR},
    {"source", "Source", REP_STR},
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
	qsort(k->rows, k->nrows, sizeof *k->rows, cmp_row);
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

/* Kernel k: entry address, disassembly, counters. */
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
	return rc ? rc : merge_counters(s, k, &sass, m, e);
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
				      k->note[0] ? rep_s(k->note) : rep_null()};
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
			struct rep_val v[3 + NCOUNTERS] = {rep_i((int64_t)k->idx), rep_s(addr),
							   row->text ? rep_s(row->text)
								     : rep_null()};
			for (size_t c = 0; c < NCOUNTERS; c++)
				v[3 + c] = row->has[c] ? rep_f(row->v[c]) : rep_null();
			rep_row(rp, v);
		}
	}
	rep_table_end(rp);
}
