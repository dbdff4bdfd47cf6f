/* fixture: helpers the unit tests share: a trace loaded from JSON text
 * written to a temporary file. */
#include <stdlib.h>
#include <unistd.h>

#include "test.h"
#include "trace/trace.h"
#include "kineto/kineto.h"

char *t_write_tmp(const char *data, size_t len)
{
	char *path = strdup("/tmp/gpuprof-test-XXXXXX");
	if (!path)
		return NULL;
	int fd = mkstemp(path);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len) {
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		free(path);
		return NULL;
	}
	close(fd);
	return path;
}

struct trace *t_load_text(struct t *t, const char *text)
{
	char *path = t_write_tmp(text, strlen(text));
	struct trace *tr = NULL;
	struct err e = {0};
	if (!path) {
		t_fail(t, __FILE__, __LINE__, "cannot write a temp file");
		return NULL;
	}
	if (kineto_load(path, NULL, &tr, &e))
		t_fail(t, __FILE__, __LINE__, "load failed: %s", e.msg);
	unlink(path);
	free(path);
	return tr;
}
