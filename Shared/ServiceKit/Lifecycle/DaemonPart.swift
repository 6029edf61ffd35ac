/// One part of a daemon that runs for as long as the daemon does: its host, its background
/// work, its client. Run on the daemon's loop by a ``DaemonLifecycle``, in the shape of
/// swift-service-lifecycle's `Service` but not one: a daemon that also runs that library's
/// services joins its `ServiceGroup` whole (`VerticalsServiceLifecycle`'s `VerticalService`).
///
/// `run()` returns when the part is done. Shutdown is the task's cancellation: the lifecycle
/// cancels a part's task when the daemon stops, and `run()` then finishes its work (drains,
/// awaits its tasks, closes) and returns. A `run()` that returns or throws on its own ends the
/// whole daemon: the lifecycle shuts the other parts down and reports the error.
///
/// ```swift
/// struct Heartbeat: DaemonPart {
///     func run() async throws {
///         await waitForShutdown()      // until the daemon stops
///         // … finish up
///     }
/// }
/// ```
public protocol DaemonPart: Sendable {
    /// Runs the part until its task is cancelled (shutdown), then ends it; throws when it cannot run.
    func run() async throws
}
