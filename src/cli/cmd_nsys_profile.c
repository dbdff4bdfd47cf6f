/* nsys profile: a profiling run directory made by gpuprof itself.
 *
 * `gpuprof nsys profile --run-dir DIR [options] [--nsys-args ARGS...] --
 * PROGRAM ARGS...` creates DIR (and its parents) first, runs
 * `nsys profile` on PROGRAM with the flags of the harness layout
 * (shared/reference/nsys.md 2.1: NVTX capture range, -o DIR/trace), writes
 * DIR/manifest.yaml in the schema `nsys analyze` reads (atomically, through
 * the outfile helpers), then analyses the run as `nsys analyze` does and
 * prints the per-iteration summary.
 *
 * Processes are started with posix_spawn on an argument vector, never a
 * shell. The program's stdout and stdin are its own; its stderr passes
 * through a pipe so that the end of it can be named when it fails. While
 * nsys runs, gpuprof ignores SIGINT and SIGQUIT (the child gets them with
 * their default action) so that a Ctrl-C stops the program, nsys closes its
 * report and the manifest still records how the run ended.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "nsys/nsys.h"

extern char **environ;

struct profile_args {
	const char *run_dir, *capture, *name, *run_id, *device;
	int64_t iterations, warmup;
	bool no_analyze, print_command;
};

const struct vo cmd_nsys_profile_opts[] = {
    {.lname = "run-dir",
     .type = VO_STRING,
     .off = offsetof(struct profile_args, run_dir),
     .metavar = "DIR",
     .required = true,
     .help = "the run directory to create (with its parents; required)"},
    {.lname = "capture-range",
     .type = VO_STRING,
     .off = offsetof(struct profile_args, capture),
     .metavar = "NAME",
     .help = "the NVTX range that starts and stops the capture (default\n"
	     "profile-target; without '@': nsys reads NAME@DOMAIN)"},
    {.lname = "iterations",
     .type = VO_INT,
     .min = 1,
     .off = offsetof(struct profile_args, iterations),
     .metavar = "N",
     .help = "the measured iterations, recorded as workload.iterations:\n"
	     "the analysis warns when indexes 0..N-1 are not all there"},
    {.lname = "warmup",
     .type = VO_INT,
     .min = 0,
     .off = offsetof(struct profile_args, warmup),
     .metavar = "N",
     .help = "the warmup passes, recorded as workload.warmup"},
    {.lname = "device",
     .type = VO_STRING,
     .off = offsetof(struct profile_args, device),
     .metavar = "TEXT",
     .help = "the device the program uses (cuda:0), recorded as device"},
    {.lname = "profile-name",
     .type = VO_STRING,
     .off = offsetof(struct profile_args, name),
     .metavar = "NAME",
     .help = "profile_name (default: the file name of PROGRAM)"},
    {.lname = "run-id",
     .type = VO_STRING,
     .off = offsetof(struct profile_args, run_id),
     .metavar = "ID",
     .help = "run_id (default: the UTC time, 20260101T000000Z)"},
    {.lname = "no-analyze",
     .type = VO_FLAG,
     .off = offsetof(struct profile_args, no_analyze),
     .help = "stop after the manifest: no `nsys stats`, no analysis.json"},
    {.lname = "print-command",
     .type = VO_FLAG,
     .off = offsetof(struct profile_args, print_command),
     .help = "create DIR and its manifest, print the nsys command\n"
	     "(each argument shell-quoted) and exit without running it"},
};
const size_t cmd_nsys_profile_nopts =
    sizeof cmd_nsys_profile_opts / sizeof cmd_nsys_profile_opts[0];

static int usage(struct app *app, const char *msg)
{
	return app_usage(app, "nsys", "profile: %s", msg);
}

/* ---- the command line ---- */

/* The flags of the harness (nsys.md 2.1) between `nsys profile` and the
 * extra options; the -o value and the capture name are filled in. */
#define PROFILE_FIXED 13

