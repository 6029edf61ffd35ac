/// A value that can be a field of a message: a scalar, a string, bytes, a timestamp,
/// a ``WireEnum`` or a nested ``WireMessage``.
///
/// Conformers write and read the value only; ``BodyWriter`` writes the field key.
public protocol WireField: Sendable {
    /// How this value is laid out in the body.
    static var wireType: WireType { get }
    /// Appends the value (without its key).
    func writeValue(to writer: inout ByteWriter)
    /// Reads a value laid out as ``wireType``.
    static func readValue(from reader: inout ByteReader) throws(WireDecodingError) -> Self
}

extension ByteReader {
    /// Reads a varint length and checks that many bytes remain.
    @inlinable
    public mutating func readLength() throws(WireDecodingError) -> Int {
        let raw: UInt64
        do { raw = try readVarint() } catch { throw WireDecodingError(.truncated) }
        guard raw <= UInt64(remaining) else { throw WireDecodingError(.truncated) }
        return Int(raw)
    }

    /// Reads a varint, reporting truncation as a decoding error.
    @inlinable
    public mutating func readVarintField() throws(WireDecodingError) -> UInt64 {
        do { return try readVarint() } catch { throw WireDecodingError(.truncated) }
    }
}

extension Bool: WireField {
    public static var wireType: WireType { .varint }
    @inlinable public func writeValue(to writer: inout ByteWriter) { writer.writeByte(self ? 1 : 0) }
    @inlinable public static func readValue(from reader: inout ByteReader) throws(WireDecodingError) -> Bool {
        try reader.readVarintField() != 0
    }
}

extension Int64: WireField {
    public static var wireType: WireType { .varint }
    @inlinable public func writeValue(to writer: inout ByteWriter) { writer.writeVarint(Varint.zigZag(self)) }
    @inlinable public static func readValue(from reader: inout ByteReader) throws(WireDecodingError) -> Int64 {
        Varint.unZigZag(try reader.readVarintField())
    }
}

extension Int: WireField {
    public static var wireType: WireType { .varint }
    @inlinable public func writeValue(to writer: inout ByteWriter) { writer.writeVarint(Varint.zigZag(Int64(self))) }
    @inlinable public static func readValue(from reader: inout ByteReader) throws(WireDecodingError) -> Int {
        Int(Varint.unZigZag(try reader.readVarintField()))
    }
}

extension UInt64: WireField {
    public static var wireType: WireType { .varint }
    @inlinable public func writeValue(to writer: inout ByteWriter) { writer.writeVarint(self) }
    @inlinable public static func readValue(from reader: inout ByteReader) throws(WireDecodingError) -> UInt64 {
        try reader.readVarintField()
    }
}

extension Double: WireField {
    public static var wireType: WireType { .fixed64 }
    @inlinable public func writeValue(to writer: inout ByteWriter) { writer.writeUInt64LE(bitPattern) }
    @inlinable public static func readValue(from reader: inout ByteReader) throws(WireDecodingError) -> Double {
        do { return Double(bitPattern: try reader.readUInt64LE()) } catch { throw WireDecodingError(.truncated) }
    }
}

extension String: WireField {
    public static var wireType: WireType { .lengthDelimited }
    @inlinable public func writeValue(to writer: inout ByteWriter) {
        var copy = self
        copy.withUTF8 { utf8 in
            writer.writeVarint(UInt64(utf8.count))
            writer.writeBytes(utf8)
        }
    }
    @inlinable public static func readValue(from reader: inout ByteReader) throws(WireDecodingError) -> String {
        let length = try reader.readLength()
        do { return try reader.readUTF8(length) } catch { throw WireDecodingError(.truncated) }
    }
}

extension Array: WireField where Element == UInt8 {
    public static var wireType: WireType { .lengthDelimited }
    @inlinable public func writeValue(to writer: inout ByteWriter) {
        writer.writeVarint(UInt64(count))
        writer.writeBytes(self)
    }
    @inlinable public static func readValue(from reader: inout ByteReader) throws(WireDecodingError) -> [UInt8] {
        let length = try reader.readLength()
        do { return Array(try reader.readBytes(length)) } catch { throw WireDecodingError(.truncated) }
    }
}

extension Timestamp: WireField {
    public static var wireType: WireType { .varint }
    @inlinable public func writeValue(to writer: inout ByteWriter) {
        writer.writeVarint(Varint.zigZag(microsecondsSinceEpoch))
    }
    @inlinable public static func readValue(from reader: inout ByteReader) throws(WireDecodingError) -> Timestamp {
        Timestamp(microsecondsSinceEpoch: Varint.unZigZag(try reader.readVarintField()))
    }
}

extension WireEnum {
    public static var wireType: WireType { .lengthDelimited }
    @inlinable public func writeValue(to writer: inout ByteWriter) { wireName.writeValue(to: &writer) }
    @inlinable public static func readValue(from reader: inout ByteReader) throws(WireDecodingError) -> Self {
        Self(wireName: try String.readValue(from: &reader))
    }
}
