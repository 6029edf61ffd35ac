import Synchronization
import Tracing
import VerticalsClient
import VerticalsWire

/// A span of a Verticals daemon, as swift-distributed-tracing sees it: server spans (one per
/// request served), client spans (one per call) and a use case's own (`withSpan`).
///
/// Only spans of a sampled trace are made as objects; an unsampled request costs no span, only
/// its summary in the ring (``TraceRecorder``). One that is not recording (``isRecording``
/// false: a use case's span in an unsampled trace) still carries its ids, so calls made inside
/// it are parented right, but it records nothing when it ends.
public final class VerticalsSpan: Tracing.Span {
    private struct State {
        var name: String
        /// Nil until one is set: an empty `SpanAttributes` is a dictionary made from a literal.
        var attributes: SpanAttributes?
        var rpc: RPCFields?
        var code: ErrorCode?
        var ended = false
    }

    /// Where it sits in its trace.
    public let identity: TraceIdentity
    /// Server, client or internal.
    public let kind: SpanKind
    /// Where it goes when it ends (nil: nowhere).
    let recorder: TraceRecorder?
    private let startNanoseconds: UInt64
    private let state: Mutex<State>

    package init(
        name: String, identity: TraceIdentity, kind: SpanKind, recorder: TraceRecorder?, startNanoseconds: UInt64,
        rpc: RPCFields? = nil
    ) {
        self.identity = identity
        self.kind = kind
        self.recorder = recorder
        self.startNanoseconds = startNanoseconds
        // Made in place: a local `State` handed to the generic `Mutex` was copied and dropped
        // through its value witnesses.
        self.state = Mutex(State(name: name, attributes: nil, rpc: rpc))
    }

    /// A context naming this span as the parent of what starts inside it.
    public var context: ServiceContext {
        var context = ServiceContext.topLevel
        context.verticalsSpan = SpanParent(identity: identity, recorder: recorder)
        return context
    }

    /// The span's name.
    public var operationName: String {
        get { state.withLock { $0.name } }
        set { state.withLock { $0.name = newValue } }
    }

    /// Its attributes: the RPC ones of a server or client span (``RPCFields``) and its own.
    /// Set, they replace its own; the RPC ones stay. Once the span has ended they live in its
    /// record (the ring, the exporter), and here read as empty.
    public var attributes: SpanAttributes {
        get {
            state.withLock { state in
                guard let rpc = state.rpc else { return state.attributes ?? SpanAttributes([:]) }
                var all = rpc.attributes(code: state.code)
                if let own = state.attributes { all.merge(own) }
                return all
            }
        }
        set { state.withLock { $0.attributes = newValue } }
    }

    /// Whether it will be kept when it ends: its trace is sampled and it has a recorder.
    public var isRecording: Bool { identity.sampled && recorder != nil }

    /// An error status marks the span failed (`internal` unless a code was set already).
    public func setStatus(_ status: SpanStatus) {
        guard status.code == .error else { return }
        state.withLock { $0.code = $0.code ?? .internal }
    }

    /// Events are not kept (the ring and the waterfall show spans only).
    public func addEvent(_ event: SpanEvent) {}

    /// Marks the span failed with the error's wire code (`ServiceError`), else `internal`.
    public func recordError<Instant: TracerInstant>(
        _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
    ) {
        let code = (error as? ServiceError)?.code ?? .internal
        state.withLock { $0.code = code }
    }

    /// Links are not kept.
    public func addLink(_ link: SpanLink) {}

    /// Sets how the RPC ended (`nil`: success), the request's and the answer's sizes when known.
    package func endRPC(_ code: ErrorCode?, requestBytes: Int? = nil, responseBytes: Int?) {
        state.withLock { state in
            state.code = code
            if let requestBytes { state.rpc?.requestBytes = requestBytes }
            state.rpc?.responseBytes = responseBytes
        }
    }

    /// Ends it at `instant`: a recording span goes to its recorder, once.
    public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        end(atNanoseconds: instant().nanosecondsSinceEpoch)
    }

    /// Ends it at `nanoseconds` since the epoch (see ``end(at:)``).
    package func end(atNanoseconds nanoseconds: UInt64) {
        guard let recorder, identity.sampled else { return }
        // Recorded from inside the lock, its parts moved out of the state (its attributes and RPC
        // facts are not read after the end): a copy of the state, or of a record made of it, cost
        // more than the rest of the span. The recorder takes its ring's lock and its exporters'
        // (which never block), and neither ever takes a span's: no cycle.
        state.withLock { state in
            guard !state.ended else { return }
            state.ended = true
            let attributes = state.attributes.take()
            let rpc = state.rpc.take()
            recorder.record(
                identity, name: state.name, kind: kind, startNanoseconds: startNanoseconds,
                durationNanoseconds: nanoseconds > startNanoseconds ? nanoseconds - startNanoseconds : 0,
                code: state.code,
                details: attributes == nil && rpc == nil ? nil : SpanDetails(attributes: attributes, rpc: rpc))
        }
    }
}

/// What a span hands to the spans and calls started inside it: its identity and its recorder.
public struct SpanParent: Sendable {
    /// The parent span's identity.
    public var identity: TraceIdentity
    /// The recorder its children report to.
    var recorder: TraceRecorder?
}

/// The ``ServiceContext`` key of the Verticals span that is current.
enum VerticalsSpanKey: ServiceContextKey {
    typealias Value = SpanParent
    static var nameOverride: String? { "verticals-span" }
}

extension ServiceContext {
    /// The Verticals span a context names as parent, if any.
    public internal(set) var verticalsSpan: SpanParent? {
        get { self[VerticalsSpanKey.self] }
        set { self[VerticalsSpanKey.self] = newValue }
    }
}
