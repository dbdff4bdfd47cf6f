/* test_input: the registry of input kinds (input/input.h): its table, the
 * kind of small samples of every kind held in memory and on disk, loading
 * each through input_open, and the one-line message for a kind the caller
 * does not read. Samples are written by hand here (the gzip one with
 * zlib's deflate, not the ISA-L inflater the sniffing uses). */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "input/input.h"
#include "test.h"
#include "trace/trace.h"

static const char kineto_obj[] =
    "{\"schemaVersion\": 1, \"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": "
    "\"aten::mm\", \"pid\": 1, \"tid\": 1, \"ts\": 10, \"dur\": 5}, {\"ph\": \"X\", \"cat\": "
    "\"cpu_op\", \"name\": \"aten::add\", \"pid\": 1, \"tid\": 1, \"ts\": 20, \"dur\": 2}]}";
static const char kineto_array[] =
    "[{\"ph\": \"X\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1}]";
static const char ncu_head[] = "NVR\0\x02\0\0\0\x08\x07";
static const char sqlite_head[] = "SQLite format 3\0\x10\x00\x01\x01";
static const char nsys_rep_head[] = "NVIDIA Tegra Profiler Report 2026@1@1@204-2v0.\n";
static const char analysis[] =
    "{\"gpu_projected_ranges\": [], \"host_ranges\": [], \"iteration_summary\": {}, "
    "\"iterations\": [], \"run\": {}, \"schema_version\": 1, \"warnings\": []}\n";
static const char unknown[] = "Name,Time (%)\nfoo,1\n";

