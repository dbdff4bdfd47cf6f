/* libc_host: the calls of src/ that emscripten's libc lacks, each failing
 * the way its callers already handle (ENOSYS): getrandom (io/outfile.c
 * then takes its temporary names from the clock) and posix_spawnp (`nsys
 * profile` then says it cannot start nsys). */
#include <errno.h>
#include <spawn.h>
#include <sys/types.h>

ssize_t getrandom(void *buf, size_t n, unsigned flags);

ssize_t getrandom(void *buf, size_t n, unsigned flags)
{
	errno = ENOSYS;
	return -1;
}

int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
		 const posix_spawnattr_t *at, char *const argv[], char *const envp[])
{
	return ENOSYS;
}
