/* cmd_synth: `gpuprof synth`, a deterministic synthetic Kineto trace for
 * examples, tests and benchmarks (the generator is src/synth). */
#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "synth/synth.h"

const char cmd_synth_help[] =
    "Usage: gpuprof synth [options] -o FILE\n"
    "\n"
    "Writes a synthetic PyTorch profiler (Kineto) trace: a ResNet-style training\n"
    "loop with an attention head on an H100, DDP all-reduce on an NCCL stream,\n"
    "[memory] instants, ac2g and fwdbwd flows, and the metadata Kineto writes\n"
    "(deviceProperties, distributedInfo, ...). The same options always give the\n"
    "same bytes; memory use does not grow with the size.\n"
    "\n"
    "Options:\n";

const char cmd_synth_help_tail[] =
    "\n"
    "The output goes to -o FILE (written atomically), or to standard output when\n"
    "it is not a terminal. A summary of what was written goes to stderr unless -q.\n"
    "\n"
    "Example:\n"
    "  gpuprof synth --size 100M --gzip -o big.json.gz\n"
    "  gpuprof synth --steps 6 --seed 1 --gzip -o examples/resnet_like.json.gz\n";

static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	errno = 0;
	if (*s < '0' || *s > '9')
		return -1;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

/* The options; the numbers are kept as text (num[], in the order of the
 * first declarations) and read after the walk with their own syntax. */
enum {
	SYNTH_ARG_SIZE,
	SYNTH_ARG_STEPS,
	SYNTH_ARG_SEED,
	SYNTH_ARG_RANKS,
	SYNTH_ARG_RANK,
	SYNTH_ARG_STREAMS,
	SYNTH_ARG_COLLECTIVES,
	SYNTH_NARGS
};

static const char *const num_names[SYNTH_NARGS] = {"size", "steps",   "seed",	    "ranks",
						   "rank", "streams", "collectives"};

struct synth_args {
	const char *num[SYNTH_NARGS];
	bool gzip, truncate, anomalies;
	int model;
	struct vo_list scale, slow;
	const char *straggler, *slow_link;
	int comms, nccl_names;
};

static const struct vo_value comms_vals[] = {
    {"legacy", SYNTH_COMMS_LEGACY, false}, {"pt2", SYNTH_COMMS_PT2, false}, {NULL, 0, false}};
static const struct vo_value nccl_vals[] = {{"dev", 0, false}, {"old", 1, false}, {NULL, 0, false}};

static const struct vo_value models[] = {
    {"resnet", SYNTH_MODEL_RESNET, false}, {"tiny", SYNTH_MODEL_TINY, false}, {NULL, 0, false}};

