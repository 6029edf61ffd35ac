import Tracing
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
    public var attributes: SpanAttributes
    /// The RPC facts of a sampled server or client span (nil: a summary, or a use case's span).
    public var rpc: RPCFields? {
        get { rpcBox?.fields }
        set { rpcBox = newValue.map(RPCBox.init) }
    }
    /// Boxed: a summary (most records) then copies one nil pointer into the ring, not ninety
    /// bytes of optional fields.
    private var rpcBox: RPCBox?

    /// A record of a finished span.
    public init(
        identity: TraceIdentity, name: String, kind: SpanKind, service: String, startNanoseconds: UInt64,
        durationNanoseconds: UInt64, code: ErrorCode?, attributes: SpanAttributes = [:], rpc: RPCFields? = nil
    ) {
        self.rpcBox = rpc.map(RPCBox.init)
        self.identity = identity
        self.name = name
        self.kind = kind
        self.service = service
        self.startNanoseconds = startNanoseconds
        self.durationNanoseconds = durationNanoseconds
        self.code = code
        self.attributes = attributes
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

/// ``RPCFields`` behind one reference (see ``SpanRecord/rpc``).
final class RPCBox: Sendable {
    let fields: RPCFields

    init(_ fields: RPCFields) {
        self.fields = fields
    }
}
