/* serve: `gpuprof serve`, the local web viewer (src/server): loads the
 * given traces, starts the server, prints the URL and serves until
 * interrupted (SIGINT/SIGTERM). */
#include <dirent.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "cli/cli.h"
#include "cli/load.h"
#include "input/input.h"
#include "server/server.h"

extern char **environ;

const char cmd_serve_help[] =
    "Usage: gpuprof serve [options] [TRACE|REPORT|EXPORT|ANALYSIS|RUN_DIR...]\n"
    "\n"
    "A local web viewer: loads the files, prints the viewer's URL and serves\n"
    "until interrupted (Ctrl-C). Each file's kind is recognised by its content,\n"
    "whatever its name:\n"
    "\n"
    "  PyTorch profiler (Kineto) trace  Overview, Operators, Kernels, Memory,\n"
    "                                   Timeline, Steps; Distributed over\n"
    "                                   several traces (one per rank)\n"
    "  Nsight Compute report (.ncu-rep) kernels, sections with charts, rule\n"
    "                                   results, hints, session\n"
    "  Nsight Systems SQLite export     summary tables and NVTX iterations\n"
    "  analysis.json (nsys analyze)     NVTX iterations\n"
    "  a profiling run directory        the same, of DIR/analysis.json or of\n"
    "                                   DIR/stats/*.csv analysed in memory\n"
    "                                   (nothing is written into DIR)\n"
    "  rank summaries (rank-summary)    Distributed (dist --fleet), with a\n"
    "                                   ranks x steps heat map; a directory\n"
    "                                   of them (not a run) loads them all\n"
    "\n"
    "Every number is the matching command's: the JSON API (docs/viewer.md)\n"
    "answers what `gpuprof VIEW --format json` prints. More files can be\n"
    "dropped onto the page. Everything stays on this machine: the viewer is\n"
    "built into the binary, uploads stay in memory or a private temporary\n"
    "file, and the server listens on the loopback address unless told\n"
    "otherwise.\n"
    "\n"
    "Options:\n";

const char cmd_serve_help_tail[] =
    "\n"
    "Examples:\n"
    "  gpuprof serve examples/resnet_like.json.gz\n"
    "  gpuprof serve --port 0 --open run/*.pt.trace.json.gz\n"
    "  gpuprof serve profile.ncu-rep capture.sqlite runs/2026-11-29/\n";

