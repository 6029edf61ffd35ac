import CoreMetrics
import Prometheus
import Synchronization
import VerticalsWire

/// What one host counts, through swift-metrics handles backed by its own Prometheus registry
/// (not the process-wide `MetricsSystem`, so several hosts in one test process never mix their
/// numbers): requests, errors by code and latency per operation, connections, requests in
/// flight, and the loop's queue depth. ``Builtins`` serves the registry as `daemon.metrics`.
///
/// Cost on the request path: every handle is made before the first request (per operation,
/// at start-up), so counting a request is one atomic increment and one uncontended lock around
/// the latency histogram; no allocation. Only a first error of an (operation, code) pair makes
/// its counter, once. The in-flight gauge, like the queue depth, is sampled when metrics are
/// read, not updated per request (two atomic compare-and-swap loops a request, read rarely).
final class HostMetrics: Sendable {
    /// The handles of one operation.
    final class OperationMetrics: Sendable {
        let name: String
        let requests: CoreMetrics.Counter
        let latency: CoreMetrics.Timer
        private let factory: PrometheusMetricsFactory
        /// Error counters by code, made at the first error of each code (the slow path).
        private let errors = Mutex<[String: CoreMetrics.Counter]>([:])

        init(name: String, factory: PrometheusMetricsFactory) {
            self.name = name
            self.factory = factory
            let labels = [("operation", name)]
            requests = CoreMetrics.Counter(label: "verticals_requests_total", dimensions: labels, factory: factory)
            latency = CoreMetrics.Timer(
                label: "verticals_request_duration_seconds", dimensions: labels, factory: factory)
        }

        /// Counts one answer with error `code`.
        func failed(_ code: ErrorCode) {
            let label = code.wireName
            let counter = errors.withLock { counters in
                if let counter = counters[label] { return counter }
                let counter = CoreMetrics.Counter(
                    label: "verticals_request_errors_total", dimensions: [("operation", name), ("code", label)],
                    factory: factory)
                counters[label] = counter
                return counter
            }
            counter.increment()
        }
    }

    /// The registry `daemon.metrics` renders.
    let registry: PrometheusCollectorRegistry
    /// Connections open now.
    let connectionsOpen: CoreMetrics.Meter
    /// Connections accepted since start.
    let connectionsAccepted: CoreMetrics.Counter
    /// Requests being served now, sampled when metrics are read (see ``countInFlight(with:)``).
    let inFlight: CoreMetrics.Meter
    /// Work items waiting for the loop thread, sampled when metrics are read.
    let queueDepth: CoreMetrics.Meter
    /// Requests for an operation this host does not route (kept apart: the name is the caller's).
    let unrouted: OperationMetrics
    private let operations: [String: OperationMetrics]
    /// Samples the requests in flight and the loops' queue depth; set once by the host, awaited
    /// when metrics are read (from whichever loop the asking connection lives on).
    private let loadCounter = Mutex<(@Sendable () async -> (inFlight: Int, queued: Int))?>(nil)
    /// The span export's counts, read at each exposition (nil: the daemon exports nothing).
    private let exportCounts = Mutex<(read: (@Sendable () -> OTLPExporter.Statistics?)?, last: OTLPExporter.Statistics)>(
        (nil, .init(queued: 0, exported: 0, dropped: 0)))
    private let factory: PrometheusMetricsFactory

    /// Handles for every operation in `operationNames`.
    init(operationNames: [String]) {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Requests here take tens of microseconds to a few milliseconds: finer buckets than the web-sized default.
        factory.defaultDurationHistogramBuckets = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .microseconds(2_500),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .microseconds(2_500_000), .seconds(5), .seconds(10),
        ]
        connectionsOpen = CoreMetrics.Meter(label: "verticals_connections_open", factory: factory)
        connectionsAccepted = CoreMetrics.Counter(label: "verticals_connections_accepted_total", factory: factory)
        inFlight = CoreMetrics.Meter(label: "verticals_requests_in_flight", factory: factory)
        queueDepth = CoreMetrics.Meter(label: "verticals_loop_queue_depth", factory: factory)
        self.factory = factory
        unrouted = OperationMetrics(name: "(unrouted)", factory: factory)
        var operations: [String: OperationMetrics] = [:]
        for name in operationNames { operations[name] = OperationMetrics(name: name, factory: factory) }
        self.operations = operations
    }

    /// The handles of `operation`, or ``unrouted``.
    func operation(_ operation: String) -> OperationMetrics {
        operations[operation] ?? unrouted
    }

    /// Makes `sample` the source of the in-flight and queue-depth gauges: the host sums them over
    /// every loop it serves on (each read on its own loop).
    func countLoad(with sample: @escaping @Sendable () async -> (inFlight: Int, queued: Int)) {
        loadCounter.withLock { $0 = sample }
    }

    /// Reads the span export's counts with `read` at each exposition.
    func countExports(with read: @escaping @Sendable () -> OTLPExporter.Statistics?) {
        exportCounts.withLock { $0.read = read }
    }

    /// Brings the export counters up to `read`'s counts (counters only rise: by the difference).
    private func updateExportCounts() {
        exportCounts.withLock { counts in
            guard let read = counts.read, let now = read() else { return }
            CoreMetrics.Counter(label: "verticals_trace_spans_exported_total", factory: factory)
                .increment(by: now.exported - counts.last.exported)
            CoreMetrics.Counter(label: "verticals_trace_spans_dropped_total", factory: factory)
                .increment(by: now.dropped - counts.last.dropped)
            CoreMetrics.Meter(label: "verticals_trace_export_queue", factory: factory).set(now.queued)
            counts.last = now
        }
    }

    /// The text exposition of every metric, the queue depth and requests in flight (of every
    /// loop) sampled now: the `daemon.metrics` handler, on any of the host's loops.
    func exposition() async -> String {
        updateExportCounts()
        if let sample = loadCounter.withLock({ $0 }) {
            let load = await sample()
            inFlight.set(load.inFlight)
            queueDepth.set(load.queued)
        }
        return registry.emitToString()
    }
}
