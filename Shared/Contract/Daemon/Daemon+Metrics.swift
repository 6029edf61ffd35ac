import VerticalsWire
extension Daemon {
    /// The daemon's own counters in the Prometheus text exposition format (version 0.0.4):
    /// requests, errors by code and latency per operation, open connections, requests in
    /// flight and the loop's queue depth. `svc-supervisor metrics` gathers every daemon's,
    /// labels each with its service, and adds the supervisor's view (restarts, state, RSS).
    public static let metrics = Operation<Empty, Metrics>(
        name, "metrics",
        summary: "Report the daemon's request, error, latency, connection and queue metrics as Prometheus text.",
        errors: [.deadlineExceeded, .unavailable])
}
