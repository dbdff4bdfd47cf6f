/* assets: the viewer's files (web/), compiled into the binary by
 * tools/embed.c (build/assets.c). The table ends with a zeroed entry. Paths
 * are "/index.html", "/app.js", ...; nothing else is ever served, so no
 * request path reaches the filesystem. */
#ifndef GP_SERVER_ASSETS_H
#define GP_SERVER_ASSETS_H

#include <stddef.h>

struct srv_asset {
	const char *path;
	const char *mime;
	const unsigned char *data;
	size_t len;
};

extern const struct srv_asset srv_assets[];

#endif
