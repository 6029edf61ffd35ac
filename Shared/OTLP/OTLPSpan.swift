import Tracing

/// What an OTLP export reads of a finished span: where it sits in its trace, what it did, when,
/// for how long and how it ended. VerticalsServiceKit's `SpanRecord` is one.
///
/// Read on the exporter's own thread, when the batch is encoded: a span's attributes are
/// gathered there, not on the thread that ended it.
public protocol OTLPSpan: Sendable {
    /// The trace's 16-byte id, as its high and low halves.
    var traceID: (high: UInt64, low: UInt64) { get }
    /// The span's own 8-byte id.
    var spanID: UInt64 { get }
    /// The parent span's id; 0 for a trace's root.
    var parentSpanID: UInt64 { get }
    /// The span's name: `service.operation` for RPC spans.
    var name: String { get }
    /// Server, client, internal, producer or consumer.
    var kind: SpanKind { get }
    /// Start, nanoseconds since the Unix epoch.
    var startNanoseconds: UInt64 { get }
    /// Duration in nanoseconds.
    var durationNanoseconds: UInt64 { get }
    /// Every attribute the span exports.
    var allAttributes: SpanAttributes { get }
    /// How it failed, sent as the status message with `STATUS_CODE_ERROR`; nil: it succeeded.
    var failure: String? { get }
}
