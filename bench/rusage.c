/* rusage: runs a command and prints its wall time and peak resident memory,
 * for bench/run.sh (GNU time may not be installed).
 *
 *   rusage CMD [ARG...]  ->  "wall_s=0.123456 maxrss_kb=4567 rc=0" on stdout
 *
 * The command's standard output goes to /dev/null; its standard error is
 * kept. rc is the exit status, or 128 + the signal that ended it.
 */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: rusage CMD [ARG...]\n");
		return 2;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid = fork();
	if (pid < 0) {
		perror("rusage: fork");
		return 2;
	}
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			close(fd);
		}
		execvp(argv[1], argv + 1);
		perror("rusage: exec");
		_exit(127);
	}
	int status = 0;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("rusage: wait4");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	printf("wall_s=%.6f maxrss_kb=%ld rc=%d\n", wall, ru.ru_maxrss, rc);
	return 0;
}
