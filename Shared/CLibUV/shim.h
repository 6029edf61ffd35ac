#ifndef VERTICALS_CLIBUV_SHIM_H
#define VERTICALS_CLIBUV_SHIM_H

/* libuv, from Debian's libuv1-dev (pkg-config: libuv). */
#include <uv.h>
#include <pthread.h>

/* glibc declares it only under _GNU_SOURCE; the event loop names each loop thread from the
   thread that starts it, so the name is in /proc before the thread first runs. */
extern int pthread_setname_np(pthread_t thread, const char *name);

#endif
