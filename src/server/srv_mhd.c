/* srv_mhd: libmicrohttpd's functions, looked up once (see srv_mhd.h).
 *
 * The table and the loader's message are written once, under pthread_once,
 * and only read afterwards: process-wide like the mapping of the library
 * itself, and immutable once a server can use them. */
#include "server/srv_mhd.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static struct srv_mhd table;
static char why[256]; /* empty: loaded */
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Looks NAME up into *slot (any function pointer's storage); false and
 * why[] set when the library lacks it. */
static bool sym(void *lib, const char *name, void *slot)
{
	void *f = dlsym(lib, name);
	if (!f) {
		snprintf(why, sizeof why, "%s has no function %s", SRV_MHD_SONAME, name);
		return false;
	}
	/* (POSIX: a dlsym result converts to the function's pointer type) */
	memcpy(slot, &f, sizeof f);
	return true;
}

static void load(void)
{
	void *lib = dlopen(SRV_MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		const char *d = dlerror();
		snprintf(why, sizeof why, "%s", d ? d : SRV_MHD_SONAME ": not found");
		return;
	}
	struct srv_mhd t;
	bool ok = sym(lib, "MHD_start_daemon", &t.start_daemon) &&
		  sym(lib, "MHD_stop_daemon", &t.stop_daemon) &&
		  sym(lib, "MHD_get_daemon_info", &t.get_daemon_info) &&
		  sym(lib, "MHD_get_connection_info", &t.get_connection_info) &&
		  sym(lib, "MHD_get_connection_values", &t.get_connection_values) &&
		  sym(lib, "MHD_lookup_connection_value", &t.lookup_connection_value) &&
		  sym(lib, "MHD_create_response_from_buffer", &t.create_response_from_buffer) &&
		  sym(lib, "MHD_add_response_header", &t.add_response_header) &&
		  sym(lib, "MHD_queue_response", &t.queue_response) &&
		  sym(lib, "MHD_destroy_response", &t.destroy_response);
	if (ok)
		table = t; /* (the library stays mapped: the process's server uses it) */
	else
		dlclose(lib);
}

int srv_mhd_open(struct err *e)
{
	pthread_once(&once, load);
	if (!why[0])
		return 0;
	return err_set(e, ERR_IO, NULL, -1,
		       "cannot load the HTTP library (%s); Debian's package libmicrohttpd12 "
		       "provides it",
		       why);
}

const struct srv_mhd *srv_mhd(void)
{
	return &table;
}
