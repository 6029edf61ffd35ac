#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import VerticalsClient

/// Threads the framework owns for blocking work (``Offload``): started when work first needs
/// one, up to ``limit``, each then parked on a semaphore until the next job. A parked thread
/// costs no wake-up, unlike libdispatch's global queues, whose worker-pool monitor, once
/// started, wakes the process every second for as long as it lives.
///
/// Its queue is bounded (``BlockingWorkLimits/queueLimit``): past it ``run(_:)`` refuses a job
/// rather than letting callers pile up without limit. It counts its progress (when each thread
/// took its current job), which ``probe(_:)`` reads so that `daemon.health` can tell a pool busy
/// with long jobs from a wedged one without waiting behind its queue.
final class BlockingThreads: @unchecked Sendable {
    // @unchecked Sendable: `state` is a Mutex; `ready` points at a POSIX semaphore, which is made
    // for use from any thread, allocated in init and never freed (the one pool lives as long as
    // the process, and its threads wait on it for ever).

    /// The threads each of the process's pools may start: one per processor, at least two.
    private static let processorThreads = max(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    /// The process's pool.
    static let shared = BlockingThreads(limit: processorThreads, queueLimit: BlockingWorkLimits.defaultQueueLimit)

    /// The process's pool for CPU-bound work (``Offload/compute(_:)``): as many threads as
    /// processors, each ``BlockingWorkLimits/computeNice`` steps below the daemon.
    static let compute = BlockingThreads(
        limit: processorThreads, queueLimit: BlockingWorkLimits.defaultQueueLimit,
        name: "compute-work", nice: BlockingWorkLimits.defaultComputeNice)

    /// The most threads it starts.
    let limit: Int
    /// What its threads are called in `/proc` (what `top -H` and `ps -L` show).
    let name: String
    private let ready: UnsafeMutablePointer<sem_t>
    private let state: Mutex<State>

    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var next = 0 // jobs[..<next] were taken
        var threads = 0
        /// Threads without a job: waiting for one, or started and not waiting yet.
        var idle = 0
        /// Jobs that may wait beyond what idle and startable threads take; nil: no bound.
        var queueLimit: Int?
        /// See ``BlockingWorkLimits/stallLimit``.
        var stallLimit: Duration
        /// When each thread (by the index it was started with) took the job it runs; nil while it has none.
        var busySince: [MonotonicInstant?] = []
        /// Nice steps below the thread that starts it at which a new thread runs (0: the same).
        var nice: Int
        /// Jobs waiting that no idle thread will take.
        var uncovered: Int { jobs.count - next - idle }
    }

    /// What ``probe(_:)`` found.
    enum Probe: Equatable {
        /// A thread takes the job at once (an idle one, or one started for it).
        case queued
        /// Every thread is busy, and one took its job within the stall limit: the pool moves.
        case progressing
        /// Every thread has run its current job for longer than the stall limit.
        case wedged(threads: Int, since: Duration)
    }

    /// A pool of up to `limit` threads named `name` that lets `queueLimit` jobs wait (nil: any
    /// number), each thread `nice` steps below the thread that starts it.
    init(
        limit: Int, queueLimit: Int?, stallLimit: Duration = BlockingWorkLimits.defaultStallLimit,
        name: String = "blocking-work", nice: Int = 0
    ) {
        self.limit = limit
        self.name = name
        state = Mutex(State(queueLimit: queueLimit, stallLimit: stallLimit, nice: nice))
        ready = .allocate(capacity: 1)
        sem_init(ready, 0, 0)
    }

    /// How many jobs may wait beyond what its threads take at once; nil: any number.
    var queueLimit: Int? { state.withLock { $0.queueLimit } }

    /// Applies `limits` to the jobs given from now on; `nice` (nil: unchanged) to the threads
    /// started from now on.
    func configure(_ limits: BlockingWorkLimits, nice: Int? = nil) {
        state.withLock {
            $0.queueLimit = limits.queueLimit
            $0.stallLimit = limits.stallLimit
            if let nice { $0.nice = nice }
        }
    }

    /// Runs `job` on one of the pool's threads, soon; any thread may call it. Returns false, and
    /// drops `job` without running it, when the queue is full.
    @discardableResult
    func run(_ job: @escaping @Sendable () -> Void) -> Bool {
        let accepted = state.withLock { state -> (Bool, newThread: Int?) in
            // Past the jobs that idle threads and threads still to start will take at once.
            if let queueLimit = state.queueLimit, state.uncovered + 1 - (limit - state.threads) > queueLimit {
                return (false, nil)
            }
            return (true, Self.enqueue(job, &state, limit: limit))
        }
        guard accepted.0 else { return false }
        sem_post(ready)
        if let index = accepted.newThread { startThread(index: index) }
        return true
    }

