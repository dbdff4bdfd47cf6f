/* srv_slice: answers of the server's trace endpoints without a socket, for
 * the server and the static site's engine (src/wasm/site_api.c) alike.
 *
 * srv_slice, the bytes of GET /api/file/ID/trace (srv_trace.c): a loaded trace written back from
 * its own bytes by kineto/pass.h (what `gpuprof trace slice` writes: every kept event as the file
 * has it, every top-level key), cut to a selection window when there is one, and with start_ns or
 * end_ns to [start_ns, end_ns) from the start of what is left, as `trace slice --from --to` cuts
 * (trace/window.h: host events starting inside and the GPU work they launched). Owns nothing.
 * Depends on kineto/pass, trace/window, tbprof/session, server/srv_query. */
#ifndef GP_SERVER_SRV_SLICE_H
#define GP_SERVER_SRV_SLICE_H

#include <stddef.h>

#include "core/err.h"
#include "server/srv_query.h"
#include "tbprof/session.h"
#include "trace/trace.h"

/* src: the file t was loaded from (read again); sel: a window of t (the
 * step=/range= selection) or NULL, ses t's session (its links cut the
 * window; NULL with sel). The bytes into *buf (malloc'd, *len); 0, or
 * ERR_USAGE with the 400's message in e (a window out of range or empty),
 * or another error. */
int srv_slice(const char *src, const struct trace *t, const struct trace *sel, struct ses *ses,
	      const struct srv_trace_opts *o, char **buf, size_t *len, struct err *e);

/* GET /api/file/ID/annotations (srv_select.c): the distinct names of the
 * trace's user annotations (what --range looks for first), by name, with
 * their count and the start of the first one (the one --range cuts to), in
 * ns, as JSON into *buf (malloc'd, *len); 0, or -1 out of memory. */
int srv_annotations(const struct trace *t, char **buf, size_t *len);

#endif
