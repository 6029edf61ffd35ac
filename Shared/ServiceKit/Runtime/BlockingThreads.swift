#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Threads the framework owns for blocking work (``Offload``): started when work first needs
/// one, up to ``limit``, each then parked on a semaphore until the next job. A parked thread
/// costs no wake-up, unlike libdispatch's global queues, whose worker-pool monitor, once
/// started, wakes the process every second for as long as it lives.
final class BlockingThreads: @unchecked Sendable {
    // @unchecked Sendable: `state` is a Mutex; `ready` points at a POSIX semaphore, which is made
    // for use from any thread, allocated in init and never freed (the one pool lives as long as
    // the process, and its threads wait on it for ever).

    /// The process's pool.
    static let shared = BlockingThreads(limit: max(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))

    /// The most threads it starts.
    let limit: Int
    private let ready: UnsafeMutablePointer<sem_t>
    private let state = Mutex(State())

    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var next = 0  // jobs[..<next] were taken
        var threads = 0
        /// Threads waiting for a job.
        var idle = 0
    }

    init(limit: Int) {
        self.limit = limit
        ready = .allocate(capacity: 1)
        sem_init(ready, 0, 0)
    }

    /// Runs `job` on one of the pool's threads, soon; any thread may call it.
    func run(_ job: @escaping @Sendable () -> Void) {
        let startsThread = state.withLock { state -> Bool in
            state.jobs.append(job)
            // A new thread only when the waiting ones cannot take every job that waits.
            guard state.jobs.count - state.next > state.idle, state.threads < limit else { return false }
            state.threads += 1
            return true
        }
        sem_post(ready)
        if startsThread { startThread() }
    }

    private func startThread() {
        var thread = pthread_t()
        let retained = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(&thread, nil, { argument in
            let pool = Unmanaged<BlockingThreads>.fromOpaque(argument!).takeRetainedValue()
            BlockingThreads.nameThread()
            pool.work()
            return nil
        }, retained)
        if status == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<BlockingThreads>.fromOpaque(retained).release()
            state.withLock { $0.threads -= 1 }  // the job waits for a running thread
        }
    }

    /// Names the calling thread `blocking-work` in `/proc` (what `top -H` and `ps -L` show).
    private static func nameThread() {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = Array("blocking-work".utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// Takes and runs jobs for as long as the process lives.
    private func work() {
        while true {
            state.withLock { $0.idle += 1 }
            while sem_wait(ready) != 0 {}  // EINTR: a signal arrived; wait again
            let job = state.withLock { state -> @Sendable () -> Void in
                state.idle -= 1
                let job = state.jobs[state.next]
                state.next += 1
                if state.next == state.jobs.count {
                    state.jobs.removeAll(keepingCapacity: true)
                    state.next = 0
                }
                return job
            }
            job()
        }
    }
}
