/* summary: placeholder until the overview is written. */
#include "cli/cli.h"
const char cmd_summary_help[] = "Usage: gpuprof summary [options] TRACE\n";
int cmd_summary(struct app *app, int argc, char **argv)
{
	return app_usage(app, "summary", "not written yet");
}
