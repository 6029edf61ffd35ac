import Glibc
import Synchronization
import Tracing
import VerticalsClient
import VerticalsWire

/// Where a daemon's finished spans go: its ring (every server span, sampled or not) and, for
/// the spans kept in full (sampled, or a failed request's), its exporter if one is set.
///
/// One per host; the spans of a request reach the recorder of the host that served it. A host on
/// several event loops records through one lane per loop (`lanes`), so that a request
/// writes nothing another loop writes.
public final class TraceRecorder: Sendable {
    /// The vertical whose spans these are (OpenTelemetry `service.name`).
    public let service: String
    /// Whether and how much this daemon samples.
    public let sampling: TraceSampling
    /// The recent spans, for `daemon.traces`.
    public let ring: SpanRing
    private let exporters: SpanExporters
    /// One per lane of ``ring``.
    private let lanes: [TraceLane]

    /// A recorder for `service`'s spans, sampling as `sampling` says, keeping the last
    /// `ringCapacity` in its ring: for a host on one event loop.
    public convenience init(service: String, sampling: TraceSampling, ringCapacity: Int = 1024) {
        self.init(service: service, sampling: sampling, ringCapacity: ringCapacity, lanes: 1)
    }

    /// A recorder for `service`'s spans, sampling as `sampling` says, keeping the last
    /// `ringCapacity` in its ring, split into `lanes` lanes: one per event loop that serves
    /// requests (`VERTICALS_LOOPS`).
    public init(service: String, sampling: TraceSampling, ringCapacity: Int = 1024, lanes: Int) {
        self.service = service
        self.sampling = sampling
        let ring = SpanRing(capacity: ringCapacity, service: service, lanes: lanes)
        let exporters = SpanExporters()
        self.ring = ring
        self.exporters = exporters
        self.lanes = ring.lanes.map { TraceLane(ring: $0, service: service, sampling: sampling, exporters: exporters) }
    }

    /// Sends every span kept in full from now on to `exporter` too.
    public func add(exporter: any SpanExporting) {
        exporters.add(exporter)
    }

    /// What the exporters that count (an OTLP exporter) queued, sent and dropped, summed; nil:
    /// none is set.
    public var exportStatistics: SpanExportStatistics? {
        let counts = exporters.all.compactMap(\.exportStatistics)
        guard !counts.isEmpty else { return nil }
        var sum = SpanExportStatistics(queued: 0, exported: 0, dropped: 0)
        for statistics in counts {
            sum.queued += statistics.queued
            sum.exported += statistics.exported
            sum.dropped += statistics.dropped
        }
        return sum
    }

    /// Keeps a finished span: in the ring always; exported when sampled or failed.
    public func record(_ record: SpanRecord) {
        ring.append(record)
        exporters.export(record)
    }

    /// The lane of event loop `index` (counted from 0, the loop that accepts).
    package func lane(_ index: Int) -> TraceLane {
        lanes[index % lanes.count]
    }

    /// Keeps a finished span given by its fields, as ``record(_:)`` does: written into the ring
    /// field by field, so the request path makes no attribute dictionary and copies no record;
    /// a record is made only for an exporter.
    func record(
        _ identity: TraceIdentity, name: String, kind: SpanKind, startNanoseconds: UInt64,
        durationNanoseconds: UInt64, code: ErrorCode?, details: SpanDetails?
    ) {
        ring.append(
            identity, name: name, kind: kind, service: nil, startNanoseconds: startNanoseconds,
            durationNanoseconds: durationNanoseconds, code: code, details: details)
        exporters.export(
            identity, name: name, kind: kind, service: service, startNanoseconds: startNanoseconds,
            durationNanoseconds: durationNanoseconds, code: code, details: details)
    }

    /// The identity of a server span, as the first lane's `serverIdentity(traceparent:)`.
    package func serverIdentity(traceparent: String?) -> TraceIdentity {
        lanes[0].serverIdentity(traceparent: traceparent)
    }
}

