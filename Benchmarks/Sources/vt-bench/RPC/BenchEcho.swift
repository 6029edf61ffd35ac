import IOInterface
import Wire

/// The contract of the benchmark's echo vertical: one operation that answers its input.
/// Lives here, not in IOInterface: it is a measuring instrument, not part of the product.
enum BenchEcho: ServiceContract {
    static let name = "bench"
    static let summary = "Answers the bytes it is sent (the benchmark's RPC echo)."
    static let echo = Operation<Blob, Blob>(name, "echo", summary: "Answer the payload as sent.")
    static let operations = [echo.descriptor]

    /// An opaque payload.
    struct Blob: WireMessage {
        var payload: [UInt8]

        init(payload: [UInt8]) {
            self.payload = payload
        }

        /// A payload of `size` bytes.
        init(size: Int) {
            payload = (0..<size).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        }

        static let schema = MessageSchema("bench.Blob", [.defaulted(1, "payload", .bytes, .bytes([]))])

        func encode(to body: inout BodyWriter) {
            body.write(1, payload)
        }

        init(from body: inout BodyReader) throws(WireDecodingError) {
            var payload: [UInt8] = []
            while let tag = try body.nextTag() {
                switch tag {
                case 1: payload = try body.read()
                default: try body.skip()
                }
            }
            self.payload = payload
        }
    }

    /// The payload length of a request frame carrying `size` body bytes, so the C echo sends
    /// exactly as many bytes as our stack does (envelope, operation, deadline, body).
    static func framePayloadLength(bodySize size: Int) -> Int {
        let envelope = Envelope(
            kind: .request, correlationID: 1_000_000, operation: echo.fullName, deadlineMicroseconds: 5_000_000)
        return Message.frame(envelope, body: Blob(size: size)).count - 4
    }
}
