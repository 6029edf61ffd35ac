import IOInterface
import VerticalsContract
import VerticalsWire

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
        requestFrame(bodySize: size).count - 4
    }

    /// A whole request frame for `echo` carrying `size` body bytes, as our client sends it: what
    /// the C client sends when it times our server.
    static func requestFrame(bodySize size: Int, kind: MessageKind = .request) -> [UInt8] {
        let envelope = Envelope(
            kind: kind, correlationID: 1_000_000, operation: echo.fullName, deadlineMicroseconds: 5_000_000)
        return Message.frame(envelope, body: Blob(size: size))
    }

    /// Where in a frame's payload the envelope keeps its kind, and the byte of a response: the C
    /// echo rewrites that byte to answer our client. Found by comparing a request with a response,
    /// so it follows the envelope's layout rather than restating it.
    static let responseKindByte: (offset: Int, value: UInt8) = {
        let request = requestFrame(bodySize: 0).dropFirst(4)
        let response = requestFrame(bodySize: 0, kind: .response).dropFirst(4)
        let differing = zip(request.indices, zip(request, response)).filter { $0.1.0 != $0.1.1 }
        precondition(differing.count == 1, "a request and a response differ in \(differing.count) bytes, not 1")
        return (differing[0].0 - request.startIndex, differing[0].1.1)
    }()
}
