/// A decoded frame: its envelope and where its body lies.
///
/// Made from a payload of its own (``init(payload:)``) or in place, from the bytes a
/// connection read (``init(frame:knownOperation:)``): then ``payload`` is the read buffer the
/// frame lies in, shared rather than copied, and the frame is `payloadStart..<bodyEnd` of it.
/// Such a message is for the handler that received it; one kept past it keeps that buffer, and
/// the connection's next read copies the buffer instead of reusing it: keep ``detached()``
/// instead.
public struct Message: Sendable {
    /// The frame's header.
    public var envelope: Envelope
    /// The bytes the frame lies in: its whole payload (envelope and body), or the read buffer it
    /// was decoded from in place, of which it is `payloadStart..<bodyEnd`.
    public var payload: [UInt8]
    /// The offset in ``payload`` where the frame's payload (its envelope) starts: 0 unless decoded in place.
    public var payloadStart: Int
    /// The offset in ``payload`` where the body starts.
    public var bodyStart: Int
    /// The offset in ``payload`` one past the body's last byte: `payload.count` unless decoded in place.
    public var bodyEnd: Int

    /// The length of the frame's payload, envelope and body.
    @inlinable
    public var payloadCount: Int { bodyEnd - payloadStart }

    /// The length of the body.
    @inlinable
    public var bodyCount: Int { bodyEnd - bodyStart }

    /// The body bytes (a copy).
    public var body: [UInt8] { ByteReader(payload, start: bodyStart, end: bodyEnd).remainingBytes() }

    /// Parses a frame payload's envelope.
    public init(payload: [UInt8]) throws(EnvelopeError) {
        var reader = ByteReader(payload)
        envelope = try Envelope.read(from: &reader)
        self.payload = payload
        payloadStart = 0
        bodyStart = reader.index
        bodyEnd = payload.count
    }

    /// Parses the envelope of the frame payload `frame` reads, in place: nothing is copied
    /// (see the borrowing rules above). `knownOperation` is asked for the operation's name given
    /// its bytes, before any `String` is made of them: a name it returns is used as it is (one
    /// that already exists costs no allocation, whatever its length), and on nil the name is
    /// decoded from the bytes.
    public init(
        frame: ByteReader, knownOperation: (UnsafeRawBufferPointer) -> String? = { _ in nil }
    ) throws(EnvelopeError) {
        var reader = frame
        envelope = try Envelope.read(from: &reader, knownOperation: knownOperation)
        payload = frame.storage
        payloadStart = frame.index
        bodyStart = reader.index
        bodyEnd = frame.end
    }

    /// This message with a payload of its own (a copy of its frame), to keep past the handler
    /// that received it in place; itself when it already has one.
    public func detached() -> Message {
        guard payloadStart != 0 || bodyEnd != payload.count else { return self }
        var copy = self
        copy.payload = ByteReader(payload, start: payloadStart, end: bodyEnd).remainingBytes()
        copy.bodyStart = bodyStart - payloadStart
        copy.bodyEnd = bodyEnd - payloadStart
        copy.payloadStart = 0
        return copy
    }

    /// Decodes the body as `T`.
    @inlinable
    public func decodeBody<T: WireMessage>(as _: T.Type = T.self) throws(WireDecodingError) -> T {
        try T(decoding: payload, from: bodyStart, to: bodyEnd)
    }

    /// Builds a whole frame, length prefix included, ready to write: one allocation.
    ///
    /// ```swift
    /// let bytes = Message.frame(Envelope(kind: .request, correlationID: 7, operation: "clinics.get"), body: input)
    /// ```
    @inlinable
    public static func frame(_ envelope: Envelope, body: some WireMessage, capacity: Int = 128) -> [UInt8] {
        var writer = ByteWriter(capacity: capacity)
        appendFrame(envelope, body: body, to: &writer)
        return writer.bytes
    }

    /// Appends a whole frame, length prefix included, to what `writer` holds: one buffer for
    /// several frames, such as a connection's outbound bytes.
    @inlinable
    public static func appendFrame(_ envelope: Envelope, body: some WireMessage, to writer: inout ByteWriter) {
        let start = writer.count
        // One buffer, written in place throughout: handing a ByteWriter over by value shared
        // its array for a moment, and the next write copied it.
        var bodyWriter = BodyWriter(buffer: ByteWriter(capacity: 0))
        swap(&bodyWriter.buffer, &writer)
        bodyWriter.buffer.writeUInt32BE(0)
        envelope.write(to: &bodyWriter.buffer)
        body.encode(to: &bodyWriter)
        bodyWriter.buffer.setUInt32BE(
            UInt32(bodyWriter.buffer.count - start - FrameEncoder.headerSize), at: start)
        swap(&bodyWriter.buffer, &writer)
    }

    /// Builds a whole frame whose body is already encoded.
    public static func frame(_ envelope: Envelope, rawBody: some Collection<UInt8>) -> [UInt8] {
        var writer = ByteWriter(capacity: 64 + rawBody.count)
        writer.writeUInt32BE(0)
        envelope.write(to: &writer)
        writer.writeBytes(rawBody)
        writer.setUInt32BE(UInt32(writer.count - FrameEncoder.headerSize), at: 0)
        return writer.bytes
    }
}