/* text gzip-compressed into out; its length (0 on failure). */
static size_t gzip_of(const char *text, size_t n, unsigned char *out, size_t cap)
{
	z_stream z = {0};
	if (deflateInit2(&z, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return 0;
	z.next_in = (unsigned char *)text;
	z.avail_in = (unsigned)n;
	z.next_out = out;
	z.avail_out = (unsigned)cap;
	int rc = deflate(&z, Z_FINISH);
	size_t len = cap - z.avail_out;
	deflateEnd(&z);
	return rc == Z_STREAM_END ? len : 0;
}

void test_input_table(struct t *t)
{
	static const char *const names[INPUT_KIND_COUNT] = {
	    [INPUT_UNKNOWN] = "unknown",   [INPUT_RUN_DIR] = "run-dir",
	    [INPUT_NCU] = "ncu",	   [INPUT_NSYS] = "nsys",
	    [INPUT_NSYS_REP] = "nsys-rep", [INPUT_NSYS_ANALYSIS] = "nsys-analysis",
	    [INPUT_TRACE] = "torch",	   [INPUT_RANK_SUMMARY] = "rank-summary",
	};
	for (int k = 0; k < INPUT_KIND_COUNT; k++) {
		const struct input_row *r = input_row((enum input_kind)k);
		CHECK_INT(t, r->kind, k);
		CHECK_STR(t, r->name, names[k]);
		CHECK_STR(t, input_kind_name((enum input_kind)k), names[k]);
		CHECK(t, r->what && r->free && r->count);
		/* every kind but the unknown one is recognised somehow */
		CHECK_INT(t, k == INPUT_UNKNOWN, !r->sniff && !r->dir);
	}
	CHECK_STR(t, input_kind_name((enum input_kind)99), "unknown");
	CHECK_STR(t, input_kind_name((enum input_kind) - 1), "unknown");
	/* only the .nsys-rep is recognised and never loaded; SQLite and the
	 * rank summary (the server's distributed view reads it again for each
	 * answer) are reopened by name */
	for (int k = 1; k < INPUT_KIND_COUNT; k++) {
		CHECK_INT(t, input_row((enum input_kind)k)->load == NULL, k == INPUT_NSYS_REP);
		CHECK_INT(t, input_row((enum input_kind)k)->by_name,
			  k == INPUT_NSYS || k == INPUT_RANK_SUMMARY);
	}
}

void test_input_sniff_bytes(struct t *t)
{
	unsigned char gz[512], gz_ncu[64];
	size_t ngz = gzip_of(kineto_obj, sizeof kineto_obj - 1, gz, sizeof gz);
	size_t ngz_ncu = gzip_of(ncu_head, sizeof ncu_head - 1, gz_ncu, sizeof gz_ncu);
	CHECK(t, ngz > 18 && ngz_ncu > 18);
	static const char bom_array[] = "\xef\xbb\xbf \r\n\t[{}]";
	const struct {
		const void *p;
		size_t n;
		enum input_kind want;
		const char *name;
	} cases[] = {
	    {kineto_obj, sizeof kineto_obj - 1, INPUT_TRACE, "torch"},
	    {kineto_array, sizeof kineto_array - 1, INPUT_TRACE, "torch"},
	    {bom_array, sizeof bom_array - 1, INPUT_TRACE, "torch"},
	    {gz, ngz, INPUT_TRACE, "torch"},
	    {gz_ncu, ngz_ncu, INPUT_NCU, "ncu"},
	    {ncu_head, sizeof ncu_head - 1, INPUT_NCU, "ncu"},
	    {sqlite_head, sizeof sqlite_head - 1, INPUT_NSYS, "nsys"},
	    {nsys_rep_head, sizeof nsys_rep_head - 1, INPUT_NSYS_REP, "nsys-rep"},
	    {analysis, sizeof analysis - 1, INPUT_NSYS_ANALYSIS, "nsys-analysis"},
	    {unknown, sizeof unknown - 1, INPUT_UNKNOWN, "unknown"},
	    {"{\"kind\":\"gpuprof-rank-summary\",\"schema_version\":1}", 50, INPUT_RANK_SUMMARY,
	     "rank-summary"},
	    {" {\n \"kind\" : \"gpuprof-rank-summary\"", 35, INPUT_RANK_SUMMARY, "rank-summary"},
	    {"{\"kind\":\"gpuprof-rank-summar", 28, INPUT_TRACE, "torch"}, /* cut: JSON */
	    {"{\"name\":\"x\",\"kind\":\"gpuprof-rank-summary\"}", 42, INPUT_TRACE,
	     "torch"}, /* "kind" must come first */
	    {"{\"kind\":\"other\"}", 16, INPUT_TRACE, "torch"},
	    {"   ", 3, INPUT_UNKNOWN, "unknown"},
	    {"", 0, INPUT_UNKNOWN, "unknown"},
	    {gz, 10, INPUT_UNKNOWN, "unknown"}, /* a gzip header, nothing inflated */
	    {"SQLite format 3", 15, INPUT_UNKNOWN, "unknown"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		enum input_kind k = input_sniff_bytes(cases[i].p, cases[i].n);
		if (k != cases[i].want || strcmp(input_kind_name(k), cases[i].name))
			t_fail(t, __FILE__, __LINE__, "case %zu: %s, want %s", i,
			       input_kind_name(k), cases[i].name);
	}
}

/* A temp file holding n bytes of p; NULL when it cannot be written. */
static char *tmp_file(struct t *t, const void *p, size_t n)
{
	char *path = t_write_tmp(p, n);
	if (!path)
		t_fail(t, __FILE__, __LINE__, "cannot write a temp file");
	return path;
}

void test_input_sniff_path(struct t *t)
{
	unsigned char gz[512];
	size_t ngz = gzip_of(analysis, sizeof analysis - 1, gz, sizeof gz);
	char *plain = tmp_file(t, sqlite_head, sizeof sqlite_head - 1);
	char *zipped = tmp_file(t, gz, ngz);
	char dir[] = "/tmp/gpuprof-test-dir-XXXXXX";
	CHECK(t, mkdtemp(dir) != NULL);
	char fifo[sizeof dir + 8];
	snprintf(fifo, sizeof fifo, "%s/fifo", dir);
	CHECK_INT(t, mkfifo(fifo, 0600), 0);
	if (t->failed_checks)
		goto out;
	struct input_sniff sn = input_sniff_path(plain);
	CHECK_STR(t, input_kind_name(sn.kind), "nsys");
	CHECK(t, !sn.gzip);
	sn = input_sniff_path(zipped);
	CHECK_STR(t, input_kind_name(sn.kind), "nsys-analysis");
	CHECK(t, sn.gzip);
	sn = input_sniff_path(dir);
	CHECK_STR(t, input_kind_name(sn.kind), "run-dir");
	/* read once, by its reader: never opened here (this would block) */
	CHECK_STR(t, input_kind_name(input_sniff_path(fifo).kind), "unknown");
	CHECK_STR(t, input_kind_name(input_sniff_path("-").kind), "unknown");
	CHECK_STR(t, input_kind_name(input_sniff_path("/no/such/file").kind), "unknown");
out:
	unlink(fifo);
	rmdir(dir);
	if (plain)
		unlink(plain);
	if (zipped)
		unlink(zipped);
	free(plain);
	free(zipped);
}

void test_input_open_kinds(struct t *t)
{
	char *trace = tmp_file(t, kineto_obj, sizeof kineto_obj - 1);
	char *an = tmp_file(t, analysis, sizeof analysis - 1);
	char dir[] = "/tmp/gpuprof-test-dir-XXXXXX";
	CHECK(t, mkdtemp(dir) != NULL);
	char dir_json[sizeof dir + 16], dir_slash[sizeof dir + 2];
	snprintf(dir_json, sizeof dir_json, "%s/analysis.json", dir);
	snprintf(dir_slash, sizeof dir_slash, "%s//", dir);
	FILE *f = fopen(dir_json, "w");
	CHECK(t, f && fputs(analysis, f) >= 0 && fclose(f) == 0);
	if (t->failed_checks)
		goto out;
	struct input_opts o = {0};
	struct input in;
	struct err e = {0};
	CHECK_INT(t, input_open(trace, &o, &in, &e), 0);
	CHECK_STR(t, input_kind_name(in.kind), "torch");
	CHECK(t, input_trace(&in) != NULL && input_ncu(&in) == NULL && !input_nsys_path(&in));
	CHECK_INT(t, input_count(&in), 2);
	CHECK_INT(t, in.bytes, sizeof kineto_obj - 1);
	CHECK_STR(t, in.name, trace);
	CHECK_INT(t, in.copy_fd, -1);
	input_free(&in);
	CHECK_INT(t, in.kind, INPUT_UNKNOWN);
	input_free(&in); /* harmless twice */

	o.name = "upload.json";
	CHECK_INT(t, input_open(an, &o, &in, &e), 0);
	size_t len;
	const char *json = input_analysis(&in, &len);
	CHECK_STR(t, input_kind_name(in.kind), "nsys-analysis");
	CHECK(t, json && len == sizeof analysis - 1 && !memcmp(json, analysis, len));
	CHECK_STR(t, in.name, "upload.json");
	CHECK_STR(t, in.path, an);
	CHECK_INT(t, input_count(&in), -1);
	CHECK(t, !input_trace(&in));
	input_free(&in);

	/* a run directory loads as the analysis it holds, named without its
	 * trailing slashes */
	o.name = NULL;
	CHECK_INT(t, input_open(dir_slash, &o, &in, &e), 0);
	CHECK_STR(t, input_kind_name(in.kind), "nsys-analysis");
	CHECK_STR(t, in.path, dir);
	CHECK_STR(t, in.name, dir);
	json = input_analysis(&in, &len);
	CHECK(t, json && len == sizeof analysis - 1 && !memcmp(json, analysis, len));
	CHECK_INT(t, in.bytes, sizeof analysis - 1);
	input_free(&in);
	/* without analysis.json or stats/: the nsys reader's message */
	unlink(dir_json);
	CHECK_INT(t, input_open(dir, &o, &in, &e), ERR_USAGE);
	CHECK_STR(t, e.path, dir);
	CHECK(t, strstr(e.msg, "not a profiling run directory") != NULL);
	CHECK_INT(t, in.kind, INPUT_UNKNOWN);
out:
	unlink(dir_json);
	rmdir(dir);
	if (trace)
		unlink(trace);
	if (an)
		unlink(an);
	free(trace);
	free(an);
}

/* A kind the caller does not read: one message, ERR_FORMAT at byte 0 (of
 * the inflated bytes for gzip), nothing loaded. */
void test_input_wrong_kind(struct t *t)
{
	unsigned char gz[64];
	size_t ngz = gzip_of(sqlite_head, sizeof sqlite_head - 1, gz, sizeof gz);
	char *sql = tmp_file(t, sqlite_head, sizeof sqlite_head - 1);
	char *sqlgz = tmp_file(t, gz, ngz);
	char *ncu = tmp_file(t, ncu_head, sizeof ncu_head - 1);
	char *rep = tmp_file(t, nsys_rep_head, sizeof nsys_rep_head - 1);
	char *txt = tmp_file(t, unknown, sizeof unknown - 1);
	char dir[] = "/tmp/gpuprof-test-dir-XXXXXX";
	CHECK(t, mkdtemp(dir) != NULL);
	if (t->failed_checks)
		goto out;
	const struct input_opts traces = {.accept = INPUT_BIT(INPUT_TRACE)};
	const struct input_opts any = {0};
	const struct {
		const char *path;
		const struct input_opts *o;
		int64_t offset;
		bool uncompressed;
		const char *msg;
	} cases[] = {
	    {sql, &traces, 0, false,
	     "this is an SQLite file, not a PyTorch trace; `gpuprof nsys FILE` reads Nsight "
	     "Systems exports"},
	    {sqlgz, &traces, 0, true,
	     "this is an SQLite file, not a PyTorch trace; `gpuprof nsys FILE` reads Nsight "
	     "Systems exports"},
	    {ncu, &traces, 0, false,
	     "this is an Nsight Compute (.ncu-rep) file, not a PyTorch trace"},
	    {rep, &traces, 0, false,
	     "this is an Nsight Systems (.nsys-rep) file, not a PyTorch trace; export it with "
	     "`nsys export --type sqlite` for `gpuprof nsys`"},
	    /* a caller that reads every kind: a .nsys-rep is still never read */
	    {rep, &any, 0, false,
	     "this is an Nsight Systems (.nsys-rep) file; export it with `nsys export --type "
	     "sqlite` for `gpuprof nsys`"},
	    {dir, &traces, -1, false,
	     "this is a directory, not a PyTorch trace; `gpuprof serve DIR` shows a profiling "
	     "run directory"},
	    /* unknown bytes go to the trace reader, which says what it expected */
	    {txt, &traces, 0, false,
	     "expected a trace: '{' (object form) or '[' (array of events)"},
	    {txt, &any, 0, false, "expected a trace: '{' (object form) or '[' (array of events)"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct input in;
		struct err e = {0};
		int rc = input_open(cases[i].path, cases[i].o, &in, &e);
		if (rc != ERR_FORMAT || strcmp(e.msg, cases[i].msg) ||
		    e.offset != cases[i].offset || e.uncompressed != cases[i].uncompressed ||
		    strcmp(e.path, cases[i].path) || in.kind != INPUT_UNKNOWN)
			t_fail(t, __FILE__, __LINE__, "case %zu: rc %d, %s: %lld%s: %s", i, rc,
			       e.path, (long long)e.offset, e.uncompressed ? " (u)" : "", e.msg);
		input_free(&in);
	}
	/* errors name the caller's name for the input */
	struct input in;
	struct err e = {0};
	const struct input_opts named = {.accept = INPUT_BIT(INPUT_TRACE), .name = "up.bin"};
	CHECK_INT(t, input_open(sql, &named, &in, &e), ERR_FORMAT);
	CHECK_STR(t, e.path, "up.bin");
	CHECK_INT(t, input_open(txt, &named, &in, &e), ERR_FORMAT);
	CHECK_STR(t, e.path, "up.bin");
out:
	rmdir(dir);
	char *all[] = {sql, sqlgz, ncu, rep, txt};
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		if (all[i])
			unlink(all[i]);
		free(all[i]);
	}
}

/* Real files of ../shared: each recognised as its kind, by its content. */
void test_input_sniff_shared(struct t *t)
{
	NEED_SHARED(t);
	static const struct {
		const char *file;
		const char *want;
		bool gz;
	} files[] = {
	    {"ncu/ncu2025.3_rtx3080ti_full_probeffma.ncu-rep", "ncu", false},
	    {"ncu/ncu2019_rtx2070_metrics_matrixmul.nsight-cuprof-report", "ncu", false},
	    {"nsys/exports/EasyCUDA__nsys_easy__2023.4.4.nsys-rep", "nsys-rep", false},
	    {"nsys/exports/test-cuda__report1__2026.1.1.nsys-rep", "nsys-rep", false},
	    {"nsys/exports/gemm__profile__2025.1.3.sqlite", "nsys", false},
	    {"torch-large/hta_mtia_rank0.json.gz", "torch", true},
	    {"ncu/ncu2025.3_rtx3080ti_full_probeffma.raw.csv", "unknown", false},
	};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char path[512];
		snprintf(path, sizeof path, "%s/data/%s", t->shared, files[i].file);
		struct input_sniff sn = input_sniff_path(path);
		CHECK_STR(t, input_kind_name(sn.kind), files[i].want);
		CHECK_INT(t, sn.gzip, files[i].gz);
	}
	/* the raw bytes of the .json.gz, inflated in memory */
	char path[512];
	snprintf(path, sizeof path, "%s/data/torch-large/hta_mtia_rank0.json.gz", t->shared);
	int fd = open(path, O_RDONLY);
	static unsigned char head[65536];
	CHECK_INT(t, fd >= 0 ? read(fd, head, sizeof head) : -1, sizeof head);
	CHECK_STR(t, input_kind_name(input_sniff_bytes(head, sizeof head)), "torch");
	if (fd >= 0)
		close(fd);
}
