/* server internals, shared by srv.c (HTTP, security, assets) and srv_api.c
 * (the JSON API and the loaded files). */
#ifndef GP_SERVER_SRV_INT_H
#define GP_SERVER_SRV_INT_H

#include "server/srv_mhd.h"
#include <pthread.h>

#include "input/input.h"
#include "server/server.h"
#include "server/srv_query.h"
#include "views/view.h"

#define SRV_MAX_URL 2048
#define SRV_MAX_NAME 200
#define SRV_MAX_WINS 4 /* step/range windows kept (srv_select.c) */
/* Connections (srv.c, srv_conn.c): at most SRV_MAX_CONNECTIONS at once and
 * SRV_MAX_PER_ADDRESS from one client address (more are closed at once);
 * each has its own thread. A request's head must arrive within the
 * request timeout (--request-timeout, default SRV_REQUEST_TIMEOUT seconds)
 * and its body within it plus a second per SRV_MIN_BODY_RATE bytes
 * received, or the connection is closed; a connection idle for
 * SRV_IDLE_TIMEOUT seconds (an answer not read) is closed too. */
#define SRV_MAX_CONNECTIONS 256
#define SRV_MAX_PER_ADDRESS 32
#define SRV_REQUEST_TIMEOUT 30
#define SRV_MIN_BODY_RATE 65536.0
#define SRV_IDLE_TIMEOUT 120

struct srv_win; /* a trace cut to a step/range selection (srv_select.c) */

struct srv_file {
	int id;
	char name[SRV_MAX_NAME + 1]; /* the last path component of in.name */
	struct input in;	     /* the loaded input: in.kind is the file's kind */
	struct ses *ses;	     /* with a trace: its analysis session (tbprof/session.h) */
	/* with a report: its lock (readers fill lazy caches in the report's
	 * arena: one answer at a time per report) */
	pthread_mutex_t *ncu_mu;
	struct tl_index *tl;	       /* the timeline's index of a trace, built on first use */
	struct nsys_tl_index *nsys_tl; /* an export's timeline index, built on first use */
	bool upload;		       /* came by POST /api/upload: it may be evicted */
	int refs;		       /* the table's and each holder's; under s->mu */
	uint64_t used;		       /* s->file_clock at its last hold */
};

struct srv {
	struct srv_opts o;
	struct MHD_Daemon *d;
	int port;
	char host[64]; /* as bound, for the URL ("[::1]" for IPv6) */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int jobs;		 /* analyses/loads running */
	struct srv_file **files; /* the table (srv_files.c) */
	int nfiles, next_id;
	uint64_t file_clock;		    /* the files' last-hold stamps */
	struct srv_conns *conns;	    /* the connections' deadlines (srv_conn.c) */
	struct lru *cache;		    /* finished trace-view answers (core/lru.h) */
	struct srv_win *wins[SRV_MAX_WINS]; /* recent selections' windows */
	uint64_t win_clock;		    /* their last-use stamps */
	struct srv_warm *warm;		    /* srv_warm.c */
};

/* An upload in progress (the connection's state). */
struct srv_upload {
	int fd;		/* unlinked private temp file, -1 before the first byte */
	int64_t n;	/* bytes stored */
	int64_t got;	/* bytes received */
	bool io_failed; /* a write failed */
	char name[SRV_MAX_NAME + 1];
};

/* Query helpers (srv_args.c): srv_query.h's parsing of the query of c.
 * srv_unknown_param: srv_q_unknown; srv_int_arg: srv_q_int; srv_flag:
 * srv_q_flag; srv_view_opts: srv_q_view_opts; srv_trace_opts, srv_dist_opts:
 * srv_q_trace_opts, srv_q_dist_opts. */
bool srv_unknown_param(struct MHD_Connection *c, const char *allowed, char bad[SRV_BAD_PARAM]);
int srv_int_arg(struct MHD_Connection *c, const char *key, int64_t *v, bool *has);
int srv_trace_opts(struct MHD_Connection *c, struct srv_trace_opts *o, char *msg, size_t n);
int srv_dist_opts(struct MHD_Connection *c, struct srv_dist_opts *o, char *msg, size_t n);
bool srv_flag(struct MHD_Connection *c, const char *key);
/* srv_q_id of the query of c. */
int srv_id_arg(struct MHD_Connection *c, const char *key);
int srv_view_opts(struct MHD_Connection *c, const struct view_decl *d, struct view_opts *o,
		  char *msg, size_t n);