const struct vo cmd_synth_opts[] = {
    {.lname = "size",
     .type = VO_STRING,
     .off = offsetof(struct synth_args, num) + SYNTH_ARG_SIZE * sizeof(const char *),
     .metavar = "SIZE",
     .help = "keep adding training steps until the JSON is about SIZE\n"
	     "bytes (uncompressed); suffixes K, M, G (powers of 1024),\n"
	     "e.g. 512K, 100M, 4G; overrides --steps"},
    {.lname = "steps",
     .type = VO_STRING,
     .off = offsetof(struct synth_args, num) + SYNTH_ARG_STEPS * sizeof(const char *),
     .metavar = "N",
     .help = "number of ProfilerStep#N to write (default: 5)"},
    {.lname = "seed",
     .type = VO_STRING,
     .off = offsetof(struct synth_args, num) + SYNTH_ARG_SEED * sizeof(const char *),
     .metavar = "N",
     .help = "seed of the generator (default: 1)"},
    {.lname = "gzip",
     .type = VO_FLAG,
     .off = offsetof(struct synth_args, gzip),
     .help = "gzip the output (zlib, level 6)"},
    {.lname = "truncate",
     .type = VO_FLAG,
     .off = offsetof(struct synth_args, truncate),
     .help = "stop in the middle of an event without the closing brackets,\n"
	     "as a crashed profiler leaves a file"},
    {.lname = "anomalies",
     .type = VO_FLAG,
     .off = offsetof(struct synth_args, anomalies),
     .help = "inject one of each: kernel without a launch, zero-duration\n"
	     "op, partial overlap on a CPU thread, flow with only its start,\n"
	     "unmatched B (next to one matched B/E pair)"},
    {.lname = "ranks",
     .type = VO_STRING,
     .off = offsetof(struct synth_args, num) + SYNTH_ARG_RANKS * sizeof(const char *),
     .metavar = "N",
     .help = "world size in distributedInfo (default: 8; 1 = no NCCL)"},
    {.lname = "rank",
     .type = VO_STRING,
     .off = offsetof(struct synth_args, num) + SYNTH_ARG_RANK * sizeof(const char *),
     .metavar = "R",
     .help = "this trace's rank, 0..N-1 (default: 0)"},
    {.lname = "streams",
     .type = VO_STRING,
     .off = offsetof(struct synth_args, num) + SYNTH_ARG_STREAMS * sizeof(const char *),
     .metavar = "N",
     .help = "compute streams, 1..8 (default: 1)"},
    {.lname = "model",
     .type = VO_ENUM,
     .off = offsetof(struct synth_args, model),
     .vals = models,
     .metavar = "NAME",
     .help = "resnet: ResNet-18-style training step with an attention\n"
	     "head, ~2000 events per step (default); tiny: inference of\n"
	     "one linear layer, ~30 events per step (for documentation)"},
    {.lname = "scale-kernel",
     .type = VO_LIST,
     .off = offsetof(struct synth_args, scale),
     .metavar = "NAME=F",
     .help = "kernels whose name contains NAME last F times as long\n"
	     "(gemm=1.5); later work on their stream is shifted, every\n"
	     "other event keeps its duration (repeatable, up to 8)"},
    {.lname = "slow-step",
     .type = VO_LIST,
     .off = offsetof(struct synth_args, slow),
     .metavar = "N=TIME",
     .help = "ProfilerStep#N ends TIME (5ms, 250us: a unit) later,\n"
	     "after its GPU work; later events are shifted (repeatable)"},
    {.lname = "straggler",
     .type = VO_STRING,
     .off = offsetof(struct synth_args, straggler),
     .metavar = "R:+TIME",
     .help = "rank R is late by TIME (30ms: a unit) at each step's first\n"
	     "collective: extra compute on R, a longer wait in that\n"
	     "all-reduce on the others; give the same option to every\n"
	     "rank of the fleet (resnet model, --ranks > 1)"},
    {.lname = "slow-link",
     .type = VO_STRING,
     .off = offsetof(struct synth_args, slow_link),
     .metavar = "R:FACTOR",
     .help = "the collectives rank R takes part in last FACTOR times as\n"
	     "long on every rank of the group (2: a link at half\n"
	     "bandwidth); give the same option to every rank"},
    {.lname = "collectives",
     .type = VO_STRING,
     .off = offsetof(struct synth_args, num) + SYNTH_ARG_COLLECTIVES * sizeof(const char *),
     .metavar = "N",
     .help = "all-reduces per step: resnet splits its 6 gradient buckets\n"
	     "into N (N >= 6); tiny runs N of 2^10..2^21 floats"},
    {.lname = "comms",
     .type = VO_ENUM,
     .off = offsetof(struct synth_args, comms),
     .vals = comms_vals,
     .metavar = "FORM",
     .help = "collectives' arguments: legacy (default) or pt2, as\n"
	     "PyTorch 2.x writes them (Seq, Rank, Global rank start and\n"
	     "stride, Process Group Ranks cut after 30 ranks)"},
    {.lname = "nccl-kernels",
     .type = VO_ENUM,
     .off = offsetof(struct synth_args, nccl_names),
     .vals = nccl_vals,
     .metavar = "SCHEME",
     .help = "NCCL kernel names: dev (ncclDevKernel_*, NCCL >= 2.19,\n"
	     "default) or old (ncclKernel_*)"},
};
const size_t cmd_synth_nopts = sizeof cmd_synth_opts / sizeof cmd_synth_opts[0];

/* --straggler R:+TIME into o. */
static int parse_straggler(struct app *app, const char *v, struct synth_opts *o)
{
	const char *c = strchr(v, ':');
	char num[32];
	uint64_t rank = 0;
	int64_t ns = -1;
	size_t len = c ? (size_t)(c - v) : 0;
	bool unit = c && c[1] == '+' && c[2] && strchr("0123456789.", v[strlen(v) - 1]) == NULL;
	if (c && len && len < sizeof num && unit) {
		memcpy(num, v, len);
		num[len] = 0;
		if (parse_u64(num, UINT32_MAX, &rank) || vo_parse_time(c + 2, &ns) || ns <= 0)
			ns = -1;
	}
	if (ns < 0)
		return app_usage(app, "synth",
				 "--straggler takes R:+TIME with a unit (13:+30ms), not '%.80s'",
				 v);
	o->straggler_rank = (uint32_t)rank;
	o->straggler_ns = (uint64_t)ns;
	return 0;
}

