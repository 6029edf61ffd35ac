import VerticalsWire

/// Runs blocking work (password hashing, file I/O) off the event loop, so the loop keeps
/// serving other requests; the caller resumes on its own executor when the work is done.
///
/// The work runs on threads the framework owns (`BlockingThreads`), never on libdispatch's
/// global queues: their worker-pool monitor would wake the daemon every second from the first
/// offload on, and `daemon.health`, which every liveness check calls, offloads.
///
/// The queue in front of those threads is bounded (``BlockingWorkLimits``): when it is full,
/// ``run(_:)`` throws `resourceExhausted`, which a caller may retry, instead of letting work
/// pile up for ever behind slow jobs.
///
/// ```swift
/// let hash = try await Offload.run { try PasswordHasher.hash(password) }
/// ```
public enum Offload {
    /// Runs `work` on one of the framework's blocking-work threads and returns its result.
    /// Throws `resourceExhausted` without running it when the queue is full.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await run(on: .shared, work)
    }

    /// Runs CPU-bound `work` (a password hash) on a thread that yields the processor to serving,
    /// and returns its result: a pool of its own, as many threads as processors, each
    /// ``BlockingWorkLimits/computeNice`` nice steps below the daemon. So a burst of such work
    /// does not make the daemon's event loops, or, in the same scheduling group, other
    /// daemons, wait for a processor; it still runs at full speed on a free one. Blocking I/O
    /// belongs in ``run(_:)``, whose threads keep the daemon's priority, and which `daemon.health`
    /// proves moving: a job here computes, and does not wait on anything that could wedge. Throws
    /// `resourceExhausted` without running it when the pool's queue is full.
    ///
    /// ```swift
    /// let hash = try await Offload.compute { try passwords.hash(password) }
    /// ```
    public static func compute<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await run(on: .compute, work)
    }

    /// ``run(_:)`` on `pool`.
    static func run<T: Sendable>(on pool: BlockingThreads, _ work: @escaping @Sendable () throws -> T) async throws -> T
    {
        try await withCheckedThrowingContinuation { continuation in
            let accepted = pool.run {
                continuation.resume(with: Result { try work() })
            }
            if !accepted { continuation.resume(throwing: queueFull(pool)) }
        }
    }

    /// Applies `limits` to the process's pools, for the work given from now on (and
    /// ``BlockingWorkLimits/computeNice`` to the ``compute(_:)`` threads started from now on).
    public static func configure(_ limits: BlockingWorkLimits) {
        BlockingThreads.shared.configure(limits)
        BlockingThreads.compute.configure(limits, nice: limits.computeNice)
    }

    /// Proves `pool` is not wedged without waiting behind its queue: an empty job through it
    /// when a thread takes it at once; when every thread is busy, that one took its job within
    /// the stall limit. Throws `unavailable` when every thread has been on its job longer.
    static func proveMoving(_ pool: BlockingThreads) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            switch pool.probe({ continuation.resume() }) {
            case .queued:
                break // the job resumes it
            case .progressing:
                continuation.resume()
            case .wedged(let threads, let since):
                continuation.resume(
                    throwing: ServiceError(
                        .unavailable,
                        "the blocking-work pool is wedged: each of its \(threads) threads has run one job for "
                            + "\(since.components.seconds) s (\(BlockingWorkLimits.stallVariable) sets how long is too long)"
                    ))
            }
        }
    }

    private static func queueFull(_ pool: BlockingThreads) -> ServiceError {
        ServiceError(
            .resourceExhausted,
            "the \(pool.name) queue is full: its \(pool.limit) threads are busy and \(pool.queueLimit ?? 0) jobs wait "
                + "(\(BlockingWorkLimits.queueVariable)); try again shortly")
    }
}
