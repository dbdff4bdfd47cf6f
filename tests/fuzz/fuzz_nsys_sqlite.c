/* fuzz_nsys_sqlite: libFuzzer target for the Nsight Systems SQLite export
 * readers: the bytes become a read-only in-memory database
 * (sqlite3_deserialize, nsys_sql_open_mem), then every view of the
 * registry's Nsight Systems family is computed with its defaults as the
 * CLI computes it and written (JSON, and the text tables) to /dev/null,
 * and the server's timeline rows are read. Any input must give answers or
 * errors, never a crash, a hang or unbounded memory. */
#include <stdint.h>
#include <stdio.h>

#include "nsys/nsys.h"
#include "nsys/nsys_tl.h"
#include "report/report.h"
#include "views/view.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void write_view(struct view *v, FILE *f)
{
	const struct nsys_jv *json = view_json(v);
	if (json) {
		nsys_jv_write(f, json);
		return;
	}
	for (int fmt = REP_TABLE; fmt <= REP_JSON; fmt++) {
		struct report *r = rep_open(f, (enum rep_format)fmt);
		if (!r)
			return;
		view_emit(v, r);
		rep_close(r);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nsys_sql *s;
	struct err e = {0};
	if (nsys_sql_open_mem(data, size, "fuzz.sqlite", &s, &e))
		return 0;
	FILE *f = fopen("/dev/null", "w");
	for (size_t i = 0; f && i < view_count(); i++) {
		const struct view_decl *d = view_at(i);
		if (d->family != VIEW_FAMILY_NSYS)
			continue;
		struct view_opts o;
		view_opts_init(&o);
		view_opts_defaults(d, &o);
		struct view *v = NULL;
		if (!view_compute_nsys(d, s, "fuzz.sqlite", &o, &v, &e))
			write_view(v, f);
		view_free(v);
	}
	struct nsys_tl *tl;
	if (!nsys_sql_timeline(s, &tl, &e))
		nsys_tl_free(tl);
	if (f)
		fclose(f);
	nsys_sql_close(s);
	return 0;
}
