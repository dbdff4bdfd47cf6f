/* Unit tests for src/nsys: the CSV reader (quoting, header lookup, missing
 * columns), the duration statistics on hand-computed values, the Python-
 * compatible float formatting and the version warning. */
#include <math.h>

#include "nsys/nsys.h"
#include "views/view_nsys_iter.h"
#include "test.h"

static const char *field(const struct nsys_csv *c, size_t r, const char *col)
{
	int i = nsys_csv_col(c, col);
	return i < 0 ? NULL : c->rows[r][i];
}

void test_nsys_csv_quoting(struct t *t)
{
	struct arena a;
	arena_init(&a);
	struct nsys_csv c;
	struct err e = {0};
	const char *text = "\xEF\xBB\xBFName,Total Time (ns),Extra\r\n"
			   "\"void k<int, 2>(float*)\",12,\"say \"\"hi\"\"\"\r\n"
			   "\"multi\nline\",7\n"
			   "\n"
			   "plain,,\n";
	CHECK_INT(t, nsys_csv_parse(&a, "x.csv", text, strlen(text), &c, &e), 0);
	CHECK_INT(t, c.ncols, 3);
	CHECK_INT(t, c.nrows, 3);
	CHECK_STR(t, field(&c, 0, "Name"), "void k<int, 2>(float*)");
	CHECK_STR(t, field(&c, 0, "Extra"), "say \"hi\"");
	CHECK_STR(t, field(&c, 1, "Name"), "multi\nline");
	CHECK_STR(t, field(&c, 1, "Extra"), ""); /* short row padded */
	CHECK_STR(t, field(&c, 2, "Total Time (ns)"), "");
	CHECK_INT(t, nsys_csv_col(&c, "Name"), 0);
	CHECK_INT(t, nsys_csv_col(&c, "name"), -1);
	const char *bad = "a,\"open\n";
	CHECK(t, nsys_csv_parse(&a, "y.csv", bad, strlen(bad), &c, &e) != 0);
	arena_free(&a);
}

void test_nsys_csv_missing_columns(struct t *t)
{
	struct arena a;
	arena_init(&a);
	struct nsys_csv c;
	struct err e = {0};
	const char *text = "Name,Duration (ns)\nx,1\n";
	CHECK_INT(t, nsys_csv_parse(&a, "r.csv", text, strlen(text), &c, &e), 0);
	static const char *const req[] = {"Name", "PID", "Duration (ns)", "TID"};
	int idx[4];
	CHECK(t, nsys_csv_require(&c, req, 4, idx, &e) != 0);
	CHECK_STR(t, e.msg, "Nsight report r.csv is missing required columns: PID, TID");
	struct nsys_ranges r;
	CHECK(t, nsys_gpu_from_csv(&a, &c, &r, &e) != 0);
	CHECK(t, strstr(e.msg, "is missing required columns: Projected Start (ns)") != NULL);
	/* zero bytes: GPU is empty, host is an error */
	CHECK_INT(t, nsys_csv_parse(&a, "z.csv", "", 0, &c, &e), 0);
	CHECK_INT(t, nsys_gpu_from_csv(&a, &c, &r, &e), 0);
	CHECK_INT(t, r.n, 0);
	CHECK(t, nsys_host_from_csv(&a, &c, &r, &e) != 0);
	CHECK_STR(t, e.msg, "Nsight report contains no rows: z.csv");
	arena_free(&a);
}

void test_nsys_stats(struct t *t)
{
	/* hand values {2, 4, 4, 4, 5, 5, 7, 9}:
	 * mean 5, sum of squared deviations 32, sample variance 32/7 */
	int64_t v[] = {9, 2, 4, 4, 5, 4, 7, 5};
	CHECK_DBL(t, nsys_stddev(v, 8), sqrt(32.0 / 7.0), 1e-12);
	int64_t s[] = {2, 4, 4, 4, 5, 5, 7, 9};
	bool is_int;
	CHECK_DBL(t, nsys_median(s, 8, &is_int), 4.5, 0);
	CHECK(t, !is_int);
	CHECK_DBL(t, nsys_median(s, 7, &is_int), 4, 0);
	CHECK(t, is_int);
	int64_t one[] = {42};
	CHECK_DBL(t, nsys_stddev(one, 1), 0.0, 0);
	/* the fixture's "smoke multiply" host durations (nsys.md 2.7) */
	int64_t m[] = {210176, 23985, 22943, 20188};
	CHECK_DBL(t, nsys_stddev(m, 4), 93915.66159414875, 1e-9);
	struct arena a;
	arena_init(&a);
	struct nsys_jv *sum = nsys_summary(&a, m, 4);
	CHECK_INT(t, nsys_jv_get(sum, "total_ns")->i, 277292);
	CHECK_INT(t, nsys_jv_get(sum, "median_ns")->kind, NSYS_JFLOAT);
	CHECK_DBL(t, nsys_jv_get(sum, "median_ns")->f, 23464.0, 0);
	CHECK_INT(t, nsys_jv_get(sum, "minimum_ns")->i, 20188);
	arena_free(&a);
}