/* Ends an answer that a writer (returning rc, its error in e) wrote to f,
 * an open_memstream of *buf, *len: replies the JSON, or the error (400 for
 * ERR_USAGE, else 500; "could not write the answer" when only the stream
 * failed; f NULL: out of memory); closes f and frees *buf. */
enum MHD_Result srv_reply_stream(struct MHD_Connection *c, FILE *f, char **buf, size_t *len, int rc,
				 const struct err *e);
/* The timeline parameters start_ns, end_ns, px (default 1000), flows and
 * links (-1 and *has_links false when absent) into o; -1 with *res the 400
 * reply when one is bad. Both timelines (trace and export) take them. */
int srv_tl_opts(struct MHD_Connection *c, struct tl_opts *o, int64_t *links, bool *has_links,
		enum MHD_Result *res);
/* /timeline/find's options (srv_q_find_opts); -1 with *res the 400 reply
 * when one is bad. */
int srv_find_opts(struct MHD_Connection *c, struct tl_find_opts *o, enum MHD_Result *res);
/* The file table (srv_files.c). A file is freed when it has left the
 * table (DELETE, eviction, server stop) and its last holder let it go: a
 * request about file ID holds it from its start to its answer (srv_api_get),
 * a window of its trace and the warming thread hold it while they use it.
 *
 * srv_file_hold: file id with one more reference (and, when use, a newer
 * last-use stamp: a request's, not the warming thread's), or NULL;
 * srv_file_release drops one (NULL: nothing), freeing the file after its
 * last. srv_file_remove: takes file id out of the table (its
 * windows and cached answers with it); false when there is none. */
struct srv_file *srv_file_hold(struct srv *s, int id, bool use);
void srv_file_release(struct srv *s, struct srv_file *f);
bool srv_file_remove(struct srv *s, int id);
/* Adds an upload as srv_add_file does, first evicting the least recently
 * used upload when the table is full. */
int srv_add_upload(struct srv *s, struct input *in, struct err *e);
/* The file in the table with that id, or NULL. Under s->mu. */
struct srv_file *srv_file_find_locked(struct srv *s, int id);
/* Empties the table (server stop: no request is running). */
void srv_files_free(struct srv *s);
/* DELETE /api/file/ID: removes it; the answer is what /api/files says then. */
enum MHD_Result srv_api_delete(struct srv *s, struct MHD_Connection *c, int id);
/* The files table: all files, or only the one with id `only` (> 0). */
enum MHD_Result srv_reply_files(struct srv *s, struct MHD_Connection *c, int only);
/* A copy of file id's record, taken under the lock; false when there is
 * none. Its input's pointers (trace, report, export path, analysis) stay
 * valid while the file is held (a request about file id holds it); the
 * lazily built indexes (tl, nsys_tl) are as they were at the copy. */
bool srv_file_get(struct srv *s, int id, struct srv_file *out);
/* The trace of file id (valid while it is held), or NULL with *res the
 * error reply: 404 for no such file, 400 for a report or an export. */
struct trace *srv_trace_of(struct srv *s, struct MHD_Connection *c, int id, enum MHD_Result *res);

/* Connection deadlines (srv_conn.c). start/stop: the watchdog thread, before
 * the daemon starts and after it stopped. srv_conn_notify is the daemon's
 * MHD_OPTION_NOTIFY_CONNECTION. srv_conn_phase: the request on c now
 * receives its body (SRV_CONN_BODY, body bytes so far), is received
 * (SRV_CONN_DONE: no deadline), or is over, the next one awaited
 * (SRV_CONN_NEXT). */
enum { SRV_CONN_BODY, SRV_CONN_DONE, SRV_CONN_NEXT };
int srv_conns_start(struct srv *s);
void srv_conns_stop(struct srv *s);
void srv_conn_notify(void *cls, struct MHD_Connection *c, void **ctx,
		     enum MHD_ConnectionNotificationCode code);
