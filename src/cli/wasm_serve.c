/* wasm_serve: `gpuprof serve` in the WebAssembly build, which has no
 * server (libmicrohttpd, sockets, threads): the command is kept, so that
 * scripts and --help list the same commands, and says so in one line. The
 * WebAssembly build's viewer is the static site (`make site`). */
#include <stdio.h>

#include "cli/cli.h"

const char cmd_serve_help[] =
    "Usage: gpuprof serve\n"
    "\n"
    "The WebAssembly build of gpuprof has no server: open the static site\n"
    "(make site; build/site/index.html), or run the native gpuprof serve.\n";
const char cmd_serve_help_tail[] = "";
const struct vo cmd_serve_opts[1];
const size_t cmd_serve_nopts = 0;

int cmd_serve(struct app *app, int argc, char **argv)
{
	fprintf(stderr, "gpuprof: serve: not part of the WebAssembly build (it has no server); "
			"open the static site or run the native gpuprof\n");
	return 2;
}