/// One event loop's way into its host's ``TraceRecorder``: that loop's lane of the ring, and its
/// own counter for new ids. Everything a request writes for its span is the lane's alone, so
/// two loops serving requests side by side never take the same lock, update the same atomic or
/// write the same cache line for them: on two loops, a shared lock and counter had each request
/// wait for cache lines the other loop's core held. A kept span's exporters are shared.
package final class TraceLane: Sendable {
    private let ring: SpanRing.Lane
    private let exporters: SpanExporters
    private let service: String
    /// The sampling threshold, worked out once (``TraceSampling/threshold``): a new trace is
    /// sampled when its id's low half is below it, or when every trace is.
    private let sampleBelow: UInt64
    private let samplesAll: Bool
    /// ``SpanClock/offset``, read once into the lane rather than through a lazy global's
    /// `swift_once` per request.
    private let clockOffset = SpanClock.offset
    /// The counter this lane's new ids are drawn from (``TraceIDs``), seeded at random.
    private let idCounter = Atomic<UInt64>(UInt64.random(in: 1...UInt64.max))
    /// Keeps the next lane's counter off this one's cache line, whichever of the two the
    /// allocator placed first.
    private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

    init(ring: SpanRing.Lane, service: String, sampling: TraceSampling, exporters: SpanExporters) {
        self.ring = ring
        self.service = service
        self.exporters = exporters
        self.sampleBelow = sampling.threshold ?? .max
        self.samplesAll = sampling.threshold == nil
    }

    /// The identity of a server span for a request that brought `traceparent`: its child, or the
    /// root of a new trace sampled at this daemon's ratio when it brought none (or a broken one).
    package func serverIdentity(traceparent: String?) -> TraceIdentity {
        let draw = idCounter.wrappingAdd(TraceIDs.gamma, ordering: .relaxed).newValue
        if let traceparent, let parent = TraceIdentity.parse(traceparent: traceparent) {
            return TraceIdentity(
                traceHigh: parent.traceHigh, traceLow: parent.traceLow, spanID: TraceIDs.id(draw: draw),
                parentSpanID: parent.parent, sampled: parent.sampled)
        }
        let root = TraceIDs.root(draw: draw)
        return TraceIdentity(
            traceHigh: root.high, traceLow: root.low, spanID: root.span, sampled: samplesAll || root.low < sampleBelow)
    }

    /// Keeps the summary of an unsampled server span (a ``SpanRecord`` with no attributes): in
    /// this lane of the ring, and exported when it failed.
    package func recordSummary(
        _ identity: TraceIdentity, name: String, started: MonotonicInstant, ended: MonotonicInstant, code: ErrorCode?
    ) {
        let start = epochNanoseconds(started)
        let end = epochNanoseconds(ended)
        let duration = end > start ? end - start : 0
        ring.append(
            identity, name: name, kind: .server, service: nil, startNanoseconds: start, durationNanoseconds: duration,
            code: code, details: nil)
        exporters.export(
            identity, name: name, kind: .server, service: service, startNanoseconds: start,
            durationNanoseconds: duration, code: code, details: nil)
    }

    /// `instant` as nanoseconds since the Unix epoch (``SpanClock``).
    package func epochNanoseconds(_ instant: MonotonicInstant) -> UInt64 {
        SpanClock.epochNanoseconds(instant, offset: clockOffset)
    }
}

/// A recorder's exporters, shared by its lanes: read only for a span kept in full.
final class SpanExporters: Sendable {
    private let exporters = Mutex<[any SpanExporting]>([])

    func add(_ exporter: any SpanExporting) {
        exporters.withLock { $0.append(exporter) }
    }

    var all: [any SpanExporting] { exporters.withLock { $0 } }

    /// Sends `record` to every exporter when it is kept in full.
    func export(_ record: SpanRecord) {
        guard Self.keptInFull(record.identity, record.code) else { return }
        for exporter in all { exporter.export(record) }
    }

    /// Sends the span given by its fields to every exporter when it is kept in full: the record
    /// is made only then.
    func export(
        _ identity: TraceIdentity, name: String, kind: SpanKind, service: String, startNanoseconds: UInt64,
        durationNanoseconds: UInt64, code: ErrorCode?, details: SpanDetails?
    ) {
        guard Self.keptInFull(identity, code) else { return }
        let exporters = all
        guard !exporters.isEmpty else { return }
        let record = SpanRecord(
            identity: identity, name: name, kind: kind, service: service, startNanoseconds: startNanoseconds,
            durationNanoseconds: durationNanoseconds, code: code, details: details)
        for exporter in exporters { exporter.export(record) }
    }

    /// Whether a span is exported: when sampled, or when its request failed (a failed request's
    /// local span is always kept).
    private static func keptInFull(_ identity: TraceIdentity, _ code: ErrorCode?) -> Bool {
        identity.sampled || code != nil
    }
}

/// Takes the spans a daemon keeps in full, e.g. to send them to a collector (VerticalsOTLP's
/// `OTLPExporter`). Called on whatever thread ended the span: it must not block.
public protocol SpanExporting: Sendable {
    /// Takes one finished span; drops it rather than wait.
    func export(_ record: SpanRecord)
    /// What it queued, sent and dropped so far, for `daemon.metrics`; nil: it does not count.
    var exportStatistics: SpanExportStatistics? { get }
}

extension SpanExporting {
    /// An exporter that does not count.
    public var exportStatistics: SpanExportStatistics? { nil }
}

/// Spans an exporter queued, sent and dropped so far (`daemon.metrics`'
/// `verticals_trace_export_queue`, `verticals_trace_spans_exported_total` and
/// `verticals_trace_spans_dropped_total`).
public struct SpanExportStatistics: Sendable, Equatable {
    /// Spans waiting to be sent.
    public var queued: Int
    /// Spans the collector accepted.
    public var exported: Int
    /// Spans dropped: queue full, or their batch not taken.
    public var dropped: Int

    /// Counts of `queued`, `exported` and `dropped` spans.
    public init(queued: Int, exported: Int, dropped: Int) {
        (self.queued, self.exported, self.dropped) = (queued, exported, dropped)
    }
}

/// Wall-clock time for spans without a second clock read per request: the monotonic instant the
/// request path already has, plus the offset between the two clocks read once per process.
package enum SpanClock {
    static let offset: Int64 = {
        var real = timespec()
        clock_gettime(CLOCK_REALTIME, &real)
        let realNanos = Int64(real.tv_sec) &* 1_000_000_000 &+ Int64(real.tv_nsec)
        return realNanos &- MonotonicInstant.now.nanoseconds
    }()

    /// `instant` as nanoseconds since the Unix epoch.
    package static func epochNanoseconds(_ instant: MonotonicInstant) -> UInt64 {
        epochNanoseconds(instant, offset: offset)
    }

    /// `instant` as nanoseconds since the Unix epoch, given ``offset`` read earlier.
    static func epochNanoseconds(_ instant: MonotonicInstant, offset: Int64) -> UInt64 {
        UInt64(max(0, instant.nanoseconds &+ offset))
    }
}
