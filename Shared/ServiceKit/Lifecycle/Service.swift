/// One part of a daemon that runs for as long as the daemon does: its host, its background
/// work, its client. The shape of swift-service-lifecycle's `Service`, run on the daemon's loop
/// by a ``ServiceGroup``.
///
/// `run()` returns when the part is done. Graceful shutdown is the task's cancellation: the
/// group cancels a service's task when the daemon stops, and `run()` then finishes its work
/// (drains, awaits its tasks, closes) and returns. A `run()` that returns or throws on its own
/// ends the whole daemon: the group shuts the other services down and reports the error.
///
/// ```swift
/// struct Heartbeat: Service {
///     func run() async throws {
///         await gracefulShutdown()      // until the daemon stops
///         // … finish up
///     }
/// }
/// ```
public protocol Service: Sendable {
    /// Runs the service until its task is cancelled (graceful shutdown), then ends it; throws
    /// when it cannot run.
    func run() async throws
}
