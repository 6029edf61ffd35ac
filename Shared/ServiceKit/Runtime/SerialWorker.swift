import VerticalsClient
/// One framework-owned thread that runs blocking jobs in the order they were given: file work
/// that must not stall the loop and must happen in sequence (the supervisor's log rotations).
///
/// Unlike a serial `DispatchQueue`, which runs on libdispatch's global pool and, once used, lets
/// its monitor wake the process every second for ever, the thread is parked on a semaphore
/// between jobs and costs no wake-up (`BlockingThreads` with one thread).
///
/// ```swift
/// let archive = SerialWorker()
/// archive.run { compress(file) }
/// archive.waitForPending()  // at close: every job given so far has run
/// ```
public final class SerialWorker: Sendable {
    // Unbounded: its jobs (log rotations, an archive's compression) are few, and each must run.
    private let thread = BlockingThreads(limit: 1, queueLimit: nil)

    /// A worker; its thread starts with the first job.
    public init() {}

    /// Runs `job` on the worker's thread after every job given before it.
    public func run(_ job: @escaping @Sendable () -> Void) {
        thread.run(job)
    }

    /// Blocks the calling thread until every job given before this call has run.
    /// Never call it from a job of this worker: it would wait for itself.
    public func waitForPending() {
        let done = BlockingResult<Void>()
        thread.run { done.set(()) }
        done.wait()
    }
}
