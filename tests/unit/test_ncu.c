/* test_ncu: the .ncu-rep reader on hand-built containers, value formatting,
 * units, and (with ../shared) the real reports' ground truth. */
#include <math.h>
#include <stdlib.h>

#include "ncu/ncu.h"
#include "test.h"

/* A minimal container: magic, FileHeader {1: 7}, one block whose header
 * has NumResults=1, a StringTable {"gpu__time_duration.sum"} and
 * PayloadSize, and a payload of one ProfileResult {6: "k", 13: {1: 0,
 * 2: {3: 1536.0}}, 22: 1}. */
static size_t build(uint8_t *out)
{
	static const uint8_t result[] = {
		0x32, 0x01, 'k',			      /* 6: "k" */
		0x6a, 0x0d, 0x08, 0x00, 0x12, 0x09, 0x19, 0, 0, 0, 0, 0, 0, 0x98, 0x40, /* 13 */
		0xb0, 0x01, 0x01,			      /* 22: 1 */
	};
	static const char name[] = "gpu__time_duration.sum";
	size_t k = 0;
	memcpy(out, "NVR\0\2\0\0\0\x08\x07", 10);
	k = 10;
	uint8_t hdr[64];
	size_t h = 0;
	hdr[h++] = 0x10; /* 2: NumResults */
	hdr[h++] = 1;
	hdr[h++] = 0x22; /* 4: StringTable */
	hdr[h++] = (uint8_t)(sizeof name - 1 + 2);
	hdr[h++] = 0x0a;
	hdr[h++] = (uint8_t)(sizeof name - 1);
	memcpy(hdr + h, name, sizeof name - 1);
	h += sizeof name - 1;
	hdr[h++] = 0x28; /* 5: PayloadSize */
	hdr[h++] = (uint8_t)(4 + sizeof result);
	out[k++] = (uint8_t)h;
	out[k++] = 0;
	out[k++] = 0;
	out[k++] = 0;
	memcpy(out + k, hdr, h);
	k += h;
	out[k++] = sizeof result;
	out[k++] = 0;
	out[k++] = 0;
	out[k++] = 0;
	memcpy(out + k, result, sizeof result);
	return k + sizeof result;
}

void test_ncu_minimal(struct t *t)
{
	uint8_t b[256];
	size_t n = build(b);
	struct ncu_report *r;
	struct err e;
	CHECK_INT(t, ncu_parse(&r, b, n, "m", &e), 0);
	if (!r)
		return;
	CHECK_INT(t, r->file_version, 7);
	CHECK_INT(t, r->nresults, 1);
	CHECK_INT(t, r->nblocks, 1);
	CHECK_STR(t, ncu_kernel_name(&r->results[0]), "k");
	CHECK_INT(t, r->results[0].context, 1);
	const struct ncu_metric *m = ncu_lookup(r, 0, "gpu__time_duration.sum");
	CHECK(t, m != NULL);
	if (m)
		CHECK_DBL(t, m->value.d, 1536.0, 0);
	ncu_free(r);
}

void test_ncu_truncations(struct t *t)
{
	uint8_t b[256];
	size_t n = build(b);
	struct err e;
	struct ncu_report *r;
	/* every cut except "just the file header" (a valid empty report) fails
	 * with an offset inside the file */
	for (size_t cut = 0; cut < n; cut++) {
		int rc = ncu_parse(&r, b, cut, "m", &e);
		if (cut == 10) {
			CHECK_INT(t, rc, 0);
			ncu_free(r);
			continue;
		}
		CHECK(t, rc < 0);
		CHECK(t, e.offset >= 0 && e.offset <= (int64_t)cut);
	}
	/* every flipped byte: an error or a report, never a crash */
	for (size_t i = 0; i < n; i++) {
		uint8_t c[256];
		memcpy(c, b, n);
		c[i] ^= 0xff;
		if (ncu_parse(&r, c, n, "m", &e) == 0)
			ncu_free(r);
	}
	b[0] = 'X';
	CHECK_INT(t, ncu_parse(&r, b, n, "m", &e), ERR_FORMAT);
	CHECK_INT(t, e.offset, 0);
}