/* --slow-link R:FACTOR into o. */
static int parse_slow_link(struct app *app, const char *v, struct synth_opts *o)
{
	const char *c = strchr(v, ':');
	char num[32];
	uint64_t rank = 0;
	double f = -1;
	size_t len = c ? (size_t)(c - v) : 0;
	if (c && len && len < sizeof num) {
		memcpy(num, v, len);
		num[len] = 0;
		char *end = NULL;
		if (parse_u64(num, UINT32_MAX, &rank) || !c[1] || c[1] < '0' || c[1] > '9' ||
		    c[1 + strspn(c + 1, "0123456789.")])
			f = -1; /* decimal digits and a point only: no hex, exponent, inf */
		else if (f = strtod(c + 1, &end), *end || !(f > 0 && f <= SYNTH_MAX_LINK_FACTOR))
			f = -1;
	}
	if (f < 0)
		return app_usage(app, "synth",
				 "--slow-link takes R:FACTOR (FACTOR in (0, %d], e.g. 5:2), not "
				 "'%.80s'",
				 SYNTH_MAX_LINK_FACTOR, v);
	o->slow_link_rank = (uint32_t)rank;
	o->slow_link_factor = f;
	return 0;
}

/* --scale-kernel NAME=FACTOR and --slow-step N=TIME into o. */
static int pair_changes(struct app *app, const struct synth_args *a, struct synth_opts *o)
{
	if (a->scale.n > SYNTH_MAX_CHANGES || a->slow.n > SYNTH_MAX_CHANGES)
		return app_usage(app, "synth", "at most %d --scale-kernel and --slow-step each",
				 SYNTH_MAX_CHANGES);
	for (size_t i = 0; i < a->scale.n && i < SYNTH_MAX_CHANGES; i++) {
		const char *v = a->scale.v[i], *eq = strrchr(v, '=');
		char *end = NULL;
		double f = eq ? strtod(eq + 1, &end) : 0;
		if (!eq || eq == v || end == eq + 1 || *end || !(f > 0 && f <= 1e6))
			return app_usage(
			    app, "synth",
			    "--scale-kernel takes NAME=FACTOR (FACTOR > 0), not '%.80s'", v);
		size_t len = (size_t)(eq - v);
		struct synth_scale *sc = &o->scale[o->nscale];
		if (len >= sizeof sc->name)
			return app_usage(app, "synth", "--scale-kernel: NAME is too long: '%.80s'",
					 v);
		memcpy(sc->name, v, len);
		sc->name[len] = 0;
		sc->factor = f;
		o->nscale++;
	}
	for (size_t i = 0; i < a->slow.n && i < SYNTH_MAX_CHANGES; i++) {
		const char *v = a->slow.v[i], *eq = strchr(v, '=');
		char num[32];
		uint64_t step;
		int64_t ns;
		size_t len = eq ? (size_t)(eq - v) : 0;
		bool unit = eq && eq[1] && strchr("0123456789.", eq[strlen(eq) - 1]) == NULL;
		if (!eq || !len || len >= sizeof num || !unit)
			ns = -1;
		else {
			memcpy(num, v, len);
			num[len] = 0;
			if (parse_u64(num, UINT64_MAX, &step) || vo_parse_time(eq + 1, &ns))
				ns = -1;
		}
		if (ns < 0)
			return app_usage(
			    app, "synth",
			    "--slow-step takes N=TIME with a unit (3=5ms), not '%.80s'", v);
		o->slow[o->nslow++] = (struct synth_slow){step, (uint64_t)ns};
	}
	return 0;
}

