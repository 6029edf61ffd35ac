import CLibUV

/// The loop as a Swift executor, so async code can run on the loop thread without hops.
///
/// ```swift
/// Task(executorPreference: loop) {
///     // nonisolated async code: runs on the loop thread, and resumes there after every await
///     let reply = try await client.call(request)
///     connection.write(reply)
/// }
/// ```
///
/// Jobs share the FIFO queue of ``execute(_:)`` and run in the loop's check phase, right after
/// the I/O callbacks that resumed them; a job enqueued from the loop thread costs no syscall.
extension EventLoop: SerialExecutor, TaskExecutor {
    /// Queues a job of a task that runs on, or prefers, this loop. Dropped once the loop stopped.
    public func enqueue(_ job: consuming ExecutorJob) {
        _ = enqueue(.job(UnownedJob(job)))
    }

    /// This loop as a serial executor (for actors whose `unownedExecutor` is the loop).
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// This loop as a task executor (for `Task(executorPreference:)` and `withTaskExecutorPreference`).
    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    /// Stops the process unless the caller runs on the loop thread (`assumeIsolated` uses it).
    public func checkIsolated() {
        preconditionInEventLoop()
    }

    /// True on the loop thread: the loop's isolation is exactly "running on its thread".
    public func isIsolatingCurrentContext() -> Bool? {
        inEventLoop
    }
}
