/*
 * glibc's malloc policy for long frames: keep what they free while they keep coming, hand it back
 * once they stop. The event loop calls these (EventLoop+MemoryRelease.swift says when and why).
 */
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "CSpawn.h"

/* Blocks below this come from the heaps rather than mappings of their own: glibc's own most
 * (DEFAULT_MMAP_THRESHOLD_MAX on 64 bits), above the frame limit's arrays. */
#define VT_MMAP_THRESHOLD (32 << 20)
/* Free memory kept at the top of a heap while long frames come: eight of the largest frames the
 * default limit admits (four requests in flight and four answers not yet written). */
#define VT_TRIM_THRESHOLD (32 << 20)
/* glibc's initial trim threshold (DEFAULT_TRIM_THRESHOLD). */
#define VT_GLIBC_TRIM_THRESHOLD (128 * 1024)
/* A block larger than any free one a heap holds after long frames, below VT_MMAP_THRESHOLD. */
#define VT_RELEASE_BLOCK (VT_MMAP_THRESHOLD - (1 << 20))

static int vt_keeping;
/* One release at a time: a loop's release must not raise the threshold while another loop's
 * block is being freed at glibc's own. */
static pthread_mutex_t vt_release_lock = PTHREAD_MUTEX_INITIALIZER;

int vt_memory_keep_freed(void) {
    const char *tunables = getenv("GLIBC_TUNABLES");
    if (tunables != NULL && strstr(tunables, "glibc.malloc.") != NULL)
        return 0;
    mallopt(M_MMAP_THRESHOLD, VT_MMAP_THRESHOLD);
    mallopt(M_TRIM_THRESHOLD, VT_TRIM_THRESHOLD);
    __atomic_store_n(&vt_keeping, 1, __ATOMIC_RELAXED);
    return 1;
}

void vt_memory_release(void) {
    /* malloc_trim returns the free pages inside every heap, but not the free top of a thread's
     * heap: glibc shrinks that only when a block is freed into it and the top then passes the trim
     * threshold. So, with the threshold back at glibc's own for a moment, a block larger than any
     * free one (taken from the top, its pages untouched) is freed back into it, and the top is
     * trimmed. `volatile` keeps the compiler from removing the pair. */
    pthread_mutex_lock(&vt_release_lock);
    int keeping = __atomic_load_n(&vt_keeping, __ATOMIC_RELAXED);
    if (keeping) {
        mallopt(M_TRIM_THRESHOLD, VT_GLIBC_TRIM_THRESHOLD);
        void *volatile block = malloc(VT_RELEASE_BLOCK);
        free(block);
    }
    malloc_trim(0);
    if (keeping)
        mallopt(M_TRIM_THRESHOLD, VT_TRIM_THRESHOLD);
    pthread_mutex_unlock(&vt_release_lock);
}

size_t vt_memory_in_use(void) {
    /* mallinfo2 sums every arena's bins under its lock: what malloc handed out and not yet took
     * back, in the heaps (uordblks) and in blocks mapped on their own (hblkhd). Free memory kept at
     * a heap's top, or not yet handed back, is not counted. */
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
