import Tracing
import VerticalsClient
import VerticalsContract
import VerticalsObservability
import VerticalsWire

extension Builtins {
    /// Serves `daemon.traces` from the host's ring (``SpanRing``): a trace's spans in start order,
    /// or the slowest server spans held; none when the host traces nothing.
    static func installTraces(into router: inout Router, configuration: HostConfiguration, traces: TraceRecorder?) {
        guard !router.routes(Daemon.traces.fullName) else { return }
        let service = configuration.name
        router.on(Daemon.traces) { input, _ in
            guard let ring = traces?.ring else { return Daemon.Traces(service: service, spans: []) }
            let records: [SpanRecord]
            if let text = input.traceID {
                guard let id = Hex.traceID(text) else {
                    throw ServiceError(
                        .invalidInput,
                        "\"\(text)\" is not a trace id: 32 hex digits, as `svc-supervisor call --trace` prints",
                        details: [ErrorDetail("field", "traceID")])
                }
                records = ring.trace(high: id.high, low: id.low).sorted { $0.startNanoseconds < $1.startNanoseconds }
            } else {
                records = ring.slowest(max(0, min(Int(input.slowest), ring.capacity)))
            }
            return Daemon.Traces(service: service, spans: records.map(Self.info))
        }
    }

    /// A span as `daemon.traces` answers it.
    static func info(_ record: SpanRecord) -> Daemon.SpanInfo {
        let identity = record.identity
        let kind: String
        switch record.kind {
        case .server: kind = "server"
        case .client: kind = "client"
        default: kind = "internal"
        }
        return Daemon.SpanInfo(
            traceID: identity.traceID, spanID: identity.spanIDText,
            parentSpanID: identity.parentSpanID == 0 ? "" : Hex.word(identity.parentSpanID), name: record.name,
            kind: kind, service: record.service, startMicroseconds: Int(record.startNanoseconds / 1000),
            durationMicroseconds: Int(record.durationNanoseconds / 1000), code: record.codeText,
            sampled: identity.sampled)
    }
}
