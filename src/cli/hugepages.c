/* hugepages: the process's heap tuned for big inputs: on transparent huge
 * pages, and (one-shot commands) keeping the memory it frees for reuse.
 *
 * Why: on Linux with transparent huge pages in "madvise" mode (Debian's
 * default), glibc's malloc backs the heap with 4 KiB pages, and faulting in
 * the fresh memory of a big trace's tables is a fifth of the CPU time of
 * `summary` on a 1 GB trace (each fault an exception, dearer still in a
 * virtual machine). glibc backs its heap with huge pages when its tunable
 * glibc.malloc.hugetlb=1 is set. The analyses then allocate and free
 * tables of tens of MB one after the other: by default glibc maps each
 * such block afresh (faulting it in again) and gives the freed memory back
 * at once, and each thread allocates from an arena of its own. For a
 * command that runs once and exits, three more tunables keep it instead:
 * glibc.malloc.mmap_threshold=16 MiB (blocks below it come from the heap,
 * where freed memory is reused), glibc.malloc.trim_threshold=16 GiB
 * (nothing given back before exit) and glibc.malloc.arena_max=1 (the
 * threads share the heap, so what one frees another reuses). Measured on
 * the 1 GB synthetic trace (docs/architecture.md): `summary` 79,675 page
 * faults with huge pages alone, 26,092 with the three; wall time about a
 * sixth shorter, peak memory the same. `serve` runs for hours and
 * files come and go: it gets huge pages only.
 *
 * glibc reads tunables only from the environment, when the program
 * starts. So when the inputs are big, main() calls hugepages_start() first
 * thing: it adds the tunables to GLIBC_TUNABLES and executes the same
 * binary again with the same arguments (same process, same file
 * descriptors, nothing read yet). The second image finds the mark, puts
 * GLIBC_TUNABLES back as the user had it (so the programs gpuprof starts,
 * such as `nsys profile`'s, see the user's environment) and goes on.
 *
 * When: GPUPROF_HUGEPAGES=0 never; =1 always (where it can work); unset:
 * when the regular files among the arguments add up to HUGE_INPUT bytes
 * or more (a gzip file counted as its inflated size), or the command is
 * `serve` (uploads come later). Each tunable is added unless
 * GLIBC_TUNABLES already names it (the user's choice);
 * glibc.malloc.hugetlb only when the kernel's mode is "madvise" ("always"
 * needs no tunable, "never" ignores it). Not executed again when nothing
 * is to be added, under valgrind (its tools would lose the process at the
 * exec) or when the exec fails (then all goes on as before). Outputs are
 * the same bytes either way: only where the heap's memory comes from
 * changes.
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
#define HUGETLB "glibc.malloc.hugetlb"
/* What a one-shot command adds (see above): NAME=VALUE each. */
static const char *const reuse_tunables[] = {
    "glibc.malloc.mmap_threshold=16777216",
    "glibc.malloc.trim_threshold=17179869184",
    "glibc.malloc.arena_max=1",
};
#define NREUSE (sizeof reuse_tunables / sizeof reuse_tunables[0])
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

/* The bytes a regular file of st_size bytes holds once read: a gzip
 * file's ISIZE (its last 4 bytes: the uncompressed size modulo 2^32, of
 * the last member), when larger. */
static long long input_bytes(const char *path, long long st_size)
{
	unsigned char m[2], z[4];
	FILE *f = st_size >= 18 ? fopen(path, "rb") : NULL;
	long long n = st_size;
	if (!f)
		return n;
	if (fread(m, 1, 2, f) == 2 && m[0] == 0x1f && m[1] == 0x8b && fseek(f, -4, SEEK_END) == 0 &&
	    fread(z, 1, 4, f) == 4) {
		long long isize = (long long)z[0] | (long long)z[1] << 8 | (long long)z[2] << 16 |
				  (long long)z[3] << 24;
		n = isize > n ? isize : n;
	}
	fclose(f);
	return n;
}

/* Whether the arguments name big inputs: regular files of HUGE_INPUT
 * bytes together (a gzip file's once inflated), or the server (*serve
 * then). */
static bool big_inputs(int argc, char **argv, bool *serve)
{
	long long sum = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (!strcmp(argv[i], "serve")) {
			*serve = true;
			return true;
		}
		if (!strcmp(argv[i], "--"))
			break; /* the program of `nsys profile` and its arguments */
		if (stat(argv[i], &st) == 0 && S_ISREG(st.st_mode))
			sum += input_bytes(argv[i], (long long)st.st_size);
		if (sum >= HUGE_INPUT)
			return true;
	}
	return false;
}

/* Whether GLIBC_TUNABLES (tun, may be NULL) names the tunable of the
 * NAME=VALUE item. */
static bool named(const char *tun, const char *item)
{
	size_t n = strcspn(item, "=");
	for (const char *p = tun; p && *p; p += strcspn(p, ":"), p += *p == ':')
		if (!strncmp(p, item, n) && p[n] == '=')
			return true;
	return false;
}

/* Appends item to the ':'-separated list buf (size cap) unless tun names
 * it; whether it was added. */
static bool add(char *buf, size_t cap, const char *tun, const char *item)
{
	if (named(tun, item))
		return false;
	size_t n = strlen(buf);
	snprintf(buf + n, cap - n, "%s%s", n ? ":" : "", item);
	return true;
}

/* GLIBC_TUNABLES for the second image into buf: the user's, then what is
 * added; whether anything is. */
static bool tunables(int argc, char **argv, const char *tun, char *buf, size_t cap)
{
	const char *mode = getenv("GPUPROF_HUGEPAGES");
	const char *pre = getenv("LD_PRELOAD");
	bool serve = false;
	if ((mode && !strcmp(mode, "0")) || (pre && strstr(pre, "vgpreload")))
		return false;
	bool big = big_inputs(argc, argv, &serve);
	if (!big && !(mode && !strcmp(mode, "1")))
		return false;
	snprintf(buf, cap, "%s", tun ? tun : "");
	bool any = thp_madvise() && add(buf, cap, tun, HUGETLB "=1");
	for (size_t i = 0; i < NREUSE && !serve; i++)
		any |= add(buf, cap, tun, reuse_tunables[i]);
	return any;
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
	if (was) { /* the second image: the tunables are in force */
		char *copy = strdup(was);
		unsetenv(MARK);
		if (copy)
			restore(copy);
		free(copy);
		return;
	}
	const char *tun = getenv("GLIBC_TUNABLES");
	size_t n = (tun ? strlen(tun) : 0) + 256;
	char *mark = malloc(n), *val = malloc(n);
	if (!mark || !val || !tunables(argc, argv, tun, val, n)) {
		free(mark);
		free(val);
		return;
	}
	snprintf(mark, n, "%s%s", tun ? "=" : "-", tun ? tun : "");
	if (setenv(MARK, mark, 1) == 0 && setenv("GLIBC_TUNABLES", val, 1) == 0)
		execv("/proc/self/exe", argv);
	/* not executed: as it was */
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
