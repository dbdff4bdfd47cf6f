#include "cli/cli.h"

const char cmd_info_help[] = "Usage: gpuprof info TRACE...\n";

int cmd_info(struct app *app, int argc, char **argv)
{
	return app_usage(app, "info", "not built yet");
}