static const char **profile_argv(struct arena *a, const char *nsys, const char *run_dir,
				 const char *capture, char **extra, int nextra, char **prog,
				 int nprog)
{
	size_t n = PROFILE_FIXED + (size_t)nextra + (size_t)nprog + 1;
	const char **v = arena_array(a, n, sizeof *v);
	char *out = nsys_dir_file(a, run_dir, "trace");
	size_t cl = strlen(capture) + 32;
	char *cap = arena_alloc(a, cl);
	if (!v || !out || !cap)
		return NULL;
	snprintf(cap, cl, "--nvtx-capture=%s@*", capture);
	const char *fixed[PROFILE_FIXED] = {nsys,
					    "profile",
					    "-o",
					    out,
					    "--trace=cuda,osrt,nvtx",
					    "--sample=cpu",
					    "--cpuctxsw=process-tree",
					    "--capture-range=nvtx",
					    "--capture-range-end=stop",
					    cap,
					    "-e",
					    "NSYS_NVTX_PROFILER_REGISTER_ONLY=0",
					    "--trace-fork-before-exec=true"};
	memcpy(v, fixed, sizeof fixed);
	size_t k = PROFILE_FIXED;
	for (int i = 0; i < nextra; i++)
		v[k++] = extra[i];
	for (int i = 0; i < nprog; i++)
		v[k++] = prog[i];
	v[k] = NULL;
	return v;
}

/* argv[0..) joined by spaces, each argument quoted for a POSIX shell as
 * Python's shlex.quote does: left bare when it is only letters, digits and
 * @%+=:,./-_ (and not empty), else in single quotes, a ' as '"'"'. */
static char *shell_join(struct arena *a, const char *const *argv)
{
	size_t len = 1;
	for (size_t i = 0; argv[i]; i++)
		len += strlen(argv[i]) * 5 + 3;
	char *s = arena_alloc(a, len), *w = s;
	if (!s)
		return NULL;
	for (size_t i = 0; argv[i]; i++) {
		const char *p = argv[i];
		bool bare = *p != 0;
		for (const char *c = p; bare && *c; c++)
			bare = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			       (*c >= '0' && *c <= '9') || strchr("@%+=:,./-_", *c);
		if (i)
			*w++ = ' ';
		if (bare) {
			w += sprintf(w, "%s", p);
			continue;
		}
		*w++ = '\'';
		for (; *p; p++)
			w += *p == '\'' ? sprintf(w, "'\"'\"'") : sprintf(w, "%c", *p);
		*w++ = '\'';
	}
	*w = 0;
	return s;
}

/* ---- the run directory ---- */

/* mkdir -p path; an error names the part that could not be made. */
static int make_dirs(struct arena *a, const char *path, struct err *e)
{
	char *p = arena_strndup(a, path, strlen(path));
	if (!p)
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	for (char *c = p + 1;; c++) {
		if (*c && *c != '/')
			continue;
		char keep = *c;
		*c = 0;
		struct stat st;
		if (mkdir(p, 0777)) {
			int en = errno;
			if (en != EEXIST)
				return err_set(e, ERR_IO, NULL, -1,
					       "cannot create the run directory: %s: %s",
					       strerror(en), p);
			if (stat(p, &st) || !S_ISDIR(st.st_mode))
				return err_set(
				    e, ERR_IO, NULL, -1,
				    "cannot create the run directory: not a directory: %s", p);
		}
		*c = keep;
		if (!keep)
			return 0;
	}
}

/* ---- running processes ---- */

/* Starts argv (argv[0] a path, or a name looked up on PATH when lookup),
 * stdout into a pipe read at *out_fd and stderr into one at *err_fd when
 * those are not NULL; detached: stdin, and stderr unless piped, are
 * /dev/null. SIGINT and SIGQUIT have their default action in the child.
 * Returns the pid, or -1 with errno set. */
static pid_t spawn(const char *const *argv, bool lookup, bool detached, int *out_fd, int *err_fd)
{
	int po[2] = {-1, -1}, pe[2] = {-1, -1};
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	pid_t pid = -1;
	if ((out_fd && pipe(po)) || (err_fd && pipe(pe)))
		goto done;
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	if (detached) {
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
		if (!err_fd)
			posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	}
	if (out_fd) {
		posix_spawn_file_actions_adddup2(&fa, po[1], 1);
		posix_spawn_file_actions_addclose(&fa, po[0]);
		posix_spawn_file_actions_addclose(&fa, po[1]);
	}
	if (err_fd) {
		posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
		posix_spawn_file_actions_addclose(&fa, pe[0]);
		posix_spawn_file_actions_addclose(&fa, pe[1]);
	}
	sigset_t def;
	sigemptyset(&def);
	sigaddset(&def, SIGINT);
	sigaddset(&def, SIGQUIT);
	posix_spawnattr_setsigdefault(&at, &def);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF);
	fflush(NULL);
	int rc = lookup ? posix_spawnp(&pid, argv[0], &fa, &at, (char *const *)argv, environ)
			: posix_spawn(&pid, argv[0], &fa, &at, (char *const *)argv, environ);
	if (rc) {
		pid = -1;
		errno = rc;
	}
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
done:
	if (po[1] >= 0)
		close(po[1]);
	if (pe[1] >= 0)
		close(pe[1]);
	if (out_fd)
		*out_fd = po[0];
	if (err_fd)
		*err_fd = pe[0];
	if (pid < 0) {
		if (po[0] >= 0)
			close(po[0]);
		if (pe[0] >= 0)
			close(pe[0]);
	}
	return pid;
}