int cmd_synth(struct app *app, int argc, char **argv)
{
	struct synth_opts o;
	synth_opts_init(&o);
	struct synth_args a = {.model = (int)o.model};
	const char **ops = calloc((size_t)argc + 1, sizeof *ops);
	int nops = 0;
	if (!ops)
		return app_usage(app, "synth", "out of memory");
	int rc =
	    app_parse(app, "synth", cmd_synth_opts, cmd_synth_nopts, &a, argc, argv, ops, &nops);
	if (!rc && nops)
		rc = app_usage(app, "synth", "takes no operand ('%s'): give -o FILE", ops[0]);
	free(ops);
	if (rc)
		return rc;
	o.gzip = a.gzip;
	o.truncate = a.truncate;
	o.anomalies = a.anomalies;
	o.model = (enum synth_model)a.model;
	if ((rc = pair_changes(app, &a, &o)))
		return rc;
	if (a.straggler && (rc = parse_straggler(app, a.straggler, &o)))
		return rc;
	if (a.slow_link && (rc = parse_slow_link(app, a.slow_link, &o)))
		return rc;
	o.comms = (enum synth_comms)a.comms;
	o.nccl_old_names = a.nccl_names == 1;
	/* the numbers: SIZE with a unit, counts with their own bounds */
	for (size_t k = 0; k < sizeof a.num / sizeof a.num[0]; k++) {
		const char *v = a.num[k];
		uint64_t x;
		if (!v)
			continue;
		int bad;
		if (k == SYNTH_ARG_SIZE) {
			bad = app_parse_size(v, &o.size) || !o.size;
		} else if (k == SYNTH_ARG_SEED) {
			bad = parse_u64(v, UINT64_MAX, &o.seed);
		} else {
			bad = parse_u64(v, UINT32_MAX, &x);
			if (k == SYNTH_ARG_STEPS) {
				o.steps = (uint32_t)x;
				bad = bad || !x;
			} else if (k == SYNTH_ARG_RANKS) {
				o.world_size = (uint32_t)x;
			} else if (k == SYNTH_ARG_RANK) {
				o.rank = (uint32_t)x;
			} else if (k == SYNTH_ARG_COLLECTIVES) {
				o.collectives = (uint32_t)x;
				bad = bad || x > SYNTH_MAX_COLLECTIVES;
			} else {
				o.streams = (uint32_t)x;
			}
		}
		if (bad)
			return app_usage(app, "synth", "bad value for --%s: '%s'", num_names[k], v);
	}
	if (app_out_is_terminal(app))
		return app_usage(app, "synth",
				 "give -o FILE (the trace is not written to a terminal)");
	struct err e;
	struct synth_stats st;
	/* Option errors first, before an output file is created. */
	if (o.world_size < 1 || o.world_size > SYNTH_MAX_WORLD)
		return app_usage(app, "synth", "--ranks must be 1..%d", SYNTH_MAX_WORLD);
	if (o.rank >= o.world_size)
		return app_usage(app, "synth", "--rank must be below --ranks (%u)",
				 (unsigned)o.world_size);
	bool colls = o.model == SYNTH_MODEL_RESNET || o.collectives;
	if (o.straggler_ns && (o.world_size < 2 || !colls))
		return app_usage(app, "synth",
				 o.model == SYNTH_MODEL_RESNET
				     ? "--straggler needs --ranks > 1 and the resnet model"
				     : "--straggler needs --ranks > 1 and collectives (resnet, or "
				       "--collectives N)");
	if (o.straggler_ns && o.straggler_rank >= o.world_size)
		return app_usage(app, "synth", "--straggler: rank %u is not below --ranks (%u)",
				 (unsigned)o.straggler_rank, (unsigned)o.world_size);
	if (o.slow_link_factor > 0 && (o.world_size < 2 || !colls))
		return app_usage(app, "synth",
				 "--slow-link needs --ranks > 1 and collectives (resnet, or "
				 "--collectives N)");
	if (o.slow_link_factor > 0 && o.slow_link_rank >= o.world_size)
		return app_usage(app, "synth", "--slow-link: rank %u is not below --ranks (%u)",
				 (unsigned)o.slow_link_rank, (unsigned)o.world_size);
	if (o.model == SYNTH_MODEL_RESNET && o.collectives && o.collectives < SYNTH_RESNET_BUCKETS)
		return app_usage(app, "synth",
				 "--collectives: the resnet model has %d gradient buckets; give "
				 "at least %d",
				 SYNTH_RESNET_BUCKETS, SYNTH_RESNET_BUCKETS);
	if (o.streams < 1 || o.streams > SYNTH_MAX_STREAMS)
		return app_usage(app, "synth", "--streams must be 1..%d", SYNTH_MAX_STREAMS);
	if (app_out_open(app, &e))
		return app_fail(app, &e);
	int r = synth_write(&o, app->out, &st, &e);
	rc = app_out_close(app, r == 0, r ? NULL : &e);
	if (r)
		return app_fail(app, &e);
	if (rc)
		return app_fail(app, &e);
	if (!app->quiet)
		fprintf(stderr,
			"synth: %" PRIu64 " step%s, %" PRIu64 " events, %" PRIu64
			" bytes of JSON%s%s, %" PRIu64 " bytes written\n",
			st.steps, st.steps == 1 ? "" : "s", st.events, st.bytes,
			o.gzip ? ", gzip" : "", st.truncated ? ", truncated" : "",
			st.bytes_written);
	return 0;
}
