/* input: the registry's table and the loading of an input; see input.h. */
#include "input/input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/sniff.h"
#include "ncu/ncu.h"
#include "nsys/nsys.h"
#include "trace/trace.h"

/* Bytes sniffed: enough for every signature, an analysis.json's first key
 * after its whitespace included; of a gzip file, the raw bytes read to
 * inflate them (a few KiB do but for a first member of odd headers). */
#define INPUT_HEAD 4096
#define INPUT_RAW_HEAD 65536
/* analysis.json files are small (kilobytes to a few megabytes); a cap
 * keeps a mistaken multi-gigabyte JSON out of memory */
#define INPUT_ANALYSIS_MAX ((int64_t)256 << 20)

static int load_trace(struct input *in, const struct input_opts *o, struct err *e)
{
	return kineto_load(in->path, &o->trace, &in->trace, e);
}

static void free_trace(struct input *in)
{
	tr_free(in->trace);
}

static int64_t count_trace(const struct input *in)
{
	return (int64_t)in->trace->ev.n;
}

static int load_ncu(struct input *in, const struct input_opts *o, struct err *e)
{
	return ncu_load(&in->ncu, in->path, o ? o->trace.threads : 0, e);
}

static void free_ncu(struct input *in)
{
	ncu_free(in->ncu);
}

static int64_t count_ncu(const struct input *in)
{
	return (int64_t)in->ncu->nresults;
}

/* Opened once to check it; every answer opens it again, read-only. */
static int load_nsys(struct input *in, const struct input_opts *o, struct err *e)
{
	struct nsys_sql *q = NULL;
	int rc = nsys_sql_open(in->path, &q, e);
	nsys_sql_close(q);
	return rc;
}

/* A rank summary is read again, whole, by each answer that uses it (the
 * server's distributed view): loading only checks that it opens. */
static int load_summary(struct input *in, const struct input_opts *o, struct err *e)
{
	FILE *f = fopen(in->path, "rb");
	if (!f)
		return err_set(e, ERR_IO, in->name, -1, "cannot open: %s", strerror(errno));
	fclose(f);
	return 0;
}

static int load_analysis(struct input *in, const struct input_opts *o, struct err *e)
{
	int rc =
	    nsys_analysis_read(in->path, in->name, o->max_bytes ? o->max_bytes : INPUT_ANALYSIS_MAX,
			       &in->analysis.json, &in->analysis.len, e);
	if (!rc)
		in->bytes = (int64_t)in->analysis.len;
	return rc;
}

static void free_analysis(struct input *in)
{
	free(in->analysis.json);
}

static void strip_slashes(char *s)
{
	size_t n = strlen(s);
	while (n > 1 && s[n - 1] == '/')
		s[--n] = 0;
}

/* Its analysis.json, or the analysis of its CSVs computed in memory. */
static int load_run_dir(struct input *in, const struct input_opts *o, struct err *e)
{
	strip_slashes(in->path);
	strip_slashes(in->name);
	in->kind = INPUT_NSYS_ANALYSIS;
	int rc = nsys_run_dir_analysis(in->path, o->max_bytes ? o->max_bytes : INPUT_ANALYSIS_MAX,
				       &in->analysis.json, &in->analysis.len, e);
	if (!rc)
		in->bytes = (int64_t)in->analysis.len;
	return rc;
}

static void free_nothing(struct input *in)
{
	(void)in;
}

static int64_t count_none(const struct input *in)
{
	(void)in;
	return -1;
}

/* The registry. Rows are tried in enum order, the first match wins; a row
 * without sniff or dir is never a match (INPUT_UNKNOWN). */
