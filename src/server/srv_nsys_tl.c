/* srv_nsys_tl: GET /api/file/ID/nsys/timeline?start_ns=A&end_ns=B&px=W&flows=1
 * or ?links=ROW: the timeline of an Nsight Systems SQLite export
 * (views/view_nsys_tl.c), in the shape of /api/file/ID/timeline. The
 * export's rows are read once (read-only, its own connection) into an
 * index kept on the file's record for the server's life; a request is then
 * a binary search per lane plus the events in its window. */
#include <stdlib.h>
#include <string.h>

#include "nsys/nsys_tl.h"
#include "server/srv_int.h"
#include "views/view_nsys_tl.h"

/* The export's index, built on first use (outside the lock; a concurrent
 * builder's copy is dropped). */
static int get_index(struct srv *s, int id, const char *path, struct nsys_tl_index **out,
		     struct err *e)
{
	struct nsys_sql *q = NULL;
	struct nsys_tl *m = NULL;
	struct nsys_tl_index *nix = NULL;
	if (nsys_sql_open(path, &q, e) || nsys_sql_timeline(q, &m, e) ||
	    nsys_tl_index_build(m, &nix, e)) {
		nsys_sql_close(q);
		return e->code ? e->code : ERR_FORMAT;
	}
	nsys_sql_close(q);
	pthread_mutex_lock(&s->mu);
	struct srv_file *f = srv_file_find_locked(s, id);
	if (f && !f->nsys_tl)
		f->nsys_tl = nix, nix = NULL;
	*out = f ? f->nsys_tl : NULL;
	pthread_mutex_unlock(&s->mu);
	nsys_tl_index_free(nix);
	return f ? 0 : err_set(e, ERR_IO, NULL, -1, "file %d was removed", id);
}

enum MHD_Result srv_api_nsys_tl(struct srv *s, struct MHD_Connection *c, int id)
{
	char bad[SRV_BAD_PARAM];
	if (srv_unknown_param(c, " start_ns end_ns px flows links ", bad))
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST,
				       "nsys timeline takes no parameter '%s'", bad);
	struct tl_opts o;
	int64_t links;
	bool has_links;
	enum MHD_Result res;
	if (srv_tl_opts(c, &o, &links, &has_links, &res))
		return res;
	struct srv_file file;
	if (!srv_file_get(s, id, &file))
		return srv_reply_error(c, MHD_HTTP_NOT_FOUND, "no file %d", id);
	const char *path = input_nsys_path(&file.in);
	struct nsys_tl_index *ix = file.nsys_tl; /* an index lives as long as its file */
	if (!path)
		return srv_reply_error(
		    c, MHD_HTTP_BAD_REQUEST,
		    "file %d is not an Nsight Systems SQLite export: ask /api/file/%d/timeline", id,
		    id);
	struct err e = {0};
	srv_job_begin(s);
	int rc = ix ? 0 : get_index(s, id, path, &ix, &e);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = rc ? NULL : open_memstream(&buf, &len);
	if (!rc)
		rc = !f		 ? err_set(&e, ERR_NOMEM, NULL, -1, "out of memory")
		     : has_links ? nsys_tl_write_links(ix, links, f, &e)
				 : nsys_tl_write_json(ix, &o, f, &e);
	srv_job_end(s);
	return srv_reply_stream(c, f, &buf, &len, rc, &e);
}
