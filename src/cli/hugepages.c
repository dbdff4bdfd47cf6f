/* hugepages: the process's heap on transparent huge pages, for big inputs.
 *
 * Why: on Linux with transparent huge pages in "madvise" mode (Debian's
 * default), glibc's malloc backs the heap with 4 KiB pages, and faulting in
 * the fresh memory of a big trace's tables is a fifth of the CPU time of
 * `summary` on a 1 GB trace (each fault an exception, dearer still in a
 * virtual machine). glibc backs its heap with huge pages when its tunable
 * glibc.malloc.hugetlb=1 is set, but it reads tunables only from the
 * environment, when the program starts. So when the inputs are big, main()
 * calls hugepages_start() first thing: it adds the tunable to
 * GLIBC_TUNABLES and executes the same binary again with the same
 * arguments (same process, same file descriptors, nothing read yet). The
 * second image finds the mark, puts GLIBC_TUNABLES back as the user had it
 * (so the programs gpuprof starts, such as `nsys profile`'s, see the
 * user's environment) and goes on. Measured on a 1 GB synthetic trace:
 * page faults of `summary` 268,635 -> 78,909; wall time of `info` and
 * `summary` about a fifth shorter (docs/architecture.md).
 *
 * When: GPUPROF_HUGEPAGES=0 never; =1 always (where it can work); unset:
 * when the regular files among the arguments add up to HUGE_INPUT bytes
 * or more, or the command is `serve` (uploads come later), and the kernel's
 * mode is "madvise" ("always" needs no tunable, "never" ignores it). Never
 * when GLIBC_TUNABLES already names glibc.malloc.hugetlb (the user's
 * choice), under valgrind (its tools would lose the process at the exec)
 * or when the exec fails (then all goes on as before, on small pages).
 * Outputs are the same bytes either way: only where the heap's pages come
 * from changes.
 */
#include "cli/cli.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__linux__) && defined(__GLIBC__) && !defined(__EMSCRIPTEN__)
#define GP_HUGEPAGES 1
#endif

#ifdef GP_HUGEPAGES
/* The mark the second image finds: "-" when GLIBC_TUNABLES was unset,
 * else "=" and its value. */
#define MARK "GPUPROF_GLIBC_TUNABLES_WAS"
#define TUNABLE "glibc.malloc.hugetlb=1"
#define THP_MODE "/sys/kernel/mm/transparent_hugepage/enabled"
enum { HUGE_INPUT = 32 << 20 };

/* Whether the kernel backs madvise'd memory with huge pages and nothing
 * else ("always [madvise] never"). */
static bool thp_madvise(void)
{
	char buf[128] = "";
	FILE *f = fopen(THP_MODE, "r");
	if (!f)
		return false;
	bool ok = fgets(buf, sizeof buf, f) && strstr(buf, "[madvise]");
	fclose(f);
	return ok;
}

/* Whether the arguments name big inputs: regular files of HUGE_INPUT
 * bytes together, or the server. */
static bool big_inputs(int argc, char **argv)
{
	long long sum = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (!strcmp(argv[i], "serve"))
			return true;
		if (!strcmp(argv[i], "--"))
			break; /* the program of `nsys profile` and its arguments */
		if (stat(argv[i], &st) == 0 && S_ISREG(st.st_mode))
			sum += st.st_size;
		if (sum >= HUGE_INPUT)
			return true;
	}
	return false;
}

static bool wanted(int argc, char **argv)
{
	const char *mode = getenv("GPUPROF_HUGEPAGES");
	const char *tun = getenv("GLIBC_TUNABLES");
	const char *pre = getenv("LD_PRELOAD");
	if (mode && !strcmp(mode, "0"))
		return false;
	if ((tun && strstr(tun, "glibc.malloc.hugetlb")) || (pre && strstr(pre, "vgpreload")))
		return false;
	if (mode && !strcmp(mode, "1"))
		return true;
	return big_inputs(argc, argv) && thp_madvise();
}

/* GLIBC_TUNABLES as it was before the first image changed it. */
static void restore(const char *was)
{
	if (was[0] == '=')
		setenv("GLIBC_TUNABLES", was + 1, 1);
	else
		unsetenv("GLIBC_TUNABLES");
}

void hugepages_start(int argc, char **argv)
{
	const char *was = getenv(MARK);
	if (was) { /* the second image: the tunable is in force */
		char *copy = strdup(was);
		unsetenv(MARK);
		if (copy)
			restore(copy);
		free(copy);
		return;
	}
	if (!wanted(argc, argv))
		return;
	const char *tun = getenv("GLIBC_TUNABLES");
	size_t n = (tun ? strlen(tun) : 0) + sizeof TUNABLE + 2;
	char *mark = malloc(n), *val = malloc(n);
	if (!mark || !val) {
		free(mark);
		free(val);
		return;
	}
	snprintf(mark, n, "%s%s", tun ? "=" : "-", tun ? tun : "");
	snprintf(val, n, "%s%s%s", tun && *tun ? tun : "", tun && *tun ? ":" : "", TUNABLE);
	if (setenv(MARK, mark, 1) == 0 && setenv("GLIBC_TUNABLES", val, 1) == 0)
		execv("/proc/self/exe", argv);
	/* not executed: as it was, on small pages */
	unsetenv(MARK);
	restore(mark);
	free(mark);
	free(val);
}
#else
void hugepages_start(int argc, char **argv)
{
	(void)argc;
	(void)argv;
}
#endif
