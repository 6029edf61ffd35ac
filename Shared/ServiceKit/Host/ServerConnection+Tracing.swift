import Logging
import Tracing
import VerticalsWire

extension ServerConnection {
    /// The server span of a sampled request, with the RPC attributes known when it starts
    /// (OpenTelemetry RPC semantic conventions: `rpc.system`, `rpc.service`, `rpc.method`; the
    /// Unix peer's pid and uid, or the TCP transport; the request's size in bytes).
    func serverSpan(_ trace: TraceIdentity, _ message: Message, _ traces: TraceRecorder, _ now: MonotonicInstant) -> VerticalsSpan {
        let span = VerticalsSpan(
            name: message.envelope.operation, identity: trace, kind: .server, recorder: traces,
            startNanoseconds: SpanClock.epochNanoseconds(now))
        var attributes = RPCAttributes.of(operation: message.envelope.operation)
        if let peer = connection.peerCredentials {
            attributes["network.transport"] = "unix"
            attributes["verticals.peer.pid"] = Int64(peer.pid)
            attributes["verticals.peer.uid"] = Int64(peer.uid)
        } else {
            attributes["network.transport"] = "tcp"
        }
        attributes["rpc.request.size"] = Int64(message.payload.count)
        span.attributes = attributes
        return span
    }

    /// Ends request `context`'s server span: a sampled one with its code and answer size; an
    /// unsampled one leaves its summary in the ring (and is exported when it failed: a failed
    /// request's local span is always kept). At `debug` the request logs its one line.
    func endServerSpan(
        _ context: RequestContext, started: MonotonicInstant, ended: MonotonicInstant, _ failure: ErrorCode?,
        responseBytes: Int?
    ) {
        guard let traces, let trace = context.trace else { return }
        let end = SpanClock.epochNanoseconds(ended)
        if let span = context.span {
            span.attributes = RPCAttributes.ended(span.attributes, failure, responseBytes: responseBytes)
            span.setCode(failure)
            span.end(atNanoseconds: end)
        } else {
            let start = SpanClock.epochNanoseconds(started)
            traces.record(SpanRecord(
                identity: trace, name: context.operation, kind: .server, service: traces.service,
                startNanoseconds: start, durationNanoseconds: end > start ? end - start : 0, code: failure))
        }
        if RuntimeLogLevel.allowsDebug { logServed(context, trace, ended - started, failure) }
    }

    /// The one `debug` line of a request served: operation, code, duration, trace and span ids.
    private func logServed(_ context: RequestContext, _ trace: TraceIdentity, _ duration: Duration, _ failure: ErrorCode?) {
        let code = failure.map { "\($0)" } ?? "ok"
        logger.debug(
            "served \(context.operation) code=\(code) duration_us=\(duration.wholeNanoseconds / 1000)",
            metadata: ["trace_id": "\(trace.traceID)", "span_id": "\(trace.spanIDText)", "id": "\(context.correlationID)"])
    }
}

/// The OpenTelemetry RPC attributes of a Verticals call or request.
enum RPCAttributes {
    /// `rpc.system` = `verticals`, `rpc.service` and `rpc.method` from `service.operation`.
    static func of(operation: String) -> SpanAttributes {
        var attributes = SpanAttributes()
        attributes["rpc.system"] = "verticals"
        if let dot = operation.firstIndex(of: ".") {
            attributes["rpc.service"] = String(operation[..<dot])
            attributes["rpc.method"] = String(operation[operation.index(after: dot)...])
        } else {
            attributes["rpc.service"] = operation
        }
        return attributes
    }

    /// `attributes` with the outcome: `rpc.verticals.code` (`ok` or the wire error code) and the
    /// answer's size when one was sent.
    static func ended(_ attributes: SpanAttributes, _ failure: ErrorCode?, responseBytes: Int?) -> SpanAttributes {
        var attributes = attributes
        attributes["rpc.verticals.code"] = failure.map { "\($0)" } ?? "ok"
        if let responseBytes { attributes["rpc.response.size"] = Int64(responseBytes) }
        return attributes
    }
}
