/// A failure to build a daemon's World that knows how `--check` and the supervisors should take
/// it: a store that is missing or held by the running daemon is no failure for `--check`, and
/// one that belongs to another vertical will fail the same way after any restart.
///
/// ``ServiceRuntime`` asks it when the World cannot be built; VerticalsStorage's `StoreError`
/// conforms, so the runtime knows no database.
///
/// ```swift
/// extension StoreError: StartFailure {
///     public func checkAnswer(service: String, stateDirectory: String) -> String? { code == .missing ? "…" : nil }
/// }
/// ```
public protocol StartFailure: Error {
    /// What `svc-<service> --check` says, ending with status 0, when this failure is not one for
    /// a check (no store yet; a store the running daemon holds); nil when it is a failure.
    func checkAnswer(service: String, stateDirectory: String) -> String?

    /// Whether starting again would fail the same way (exit `DaemonExitStatus.restartCannotHelp`).
    var restartCannotHelp: Bool { get }
}
