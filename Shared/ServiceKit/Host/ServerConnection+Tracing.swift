import Logging
import Tracing
import VerticalsClient
import VerticalsObservability
import VerticalsWire

extension ServerConnection {
    /// The server span of a sampled request, with the RPC attributes known when it starts
    /// (OpenTelemetry RPC semantic conventions: `rpc.system`, `rpc.service`, `rpc.method`; the
    /// Unix peer's pid and uid, or the TCP transport; the request's size in bytes).
    func serverSpan(
        _ trace: TraceIdentity, _ message: Message, _ traces: TraceRecorder, _ lane: TraceLane, _ now: MonotonicInstant
    ) -> VerticalsSpan {
        let peer = connection.peerCredentials
        return VerticalsSpan(
            name: message.envelope.operation, identity: trace, kind: .server, recorder: traces,
            startNanoseconds: lane.epochNanoseconds(now),
            rpc: RPCFields(
                operation: message.envelope.operation, transport: peer == nil ? "tcp" : "unix", peer: peer,
                requestBytes: message.payloadCount))
    }

    /// Ends request `context`'s server span: a sampled one with its code and answer size; an
    /// unsampled one leaves its summary in the ring (and is exported when it failed: a failed
    /// request's local span is always kept). At `debug` the request logs its one line.
    func endServerSpan(
        _ context: RequestContext, started: MonotonicInstant, ended: MonotonicInstant, _ failure: ErrorCode?,
        responseBytes: Int?
    ) {
        guard let traceLane, let trace = context.trace else { return }
        if let span = context.span {
            span.endRPC(failure, responseBytes: responseBytes)
            span.end(atNanoseconds: traceLane.epochNanoseconds(ended))
        } else {
            traceLane.recordSummary(trace, name: context.operation, started: started, ended: ended, code: failure)
        }
        if RuntimeLogLevel.allowsDebug { logServed(context, trace, ended - started, failure) }
    }

    /// A request refused before it ran (no such operation, a caller it does not admit, too many
    /// in flight on the connection) still leaves its server span: a summary in the ring, and to
    /// the exporter as any failed request's span. (A request left unread while the host drains
    /// is no refusal: the next process serves it, and its span.)
    func recordRefusal(_ envelope: Envelope, _ code: ErrorCode, receivedAt: MonotonicInstant) {
        guard let traceLane else { return }
        let trace = traceLane.serverIdentity(traceparent: envelope.traceparent)
        traceLane.recordSummary(trace, name: envelope.operation, started: receivedAt, ended: .now, code: code)
    }

    /// The one `debug` line of a request served: operation, code, duration, trace and span ids.
    private func logServed(
        _ context: RequestContext, _ trace: TraceIdentity, _ duration: Duration, _ failure: ErrorCode?
    ) {
        let code = failure.map { "\($0)" } ?? "ok"
        logger.debug(
            "served \(context.operation) code=\(code) duration_us=\(duration.wholeNanoseconds / 1000)",
            metadata: [
                "trace_id": "\(trace.traceID)", "span_id": "\(trace.spanIDText)", "id": "\(context.correlationID)",
            ])
    }
}
