/* site_kind: what the static site's worker (site/engine_worker.js) asks
 * the engine besides commands: the kind of a file from its first bytes,
 * by the registry of input kinds, as the server names it in /api/files. */
#include <emscripten.h>
#include <stddef.h>

#include "input/input.h"

const char *gp_site_kind(const void *head, size_t n);

EMSCRIPTEN_KEEPALIVE const char *gp_site_kind(const void *head, size_t n)
{
	return input_kind_name(input_sniff_bytes(head, n));
}
