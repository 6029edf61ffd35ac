/*
 * vt_spawn: starts a program the way vt-exec would, without fork and without vt-exec.
 *
 * The child is a clone(CLONE_VM | CLONE_VFORK | SIGCHLD) of the calling thread, as glibc's
 * posix_spawn makes it: it runs on a stack vt_spawn maps for it, in the caller's memory, while
 * the caller waits; no page table is copied, and the program is exec'd directly. See spawn.c
 * for the steps and the rules the child keeps.
 */
#ifndef VT_CSPAWN_H
#define VT_CSPAWN_H

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most descriptors a child gets (0, 1, 2 and the inherited ones from 3 on). */
#define VT_SPAWN_MAX_FDS 64

/* Room a LISTEN_PID= or WATCHDOG_PID= value must have for the child's pid (digits and NUL). */
#define VT_SPAWN_PID_ROOM 21

/* What to start and how. Every pointer stays valid until vt_spawn returns. */
struct vt_spawn_request {
    /* The program: an absolute path (or one relative to `directory`); no $PATH lookup. */
    const char *path;
    /* NULL-terminated argv and envp. */
    char *const *argv;
    char *const *envp;
    /* chdir before exec; NULL keeps the caller's working directory. */
    const char *directory;
    /* fds[i] becomes the child's descriptor i, for i < fd_count (at least 3: stdin, stdout,
     * stderr); every other descriptor is closed. */
    const int *fds;
    int fd_count;
    /* Non-zero: setsid(), a session and process group of its own. */
    int new_session;
    /* Non-zero: prctl(PR_SET_PDEATHSIG, parent_death_signal), then exit 1 at once unless
     * getppid() is still `parent` (it died before prctl, so no signal would come). */
    int parent_death_signal;
    pid_t parent;
    /* NULL, or the value part of an envp entry ("LISTEN_PID=" + VT_SPAWN_PID_ROOM bytes)
     * where the child writes its own pid, as sd_listen_fds(3) expects. */
    char *listen_pid;
    char *watchdog_pid;
};

/* The steps that can fail, in the order the child takes them. */
enum vt_spawn_step {
    VT_SPAWN_OK = 0,
    VT_SPAWN_STACK,      /* the parent: mmap of the child's stack */
    VT_SPAWN_CLONE,      /* the parent: clone */
    VT_SPAWN_SIGNALS,    /* sigaction(SIG_DFL) */
    VT_SPAWN_SETSID,
    VT_SPAWN_PDEATHSIG,  /* prctl, or the parent already gone (error ESRCH) */
    VT_SPAWN_FDS,        /* moving a descriptor into place */
    VT_SPAWN_CLOSE_FDS,  /* closing the descriptors above */
    VT_SPAWN_CHDIR,
    VT_SPAWN_SIGMASK,
    VT_SPAWN_EXEC,
    VT_SPAWN_REQUEST,    /* the request itself is malformed (error EINVAL) */
};

/* Why a start failed: the step and its errno, and the child (0 if none was made), already
 * reaped when vt_spawn returns. */
struct vt_spawn_failure {
    int step;
    int error;
    pid_t pid;
};

/*
 * Starts `request->path`. Returns 0 with the child's pid in *pid once the child's execve has
 * passed the point of no return (the kernel lets the parent go when the child drops the shared
 * memory, so the new program's environment and the closing of close-on-exec descriptors may
 * still be a moment away); else -1, with the step and errno in *failure and no child left
 * (a child that failed is reaped here). The caller reaps a started child (waitpid on its pid).
 */
int vt_spawn(const struct vt_spawn_request *request, pid_t *pid, struct vt_spawn_failure *failure);

/* pipe2(ends, O_CLOEXEC), which Swift's Glibc module does not declare: a capture pipe whose
 * ends no other child inherits (the child gets the write end through `fds`). */
int vt_spawn_pipe(int ends[2]);

/* "setsid", "exec", …: the name of a step, for messages. */
const char *vt_spawn_step_name(int step);

/* setgroups(2) for the calling thread alone: the raw system call. glibc's setgroups changes every
 * thread of the process (it broadcasts the change), which a thread acting as another user for a
 * moment must not do. Returns 0, or -1 with errno set. */
int vt_thread_setgroups(size_t count, const gid_t *groups);

/* prctl(PR_SET_DUMPABLE, 0): no process of the same user may ptrace this one or open its memory
 * (/proc/PID/mem), as if it had changed credentials. 0, or -1 with errno. */
int vt_forbid_tracing(void);

/* The size of the access ACL of `path` (lgetxattr "system.posix_acl_access", the link itself, not
 * what it points to): > 0 when it has one beyond its mode bits, else -1 with errno (ENODATA: none). */
long vt_access_acl_size(const char *path);

/* glibc's malloc policy for a process that moves long frames (memory.c). vt_memory_keep_freed:
 * blocks below 32 MiB come from the heaps and up to 32 MiB free at a heap's top stays there, unless
 * GLIBC_TUNABLES sets a glibc.malloc. tunable (then it does nothing and returns 0); 1 when it set
 * them. vt_memory_release: hands back to the kernel the free memory of every heap, the free top
 * of the calling thread's heap included. */
int vt_memory_keep_freed(void);
void vt_memory_release(void);
/* The bytes malloc has handed out and not taken back (mallinfo2's uordblks + hblkhd): the live
 * heap, without the free memory malloc keeps. Walks each arena's free lists under its lock, so it
 * costs in proportion to the free blocks a heap holds: read it when asked, never per request. */
size_t vt_memory_in_use(void);

#ifdef __cplusplus
}
#endif

#endif
