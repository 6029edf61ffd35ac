/// A message that travels as a body: every IOInterface Input and Output.
///
/// A conformer declares its field table once (``schema``) and a direct codec beside
/// it (``encode(to:)`` and ``init(from:)``), written with ``BodyWriter`` and
/// ``BodyReader``. A test per message proves both agree (`SchemaConformance`).
///
/// ```swift
/// public struct LoginInput: WireMessage {
///     public var email: String
///     public var password: String
///     public static let schema = MessageSchema("identity.LoginInput", [
///         .required(1, "email", .string), .required(2, "password", .string),
///     ])
///     public func encode(to body: inout BodyWriter) {
///         body.write(1, email); body.write(2, password)
///     }
///     public init(from body: inout BodyReader) throws(WireDecodingError) {
///         var email: String?, password: String?
///         while let tag = try body.nextTag() {
///             switch tag {
///             case 1: email = try body.read()
///             case 2: password = try body.read()
///             default: try body.skip()
///             }
///         }
///         guard let email else { throw WireDecodingError.missingField(tag: 1) }
///         guard let password else { throw WireDecodingError.missingField(tag: 2) }
///         self.email = email
///         self.password = password
///     }
/// }
/// ```
public protocol WireMessage: WireField, Equatable {
    /// The field table: tags, names, types and presence.
    static var schema: MessageSchema { get }
    /// Writes every field of this value.
    func encode(to body: inout BodyWriter)
    /// Reads a value, skipping unknown fields and defaulting absent ones.
    init(from body: inout BodyReader) throws(WireDecodingError)
}

extension WireMessage {
    public static var wireType: WireType { .lengthDelimited }

    /// This value's body bytes.
    @inlinable
    public func encodedBody(capacity: Int = 64) -> [UInt8] {
        var body = BodyWriter(capacity: capacity)
        encode(to: &body)
        return body.buffer.bytes
    }

    /// Decodes a whole body; errors name the message and field path.
    @inlinable
    public init(decoding bytes: [UInt8]) throws(WireDecodingError) {
        try self.init(decoding: bytes, from: 0, to: bytes.count)
    }

    /// Decodes the body found at `bytes[start..<end]` without copying it.
    @inlinable
    public init(decoding bytes: [UInt8], from start: Int, to end: Int) throws(WireDecodingError) {
        var body = BodyReader(ByteReader(bytes, start: start, end: end))
        do {
            try self.init(from: &body)
        } catch {
            throw error.resolved(in: Self.schema)
        }
    }

    @inlinable
    public func writeValue(to writer: inout ByteWriter) {
        // Length-delimited: reserve one length byte, write, then widen the prefix if needed.
        let lengthAt = writer.count
        writer.writeByte(0)
        // Swapped, never copied: were `body` and `writer` to share the bytes when the prefix is
        // patched, the whole buffer would be copied for every nested message (quadratic: a list
        // of 100 clinics encoded 12× slower than by hand).
        var body = BodyWriter(buffer: ByteWriter(capacity: 0))
        swap(&body.buffer, &writer)
        encode(to: &body)
        swap(&writer, &body.buffer)
        let length = writer.count - lengthAt - 1
        if length < 0x80 {
            writer.bytes[lengthAt] = UInt8(length)
        } else {
            // Widen in place (one shift of the body, no temporary array), then write the varint.
            var extra = 0
            var rest = length >> 7
            while rest > 0 {
                extra += 1
                rest >>= 7
            }
            let bodyAt = lengthAt + 1
            writer.bytes.append(contentsOf: repeatElement(0, count: extra))
            writer.bytes.withUnsafeMutableBytes { bytes in
                let base = bytes.baseAddress! // not nil: it holds at least the prefix byte
                (base + bodyAt + extra).copyMemory(from: base + bodyAt, byteCount: length) // a memmove
            }
            var value = UInt64(length)
            var at = lengthAt
            while value >= 0x80 {
                writer.bytes[at] = UInt8(truncatingIfNeeded: value) | 0x80
                value >>= 7
                at += 1
            }
            writer.bytes[at] = UInt8(value)
        }
    }

    @inlinable
    public static func readValue(from reader: inout ByteReader) throws(WireDecodingError) -> Self {
        let length = try reader.readLength()
        let (outerEnd, nestedEnd) = (reader.end, reader.index + length)
        // The nested body is read by the same reader, narrowed and swapped in rather than copied:
        // a copy would retain the storage, twice per nested message.
        var body = BodyReader(ByteReader([]))
        swap(&body.bytes, &reader)
        defer {
            swap(&body.bytes, &reader)
            reader.end = outerEnd
            reader.index = nestedEnd
        }
        body.bytes.end = nestedEnd
        return try Self(from: &body)
    }
}

/// A message with no fields: the Output of an operation that only succeeds or fails.
public struct Empty: WireMessage, Hashable {
    /// Creates the empty message.
    public init() {}
    public static let schema = MessageSchema("wire.Empty", [])
    public func encode(to body: inout BodyWriter) {}
    public init(from body: inout BodyReader) throws(WireDecodingError) {
        while try body.nextTag() != nil { try body.skip() }
    }
}
