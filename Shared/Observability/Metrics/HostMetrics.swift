import CoreMetrics
import Prometheus
import Synchronization
import VerticalsEventLoop
import VerticalsWire

/// What one host counts: connections through swift-metrics handles backed by its own Prometheus
/// registry (not the process-wide `MetricsSystem`, so several hosts in one test process never
/// mix their numbers), the loops' queue depth and requests in flight, and per operation the
/// requests, errors by code and latency each loop counts (``LoopCounts``). ``Builtins`` serves it
/// all as `daemon.metrics`.
///
/// Cost on the request path: none here. A request is counted in its loop's ``OperationCounts``
/// (plain additions, no lock or atomic), and the loops' counts are added up only when metrics
/// are read. The in-flight gauge, like the queue depth, is sampled then too.
package final class HostMetrics: Sendable {
    /// The registry `daemon.metrics` renders.
    package let registry: PrometheusCollectorRegistry
    /// Connections open now.
    package let connectionsOpen: CoreMetrics.Meter
    /// Connections accepted since start.
    package let connectionsAccepted: CoreMetrics.Counter
    /// TLS peers dropped at accept, before their handshake, for the startup bounds
    /// (`VERTICALS_MAX_STARTUPS`, `VERTICALS_MAX_STARTUPS_PER_ADDRESS`).
    package let connectionsDropped: CoreMetrics.Counter
    /// Accepts that failed for want of a descriptor (`EMFILE`, `ENFILE`): the peer was closed.
    package let acceptDescriptorShortages: CoreMetrics.Counter
    /// Requests being served now, sampled when metrics are read (see ``countInFlight(with:)``).
    package let inFlight: CoreMetrics.Meter
    /// Work items waiting for the loop thread, sampled when metrics are read.
    package let queueDepth: CoreMetrics.Meter
    /// Samples every loop: its requests in flight, queue depth and request counts; set once by
    /// the host, awaited when metrics are read (from whichever loop the asking connection lives on).
    private let loadCounter = Mutex<(@Sendable () async -> LoadSample)?>(nil)
    /// The span export's counts, read at each exposition (nil: the daemon exports nothing).
    private let exportCounts = Mutex<(read: (@Sendable () -> SpanExportStatistics?)?, last: SpanExportStatistics)>(
        (nil, .init(queued: 0, exported: 0, dropped: 0)))
    private let factory: PrometheusMetricsFactory

    /// What every loop holds now, summed (``countLoad(with:)``).
    package struct LoadSample: Sendable {
        package var inFlight = 0
        package var queued = 0
        package var requests = RequestCounts()

        /// Nothing in flight, nothing counted.
        package init() {}
    }

    /// A host's registry, empty.
    package init() {
        registry = PrometheusCollectorRegistry()
        let factory = PrometheusMetricsFactory(registry: registry)
        connectionsOpen = CoreMetrics.Meter(label: "verticals_connections_open", factory: factory)
        connectionsAccepted = CoreMetrics.Counter(label: "verticals_connections_accepted_total", factory: factory)
        connectionsDropped = CoreMetrics.Counter(
            label: "verticals_connections_dropped_unadmitted_total", factory: factory)
        acceptDescriptorShortages = CoreMetrics.Counter(
            label: "verticals_accept_descriptor_shortages_total", factory: factory)
        inFlight = CoreMetrics.Meter(label: "verticals_requests_in_flight", factory: factory)
        queueDepth = CoreMetrics.Meter(label: "verticals_loop_queue_depth", factory: factory)
        self.factory = factory
    }

    /// The live heap's gauge (``VerticalsEventLoop/EventLoop/heapInUseBytes``), sampled when
    /// metrics are read: what a connection's requests left allocated, without the free memory
    /// the allocator keeps (which the resident size counts).
    package static let heapInUseLabel = "verticals_heap_in_use_bytes"

    /// Makes `sample` the source of the in-flight and queue-depth gauges and of the request
    /// counts: the host sums them over every loop it serves on (each read on its own loop).
    package func countLoad(with sample: @escaping @Sendable () async -> LoadSample) {
        loadCounter.withLock { $0 = sample }
    }

    /// Reads the span export's counts with `read` at each exposition.
    package func countExports(with read: @escaping @Sendable () -> SpanExportStatistics?) {
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

    /// The text exposition of every metric, the queue depth, requests in flight and request
    /// counts (of every loop) sampled now: the `daemon.metrics` handler, on any of the host's loops.
    package func exposition() async -> String {
        updateExportCounts()
        var requests = RequestCounts()
        if let sample = loadCounter.withLock({ $0 }) {
            let load = await sample()
            inFlight.set(load.inFlight)
            queueDepth.set(load.queued)
            requests = load.requests
        }
        CoreMetrics.Meter(label: Self.heapInUseLabel, factory: factory).set(EventLoop.heapInUseBytes)
        CoreMetrics.Meter(label: BoundedCacheMemory.label, factory: factory).set(BoundedCacheMemory.bytes)
        return registry.emitToString() + requests.exposition
    }
}