void srv_conn_phase(struct srv *s, struct MHD_Connection *c, int phase, int64_t body);

/* Queues a response; copies body (len bytes) when it is not NULL. */
enum MHD_Result srv_reply(struct MHD_Connection *c, unsigned status, const char *mime,
			  const void *body, size_t len);
/* The same with the header X-Gpuprof-Cache: CACHE ("hit": the answer came
 * from the answer cache, "miss": it was computed), when cache is not NULL. */
enum MHD_Result srv_reply_cached(struct MHD_Connection *c, unsigned status, const char *mime,
				 const void *body, size_t len, const char *cache);
/* The HTTP status of a request whose computation failed with rc (enum
 * err_code): 400 for a bad request (ERR_USAGE), else 500; and of an upload
 * that could not be read: 507 when a limit or memory ran out, else 400. */
unsigned srv_http_upload_status(int rc);
/* {"error": {"status": N, "message": "..."}} with that status. */
enum MHD_Result srv_reply_error(struct MHD_Connection *c, unsigned status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The API (srv_api.c). url starts with "/api/". */
enum MHD_Result srv_api_get(struct srv *s, struct MHD_Connection *c, const char *url);
enum MHD_Result srv_api_upload(struct srv *s, struct MHD_Connection *c, struct srv_upload *u);
/* GET /api/file/ID/ncu/VERB (srv_ncu.c): ncu view d of report r with the
 * options o parsed from the query. */
enum MHD_Result srv_api_ncu(struct srv *s, struct MHD_Connection *c, struct ncu_report *r,
			    pthread_mutex_t *mu, const struct view_decl *d,
			    const struct view_opts *o);
/* GET /api/file/ID/nsys/VIEW (srv_nsys.c): nsys view d of the export at
 * path with the options o parsed from the query. */
enum MHD_Result srv_api_nsys(struct srv *s, struct MHD_Connection *c, const char *path,
			     const struct view_decl *d, const struct view_opts *o);
/* GET /api/dist (srv_dist.c): the distributed view over loaded traces. */
enum MHD_Result srv_api_dist(struct srv *s, struct MHD_Connection *c);
/* GET /api/file/ID/nsys/analysis (srv_nsys_iter.c). */
enum MHD_Result srv_api_nsys_analysis(struct srv *s, struct MHD_Connection *c, int id);
/* GET /api/file/ID/trace?start_ns=A&end_ns=B (srv_trace.c): the trace
 * written back from its own bytes (kineto/pass.h), whole or a window of it. */
enum MHD_Result srv_api_trace(struct srv *s, struct MHD_Connection *c, int id);
/* Selections (srv_select.c). srv_selection (srv_args.c): srv_q_selection
 * of the request's query. */
int srv_selection(struct MHD_Connection *c, bool steps_view, const char **step, const char **range);
/* The window of file id's trace t for step or range, shared and counted:
 * give it back with srv_window_put. Errors: tr_select's (ERR_USAGE with the
 * CLI's message for a bad selector). */
int srv_window_get(struct srv *s, int id, struct trace *t, const char *step, const char *range,
		   struct srv_win **out, struct err *e);
void srv_window_put(struct srv *s, struct srv_win *w);
const struct trace *srv_window_trace(const struct srv_win *w);
/* The window's analysis session. */
struct ses *srv_window_ses(const struct srv_win *w);
/* The analysis session of trace file id (valid while the file is held),
 * or NULL when there is no such trace. */
struct ses *srv_file_ses(struct srv *s, int id);
/* The timeline index of w's trace, built on first use and kept with w. */
int srv_window_tl(struct srv *s, struct srv_win *w, struct tl_index **ix, struct err *e);
/* Frees the windows (server stop: no request is running). */
void srv_windows_free(struct srv *s);
/* Drops the table's windows of file id (it left the table); those still in
 * use go with their last user. */
void srv_windows_drop(struct srv *s, int id);
/* GET /api/file/ID/annotations (srv_select.c). */
enum MHD_Result srv_api_annotations(struct srv *s, struct MHD_Connection *c, int id);
/* The timeline index of trace file id (built on first use, kept with the
 * file), or with the request's step=/range= that of the window (*win, to
 * give back with srv_window_put; NULL without a selection), with a job slot
 * taken (srv_job_end when done); NULL, no slot taken and *win NULL, when
 * there is none: *res is then the error reply (404, 400 for a file that is
 * not a trace or a bad selection, 500). srv_timeline_find.c. */
struct tl_index *srv_tl_index(struct srv *s, struct MHD_Connection *c, int id, struct srv_win **win,
			      enum MHD_Result *res);
/* GET /api/file/ID/timeline/find?find=TEXT&start_ns=A&end_ns=B&limit=N
 * (srv_timeline_find.c): the timeline's search. */
enum MHD_Result srv_api_timeline_find(struct srv *s, struct MHD_Connection *c, int id);
/* GET /api/file/ID/nsys/timeline (srv_nsys_tl.c): the export's timeline. */
enum MHD_Result srv_api_nsys_tl(struct srv *s, struct MHD_Connection *c, int id);
/* Stores n more bytes of upload u: 0; 1 when they would pass
 * --max-upload (nothing stored); -1 when a write failed (io_failed set,
 * srv_api_upload answers 500). */
int srv_upload_data(struct srv *s, struct srv_upload *u, const char *data, size_t n);
/* A trace view's JSON answer (what `gpuprof VIEW --format json` prints),
 * computed in a job slot, into a malloc'd *buf; the cache key of the view
 * asked without parameters ("ID/VIEW?", to which a request's parameters
 * are appended in order). srv_api.c. */
int srv_view_json(struct srv *s, struct ses *ses, const struct view_decl *d,
		  const struct view_opts *o, char **buf, size_t *len, struct err *e);
int srv_view_key(char *key, size_t n, int id, const struct view_decl *d);
/* Appends a request parameter to the key of len bytes ("NAME=VALUE&", in
 * request order); the new length (>= n: too long, not cached). */
int srv_key_param(char *key, size_t n, int len, const char *name, const char *value);
/* The same over the sessions ss[0..n) of a VIEW_MANY view (diff's BASE
 * and NEW), as `gpuprof VIEW --format json FILE...` prints it. */
int srv_view_json_many(struct srv *s, struct ses *const *ss, size_t n, const struct view_decl *d,
		       const struct view_opts *o, char **buf, size_t *len, struct err *e);
/* The answer of a computation that returned rc: the JSON in buf (len
 * bytes), or the error of e (srv_http_status of rc); frees buf. */
enum MHD_Result srv_reply_json(struct MHD_Connection *c, int rc, const struct err *e, char *buf,
			       size_t len);
/* The 400 naming a parameter that is not one of srv_view_params's (with
 * the closest when one is close: srv_q_bad_param). */
enum MHD_Result srv_reply_bad_param(struct MHD_Connection *c, const struct view_decl *d,
				    const char *bad);
/* GET /api/diff?base=ID&new=ID (srv_diff.c): the comparison of two loaded
 * files of one kind. */
enum MHD_Result srv_api_diff(struct srv *s, struct MHD_Connection *c);
/* Answers computed ahead (srv_warm.c): after a trace is added, a background
 * thread computes the views its first pages ask for (summary, steps, ops,
 * kernels, without parameters) into the answer cache, so the Overview of a
 * big trace is ready when the page asks. start at server start; add queues file id; stop joins the
 * thread (before the files are freed). */
int srv_warm_start(struct srv *s);
void srv_warm_add(struct srv *s, int id);
/* A request began or ended: the thread begins its next view only once
 * none has (and no file was added) for a while (srv_warm.c). */
void srv_warm_touch(struct srv *s);
/* Returns once the thread is not computing the answer of key (a request
 * that missed the cache waits for it rather than computing it twice). */
void srv_warm_wait(struct srv *s, const char *key);
void srv_warm_stop(struct srv *s);
void srv_job_begin(struct srv *s);

void srv_job_end(struct srv *s);

#endif
