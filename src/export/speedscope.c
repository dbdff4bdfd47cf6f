/* speedscope: the stack profile as speedscope's own JSON file format
 * (https://www.speedscope.app/file-format-schema.json): a shared frames
 * table (name, and the category as "file") and one "evented" profile per
 * track that has events, with open ("O") and close ("C") events in time
 * order, properly nested (partial overlaps clipped as in stacks.h). Times
 * are ns from the trace's first timestamp, so they stay exact in a
 * JavaScript double. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"

static void json_str(FILE *out, const char *s, size_t len)
{
	putc('"', out);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			putc('\\', out);
			putc(c, out);
		} else if (c == '\n') {
			fputs("\\n", out);
		} else if (c == '\t') {
			fputs("\\t", out);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(out, "\\u%04x", c);
		} else {
			putc(c, out);
		}
	}
	putc('"', out);
}

struct ss_ctx {
	FILE *out;
	int64_t base;	     /* the trace's first timestamp */
	int64_t first, last; /* extent of this profile's events */
	bool any;
};

static int ev(struct ss_ctx *c, char type, uint32_t frame, int64_t at)
{
	at -= c->base;
	if (!c->any)
		c->first = at;
	c->last = at;
	fprintf(c->out, "%s{\"type\":\"%c\",\"frame\":%" PRIu32 ",\"at\":%" PRId64 "}",
		c->any ? "," : "", type, frame, at);
	c->any = true;
	return 0;
}

static int ss_open(void *ctx, uint32_t frame, int64_t at)
{
	return ev(ctx, 'O', frame, at);
}

static int ss_close(void *ctx, uint32_t frame, int64_t at)
{
	return ev(ctx, 'C', frame, at);
}

int ss_write(const struct stk_profile *p, FILE *out, const char *name, const char *exporter,
	     struct err *e)
{
	const struct trace *t = p->t;
	uint32_t *rows;
	size_t *first;
	if (stk_track_rows(p, &rows, &first))
		return err_set(e, ERR_NOMEM, "", -1, "out of memory writing speedscope");
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"name\":", out);
	json_str(out, name, strlen(name));
	fputs(",\"exporter\":", out);
	json_str(out, exporter, strlen(exporter));
	fputs(",\"activeProfileIndex\":0,\"shared\":{\"frames\":[", out);
	for (size_t f = 0; f < p->nframes; f++) {
		const char *cat = stk_kind_label(p->frames[f].kind);
		fputs(f ? ",\n{\"name\":" : "\n{\"name\":", out);
		json_str(out, p->frames[f].name, p->frames[f].len);
		fputs(",\"file\":", out);
		json_str(out, cat, strlen(cat));
		putc('}', out);
	}
	fputs("]},\"profiles\":[", out);
	struct ss_ctx c = {.out = out, .base = p->min_ts == INT64_MAX ? 0 : p->min_ts};
	struct stk_visit v = {.ctx = &c, .open = ss_open, .close = ss_close};
	bool firstp = true;
	int rc = 0;
	for (size_t k = 0; k < t->tracks.n && !rc; k++) {
		size_t n = first[k + 1] - first[k];
		if (!n)
			continue;
		char buf[1024];
		size_t len = stk_track_name(t, (uint32_t)k, buf, sizeof buf);
		fputs(firstp ? "\n{\"type\":\"evented\",\"name\":"
			     : ",\n{\"type\":\"evented\",\"name\":",
		      out);
		firstp = false;
		json_str(out, buf, len);
		fputs(",\"unit\":\"nanoseconds\",\"events\":[", out);
		c.any = false;
		c.first = c.last = 0;
		if (stk_walk_track(p, rows + first[k], n, &v))
			rc = err_set(e, ERR_NOMEM, "", -1, "out of memory writing speedscope");
		fprintf(out, "],\"startValue\":%" PRId64 ",\"endValue\":%" PRId64 "}", c.first,
			c.last);
	}
	fputs("]}\n", out);
	free(rows);
	free(first);
	return rc;
}