void test_ncu_format(struct t *t)
{
	char b[64];
	CHECK_STR(t, ncu_fmt_double(2751.0, b, sizeof b), "2,751");
	CHECK_STR(t, ncu_fmt_double(6853333333.333, b, sizeof b), "6,853,333,333.33");
	CHECK_STR(t, ncu_fmt_double(0.0045, b, sizeof b), "0.00");
	CHECK_STR(t, ncu_fmt_double(0.0, b, sizeof b), "0");
	CHECK_STR(t, ncu_fmt_double(96.875, b, sizeof b), "96.88");
	CHECK_STR(t, ncu_fmt_double(-1234.5, b, sizeof b), "-1,234.50");
	CHECK_STR(t, ncu_fmt_double(NAN, b, sizeof b), "n/a");
	struct ncu_value v = {.type = NCU_V_U64, .u = 17179344896ull};
	CHECK_STR(t, ncu_fmt_value(&v, b, sizeof b), "17,179,344,896");
	CHECK_STR(t, ncu_fmt_value(NULL, b, sizeof b), "n/a");
}

void test_ncu_units(struct t *t)
{
	CHECK_STR(t, ncu_metric_unit("gpu__time_duration.sum"), "ns");
	CHECK_STR(t, ncu_metric_unit("dram__bytes.sum.per_second"), "byte/s");
	CHECK_STR(t, ncu_metric_unit("gpc__cycles_elapsed.avg.per_second"), "hz");
	CHECK_STR(t, ncu_metric_unit("sm__throughput.avg.pct_of_peak_sustained_elapsed"), "%");
	CHECK_STR(t, ncu_metric_unit("launch__registers_per_thread"), "register/thread");
	CHECK_STR(t, ncu_metric_unit("launch__shared_mem_per_block_static"), "byte/block");
	CHECK_STR(t, ncu_metric_unit("smsp__inst_executed.avg.per_cycle_active"), "inst/cycle");
	CHECK_STR(t, ncu_metric_unit("launch__grid_size"), "");
	CHECK_STR(t, ncu_metric_unit("no_such_metric"), "");
}

void test_ncu_markup(struct t *t)
{
	uint8_t b[256];
	size_t n = build(b);
	struct ncu_report *r;
	struct err e;
	if (ncu_parse(&r, b, n, "m", &e))
		return;
	CHECK_STR(t, ncu_expand_markup(r, "see @section:LaunchStats:Launch Statistics@."),
		  "see Launch Statistics.");
	CHECK_STR(t, ncu_expand_markup(r, "@url:Guide:https://x.org/a#b@"),
		  "Guide (https://x.org/a#b)");
	CHECK_STR(t, ncu_expand_markup(r, "a@b"), "a@b");
	ncu_free(r);
}

void test_ncu_shared(struct t *t)
{
	NEED_SHARED(t);
	char path[512];
	snprintf(path, sizeof path, "%s/data/ncu/ncu2023.3_h800_full_nvtx.ncu-rep", t->shared);
	struct ncu_report *r;
	struct err e;
	CHECK_INT(t, ncu_load(&r, path, &e), 0);
	if (!r)
		return;
	CHECK_INT(t, r->nresults, 5);
	CHECK_INT(t, r->nstrings, 970);
	CHECK_INT(t, r->results[0].api_call_id, 1431);
	CHECK_INT(t, r->results[0].grid[0], 1056);
	CHECK_INT(t, r->results[4].grid[0], 0);
	const struct ncu_metric *m = ncu_lookup(r, 0, "gpu__time_duration.sum");
	CHECK(t, m && m->value.d == 16448.0);
	m = ncu_lookup(r, 4, "gpu__time_duration.sum");
	CHECK(t, m && isnan(m->value.d));
	CHECK(t, ncu_lookup(r, 4, "launch__grid_size") == NULL);
	ncu_free(r);
	/* 2019: grid stored as total threads */
	snprintf(path, sizeof path, "%s/data/ncu/ncu2019_rtx2070_metrics_matrixmul.nsight-cuprof-report",
		 t->shared);
	CHECK_INT(t, ncu_load(&r, path, &e), 0);
	if (!r)
		return;
	CHECK_INT(t, r->nresults, 8);
	CHECK_INT(t, r->results[0].grid[0], 20);
	CHECK_INT(t, r->results[0].grid_raw[0], 640);
	CHECK_INT(t, r->nprocesses, 0);
	ncu_free(r);
}
