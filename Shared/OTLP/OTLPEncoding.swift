import Tracing

/// The few OTLP messages an export sends (`opentelemetry/proto/collector/trace/v1`'s
/// `ExportTraceServiceRequest` down to `Span`, `KeyValue` and `AnyValue`), encoded by hand.
///
/// Hand-written rather than generated: SwiftProtobuf would be one more package and a code
/// generator for six messages that only ever go out; the encoding below is the protobuf wire
/// format's varints, fixed64s and length-delimited fields, nothing more.
enum OTLPEncoding {
    /// `ExportTraceServiceRequest` with one `ResourceSpans` (resource `service.name` = `service`)
    /// holding `spans` under the instrumentation scope `verticals`.
    static func request(service: String, spans: [any OTLPSpan]) -> [UInt8] {
        var scope = ProtobufWriter()
        scope.message(1) { $0.string(1, "verticals") }
        for span in spans { scope.message(2) { encode(span, into: &$0) } }
        var resource = ProtobufWriter()
        resource.message(1) { $0.message(1) { keyValue("service.name", .string(service), into: &$0) } }
        resource.bytes(2, scope.bytes)
        var request = ProtobufWriter()
        request.bytes(1, resource.bytes)
        return request.bytes
    }

    /// One `Span`.
    static func encode(_ span: any OTLPSpan, into writer: inout ProtobufWriter) {
        let trace = span.traceID
        writer.bytes(1, bigEndian(trace.high) + bigEndian(trace.low))
        writer.bytes(2, bigEndian(span.spanID))
        if span.parentSpanID != 0 { writer.bytes(4, bigEndian(span.parentSpanID)) }
        writer.string(5, span.name)
        writer.varint(6, kind(span.kind))
        writer.fixed64(7, span.startNanoseconds)
        writer.fixed64(8, span.startNanoseconds &+ span.durationNanoseconds)
        span.allAttributes.forEach { key, value in
            if let value = AttributeValue(value) { writer.message(9) { keyValue(key, value, into: &$0) } }
        }
        writer.message(15) { status in
            if let failure = span.failure {
                status.string(2, failure)
                status.varint(3, 2) // STATUS_CODE_ERROR
            } else {
                status.varint(3, 1) // STATUS_CODE_OK
            }
        }
    }

    /// OTLP's `SpanKind`: internal 1, server 2, client 3, producer 4, consumer 5.
    static func kind(_ kind: SpanKind) -> UInt64 {
        switch kind {
        case .internal: 1
        case .server: 2
        case .client: 3
        case .producer: 4
        case .consumer: 5
        @unknown default: 1
        }
    }

    /// An attribute value OTLP's `AnyValue` carries (arrays are left out).
    enum AttributeValue {
        case string(String)
        case bool(Bool)
        case int(Int64)
        case double(Double)

        init?(_ attribute: SpanAttribute) {
            switch attribute {
            case .string(let value): self = .string(value)
            case .bool(let value): self = .bool(value)
            case .int64(let value): self = .int(value)
            case .int32(let value): self = .int(Int64(value))
            case .double(let value): self = .double(value)
            case .stringConvertible(let value): self = .string("\(value)")
            default: return nil
            }
        }
    }

    /// One `KeyValue`.
    static func keyValue(_ key: String, _ value: AttributeValue, into writer: inout ProtobufWriter) {
        writer.string(1, key)
        writer.message(2) { any in
            switch value {
            case .string(let text): any.string(1, text)
            case .bool(let flag): any.varint(2, flag ? 1 : 0)
            case .int(let number): any.varint(3, UInt64(bitPattern: number))
            case .double(let number): any.fixed64(4, number.bitPattern)
            }
        }
    }

    private static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> UInt64(56 - 8 * $0)) }
    }
}

/// Protobuf's wire format, writing only: varint (0), fixed64 (1) and length-delimited (2) fields.
struct ProtobufWriter {
    /// What was written so far.
    private(set) var bytes: [UInt8] = []

    mutating func varint(_ field: UInt32, _ value: UInt64) {
        key(field, 0)
        raw(value)
    }

    mutating func fixed64(_ field: UInt32, _ value: UInt64) {
        key(field, 1)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func bytes(_ field: UInt32, _ value: [UInt8]) {
        key(field, 2)
        raw(UInt64(value.count))
        bytes += value
    }

    mutating func string(_ field: UInt32, _ value: String) {
        bytes(field, Array(value.utf8))
    }

    /// A nested message, written by `body` into its own writer.
    mutating func message(_ field: UInt32, _ body: (inout ProtobufWriter) -> Void) {
        var nested = ProtobufWriter()
        body(&nested)
        bytes(field, nested.bytes)
    }

    private mutating func key(_ field: UInt32, _ wireType: UInt32) {
        raw(UInt64(field << 3 | wireType))
    }

    private mutating func raw(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }
}
