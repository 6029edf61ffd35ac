/*
 * vt_thread_setgroups: the supplementary groups of the calling thread only.
 *
 * Linux keeps credentials per thread; glibc's setgroups(3) sets them for every thread of the
 * process at once (through a signal to each), as POSIX asks. The raw system call changes the
 * caller's alone, which is what root's folder-owner access needs: one thread acts as a vertical's
 * user (fsuid, fsgid and groups) while the event loop and the other threads stay root.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/xattr.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include "CSpawn.h"

int vt_thread_setgroups(size_t count, const gid_t *groups) {
    return (int)syscall(SYS_setgroups, count, groups);
}

int vt_forbid_tracing(void) {
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

long vt_access_acl_size(const char *path) {
    return (long)lgetxattr(path, "system.posix_acl_access", NULL, 0);
}
