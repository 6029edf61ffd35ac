#ifndef VERTICALS_CLIBUV_SHIM_H
#define VERTICALS_CLIBUV_SHIM_H

/* libuv, from Debian's libuv1-dev (pkg-config: libuv). */
#include <uv.h>

#endif
