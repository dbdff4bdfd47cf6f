#include "cli/cli.h"

const char cmd_synth_help[] = "Usage: gpuprof synth [options]\n";

int cmd_synth(struct app *app, int argc, char **argv)
{
	return app_usage(app, "synth", "not built yet");
}