static void open_browser(const char *url)
{
	pid_t pid;
	char *argv[] = {"xdg-open", (char *)url, NULL};
	int status;
	if (posix_spawnp(&pid, "xdg-open", NULL, NULL, argv, environ) ||
	    waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		fprintf(stderr,
			"gpuprof: serve: could not open a browser; open the URL yourself\n");
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory that is not a profiling run (no analysis.json, no stats/)
 * but holds rank summaries stands for those summaries, in name order: a
 * malloc'd array of malloc'd paths (*n of them), or NULL (then the
 * directory is loaded as it always was: a run directory, or its error). */
static char **summaries_in(const char *dir, int *n)
{
	struct stat st;
	char p[4096];
	*n = 0;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return NULL;
	snprintf(p, sizeof p, "%s/analysis.json", dir);
	bool run = !stat(p, &st);
	snprintf(p, sizeof p, "%s/stats", dir);
	DIR *d = run || !stat(p, &st) ? NULL : opendir(dir);
	if (!d)
		return NULL;
	char **v = NULL;
	int cap = 0;
	for (struct dirent *de; (de = readdir(d));) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
		if (stat(p, &st) || !S_ISREG(st.st_mode) ||
		    input_sniff_path(p).kind != INPUT_RANK_SUMMARY)
			continue;
		if (*n == cap) {
			char **w = realloc(v, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *v);
			if (!w)
				break;
			v = w;
		}
		if (!(v[*n] = strdup(p)))
			break;
		(*n)++;
	}
	closedir(d);
	if (!*n) {
		free(v);
		return NULL;
	}
	qsort(v, (size_t)*n, sizeof *v, cmp_names);
	return v;
}

/* Loads path into s: a file of any kind, or a directory of summaries. */
static int serve_load(struct app *app, struct srv *s, const char *path, int *nfiles)
{
	int n = 0, rc = 0;
	char **sums = summaries_in(path, &n);
	struct err e = {0};
	for (int i = 0; i < (sums ? n : 1) && !rc; i++) {
		struct input in;
		if (!(rc = app_load(app, sums ? sums[i] : path, 0, &in)) &&
		    srv_add_file(s, &in, &e) < 0)
			rc = app_fail(app, &e);
		else if (!rc)
			(*nfiles)++;
	}
	for (int i = 0; i < n; i++)
		free(sums[i]);
	free(sums);
	return rc;
}

/* The options as given; read after the walk with their own checks. */
struct serve_args {
	bool open;
	const char *port, *host, *max_upload, *request_timeout;
};

const struct vo cmd_serve_opts[] = {
    {.lname = "port",
     .type = VO_STRING,
     .off = offsetof(struct serve_args, port),
     .metavar = "N",
     .help = "port to listen on (default 8765, or any free port when\n"
	     "8765 is taken; 0 = any free port)"},
    {.lname = "host",
     .type = VO_STRING,
     .off = offsetof(struct serve_args, host),
     .metavar = "ADDR",
     .help = "address to bind (default 127.0.0.1); anything but a\n"
	     "loopback address exposes the traces to the network"},
    {.lname = "open",
     .type = VO_FLAG,
     .off = offsetof(struct serve_args, open),
     .help = "open the URL in the default browser (xdg-open)"},
    {.lname = "max-upload",
     .type = VO_STRING,
     .off = offsetof(struct serve_args, max_upload),
     .metavar = "SIZE",
     .help = "largest upload accepted, bytes or with K, M, G\n"
	     "(default 2G)"},
    {.lname = "request-timeout",
     .type = VO_STRING,
     .off = offsetof(struct serve_args, request_timeout),
     .metavar = "SECONDS",
     .help = "time a client has to send a request's head (its\n"
	     "body: this plus a second per 64 KiB); a connection\n"
	     "past it is closed (default 30)"},
};
const size_t cmd_serve_nopts = sizeof cmd_serve_opts / sizeof cmd_serve_opts[0];

int cmd_serve(struct app *app, int argc, char **argv)
{
	struct srv_opts so = {.host = "127.0.0.1",
			      .port = 8765,
			      .max_upload = (int64_t)2 << 30,
			      .max_jobs = 2,
			      .max_files = 64,
			      .max_mem = app->max_memory};
	bool open = false, port_given = false;
	const char **paths = calloc((size_t)argc + 1, sizeof *paths);
	int npaths = 0;
	if (!paths)
		return 2;
	struct serve_args a = {0};
	int rc = app_parse(app, "serve", cmd_serve_opts, cmd_serve_nopts, &a, argc, argv, paths,
			   &npaths);
	open = a.open;
	if (!rc && a.host)
		so.host = a.host;
	if (!rc && a.port) {
		char *end;
		long p = strtol(a.port, &end, 10);
		if (*end || end == a.port || p < 0 || p > 65535)
			rc = app_usage(app, "serve", "--port needs 0..65535, not '%s'", a.port);
		so.port = (int)p;
		port_given = true;
	}
	uint64_t up = 0;
	if (!rc && a.max_upload && (app_parse_size(a.max_upload, &up) || !up || up > INT64_MAX))
		rc = app_usage(app, "serve", "--max-upload needs a size such as 512M, not '%s'",
			       a.max_upload);
	else if (up)
		so.max_upload = (int64_t)up;
	if (!rc && a.request_timeout) {
		char *end;
		long t = strtol(a.request_timeout, &end, 10);
		if (*end || end == a.request_timeout || t < 1 || t > 86400)
			rc = app_usage(app, "serve",
				       "--request-timeout needs 1..86400 seconds, not '%s'",
				       a.request_timeout);
		so.request_timeout = (int)t;
	}
	if (rc) {
		free(paths);
		return rc;
	}
	if (!srv_is_loopback(so.host))
		fprintf(stderr,
			"gpuprof: warning: serving on %s: anyone who can reach this "
			"address can read the loaded traces\n",
			so.host);
	/* the server's threads inherit this mask; this thread waits for them */
	sigset_t sigs;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	struct err e = {0};
	struct srv *s;
	int src = srv_start(&so, &s, &e);
	if (src && !port_given && e.code == ERR_IO) {
		/* the default port is taken (another viewer?): any free one */
		if (!app->quiet)
			fprintf(stderr, "gpuprof: note: port %d is in use; taking a free one\n",
				so.port);
		so.port = 0;
		e = (struct err){0};
		src = srv_start(&so, &s, &e);
	}
	if (src) {
		free(paths);
		return e.code == ERR_USAGE ? app_usage(app, "serve", "%s", e.msg)
					   : app_fail(app, &e);
	}
	/* every kind the registry loads, each recognised by its content */
	int nfiles = 0;
	for (int i = 0; i < npaths && !rc; i++)
		rc = serve_load(app, s, paths[i], &nfiles);
	free(paths);
	if (rc) {
		srv_stop(s);
		return rc;
	}
	char url[128];
	srv_url(s, url, sizeof url);
	printf("gpuprof: serving %d file%s at %s (Ctrl-C to stop)\n", nfiles,
	       nfiles == 1 ? "" : "s", url);
	fflush(stdout);
	if (open)
		open_browser(url);
	int sig;
	sigwait(&sigs, &sig);
	srv_stop(s);
	if (!app->quiet)
		fprintf(stderr, "gpuprof: serve: stopped\n");
	return 0;
}
