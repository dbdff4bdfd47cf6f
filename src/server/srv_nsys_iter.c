/* srv_nsys_iter: the per-iteration NVTX analysis in `gpuprof serve` (see
 * server.h):
 *   GET /api/file/ID/nsys/steps?capture_range=NAME&iterations=N  on an
 *       SQLite export: what `gpuprof nsys FILE steps --capture-range NAME
 *       --iterations N` prints (views/view_nsys_iter.c, the same code; no
 *       --manifest: no request may name a file on the server);
 *   GET /api/file/ID/nsys/analysis  on an analysis.json (or a run
 *       directory): the JSON as `nsys analyze` wrote it, bytes unchanged.
 * and the loading of analysis.json files and run directories, on the
 * command line and by upload. An analysis.json is checked once when it is
 * added (strict JSON, schema_version 1, the keys of schema 1), so the page
 * never receives a file it cannot read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/source.h"
#include "nsys/nsys.h"
#include "server/srv_int.h"
#include "views/view_nsys_iter.h"

/* analysis.json files are small (kilobytes to a few megabytes); a cap
 * keeps a mistaken multi-gigabyte JSON out of memory */
#define ANALYSIS_MAX ((int64_t)256 << 20)

/* The whole (inflated) content of path, at most cap bytes, NUL-terminated
 * (malloc'd). name is the path errors name. */
static int read_all(const char *path, const char *name, int64_t cap, char **out, size_t *len,
		    struct err *e)
{
	struct src *s;
	int rc = src_open(&s, path, e);
	if (rc)
		return rc;
	size_t n = 0, size = 65536;
	char *buf = malloc(size);
	for (;;) {
		if (!buf) {
			rc = err_set(e, ERR_NOMEM, name, -1, "out of memory");
			break;
		}
		if (n + 1 >= size) {
			if ((int64_t)size > cap) {
				rc = err_set(e, ERR_LIMIT, name, -1,
					     "larger than %lld MiB: not an analysis.json",
					     (long long)(cap >> 20));
				break;
			}
			char *nb = realloc(buf, size * 2);
			if (!nb) {
				rc = err_set(e, ERR_NOMEM, name, -1, "out of memory");
				break;
			}
			buf = nb;
			size *= 2;
		}
		size_t got = 0;
		if ((rc = src_read(s, buf + n, size - 1 - n, &got, e)))
			break;
		if (!got)
			break;
		n += got;
	}
	src_close(s);
	if (rc) {
		free(buf);
		return rc;
	}
	buf[n] = 0;
	*out = buf;
	*len = n;
	return 0;
}

static int load_checked(const char *path, const char *name, int64_t cap, char **out, size_t *len,
			struct err *e)
{
	int rc = read_all(path, name, cap, out, len, e);
	if (!rc && (rc = nsys_analysis_check(*out, *len, name, e))) {
		free(*out);
		*out = NULL;
	}
	return rc;
}

/* `nsys analyze --run-dir dir --from-csv` in memory: its JSON bytes. */
static int analyse_dir(const char *dir, char **out, size_t *len, struct err *e)
{
	struct arena a;
	arena_init(&a);
	struct nsys_jv *m = NULL, *v = NULL;
	const char *mpath = nsys_dir_file(&a, dir, "manifest.yaml");
	int rc = mpath ? nsys_manifest_read(&a, mpath, &m, e)
		       : err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	if (!rc)
		rc = nsys_analyze_csv_dir(&a, dir, m, NULL, &v, e);
	if (!rc) {
		*out = NULL;
		FILE *f = open_memstream(out, len);
		if (f) {
			nsys_jv_write(f, v);
			if (fclose(f))
				rc = err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
		} else {
			rc = err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
		}
		if (rc) {
			free(*out);
			*out = NULL;
		}
	}
	arena_free(&a);
	return rc;
}

int srv_add_nsys_analysis(struct srv *s, const char *path, struct err *e)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;
	char name[4096];
	snprintf(name, sizeof name, "%s", path);
	struct stat st;
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		size_t n = strlen(name);
		while (n > 1 && name[n - 1] == '/')
			name[--n] = 0;
		char json[4200], csv[4200];
		snprintf(json, sizeof json, "%s/analysis.json", name);
		snprintf(csv, sizeof csv, "%s/stats/nsys_nvtx_pushpop_trace.csv", name);
		if (!stat(json, &st))
			rc = load_checked(json, json, ANALYSIS_MAX, &buf, &len, e);
		else if (!stat(csv, &st))
			rc = analyse_dir(name, &buf, &len, e);
		else
			rc = err_set(e, ERR_USAGE, name, -1,
				     "not a profiling run directory: it has neither analysis.json "
				     "nor stats/nsys_nvtx_pushpop_trace.csv");
	} else {
		rc = load_checked(path, path, ANALYSIS_MAX, &buf, &len, e);
	}
	if (rc)
		return rc;
	return srv_add_file(s, name, (int64_t)len, NULL, NULL, NULL, -1, buf, len, e);
}

