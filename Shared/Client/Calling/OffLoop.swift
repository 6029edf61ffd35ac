import VerticalsWire

/// Where a client runs work that grows with what a callee sends, so that its loop's cost per frame
/// stays bounded: a thread that is not an event loop's (a daemon's blocking-work threads, at the
/// daemon's priority).
///
/// A ``ServiceClient`` given one decodes an answer over ``ServiceClient/offLoopAnswerBytes`` there,
/// and ``CalleeContracts`` judges a callee's description that differs there. Without one (a tool
/// that calls a few operations) the work runs where it is asked.
///
/// ```swift
/// let offLoop = OffLoop { job in BlockingThreads.shared.run(job) }
/// ```
public struct OffLoop: Sendable {
    /// Runs a job there; false when it will not (a full queue).
    public let run: @Sendable (_ job: @escaping @Sendable () -> Void) -> Bool

    /// Jobs given to `run`.
    public init(_ run: @escaping @Sendable (_ job: @escaping @Sendable () -> Void) -> Bool) {
        self.run = run
    }
}

extension OffLoop {
    /// What `work` returns, worked on these threads; the caller resumes on its own executor. When
    /// they refuse the job (their queue is full), `refused`: the work is not done on the loop.
    nonisolated(nonsending) func result<Value: Sendable>(
        of work: @escaping @Sendable () throws(ServiceError) -> Value, refused: @autoclosure () -> ServiceError
    ) async throws(ServiceError) -> Value {
        let result = await withUnsafeContinuation {
            (continuation: UnsafeContinuation<Result<Value, ServiceError>, Never>) in
            // Resumed exactly once: by the job, or here when the job was refused (never run).
            let accepted = run { continuation.resume(returning: Result { () throws(ServiceError) in try work() }) }
            if !accepted { continuation.resume(returning: .failure(refused())) }
        }
        return try result.get()
    }
}
