import VerticalsContract

/// When a suite first has every service up: the moment a foreground `up` says so in one line
/// ("all 5 services ready in 2.4 s"), so that nobody needs `status` to learn it.
///
/// A service counts as up when it is ready, or idle until its first caller (`start = "on-demand"`:
/// its socket is held and answers). The line is said once: a later crash or restart has lines of
/// its own.
enum SuiteReadiness {
    /// Whether a service in `state` counts as up.
    static func isUp(_ state: Supervisor.ServiceState) -> Bool { state == .ready || state == .idle }

    /// Follows `states` (``SupervisorEngine/followStates()``: each service's status now, then each
    /// change) until every one of `services` is up at the same time; true then, false when the
    /// stream ends first (the supervisor stopped, or the task was cancelled).
    static func waitForAll(_ services: Set<String>, in states: AsyncStream<Supervisor.ServiceStatus>) async -> Bool {
        var up: Set<String> = []
        if services.isEmpty { return true }
        for await status in states where services.contains(status.name) {
            if isUp(status.state) { up.insert(status.name) } else { up.remove(status.name) }
            if up.count == services.count { return true }
        }
        return false
    }

    /// The line: how many services, and how long since `up` started.
    static func line(services: Int, after elapsed: Duration) -> String {
        "all \(services) service\(services == 1 ? "" : "s") ready in \(ServiceUnit.text(elapsed))"
    }
}