int srv_upload_nsys_analysis(struct srv *s, struct srv_upload *u, const char *path, struct err *e)
{
	char *buf = NULL;
	size_t len = 0;
	srv_job_begin(s);
	int rc = load_checked(path, u->name, s->o.max_upload, &buf, &len, e);
	srv_job_end(s);
	if (rc)
		return rc;
	return srv_add_file(s, u->name, u->n, NULL, NULL, NULL, -1, buf, len, e);
}

static enum MHD_Result reply_steps(struct srv *s, struct MHD_Connection *c, const char *path)
{
	const char *cr = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "capture_range");
	const char *its = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "iterations");
	if (cr && !*cr)
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "capture_range needs a range name");
	if (its && !*its)
		its = NULL;
	if (its) {
		char *end;
		long long n = strtoll(its, &end, 10);
		if (*end || n < 0 || its[0] == '-' || its[0] == '+' || its[0] == ' ')
			return srv_reply_error(c, MHD_HTTP_BAD_REQUEST,
					       "iterations needs a count, not '%.40s'", its);
	}
	struct arena a;
	arena_init(&a);
	struct err e = {0};
	struct nsys_sql *q = NULL;
	struct nsys_jv *m = NULL, *out = NULL;
	srv_job_begin(s);
	int rc = nsys_sql_open(path, &q, &e);
	if (!rc)
		rc = nsys_steps_manifest(&a, cr ? cr : "profile-target", its, &m, &e);
	if (!rc)
		rc = nsys_view_steps(q, &a, m, NULL, path, &out, &e);
	nsys_sql_close(q);
	srv_job_end(s);
	char *buf = NULL;
	size_t len = 0;
	bool ok = false;
	if (!rc) {
		FILE *f = open_memstream(&buf, &len);
		if (f) {
			nsys_jv_write(f, out);
			ok = fclose(f) == 0;
		}
	}
	arena_free(&a);
	/* the export does not follow the harness contract (no such capture
	 * range, a duplicate iteration): the request's fault, 400 */
	enum MHD_Result res =
	    rc	 ? srv_reply_error(c,
				   rc == ERR_USAGE || rc == ERR_FORMAT ? MHD_HTTP_BAD_REQUEST : 500,
				   "%s", e.msg)
	    : ok ? srv_reply(c, MHD_HTTP_OK, "application/json", buf, len)
		 : srv_reply_error(c, 500, "could not write the answer");
	free(buf);
	return res;
}

enum MHD_Result srv_api_nsys_iter(struct srv *s, struct MHD_Connection *c, int id, const char *view)
{
	bool steps = !strcmp(view, "steps");
	char bad[SRV_BAD_PARAM];
	if (srv_unknown_param(c, steps ? " capture_range iterations " : "", bad))
		return srv_reply_error(c, MHD_HTTP_BAD_REQUEST, "nsys %s takes no parameter '%s'",
				       view, bad);
	struct srv_file f; /* files live as long as the server */
	if (!srv_file_get(s, id, &f))
		return srv_reply_error(c, MHD_HTTP_NOT_FOUND, "no file %d", id);
	const char *path = f.nsys ? f.nsys : "", *analysis = f.analysis;
	size_t alen = f.analysis_len;
	if (steps && !path[0])
		return srv_reply_error(
		    c, MHD_HTTP_BAD_REQUEST,
		    analysis ? "file %d is an analysis.json: ask /api/file/%d/nsys/analysis"
			     : "file %d is not an Nsight Systems SQLite export",
		    id, id);
	if (steps)
		return reply_steps(s, c, path);
	if (!analysis)
		return srv_reply_error(
		    c, MHD_HTTP_BAD_REQUEST,
		    path[0] ? "file %d is an SQLite export: ask /api/file/%d/nsys/steps"
			    : "file %d is not an Nsight Systems analysis.json",
		    id, id);
	return srv_reply(c, MHD_HTTP_OK, "application/json", analysis, alen);
}