static const struct input_row rows[INPUT_KIND_COUNT] = {
    [INPUT_UNKNOWN] = {.kind = INPUT_UNKNOWN,
		       .name = "unknown",
		       .what = "a file of no kind gpuprof reads",
		       .free = free_nothing,
		       .count = count_none},
    [INPUT_RUN_DIR] = {.kind = INPUT_RUN_DIR,
		       .name = "run-dir",
		       .what = "a directory",
		       .hint = "`gpuprof serve DIR` shows a profiling run directory",
		       .dir = true,
		       .load = load_run_dir,  /* as the analysis it holds, */
		       .free = free_analysis, /* which INPUT_NSYS_ANALYSIS frees */
		       .count = count_none},
    [INPUT_NCU] = {.kind = INPUT_NCU,
		   .name = "ncu",
		   .what = "an Nsight Compute (.ncu-rep) file",
		   /* no hint: the message `gpuprof info` has always printed for a
		    * report (tests/golden/err-ncu-file) */
		   .sniff = sniff_ncu_rep,
		   .load = load_ncu,
		   .free = free_ncu,
		   .count = count_ncu},
    [INPUT_NSYS] = {.kind = INPUT_NSYS,
		    .name = "nsys",
		    .what = "an SQLite file",
		    .hint = "`gpuprof nsys FILE` reads Nsight Systems exports",
		    .sniff = sniff_sqlite,
		    .by_name = true,
		    .load = load_nsys,
		    .free = free_nothing,
		    .count = count_none},
    [INPUT_NSYS_REP] = {.kind = INPUT_NSYS_REP,
			.name = "nsys-rep",
			.what = "an Nsight Systems (.nsys-rep) file",
			.hint = "export it with `nsys export --type sqlite` for `gpuprof nsys`",
			.sniff = sniff_nsys_rep,
			.free = free_nothing,
			.count = count_none},
    [INPUT_NSYS_ANALYSIS] = {.kind = INPUT_NSYS_ANALYSIS,
			     .name = "nsys-analysis",
			     .what = "an analysis.json of `nsys analyze`",
			     .hint = "`gpuprof serve FILE` shows it",
			     .sniff = sniff_nsys_analysis,
			     .load = load_analysis,
			     .free = free_analysis,
			     .count = count_none},
    [INPUT_RANK_SUMMARY] = {.kind = INPUT_RANK_SUMMARY,
			    .name = "rank-summary",
			    .what = "a rank summary of `gpuprof rank-summary`",
			    .hint = "`gpuprof dist FILE...` reads rank summaries",
			    .sniff = sniff_rank_summary,
			    .by_name = true,
			    .load = load_summary,
			    .free = free_nothing,
			    .count = count_none},
    [INPUT_TRACE] = {.kind = INPUT_TRACE,
		     .name = "torch",
		     .what = "a PyTorch trace",
		     .hint = "`gpuprof summary FILE` and the other trace commands read it",
		     .sniff = sniff_json,
		     .load = load_trace,
		     .free = free_trace,
		     .count = count_trace},
};

const struct input_row *input_row(enum input_kind k)
{
	return (unsigned)k < INPUT_KIND_COUNT ? &rows[k] : &rows[INPUT_UNKNOWN];
}

const char *input_kind_name(enum input_kind k)
{
	return input_row(k)->name;
}

/* The rows' byte tests on bytes already inflated. */
static enum input_kind sniff_plain(const void *p, size_t n)
{
	for (int k = 0; k < INPUT_KIND_COUNT; k++)
		if (rows[k].sniff && rows[k].sniff(p, n))
			return (enum input_kind)k;
	return INPUT_UNKNOWN;
}

enum input_kind input_sniff_bytes(const void *p, size_t n)
{
	if (!sniff_gzip(p, n))
		return sniff_plain(p, n);
	unsigned char head[INPUT_HEAD];
	return sniff_plain(head, sniff_gunzip_head(p, n, head, sizeof head));
}

/* Up to cap first bytes of the regular file at path (raw: gzip is not
 * inflated); their count, 0 when it cannot be read. */
