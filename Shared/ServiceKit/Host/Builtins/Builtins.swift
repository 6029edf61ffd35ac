import IOInterface

/// Installs the ``Daemon`` operations (`daemon.*`) that every host answers beside its
/// vertical's own. Each built-in lives in its own file in this folder as a
/// `static func install…(into:configuration:)` called from ``install(into:configuration:)``.
enum Builtins {
    /// Adds every built-in operation to `router` that the vertical did not route itself;
    /// `metrics` is what the host counts (served by `daemon.metrics`).
    static func install(into router: inout Router, configuration: HostConfiguration, metrics: HostMetrics) {
        installDescribe(into: &router, configuration: configuration)
        installHealth(into: &router, configuration: configuration)
        installMetrics(into: &router, configuration: configuration, metrics: metrics)
    }
}
