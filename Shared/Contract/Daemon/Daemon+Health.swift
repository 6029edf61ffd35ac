import VerticalsWire
extension Daemon {
    /// Liveness over the protocol itself: answered by a routed handler, run as a task like any
    /// other request and through the pool that runs blocking work, so a stuck loop, executor or
    /// pool fails it (a protocol `ping`, answered on the loop thread, would still pass).
    /// `svc-supervisor` calls it per its manifest's `liveness` and restarts a daemon that fails it.
    public static let health = Operation<Empty, Health>(
        name, "health",
        summary: "Prove the daemon serves requests: routed, run as a task, through the blocking-work pool.",
        errors: [.deadlineExceeded, .unavailable])
}
