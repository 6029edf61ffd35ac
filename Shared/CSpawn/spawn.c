/*
 * vt_spawn: vt-exec's work done in the child itself, for the common case (a session, a parent
 * death signal, LISTEN_PID/WATCHDOG_PID, descriptors, signals), and the service exec'd directly.
 *
 * uv_spawn forks the supervisor (its page tables are copied: ~0.5 ms) and the child then execs
 * vt-exec, which execs the service (~1 ms more): about 2 ms of a 20 ms restart.
 * Here the child is a clone(CLONE_VM | CLONE_VFORK | SIGCHLD) of the calling thread, as glibc's
 * posix_spawn makes it: it shares the caller's memory and runs on a stack mapped for it, while
 * the caller is suspended until the child execs or exits. No page table is copied, and there
 * is one exec. Whatever else a service needs (a user, rlimits, nice, a cgroup) still goes
 * through vt-exec.
 *
 * The parent, around clone: blocks every signal (raw rt_sigprocmask, so glibc's internal ones
 * too), so no handler of the parent's can run on the child's stack in the parent's memory, and
 * restores its mask once clone returns.
 *
 * The child, in this order (each step as vt-exec does it, see Services/Supervisor/vt-exec/main.c):
 *   1. every signal disposition back to SIG_DFL (1 .. _NSIG-1 but SIGKILL and SIGSTOP; the
 *      child has its own table, CLONE_SIGHAND is not given, so the parent's stays as it is).
 *      An ignored SIGPIPE of the supervisor's would otherwise survive exec (uv_spawn resets
 *      only 1 .. 31: an ignored real-time signal reached the service);
 *   2. setsid(), when asked: its own session and process group;
 *   3. prctl(PR_SET_PDEATHSIG), then getppid() against the parent's pid: when the parent died
 *      before prctl no signal will come, so exit 1 at once. Linux sends the signal when the
 *      *thread* that cloned the child ends: spawn from a thread that lives as long as the
 *      supervisor (the engine's loop thread);
 *   4. its own pid, in decimal, into the LISTEN_PID= and WATCHDOG_PID= values the parent made
 *      room for (VT_SPAWN_PID_ROOM bytes; no allocation here);
 *   5. descriptors: each source first copied (F_DUPFD_CLOEXEC) above the highest target, so
 *      moving one into place never clobbers another's source, then dup2 into 0, 1, 2, 3, …
 *      (dup2 clears FD_CLOEXEC);
 *   6. every descriptor >= fd_count closed: close_range(2), else each one listed by
 *      getdents64 on /proc/self/fd (a buffer on the stack);
 *   7. chdir, when asked;
 *   8. every signal unblocked;
 *   9. execve(path): no $PATH lookup, the caller passes a path.
 * A failing step stores its number and errno in the parent's `struct vt_spawn_failure` (shared
 * memory) and exits 127 (1 for a parent already gone); the parent, which resumes only then,
 * reaps the child and returns the failure.
 *
 * The rules the child keeps, because it runs in the parent's memory with the parent's thread
 * pointer, like a signal handler: async-signal-safe calls only; no malloc or free, no stdio, no
 * locks, no glibc set*id wrapper (those signal every thread of the *parent*), no return from
 * the child function (only execve or _exit). It writes nothing of the parent's but the failure,
 * the two pid values and errno (the parent's thread's errno, which the parent sets afterwards).
 */
#define _GNU_SOURCE
#include "CSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Plenty for the child's frames (the biggest is the getdents64 buffer). */
#define CHILD_STACK_SIZE (64 * 1024)

struct child_context {
    const struct vt_spawn_request *request;
    volatile struct vt_spawn_failure *failure;
};

static void sigmask_all(sigset_t *old) {
    sigset_t all;
    memset(&all, 0xff, sizeof all);
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &all, old, _NSIG / 8);
}

static void sigmask_set(const sigset_t *mask) {
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, mask, NULL, _NSIG / 8);
}

