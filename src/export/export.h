/* export: writers of the stack profile (stacks.h) for other tools.
 *
 * folded (Brendan Gregg's collapsed stacks), pprof (gzip-compressed
 * perftools.profiles.Profile) and speedscope (its own JSON, evented). Each
 * writes to a FILE the caller opened and closes; output depends only on the
 * trace and the options (no clock, no addresses, no hash order), so two runs
 * give identical bytes. Formats and rules: docs/export.md.
 * Depends on trace/stacks, pb (writer), core, zlib; never on readers.
 */
#ifndef GP_EXPORT_H
#define GP_EXPORT_H

#include <stdio.h>

#include "core/err.h"
#include "trace/stacks.h"
#include "pb/pb.h"

enum fold_unit { FOLD_NS, FOLD_US };

/* One line per distinct stack with self time > 0: "root;...;leaf VALUE",
 * VALUE in ns (integer) or µs (three decimals, exact). ';' in names becomes
 * ':', control characters become ' ', an empty name "[unnamed]". */
int fold_write(const struct stk_profile *p, FILE *out, enum fold_unit unit, struct err *e);

/* The gzip-compressed pprof Profile of p (build p without merge_tracks so
 * samples carry their track's pid/tid labels). */
int pprof_write(const struct stk_profile *p, FILE *out, struct err *e);
/* The uncompressed Profile message into w (for tests and pprof_write). */
int pprof_encode(const struct stk_profile *p, struct pbw *w, struct err *e);

/* speedscope JSON: one evented profile per track with events, times in ns
 * from the trace's first timestamp; name is the file's "name". */
int ss_write(const struct stk_profile *p, FILE *out, const char *name, const char *exporter,
	     struct err *e);

#endif