void test_nsys_fmt_double(struct t *t)
{
	char b[48];
	static const struct {
		double v;
		const char *want;
	} cases[] = {{69323.0, "69323.0"},
		     {93915.66159414875, "93915.66159414875"},
		     {0.1, "0.1"},
		     {1e16, "1e+16"},
		     {1e15, "1000000000000000.0"},
		     {1e-5, "1e-05"},
		     {0.0001, "0.0001"},
		     {-2.5, "-2.5"},
		     {0.0, "0.0"},
		     {1.5e300, "1.5e+300"}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		nsys_fmt_double(b, sizeof b, cases[i].v);
		CHECK_STR(t, b, cases[i].want);
	}
}

void test_nsys_version_warning(struct t *t)
{
	struct arena a;
	arena_init(&a);
	CHECK(t, nsys_version_warning(&a, "NVIDIA Nsight Systems version 2025.1.3") == NULL);
	CHECK(t, nsys_version_warning(&a, "2025.1.3.140") == NULL);
	CHECK_STR(
	    t, nsys_version_warning(&a, "NVIDIA Nsight Systems version 2026.2.0"),
	    "NVIDIA Nsight Systems version 2026.2.0 has not been validated; report parsing is "
	    "validated against Nsight Systems 2025.1.");
	CHECK_STR(t, nsys_version_warning(&a, "unknown"),
		  "Could not determine the Nsight Systems version; report parsing is validated "
		  "against Nsight Systems 2025.1.");
	/* \b before the 4 digits: "x2025.1" has no word boundary */
	CHECK(t, strncmp(nsys_version_warning(&a, "x2025.1"), "Could not", 9) == 0);
	arena_free(&a);
}

/* The checker of served analysis.json files (views/view_nsys_iter.c). */
void test_nsys_analysis_check(struct t *t)
{
	static const char good[] = "{\"gpu_projected_ranges\": [], \"host_ranges\": [], "
				   "\"iteration_summary\": {}, \"iterations\": [], \"run\": {}, "
				   "\"schema_version\": 1, \"warnings\": []}\n";
	static const struct {
		const char *text;
		const char *want; /* a part of the message, NULL: accepted */
		int64_t offset;	  /* -2: any */
	} cases[] = {
	    {good, NULL, -2},
	    {"{\"schema_version\": 1, \"gpu_projected_ranges\": [], \"host_ranges\": [], "
	     "\"iteration_summary\": {}, \"iterations\": [], \"run\": {}, \"warnings\": [], "
	     "\"provenance\": {}, \"extra\": [1, {\"a\": null}]}",
	     NULL, -2},
	    {"{\"gpu_projected_ranges\": [], \"host_ranges\": [", "the text ends inside the value",
	     45},
	    {"{\"gpu_projected_ranges\": [} ", "not valid JSON: expected a value", 26},
	    {"{\"gpu_projected_ranges\": [NaN]}", "NaN, Infinity or a trailing comma", 26},
	    {"{\"gpu_projected_ranges\": [1,]}", "NaN, Infinity or a trailing comma", 27},
	    {"{\"host_ranges\": []} x", "more text after the object", 20},
	    {"[1]", "an analysis.json is one JSON object", 0},
	    {"{\"host_ranges\": []}", "no schema_version", -1},
	    {"{\"schema_version\": 2}", "schema_version 2 is not supported", -1},
	    {"{\"schema_version\": 1.0}", "schema_version 1.0 is not supported", -1},
	    {"{\"schema_version\": \"1\"}", "schema_version (not a number) is not supported", -1},
	    {"{\"schema_version\": 1}", "no 'gpu_projected_ranges' key", -1},
	    {"{\"gpu_projected_ranges\": [], \"host_ranges\": [], \"iteration_summary\": {}, "
	     "\"iterations\": {}, \"run\": {}, \"schema_version\": 1, \"warnings\": []}",
	     "'iterations' must be an array", -1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct err e = {0};
		int rc = nsys_analysis_check(cases[i].text, strlen(cases[i].text), "a.json", &e);
		if (!cases[i].want) {
			if (rc)
				t_fail(t, __FILE__, __LINE__, "case %zu refused: %s", i, e.msg);
			continue;
		}
		if (!rc || !strstr(e.msg, cases[i].want) || strcmp(e.path, "a.json") ||
		    (cases[i].offset != -2 && e.offset != cases[i].offset))
			t_fail(t, __FILE__, __LINE__,
			       "case %zu: rc %d, '%s' at %lld, want '%s' at %lld", i, rc, e.msg,
			       (long long)e.offset, cases[i].want, (long long)cases[i].offset);
	}
}
