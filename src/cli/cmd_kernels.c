/* kernels: placeholder */
#include "cli/cli.h"
const char cmd_kernels_help[] = "";
int cmd_kernels(struct app *app, int argc, char **argv)
{
	return 2;
}
