import Tracing
import VerticalsClient

/// The swift-distributed-tracing `Tracer` of a Verticals daemon, bootstrapped once per process
/// by the daemon's runtime (``TracingBootstrap``), so a use case adds a span of its own with the
/// ecosystem's API:
///
/// ```swift
/// try await InstrumentationSystem.tracer.withSpan("appointments.commit") { span in
///     try await store.write { … }
/// }
/// ```
///
/// A span's parent is the span current in its `ServiceContext`, else the request the task
/// serves (`Serving/request`, a ``TracedRequest``), whose server span the host made: no second task-local
/// is bound per request. A span started outside any request starts a trace, sampled at this
/// daemon's ratio, and goes to `recorder`.
public struct VerticalsTracer: Tracer {
    /// The span type.
    public typealias Span = VerticalsSpan

    /// Where spans started outside any request go (the daemon's own).
    public let recorder: TraceRecorder?

    /// A tracer whose spans outside any request go to `recorder`.
    public init(recorder: TraceRecorder?) {
        self.recorder = recorder
    }

    /// Starts a span, child of the current span or request (see the type's summary).
    public func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> VerticalsSpan {
        let start = instant().nanosecondsSinceEpoch
        if let parent = context().verticalsSpan ?? SpanParent.ofCurrentRequest {
            return VerticalsSpan(
                name: operationName, identity: parent.identity.child(spanID: TraceIDs.next()), kind: kind,
                recorder: parent.recorder, startNanoseconds: start)
        }
        let identity =
            recorder?.serverIdentity(traceparent: nil)
            ?? TraceIdentity(
                traceHigh: TraceIDs.next(), traceLow: TraceIDs.next(), spanID: TraceIDs.next(), sampled: false)
        return VerticalsSpan(
            name: operationName, identity: identity, kind: kind, recorder: recorder, startNanoseconds: start)
    }

    /// Spans are handed on as they end; nothing is buffered here.
    public func forceFlush() {}

    /// Reads a W3C `traceparent` from `carrier` into `context`.
    public func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        guard let text = extractor.extract(key: "traceparent", from: carrier),
            let parent = TraceIdentity.parse(traceparent: text)
        else { return }
        context.verticalsSpan = SpanParent(
            identity: TraceIdentity(
                traceHigh: parent.traceHigh, traceLow: parent.traceLow, spanID: parent.parent, sampled: parent.sampled),
            recorder: recorder)
    }

    /// Writes the context's span as a W3C `traceparent` into `carrier`.
    public func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        guard let parent = context.verticalsSpan else { return }
        injector.inject(parent.identity.traceparent, forKey: "traceparent", into: &carrier)
    }
}

extension SpanParent {
    /// The span of the request the current task serves, if tracing is on.
    static var ofCurrentRequest: SpanParent? {
        Serving.traced?.spanParent
    }

    /// The parent of a call or span started now: the current ``ServiceContext``'s span, else the
    /// request's. (Reads the service context only when it is bound: calls outside any `withSpan`
    /// pay one task-local lookup.)
    static var current: SpanParent? {
        ServiceContext.current?.verticalsSpan ?? ofCurrentRequest
    }
}
