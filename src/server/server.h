/* server: the local HTTP server of `gpuprof serve` (libmicrohttpd): the
 * embedded viewer (assets.h) and a JSON API over loaded traces.
 *
 *   GET  /, /index.html, /app.js ...   the viewer's files, from the binary
 *   GET  /api/files                   the loaded files
 *   GET  /api/file/ID/VIEW?OPTIONS    VIEW = summary|steps|ops|kernels|memory,
 *                                     the JSON of `gpuprof VIEW --format json`
 *   GET  /api/file/ID/ncu/VERB?OPTS   VERB = list|raw|session|details|hints
 *                                     of an Nsight Compute report: the JSON
 *                                     of `gpuprof ncu VERB --format json`
 *   POST /api/upload?name=NAME        the body is a file of any kind the
 *                                     input registry loads (input/input.h,
 *                                     by its content); it is loaded and
 *                                     added (its entry is the answer;
 *                                     with 64 files, the upload used
 *                                     least recently goes first)
 *   DELETE /api/file/ID               removes the file (srv_files.c)
 *
 * Security (a page on another site must not read the traces): a request
 * whose Host is not an IP literal or "localhost" with the server's port
 * (DNS rebinding) or whose Origin is not the server's own is refused with
 * 403; only the fixed routes above exist (no request path reaches the
 * filesystem); URLs, headers and bodies are capped (414/431/413); at most
 * max_jobs analyses or loads run at once (the others wait); connections
 * are capped in number, per client address and in the time a request
 * takes to arrive (srv_int.h, srv_conn.c).
 *
 * Owns the loaded inputs (srv_add_file hands them over). Talks to the
 * outside (sockets); depends on input/, views/, trace/, tbprof/, ncu/,
 * nsys/, io/, report/, core/ and libmicrohttpd.
 * The handlers' state lives in struct srv: no global mutable state.
 */
#ifndef GP_SERVER_H
#define GP_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "trace/trace.h"

struct srv_opts {
	const char *host;    /* address to bind: an IP literal or "localhost" */
	int port;	     /* 0 = any free port */
	int64_t max_upload;  /* bytes; larger uploads get 413 */
	int max_jobs;	     /* concurrent analyses/loads (>= 1) */
	int max_files;	     /* loaded files at most */
	int request_timeout; /* seconds to receive a request (0: SRV_REQUEST_TIMEOUT) */
	uint64_t max_mem;    /* what one loaded trace may hold (kineto_opts); 0 = default */
};

struct srv;

/* Binds and starts serving in background threads. */
int srv_start(const struct srv_opts *o, struct srv **out, struct err *e);
struct input;
/* Adds a loaded input (input/input.h), shown as the last path component
 * of its name; the server owns it from now on, also on failure (then
 * freed), and *in is left empty. Returns the file's id (> 0), or a
 * negative err code (too many files, out of memory). */
int srv_add_file(struct srv *s, struct input *in, struct err *e);
/* The bound port and the viewer's URL ("http://127.0.0.1:8765/"). */
int srv_port(const struct srv *s);
void srv_url(const struct srv *s, char *buf, size_t n);
/* Stops serving and frees everything, the traces included. */
void srv_stop(struct srv *s);
/* Whether host names a loopback address (127.0.0.0/8, ::1, localhost). */
bool srv_is_loopback(const char *host);

#endif
