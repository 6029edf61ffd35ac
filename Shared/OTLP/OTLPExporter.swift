import Glibc
import Synchronization
import VerticalsContract

/// Sends the spans a daemon keeps in full to an OpenTelemetry collector over OTLP/HTTP with
/// protobuf (`OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`, or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`).
///
/// - **Bounded**: spans wait in a queue of at most `capacity` (`OTEL_BSP_MAX_QUEUE_SIZE`, default
///   2048); past it a span is dropped and counted (``statistics``, `daemon.metrics`'
///   `verticals_trace_spans_dropped_total`), never waited for, so a slow or absent collector
///   costs the request path one lock and one count. A batch the collector does not take (refused,
///   unreachable, timed out) is dropped and counted the same way: no retry piles up.
/// - **Asleep when idle**: no timer runs while the queue is empty. The first span queued starts
///   the sender on a thread of its own (`ExportThread`), which waits the batch delay
///   (`OTEL_BSP_SCHEDULE_DELAY`, default 1000 ms) unless a full batch (512) is already there,
///   sends, and ends once the queue is empty. An idle daemon has no thread for it.
///
/// Why not swift-otel: it brings SwiftNIO (about 7 minutes more to build here, for one HTTP POST)
/// and its batch processor ticks while its queue is empty, which would wake an idle daemon. Why
/// not the daemon's own loop: its `Connection` speaks length-prefixed frames,
/// not HTTP; a blocking POST on a thread the framework owns needs neither, and never touches the
/// loop that serves requests, nor libdispatch's queues.
///
/// Plain `http://` only (a collector beside the daemon, or a sidecar); `https://` is refused at start.
///
/// A daemon's runtime (VerticalsServiceKit's `ServiceRuntime`) makes one from its environment
/// (``from(environment:service:)``) and hands it the spans its recorder keeps in full.
public final class OTLPExporter: Sendable {
    /// Spans queued, sent and dropped so far.
    public struct Statistics: Sendable, Equatable {
        /// Spans waiting to be sent.
        public var queued: Int
        /// Spans the collector accepted.
        public var exported: Int
        /// Spans dropped: queue full, or their batch not taken.
        public var dropped: Int
    }

    private struct State {
        var queue: [any OTLPSpan] = []
        var sending = false
        var statistics = Statistics(queued: 0, exported: 0, dropped: 0)
    }

    /// Where batches go.
    public let endpoint: OTLPEndpoint
    /// The vertical, sent as the resource's `service.name`.
    public let service: String
    /// The most spans that wait.
    public let capacity: Int
    /// The most spans one request carries.
    public let batchSize: Int
    /// How long the first span queued waits for others before its batch goes.
    public let delay: Duration
    /// How long one POST may take, connect included.
    public let timeout: Duration
    private let state = Mutex(State())

    /// An exporter of `service`'s spans to `endpoint`.
    public init(
        endpoint: OTLPEndpoint, service: String, capacity: Int = 2048, batchSize: Int = 512,
        delay: Duration = .seconds(1), timeout: Duration = .seconds(10)
    ) {
        self.endpoint = endpoint
        self.service = service
        self.capacity = max(1, capacity)
        self.batchSize = max(1, batchSize)
        self.delay = delay
        self.timeout = timeout
    }

    /// The exporter `environment` configures (`OTEL_EXPORTER_OTLP_ENDPOINT` or
    /// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`; `OTEL_BSP_MAX_QUEUE_SIZE`, `OTEL_BSP_SCHEDULE_DELAY`,
    /// `OTEL_BSP_MAX_EXPORT_BATCH_SIZE`, `OTEL_EXPORTER_OTLP_TIMEOUT` in ms); nil when none is
    /// named. Throws the reason an endpoint named cannot be used.
    public static func from(environment: [String: String], service: String) throws(OTLPEndpointError) -> OTLPExporter? {
        let endpoint: OTLPEndpoint
        if let url = environment[DaemonSettings.otlpTracesEndpoint.name], !url.isEmpty {
            endpoint = try OTLPEndpoint(url: url, appendingPath: nil)
        } else if let url = environment[DaemonSettings.otlpEndpoint.name], !url.isEmpty {
            endpoint = try OTLPEndpoint(url: url, appendingPath: "v1/traces")
        } else {
            return nil
        }
        func number(_ key: String, _ fallback: Int) -> Int {
            environment[key].flatMap { Int($0) }.map { max(1, $0) } ?? fallback
        }
        return OTLPExporter(
            endpoint: endpoint, service: service, capacity: number(DaemonSettings.otlpQueueSize.name, 2048),
            batchSize: number(DaemonSettings.otlpBatchSize.name, 512),
            delay: .milliseconds(number(DaemonSettings.otlpScheduleDelay.name, 1000)),
            timeout: .milliseconds(number(DaemonSettings.otlpTimeout.name, 10_000)))
    }

    /// Queues `span`, or drops and counts it when the queue is full; starts the sender if none
    /// runs. Never waits: called on whatever thread ended the span.
    public func export(_ span: any OTLPSpan) {
        let start = state.withLock { state -> Bool in
            guard state.queue.count < capacity else {
                state.statistics.dropped += 1
                return false
            }
            state.queue.append(span)
            guard !state.sending else { return false }
            state.sending = true
            return true
        }
        guard start, !ExportThread.start({ [self] in sendUntilEmpty() }) else { return }
        // No thread: the spans wait in the bounded queue, and the next one tries again.
        state.withLock { $0.sending = false }
    }

    /// Spans queued, sent and dropped so far.
    public var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.queued = state.queue.count
            return statistics
        }
    }

    /// On the sender's thread: batch after batch until the queue is empty, then the thread ends.
    private func sendUntilEmpty() {
        while true {
            if state.withLock({ $0.queue.count < batchSize }) { Self.sleep(delay) }
            let batch: [any OTLPSpan] = state.withLock { state in
                let batch = Array(state.queue.prefix(batchSize))
                state.queue.removeFirst(batch.count)
                return batch
            }
            let accepted =
                batch.isEmpty
                || OTLPPost.post(OTLPEncoding.request(service: service, spans: batch), to: endpoint, timeout: timeout)
            let done = state.withLock { state -> Bool in
                if accepted {
                    state.statistics.exported += batch.count
                } else {
                    state.statistics.dropped += batch.count
                }
                guard state.queue.isEmpty else { return false }
                state.sending = false
                return true
            }
            if done { return }
        }
    }

    private static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }
}
