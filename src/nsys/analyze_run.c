/* analyze_run: running the `nsys` executable for the analyzer.
 *
 * `nsys stats` is started with fork + execv on an argument vector, never
 * through a shell, so run directories with spaces or shell characters are
 * passed through untouched (the reference checks the exact argv, nsys.md
 * 2.3). The child's stdout and stderr go to anonymous temporary files rather
 * than pipes, so a chatty nsys can never block on a full pipe while we wait.
 * Messages match the reference analyzer's; a multi-line nsys message is
 * folded onto one line (newlines become "; ") so the CLI error stays one line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nsys/nsys.h"

static char *join_path(struct arena *a, const char *dir, const char *name)
{
	size_t dl = strlen(dir);
	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	size_t len = dl + 1 + strlen(name) + 1;
	char *s = arena_alloc(a, len);
	if (s)
		snprintf(s, len, "%.*s/%s", (int)dl, dir, name);
	return s;
}

const char *nsys_which(struct arena *a, const char *name)
{
	const char *path = getenv("PATH");
	if (!path || strchr(name, '/'))
		return NULL;
	while (*path) {
		const char *colon = strchr(path, ':');
		size_t len = colon ? (size_t)(colon - path) : strlen(path);
		char dir[4096];
		/* an empty PATH entry means the current directory */
		snprintf(dir, sizeof dir, "%.*s", (int)(len ? len : 1), len ? path : ".");
		char *cand = join_path(a, dir, name);
		struct stat st;
		if (cand && !stat(cand, &st) && S_ISREG(st.st_mode) && !access(cand, X_OK))
			return cand;
		path += len;
		if (*path == ':')
			path++;
	}
	return NULL;
}

const char **nsys_stats_argv(struct arena *a, const char *nsys, const char *run_dir)
{
	const char **argv = arena_array(a, 13, sizeof *argv);
	char *stats = join_path(a, run_dir, "stats");
	char *base = stats ? join_path(a, stats, "nsys") : NULL;
	char *trace = join_path(a, run_dir, "trace.nsys-rep");
	if (!argv || !base || !trace)
		return NULL;
	const char *v[] = {nsys,
			   "stats",
			   "--report",
			   "nvtx_pushpop_trace",
			   "--report",
			   "nvtx_gpu_proj_trace",
			   "--format",
			   "csv",
			   "--output",
			   base,
			   "--force-overwrite=true",
			   trace,
			   NULL};
	memcpy(argv, v, sizeof v);
	return argv;
}

/* Reads the whole temp file f (rewound) into an arena string, stripped. */
static char *slurp_stripped(struct arena *a, FILE *f)
{
	char buf[4096];
	size_t n = 0;
	rewind(f);
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = 0;
	char *s = buf;
	while (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t')
		s++;
	size_t len = strlen(s);
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\n' || s[len - 1] == '\r' ||
		       s[len - 1] == '\t'))
		len--;
	return arena_strndup(a, s, len);
}

/* Runs argv; stores the exit status (or -1 for a failed start / signal) and
 * the stripped stdout and stderr. */
static int run_child(struct arena *a, const char *const *argv, int *status, char **out,
		     char **errout)
{
	FILE *fo = tmpfile(), *fe = tmpfile();
	if (!fo || !fe) {
		if (fo)
			fclose(fo);
		if (fe)
			fclose(fe);
		return -1;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		fclose(fo);
		fclose(fe);
		return -1;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);
		if (devnull >= 0)
			dup2(devnull, 0);
		dup2(fileno(fo), 1);
		dup2(fileno(fe), 2);
		execv(argv[0], (char *const *)argv);
		fprintf(stderr, "cannot run %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	int ws = 0;
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	*status = WIFEXITED(ws) ? WEXITSTATUS(ws) : WIFSIGNALED(ws) ? -WTERMSIG(ws) : -1;
	*out = slurp_stripped(a, fo);
	*errout = slurp_stripped(a, fe);
	fclose(fo);
	fclose(fe);
	return *out && *errout ? 0 : -1;
}

/* s with each run of line breaks replaced by "; " (a new arena string). */
static char *one_line(struct arena *a, const char *s)
{
	char *o = arena_alloc(a, strlen(s) * 2 + 1), *w = o;
	if (!o)
		return NULL;
	for (const char *p = s; *p; p++) {
		if (*p == '\r' || *p == '\n') {
			while (p[1] == '\n' || p[1] == '\r')
				p++;
			*w++ = ';';
			*w++ = ' ';
			continue;
		}
		*w++ = *p;
	}
	*w = 0;
	return o;
}

int nsys_run_stats(struct arena *a, const char *nsys, const char *run_dir, struct err *e)
{
	const char **argv = nsys_stats_argv(a, nsys, run_dir);
	if (!argv)
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	const char *trace = argv[11];
	struct stat st;
	if (stat(trace, &st))
		return err_set(e, ERR_IO, NULL, -1, "Nsight trace does not exist: %s", trace);
	char *stats = join_path(a, run_dir, "stats");
	if (!stats)
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	if (mkdir(stats, 0777) && errno != EEXIST)
		return err_set(e, ERR_IO, stats, -1, "cannot create directory: %s",
			       strerror(errno));
	int status;
	char *out, *errout;
	if (run_child(a, argv, &status, &out, &errout))
		return err_set(e, ERR_IO, NULL, -1, "cannot run %s", nsys);
	if (status != 0) {
		char *msg = one_line(a, *errout ? errout : out);
		return err_set(e, ERR_IO, NULL, -1, "`nsys stats` failed with exit code %d: %s",
			       status, msg ? msg : "");
	}
	const char *names[] = {"nsys_nvtx_pushpop_trace.csv", "nsys_nvtx_gpu_proj_trace.csv"};
	char missing[1100] = "";
	for (int i = 0; i < 2; i++) {
		char *p = join_path(a, stats, names[i]);
		if (p && stat(p, &st)) {
			size_t l = strlen(missing);
			snprintf(missing + l, sizeof missing - l, "%s%s", l ? ", " : "", p);
		}
	}
	if (missing[0])
		return err_set(e, ERR_FORMAT, NULL, -1,
			       "`nsys stats` did not create expected report files: %s", missing);
	return 0;
}

const char *nsys_run_version(struct arena *a, const char *nsys)
{
	const char *argv[] = {nsys, "--version", NULL};
	int status;
	char *out, *errout;
	if (run_child(a, argv, &status, &out, &errout) || status != 0)
		return "unknown";
	return out;
}
