import VerticalsClient
import VerticalsWire

/// Where a route writes its answer once its handler has returned: a connection's outbound bytes
/// (``ServerConnection``), or a frame an in-process caller decodes (``InProcessAnswer``).
@usableFromInline
protocol AnswerTarget: AnyObject {
    /// Writes the frame `encode` appends as the answer to `request`, if it is still owed, and
    /// returns the frame's length; 0 when nothing was written (the request was answered already,
    /// its deadline passed or it was cancelled, or no one reads the connection any more).
    func answer(_ request: Answer, expectedBytes: Int, _ encode: (inout ByteWriter) -> Void) -> Int
}

/// The request a route answers, and where its answer goes: passed to the route, so that the
/// answer is encoded where it is sent, with no frame of its own in between.
@usableFromInline
struct Answer {
    @usableFromInline let target: any AnswerTarget
    /// The request's correlation id.
    @usableFromInline let id: UInt64
    /// Which request of its connection it is (``ServerConnection/InFlight/serial``).
    let serial: UInt64
    /// Whether its handler runs on the loop with no task (``Router/onSync(_:_:)``).
    let atOnce: Bool

    /// Answers with `output`, its frame built with room for what `hint` learnt.
    @inlinable
    func respond<Output: WireMessage>(_ output: Output, sized hint: FrameSizeHint) {
        let id = self.id
        let length = target.answer(self, expectedBytes: hint.capacity) { writer in
            Message.appendFrame(Envelope(kind: .response, correlationID: id), body: output, to: &writer)
        }
        if length > 0 { hint.record(length) }
    }
}

/// The answer of a route served in process: the frame it wrote, for the caller to decode.
final class InProcessAnswer: AnswerTarget {
    private(set) var frame: [UInt8] = []

    func answer(_ request: Answer, expectedBytes: Int, _ encode: (inout ByteWriter) -> Void) -> Int {
        var writer = ByteWriter(capacity: expectedBytes)
        encode(&writer)
        frame = writer.bytes
        return frame.count
    }

    /// The Output of the response frame written, as `Output`.
    func output<Output: WireMessage>(as _: Output.Type) throws -> Output {
        try Message(payload: Array(frame.dropFirst(FrameEncoder.headerSize))).decodeBody(as: Output.self)
    }
}
