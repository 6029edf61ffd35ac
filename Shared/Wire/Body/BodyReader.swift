/// Reads a message body field by field: the direct, fast half of the body codec.
///
/// Loop over ``nextTag()``; for a tag you know, `read()` the value (its wire type
/// is checked); for any other, ``skip()`` it, which is what makes old readers accept
/// new writers' fields. A field seen twice keeps the last value; a repeated field's
/// elements go through ``append(to:)``, which sizes the array once.
public struct BodyReader: Sendable {
    /// The bytes of this body.
    public var bytes: ByteReader
    /// The wire type of the field whose key was read last.
    public var wireType: WireType = .varint
    /// The tag of the field whose key was read last.
    public var tag: UInt32 = 0

    /// Reads the body in `bytes`.
    @inlinable
    public init(_ bytes: ByteReader) {
        self.bytes = bytes
    }

    /// Reads the next field's key and returns its tag, or `nil` at the end of the body.
    @inlinable
    public mutating func nextTag() throws(WireDecodingError) -> UInt32? {
        guard !bytes.isAtEnd else { return nil }
        let key = try bytes.readVarintField()
        let rawType = UInt8(key & 7)
        guard let type = WireType(rawValue: rawType) else {
            throw WireDecodingError.unsupportedWireType(rawType, tag: UInt32(truncatingIfNeeded: key >> 3))
        }
        let tag = key >> 3
        guard tag > 0, tag < 1 << 29 else { throw WireDecodingError.invalidTag(tag) }
        self.tag = UInt32(tag)
        self.wireType = type
        return self.tag
    }

    /// Reads the current field's value as `Value`.
    @inlinable
    public mutating func read<Value: WireField>(_: Value.Type = Value.self) throws(WireDecodingError) -> Value {
        guard wireType == Value.wireType else {
            throw WireDecodingError.wrongWireType(expected: Value.wireType, found: wireType, tag: tag)
        }
        do {
            return try Value.readValue(from: &bytes)
        } catch {
            throw error.inside(tag)
        }
    }

    /// Skips the current field's value, whatever it is.
    @inlinable
    public mutating func skip() throws(WireDecodingError) {
        switch wireType {
        case .varint:
            do { _ = try bytes.readVarint() } catch { throw WireDecodingError.truncated(tag: tag) }
        case .fixed64:
            do { try bytes.skip(8) } catch { throw WireDecodingError.truncated(tag: tag) }
        case .fixed32:
            do { try bytes.skip(4) } catch { throw WireDecodingError.truncated(tag: tag) }
        case .lengthDelimited:
            do {
                let length = try bytes.readLength()
                bytes.index += length
            } catch {
                throw error.inside(tag)
            }
        }
    }

    /// Reads the current field's value and appends it to a repeated field's `values`.
    ///
    /// On the field's first element the array reserves room for every later field with the
    /// same tag, counted ahead without decoding them (``countRemaining(of:)``): a list of a
    /// hundred clinics, or a clinic's opening hours, then grows once instead of doubling its
    /// way up (each doubling a malloc, a copy and a free).
    ///
    /// The reservation never exceeds four times the body's remaining bytes (or 16 elements):
    /// a hostile body of a million two-byte elements that fail to decode must not make a
    /// 4 MiB frame reserve hundreds of megabytes. Past that the array grows as usual.
    @inlinable
    public mutating func append<Value: WireField>(to values: inout [Value]) throws(WireDecodingError) {
        if values.isEmpty {
            let limit = Swift.max(16, 4 * bytes.remaining / Swift.max(1, MemoryLayout<Value>.stride))
            values.reserveCapacity(Swift.min(countRemaining(of: tag), limit))
        }
        values.append(try read(Value.self))
    }

    /// How many fields carry `tag` from the current one (whose key was read last, counted if
    /// it carries `tag`) to the end of the body, without consuming anything.
    ///
    /// A capacity hint only: it stops counting at the first malformed field, which the
    /// decoding pass itself then reports. It never exceeds half the remaining bytes (a field
    /// takes at least a key byte and a value byte).
    ///
    /// Mutating only to scan in place (a copy of the reader would retain its storage): the
    /// reader is left exactly where it was.
    @inlinable
    public mutating func countRemaining(of tag: UInt32) -> Int {
        let (index, current, type) = (bytes.index, self.tag, wireType)
        defer { (bytes.index, self.tag, wireType) = (index, current, type) }
        var count = current == tag ? 1 : 0
        do {
            try skip()
            while let next = try nextTag() {
                if next == tag { count += 1 }
                try skip()
            }
        } catch {
            // Malformed from here on: the count so far is a fine hint.
        }
        return count
    }

    /// Returns a required field's value, or throws `missingField` naming its tag.
    ///
    /// For a message decoded often, `guard let value else { throw … }` is cheaper: the value
    /// passes through this function as a copy, which costs a string field a retain and a release
    /// (the generated codec unwraps that way).
    @inlinable
    public func required<Value>(_ value: Value?, _ tag: UInt32) throws(WireDecodingError) -> Value {
        guard let value else { throw WireDecodingError.missingField(tag: tag) }
        return value
    }
}
