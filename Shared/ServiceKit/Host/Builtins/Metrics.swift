import VerticalsContract
import VerticalsObservability

extension Builtins {
    /// Serves `daemon.metrics`: the host's registry (``HostMetrics``) in the Prometheus text
    /// exposition format, with the loops' queue depth and requests in flight sampled at the moment of asking.
    static func installMetrics(into router: inout Router, configuration: HostConfiguration, metrics: HostMetrics) {
        guard !router.routes(Daemon.metrics.fullName) else { return }
        let service = configuration.name
        let contracts = configuration.calleeContracts
        router.on(Daemon.metrics) { _, _ in
            Daemon.Metrics(service: service, exposition: await metrics.exposition() + (contracts?.exposition ?? ""))
        }
    }
}