/* The exit status of pid: 0..255, or -N when a signal N ended it. */
static int wait_for(pid_t pid)
{
	int ws = 0;
	while (waitpid(pid, &ws, 0) < 0)
		if (errno != EINTR)
			return -1000;
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : WIFSIGNALED(ws) ? -WTERMSIG(ws) : -1000;
}

/* `git rev-parse HEAD` in the working directory: the commit, or NULL when
 * git is absent, fails or this is no work tree. */
static const char *git_commit(struct arena *a)
{
	const char *argv[] = {"git", "rev-parse", "HEAD", NULL};
	int fd;
	pid_t pid = spawn(argv, true, true, &fd, NULL);
	if (pid < 0)
		return NULL;
	char buf[128];
	size_t n = 0;
	ssize_t r;
	while ((r = read(fd, buf + n, sizeof buf - 1 - n)) > 0 || (r < 0 && errno == EINTR))
		n += r > 0 ? (size_t)r : 0;
	close(fd);
	int st = wait_for(pid);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		n--;
	for (size_t i = 0; i < n; i++)
		if (!((buf[i] >= '0' && buf[i] <= '9') || (buf[i] >= 'a' && buf[i] <= 'f')))
			return NULL;
	return st == 0 && n >= 40 ? arena_strndup(a, buf, n) : NULL;
}

/* What a run of nsys left: its status and the end of its stderr. */
#define TAIL_BYTES 2048
struct outcome {
	int status; /* see wait_for; -2000: it could not be started */
	int start_errno;
	char tail[TAIL_BYTES + 1];
	size_t ntail;
};

/* Copies the pipe fd to stderr as it comes, keeping the last TAIL_BYTES. */
static void pass_stderr(int fd, struct outcome *o)
{
	char buf[4096];
	for (;;) {
		ssize_t r = read(fd, buf, sizeof buf);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		for (ssize_t off = 0; off < r;) {
			ssize_t w = write(2, buf + off, (size_t)(r - off));
			if (w <= 0)
				break;
			off += w;
		}
		size_t k = (size_t)r;
		if (k >= TAIL_BYTES) {
			memcpy(o->tail, buf + k - TAIL_BYTES, TAIL_BYTES);
			o->ntail = TAIL_BYTES;
		} else {
			if (o->ntail + k > TAIL_BYTES) {
				size_t drop = o->ntail + k - TAIL_BYTES;
				memmove(o->tail, o->tail + drop, o->ntail - drop);
				o->ntail -= drop;
			}
			memcpy(o->tail + o->ntail, buf, k);
			o->ntail += k;
		}
	}
	close(fd);
}

