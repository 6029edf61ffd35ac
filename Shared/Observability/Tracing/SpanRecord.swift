import Tracing
import VerticalsClient
import VerticalsWire

/// A finished span as a daemon keeps it (``SpanRing``) and exports it: where it sits in its
/// trace, what it did, when, for how long and how it ended.
///
/// A server span that was not sampled is kept as a summary: the same record with no
/// attributes. Its strings are the ones the request already held (no copy).
public struct SpanRecord: Sendable {
    /// Trace, span and parent ids, and the sampled flag.
    public var identity: TraceIdentity
    /// The span's name: `service.operation` for RPC spans.
    public var name: String
    /// Server, client or internal (a use case's own span).
    public var kind: SpanKind
    /// The vertical whose daemon recorded it.
    public var service: String
    /// Start, nanoseconds since the Unix epoch.
    public var startNanoseconds: UInt64
    /// Duration in nanoseconds.
    public var durationNanoseconds: UInt64
    /// How it ended: nil for success, else the wire error code.
    public var code: ErrorCode?
    /// A span's own attributes (a use case's); empty for a summary.
    public var attributes: SpanAttributes {
        get { details?.attributes ?? SpanAttributes([:]) }
        set { details = SpanDetails.make(attributes: newValue, rpc: rpc) }
    }
    /// The RPC facts of a sampled server or client span (nil: a summary, or a use case's span).
    public var rpc: RPCFields? {
        get { details?.rpc }
        set { details = SpanDetails.make(attributes: attributes, rpc: newValue) }
    }
    /// The attributes and RPC facts behind one reference, nil when it has neither (a summary,
    /// most records): the ring then stores and drops a record as a few plain words, its name and
    /// its service, where a dictionary and ninety bytes of optional fields cost copies and
    /// releases on every request.
    private(set) var details: SpanDetails?

    /// A record of a finished span.
    public init(
        identity: TraceIdentity, name: String, kind: SpanKind, service: String, startNanoseconds: UInt64,
        durationNanoseconds: UInt64, code: ErrorCode?, attributes: SpanAttributes = [:], rpc: RPCFields? = nil
    ) {
        self.init(
            identity: identity, name: name, kind: kind, service: service, startNanoseconds: startNanoseconds,
            durationNanoseconds: durationNanoseconds, code: code,
            details: SpanDetails.make(attributes: attributes, rpc: rpc))
    }

    /// A record whose attributes and RPC facts are `details` (nil for a summary: no dictionary made).
    init(
        identity: TraceIdentity, name: String, kind: SpanKind, service: String, startNanoseconds: UInt64,
        durationNanoseconds: UInt64, code: ErrorCode?, details: SpanDetails?
    ) {
        self.identity = identity
        self.name = name
        self.kind = kind
        self.service = service
        self.startNanoseconds = startNanoseconds
        self.durationNanoseconds = durationNanoseconds
        self.code = code
        self.details = details
    }

    /// Every attribute, as exported: the RPC ones (``RPCFields/attributes(code:)``) and the span's own.
    public var allAttributes: SpanAttributes {
        guard let rpc else { return attributes }
        var all = rpc.attributes(code: code)
        all.merge(attributes)
        return all
    }

    /// The code as shown: `ok` or the error code's name.
    public var codeText: String { code.map { "\($0)" } ?? "ok" }
}

/// A span's own attributes and its RPC facts, behind one reference (see ``SpanRecord/rpc``).
final class SpanDetails: Sendable {
    /// The span's own attributes; nil when it has none (an empty one is a dictionary built from a literal).
    let attributes: SpanAttributes?
    let rpc: RPCFields?

    init(attributes: SpanAttributes?, rpc: RPCFields?) {
        self.attributes = attributes
        self.rpc = rpc
    }

    /// The details of a span with `attributes` and `rpc`; nil when it has neither.
    static func make(attributes: SpanAttributes, rpc: RPCFields?) -> SpanDetails? {
        attributes.isEmpty && rpc == nil
            ? nil : SpanDetails(attributes: attributes.isEmpty ? nil : attributes, rpc: rpc)
    }
}
