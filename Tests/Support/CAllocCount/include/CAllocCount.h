/*
 * An allocation counter by malloc interposition, for vt-alloc-count alone.
 *
 * alloc_count.c defines malloc, calloc, realloc, free, posix_memalign, aligned_alloc and memalign,
 * so that a program linking it replaces glibc's allocator entry points (glibc's "Replacing malloc":
 * every library of the process, libc itself, the Swift runtime and libuv, calls these). Each
 * forwards to the allocator glibc exports under its own name (__libc_malloc, …), so no dlsym is
 * needed and the first allocation has nothing to bootstrap. glibc 2.36 has no allocation hooks.
 *
 * Link it into one dedicated executable, never into a library or a test bundle: whatever links it
 * has every allocation of its process counted.
 */
#ifndef VT_CALLOCCOUNT_H
#define VT_CALLOCCOUNT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Starts counting, from the counts as they stand (they are never reset). */
void vt_alloc_count_arm(void);

/* Stops counting; the counts keep their values. */
void vt_alloc_count_disarm(void);

/* Allocations made while armed, by any thread: each successful malloc, calloc, aligned or
 * memaligned allocation, and each realloc (a realloc may move the block: it counts as one). */
uint64_t vt_alloc_count_allocations(void);

/* Frees of a non-NULL pointer made while armed. */
uint64_t vt_alloc_count_frees(void);

/* Writes the stack of each of the next `count` allocations counted, by any thread, to `fd` as
 * backtrace_symbols_fd writes it (which allocates nothing), each followed by a line "--": which
 * code allocates, with no breakpoint and no debugger. An allocation the tracing itself makes is
 * neither traced nor the cause of a recursion. */
void vt_alloc_count_trace(int fd, int count);

/* Sends this process SIGTERM once its parent (pid `parent`) is gone, from a thread that polls for
 * it, and exits at once when the parent is already gone. Call it before counting: it starts a
 * thread. */
void vt_alloc_count_die_with_parent(int32_t parent);

#ifdef __cplusplus
}
#endif

#endif
