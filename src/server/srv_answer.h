/* srv_answer: answers of the server's endpoints without a socket, for the
 * server and the static site's engine (src/wasm/site_api.c) alike.
 *
 * srv_slice, the bytes of GET /api/file/ID/trace (srv_trace.c): a loaded trace written back from
 * its own bytes by kineto/pass.h (what `gpuprof trace slice` writes: every kept event as the file
 * has it, every top-level key), cut to a selection window when there is one, and with start_ns or
 * end_ns to [start_ns, end_ns) from the start of what is left, as `trace slice --from --to` cuts
 * (trace/window.h: host events starting inside and the GPU work they launched). Owns nothing.
 * Depends on kineto/pass, trace/window, tbprof/session, server/srv_query. */
#ifndef GP_SERVER_SRV_ANSWER_H
#define GP_SERVER_SRV_ANSWER_H

#include <stdbool.h>
#include <stddef.h>

#include "core/err.h"
#include "input/input.h"
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

/* The message of a file (of the kind sniffed) that did not load, as the
 * viewer shows an upload's: Nsight Systems inputs "NAME: byte N: WHAT" as
 * the command line says it, traces and reports "NAME at byte N: WHAT"
 * (name: the upload's name). Into buf (always NUL-terminated). */
void srv_load_message(const struct err *e, const char *name, enum input_kind kind, char *buf,
		      size_t size);

/* GET /api/file/ID/annotations (srv_select.c): the distinct names of the
 * trace's user annotations (what --range looks for first), by name, with
 * their count and the start of the first one (the one --range cuts to), in
 * ns, as JSON into *buf (malloc'd, *len); 0, or -1 out of memory. */
int srv_annotations(const struct trace *t, char **buf, size_t *len);

/* /api/dist (srv_dist.c): the distributed view over workers, one per
 * trace or rank summary, what `gpuprof dist --format json` prints. */
struct srv_dist_file {
	const char *name; /* the file's display name */
	bool trace;	  /* a PyTorch trace */
	bool summary;	  /* a rank summary */
};
/* Which of files[0..nfiles) (in file-id order, ids[k] the id of files[k])
 * are the workers: with files= (want: nwant ids) those, in that order;
 * else the rank summaries when there are any, else every trace; at most
 * cap. pick[0..*n) their indices in files. 0, or the HTTP status with the
 * message in msg. */
unsigned srv_dist_pick(const struct srv_dist_file *files, const int *ids, int nfiles,
		       const int *want, int nwant, int cap, int *pick, int *n, char *msg,
		       size_t size);

/* The refusal of step=/range= for a rank summary (%s: its file name). */
#define SRV_DIST_SUMMARY_CUT                                                                       \
	"%s is a rank summary: --step and --range apply when it is made (gpuprof rank-summary "    \
	"--step ...)"

struct srv_dist_worker {
	const struct trace *t; /* its window under step=/range=; NULL: a rank summary */
	const char *path;      /* a summary's file, read again */
	const char *name;      /* the file's display name */
	bool upload;	       /* the name stands for the path (the workers table's File) */
};
/* The view over w[0..n) with o's tb_compat, names and fleet/top into *buf
 * (malloc'd, *len); 0 or an error code (e filled). */
int srv_dist(const struct srv_dist_worker *w, int n, const struct srv_dist_opts *o, char **buf,
	     size_t *len, struct err *e);

#endif