static void run_nsys(const char *const *argv, struct outcome *o)
{
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_quit;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	int fd;
	pid_t pid = spawn(argv, false, false, NULL, &fd);
	o->ntail = 0;
	if (pid < 0) {
		o->status = -2000;
		o->start_errno = errno;
	} else {
		pass_stderr(fd, o);
		o->status = wait_for(pid);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	o->tail[o->ntail] = 0;
}

/* The last (at most 5) non-empty lines of the tail, joined by "; ". */
static void tail_joined(const struct outcome *o, char *buf, size_t size)
{
	const char *t = o->tail;
	size_t n = strlen(t); /* a NUL in the output ends what is shown */
	int lines = 0;
	size_t start = n;
	while (start > 0 && lines < 5) {
		size_t end = start;
		while (end > 0 && (t[end - 1] == '\n' || t[end - 1] == '\r'))
			end--;
		start = end;
		while (start > 0 && t[start - 1] != '\n' && t[start - 1] != '\r')
			start--;
		if (end > start)
			lines++;
	}
	size_t w = 0;
	buf[0] = 0;
	for (size_t i = start; i < n && w + 3 < size; i++) {
		if (t[i] == '\n' || t[i] == '\r') {
			while (i + 1 < n && (t[i + 1] == '\n' || t[i + 1] == '\r'))
				i++;
			if (i + 1 < n)
				w += (size_t)snprintf(buf + w, size - w, "; ");
			continue;
		}
		buf[w++] = t[i];
		buf[w] = 0;
	}
}

/* The joined tail's last TAIL_SHOWN bytes (from a character's start,
 * after "..."): the message that names them stays one short line. */
#define TAIL_SHOWN 200
static void tail_lines(const struct outcome *o, char *buf, size_t size)
{
	char all[TAIL_BYTES * 2 + 8];
	tail_joined(o, all, sizeof all);
	size_t n = strlen(all), from = n > TAIL_SHOWN ? n - TAIL_SHOWN : 0;
	while (from && from < n && ((unsigned char)all[from] & 0xC0) == 0x80)
		from++;
	snprintf(buf, size, "%s%s", from ? "..." : "", all + from);
}

/* ---- the manifest ---- */

struct run_facts {
	const char *run_id, *commit, *command_line, *nsys_command, *trace;
	const struct outcome *o; /* NULL: printed, not run */
};

static struct nsys_jv *str_or_null(struct arena *a, const char *s)
{
	return s ? nsys_jv_str(a, s) : nsys_jv_null(a);
}

/* The outcome mapping: state, exit_status, signal, stderr_tail. */
static struct nsys_jv *outcome_jv(struct arena *a, const struct outcome *o)
{
	struct nsys_jv *v = nsys_jv_new(a, NSYS_JOBJ);
	if (!v)
		return NULL;
	bool ok = o && o->status == 0;
	int rc = nsys_jv_add(a, v, "state",
			     nsys_jv_str(a, !o	 ? "not run (printed)"
					    : ok ? "completed"
						 : "failed"));
	rc |= nsys_jv_add(a, v, "exit_status",
			  o && o->status >= 0 ? nsys_jv_int(a, o->status) : nsys_jv_null(a));
	rc |= nsys_jv_add(a, v, "signal",
			  o && o->status < 0 && o->status > -1000 ? nsys_jv_int(a, -o->status)
								  : nsys_jv_null(a));
	if (o && !ok) {
		char tail[1024];
		tail_lines(o, tail, sizeof tail);
		rc |= nsys_jv_add(a, v, "stderr_tail", nsys_jv_str(a, tail));
	}
	return rc ? NULL : v;
}

static struct nsys_jv *manifest_jv(struct arena *a, const struct profile_args *pa,
				   const struct run_facts *f)
{
	struct nsys_jv *m = nsys_jv_new(a, NSYS_JOBJ), *w = nsys_jv_new(a, NSYS_JOBJ);
	if (!m || !w)
		return NULL;
	int rc = 0;
	if (pa->iterations >= 0)
		rc |= nsys_jv_add(a, w, "iterations", nsys_jv_int(a, pa->iterations));
	if (pa->warmup >= 0)
		rc |= nsys_jv_add(a, w, "warmup", nsys_jv_int(a, pa->warmup));
	rc |= nsys_jv_add(a, m, "profile_name", nsys_jv_str(a, pa->name));
	rc |= nsys_jv_add(a, m, "run_id", nsys_jv_str(a, f->run_id));
	rc |= nsys_jv_add(a, m, "capture_range", nsys_jv_str(a, pa->capture));
	if (w->n)
		rc |= nsys_jv_add(a, m, "workload", w);
	if (pa->device)
		rc |= nsys_jv_add(a, m, "device", nsys_jv_str(a, pa->device));
	rc |= nsys_jv_add(a, m, "git_commit", str_or_null(a, f->commit));
	rc |= nsys_jv_add(a, m, "command_line", nsys_jv_str(a, f->command_line));
	rc |= nsys_jv_add(a, m, "nsys_command", nsys_jv_str(a, f->nsys_command));
	rc |= nsys_jv_add(a, m, "expected_trace_path", nsys_jv_str(a, f->trace));
	rc |= nsys_jv_add(a, m, "gpuprof_version", nsys_jv_str(a, cli_version));
	rc |= nsys_jv_add(a, m, "outcome", outcome_jv(a, f->o));
	return rc ? NULL : m;
}

/* ---- the summary ---- */

/* v (an integer, a float or null) into buf as a table cell. */
static const char *cell(const struct nsys_jv *v, char *buf, size_t n)
{
	if (v && v->kind == NSYS_JINT)
		snprintf(buf, n, "%lld", (long long)v->i);
	else if (v && v->kind == NSYS_JFLOAT)
		snprintf(buf, n, "%.1f", v->f);
	else
		snprintf(buf, n, "-");
	return buf;
}

static const struct nsys_jv *get2(const struct nsys_jv *v, const char *k1, const char *k2)
{
	return nsys_jv_get(nsys_jv_get(v, k1), k2);
}

static void summary_row(const char *label, const struct nsys_jv *a, const struct nsys_jv *b,
			const struct nsys_jv *c, const struct nsys_jv *d)
{
	char s[4][40];
	printf("%-10s %18s %18s %18s %8s\n", label, cell(a, s[0], 40), cell(b, s[1], 40),
	       cell(c, s[2], 40), cell(d, s[3], 40));
}

/* The per-iteration table of analysis.json (host and GPU times in ns on
 * their own clocks), the mean and median over iterations, the warnings. */
static void print_summary(const struct nsys_jv *an)
{
	printf("%-10s %18s %18s %18s %8s\n", "iteration", "host inclusive ns", "host exclusive ns",
	       "GPU projected ns", "GPU ops");
	const struct nsys_jv *its = nsys_jv_get(an, "iterations");
	for (size_t i = 0; its && its->kind == NSYS_JARR && i < its->n; i++) {
		const struct nsys_jv *it = its->items[i];
		char label[24];
		cell(nsys_jv_get(it, "index"), label, sizeof label);
		summary_row(label, get2(it, "host", "inclusive_ns"),
			    get2(it, "host", "exclusive_ns"),
			    get2(it, "gpu_projection", "projected_ns"),
			    get2(it, "gpu_projection", "gpu_operation_count"));
	}
	const struct nsys_jv *s = nsys_jv_get(an, "iteration_summary");
	const char *stat[] = {"mean_ns", "median_ns"}, *label[] = {"mean", "median"};
	for (int k = 0; k < 2; k++)
		summary_row(label[k], get2(s, "host_inclusive", stat[k]),
			    get2(s, "host_exclusive", stat[k]), get2(s, "gpu_projected", stat[k]),
			    NULL);
	const struct nsys_jv *w = nsys_jv_get(an, "warnings");
	for (size_t i = 0; w && w->kind == NSYS_JARR && i < w->n; i++)
		if (w->items[i]->kind == NSYS_JSTR)
			printf("warning: %s\n", w->items[i]->s);
}

/* ---- the command ---- */

/* argv[1..) split at `--` (the program) and `--nsys-args` before it. */
struct split {
	int nopts, nextra, nprog;
	char **extra, **prog;
};

static int split_args(int argc, char **argv, struct split *s)
{
	int dd = 1;
	while (dd < argc && strcmp(argv[dd], "--"))
		dd++;
	if (dd >= argc - 1)
		return -1;
	int na = 1;
	while (na < dd && strcmp(argv[na], "--nsys-args"))
		na++;
	s->nopts = na;
	s->extra = argv + (na < dd ? na + 1 : dd);
	s->nextra = na < dd ? dd - na - 1 : 0;
	s->prog = argv + dd + 1;
	s->nprog = argc - dd - 1;
	return 0;
}

/* The manifest written to DIR/manifest.yaml (temporary file, renamed). */
static int write_manifest(struct app *app, struct arena *a, const struct profile_args *pa,
			  const struct run_facts *f, struct err *e)
{
	struct nsys_jv *m = manifest_jv(a, pa, f);
	char *path = nsys_dir_file(a, pa->run_dir, "manifest.yaml");
	if (!m || !path)
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	return cmd_nsys_write(app, path, nsys_yaml_write, m, e);
}

/* Why a finished run is not analysed: the failure, or a missing trace. */
static int run_failed(const struct profile_args *pa, const struct run_facts *f, struct err *e)
{
	const struct outcome *o = f->o;
	char tail[1024], how[64];
	tail_lines(o, tail, sizeof tail);
	if (o->status == -2000)
		return err_set(e, ERR_IO, NULL, -1, "cannot start nsys: %s",
			       strerror(o->start_errno));
	if (o->status < 0 && o->status > -1000)
		snprintf(how, sizeof how, "was ended by signal %d", -o->status);
	else
		snprintf(how, sizeof how, "exited with status %d", o->status);
	return err_set(e, ERR_IO, NULL, -1,
		       "nsys profile of %s %s (recorded in %s/manifest.yaml)%s%s", pa->name, how,
		       pa->run_dir, tail[0] ? "; the end of its stderr: " : "", tail);
}

static int profile(struct app *app, struct arena *a, struct profile_args *pa,
		   const struct split *sp, struct err *e)
{
	const char *nsys = "nsys";
	if (!pa->print_command && !(nsys = nsys_which(a, "nsys")))
		return err_set(e, ERR_USAGE, NULL, -1,
			       "%s It comes with the CUDA Toolkit and from "
			       "https://developer.nvidia.com/nsight-systems.",
			       cmd_nsys_missing);
	const char **argv = profile_argv(a, nsys, pa->run_dir, pa->capture, sp->extra, sp->nextra,
					 sp->prog, sp->nprog);
	const char **shown =
	    argv ? arena_array(a, PROFILE_FIXED + (size_t)sp->nextra + (size_t)sp->nprog + 1,
			       sizeof *shown)
		 : NULL;
	if (!shown)
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	memcpy(shown, argv,
	       (PROFILE_FIXED + (size_t)sp->nextra + (size_t)sp->nprog + 1) * sizeof *shown);
	shown[0] = "nsys";
	struct run_facts f = {.run_id = pa->run_id,
			      .commit = git_commit(a),
			      .command_line = shell_join(a, argv + PROFILE_FIXED + sp->nextra),
			      .nsys_command = shell_join(a, shown),
			      .trace = nsys_dir_file(a, pa->run_dir, "trace.nsys-rep")};
	if (!f.command_line || !f.nsys_command || !f.trace)
		return err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	int rc = make_dirs(a, pa->run_dir, e);
	if (!rc && pa->print_command) {
		rc = write_manifest(app, a, pa, &f, e);
		if (!rc)
			printf("%s\n", f.nsys_command);
		return rc;
	}
	struct outcome *o = arena_alloc(a, sizeof *o);
	if (!rc && !o)
		rc = err_set(e, ERR_NOMEM, NULL, -1, "out of memory");
	if (rc)
		return rc;
	run_nsys(argv, o);
	f.o = o;
	rc = write_manifest(app, a, pa, &f, e);
	if (!rc && o->status)
		rc = run_failed(pa, &f, e);
	struct stat st;
	if (!rc && stat(f.trace, &st))
		rc = err_set(e, ERR_IO, NULL, -1,
			     "nsys profile wrote no report %s: the program never pushed the NVTX "
			     "range '%s' that starts the capture (see examples/capture/)",
			     f.trace, pa->capture);
	if (rc || pa->no_analyze) {
		if (!rc && !app->quiet)
			printf("Wrote manifest: %s/manifest.yaml\n", pa->run_dir);
		return rc;
	}
	const struct nsys_jv *an = NULL;
	rc = cmd_nsys_analyze_dir(app, a, pa->run_dir, false, NULL, &an, e);
	if (!rc && !app->quiet)
		print_summary(an);
	return rc;
}

int cmd_nsys_profile(struct app *app, int argc, char **argv)
{
	struct profile_args pa = {.iterations = -1, .warmup = -1};
	struct split sp;
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (cli_is_help(argv[i])) {
			cmd_nsys_print_help(stdout);
			return 0;
		}
	if (split_args(argc, argv, &sp))
		return usage(app, "expected -- PROGRAM [ARGS...] after the options");
	int nops = 0;
	const char **ops = calloc((size_t)sp.nopts + 1, sizeof *ops);
	if (!ops)
		return usage(app, "out of memory");
	int rc = app_parse(app, "nsys", cmd_nsys_profile_opts, cmd_nsys_profile_nopts, &pa,
			   sp.nopts, argv, ops, &nops);
	free(ops);
	if (rc)
		return rc;
	if (nops)
		return usage(app, "unexpected argument before -- (see --help)");
	if (!pa.run_dir || !*pa.run_dir)
		return usage(app, "--run-dir DIR is required");
	if (!pa.capture)
		pa.capture = "profile-target";
	if (!*pa.capture || strchr(pa.capture, '@'))
		return usage(app,
			     "--capture-range needs a name without '@' (nsys reads NAME@DOMAIN)");
	char stamp[32];
	if (!pa.run_id) {
		time_t now = time(NULL);
		struct tm tm;
		strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", gmtime_r(&now, &tm));
		pa.run_id = stamp;
	}
	if (!pa.name) {
		const char *slash = strrchr(sp.prog[0], '/');
		pa.name = slash ? slash + 1 : sp.prog[0];
	}
	struct arena a;
	arena_init(&a);
	struct err e = {0};
	rc = profile(app, &a, &pa, &sp, &e);
	if (rc)
		rc = app_fail(app, &e);
	arena_free(&a);
	return rc;
}
