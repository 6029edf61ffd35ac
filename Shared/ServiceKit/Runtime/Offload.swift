/// Runs blocking work (password hashing, file I/O) off the event loop, so the loop keeps
/// serving other requests; the caller resumes on its own executor when the work is done.
///
/// The work runs on threads the framework owns (``BlockingThreads``), never on libdispatch's
/// global queues: their worker-pool monitor would wake the daemon every second from the first
/// offload on, and `daemon.health`, which every liveness check calls, offloads.
///
/// ```swift
/// let hash = try await Offload.run { try PasswordHasher.hash(password) }
/// ```
public enum Offload {
    /// Runs `work` on one of the framework's blocking-work threads and returns its result.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            BlockingThreads.shared.run {
                continuation.resume(with: Result { try work() })
            }
        }
    }
}