/* The child's end: records the step and errno for the parent, then exits. */
static void __attribute__((noreturn)) child_fail(struct child_context *context, int step, int error, int status) {
    context->failure->error = error;
    context->failure->step = step;
    _exit(status);
}

/* `pid` in decimal into `room`, NUL-terminated. */
static void write_pid(char *room, pid_t pid) {
    char digits[VT_SPAWN_PID_ROOM];
    int count = 0;
    unsigned long value = (unsigned long)pid;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value != 0 && count < VT_SPAWN_PID_ROOM - 1);
    for (int i = 0; i < count; i++) room[i] = digits[count - 1 - i];
    room[count] = '\0';
}

struct linux_dirent64 {
    unsigned long long d_ino;
    long long d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

/* Step 6 without close_range: collect the fds /proc/self/fd lists, close them, read again
 * (closing while reading a directory is unspecified), until none is left above `first`. */
static int close_listed_fds(int first) {
    int directory = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directory < 0) return -1;
    char buffer[4096] __attribute__((aligned(8)));
    int fds[256];
    int count;
    do {
        count = 0;
        if (lseek(directory, 0, SEEK_SET) < 0) return -1;
        long length;
        while (count < (int)(sizeof fds / sizeof fds[0]) &&
               (length = syscall(SYS_getdents64, directory, buffer, sizeof buffer)) > 0) {
            for (long offset = 0; offset < length && count < (int)(sizeof fds / sizeof fds[0]);) {
                struct linux_dirent64 *entry = (struct linux_dirent64 *)(buffer + offset);
                offset += entry->d_reclen;
                int fd = 0;
                const char *digit = entry->d_name;
                if (*digit < '0' || *digit > '9') continue;
                for (; *digit >= '0' && *digit <= '9'; digit++) fd = fd * 10 + (*digit - '0');
                if (fd >= first && fd != directory) fds[count++] = fd;
            }
        }
        for (int i = 0; i < count; i++) close(fds[i]);
    } while (count > 0);
    close(directory);
    return 0;
}

static int child_main(void *argument) {
    struct child_context *context = argument;
    const struct vt_spawn_request *request = context->request;

    /* 1. Default dispositions, through the raw syscall: glibc's sigaction refuses its two
     * internal signals (32 and 33), and one of them can be ignored in the supervisor (SIG_IGN
     * survives exec). The kernel's struct sigaction, all zeros, is SIG_DFL with no flags and
     * an empty mask on every architecture, whatever its field order. */
    unsigned long default_action[8];
    memset(default_action, 0, sizeof default_action);
    for (int signal = 1; signal < _NSIG; signal++) {
        if (signal == SIGKILL || signal == SIGSTOP) continue;
        if (syscall(SYS_rt_sigaction, signal, default_action, NULL, _NSIG / 8) != 0) {
            child_fail(context, VT_SPAWN_SIGNALS, errno, 127);
        }
    }

    /* 2. */
    if (request->new_session && setsid() < 0) child_fail(context, VT_SPAWN_SETSID, errno, 127);

    /* 3. */
    if (request->parent_death_signal != 0) {
        if (prctl(PR_SET_PDEATHSIG, request->parent_death_signal) != 0) {
            child_fail(context, VT_SPAWN_PDEATHSIG, errno, 127);
        }
        if (getppid() != request->parent) child_fail(context, VT_SPAWN_PDEATHSIG, ESRCH, 1);
    }

    /* 4. The raw syscall: nothing cached can be wrong. */
    pid_t self = (pid_t)syscall(SYS_getpid);
    if (request->listen_pid != NULL) write_pid(request->listen_pid, self);
    if (request->watchdog_pid != NULL) write_pid(request->watchdog_pid, self);

    /* 5. */
    int count = request->fd_count;
    int moved[VT_SPAWN_MAX_FDS];
    for (int i = 0; i < count; i++) {
        moved[i] = fcntl(request->fds[i], F_DUPFD_CLOEXEC, count);
        if (moved[i] < 0) child_fail(context, VT_SPAWN_FDS, errno, 127);
    }
    for (int i = 0; i < count; i++) {
        if (dup2(moved[i], i) < 0) child_fail(context, VT_SPAWN_FDS, errno, 127);
    }

    /* 6. The copies above `count` go too. */
    if (syscall(SYS_close_range, (unsigned)count, ~0U, 0U) != 0) {
        if ((errno != ENOSYS && errno != EINVAL) || close_listed_fds(count) != 0) {
            child_fail(context, VT_SPAWN_CLOSE_FDS, errno, 127);
        }
    }

    /* 7. */
    if (request->directory != NULL && chdir(request->directory) != 0) child_fail(context, VT_SPAWN_CHDIR, errno, 127);

    /* 8. */
    sigset_t none;
    memset(&none, 0, sizeof none);
    if (syscall(SYS_rt_sigprocmask, SIG_SETMASK, &none, NULL, _NSIG / 8) != 0) {
        child_fail(context, VT_SPAWN_SIGMASK, errno, 127);
    }

    /* 9. */
    execve(request->path, request->argv, request->envp);
    child_fail(context, VT_SPAWN_EXEC, errno, 127);
}

