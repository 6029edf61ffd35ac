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
        do { raw = try readVarint() } catch { throw WireDecodingError.truncated() }
        guard raw <= UInt64(remaining) else { throw WireDecodingError.truncated() }
        return Int(raw)
    }

    /// Reads a varint, reporting truncation as a decoding error.
    @inlinable
    public mutating func readVarintField() throws(WireDecodingError) -> UInt64 {
        do { return try readVarint() } catch { throw WireDecodingError.truncated() }
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
        do { return Double(bitPattern: try reader.readUInt64LE()) } catch { throw WireDecodingError.truncated() }
    }
}

extension String: WireField {
    public static var wireType: WireType { .lengthDelimited }
    @inlinable public func writeValue(to writer: inout ByteWriter) {
        // Native and small strings lend their UTF-8 in place; only a bridged one is copied.
        let written: Void? = utf8.withContiguousStorageIfAvailable { utf8 in
            writer.writeVarint(UInt64(utf8.count))
            writer.writeBytes(utf8)
        }
        if written == nil {
            var copy = self
            copy.withUTF8 { utf8 in
                writer.writeVarint(UInt64(utf8.count))
                writer.writeBytes(utf8)
            }
        }
    }
    @inlinable public static func readValue(from reader: inout ByteReader) throws(WireDecodingError) -> String {
        let length = try reader.readLength()
        do { return try reader.readUTF8(length) } catch { throw WireDecodingError.truncated() }
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
        do { return Array(try reader.readBytes(length)) } catch { throw WireDecodingError.truncated() }
    }
}

extension Timestamp: WireField {
    public static var wireType: WireType { .varint }
    @inlinable public func writeValue(to writer: inout ByteWriter) {
        writer.writeVarint(Varint.zigZag(microsecondsSinceEpoch))
    }
    /// Reads a timestamp, refusing one outside ``Timestamp/wireRange`` (years 1 to 9999).
    @inlinable public static func readValue(from reader: inout ByteReader) throws(WireDecodingError) -> Timestamp {
        let timestamp = Timestamp(microsecondsSinceEpoch: Varint.unZigZag(try reader.readVarintField()))
        guard timestamp.isInWireRange else { throw WireDecodingError.invalidValue(timestamp.outsideWireRange) }
        return timestamp
    }
}

extension WireEnum {
    public static var wireType: WireType { .lengthDelimited }
    @inlinable public func writeValue(to writer: inout ByteWriter) { wireName.writeValue(to: &writer) }
    @inlinable public static func readValue(from reader: inout ByteReader) throws(WireDecodingError) -> Self {
        let length = try reader.readLength() // checked: `length` bytes remain before `end`
        let start = reader.index
        // `end` is public and settable: make sure the unchecked view below stays in the storage.
        guard start + length <= reader.storage.count else { throw WireDecodingError.truncated() }
        // A known case is found by its name's bytes, with no String made and no Unicode-aware
        // comparison; anything else (an unknown case, or bytes equal to a known name only under
        // canonical equivalence) takes the String path, whose outcome is unchanged.
        let known = reader.storage.withUnsafeBufferPointer { storage in
            knownCase(named: UnsafeBufferPointer(rebasing: storage[start..<start + length]))
        }
        if let known {
            reader.index += length
            return known
        }
        do { return Self(wireName: try reader.readUTF8(length)) } catch { throw WireDecodingError.truncated() }
    }

    /// The known case whose name is exactly `utf8`, byte for byte.
    @inlinable
    public static func knownCase(named utf8: UnsafeBufferPointer<UInt8>) -> Self? {
        for known in knownCases {
            let name = known.wireName.utf8
            guard name.count == utf8.count else { continue }
            // In place (a small name is lent from the stack), compared byte by byte:
            // `elementsEqual` on the views would not be inlined.
            let equal = name.withContiguousStorageIfAvailable { name in
                for index in 0..<name.count where name[index] != utf8[index] { return false }
                return true
            }
            if equal ?? name.elementsEqual(utf8) { return known }
        }
        return nil
    }
}
