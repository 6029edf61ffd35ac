/// A liveness check over the suite's own protocol: every `interval` after readiness, the
/// supervisor calls `daemon.health` on the service's socket; `failures` consecutive calls
/// unanswered within `timeout` (or answered with an error) and the service is killed and
/// restarted as failed, with the reason and its last status text recorded.
///
/// ```toml
/// liveness = { interval = "5s", timeout = "1s", failures = 2 }
/// ```
///
/// Off unless set: with no check, an idle supervisor has no timer to wake it.
public struct LivenessCheck: Sendable, Equatable {
    /// The wait between the end of one check and the start of the next.
    public var interval: Duration
    /// How long one call may take.
    public var timeout: Duration
    /// Consecutive failed calls that make the service dead (at least 1).
    public var failures: Int

    /// A check every `interval`, each within `timeout`, `failures` in a row to restart.
    public init(interval: Duration = .seconds(5), timeout: Duration = .seconds(1), failures: Int = 1) {
        self.interval = interval
        self.timeout = timeout
        self.failures = failures
    }
}