int vt_spawn(const struct vt_spawn_request *request, pid_t *pid, struct vt_spawn_failure *failure) {
    volatile struct vt_spawn_failure *shared = failure;
    shared->step = VT_SPAWN_OK;
    shared->error = 0;
    shared->pid = 0;
    if (request == NULL || request->path == NULL || request->argv == NULL || request->envp == NULL ||
        request->fds == NULL || request->fd_count < 3 || request->fd_count > VT_SPAWN_MAX_FDS) {
        shared->step = VT_SPAWN_REQUEST;
        shared->error = EINVAL;
        errno = EINVAL;
        return -1;
    }

    void *stack = mmap(NULL, CHILD_STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) {
        shared->step = VT_SPAWN_STACK;
        shared->error = errno;
        return -1;
    }

    struct child_context context = {.request = request, .failure = shared};
    sigset_t old;
    sigmask_all(&old);
    /* Returns once the child has exec'd or exited (CLONE_VFORK); the stack grows down. */
    pid_t child = clone(child_main, (char *)stack + CHILD_STACK_SIZE, CLONE_VM | CLONE_VFORK | SIGCHLD, &context);
    int clone_error = errno;
    sigmask_set(&old);
    munmap(stack, CHILD_STACK_SIZE);

    if (child < 0) {
        shared->step = VT_SPAWN_CLONE;
        shared->error = clone_error;
        errno = clone_error;
        return -1;
    }
    if (shared->step != VT_SPAWN_OK) {
        int error = shared->error;
        shared->pid = child;
        int status;
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
        errno = error;
        return -1;
    }
    *pid = child;
    return 0;
}

int vt_spawn_pipe(int ends[2]) {
    return pipe2(ends, O_CLOEXEC);
}

const char *vt_spawn_step_name(int step) {
    switch (step) {
    case VT_SPAWN_OK: return "ok";
    case VT_SPAWN_STACK: return "stack";
    case VT_SPAWN_CLONE: return "clone";
    case VT_SPAWN_SIGNALS: return "signals";
    case VT_SPAWN_SETSID: return "setsid";
    case VT_SPAWN_PDEATHSIG: return "pdeathsig";
    case VT_SPAWN_FDS: return "fds";
    case VT_SPAWN_CLOSE_FDS: return "close_range";
    case VT_SPAWN_CHDIR: return "chdir";
    case VT_SPAWN_SIGMASK: return "sigmask";
    case VT_SPAWN_EXEC: return "exec";
    case VT_SPAWN_REQUEST: return "request";
    default: return "unknown";
    }
}
