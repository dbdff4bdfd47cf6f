/* runner: runs the tests listed in tests.def; see test.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "test.h"

void t_fail(struct t *t, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("FAIL %s: %s:%d: ", t->name, file, line);
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	t->failed_checks++;
}

static const struct {
	const char *name;
	void (*fn)(struct t *);
} tests[] = {
#define T(name) {#name, test_##name},
#include "tests.def"
#undef T
};

int main(int argc, char **argv)
{
	const char *pattern = argc > 1 ? argv[1] : NULL;
	const char *shared = getenv("GPUPROF_SHARED");
	if (!shared)
		shared = "../shared";
	struct stat st;
	if (stat(shared, &st) || !S_ISDIR(st.st_mode))
		shared = NULL;
	int passed = 0, failed = 0;
	for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
		if (pattern && !strstr(tests[i].name, pattern))
			continue;
		struct t t = {.name = tests[i].name, .shared = shared};
		tests[i].fn(&t);
		if (t.failed_checks)
			failed++;
		else
			passed++;
	}
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
