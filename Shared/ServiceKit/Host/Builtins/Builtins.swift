import VerticalsContract
import VerticalsObservability

/// Installs the ``Daemon`` operations (`daemon.*`) that every host answers beside its
/// vertical's own. Each built-in lives in its own file in this folder as a
/// `static func install…(into:configuration:)` called from ``install(into:configuration:)``.
enum Builtins {
    /// Adds every built-in operation to `router` that the vertical did not route itself;
    /// `metrics` is what the host counts (served by `daemon.metrics`; absent, so is that operation).
    /// `traces` is the host's span ring and recorder (served by `daemon.traces`; absent, it answers none).
    /// `loops` are the host's other loops, each of which `daemon.health` reaches.
    static func install(
        into router: inout Router, configuration: HostConfiguration, metrics: HostMetrics? = nil,
        traces: TraceRecorder? = nil, loops: HostLoops? = nil
    ) {
        installDescribe(into: &router, configuration: configuration)
        installContractCheck(into: &router, configuration: configuration)
        installHealth(into: &router, configuration: configuration, loops: loops)
        installLogLevel(into: &router, configuration: configuration)
        installBackup(into: &router, configuration: configuration)
        if let metrics { installMetrics(into: &router, configuration: configuration, metrics: metrics) }
        installTraces(into: &router, configuration: configuration, traces: traces)
    }
}
