import VerticalsContract
import VerticalsManifest

/// The export's times, from the manifest and the daemon runtime's own defaults, in one place so
/// that the objects and the tests that check them agree.
///
/// A stop under Kubernetes: the pod is marked terminating and its endpoint removed (the removal
/// reaches proxies and callers a moment later, kubernetes/kubernetes#43576); `preStop` sleeps
/// ``KubernetesLayout/preStopSeconds`` meanwhile, the daemon still serving whatever arrives; then
/// SIGTERM: the daemon stops accepting, finishes the requests in flight within its drain time
/// (`VERTICALS_DRAIN_SECONDS`, default ``DaemonEnvironment/defaultDrainTimeout``), stops its
/// background work and closes its store. The grace period covers all of it.
enum KubernetesTiming {
    /// What a daemon may take after its drain, to cancel its background work and close its store.
    static let closeMargin: Duration = .seconds(5)
    /// What an exec probe's process needs beyond its call: starting, and making its loop.
    static let probeStartMargin = 2

    /// The drain time the daemon will use: its `env`'s `VERTICALS_DRAIN_SECONDS`, else the runtime's default.
    static func drain(_ spec: ServiceSpec) -> Duration {
        if let text = spec.environment[DaemonSettings.drainSeconds.name], let value = Double(text), value >= 0 {
            return .milliseconds(Int64(value * 1000))
        }
        return DaemonEnvironment.defaultDrainTimeout
    }

    /// `terminationGracePeriodSeconds`: preStop + drain + the close margin, and never less than
    /// preStop + the manifest's `stop_timeout` (what svc-supervisor and systemd allow).
    static func gracePeriodSeconds(_ spec: ServiceSpec, layout: KubernetesLayout) -> Int {
        let afterSignal = max(drain(spec) + closeMargin, spec.stopTimeout)
        return layout.preStopSeconds + wholeSeconds(afterSignal)
    }

    /// The `daemon.health` deadline of `--probe`: the manifest's `liveness.timeout`, else the runtime's default.
    static func probeTimeout(_ spec: ServiceSpec) -> Duration {
        spec.liveness?.timeout ?? DaemonEnvironment.defaultProbeTimeout
    }

    /// A probe's `timeoutSeconds`: the call's deadline and the process's start.
    static func probeTimeoutSeconds(_ spec: ServiceSpec) -> Int {
        wholeSeconds(probeTimeout(spec)) + probeStartMargin
    }

    /// `duration` in whole seconds, rounded up, at least 1.
    static func wholeSeconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))
    }

    /// `duration` as a number of seconds for an environment variable: `2`, `0.5`.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
        if milliseconds % 1000 == 0 { return String(milliseconds / 1000) }
        var fraction = String(milliseconds % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(milliseconds / 1000).\(fraction)"
    }
}
