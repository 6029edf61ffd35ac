/// What else restarts when a service restarts, after Erlang/OTP's supervisor strategies.
///
/// ```toml
/// [services.identity]
/// strategy = "rest_for_one"     # clinics, records… (its dependents) restart after it
///
/// [services.ledger]
/// strategy = "one_for_all"      # every service of group "payments" restarts with it
/// group = "payments"
/// ```
///
/// The others are stopped in reverse start order before the failed service starts again, and
/// start again in start order, each once what it depends on (and, in a group, every member
/// before it) is ready. Under systemd, `depends_on` maps to `Wants=`, which is `one_for_one`.
public enum RestartStrategy: String, Sendable, Equatable, CaseIterable {
    /// Only the service itself restarts (the default).
    case oneForOne = "one_for_one"
    /// The services that depend on it, directly or not, restart after it, in dependency order.
    case restForOne = "rest_for_one"
    /// Every service of its `group` restarts, in start order.
    case oneForAll = "one_for_all"
}
