/* srv_mhd: libmicrohttpd, opened when a server starts instead of linked.
 *
 * Why: the library brings GnuTLS and eight more shared libraries whose
 * loading and relocation cost every gpuprof command about 4 ms of start-up
 * (a 1 MB trace's whole `summary` is ~15 ms). Only `gpuprof serve` needs
 * it, so it is loaded there, by its soname, once per process.
 *
 * The header <microhttpd.h> still gives the types and constants; the
 * functions are called through the table srv_mhd() returns, whose members
 * have the header's own types (so a mismatch is a compile error). */
#ifndef GP_SERVER_SRV_MHD_H
#define GP_SERVER_SRV_MHD_H

#include <microhttpd.h>

#include "core/err.h"

/* The soname loaded (Debian 12: package libmicrohttpd12). */
#define SRV_MHD_SONAME "libmicrohttpd.so.12"

struct srv_mhd {
	__typeof__(MHD_start_daemon) *start_daemon;
	__typeof__(MHD_stop_daemon) *stop_daemon;
	__typeof__(MHD_get_daemon_info) *get_daemon_info;
	__typeof__(MHD_get_connection_info) *get_connection_info;
	__typeof__(MHD_get_connection_values) *get_connection_values;
	__typeof__(MHD_lookup_connection_value) *lookup_connection_value;
	__typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
	__typeof__(MHD_add_response_header) *add_response_header;
	__typeof__(MHD_queue_response) *queue_response;
	__typeof__(MHD_destroy_response) *destroy_response;
};

/* Loads the library and every function of the table (once per process;
 * safe from any thread). 0, or ERR_IO with what the dynamic loader said
 * and which package provides the library. */
int srv_mhd_open(struct err *e);

/* The table; only after srv_mhd_open returned 0. */
const struct srv_mhd *srv_mhd(void);

#endif
