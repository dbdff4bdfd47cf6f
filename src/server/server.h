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
 *   POST /api/upload?name=NAME        the body is a trace or an .ncu-rep
 *                                     (sniffed by magic); it is loaded and
 *                                     added (its entry is the answer)
 *
 * Security (a page on another site must not read the traces): a request
 * whose Host is not an IP literal or "localhost" with the server's port
 * (DNS rebinding) or whose Origin is not the server's own is refused with
 * 403; only the fixed routes above exist (no request path reaches the
 * filesystem); URLs, headers and bodies are capped (414/431/413); at most
 * max_jobs analyses or loads run at once (the others wait).
 *
 * Owns the loaded traces (srv_add hands them over). Talks to the outside
 * (sockets); depends on views/, trace/, tbprof/, kineto/, ncu/, nsys/, io/, report/, core/ and
 * libmicrohttpd.
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
	const char *host;   /* address to bind: an IP literal or "localhost" */
	int port;	    /* 0 = any free port */
	int64_t max_upload; /* bytes; larger uploads get 413 */
	int max_jobs;	    /* concurrent analyses/loads (>= 1) */
	int max_files;	    /* loaded files at most */
};

struct srv;

/* Binds and starts serving in background threads. */
int srv_start(const struct srv_opts *o, struct srv **out, struct err *e);
/* Adds a loaded trace shown as name (its last path component), of bytes
 * input bytes (-1 unknown); the server owns t from now on (also on
 * failure). Returns the file's id (> 0), or a negative err code. */
int srv_add(struct srv *s, const char *name, int64_t bytes, struct trace *t, struct err *e);
struct ncu_report;
/* As srv_add, for an Nsight Compute report (owned from now on). */
int srv_add_ncu(struct srv *s, const char *name, int64_t bytes, struct ncu_report *r,
		struct err *e);
/* Whether path is an Nsight Compute report (magic "NVR\0", also inside
 * gzip), as the CLI sniffs; false for "-" and unreadable files. */
bool srv_is_ncu_file(const char *path);
/* Whether path is an Nsight Systems SQLite export (magic "SQLite format
 * 3\0"), as the CLI sniffs; false for "-" and unreadable files. */
bool srv_is_nsys_file(const char *path);
/* Adds the Nsight Systems SQLite export at path (opened once to check it;
 * each answer opens it read-only again). */
int srv_add_nsys(struct srv *s, const char *name, int64_t bytes, const char *path, struct err *e);
/* Whether path is an analysis.json of `nsys analyze` (sniffed by content,
 * io/sniff.c: a JSON object whose first key is one of schema 1's; also
 * inside gzip); false for "-" and unreadable files. */
bool srv_is_nsys_analysis(const char *path);
/* Adds an analysis.json (checked: strict JSON, schema_version 1, its keys)
 * or a run directory: DIR/analysis.json when it exists, else the analysis
 * of DIR/stats/nsys_nvtx_*.csv with DIR/manifest.yaml computed in memory as
 * `nsys analyze --from-csv` would (nothing is written into DIR). */
int srv_add_nsys_analysis(struct srv *s, const char *path, struct err *e);
/* The bound port and the viewer's URL ("http://127.0.0.1:8765/"). */
int srv_port(const struct srv *s);
void srv_url(const struct srv *s, char *buf, size_t n);
/* Stops serving and frees everything, the traces included. */
void srv_stop(struct srv *s);
/* Whether host names a loopback address (127.0.0.0/8, ::1, localhost). */
bool srv_is_loopback(const char *host);

#endif
