/* fleet/summary_extra: the parts of a rank summary (version 2) that the
 * distributed view itself does not need but a fleet's reader of summaries
 * does: per step the time breakdown of `gpuprof steps`, its bounds and its
 * GPUs' busy time (`gpuprof summary`'s utilization over the step, for all
 * steps at once: gm_busy), the
 * kernel-time summary (`gpuprof kernels` by name, cut to the first
 * FLEET_TOP_KERNELS) with totals per kind of GPU work, and the memory peaks
 * of `gpuprof memory`. Each is computed by the analysis that computes it
 * for those commands, on one session of the trace. See summary.h. */
#include "fleet/summary.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "tbprof/gpumetrics.h"
#include "tbprof/kernels.h"
#include "tbprof/memory.h"
#include "tbprof/session.h"

/* Step i's bounds, breakdown and GPUs' busy time (the opening of its
 * object is written by the caller, the closing brace too). */
static void put_step(FILE *f, const struct fleet_extra *x, size_t i)
{
	const struct st_step *s = &x->steps->steps[i];
	fprintf(f, ",\"start\":%" PRId64 ",\"end\":%" PRId64 ",\"breakdown\":{", s->start, s->end);
	for (int p = 0; p < ST_TOTAL; p++)
		fprintf(f, "%s\"%s\":%" PRId64, p ? "," : "", st_part_key((enum st_part)p),
			s->cost[p]);
	fputs("},\"gpu_busy\":[", f);
	const struct gm_busy *b = &x->busy;
	for (size_t g = 0; g < b->n; g++)
		fprintf(f, "%s{\"gpu\":%" PRId64 ",\"busy\":%" PRId64 "}", g ? "," : "", b->gpus[g],
			b->busy[i * b->n + g]);
	fputc(']', f);
}

/* "kernels": the first FLEET_TOP_KERNELS kernel names by total time (as
 * `gpuprof kernels` orders them), the rest as one sum, and the totals of
 * communication kernels, the other kernels and memcpy/memset. */
static int put_kernels(FILE *f, const struct trace *t, bool compat, struct err *e)
{
	struct kern_view kv;
	int rc = kern_build_names(t, compat, &kv, e);
	if (rc)
		return rc;
	fprintf(f, ",\n\"kernels\":{\"top_n\":%d,\"top\":[", FLEET_TOP_KERNELS);
	uint64_t rest_calls = 0;
	int64_t rest = 0;
	for (size_t i = 0; i < kv.n; i++) {
		const struct kern_row *k = &kv.rows[i];
		if (i >= FLEET_TOP_KERNELS) {
			rest_calls += k->calls;
			rest += k->total;
			continue;
		}
		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", f);
		rep_json_str(f, tr_str(t, k->name));
		fprintf(f, ",\"calls\":%" PRIu64 ",\"total\":%" PRId64 "}", k->calls, k->total);
	}
	int64_t comm = 0, compute = 0, memory = 0;
	for (size_t r = 0; r < t->ev.n; r++) {
		int64_t d = tr_dur(t, r);
		d = d > 0 ? d : 0;
		enum tr_kind kind = t->ev.kind[r];
		if (kind == TR_KERNEL && kern_counted_row(t, compat, r))
			*(t->ev.flags[r] & TRF_COMM ? &comm : &compute) += d;
		else if ((kind == TR_MEMCPY || kind == TR_MEMSET) && t->ev.ph[r] == 'X')
			memory += d;
	}
	fprintf(f,
		"],\"rest\":{\"names\":%zu,\"calls\":%" PRIu64 ",\"total\":%" PRId64
		"},\"types\":{\"compute\":%" PRId64 ",\"comm\":%" PRId64 ",\"memory\":%" PRId64
		"}}",
		kv.n > FLEET_TOP_KERNELS ? kv.n - FLEET_TOP_KERNELS : 0, rest_calls, rest, compute,
		comm, memory);
	kern_free(&kv);
	return 0;
}

/* "memory": each device's peak allocated and reserved bytes. */
static int put_memory(FILE *f, const struct trace *t, bool compat, struct err *e)
{
	struct mem_opts mo = {.tb_compat = compat};
	struct memory m;
	int rc = mem_peaks(t, &mo, &m, e);
	if (rc)
		return rc;
	fputs(",\n\"memory\":[", f);
	for (size_t i = 0; i < m.ndevs; i++) {
		const struct mem_device *d = &m.devs[i];
		fprintf(f, "%s{\"device\":", i ? "," : "");
		rep_json_str(f, d->name);
		if (d->has_allocated)
			fprintf(f, ",\"peak_allocated\":%" PRId64, d->peak_allocated);
		else
			fputs(",\"peak_allocated\":null", f);
		if (d->has_reserved)
			fprintf(f, ",\"peak_reserved\":%" PRId64 "}", d->peak_reserved);
		else
			fputs(",\"peak_reserved\":null}", f);
	}
	fputc(']', f);
	mem_free(&m);
	return 0;
}

int fleet_extra_open(struct fleet_extra *x, struct ses *ses, bool compat, struct err *e)
{
	memset(x, 0, sizeof *x);
	x->compat = compat;
	if (!ses)
		return 0;
	const struct trace *t = x->t = ses_trace(ses);
	x->ses = ses;
	int rc = ses_steps(x->ses, compat, &x->steps, e);
	struct rg *win = NULL;
	size_t n = rc ? 0 : x->steps->n;
	if (!rc && !(win = malloc((n ? n : 1) * sizeof *win)))
		rc = err_set(e, ERR_NOMEM, t->path, -1, "out of memory");
	for (size_t i = 0; !rc && i < n; i++)
		win[i] = (struct rg){x->steps->steps[i].start, x->steps->steps[i].end};
	if (!rc)
		rc = gm_busy(t, win, n, &x->busy, e);
	free(win);
	if (rc)
		fleet_extra_close(x);
	return rc;
}

void fleet_extra_close(struct fleet_extra *x)
{
	gm_busy_free(&x->busy);
	memset(x, 0, sizeof *x);
}

int fleet_extra_step(const struct fleet_extra *x, size_t i, int64_t number, FILE *f, struct err *e)
{
	if (!x->steps || i >= x->steps->n || x->steps->steps[i].number != number)
		return 0; /* (no trace: nothing more) */
	put_step(f, x, i);
	return 0;
}

int fleet_extra_tail(const struct fleet_extra *x, FILE *f, struct err *e)
{
	if (!x->ses) {
		fputs(",\n\"kernels\":null,\n\"memory\":null", f);
		return 0;
	}
	/* (neither needs the operator tree: the summary does not build it) */
	int rc = put_kernels(f, x->t, x->compat, e);
	if (!rc)
		rc = put_memory(f, x->t, x->compat, e);
	return rc;
}
