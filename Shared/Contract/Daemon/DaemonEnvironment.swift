/// What a host (svc-supervisor, a systemd unit, a Kubernetes ConfigMap) tells a daemon in its
/// environment, beyond its socket, in names both sides read from one place: ServiceKit reads
/// them (`HostConfiguration`, `Callees`), the supervisor and the exports write them.
///
/// ```swift
/// environment[DaemonEnvironment.dependsOnVariable] = spec.dependsOn.joined(separator: ",")
/// ```
public enum DaemonEnvironment {
    /// The manifest's `depends_on` of the daemon it is given to: the names, comma-separated
    /// (empty when it declares none).
    public static let dependsOnVariable = DaemonSettings.dependsOn.name
    /// The manifest's `idle_exit`, in seconds: the daemon exits 0 once it has had no request in
    /// flight and no open stream for this long.
    public static let idleExitVariable = DaemonSettings.idleExitSeconds.name
    /// How long the daemon stays up after it starts before its idle exit may end it, in seconds:
    /// the bound on how often a caller (any caller: starting is not admission) can cycle it.
    public static let idleExitMinimumUptimeVariable = DaemonSettings.idleExitMinimumUptimeSeconds.name
    /// How long SIGTERM waits for in-flight requests before closing anyway, unless
    /// `VERTICALS_DRAIN_SECONDS` says otherwise (what exports add to a grace period).
    public static let defaultDrainTimeout: Duration = .seconds(10)
    /// How long a daemon's `--probe` waits for `daemon.health` when `VERTICALS_PROBE_TIMEOUT_SECONDS`
    /// is not set (what the Kubernetes probes' timeouts start from).
    public static let defaultProbeTimeout: Duration = .seconds(2)
}
