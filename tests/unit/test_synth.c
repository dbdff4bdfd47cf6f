/* Unit tests of the synthetic trace generator (src/synth): determinism, the
 * size target, gzip round trip, truncation, and event counts checked against
 * the text without a JSON parser. */
#include <stdlib.h>
#include <zlib.h>

#include "synth/synth.h"
#include "test.h"

/* Runs synth_write into memory; returns the bytes (malloc'ed) or NULL. */
static char *gen(const struct synth_opts *o, size_t *len, struct synth_stats *st)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	if (!f)
		return NULL;
	struct err e;
	int r = synth_write(o, f, st, &e);
	fclose(f);
	if (r) {
		printf("synth_write: %s\n", e.msg);
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

static uint64_t count_str(const char *s, size_t n, const char *pat)
{
	uint64_t c = 0;
	size_t pl = strlen(pat);
	for (const char *p = s; (p = memmem(p, n - (size_t)(p - s), pat, pl)); p += pl)
		c++;
	return c;
}

static uint64_t count_lines(const char *s, size_t n, const char *prefix)
{
	uint64_t c = 0;
	size_t pl = strlen(prefix);
	for (size_t i = 0; i < n;) {
		if (n - i >= pl && !memcmp(s + i, prefix, pl))
			c++;
		const char *nl = memchr(s + i, '\n', n - i);
		if (!nl)
			break;
		i = (size_t)(nl - s) + 1;
	}
	return c;
}

void test_synth_determinism(struct t *t)
{
	struct synth_opts o;
	synth_opts_init(&o);
	o.steps = 2;
	size_t n1 = 0, n2 = 0, n3 = 0;
	char *a = gen(&o, &n1, NULL);
	char *b = gen(&o, &n2, NULL);
	o.seed = 2;
	char *c = gen(&o, &n3, NULL);
	CHECK(t, a && b && c);
	if (a && b && c) {
		CHECK_INT(t, n1, n2);
		CHECK(t, n1 == n2 && !memcmp(a, b, n1));
		CHECK(t, n1 != n3 || memcmp(a, c, n1));
	}
	free(a);
	free(b);
	free(c);
}

void test_synth_size_target(struct t *t)
{
	/* a resnet step is ~580 KB: the target is met to within half of one */
	static const uint64_t sizes[] = {8u << 20, 20u << 20};
	for (int i = 0; i < 2; i++) {
		struct synth_opts o;
		synth_opts_init(&o);
		o.size = sizes[i];
		struct synth_stats st;
		size_t n = 0;
		char *a = gen(&o, &n, &st);
		CHECK(t, a != NULL);
		CHECK_INT(t, st.bytes, n);
		CHECK_INT(t, st.bytes_written, n);
		double ratio = (double)n / (double)sizes[i];
		CHECK_DBL(t, ratio, 1.0, 0.05);
		CHECK(t, n > 2 && a[n - 2] == '}' && a[n - 1] == '\n');
		free(a);
	}
	/* the tiny model reaches a small target closely too */
	struct synth_opts o;
	synth_opts_init(&o);
	o.model = SYNTH_MODEL_TINY;
	o.size = 200000;
	size_t n = 0;
	char *a = gen(&o, &n, NULL);
	CHECK_DBL(t, (double)n / 200000.0, 1.0, 0.05);
	free(a);
}

void test_synth_gzip(struct t *t)
{
	struct synth_opts o;
	synth_opts_init(&o);
	o.steps = 3;
	o.anomalies = true;
	size_t n = 0, nz = 0;
	struct synth_stats st, stz;
	char *plain = gen(&o, &n, &st);
	o.gzip = true;
	char *z = gen(&o, &nz, &stz);
	CHECK(t, plain && z);
	if (!plain || !z) {
		free(plain);
		free(z);
		return;
	}
	CHECK(t, nz > 18 && (unsigned char)z[0] == 0x1f && (unsigned char)z[1] == 0x8b);
	CHECK_INT(t, stz.bytes, n);
	CHECK_INT(t, stz.bytes_written, nz);
	CHECK(t, nz < n / 4);
	char *out = malloc(n + 16);
	z_stream s = {0};
	CHECK_INT(t, inflateInit2(&s, 15 + 16), Z_OK);
	s.next_in = (unsigned char *)z;
	s.avail_in = (uInt)nz;
	s.next_out = (unsigned char *)out;
	s.avail_out = (uInt)(n + 16);
	CHECK_INT(t, inflate(&s, Z_FINISH), Z_STREAM_END);
	CHECK_INT(t, s.total_out, n);
	CHECK(t, s.total_out == n && !memcmp(out, plain, n));
	inflateEnd(&s);
	free(out);
	free(plain);
	free(z);
}

void test_synth_truncate(struct t *t)
{
	struct synth_opts o;
	synth_opts_init(&o);
	o.steps = 1;
	o.truncate = true;
	struct synth_stats st;
	size_t n = 0;
	char *a = gen(&o, &n, &st);
	CHECK(t, a != NULL);
	if (!a)
		return;
	CHECK(t, st.truncated);
	CHECK_INT(t, st.bytes, n);
	/* ends inside an event: the last line opens with "  {" and is not closed */
	const char *last = a + n;
	while (last > a && last[-1] != '\n')
		last--;
	CHECK(t, !strncmp(last, "  {\"ph\": \"X\"", 12));
	CHECK(t, a[n - 1] != '}' && a[n - 1] != ',' && a[n - 1] != '\n');
	CHECK(t, !memmem(last, (size_t)(a + n - last), "}", 1));
	CHECK_INT(t, count_lines(a, n, "  ]"), 1); /* the one of deviceProperties */
	CHECK_INT(t, count_str(a, n, "distributedInfo"), 0);
	CHECK_INT(t, count_str(a, n, "Record Window End"), 0);
	/* complete events: every line of traceEvents but the cut one */
	CHECK_INT(t, count_lines(a, n, "  {"), st.events + 1);
	free(a);
}

/* Every count in the stats matches the text. */
static void check_counts(struct t *t, const char *a, size_t n, const struct synth_stats *st)
{
	CHECK_INT(t, count_lines(a, n, "  {"), st->events);
	CHECK_INT(t, count_str(a, n, "\"ph\": \"X\""), st->ph_X);
	CHECK_INT(t, count_str(a, n, "\"ph\": \"B\""), st->ph_B);
	CHECK_INT(t, count_str(a, n, "\"ph\": \"E\""), st->ph_E);
	CHECK_INT(t, count_str(a, n, "\"ph\": \"i\""), st->ph_i);
	CHECK_INT(t, count_str(a, n, "\"ph\": \"s\""), st->ph_s);
	CHECK_INT(t, count_str(a, n, "\"ph\": \"f\""), st->ph_f);
	CHECK_INT(t, count_str(a, n, "\"ph\": \"M\""), st->ph_M);
	CHECK_INT(t, count_str(a, n, "\"cat\": \"cpu_op\""), st->cpu_op);
	CHECK_INT(t, count_str(a, n, "\"ph\": \"X\", \"cat\": \"user_annotation\""),
		  st->user_annotation);
	CHECK_INT(t, count_str(a, n, "\"cat\": \"gpu_user_annotation\""), st->gpu_user_annotation);
	CHECK_INT(t, count_str(a, n, "\"cat\": \"cuda_runtime\""), st->cuda_runtime);
	CHECK_INT(t, count_str(a, n, "\"cat\": \"kernel\""), st->kernel);
	CHECK_INT(t, count_str(a, n, "\"cat\": \"gpu_memcpy\""), st->gpu_memcpy);
	CHECK_INT(t, count_str(a, n, "\"cat\": \"gpu_memset\""), st->gpu_memset);
	CHECK_INT(t, count_str(a, n, "\"cat\": \"Trace\""), st->trace);
	CHECK_INT(t, count_str(a, n, "\"name\": \"[memory]\""), st->memory);
	CHECK_INT(t, count_str(a, n, "\"cat\": \"ac2g\""), st->flow_ac2g);
	CHECK_INT(t, count_str(a, n, "\"cat\": \"fwdbwd\""), st->flow_fwdbwd);
	CHECK_INT(t, count_str(a, n, "\"cat\": \"cpu_op\", \"name\": \"record_param_comms\""),
		  st->nccl_kernels);
	CHECK_INT(t, count_str(a, n, "ncclDevKernel_AllReduce_Sum_f32_RING_LL"), st->nccl_kernels);
	CHECK_INT(t, count_str(a, n, "\"name\": \"cudaLaunchKernel\""), st->kernels_launched);
	CHECK_INT(t, count_str(a, n, "\"name\": \"ProfilerStep#"), 2 * st->steps);
	CHECK_INT(t, st->ph_X,
		  st->cpu_op + st->user_annotation + st->gpu_user_annotation + st->cuda_runtime +
		      st->kernel + st->gpu_memcpy + st->gpu_memset + st->trace);
	CHECK_INT(t, st->events,
		  st->ph_X + st->ph_B + st->ph_E + st->ph_i + st->ph_s + st->ph_f + st->ph_M);
}

void test_synth_counts(struct t *t)
{
	struct synth_opts o;
	synth_opts_init(&o);
	o.steps = 3;
	o.streams = 3;
	struct synth_stats st;
	size_t n = 0;
	char *a = gen(&o, &n, &st);
	CHECK(t, a != NULL);
	if (!a)
		return;
	check_counts(t, a, n, &st);
	CHECK_INT(t, st.steps, 3);
	CHECK_INT(t, st.gpu_user_annotation, 3);
	CHECK_INT(t, st.trace, 1);
	CHECK(t, st.nccl_kernels > 0);
	CHECK_INT(t, st.kernel, st.kernels_launched); /* no orphans */
	CHECK_INT(t, st.flow_ac2g, 2 * (st.kernel + st.gpu_memcpy + st.gpu_memset)); /* paired */
	CHECK_INT(t, st.ph_s, st.ph_f);
	CHECK_INT(t, st.memory % 2, 0); /* every allocation is freed */
	CHECK_INT(t,
		  st.an_orphan_kernels + st.an_zero_dur + st.an_partial_overlaps +
		      st.an_flow_s_only + st.an_unmatched_b,
		  0);
	CHECK_INT(t, count_str(a, n, "\"dur\": 0.000,"), 0);
	CHECK_INT(t, count_str(a, n, "\"schemaVersion\": 1"), 1);
	CHECK_INT(t, count_str(a, n, "\"world_size\": 8"), 1);
	CHECK_INT(t, count_str(a, n, "\"Record Window End\""), 1);
	free(a);

	/* one rank: no NCCL */
	o.world_size = 1;
	a = gen(&o, &n, &st);
	CHECK(t, a != NULL);
	if (a)
		check_counts(t, a, n, &st);
	CHECK_INT(t, st.nccl_kernels, 0);
	free(a);
}

void test_synth_anomalies(struct t *t)
{
	for (int m = 0; m < 2; m++) {
		struct synth_opts o;
		synth_opts_init(&o);
		o.model = m ? SYNTH_MODEL_TINY : SYNTH_MODEL_RESNET;
		o.steps = 2;
		o.anomalies = true;
		struct synth_stats st;
		size_t n = 0;
		char *a = gen(&o, &n, &st);
		CHECK(t, a != NULL);
		if (!a)
			continue;
		check_counts(t, a, n, &st);
		CHECK_INT(t, st.an_orphan_kernels, 1);
		CHECK_INT(t, st.an_zero_dur, 1);
		CHECK_INT(t, st.an_partial_overlaps, 1);
		CHECK_INT(t, st.an_flow_s_only, 1);
		CHECK_INT(t, st.an_unmatched_b, 1);
		CHECK_INT(t, st.ph_B, 2);
		CHECK_INT(t, st.ph_E, 1);
		CHECK_INT(t, st.kernel, st.kernels_launched + 1);
		CHECK_INT(t, st.ph_s, st.ph_f + 1);
		CHECK_INT(t, count_str(a, n, "\"dur\": 0.000,"), 1);
		CHECK_INT(t, count_str(a, n, "\"correlation\": 2000000000"), 1);
		free(a);
	}
}

void test_synth_bad_opts(struct t *t)
{
	struct synth_opts o;
	struct err e;
	synth_opts_init(&o);
	o.rank = 8;
	CHECK_INT(t, synth_write(&o, stdout, NULL, &e), ERR_USAGE);
	synth_opts_init(&o);
	o.streams = 0;
	CHECK_INT(t, synth_write(&o, stdout, NULL, &e), ERR_USAGE);
	synth_opts_init(&o);
	o.world_size = 0;
	CHECK_INT(t, synth_write(&o, stdout, NULL, &e), ERR_USAGE);
	synth_opts_init(&o);
	o.steps = 0;
	CHECK_INT(t, synth_write(&o, stdout, NULL, &e), ERR_USAGE);
}
