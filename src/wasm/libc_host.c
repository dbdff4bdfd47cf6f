/* libc_host: the calls of src/ that emscripten's libc lacks, each failing
 * the way its callers already handle (ENOSYS): getrandom (io/outfile.c
 * then takes its temporary names from the clock) and posix_spawnp (`nsys
 * profile` then says it cannot start nsys); and isatty, below. */
#include <emscripten.h>
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

/* isatty: emscripten's Node file system takes descriptors 0 to 2 for
 * terminals whatever they are; Node's tty module knows. */
EM_JS(int, host_isatty, (int fd), {
	try {
		return require('tty').isatty(fd) ? 1 : 0;
	} catch (e) {
		return 0;
	}
});

int isatty(int fd)
{
	return fd > 2 ? 0 : host_isatty(fd);
}
