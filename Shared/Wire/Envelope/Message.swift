/// A decoded frame: its envelope and where its body lies in the payload.
public struct Message: Sendable {
    /// The frame's header.
    public var envelope: Envelope
    /// The whole frame payload (envelope and body).
    public var payload: [UInt8]
    /// The offset in ``payload`` where the body starts.
    public var bodyStart: Int

    /// The body bytes (a copy).
    public var body: [UInt8] { Array(payload[bodyStart...]) }

    /// Parses a frame payload's envelope.
    public init(payload: [UInt8]) throws(EnvelopeError) {
        var reader = ByteReader(payload)
        envelope = try Envelope.read(from: &reader)
        self.payload = payload
        bodyStart = reader.index
    }

    /// Decodes the body as `T`.
    @inlinable
    public func decodeBody<T: WireMessage>(as _: T.Type = T.self) throws(WireDecodingError) -> T {
        try T(decoding: payload, from: bodyStart, to: payload.count)
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