static size_t read_head(const char *path, unsigned char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t n = 0;
	while (fd >= 0 && n < cap) {
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	if (fd >= 0)
		close(fd);
	return n;
}

struct input_sniff input_sniff_path(const char *path)
{
	struct input_sniff sn = {INPUT_UNKNOWN, false};
	struct stat st;
	if (!strcmp(path, "-") || stat(path, &st))
		return sn;
	if (S_ISDIR(st.st_mode)) {
		for (int k = 0; k < INPUT_KIND_COUNT; k++)
			if (rows[k].dir)
				return (struct input_sniff){(enum input_kind)k, false};
		return sn;
	}
	unsigned char *raw = S_ISREG(st.st_mode) ? malloc(INPUT_RAW_HEAD) : NULL;
	if (!raw)
		return sn;
	size_t n = read_head(path, raw, INPUT_RAW_HEAD);
	sn.gzip = sniff_gzip(raw, n);
	/* plain: its first INPUT_HEAD bytes; gzip: what they inflate to */
	sn.kind = input_sniff_bytes(raw, sn.gzip || n < INPUT_HEAD ? n : INPUT_HEAD);
	free(raw);
	return sn;
}

static bool accepts(unsigned accept, enum input_kind k)
{
	return !accept || (accept & INPUT_BIT(k));
}

/* Which reader gets bytes no row recognises: the trace reader, the oldest,
 * whose messages say what a trace looks like, or the first accepted. */
static enum input_kind fallback(unsigned accept)
{
	if (accepts(accept, INPUT_TRACE))
		return INPUT_TRACE;
	for (int k = 0; k < INPUT_KIND_COUNT; k++)
		if (rows[k].load && accepts(accept, (enum input_kind)k))
			return (enum input_kind)k;
	return INPUT_UNKNOWN;
}

/* "this is an SQLite file, not a PyTorch trace; `gpuprof nsys FILE` ...":
 * what the input is, what the caller reads when it reads one kind, and
 * the row's hint. Recognised from byte 0 (a directory: no offset). */
static int wrong_kind(const struct input_row *r, unsigned accept, const char *name, bool gzip,
		      struct err *e)
{
	char want[160] = "";
	for (int k = 0; k < INPUT_KIND_COUNT; k++)
		if (accept == INPUT_BIT(k))
			snprintf(want, sizeof want, ", not %s", rows[k].what);
	int rc = err_set(e, ERR_FORMAT, name, r->dir ? -1 : 0, "this is %s%s%s%s", r->what, want,
			 r->hint ? "; " : "", r->hint ? r->hint : "");
	err_mark_uncompressed(e, gzip && !r->dir);
	return rc;
}

int input_load(const char *path, struct input_sniff sn, const struct input_opts *o,
	       struct input *in, struct err *e)
{
	input_init(in);
	enum input_kind k = sn.kind == INPUT_UNKNOWN ? fallback(o->accept) : sn.kind;
	const struct input_row *r = input_row(k);
	const char *name = o->name ? o->name : path;
	if (!accepts(o->accept, k) || !r->load)
		return wrong_kind(r, o->accept, name, sn.gzip, e);
	in->path = strdup(path);
	in->name = strdup(name);
	if (!in->path || !in->name) {
		input_free(in);
		return err_set(e, ERR_NOMEM, name, -1, "out of memory");
	}
	struct stat st;
	if (strcmp(path, "-") && !stat(path, &st))
		in->bytes = (int64_t)st.st_size;
	in->kind = k;
	int rc = r->load(in, o, e);
	if (rc) {
		/* the value is the reader's to free on failure: only the strings */
		in->kind = INPUT_UNKNOWN;
		input_free(in);
		if (o->name)
			snprintf(e->path, sizeof e->path, "%s", o->name);
	}
	return rc;
}

int input_open(const char *path, const struct input_opts *o, struct input *in, struct err *e)
{
	return input_load(path, input_sniff_path(path), o, in, e);
}

struct input_push {
	struct kineto_push *k;
	const struct input_opts *o;
	struct err *e;
	char *path;
	int64_t bytes;
};

struct input_push *input_push_begin(const char *path, const struct input_opts *o, int64_t size,
				    struct err *e)
{
	struct input_sniff sn = input_sniff_path(path);
	if (sn.kind != INPUT_TRACE || sn.gzip || !accepts(o->accept, INPUT_TRACE))
		return NULL;
	struct input_push *p = calloc(1, sizeof *p);
	if (!p || !(p->path = strdup(path)) || kineto_push_begin(path, &o->trace, size, &p->k, e)) {
		if (p)
			free(p->path);
		free(p);
		return NULL;
	}
	*p = (struct input_push){.k = p->k, .o = o, .e = e, .path = p->path, .bytes = size};
	return p;
}

char *input_push_room(struct input_push *p, size_t n)
{
	return kineto_push_room(p->k, n);
}

int input_push_data(struct input_push *p, size_t n)
{
	return kineto_push_data(p->k, n);
}

int input_push_end(struct input_push *p, struct input *in)
{
	input_init(in);
	struct trace *t = NULL;
	const char *name = p->o->name ? p->o->name : p->path;
	int rc = kineto_push_end(p->k, &t);
	if (!rc) {
		in->path = strdup(p->path);
		in->name = strdup(name);
		if (in->path && in->name) {
			in->kind = INPUT_TRACE;
			in->bytes = p->bytes;
			in->trace = t;
		} else {
			tr_free(t);
			input_free(in);
			rc = err_set(p->e, ERR_NOMEM, name, -1, "out of memory");
		}
	} else if (p->o->name) { /* as input_load's errors */
		snprintf(p->e->path, sizeof p->e->path, "%s", p->o->name);
	}
	free(p->path);
	free(p);
	return rc;
}

void input_free(struct input *in)
{
	if (!in)
		return;
	if (in->kind != INPUT_UNKNOWN) {
		input_row(in->kind)->free(in);
		if (in->copy_fd >= 0)
			close(in->copy_fd);
	}
	free(in->path);
	free(in->name);
	input_init(in);
}

int64_t input_count(const struct input *in)
{
	return in->kind == INPUT_UNKNOWN ? -1 : input_row(in->kind)->count(in);
}