    /// Runs `job` if a thread takes it at once; otherwise leaves it and says how the busy pool
    /// moves, from when its threads took their jobs. Never waits behind the queue, and never
    /// refused for a full one: `daemon.health` asks it while the pool works through a backlog.
    func probe(_ job: @escaping @Sendable () -> Void) -> Probe {
        let now = MonotonicInstant.now
        let (probe, newThread) = state.withLock { state -> (Probe, Int?) in
            if state.uncovered < 0 || state.threads < limit {
                return (.queued, Self.enqueue(job, &state, limit: limit))
            }
            // A thread between jobs, or threads still waking for jobs just given: it moves.
            guard state.idle == 0, let newest = state.busySince.compactMap({ $0 }).max() else {
                return (.progressing, nil)
            }
            let since = Duration.nanoseconds(now.nanoseconds - newest.nanoseconds)
            return (since > state.stallLimit ? .wedged(threads: state.threads, since: since) : .progressing, nil)
        }
        if probe == .queued { sem_post(ready) }
        if let index = newThread { startThread(index: index) }
        return probe
    }

    /// Appends `job`; returns the index of a thread that must start for it (counted already), if one must.
    private static func enqueue(_ job: @escaping @Sendable () -> Void, _ state: inout State, limit: Int) -> Int? {
        state.jobs.append(job)
        // A new thread only when the idle ones cannot take every job that waits.
        guard state.uncovered > 0, state.threads < limit else { return nil }
        state.threads += 1
        state.idle += 1
        state.busySince.append(nil)
        return state.busySince.count - 1
    }

    private func startThread(index: Int) {
        var thread = pthread_t()
        let nice = state.withLock { $0.nice }
        let retained = Unmanaged.passRetained(Started(pool: self, index: index, nice: nice)).toOpaque()
        let status = pthread_create(
            &thread, nil,
            { argument in
                let started = Unmanaged<Started>.fromOpaque(argument!).takeRetainedValue()
                BlockingThreads.nameThread(started.pool.name)
                BlockingThreads.lowerPriority(by: started.nice)
                started.pool.work(index: started.index)
                return nil
            }, retained)
        if status == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Started>.fromOpaque(retained).release()
            state.withLock {
                $0.threads -= 1 // the job waits for a running thread
                $0.idle -= 1
            }
        }
    }

    /// What a new thread is handed: its pool, its index in ``State/busySince`` and its nice steps.
    private final class Started {
        let pool: BlockingThreads
        let index: Int
        let nice: Int
        init(pool: BlockingThreads, index: Int, nice: Int) {
            (self.pool, self.index, self.nice) = (pool, index, nice)
        }
    }

    /// Names the calling thread `name` in `/proc` (what `top -H` and `ps -L` show).
    private static func nameThread(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = Array(name.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// Moves the calling thread `steps` nice values down from the one it inherited (at most to
    /// 19). On Linux a nice value is a thread's own, so the daemon's other threads keep theirs;
    /// any process may lower its threads' priority, and none needs raising it back. Where the
    /// processor is contended, the scheduler then gives the event loops of the same group about
    /// ten times this thread's share at 10 steps; where it is free, the thread runs at full speed.
    /// (`who` 0 is the calling thread: Linux keeps the value per thread, against POSIX.)
    private static func lowerPriority(by steps: Int) {
        guard steps > 0 else { return }
        errno = 0
        let inherited = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        guard errno == 0 else { return }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(19, inherited + Int32(steps)))
    }

    /// Takes and runs jobs for as long as the process lives, as thread `index`.
    private func work(index: Int) {
        while true {
            while sem_wait(ready) != 0 {} // EINTR: a signal arrived; wait again
            let job = state.withLock { state -> @Sendable () -> Void in
                state.idle -= 1
                state.busySince[index] = .now
                let job = state.jobs[state.next]
                state.next += 1
                if state.next == state.jobs.count {
                    state.jobs.removeAll(keepingCapacity: true)
                    state.next = 0
                }
                return job
            }
            job()
            state.withLock { state in
                state.busySince[index] = nil
                state.idle += 1
            }
        }
    }
}
