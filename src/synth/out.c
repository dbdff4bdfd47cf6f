/* synth out: the output side of the generator: a buffered writer (plain or
 * through zlib's deflate with a gzip wrapper), fast number formatting, and
 * the serialization of one event as one line of Kineto-style JSON.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "synth/synth_int.h"

#define ZBUF_CAP (256u << 10)

int wout_init(struct wout *w, FILE *f, bool gzip, int level, struct err *e)
{
	memset(w, 0, sizeof *w);
	w->f = f;
	w->gzip = gzip;
	w->buf = malloc(WOUT_CAP);
	if (!w->buf)
		return err_set(e, ERR_NOMEM, "synth", -1, "out of memory");
	if (!gzip)
		return 0;
	w->zbuf = malloc(ZBUF_CAP);
	if (!w->zbuf)
		return err_set(e, ERR_NOMEM, "synth", -1, "out of memory");
	if (level < 1 || level > 9)
		level = 6;
	/* 15 + 16: a gzip wrapper (header with mtime 0, so output is reproducible). */
	if (deflateInit2(&w->z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return err_set(e, ERR_NOMEM, "synth", -1, "deflateInit2 failed");
	w->z_live = true;
	return 0;
}

static int put_out(struct wout *w, const void *p, size_t n, struct err *e)
{
	if (n && fwrite(p, 1, n, w->f) != n) {
		int en = errno;
		return err_set(e, ERR_IO, "synth", -1, "write failed: %s", strerror(en));
	}
	w->packed += n;
	return 0;
}

static int deflate_buf(struct wout *w, int flush, struct err *e)
{
	w->z.next_in = (unsigned char *)w->buf;
	w->z.avail_in = (uInt)w->n;
	for (;;) {
		w->z.next_out = w->zbuf;
		w->z.avail_out = ZBUF_CAP;
		int rc = deflate(&w->z, flush);
		if (rc == Z_STREAM_ERROR)
			return err_set(e, ERR_IO, "synth", -1, "deflate failed");
		int r = put_out(w, w->zbuf, ZBUF_CAP - w->z.avail_out, e);
		if (r)
			return r;
		if (flush == Z_FINISH ? rc == Z_STREAM_END : w->z.avail_out != 0)
			break;
	}
	return 0;
}

static int flush_now(struct wout *w, int zflush, struct err *e)
{
	if (w->overflow)
		return err_set(e, ERR_LIMIT, "synth", -1, "internal: event larger than the buffer");
	int r = w->gzip ? deflate_buf(w, zflush, e) : put_out(w, w->buf, w->n, e);
	w->raw += w->n;
	w->n = 0;
	return r;
}

int wout_maybe_flush(struct wout *w, struct err *e)
{
	return w->n >= WOUT_FLUSH_AT ? flush_now(w, Z_NO_FLUSH, e) : 0;
}

int wout_finish(struct wout *w, struct err *e)
{
	int r = flush_now(w, Z_FINISH, e);
	if (!r && fflush(w->f)) {
		int en = errno;
		r = err_set(e, ERR_IO, "synth", -1, "write failed: %s", strerror(en));
	}
	return r;
}

void wout_free(struct wout *w)
{
	if (w->z_live)
		deflateEnd(&w->z);
	free(w->buf);
	free(w->zbuf);
	memset(w, 0, sizeof *w);
}

void wout_mem(struct wout *w, const char *s, size_t n)
{
	if (n > WOUT_CAP - w->n) {
		w->overflow = true;
		return;
	}
	memcpy(w->buf + w->n, s, n);
	w->n += n;
}

void wout_str(struct wout *w, const char *s)
{
	wout_mem(w, s, strlen(s));
}

void wout_u64(struct wout *w, uint64_t v)
{
	char t[24];
	int i = 24;
	do {
		t[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	wout_mem(w, t + i, (size_t)(24 - i));
}

void wout_i64(struct wout *w, int64_t v)
{
	if (v < 0) {
		WLIT(w, "-");
		wout_u64(w, (uint64_t)0 - (uint64_t)v);
	} else {
		wout_u64(w, (uint64_t)v);
	}
}

void wout_ts(struct wout *w, uint64_t ns)
{
	char t[4] = {'.', (char)('0' + ns % 1000 / 100), (char)('0' + ns % 100 / 10),
		     (char)('0' + ns % 10)};
	wout_u64(w, ns / 1000);
	wout_mem(w, t, 4);
}

void wout_dbl(struct wout *w, double v, int prec)
{
	char t[64];
	int n = snprintf(t, sizeof t, "%.*f", prec, v);
	if (n > 0 && (size_t)n < sizeof t)
		wout_mem(w, t, (size_t)n);
}

void wout_jstr(struct wout *w, const char *s)
{
	WLIT(w, "\"");
	wout_str(w, s);
	WLIT(w, "\"");
}

/* ---- event serialization ---- */

/* One input of a cpu_op as the profiler records it with record_shapes. */
struct inp {
	const char *type; /* "Input type" entry */
	const char *conc; /* "Concrete Inputs" entry, "" for tensors */
	uint8_t nd;
	bool transposed; /* strides of a transposed 2-D view */
	uint32_t d[4];
};

static void key(struct wout *w, const char *k)
{
	WLIT(w, ", \"");
	wout_str(w, k);
	WLIT(w, "\": ");
}

static void key_u(struct wout *w, const char *k, uint64_t v)
{
	key(w, k);
	wout_u64(w, v);
}

static void dims_list(struct wout *w, const struct inp *in, int n, bool strides)
{
	WLIT(w, "[");
	for (int i = 0; i < n; i++) {
		if (i)
			WLIT(w, ", ");
		WLIT(w, "[");
		uint64_t st[4] = {1, 1, 1, 1};
		for (int j = in[i].nd - 2; j >= 0; j--)
			st[j] = st[j + 1] * in[i].d[j + 1];
		if (in[i].transposed && in[i].nd == 2) {
			st[0] = 1;
			st[1] = in[i].d[0];
		}
		for (int j = 0; j < in[i].nd; j++) {
			if (j)
				WLIT(w, ", ");
			wout_u64(w, strides ? st[j] : in[i].d[j]);
		}
		WLIT(w, "]");
	}
	WLIT(w, "]");
}

static void str_list(struct wout *w, const struct inp *in, int n, bool types)
{
	WLIT(w, "[");
	for (int i = 0; i < n; i++) {
		if (i)
			WLIT(w, ", ");
		wout_jstr(w, types ? in[i].type : in[i].conc);
	}
	WLIT(w, "]");
}

static struct inp tensor(const char *type, int nd, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	struct inp r = {.type = type, .conc = "", .nd = (uint8_t)nd, .d = {a, b, c, d}};
	return r;
}

static struct inp scalar(const char *type, const char *conc)
{
	struct inp r = {.type = type, .conc = conc};
	return r;
}

#define BF16 "c10::BFloat16"

/* Fills in[] for a cpu_op's argument kind; returns how many. cbuf holds
 * formatted concrete values that need it. */
static int op_inputs(const struct sev *s, struct inp *in, char (*cbuf)[48])
{
	const uint32_t *d = s->d;
	int n = 0;
	switch ((enum argk)s->argk) {
	case AK_NONE:
	case AK_BWD:
	case AK_COMMS:
		return 0;
	case AK_EMPTY: {
		int m = 0;
		for (int i = 0; i < 4 && d[i]; i++)
			m += snprintf(cbuf[0] + m, 48 - (size_t)m, "%s%" PRIu32, i ? ", " : "[",
				      d[i]);
		snprintf(cbuf[0] + m, 48 - (size_t)m, "]");
		in[n++] = scalar("ScalarList", cbuf[0]);
		in[n++] = scalar("Scalar", "15");
		in[n++] = scalar("Scalar", "0");
		in[n++] = scalar("", "");
		in[n++] = scalar("Scalar", "False");
		in[n++] = scalar("", "");
		return n;
	}
	case AK_TO:
		in[n++] = tensor(d[5] ? "long int" : "float", d[1] ? 4 : 1, d[0], d[1], d[2], d[3]);
		in[n++] = scalar("", "");
		in[n++] = scalar("Scalar", d[5] ? "4" : "6");
		in[n++] = scalar("Scalar", "True");
		in[n++] = scalar("Scalar", "False");
		in[n++] = scalar("", "");
		return n;
	case AK_CONV:
		snprintf(cbuf[0], 48, "[%" PRIu32 ", %" PRIu32 "]", d[6], d[6]);
		snprintf(cbuf[1], 48, "[%" PRIu32 ", %" PRIu32 "]", d[5] / 2, d[5] / 2);
		in[n++] = tensor(BF16, 4, d[0], d[1], d[2], d[3]);
		in[n++] = tensor(BF16, 4, d[4], d[1], d[5], d[5]);
		in[n++] = scalar("", "");
		in[n++] = scalar("ScalarList", cbuf[0]);
		in[n++] = scalar("ScalarList", cbuf[1]);
		in[n++] = scalar("ScalarList", "[1, 1]");
		in[n++] = scalar("Scalar", "1");
		return n;
	case AK_BN:
		in[n++] = tensor(BF16, 4, d[0], d[1], d[2], d[3]);
		for (int i = 0; i < 4; i++)
			in[n++] = tensor("float", 1, d[1], 0, 0, 0);
		in[n++] = scalar("Scalar", "True");
		in[n++] = scalar("Scalar", "0.1");
		in[n++] = scalar("Scalar", "1e-05");
		in[n++] = scalar("Scalar", "True");
		return n;
	case AK_UNARY:
	case AK_POOL:
		in[n++] = tensor(BF16, 4, d[0], d[1], d[2], d[3]);
		if (s->argk == AK_POOL) {
			in[n++] = scalar("ScalarList", "[3, 3]");
			in[n++] = scalar("ScalarList", "[2, 2]");
			in[n++] = scalar("ScalarList", "[1, 1]");
		}
		return n;
	case AK_BINARY:
		in[n++] = tensor(BF16, 4, d[0], d[1], d[2], d[3]);
		in[n++] = tensor(BF16, 4, d[0], d[1], d[2], d[3]);
		in[n++] = scalar("Scalar", "1");
		return n;
	case AK_LINEAR:
		in[n++] = tensor(BF16, 2, d[0], d[1], 0, 0);
		in[n++] = tensor(BF16, 2, d[2], d[1], 0, 0);
		in[n++] = tensor(BF16, 1, d[2], 0, 0, 0);
		return n;
	case AK_ADDMM:
		in[n++] = tensor(BF16, 1, d[2], 0, 0, 0);
		in[n++] = tensor(BF16, 2, d[0], d[1], 0, 0);
		in[n] = tensor(BF16, 2, d[1], d[2], 0, 0);
		in[n++].transposed = true;
		in[n++] = scalar("Scalar", "1");
		in[n++] = scalar("Scalar", "1");
		return n;
	case AK_MM:
		in[n++] = tensor(BF16, 2, d[0], d[1], 0, 0);
		in[n++] = tensor(BF16, 2, d[1], d[2], 0, 0);
		return n;
	case AK_T:
		in[n++] = tensor(BF16, 2, d[0], d[1], 0, 0);
		return n;
	case AK_SDPA:
		for (int i = 0; i < 3; i++)
			in[n++] = tensor(BF16, 4, d[0], d[1], d[2], d[3]);
		in[n++] = scalar("Scalar", "0.0");
		in[n++] = scalar("Scalar", "False");
		in[n++] = scalar("Scalar", "False");
		in[n++] = scalar("", "");
		return n;
	case AK_LOSS:
		in[n++] = tensor(BF16, 2, d[0], d[1], 0, 0);
		in[n++] = tensor("long int", 1, d[0], 0, 0, 0);
		in[n++] = scalar("", "");
		in[n++] = scalar("Scalar", "1");
		in[n++] = scalar("Scalar", "-100");
		return n;
	case AK_FOREACH:
		in[n++] = scalar("TensorList", "");
		in[n++] = scalar("TensorList", "");
		in[n++] = scalar("Scalar", "-0.1");
		return n;
	}
	return 0;
}

/* "[0, 1, ...]": all n ranks, or (cut) the first 30 then ", ..." as
 * PyTorch's Kineto writer shortens a longer list. */
static void emit_rank_list(struct wout *w, uint32_t n, bool cut)
{
	uint32_t m = cut && n > 30 ? 30 : n;
	WLIT(w, "\"[");
	for (uint32_t i = 0; i < m; i++) {
		if (i)
			WLIT(w, ", ");
		wout_u64(w, i);
	}
	if (m < n)
		WLIT(w, ", ...");
	WLIT(w, "]\"");
}

/* The arguments of a collective: record_param_comms' (kernel false) and
 * its NCCL kernel's. */
static void comms_args(struct gen *g, const struct sev *s, bool kernel)
{
	struct wout *w = &g->w;
	bool pt2 = g->o->comms == SYNTH_COMMS_PT2;
	/* legacy: the kernel's count is its d[0] (its grid), as synth always wrote */
	uint32_t nelems = pt2 && kernel ? s->d[1] : s->d[0];
	key(w, "Collective name");
	wout_jstr(w, "allreduce");
	key_u(w, "In msg nelems", nelems);
	key_u(w, "Out msg nelems", nelems);
	key_u(w, "Group size", g->o->world_size);
	key(w, "dtype");
	wout_jstr(w, "Float");
	key(w, "In split size");
	wout_jstr(w, "[]");
	key(w, "Out split size");
	wout_jstr(w, "[]");
	key(w, "Process Group Name");
	wout_jstr(w, "0");
	key(w, "Process Group Description");
	wout_jstr(w, "default_pg");
	key(w, "Process Group Ranks");
	emit_rank_list(w, g->o->world_size, pt2);
	if (!pt2)
		return;
	key_u(w, "Rank", g->o->rank);
	key_u(w, "Global rank start", 0);
	key_u(w, "Global rank stride", 1);
	key_u(w, "Seq", s->d[2]);
}

static void head(struct wout *w, const char *ph, const char *cat, const char *name)
{
	WLIT(w, "{\"ph\": \"");
	wout_str(w, ph);
	WLIT(w, "\", \"cat\": \"");
	wout_str(w, cat);
	WLIT(w, "\", \"name\": \"");
	wout_str(w, name);
	WLIT(w, "\"");
}

static void where(struct wout *w, uint64_t pid, uint64_t tid, uint64_t ts)
{
	key_u(w, "pid", pid);
	key_u(w, "tid", tid);
	key(w, "ts");
	wout_ts(w, ts);
}

static void kernel_args(struct gen *g, const struct sev *s)
{
	struct wout *w = &g->w;
	const struct kdesc *k = s->k;
	uint32_t gx = s->d[0] ? s->d[0] : k->grid[0];
	double blocks = (double)gx * k->grid[1] * k->grid[2];
	uint32_t threads = k->block[0] * k->block[1] * k->block[2];
	double bps = blocks / 132.0;
	double wps = bps * ((threads + 31) / 32);
	uint32_t warps_per_block = (threads + 31) / 32;
	uint32_t by_regs = k->regs ? 65536 / (k->regs * 32 * warps_per_block) : 32;
	uint32_t by_smem = k->smem ? 233472 / k->smem : 32;
	uint32_t resident = by_regs < by_smem ? by_regs : by_smem;
	double occ = bps < 1.0 ? 0.0 : (double)(resident * warps_per_block) / 64.0 * 100.0;
	if (occ > 100.0)
		occ = 100.0;
	key_u(w, "queued", 0);
	key_u(w, "device", g->dev);
	key_u(w, "context", 1);
	key_u(w, "stream", g->stream_id[s->th]);
	key_u(w, "correlation", s->corr);
	key_u(w, "registers per thread", k->regs);
	key_u(w, "shared memory", k->smem);
	key(w, "blocks per SM");
	wout_dbl(w, bps, 6);
	key(w, "warps per SM");
	wout_dbl(w, wps, 6);
	key(w, "grid");
	WLIT(w, "[");
	wout_u64(w, gx);
	WLIT(w, ", ");
	wout_u64(w, k->grid[1]);
	WLIT(w, ", ");
	wout_u64(w, k->grid[2]);
	WLIT(w, "]");
	key(w, "block");
	WLIT(w, "[");
	wout_u64(w, k->block[0]);
	WLIT(w, ", ");
	wout_u64(w, k->block[1]);
	WLIT(w, ", ");
	wout_u64(w, k->block[2]);
	WLIT(w, "]");
	key_u(w, "est. achieved occupancy %", (uint64_t)occ);
	if (s->argk == AK_COMMS)
		comms_args(g, s, true);
}

static void op_args(struct gen *g, const struct sev *s)
{
	struct wout *w = &g->w;
	key_u(w, "Record function id", 0);
	if (s->seq) {
		key_u(w, "Sequence number", s->seq);
		key_u(w, "Fwd thread id", 1);
	}
	if (s->argk == AK_COMMS)
		comms_args(g, s, false);
	struct inp in[10];
	char cbuf[2][48];
	int n = op_inputs(s, in, cbuf);
	if (n) {
		key(w, "Concrete Inputs");
		str_list(w, in, n, false);
		key(w, "Input type");
		str_list(w, in, n, true);
		key(w, "Input Strides");
		dims_list(w, in, n, true);
		key(w, "Input Dims");
		dims_list(w, in, n, false);
	}
	key_u(w, "Ev Idx", s->evidx);
}

static void count(struct synth_stats *st, enum sev_kind k)
{
	st->events++;
	switch (k) {
	case SK_OP:
		st->ph_X++;
		st->cpu_op++;
		break;
	case SK_ANNOT:
		st->ph_X++;
		st->user_annotation++;
		break;
	case SK_RUNTIME:
		st->ph_X++;
		st->cuda_runtime++;
		break;
	case SK_KERNEL:
		st->ph_X++;
		st->kernel++;
		break;
	case SK_MEMCPY:
		st->ph_X++;
		st->gpu_memcpy++;
		break;
	case SK_MEMSET:
		st->ph_X++;
		st->gpu_memset++;
		break;
	case SK_GPU_ANNOT:
		st->ph_X++;
		st->gpu_user_annotation++;
		break;
	case SK_MEM:
		st->ph_i++;
		st->memory++;
		break;
	case SK_FLOW_S:
		st->ph_s++;
		break;
	case SK_FLOW_F:
		st->ph_f++;
		break;
	case SK_B:
		st->ph_B++;
		break;
	case SK_E:
		st->ph_E++;
		break;
	}
}

static const char *const kind_cat[] = {
    [SK_OP] = "cpu_op",
    [SK_ANNOT] = "user_annotation",
    [SK_RUNTIME] = "cuda_runtime",
    [SK_KERNEL] = "kernel",
    [SK_MEMCPY] = "gpu_memcpy",
    [SK_MEMSET] = "gpu_memset",
    [SK_GPU_ANNOT] = "gpu_user_annotation",
};

void synth_emit(struct gen *g, const struct sev *s)
{
	struct wout *w = &g->w;
	wout_mem(w, g->first_event ? "\n  " : ",\n  ", g->first_event ? 3 : 4);
	g->first_event = false;
	uint64_t pid = s->on_dev ? g->dev : g->pid;
	uint64_t tid = s->on_dev ? g->stream_id[s->th] : g->tid[s->th];
	switch ((enum sev_kind)s->kind) {
	case SK_OP:
	case SK_ANNOT:
	case SK_RUNTIME:
	case SK_KERNEL:
	case SK_MEMCPY:
	case SK_MEMSET:
	case SK_GPU_ANNOT:
		head(w, "X", kind_cat[s->kind], s->k ? s->k->name : s->name);
		where(w, pid, tid, s->ts);
		key(w, "dur");
		wout_ts(w, s->dur);
		WLIT(w, ", \"args\": {\"External id\": ");
		wout_u64(w, s->ext);
		if (s->kind == SK_OP || s->kind == SK_ANNOT) {
			op_args(g, s);
		} else if (s->kind == SK_RUNTIME) {
			key_u(w, "cbid", s->cbid);
			key_u(w, "correlation", s->corr);
		} else if (s->kind == SK_KERNEL) {
			kernel_args(g, s);
		} else if (s->kind != SK_GPU_ANNOT) {
			key_u(w, "device", g->dev);
			key_u(w, "context", 1);
			key_u(w, "stream", g->stream_id[s->th]);
			key_u(w, "correlation", s->corr);
			key_u(w, "bytes", (uint64_t)s->bytes);
			key(w, "memory bandwidth (GB/s)");
			wout_dbl(w, (double)s->bytes / (double)(s->dur ? s->dur : 1), 9);
		}
		WLIT(w, "}}");
		break;
	case SK_MEM:
		wout_str(w, "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", "
			    "\"name\": \"[memory]\"");
		where(w, pid, tid, s->ts);
		WLIT(w, ", \"args\": {\"Total Reserved\": ");
		wout_u64(w, s->tot_res);
		key_u(w, "Total Allocated", s->tot_alloc);
		key(w, "Bytes");
		wout_i64(w, s->bytes);
		key_u(w, "Addr", s->addr);
		key(w, "Device Id");
		wout_i64(w, s->dev_type ? (int64_t)g->dev : -1);
		key_u(w, "Device Type", s->dev_type);
		key_u(w, "Ev Idx", s->evidx);
		WLIT(w, "}}");
		break;
	case SK_FLOW_S:
	case SK_FLOW_F: {
		const char *cat = s->argk ? "fwdbwd" : "ac2g";
		wout_mem(w, s->kind == SK_FLOW_S ? "{\"ph\": \"s\"" : "{\"ph\": \"f\"", 10);
		key_u(w, "id", s->corr);
		where(w, pid, tid, s->ts);
		key(w, "cat");
		wout_jstr(w, cat);
		key(w, "name");
		wout_jstr(w, cat);
		if (s->kind == SK_FLOW_F)
			wout_str(w, ", \"bp\": \"e\"");
		WLIT(w, "}");
		if (s->argk)
			g->st->flow_fwdbwd++;
		else
			g->st->flow_ac2g++;
		break;
	}
	case SK_B:
	case SK_E:
		head(w, s->kind == SK_B ? "B" : "E", "user_annotation", s->name);
		where(w, pid, tid, s->ts);
		WLIT(w, "}");
		break;
	}
	count(g->st, (enum sev_kind)s->kind);
}

int synth_flush_step(struct gen *g, struct err *e)
{
	if (g->oom)
		return err_set(e, ERR_NOMEM, "synth", -1, "out of memory");
	struct sevbuf *bufs[2] = {&g->cpu, &g->dev_ev};
	for (int b = 0; b < 2; b++) {
		for (size_t i = 0; i < bufs[b]->n; i++) {
			synth_emit(g, &bufs[b]->v[i]);
			int r = wout_maybe_flush(&g->w, e);
			if (r)
				return r;
		}
		bufs[b]->n = 0;
	}
	return 0;
}

uint32_t synth_push(struct gen *g, struct sevbuf *b)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 4096;
		struct sev *v = cap > (1u << 22) ? NULL : realloc(b->v, cap * sizeof *v);
		if (!v) {
			g->oom = true;
			return SEV_NONE;
		}
		b->v = v;
		b->cap = cap;
	}
	memset(&b->v[b->n], 0, sizeof b->v[0]);
	return (uint32_t)b->n++;
}
