/// The header at the start of every frame's payload, before the body.
///
/// Layout (big-endian; docs/PROTOCOL.md, "Envelope"):
///
/// | bytes | field |
/// |---|---|
/// | 1 | version, always 1 |
/// | 1 | kind (``MessageKind``) |
/// | 8 | correlation id (0 = about the connection itself) |
/// | 2 + n | operation: u16 length, then UTF-8 `service.operation` (may be empty) |
/// | 8 | remaining deadline in microseconds (0 = none) |
/// | 1 + n | traceparent: u8 length (0 = absent), then ASCII |
public struct Envelope: Sendable, Equatable {
    /// The only envelope version this build speaks.
    public static let version: UInt8 = 1
    /// The longest operation name accepted.
    public static let maxOperationLength = 512

    /// What the frame is.
    public var kind: MessageKind
    /// Matches a response to its request; 0 means the frame is about the connection.
    public var correlationID: UInt64
    /// `service.operation`, e.g. `clinics.nearest`; empty on frames that need none.
    public var operation: String
    /// Time left for the callee to answer, in microseconds; 0 means no deadline.
    public var deadlineMicroseconds: UInt64
    /// The W3C trace context of the call, when traced.
    public var traceparent: String?

    /// Creates an envelope.
    @inlinable
    public init(
        kind: MessageKind, correlationID: UInt64, operation: String = "",
        deadlineMicroseconds: UInt64 = 0, traceparent: String? = nil
    ) {
        self.kind = kind
        self.correlationID = correlationID
        self.operation = operation
        self.deadlineMicroseconds = deadlineMicroseconds
        self.traceparent = traceparent
    }

    /// The time left to answer, or nil when there is no deadline.
    public var remainingTime: Duration? {
        deadlineMicroseconds == 0 ? nil : .microseconds(Int64(clamping: deadlineMicroseconds))
    }

    /// Appends the envelope's bytes.
    @inlinable
    public func write(to writer: inout ByteWriter) {
        // The length prefix always matches the bytes that follow it, so a frame stays
        // parseable whatever the strings: an operation name past 65,535 bytes is cut there
        // (the receiver then rejects it as too long), and a traceparent past 255 bytes,
        // which no valid W3C traceparent is, is dropped.
        var name = operation
        var trace = traceparent ?? ""
        name.withUTF8 { name in
            trace.withUTF8 { trace in
                let nameCount = Swift.min(name.count, Int(UInt16.max))
                let traceCount = trace.count <= Int(UInt8.max) ? trace.count : 0
                // All of it stored at once, in room made once: a field at a time, each append
                // checked the array's uniqueness and capacity again.
                writer.append(21 + nameCount + traceCount) { room in
                    room.storeBytes(of: Self.version, as: UInt8.self)
                    room.storeBytes(of: kind.rawValue, toByteOffset: 1, as: UInt8.self)
                    room.storeBytes(of: correlationID.bigEndian, toByteOffset: 2, as: UInt64.self)
                    room.storeBytes(of: UInt16(nameCount).bigEndian, toByteOffset: 10, as: UInt16.self)
                    if let bytes = name.baseAddress { (room + 12).copyMemory(from: bytes, byteCount: nameCount) }
                    let rest = room + 12 + nameCount
                    rest.storeBytes(of: deadlineMicroseconds.bigEndian, as: UInt64.self)
                    rest.storeBytes(of: UInt8(traceCount), toByteOffset: 8, as: UInt8.self)
                    if let bytes = trace.baseAddress { (rest + 9).copyMemory(from: bytes, byteCount: traceCount) }
                }
            }
        }
    }

    /// Reads an envelope from the start of a frame payload; on return `reader` is at the body.
    public static func read(from reader: inout ByteReader) throws(EnvelopeError) -> Envelope {
        try read(from: &reader) { _ in nil }
    }

    /// Reads an envelope from the start of a frame payload; on return `reader` is at the body.
    /// `knownOperation` is given the operation name's bytes first (valid only during the call):
    /// the name it returns is the envelope's, with no `String` made from the bytes; on nil they
    /// are decoded (invalid UTF-8 replaced). A receiver that routes by name returns the name it
    /// routes on, so a name of any length costs no allocation.
    public static func read(
        from reader: inout ByteReader, knownOperation: (UnsafeRawBufferPointer) -> String?
    ) throws(EnvelopeError) -> Envelope {
        do {
            let version = try reader.readByte()
            guard version == Self.version else { throw EnvelopeError.unsupportedVersion(version) }
            let rawKind = try reader.readByte()
            guard let kind = MessageKind(rawValue: rawKind) else { throw EnvelopeError.unknownKind(rawKind) }
            let correlationID = try reader.readUInt64BE()
            let operationLength = Int(try reader.readUInt16BE())
            guard operationLength <= maxOperationLength else {
                throw EnvelopeError.operationTooLong(operationLength)
            }
            guard operationLength <= reader.remaining else { throw EnvelopeError.truncated }
            let start = reader.index
            let known = reader.storage.withUnsafeBytes { bytes in
                knownOperation(UnsafeRawBufferPointer(rebasing: bytes[start..<start + operationLength]))
            }
            let operation: String
            if let known {
                reader.index += operationLength
                operation = known
            } else {
                operation = try reader.readUTF8(operationLength)
            }
            // The limit holds for the name as read: U+FFFD replacing invalid bytes can triple it.
            guard operation.utf8.count <= maxOperationLength else {
                throw EnvelopeError.operationTooLong(operation.utf8.count)
            }
            let deadline = try reader.readUInt64BE()
            let traceLength = Int(try reader.readByte())
            let trace = traceLength == 0 ? nil : try reader.readUTF8(traceLength)
            // A traceparent is printable ASCII; any other bytes are no trace context, so none is
            // passed on (W3C: an unparseable traceparent restarts the trace). Kept as read, the
            // U+FFFD replacements could push it past 255 bytes, and it would not re-encode.
            let traceparent = trace.flatMap { text in text.utf8.allSatisfy { (0x20..<0x7f).contains($0) } ? text : nil }
            return Envelope(
                kind: kind, correlationID: correlationID, operation: operation,
                deadlineMicroseconds: deadline, traceparent: traceparent)
        } catch let error as EnvelopeError {
            throw error
        } catch {
            throw EnvelopeError.truncated
        }
    }
}
