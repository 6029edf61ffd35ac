import Tracing
import VerticalsClient
import VerticalsWire

/// The client span of one call (`ServiceClient`): made only when the trace is sampled; an
/// unsampled call costs no span, only the traceparent naming its parent (its request's span).
enum ClientSpan {
    /// The traceparent to send and, when sampled, the call's span, child of `parent`.
    static func start(
        _ operation: String, service: String, parent: SpanParent, at now: MonotonicInstant
    ) -> (traceparent: String, span: VerticalsSpan?) {
        guard parent.identity.sampled, let recorder = parent.recorder else {
            return (parent.identity.traceparent, nil)
        }
        let span = VerticalsSpan(
            name: operation, identity: parent.identity.child(spanID: TraceIDs.next()), kind: .client,
            recorder: recorder, startNanoseconds: SpanClock.epochNanoseconds(now),
            rpc: RPCFields(operation: operation, peerService: service))
        return (span.identity.traceparent, span)
    }

    /// Ends a call's span with its outcome and sizes.
    static func end(_ span: VerticalsSpan, _ result: Result<Message, ServiceError>, requestBytes: Int) {
        switch result {
        case .success(let message):
            span.endRPC(nil, requestBytes: requestBytes, responseBytes: message.payload.count)
        case .failure(let error):
            span.endRPC(error.code, requestBytes: requestBytes, responseBytes: nil)
        }
        span.end(atNanoseconds: SpanClock.epochNanoseconds(.now))
    }
}

/// The runtime's `CallTracing`: a call's parent is the current ``ServiceContext``'s span (a use
/// case's own `withSpan`), else the span of the request it serves.
package struct VerticalsCallTracing: CallTracing {
    /// The runtime's tracing, which holds nothing of its own: the recorder is the span parent's.
    package init() {}

    package func startCall(
        _ operation: String, service: String, origin: (any CallOrigin)?, at now: MonotonicInstant
    ) -> (traceparent: String, span: (any CallSpan)?)? {
        guard let parent = ServiceContext.current?.verticalsSpan ?? (origin as? any TracedRequest)?.spanParent else {
            return nil
        }
        let (traceparent, span) = ClientSpan.start(operation, service: service, parent: parent, at: now)
        return (traceparent, span.map(ClientCallSpan.init))
    }
}

/// A sampled call's span (one reference: it fits an existential's inline buffer).
struct ClientCallSpan: CallSpan {
    let span: VerticalsSpan

    func endCall(_ result: Result<Message, ServiceError>, requestBytes: Int) {
        ClientSpan.end(span, result, requestBytes: requestBytes)
    }
}
