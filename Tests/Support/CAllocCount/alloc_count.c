/*
 * The allocator entry points of a program that links this file (include/CAllocCount.h), each
 * counted while armed and forwarded to glibc's own allocator.
 *
 * Counts are process-wide relaxed atomics: a count is read only after the work it measures has
 * ended (the reader synchronises with that work by other means, a request's answer), so no
 * ordering is needed between threads, and a relaxed increment costs no fence on x86-64.
 */
#include "CAllocCount.h"

#include <errno.h>
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

/* glibc's allocator under the names it exports for an interposer to forward to. */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

static atomic_bool armed;
static atomic_uint_fast64_t allocations;
static atomic_uint_fast64_t frees;

/* Stacks still to write (vt_alloc_count_trace), where, and whether this thread is writing one. */
static atomic_int traces_left;
static int trace_fd = -1;
static _Thread_local int tracing;

static void trace(void) {
    if (tracing || atomic_fetch_sub_explicit(&traces_left, 1, memory_order_relaxed) <= 0) {
        return;
    }
    tracing = 1;
    void *frames[48];
    int depth = backtrace(frames, 48);
    /* Frame 0 is this function (with count_allocation inlined in it or not): left out. */
    if (depth > 1) {
        backtrace_symbols_fd(frames + 1, depth - 1, trace_fd);
    }
    (void)!write(trace_fd, "--\n", 3);
    tracing = 0;
}

static inline void count_allocation(const void *pointer) {
    if (pointer != NULL && atomic_load_explicit(&armed, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
        if (atomic_load_explicit(&traces_left, memory_order_relaxed) > 0) {
            trace();
        }
    }
}

void *malloc(size_t size) {
    void *pointer = __libc_malloc(size);
    count_allocation(pointer);
    return pointer;
}

void *calloc(size_t count, size_t size) {
    void *pointer = __libc_calloc(count, size);
    count_allocation(pointer);
    return pointer;
}

void *realloc(void *old, size_t size) {
    void *pointer = __libc_realloc(old, size);
    count_allocation(pointer);
    return pointer;
}

void free(void *pointer) {
    if (pointer != NULL && atomic_load_explicit(&armed, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
    }
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    void *pointer = __libc_memalign(alignment, size);
    count_allocation(pointer);
    return pointer;
}

void *aligned_alloc(size_t alignment, size_t size) {
    return memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    /* A power of two and a multiple of sizeof(void *), as POSIX asks. */
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) {
        return EINVAL;
    }
    void *pointer = memalign(alignment, size);
    if (pointer == NULL) {
        return ENOMEM;
    }
    *result = pointer;
    return 0;
}

void vt_alloc_count_arm(void) {
    atomic_store_explicit(&armed, 1, memory_order_relaxed);
}

void vt_alloc_count_disarm(void) {
    atomic_store_explicit(&armed, 0, memory_order_relaxed);
}

uint64_t vt_alloc_count_allocations(void) {
    return atomic_load_explicit(&allocations, memory_order_relaxed);
}

uint64_t vt_alloc_count_frees(void) {
    return atomic_load_explicit(&frees, memory_order_relaxed);
}

void vt_alloc_count_trace(int fd, int count) {
    /* backtrace's first call loads libgcc_s, which allocates: done here, not inside malloc. */
    void *frame[1];
    backtrace(frame, 1);
    trace_fd = fd;
    atomic_store_explicit(&traces_left, count, memory_order_relaxed);
}

/* Watches the parent: SIGTERM to this process once it is gone. PR_SET_PDEATHSIG would fire when
 * the parent *thread* that spawned this process ends, and the parent spawns from a thread of
 * Swift's pool, which may end while the parent runs on. It polls, and allocates nothing. */
static void *watch_parent(void *parent) {
    while (getppid() == (pid_t)(intptr_t)parent) {
        usleep(100 * 1000);
    }
    kill(getpid(), SIGTERM);
    return NULL;
}

void vt_alloc_count_die_with_parent(int32_t parent) {
    if (getppid() != parent) {
        _exit(1);
    }
    pthread_t watcher;
    if (pthread_create(&watcher, NULL, watch_parent, (void *)(intptr_t)parent) != 0) {
        _exit(1);
    }
    pthread_detach(watcher);
}
